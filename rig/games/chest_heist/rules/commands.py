"""What the player (from their phone) or the host sends to a chest heist (frozen, timestamped).

Dice are named by their place in the roll, 1 to 5; skimmers by their number, 1 to 3.  ``by``
is the player's name or None (the table's own controls).
"""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Roll:
    """Roll the turn's 5 dice (the rig draws them; a sound plays)."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class Reroll:
    """Throw again the unused dice at ``dice`` (places); one of the game's 3 rerolls."""
    t: float
    by: Optional[str] = None
    dice: Tuple[int, ...] = ()


@dataclass(frozen=True)
class Mark:
    """Tick ``box`` (a box id such as "r2c3" with a sheet; a box such as "7", "P", "I", "x2"
    or "x2:6" without one) with the dice at ``dice`` and the charged ``skimmers``."""
    t: float
    by: Optional[str] = None
    box: object = None
    dice: Tuple[int, ...] = ()
    skimmers: Tuple[int, ...] = ()


@dataclass(frozen=True)
class Charge:
    """Add the dice at ``dice`` to skimmer ``skimmer`` (instead of ticking a box with them)."""
    t: float
    by: Optional[str] = None
    skimmer: int = 1
    dice: Tuple[int, ...] = ()


@dataclass(frozen=True)
class EndTurn:
    """The turn is over (dice may be left unused): the next chest locks."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class CountDiamonds:
    """Without a sheet, the table's count of the diamonds won, entered after chest L locks
    (again to correct it)."""
    t: float
    by: Optional[str] = None
    diamonds: int = 0
