"""The solo chest-cracking dice game (the French solo roll-and-write), refereed.

Rulebook: ../shared/rulebook/chest-heist.md.  12 turns of 5 dice rolled by the rig (seeded and
recorded), 3 rerolls for the game, 3 skimmers, a chest locking A to L at the end of each turn,
the combination checker (:mod:`.checker`), and the optional score sheet (:mod:`.sheet`) that
lets the rig tick boxes, open chests and count diamonds.  Final score: 1 per diamond and per
unused skimmer, and the rulebook's title (:mod:`.titles`).

The host's whole interface::

    game = new_game(seed, player="Ana", sheet=parse_sheet(text))   # sheet optional
    game, effects = step(game, Roll(t=1.0))          # IllegalMove: keep the old game
    may_mark(game, "r2c3", dice=(1, 4))              # a Verdict, for a live hint
    public_view(game), player_view(game, "Ana")      # the screen, the phone
    recording.header(game), recording.line(command, game)   # what to write after each step
    replay_lines(lines)                              # == result(game) of the live game
"""

from . import recording
from .calls import call
from .checker import Verdict, check
from .commands import Charge, CountDiamonds, EndTurn, Mark, Reroll, Roll
from .model import Game, new_game
from .recording import replay_lines
from .rules import may_mark, step
from .sheet import Sheet, parse_sheet
from .titles import title_for
from .views import player_view, public_view, result

__all__ = ["Charge", "CountDiamonds", "EndTurn", "Game", "Mark", "Reroll", "Roll", "Sheet",
           "Verdict", "call", "check", "may_mark", "new_game", "parse_sheet", "player_view",
           "public_view", "recording", "replay_lines", "result", "step", "title_for"]
