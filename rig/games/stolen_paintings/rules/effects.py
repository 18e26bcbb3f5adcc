"""What a step of Stolen Paintings made happen (values; :mod:`.calls` puts them in words).

Besides these, a step may return :class:`rig.core.gamekit.Sound` (``"gong"`` when the
exhibition's time is up).
"""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class ExhibitionStarted:
    t: float
    round: int
    thief: str
    ends_t: float


@dataclass(frozen=True)
class EyesClosed:
    """The exhibition is over: detectives close their eyes while the thief swaps."""
    t: float
    round: int
    thief: str


@dataclass(frozen=True)
class EyesOpened:
    """The thief has entered the stolen paintings: detectives open their eyes and mark."""
    t: float
    round: int
    detectives: Tuple[str, ...]


@dataclass(frozen=True)
class BallotIn:
    """A detective's ballot is in (never what it says); ``waiting`` are those still marking."""
    t: float
    round: int
    detective: str
    changed: bool
    waiting: Tuple[str, ...]


@dataclass(frozen=True)
class Revealed:
    """The last ballot is in: the stolen paintings, every ballot, and the round's points."""
    t: float
    round: int
    thief: str
    stolen: Tuple[int, ...]
    marks: Tuple[Tuple[str, Tuple[int, ...]], ...]
    points: Tuple[Tuple[str, int], ...]


@dataclass(frozen=True)
class GameOver:
    """Everyone has been thief.  ``decided_by``: "total", "thief" (the tiebreak) or "shared"."""
    t: float
    winners: Tuple[str, ...]
    totals: Tuple[Tuple[str, int], ...]
    decided_by: Optional[str]
