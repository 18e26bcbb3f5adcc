"""The wiring check: walk the builder through every input the rig reads, so a miswired rod is
found before a game, not during one.

:class:`WiringCheck` is the pure part, shared by ``cleptomano check-wiring`` and the check on
the rig's own screen (the set-up menu).  It knows which input it waits for and judges every
reading: ``feed(t, name, value)`` -> lines to show.  Time is data: the caller passes the time of
each reading and asks :meth:`WiringCheck.expire` when the step's :attr:`~WiringCheck.deadline`
has passed, so the same check runs on the CLI's clock and on the rig's.

The steps, in order: the start button, the lasers, the guard token, the rods' seats, the
paintings (each on its GPIO), then the hand sensor (a reading closer than the hand threshold)
and the relics on the hub (each laid on its side: a tilt of 60 degrees or more).  A step answers
when its input goes from rest to active.  Another input of the same kind answering instead is a
mix-up (two wires swapped, two sensors on each other's address); an input of another kind is
only shown live (the arm that reaches a rod passes over the hand sensor).
"""

from collections import deque
from dataclasses import dataclass

from rig.core.msg import Msg, N_
from rig.games.cleptomano.rules.calls import commas, part, semicolons
from rig.table.names import (REST, TIPPED_FROM_DEG, UPRIGHT_BELOW_DEG, Aspect, Kind, PIN_INPUTS,
                             parse, relic, rest_value)
from rig.games.cleptomano.rules.view import WiringStep, WiringView

HAND = Kind.TOF.value
ACTIONS = {
    Kind.LASER: N_("cleptomano.wiring.do.touch"),
    Kind.GUARD: N_("cleptomano.wiring.do.touch"),
    Kind.BUTTON: N_("cleptomano.wiring.do.press"),
    Kind.SEAT: N_("cleptomano.wiring.do.seat"),
    Kind.PAINTING: N_("cleptomano.wiring.do.painting"),
}
_ORDER = (Kind.BUTTON, Kind.LASER, Kind.GUARD, Kind.SEAT, Kind.PAINTING)
_SHOWN_LINES = 3
START, SKIP, STOP = "start", "skip", "stop"


@dataclass(frozen=True)
class CheckWiring:
    """The guard's command for the wiring check on the rig's screen: ``action`` is
    :data:`START`, :data:`SKIP` (the step asked now) or :data:`STOP`.  Never recorded: the check
    changes no match (the inputs it sees are recorded when it ends, where they differ)."""
    t: float
    action: str


def relic_step(number):
    """The step for relic ``number`` (all its inputs answer it): ``"relic.2"``."""
    return "relic.%d" % number


def _relic_number(step):
    head, _, number = step.partition(".")
    return int(number) if head == Kind.RELIC.value and number.isdigit() else None


def step_words(step):
    """A step's words: ``laser 4``, ``the hand sensor``, ``relic 2`` (a message)."""
    number = _relic_number(step)
    return Msg("cleptomano.part.relic", number=number) if number is not None else part(step)


_SHORT = {Kind.BUTTON: N_("cleptomano.wiring.cell.button"),
          Kind.GUARD: N_("cleptomano.wiring.cell.guard"),
          Kind.LASER: N_("cleptomano.wiring.cell.laser"),
          Kind.SEAT: N_("cleptomano.wiring.cell.seat"),
          Kind.PAINTING: N_("cleptomano.wiring.cell.painting"),
          Kind.RELIC: N_("cleptomano.wiring.cell.relic")}


def short_label(step):
    """A step's name for a small cell on the screen: ``seat 4``, ``hand`` (a message)."""
    if step == HAND:
        return Msg("cleptomano.wiring.cell.hand")
    number = _relic_number(step)
    if number is not None:
        return Msg("cleptomano.wiring.cell.relic", number=number)
    parts = parse(step)
    return Msg(_SHORT.get(parts.kind, N_("cleptomano.wiring.cell.other")),
               number=parts.number or 0)


