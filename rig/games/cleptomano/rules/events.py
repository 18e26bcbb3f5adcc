"""What happens at the table, and what the rig does about it: values, each with its own time.

Three families, each a frozen dataclass carrying ``t`` (seconds on the match's clock):

* raw inputs (:class:`InputChange`): a pin, the hand sensor or the relic hub changed; they are
  what recordings store and what :mod:`rig.games.cleptomano.rules.detect` turns into game events;
* commands from the rig's controls (:class:`Choose`, :class:`ConfirmLoot`, :class:`UndoTouch`,
  :class:`NewMatch`, :class:`End`): the guard's decisions, recorded too;
* game events (everything the detector emits) fed to :func:`rig.games.cleptomano.rules.engine.step`.

The engine answers with *effects* (:class:`Effect` subclasses): what the shell should make happen
(buzz, light a lamp, make a recording durable) and the referee's *calls* (:class:`Call`
subclasses): what happened, as data.  The words for a call (the log line, the banner) are made in
one place, :mod:`rig.games.cleptomano.rules.calls`, so the screen, the log and the phones say the
same thing.  None of this module does I/O or reads a clock.
"""

import enum
from dataclasses import dataclass
from typing import Optional, Tuple


# --- Raw inputs and commands (the recording's vocabulary) ---------------------------------------

@dataclass(frozen=True)
class InputChange:
    """An input took a new value: ``laser.4`` = 1, ``tof`` = 350, ``relic.2.tilt`` = 12.5 ..."""
    t: float
    name: str
    value: float


class Role(enum.StrEnum):
    """Who a choice names: the next thief, or the round's guard."""
    THIEF = "thief"
    GUARD = "guard"


@dataclass(frozen=True)
class Choose:
    """A choice at the rig's controls: the next thief or the round's guard; ``by`` who made it
    (a paired phone's name; None from the rig's own keys)."""
    t: float
    role: Role
    player: str
    by: Optional[str] = None


@dataclass(frozen=True)
class ConfirmLoot:
    """The guard's count of the haul after a turn that ended uncaught; ``why`` the reason for
    an override it makes (:mod:`.overrides`: a code, or a phone's text; None: none given)."""
    t: float
    paintings: int
    relics: int
    by: Optional[str] = None
    why: Optional[str] = None


@dataclass(frozen=True)
class UndoTouch:
    """The guard rules that the last counted laser touch was not a touch (a stuck contact, a
    wire).  Only during a turn, or on the last turn before its haul is settled.  ``why`` as
    for :class:`ConfirmLoot`."""
    t: float
    by: Optional[str] = None
    why: Optional[str] = None


@dataclass(frozen=True)
class Why:
    """The reason for the override just made (the guard's digit on the screen, a phone), given
    after it: the override is never held up waiting for it.  Taken only while that override
    is the last thing commanded (:attr:`rig.games.cleptomano.rules.engine.Match.why_open`)."""
    t: float
    why: str
    by: Optional[str] = None


class Preset(enum.Enum):
    """A level setting a command leaves to its difficulty's preset (an enum, so that it keeps
    its identity when the command travels to another process)."""
    PRESET = "preset"


PRESET = Preset.PRESET


@dataclass(frozen=True)
class NewMatch:
    """Close this match and open the next one with these settings (the set-up screen, the
    phone).  ``timer_s`` is seconds, None for no limit, or :data:`PRESET`; ``lasers`` and
    ``corridor`` None keep the difficulty's; ``first_thief`` None is the first player.  In a
    recording it is the last line of the match it closes; the next recording's header is made
    from it."""
    t: float
    players: Tuple[str, ...]
    difficulty: str = "normal"
    timer_s: object = PRESET
    lasers: Optional[int] = None
    corridor: Optional[str] = None
    first_thief: Optional[str] = None
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


class Cause(enum.StrEnum):
    """How a relic broke."""
    FALL = "fall"
    TIPPED = "tipped"


