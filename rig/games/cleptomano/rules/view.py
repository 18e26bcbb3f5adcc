"""What the score display shows: one immutable snapshot of the match, built by the daemon.

The display only ever sees a :class:`Scoreboard`; it never reaches into the engine, so drawing can
happen in another thread or another process (a Scoreboard pickles) without touching the referee.
"""

import enum
import functools
import math
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import ClassVar, Dict, Optional, Tuple

from rig.table.names import PAINTINGS, RELICS
from rig.core.gamekit import own_view
from rig.table.wiringcheck import WiringStep, WiringView  # noqa: F401 (the Scoreboard's)
from rig.core.msg import Msg
from rig.core.phones import PhonesView, public


class PieceKind(enum.StrEnum):
    PAINTING = "painting"
    RELIC = "relic"


class PieceState(enum.StrEnum):
    IN_PLACE = "in place"  # not words: an enum value
    TAKEN = "taken"
    BROKEN = "broken"


class Phase(enum.StrEnum):
    TURN = "turn"          # a turn runs
    BETWEEN = "between"    # between turns
    OVER = "over"          # the match has ended


class BannerKind(enum.StrEnum):
    CAUGHT = "caught"
    ESCAPED = "escaped"
    ROUND = "round"
    MATCH = "match"
    TIEBREAK = "tiebreak"
    TITLE = "title"
    RESUMED = "resumed"


@dataclass(frozen=True)
class Piece:
    """One of the five loot pieces: a painting (1-2) or a relic (1-3), and its state."""
    kind: PieceKind
    number: int
    state: PieceState = PieceState.IN_PLACE

    @property
    def label(self):
        return "%s %d" % (self.kind, self.number)


@dataclass(frozen=True)
class RoundRow:
    """One round of the round table; ``scores`` maps player -> score (None: has not played)."""
    number: int
    scores: Dict[str, Optional[int]]
    winners: Tuple[str, ...] = ()


@dataclass(frozen=True)
class BannerView:
    """A full-screen banner: its kind, the big word and the details (messages,
    :class:`rig.core.msg.Msg`; the big word is one of :data:`calls.BANNER_WORDS` but for a
    title)."""
    kind: BannerKind
    title: object
    lines: Tuple[object, ...] = ()


def shouted(kind, text):
    """The big word of a banner as the screen draws it: upper case (``CAUGHT!``, ``ROUND 2``),
    but for a criminal title, which keeps its own case."""
    return text if kind == BannerKind.TITLE else text.upper()


DEFAULT_PIECES = tuple(Piece(PieceKind.PAINTING, n) for n in PAINTINGS) + tuple(
    Piece(PieceKind.RELIC, n) for n in RELICS)


@dataclass(frozen=True)
class Scoreboard:
    """Everything on screen at one moment.

    ``remaining_s`` is None on a level without a time limit (the screen then shows the infinity
    sign and ``elapsed_s``).
    """
    #: The game this is a snapshot of (a GameScreen's ``game``): the faces find its screen and
    #: keys by it.  A class value, not a field: ``GET /api/state`` is unchanged.
    game: ClassVar[str] = "cleptomano"
    phase: Phase = Phase.BETWEEN
    players: Tuple[str, ...] = ()
    round: int = 1
    level: str = "normal"
    lasers: int = 4
    corridor: str = "wide"
    timer_s: Optional[float] = 60.0
    # The running turn
    thief: Optional[str] = None
    guard: Optional[str] = None
    tiebreak: bool = False
    remaining_s: Optional[float] = None
    elapsed_s: float = 0.0
    touches: int = 0
    hand_inside: bool = False
    pieces: Tuple[Piece, ...] = DEFAULT_PIECES
    turn_score: int = 0
    # Between turns
    next_thief: Optional[str] = None
    next_guard: Optional[str] = None
    ready_problems: Tuple[str, ...] = ()
    # The sensor health's warnings (codes, rig.shell.audits.said), shown on the ready page
    # between turns, never during one (issue 31)
    health: Tuple[object, ...] = ()
    awaiting_loot: bool = False
    # The override (its kind: "undo", "void", "correction", "haul") whose reason the guard may
    # still give, one digit on the screen (issue 31); None when none waits
    reason_wanted: Optional[str] = None
    # Always
    rounds: Tuple[RoundRow, ...] = ()
    round_wins: Dict[str, int] = field(default_factory=dict)
    banner: Optional[BannerView] = None
    faults: Tuple[str, ...] = ()
    message: Optional[str] = None       # a refusal or a call, shown for a few seconds
    key_help: Tuple[str, ...] = ()      # the guard's key bindings, as "KEY action" strings
    winner: Optional[str] = None
    title: Optional[str] = None          # the solo heist's criminal title
    # The set-up screen and the wiring check
    roster: Tuple[str, ...] = ()         # names to pick tonight's players from: these first
    wiring: Optional[WiringView] = None  # the wiring check running on the rig's screen
    phones: Optional[PhonesView] = None  # the phone companion's pairing (None: no web face)
    language: str = "en"                 # the table's language: what the screen speaks
    # Where the table's choices come from (rig.core.table_state): ("language", "table"),
    # ("players", "rig.toml")...; the set-up screen says it (issue 30)
    table_choices: Tuple[Tuple[str, str], ...] = ()

    def looks_the_same(self, other):
        """Whether every face shows this snapshot exactly as ``other``
        (:func:`looks_the_same`): how a face that passes snapshots on skips one that would
        draw the same frame, knowing no game."""
        return looks_the_same(other, self)


