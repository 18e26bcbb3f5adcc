"""Canine Kleptomaniacs on the rig: the end-of-game scorer and the dice the action cards call for.

The cards are played at the table; the rig keeps what the table would argue about:

* :mod:`.cards` -- the card table the owner types in once (``data/example_cards.toml``, its
  numbers placeholders), validated;
* :mod:`.scoring` -- each player's Hiding Places, face-up Master's Bedroom cards, doggy, Paw and
  Poo Pizza in; a per-line breakdown and total out; illegal Hiding Places refused;
* :mod:`.dice` -- the seeded die and what each roll decides (Key to the Master's Bedroom,
  Rancid Badger Poo, Squirrel, Charm Offensive);
* :mod:`.game` -- the state, its commands and ``step``, and the game-end tracker;
* :mod:`.effects`, :mod:`.calls` -- what happened, and the same in words;
* :mod:`.views` -- what the screen and each phone show;
* :mod:`.recording` -- the recording, ``replay_lines`` and ``result``.
"""

from .cards import CardTable, parse_card_table
from .game import (GAME, ChooseDoggy, DeckEmpty, DrawAction, Game, PlayCard, Reveal, Roll,
                   new_game, step)
from .recording import command_line, header, replay_lines, result
from .scoring import HidingPlace, Holdings, holdings_from_json, score_holdings
from .views import player_view, public_view

__all__ = ["CardTable", "parse_card_table", "GAME", "ChooseDoggy", "DeckEmpty", "DrawAction",
           "Game", "PlayCard", "Reveal", "Roll", "new_game", "step", "command_line", "header",
           "replay_lines", "result", "HidingPlace", "Holdings", "holdings_from_json",
           "score_holdings", "player_view", "public_view"]
