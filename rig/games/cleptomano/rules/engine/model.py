"""The values the rules work on: turns, rounds, the match, its outcome.  All immutable."""

import enum
from dataclasses import dataclass, field
from typing import Optional, Tuple

from ..events import PRESET, NextKind
from rig.core.errors import InvalidChoice, LevelError
from ..levels import Level, make_level, refusal
from rig.core.msg import Msg
from rig.table.names import RELICS
from rig.core.names import MAX_NAME_CHARS, check_names

MAX_TOUCHES = 3
ROUND_WINS_TO_WIN = 2
MAX_PLAYERS = 8
POINTS_PER_PAINTING = 2
POINTS_PER_RELIC = 1


class TurnOutcome(enum.StrEnum):
    ESCAPED = "escaped"
    CAUGHT = "caught"
    UNFINISHED = "unfinished"
    VOID = "void"        # voided by the guard or by a restart: the thief plays it again


class Reason(enum.StrEnum):
    """Why a thief was caught."""
    LASERS = "lasers"
    DISPLACED = "displaced"
    GUARD = "guard"
    TIME = "time"


class Termination(enum.StrEnum):
    """How a match ended."""
    ROUNDS = "rounds"          # one player won two rounds
    TIEBREAK = "tiebreak"      # several did at once; the fastest painting out won
    SOLO = "solo"              # the solo heist's one attempt is over


@dataclass(frozen=True)
class Outcome:
    """How a match ended, as python-chess's ``Outcome``: the one value every result is read
    from.  ``winner`` is None for a solo heist; ``title`` is its criminal title (None for 0
    points, and always None when players compete)."""
    termination: Termination
    winner: Optional[str] = None
    title: Optional[str] = None


@dataclass(frozen=True)
class Turn:
    """One theft attempt, running or over.  ``round`` is 0 for tiebreak attempts."""
    round: int
    thief: str
    guard: Optional[str]
    start_t: float
    tiebreak: bool = False
    end_t: Optional[float] = None
    outcome: Optional[TurnOutcome] = None     # None while running
    reason: Optional[Reason] = None
    touch_times: Tuple[Tuple[float, int], ...] = ()
    hand_inside: bool = False
    paintings_off: frozenset = frozenset()        # off their stands now
    paintings_lifted: frozenset = frozenset()     # ever off their stands during the turn
    relics_taken: Tuple[int, ...] = ()            # in the order they started moving
    broken: Tuple[int, ...] = ()
    relic_ok: Tuple[bool, ...] = (True,) * len(RELICS)   # upright and still, relics 1-3
    fouls: Tuple[Tuple[int, Optional[int]], ...] = ()    # (relic, taken before relic / None)
    confirmed: Optional[Tuple[int, int]] = None    # the guard's count (paintings, relics)
    painting_out_t: Optional[float] = None         # tiebreak: a painting out, hand outside

    @property
    def running(self):
        return self.outcome is None

    @property
    def touches(self):
        return len(self.touch_times)

    @property
    def caught(self):
        return self.outcome is TurnOutcome.CAUGHT

    # --- the haul ---------------------------------------------------------------------------
    @property
    def sensed_paintings(self):
        """Paintings off their stands (at the end of the turn, once it is over)."""
        return len(self.paintings_off)

    @property
    def sensed_relics(self):
        """Relics that moved, are upright and still, and did not break."""
        return sum(1 for r in self.relics_taken
                   if r not in self.broken and self.relic_ok[r - 1])

    @property
    def paintings(self):
        if self.caught:
            return 0
        if self.confirmed is not None:
            return min(self.confirmed[0], self.sensed_paintings)
        return self.sensed_paintings

    @property
    def relics(self):
        if self.caught:
            return 0
        if self.confirmed is not None:
            return min(self.confirmed[1], len(RELICS) - len(self.broken))
        return self.sensed_relics

    @property
    def score(self):
        """The score as it stands: None for unfinished or void turns."""
        if self.outcome in (TurnOutcome.UNFINISHED, TurnOutcome.VOID):
            return None
        if self.caught:
            return 0
        return max(0, POINTS_PER_PAINTING * self.paintings + POINTS_PER_RELIC * self.relics
                   - self.touches)

    @property
    def running_score(self):
        """What the thief would score by walking out now (for the display)."""
        if self.caught:
            return 0
        paintings = len(self.paintings_off)
        relics = sum(1 for r in self.relics_taken if r not in self.broken)
        return max(0, POINTS_PER_PAINTING * paintings + POINTS_PER_RELIC * relics
                   - self.touches)

    @property
    def duration_s(self):
        if self.end_t is None:
            return None
        return round(self.end_t - self.start_t, 6)

    # --- the tiebreak ----------------------------------------------------------------------
    @property
    def time_s(self):
        """Tiebreak: seconds from the start press to a painting out of the museum, or None."""
        if self.caught or self.painting_out_t is None:
            return None
        return round(self.painting_out_t - self.start_t, 6)

    @property
    def adjusted_s(self):
        if self.time_s is None:
            return None
        return round(self.time_s + self.touches, 6)


@dataclass(frozen=True)
class RoundResult:
    number: int
    scores: Tuple[Tuple[str, int], ...]     # in player order
    winners: Tuple[str, ...]
    guard: Optional[str]


