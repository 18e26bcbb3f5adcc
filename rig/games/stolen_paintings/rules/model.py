"""Stolen Paintings as values: the settings, one round, the whole game, and ``new_game``.

A game is a sequence of rounds, one per player in list order, each with its thief; the others
are the round's detectives.  A round goes through four phases:

* ``"setup"``: the thief lays out the 24 paintings (4x6); the exhibition starts on a command;
* ``"exhibition"``: the countdown that replaces the hourglass (``ends_t``);
* ``"swap"``: the detectives' eyes are closed; the thief swaps 1 to 3 paintings, lays out 8 in
  a row numbered 1 to 8 and enters the stolen ones on their phone (that entry is their "done");
* ``"auction"``: eyes open; each detective marks, in secret, the paintings they think stolen.
  The last ballot reveals them all and scores the round.

What the rulebook leaves open is a setting here (:class:`Settings`), each with a default.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

from rig.core.errors import RulesError
from rig.core.gamekit import check_players, is_number, is_whole

PAINTINGS = 8                 # the row the thief lays out, numbered 1 to 8
MOST_STOLEN = 3               # the thief removes 1 to 3 paintings
GRID = (4, 6)                 # the exhibition: 24 paintings in a 4x6 grid
PLAYERS = (2, 8)              # a thief and 1 to 7 detectives (the screen's table holds 8)
EXHIBITION_S = (5.0, 600.0)
HONEST_COST = 2               # the least cost of a wrong mark when more than 3 may be marked

PHASES = ("setup", "exhibition", "swap", "auction")


@dataclass(frozen=True)
class Settings:
    """The readings of what the rulebook does not say.

    ``exhibition_s``: the hourglass's time (the rulebook gives none).  ``max_marks``: how many
    of the 8 a detective may mark; ``wrong_mark_cost``: the points a mark on a painting that
    was not stolen costs.  The default (at most 3 marks, the most that can be stolen; wrong
    marks free) keeps marking all 8 impossible; marking more than 3 is allowed only when each
    wrong mark costs at least 2, so that marking all 8 loses points whatever was stolen
    (at best 6 + 3 - 5 x 2 = -1)."""
    exhibition_s: float = 60.0
    max_marks: int = MOST_STOLEN
    wrong_mark_cost: int = 0


@dataclass(frozen=True)
class Round:
    """One round.  ``stolen`` stays secret until the reveal; ``ballots`` are (detective, marks)
    pairs in player order, secret until all are in."""
    number: int
    thief: str
    phase: str = "setup"
    started_t: Optional[float] = None
    ends_t: Optional[float] = None
    stolen: frozenset = frozenset()
    ballots: Tuple[Tuple[str, frozenset], ...] = ()
    revealed_t: Optional[float] = None

    def ballot(self, detective):
        return dict(self.ballots).get(detective)


@dataclass(frozen=True)
class Game:
    players: Tuple[str, ...]
    settings: Settings = Settings()
    rounds: Tuple[Round, ...] = ()           # revealed and scored, in order
    current: Optional[Round] = None          # None once everyone has been thief
    t: float = 0.0

    @property
    def over(self):
        return self.current is None

    def detectives(self, thief):
        return tuple(p for p in self.players if p != thief)


def check_settings(exhibition_s=60.0, max_marks=MOST_STOLEN, wrong_mark_cost=0):
    """The :class:`Settings` for these values, or RulesError naming the value and the range."""
    low, high = EXHIBITION_S
    if not is_number(exhibition_s) or not low <= exhibition_s <= high:
        raise RulesError("exhibition_s %r is not usable; give the exhibition's length in "
                         "seconds, %g to %g (default 60)"  # not words: a setting, for the builder
                         % (exhibition_s, low, high))
    if not is_whole(max_marks, 1, PAINTINGS):
        raise RulesError("max_marks %r is not usable; a detective may mark 1 to %d paintings "
                         "(default %d)"  # not words: a setting, for the builder
                         % (max_marks, PAINTINGS, MOST_STOLEN))
    if not is_whole(wrong_mark_cost, 0, 9):
        raise RulesError("wrong_mark_cost %r is not usable; give the points a wrong mark costs, "
                         "0 to 9 (default 0)"  # not words: a setting, for the builder
                         % (wrong_mark_cost,))
    if max_marks > MOST_STOLEN and wrong_mark_cost < HONEST_COST:
        raise RulesError(
            "max_marks %d with wrong_mark_cost %d would let a detective mark every painting for "
            "free points; allow at most %d marks, or make each wrong mark cost at "
            "least %d"  # not words: a setting, for the builder
            % (max_marks, wrong_mark_cost, MOST_STOLEN, HONEST_COST))
    return Settings(float(exhibition_s), max_marks, wrong_mark_cost)


def new_game(players, exhibition_s=60.0, max_marks=MOST_STOLEN, wrong_mark_cost=0):
    """A game about to begin: round 1's thief is the first player, then the list in order."""
    players = check_players(players, *PLAYERS)
    settings = check_settings(exhibition_s, max_marks, wrong_mark_cost)
    return Game(players, settings, current=Round(1, players[0]))
