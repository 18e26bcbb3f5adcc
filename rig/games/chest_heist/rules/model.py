"""The chest-cracking dice game as values: skimmers, a turn, the game, and ``new_game``.

Twelve turns; each starts with a roll of the 5 dice (drawn by :mod:`.dice` from the game's
seed).  Dice are named by their place in the roll, 1 to 5; each is used once a turn, to tick a
box or to charge a skimmer.  3 rerolls for the whole game; 3 skimmers.  At the end of turn N
the N-th chest, A to L, goes into maximum lock; the game ends when L locks.

With a sheet (:mod:`.sheet`) the game also knows the boxes ticked, the chests opened and their
diamonds; without one the table counts the diamonds on paper and enters them at the end.
"""

from dataclasses import dataclass
from typing import Optional, Tuple

from rig.core.errors import RulesError
from .dice import check_seed
from .sheet import CHESTS, Sheet
from .titles import title_for

TURNS = len(CHESTS)          # 12: one chest locks at the end of each turn
DICE = 5
REROLLS = 3
SKIMMERS = 3


@dataclass(frozen=True)
class Skimmer:
    """``value`` is the sum of the dice charged into it; ``used_turn`` the turn it was used
    (switched off), or None."""
    value: int = 0
    used_turn: Optional[int] = None

    @property
    def used(self):
        return self.used_turn is not None

    @property
    def charged(self):
        return self.value > 0 and not self.used


@dataclass(frozen=True)
class Action:
    """One use of dice in a turn: ``kind`` "mark" (``target`` the box id or spec, ``formula``
    the arithmetic) or "charge" (``target`` the skimmer's number, ``formula`` its new value)."""
    kind: str
    target: object
    dice: Tuple[int, ...]            # places 1-5
    values: Tuple[int, ...]
    skimmers: Tuple[int, ...] = ()   # skimmers used (mark only)
    formula: str = ""


@dataclass(frozen=True)
class Turn:
    number: int
    rolls: Tuple[Tuple[int, ...], ...] = ()     # the 5 dice after the roll and each reroll
    rerolled: Tuple[Tuple[int, ...], ...] = ()  # the places each reroll threw again
    actions: Tuple[Action, ...] = ()

    @property
    def rolled(self):
        return bool(self.rolls)

    @property
    def dice(self):
        return self.rolls[-1] if self.rolls else ()

    @property
    def used(self):
        """Places used this turn."""
        return frozenset(d for a in self.actions for d in a.dice)


@dataclass(frozen=True)
class Game:
    seed: int
    player: Optional[str] = None
    sheet: Optional[Sheet] = None
    turn: Optional[Turn] = Turn(1)          # None once chest L has locked
    turns: Tuple[Turn, ...] = ()            # the finished turns
    draws: int = 0                          # dice drawn so far (the next is die number draws)
    rerolls_left: int = REROLLS
    skimmers: Tuple[Skimmer, ...] = (Skimmer(),) * SKIMMERS
    locked: Tuple[str, ...] = ()            # A, B, ... in order
    ticked: frozenset = frozenset()         # box ids (with a sheet)
    opened: Tuple[str, ...] = ()            # chests opened while in their normal state
    counted: Optional[int] = None           # the table's diamond count (without a sheet)
    t: float = 0.0

    @property
    def over(self):
        return len(self.locked) == TURNS

    @property
    def next_lock(self):
        return None if self.over else CHESTS[len(self.locked)]

    @property
    def diamonds(self):
        """Diamonds won: from the opened chests with a sheet, else the table's count (None
        until entered)."""
        if self.sheet is None:
            return self.counted
        chests = {x.letter: x.diamonds for x in self.sheet.chests}
        return sum(chests[c] for c in self.opened)

    @property
    def unused_skimmers(self):
        return sum(1 for s in self.skimmers if not s.used)

    @property
    def score(self):
        """1 per diamond and per unused skimmer; None while the diamonds are not known."""
        return None if self.diamonds is None else self.diamonds + self.unused_skimmers

    @property
    def title(self):
        """(French, English) once the game is over and the score known, else None."""
        return title_for(self.score) if self.over and self.score is not None else None


def new_game(seed, player=None, sheet=None):
    """A game about to begin.  ``seed`` makes the dice (the shell picks it at random and the
    recording keeps it); ``sheet`` is a :class:`~.sheet.Sheet` or None."""
    check_seed(seed)
    if player is not None and (not isinstance(player, str) or not player.strip()
                               or not player.isprintable()):
        raise RulesError("player %r is not a usable name; give a printable, non-empty name "
                         "or none"  # not words: for the builder
                         % (player,))
    if sheet is not None and not isinstance(sheet, Sheet):
        raise RulesError("sheet %r is not a score sheet; read the file with parse_sheet "
                         "or play without one"  # not words: for the builder
                         % (sheet,))
    return Game(seed, player, sheet)