def instruction(step):
    """What the builder does to answer ``step`` (a message)."""
    if step == HAND:
        return Msg("cleptomano.wiring.do.hand")
    number = _relic_number(step)
    if number is not None:
        return Msg("cleptomano.wiring.do.relic", number=number)
    return Msg(ACTIONS.get(parse(step).kind, N_("cleptomano.wiring.do.change")), part=part(step))


def family(step):
    """What kind of connection a step tests: "pin", "hand" or "relic"."""
    if step == HAND:
        return "hand"
    return "relic" if _relic_number(step) is not None else "pin"


def check_order(pin_inputs, hand=False, relics=()):
    """The steps for these inputs, in the order the builder meets them."""
    def key(name):
        kind = parse(name).kind
        return (_ORDER.index(kind) if kind in _ORDER else len(_ORDER)), name
    steps = sorted(pin_inputs, key=key)
    if hand:
        steps.append(HAND)
    return steps + [relic_step(n) for n in relics]


class WiringCheck:
    """One walk through ``steps`` (see :func:`check_order`).  ``where`` names each step's
    connection for the messages (``{"laser.4": "GPIO22", "tof": "I2C bus 1, 0x29"}``);
    ``threshold_mm`` is the hand threshold; a step unanswered for ``timeout_s`` is skipped."""

    def __init__(self, steps, where, threshold_mm=400, timeout_s=30.0):
        self.steps = tuple(steps)
        self.where = dict(where)
        self.threshold_mm = threshold_mm
        self.timeout_s = float(timeout_s)
        self.index = 0
        self.passed = []
        self.wrong = []          # (expected, got)
        self.skipped = []
        self.values = {}         # the last reading of every input seen
        self.deadline = None     # when the step asked now is skipped unanswered
        self.lines = deque(maxlen=_SHOWN_LINES)   # the latest verdicts, for the screen

    # --- where it stands ---------------------------------------------------------------------
    @property
    def done(self):
        return self.index >= len(self.steps)

    @property
    def expected(self):
        return None if self.done else self.steps[self.index]

    @property
    def ok(self):
        return self.done and not self.skipped and not self.wrong

    def prompt(self):
        """``"5/22: touch laser 4 (GPIO22)"``; None once every step is done."""
        if self.done:
            return None
        step = self.expected
        return Msg("cleptomano.wiring.prompt", step=self.index + 1, steps=len(self.steps),
                   do=instruction(step), where=self.where.get(step, "?"))

    # --- readings --------------------------------------------------------------------------
    def _step_of(self, name):
        """The step an input answers, or None (a relic's motion and falls only show live)."""
        parts = parse(name)
        if parts is None:
            return None
        if parts.kind is Kind.RELIC:
            return relic_step(parts.number) if parts.aspect is Aspect.TILT else None
        return name

    def _active(self, name, value):
        """Whether ``value`` is the builder's doing (not the input's rest)."""
        parts = parse(name)
        if parts.kind is Kind.TOF:
            return value < self.threshold_mm
        if parts.kind is Kind.RELIC:
            return value >= TIPPED_FROM_DEG if parts.aspect is Aspect.TILT else bool(value)
        return value != rest_value(name)

    def begin(self, t, values):
        """Start at ``t`` with the inputs as they read now; returns the "Not at rest" lines (a
        contact closed, a seat open, a relic lying down before anyone touched anything)."""
        self.values.update(values)
        lines = []
        for step in self.steps:
            name = relic(_relic_number(step), Aspect.TILT) if family(step) == "relic" else step
            if name in self.values and self._active(name, self.values[name]):
                lines.append(Msg("cleptomano.wiring.not_at_rest", reads=self._reads(name)))
        self._ask(t)
        return lines

    def _reads(self, name):
        value = self.values[name]
        if name == HAND:
            return Msg("cleptomano.wiring.reads_hand", mm=int(value), threshold=self.threshold_mm)
        if parse(name).kind is Kind.RELIC:
            return Msg("cleptomano.wiring.reads_relic", number=parse(name).number,
                       degrees=int(round(value)))
        return Msg("cleptomano.wiring.reads", part=part(name), value=int(value),
                   rest=int(rest_value(name)))

    def _ask(self, t):
        self.deadline = None if self.done else t + self.timeout_s

    def _say(self, line):
        self.lines.append(line)
        return [line]

    def feed(self, t, name, value):
        """An input read ``value`` at ``t``: returns what to tell the builder (often nothing)."""
        step = self._step_of(name)
        was = self._active(name, self.values.get(name, REST.get(name, 0)))
        self.values[name] = value
        if step is None or self.done or was or not self._active(name, value):
            return []
        expected = self.expected
        if step == expected:
            self.passed.append(step)
            self.index += 1
            self._ask(t)
            return self._say(Msg("cleptomano.wiring.ok", part=step_words(step),
                                 where=str(self.where.get(step))))
        if family(step) != family(expected) or step not in self.steps:
            return []
        self.wrong.append((expected, step))
        return self._say(Msg("cleptomano.wiring.wrong", expected=step_words(expected),
                             expected_at=str(self.where.get(expected)), got=step_words(step),
                             got_at=str(self.where.get(step))))

    def expire(self, t):
        """Skip the step asked now if its deadline has passed by ``t``."""
        if self.deadline is None or t < self.deadline:
            return []
        timeout = int(self.timeout_s) if float(self.timeout_s).is_integer() else self.timeout_s
        return self.skip(t, Msg("cleptomano.wiring.timed_out", part=step_words(self.expected),
                                s=timeout))

    def skip(self, t, why=None):
        """Skip the step asked now (the guard's choice: a part that is not there today)."""
        if self.done:
            return []
        step = self.expected
        self.skipped.append(step)
        self.index += 1
        self._ask(t)
        return self._say(why or Msg("cleptomano.wiring.skipped", part=step_words(step)))

    def summary(self):
        """What the check found, as messages (one a line)."""
        lines = [Msg("cleptomano.wiring.answered", n=len(self.steps), answered=len(self.passed))]
        if self.skipped:
            lines.append(Msg("cleptomano.wiring.no_answer",
                             parts=commas(step_words(n) for n in self.skipped)))
        if self.wrong:
            mixups = semicolons(Msg("cleptomano.wiring.mixup", expected=step_words(a),
                                    got=step_words(b)) for a, b in self.wrong)
            lines.append(Msg("cleptomano.wiring.mixups", mixups=mixups))
        return lines

    # --- the screen ------------------------------------------------------------------------
    def live(self, step):
        """Whether a step's input is away from rest now (lit on the screen)."""
        if family(step) == "relic":
            n = _relic_number(step)
            tilt = self.values.get(relic(n, Aspect.TILT), 0.0)
            return tilt >= UPRIGHT_BELOW_DEG or bool(self.values.get(relic(n, Aspect.MOTION)))
        return step in self.values and self._active(step, self.values[step])

    def view(self, now=None):
        """The check as the rig's screen shows it
        (:class:`~rig.games.cleptomano.rules.view.WiringView`)."""
        mixed = {got for _, got in self.wrong} | {expected for expected, _ in self.wrong}
        steps = []
        for i, step in enumerate(self.steps):
            if step in self.passed:
                state = "ok"
            elif step in self.skipped:
                state = "skipped"
            elif i == self.index:
                state = "asked"
            else:
                state = "to do"  # not words: a state's key
            steps.append(WiringStep(short_label(step), state, self.live(step), step in mixed))
        left = None
        if self.deadline is not None and now is not None:
            left = max(0.0, self.deadline - now)
        return WiringView(
            steps=tuple(steps), prompt=self.prompt(),
            instruction=None if self.done else instruction(self.expected),
            where=None if self.done else self.where.get(self.expected),
            lines=tuple(self.lines), done=self.done,
            summary=tuple(self.summary()) if self.done else (), left_s=left)


def pin_places(pinmap):
    """Where each pin input is wired, for the messages: ``{"laser.4": "GPIO22", ...}``."""
    return {name: "GPIO%d" % spec.pin for name, spec in pinmap.inputs.items()
            if name in PIN_INPUTS}