# --- What a face shows of a snapshot -------------------------------------------------------------
# The faces show the time in whole seconds: the countdown rounded up (59.01 s left shows 60, as
# rig.draw.kit.countdown_seconds and the phones' page count), the running clock of a level
# without a limit rounded down.  A snapshot that differs from the last one only below the
# second looks the same on every face, so the faces that cost something per snapshot (the
# display process: a pickle, a pipe, a frame drawn; the phones: words and JSON for each
# language) pass on only a snapshot that looks different: during a turn about once a second,
# not 30 times.

_EPS = 1e-6      # so 30.000000001 left (float noise) still shows 30, not 31
_TIMES = ("remaining_s", "elapsed_s")
_STILL = tuple(f.name for f in fields(Scoreboard) if f.name not in _TIMES)


def _finite(x):
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


def countdown_shown(remaining_s):
    """The whole seconds a face shows for ``remaining_s``: rounded up, 0 only at expiry, None
    without a usable number (no time limit)."""
    x = _finite(remaining_s)
    if x is None:
        return None
    return 0 if x <= 0 else max(1, math.ceil(x - _EPS))


def clock_shown(elapsed_s):
    """The whole seconds the running clock shows for ``elapsed_s`` (a level without a limit)."""
    x = _finite(elapsed_s)
    return int(min(x, 359999.0)) if x is not None and x > 0 else 0


def looks_the_same(a, b):
    """Whether every face shows snapshot ``b`` exactly as it showed ``a``: equal but for the
    time, whose whole seconds as shown are equal too (the running clock only where no countdown
    runs).  Any other pair of values: equal.  Pure, a few microseconds."""
    if a is b:
        return True
    a, b = own_view(a), own_view(b)       # the scoreboard a screen state carries
    if type(a) is not Scoreboard or type(b) is not Scoreboard:
        return a == b
    for name in _STILL:
        if getattr(a, name) != getattr(b, name):
            return False
    shown = countdown_shown(a.remaining_s)
    if shown != countdown_shown(b.remaining_s):
        return False
    return shown is not None or clock_shown(a.elapsed_s) == clock_shown(b.elapsed_s)


def board_json(board):
    """A :class:`Scoreboard` as JSON-ready data: what ``GET /api/state`` answers and every
    phone is pushed (and what a tournament link would read).  Every field by its own name;
    enums as their words, tuples as lists, seconds rounded to the millisecond.  The pairing
    code is left out: it is shown on the rig's screen and nowhere else.  A screen state
    (:class:`rig.core.gamekit.GameScreen`) is read as the scoreboard it carries."""
    board = own_view(board)
    if board.phones is not None:
        board = replace(board, phones=public(board.phones))
    return _data(board)


_AS_IS = (str, int, bool, type(None))     # exactly these types (an IntEnum is an enum)


@functools.lru_cache(maxsize=None)
def _field_names(cls):
    """A dataclass's field names, in order (asked once per class, not per snapshot)."""
    return tuple(f.name for f in fields(cls))


def _data(value):
    if type(value) in _AS_IS:
        return value
    if isinstance(value, Msg):
        return value.as_json()        # said by each phone's face, in its own language
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, float):
        return round(value, 3) if math.isfinite(value) else None
    if isinstance(value, (list, tuple)):
        return [_data(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _data(v) for k, v in value.items()}
    if is_dataclass(value):
        names = _field_names(value if isinstance(value, type) else type(value))
        return {name: _data(getattr(value, name)) for name in names}
    return value
