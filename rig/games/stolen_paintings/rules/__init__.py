"""Stolen Paintings: the exhibition timer and the detectives' secret ballots, refereed.

Rulebook: ../shared/rulebook/stolen-paintings.md.  Every player is thief once, in list order;
the others are the round's detectives.  A round: the exhibition countdown (replacing the
hourglass) ends with a sound and "detectives, close your eyes"; the thief swaps 1 to 3
paintings and enters, on their phone, which of the 8 in the row are stolen (that entry opens
the detectives' eyes); each detective marks, on their own phone, the ones they believe stolen;
the last ballot reveals everything and scores the round (:mod:`.scoring`).

The host's whole interface::

    game = new_game(["Ana", "Ben", "Caro"], exhibition_s=60)
    game, effects = step(game, Start(t=3.0, by="Ana"))   # IllegalMove: keep the old game
    next_deadline(game)                                   # step a Tick(t) when it is due
    public_view(game, now_t)                              # the screen
    player_view(game, "Ben", now_t)                       # Ben's phone
    recording.header(game), recording.line(command)       # what to write, line by line
    replay_lines(lines)                                   # == result(game) of the live game
"""

from . import recording
from .calls import call
from .commands import Mark, Start, Steal, Tick
from .model import Game, Round, Settings, new_game
from .recording import replay_lines
from .rules import next_deadline, step
from .views import player_view, public_view, result

__all__ = ["Game", "Mark", "Round", "Settings", "Start", "Steal", "Tick", "call", "new_game",
           "next_deadline", "player_view", "public_view", "recording", "replay_lines",
           "result", "step"]
