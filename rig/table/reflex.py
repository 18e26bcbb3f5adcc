"""The touch-to-buzzer reflex: a rule declared at the table, so the buzzer never waits for a
game's rules (as Mission Pinball Framework's platform hardware rules fire a coil from a switch
on the driver board, without the game's code in between).

A game declares the rule as data (:class:`ReflexRule`): which inputs may sound it, which output
it drives, and for how long (the touch pattern's on time).  At the table the rule is live
(:class:`Reflex`): the host arms it only while a turn runs and only for the inputs that count
then (:meth:`Reflex.arm`); the pin callback calls :meth:`Reflex.edge` before it stamps and
enqueues the edge, and an active edge of an armed input drives the output on at once: one pin
write, no allocation, no lock of its own.

What the reflex never decides: whether the touch counts.  The host's buzzer (``rig.table.outputs.
Buzzer``) is told what the rules decided about the edge, after the recording line is written: a
buzz the rules keep is timed off by them as before; one they do not keep (noise, a bounce of a
touch already counted) is withdrawn at once (:meth:`Buzzer.settle`), so the output never stays on
past what the rules' own patterns say.

Pure: the output device is injected; nothing is imported.
"""

from dataclasses import dataclass

#: The touch pattern's on time, in seconds (``rig.table.outputs.PATTERNS["touch"]``).
TOUCH_ON_S = 0.12
_NOTHING = frozenset()


@dataclass(frozen=True)
class ReflexRule:
    """A declared reflex: an active edge of one of ``inputs`` drives ``output`` on for
    ``on_s`` seconds (the rules' own touch buzz times the off)."""
    inputs: frozenset
    output: str = "buzzer"
    on_s: float = TOUCH_ON_S

    def __post_init__(self):
        if not self.inputs or not all(isinstance(n, str) and n for n in self.inputs):
            raise ValueError("a reflex rule needs the names of its inputs; got %r"
                             % (self.inputs,))
        if not 0 < self.on_s <= 1:
            raise ValueError("a reflex's on time is %r s; give 0 to 1 s (the touch pattern's "
                             "is %g)" % (self.on_s, TOUCH_ON_S))
        object.__setattr__(self, "inputs", frozenset(self.inputs))


class Reflex:
    """A declared rule live at the table: ``device`` (the output, with ``on()``; None until the
    outputs are open: nothing sounds) and ``armed``, the inputs that sound it now (the host's
    to set, on its own thread; the pin callback only reads it)."""

    __slots__ = ("rule", "device", "armed", "pending", "at")

    def __init__(self, rule, device=None):
        self.rule = rule
        self.device = device
        self.armed = _NOTHING
        #: True once it sounded, until the host's buzzer settles it (``Buzzer.settle``, which
        #: clears it before it sets the device, so a buzz in between is settled next time).
        self.pending = False
        #: The stamp of the edge that sounded it last (None: not known): the host settles a
        #: reflex buzz only once it has taken that edge off its inbox.
        self.at = None

    def arm(self, names):
        """Arm the reflex for ``names`` (those of its rule's inputs; the others are left out);
        an empty set disarms it."""
        armed = frozenset(names) & self.rule.inputs if names else _NOTHING
        if armed != self.armed:
            self.armed = armed

    def disarm(self):
        self.armed = _NOTHING

    def edge(self, name, value, t=None):
        """In the pin callback, before the edge is stamped (``t``, its stamp when known) and
        enqueued: an active edge of an armed input drives the output on.  True when it did."""
        if value and name in self.armed:
            device = self.device
            if device is not None:
                device.on()
                self.at = t
                self.pending = True
                return True
        return False