@dataclass(frozen=True)
class NextTurn:
    """Who plays next: a round's turn, a tiebreak attempt (in ``series``) or the solo heist."""
    kind: NextKind
    round: int
    thief: str
    guard: Optional[str]
    series: int = 0


@dataclass(frozen=True)
class Tiebreak:
    """Where the tiebreak stands: the ``series`` being played, the players ``still_in``, those
    who made this series' attempt already (``attempted``), and its ``winner`` once decided."""
    series: int = 0
    still_in: Tuple[str, ...] = ()
    attempted: Tuple[str, ...] = ()
    winner: Optional[str] = None

    @property
    def waiting(self):
        return tuple(p for p in self.still_in if p not in self.attempted)


NO_TIEBREAK = Tiebreak()


@dataclass(frozen=True)
class TiebreakFold:
    """The tiebreak derived from the first ``counted`` tiebreak attempts (``last`` the latest of
    them) for the ``contenders`` it began with; ``times`` are the adjusted times of the current
    series' attempts.  The match keeps the latest one, so an attempt folds in one step, not by
    re-deriving all before it: replay time grows with the attempts, not with their square."""
    contenders: Tuple[str, ...]
    counted: int = 0
    last: Optional["Turn"] = None
    state: Tiebreak = NO_TIEBREAK
    times: Tuple[Optional[float], ...] = ()


@dataclass(frozen=True)
class Match:
    players: Tuple[str, ...]
    level: Level
    first_thief: str
    turns: Tuple[Turn, ...] = ()             # regular (and solo) turns, ended, void included
    attempts: Tuple[Turn, ...] = ()          # tiebreak attempts, ended
    current: Optional[Turn] = None           # the running turn
    chosen_thief: Optional[str] = None
    chosen_guard: Optional[Tuple[int, str]] = None   # (round, player) for the next round start
    tiebreak_guard: Optional[str] = None
    hand_inside: bool = False
    t: float = 0.0
    # The referee's overrides so far (rig.games.cleptomano.rules.overrides.Override), in order,
    # and the index of the one a reason may still be given for (a Why), or None.
    overrides: Tuple[object, ...] = ()
    why_open: Optional[int] = None
    # Derived from attempts, kept only to be folded on (see TiebreakFold): no part of the state.
    tiebreak_fold: Optional[TiebreakFold] = field(default=None, compare=False, repr=False)

    @property
    def solo(self):
        return len(self.players) == 1


def check_player(players, name):
    if name not in players:
        raise refusal(InvalidChoice,
                      "%r is not a player in this match; choose one of %s"  # not words: builder's
                      % (name, ", ".join(players)),
                      Msg("cleptomano.refuse.not_in_match", player=str(name)[:40],
                          choices=tuple(players)))


def check_players(players):
    """The one rule for a list of players, wherever it comes from (the config, a recording's
    header, the set-up screen): 1 to 8 names, each a name by :mod:`rig.core.names` (1 to 24
    characters, no control or format character, a letter or digit), no two the same name
    (ignoring case and accents).  Returns them as a tuple (as given: a recording's lines name
    them so; the config, the command line and the phones keep names NFC and stripped), or
    raises :class:`InvalidChoice` naming the bad one."""
    if not isinstance(players, (list, tuple)) or not 1 <= len(players) <= MAX_PLAYERS:
        raise refusal(InvalidChoice, "%r is not allowed; give a list of 1 to %d names (1 name "
                      "plays a solo heist)" % (players, MAX_PLAYERS),  # not words: builder's
                      Msg("cleptomano.refuse.players", most=MAX_PLAYERS))
    return check_names(players, as_given=True)     # the one rule for names (rig.core.names)


def check_new_match(command):
    """The one check of a :class:`~rig.games.cleptomano.rules.events.NewMatch`, from the set-up
    screen, the phone or a recording line: returns ``(players, level, first_thief)``, or raises
    :class:`InvalidChoice` (the players, the first thief) or :class:`LevelError` (the level)
    naming the bad value."""
    players = check_players(command.players)
    overrides = {}
    if command.timer_s is not PRESET:
        overrides["timer_s"] = command.timer_s
    if not isinstance(command.difficulty, str):
        raise refusal(LevelError, "difficulty %r is not a name; use easy, normal or "
                      "hard" % (command.difficulty,),  # not words: the builder's (a recording)
                      Msg("cleptomano.refuse.difficulty",
                          difficulty=repr(command.difficulty)[:30]))
    level = make_level(command.difficulty, lasers=command.lasers, corridor=command.corridor,
                       **overrides)
    first = command.first_thief if command.first_thief is not None else players[0]
    if first not in players:
        raise refusal(InvalidChoice, "first_thief %r is not one of the players (%s); choose "
                      "one of them" % (first, ", ".join(players)),  # not words: builder's
                      Msg("cleptomano.refuse.first_thief", player=str(first)[:40],
                          choices=tuple(players)))
    return players, level, first


def new_match(players, level, first_thief=None):
    """A match about to begin.  ``players`` in list order; one player means a solo heist."""
    players = check_players(players)
    if first_thief is None:
        first_thief = players[0]
    check_player(players, first_thief)
    return Match(players=players, level=level, first_thief=first_thief)
