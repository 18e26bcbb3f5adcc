"""What players and the host send to a game of Stolen Paintings (frozen, timestamped).

``t`` is seconds on the game's clock (since the recording began); ``by`` is the player who
sent the command from their phone, or None for the table's own controls.
"""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Start:
    """Start the round's exhibition countdown (the thief, or the table, once the 24 paintings
    are laid out)."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class Tick:
    """Time has reached ``t``: ends the exhibition when its countdown is over."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class Steal:
    """The thief's secret entry: which of the 8 paintings in the row are stolen (1 to 3).
    It is also the thief's "done": the detectives open their eyes."""
    t: float
    by: Optional[str] = None
    paintings: Tuple[int, ...] = ()


@dataclass(frozen=True)
class Mark:
    """A detective's secret ballot: the paintings they believe stolen.  A detective may send
    it again to change it, until the last ballot is in."""
    t: float
    by: Optional[str] = None
    paintings: Tuple[int, ...] = ()