class Trouble(enum.StrEnum):
    """What can keep the museum from being ready for a turn."""
    LASER_TOUCHED = "laser touched"  # not words: an enum value (calls words it)
    GUARD_TOUCHED = "guard touched"  # not words: an enum value (calls words it)
    NOT_SEATED = "not seated"  # not words: an enum value (calls words it)
    PAINTING_OFF = "painting off"  # not words: an enum value (calls words it)
    ENTRANCE_BLOCKED = "entrance blocked"  # not words: an enum value (calls words it)
    RELIC_LYING = "relic lying"  # not words: an enum value (calls words it)
    RELIC_MOVING = "relic moving"  # not words: an enum value (calls words it)
    LASER_STUCK = "laser stuck"      # not words: closed for stuck_contact_s (a wire, not a thief)
    GUARD_STUCK = "guard stuck"  # not words: an enum value (calls words it)
    BUTTON_STUCK = "button stuck"  # not words: an enum value (calls words it)


@dataclass(frozen=True)
class Problem:
    """One thing that keeps the museum from being ready: ``number`` is the laser, painting or
    relic; ``value`` the reading that shows it (the hand sensor's mm, a stuck contact's
    seconds)."""
    trouble: Trouble
    number: Optional[int] = None
    value: Optional[float] = None


@dataclass(frozen=True)
class ButtonPress:
    """The start/exit button was pressed.  ``problems`` lists what keeps the museum from being
    ready (empty when it is ready); the engine uses it only when a press would start a turn."""
    t: float
    problems: Tuple[Problem, ...] = ()


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
    cause: Cause


@dataclass(frozen=True)
class Fault:
    """A fault the referee must see (never scored): ``source`` such as ``laser.4``, ``tof``,
    ``hub``, ``recording``; ``active`` False when it clears.  ``message`` is the words of the
    part that noticed it (a device's own error); :class:`StuckContact` leaves them to
    :mod:`rig.games.cleptomano.rules.calls`."""
    t: float
    source: str
    message: str = ""
    active: bool = True


@dataclass(frozen=True)
class StuckContact(Fault):
    """A contact closed for ``after_s`` (a loose wire, a rod resting on it): counted once at
    most; cleared (``active`` False) when it opens."""
    after_s: float = 0.0


# --- Effects (engine -> shell) ----------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    t: float


class Pattern(enum.StrEnum):
    """The buzzer's patterns."""
    TOUCH = "touch"
    CAUGHT = "caught"
    ESCAPED = "escaped"
    REFUSED = "refused"


@dataclass(frozen=True)
class Buzz(Effect):
    """Sound the buzzer with ``pattern``."""
    pattern: Pattern = Pattern.TOUCH


@dataclass(frozen=True)
class Feedback(Effect):
    """Instant feedback on a contact's first edge, before the touch is confirmed: ``on`` True
    sounds the buzzer at once; False withdraws it when the pulse proved to be noise."""
    source: str = ""
    on: bool = True


@dataclass(frozen=True)
class Durable(Effect):
    """The recording must reach the disk now (a turn boundary or a penalty)."""


@dataclass(frozen=True)
class MatchOver(Effect):
    winner: Optional[str] = None
    title: Optional[str] = None


@dataclass(frozen=True)
class Dropped(Effect):
    """An event the rules refused and the referee dropped (a detector event no rule accepts
    where it came): never acted on, but the shell logs it."""
    event: object = None
    error: str = ""


# --- Calls: what happened, as data (rig.games.cleptomano.rules.calls words them) ------------------

@dataclass(frozen=True)
class Call(Effect):
    """A referee's call."""


class NextKind(enum.StrEnum):
    """What the next turn is."""
    ROUND = "round"
    TIEBREAK = "tiebreak"
    SOLO = "solo"


@dataclass(frozen=True)
class TurnStarted(Call):
    """A turn began: ``kind`` round, tiebreak or solo; ``timer_s`` its time limit (None: no
    limit)."""
    thief: str = ""
    guard: Optional[str] = None
    kind: NextKind = NextKind.ROUND
    round: int = 1
    timer_s: Optional[float] = None

    @property
    def tiebreak(self):
        return self.kind is NextKind.TIEBREAK


@dataclass(frozen=True)
class TurnEnded(Call):
    """A turn is over; ``turn`` is the :class:`rig.games.cleptomano.rules.engine.Turn` as it
    stands."""
    turn: object = None


@dataclass(frozen=True)
class TouchCounted(Call):
    """A laser touch cost the thief a point (``tiebreak``: a second): ``touches`` so far."""
    laser: int = 0
    touches: int = 0
    tiebreak: bool = False


