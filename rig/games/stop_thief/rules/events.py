"""Stop Thief!'s commands (what the table asks the rig) and effects (what the rig answers).

Commands carry ``t`` (seconds since the recording began) and ``by`` (the player, or None when
it came from a control that does not know who pressed it: the start button, the keypad).
Effects are structured values, never sentences (:mod:`.calls` words them) and, before an
arrest, never carry where the thief is: only :class:`Arrested` names a space the thief stood on.
"""

from dataclasses import dataclass
from typing import Optional, Tuple


# --- Commands ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class GetClue:
    """Get a clue: the thief moves and the rig plays the sound of where it went.  Pressed again
    after this turn's clue, it ends the turn and gives the next player their clue."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class ReplayClue:
    """Play the last clue again (anyone may ask; nothing moves)."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class Arrest:
    """The player whose turn it is attempts an arrest on numbered ``space``."""
    t: float
    space: int
    by: Optional[str] = None


@dataclass(frozen=True)
class EndTurn:
    """The player whose turn it is ends it without an arrest."""
    t: float
    by: Optional[str] = None


# --- Effects ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    t: float


@dataclass(frozen=True)
class TurnBegan(Effect):
    player: str = ""


@dataclass(frozen=True)
class NewThief(Effect):
    """A thief card is revealed: a crime has been committed (the thief is on a crime scene)."""
    number: int = 0          # 1 for the game's first thief
    name: str = ""
    reward: int = 0


@dataclass(frozen=True)
class ClueGiven(Effect):
    """The thief moved (or stayed): ``kind`` is one of :data:`.thief.CLUES`."""
    kind: str = ""
    number: int = 0          # this thief's clue count, 1 for its first
    by: str = ""
    replay: bool = False     # True: the same clue played again, nothing moved


@dataclass(frozen=True)
class CrimeWave(Effect):
    """The thief robbed a crime scene again: ``bonus`` added, ``total`` on the card now."""
    bonus: int = 0
    total: int = 0


@dataclass(frozen=True)
class WrongArrest(Effect):
    by: str = ""
    space: int = 0
    fine: int = 0            # what the player paid the bank (never more than they had)


@dataclass(frozen=True)
class Arrested(Effect):
    """The thief was on ``space``: ``by`` collects ``paid`` (reward + crime wave)."""
    by: str = ""
    space: int = 0
    number: int = 0
    name: str = ""
    reward: int = 0
    crime_wave: int = 0
    paid: int = 0
    path: Tuple[int, ...] = ()


@dataclass(frozen=True)
class DeckReshuffled(Effect):
    """Every thief card was used: the caught ones are shuffled into a new deck."""
    cards: int = 0


@dataclass(frozen=True)
class Retired(Effect):
    """``player`` reached the cash to retire: the game is over."""
    player: str = ""
    money: int = 0
