"""What a step of the chest heist made happen (values; :mod:`.calls` puts them in words).

Besides these, a step may return :class:`rig.core.gamekit.Sound`: ``"dice"`` with every
roll and reroll, ``"fanfare"`` with a final score.
"""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Rolled:
    """The turn's dice after a roll (``rerolled`` empty) or a reroll of those places."""
    t: float
    turn: int
    dice: Tuple[int, ...]
    rerolled: Tuple[int, ...]
    rerolls_left: int


@dataclass(frozen=True)
class Ticked:
    """``box`` (its id or spec) showing ``label`` was ticked by ``formula``."""
    t: float
    turn: int
    box: str
    label: str
    formula: str
    skimmers: Tuple[int, ...]


@dataclass(frozen=True)
class Charged:
    t: float
    turn: int
    skimmer: int
    added: Tuple[int, ...]
    value: int


@dataclass(frozen=True)
class ChestOpened:
    t: float
    chest: str
    diamonds: int


@dataclass(frozen=True)
class ChestLocked:
    """The end of a turn: ``chest`` goes into maximum lock (``opened``: it was burgled first)."""
    t: float
    turn: int
    chest: str
    opened: bool


@dataclass(frozen=True)
class FinalScore:
    """Chest L has locked (or the table counted the diamonds).  ``score`` and ``title`` are
    None while a game without a sheet waits for the diamond count."""
    t: float
    diamonds: Optional[int]
    unused_skimmers: int
    score: Optional[int]
    title: Optional[Tuple[str, str]]
