"""What happens at the table, and what the rig does about it: values, each with its own time.

Three families, each a frozen dataclass carrying ``t`` (seconds on the match's clock):

* raw inputs (:class:`InputChange`): a pin, the hand sensor or the relic hub changed; they are
  what recordings store and what :mod:`rig.core.detect` turns into game events;
* commands from the rig's controls (:class:`Choose`, :class:`ConfirmLoot`, :class:`UndoTouch`,
  :class:`End`): the guard's decisions, recorded too;
* game events (everything the detector emits) fed to :func:`rig.core.rules.step`.

The engine answers with *effects* (:class:`Effect` subclasses): what the shell should make happen
(buzz, say, show a banner).  None of this module does I/O or reads a clock.
"""

from dataclasses import dataclass, field
from typing import Optional, Tuple


# --- Raw inputs and commands (the recording's vocabulary) ---------------------------------------

@dataclass(frozen=True)
class InputChange:
    """An input took a new value: ``laser.4`` = 1, ``tof`` = 350, ``relic.2.tilt`` = 12.5 ..."""
    t: float
    name: str
    value: float


@dataclass(frozen=True)
class Choose:
    """A choice at the rig's controls: ``role`` is ``"thief"`` or ``"guard"``."""
    t: float
    role: str
    player: str


@dataclass(frozen=True)
class ConfirmLoot:
    """The guard's count of the haul after a turn that ended uncaught."""
    t: float
    paintings: int
    relics: int
    by: Optional[str] = None


@dataclass(frozen=True)
class UndoTouch:
    """The guard rules that the last counted laser touch was not a touch (a stuck contact, a
    wire).  Only during a turn, or on the last turn before its haul is settled."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class End:
    """The recording stops here: inputs held until ``t``; later deadlines never fire."""
    t: float


# --- Game events (detector -> engine) -------------------------------------------------------------

@dataclass(frozen=True)
class Tick:
    """Time has reached ``t``: lets the engine fire its own deadlines (the turn timer)."""
    t: float


@dataclass(frozen=True)
class ButtonPress:
    """The start/exit button was pressed.  ``problems`` lists what keeps the museum from being
    ready (empty when it is ready); the engine uses it only when a press would start a turn."""
    t: float
    problems: Tuple[str, ...] = ()


@dataclass(frozen=True)
class HandIn:
    t: float


@dataclass(frozen=True)
class HandOut:
    t: float


@dataclass(frozen=True)
class LaserTouch:
    """One touch episode on a laser (1-3 printed, 4-8 added), stamped with its first edge."""
    t: float
    laser: int


@dataclass(frozen=True)
class Displaced:
    """An added rod's seat stayed open long enough: the rod was moved out of its place."""
    t: float
    laser: int


@dataclass(frozen=True)
class GuardTouch:
    t: float


@dataclass(frozen=True)
class PaintingMoved:
    """A painting left its stand (``on_stand`` False) or came back to it."""
    t: float
    painting: int
    on_stand: bool


@dataclass(frozen=True)
class RelicMoved:
    """A relic started moving (the first sign that it is being taken)."""
    t: float
    relic: int


@dataclass(frozen=True)
class RelicPose:
    """A relic's settled condition changed: upright (< 30 deg) and still, or not."""
    t: float
    relic: int
    upright: bool
    still: bool


@dataclass(frozen=True)
class RelicBroken:
    """A relic fell or tipped over while the hand was inside: it can never count again."""
    t: float
    relic: int
    cause: str  # "fall" or "tipped"


@dataclass(frozen=True)
class Fault:
    """A sensor fault the referee must see (never scored): ``source`` such as ``laser.4``,
    ``tof``, ``hub``; ``active`` False when it clears."""
    t: float
    source: str
    message: str
    active: bool = True


# --- Effects (engine -> shell) ----------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    t: float


@dataclass(frozen=True)
class Buzz(Effect):
    """Sound the buzzer: ``pattern`` is ``"touch"``, ``"caught"``, ``"escaped"``, ``"refused"``."""
    pattern: str = "touch"


@dataclass(frozen=True)
class Say(Effect):
    """A referee's call, for the log and the display (``"Caught! Ana touched the guard."``)."""
    text: str = ""
    level: str = "info"  # "info" or "warning"


@dataclass(frozen=True)
class Banner(Effect):
    """A big moment for the screen: ``kind`` is caught, escaped, round, match, tiebreak, title,
    resumed; ``title`` the big word and ``lines`` the details."""
    kind: str = ""
    title: str = ""
    lines: Tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class TurnStarted(Effect):
    thief: str = ""
    guard: Optional[str] = None
    tiebreak: bool = False


@dataclass(frozen=True)
class TurnEnded(Effect):
    """A turn is over; ``turn`` is the :class:`rig.core.rules.TurnRecord` as it stands."""
    turn: object = None


@dataclass(frozen=True)
class Refused(Effect):
    """A start press or a choice that could not be taken, with the reason in words.  ``code``
    is ``"match-over"`` for a start press after the match has ended (the shell may then open
    the next match, starting at ``t``, the press's first edge)."""
    reason: str = ""
    code: str = ""


@dataclass(frozen=True)
class MatchOver(Effect):
    winner: Optional[str] = None
    title: Optional[str] = None


@dataclass(frozen=True)
class Durable(Effect):
    """The recording must reach the disk now (a turn boundary or a penalty)."""


@dataclass(frozen=True)
class Feedback(Effect):
    """Instant feedback on a contact's first edge, before the touch is confirmed: ``on`` True
    sounds the buzzer at once; False withdraws it when the pulse proved to be noise."""
    source: str = ""
    on: bool = True


@dataclass(frozen=True)
class Restart:
    """The rig restarted here (a crash or a power cut): a turn running at this point is void and
    its thief plays it again."""
    t: float