@dataclass(frozen=True)
class RodDisplaced(Call):
    laser: int = 0


@dataclass(frozen=True)
class ExitIgnored(Call):
    """An exit press while the hand was still inside the museum."""


@dataclass(frozen=True)
class Foul(Call):
    """A relic taken against the rulebook's order: before any painting (``before`` None) or
    before relic ``before``.  Reported, not punished."""
    relic: int = 0
    before: Optional[int] = None


@dataclass(frozen=True)
class RelicLost(Call):
    """A relic broke while the hand was inside: it can never count again."""
    relic: int = 0
    cause: Cause = Cause.FALL


@dataclass(frozen=True)
class HaulConfirmed(Call):
    """The guard confirmed or corrected the haul of ``turn`` (as it now stands)."""
    turn: object = None
    by: Optional[str] = None


@dataclass(frozen=True)
class ReasonGiven(Call):
    """The reason for an override was given after it (:class:`Why`): ``override`` as it now
    stands (:class:`rig.games.cleptomano.rules.overrides.Override`)."""
    override: object = None


class Undo(enum.StrEnum):
    """What undoing a touch did."""
    RUNNING = "running"        # taken back during the turn
    VOIDED = "voided"          # it was the third: the turn is void and is played again
    CORRECTED = "corrected"    # the ended turn's score is corrected


@dataclass(frozen=True)
class TouchUndone(Call):
    """The guard ruled that the last laser touch was not a touch; ``turn`` as it now stands."""
    turn: object = None
    by: Optional[str] = None
    undo: Undo = Undo.RUNNING


@dataclass(frozen=True)
class RoundWon(Call):
    number: int = 0
    winners: Tuple[str, ...] = ()


@dataclass(frozen=True)
class MatchWon(Call):
    """``round_wins``: (player, wins) in player order."""
    winner: str = ""
    round_wins: Tuple[Tuple[str, int], ...] = ()


@dataclass(frozen=True)
class TiebreakCalled(Call):
    """A tiebreak series begins between ``contenders`` (series 1, then 2 after a tie...)."""
    series: int = 1
    contenders: Tuple[str, ...] = ()


@dataclass(frozen=True)
class TitleEarned(Call):
    """The solo heist is over: its criminal title (None: 0 points, no title)."""
    title: Optional[str] = None


@dataclass(frozen=True)
class MatchSetUp(Call):
    """A :class:`NewMatch` was accepted: the shell closes this match and opens the next one
    with ``players``, ``level`` and ``first_thief`` (checked), as ``command`` asked."""
    command: object = None
    players: Tuple[str, ...] = ()
    level: object = None
    first_thief: str = ""


@dataclass(frozen=True)
class Resumed(Call):
    """The rig restarted (a crash, a power cut) and resumed the match; ``thief`` is the thief
    whose interrupted turn is void (None: no turn was running)."""
    thief: Optional[str] = None


class Refusal(enum.StrEnum):
    MATCH_OVER = "match-over"      # a start press after the match: the shell may open the next
    NOT_READY = "not-ready"        # a start press while the museum is not ready
    CHOICE = "choice"              # a command the rules refused (the error's words)


@dataclass(frozen=True)
class Refused(Call):
    """A start press or a command that could not be taken.  ``problems`` say why the museum is
    not ready; ``error`` is the words of the rules' refusal of a command.  For a start press
    after the match has ended (MATCH_OVER) the shell may open the next match, starting at ``t``,
    the press's first edge."""
    code: Refusal = Refusal.CHOICE
    problems: Tuple[Problem, ...] = ()
    error: str = ""


#: The devices a ``device`` line names, and what it says of them (docs/contracts/cli.md): the
#: relic hub, the hand sensor, and each relic whose frames stopped or came back (issue 31).
DEVICES = ("hub", "tof", "relic.1", "relic.2", "relic.3")
DEVICE_STATES = ("lost", "back", "reinit")


@dataclass(frozen=True)
class DeviceChange:
    """A device of the table was lost, came back or was re-initialised (the relic hub, the
    hand sensor): recorded for the audits only; it changes nothing in the match (the inputs the
    loss holds are their own lines)."""
    t: float
    device: str
    state: str


@dataclass(frozen=True)
class Restart:
    """The rig restarted here (a crash or a power cut): a turn running at this point is void and
    its thief plays it again."""
    t: float
