"""The wiring check, at the table below the games: walk the builder through every input the
table reads, so a miswired rod is found before a game, not during one.

:class:`WiringCheck` is the pure part, shared by ``cleptomano check-wiring`` and the check on
the rig's own screen (the set-up menu).  Its words are the game's: a game that runs the check
(Cleptómano's set-up menu) hands it its :class:`WiringWords` (the codes of its catalog), and the
steps are the parts the game declares it uses (its pins, the hand sensor, the relic hub).  It knows which input it waits for and judges every
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

from typing import Callable, Optional, Tuple

from rig.table.names import (REST, RELICS, TIPPED_FROM_DEG, UPRIGHT_BELOW_DEG, Aspect, Kind,
                             PIN_INPUTS, parse, relic, rest_value)

HAND = Kind.TOF.value
#: What the builder does to each kind of input: the key of its words (``do.touch``...).
ACTIONS = {Kind.LASER: "touch", Kind.GUARD: "touch", Kind.BUTTON: "press", Kind.SEAT: "seat",
           Kind.PAINTING: "painting"}
#: The kinds a small cell on the screen names by their own words (``cell.laser``...).
_CELLS = (Kind.BUTTON, Kind.GUARD, Kind.LASER, Kind.SEAT, Kind.PAINTING, Kind.RELIC)


@dataclass(frozen=True)
class WiringWords:
    """The words the check says, the game's: ``say(key, **params)`` a message for one of its
    keys (``prompt``, ``ok``, ``wrong``, ``not_at_rest``, ``reads``, ``reads_hand``,
    ``reads_relic``, ``timed_out``, ``skipped``, ``answered``, ``no_answer``, ``mixup``,
    ``mixups``, ``do.<action>``, ``do.hand``, ``do.relic``, ``do.change``, ``cell.<kind>``,
    ``cell.hand``, ``cell.other``, ``relic``), ``part(name)`` an input as the table calls it,
    ``commas(messages)`` and ``semicolons(messages)`` joined as one message."""
    say: Callable
    part: Callable
    commas: Callable
    semicolons: Callable


@dataclass(frozen=True)
class WiringStep:
    """One input of the wiring check on screen: ``state`` "ok", "skipped", "asked" or "to do";
    ``live`` when the input is away from rest now; ``mixed`` when it took part in a mix-up."""
    label: str
    state: str = "to do"     # not words: the state's key (the screen words it)
    live: bool = False
    mixed: bool = False


@dataclass(frozen=True)
class WiringView:
    """The wiring check as the rig's screen shows it."""
    steps: Tuple[WiringStep, ...] = ()
    prompt: Optional[str] = None          # "5/22: touch laser 4 (GPIO22)"
    instruction: Optional[str] = None     # "touch laser 4"
    where: Optional[str] = None           # "GPIO22"
    lines: Tuple[str, ...] = ()           # the latest verdicts
    done: bool = False
    summary: Tuple[str, ...] = ()
    left_s: Optional[float] = None        # until the step asked now is skipped
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


def step_words(step, words):
    """A step's words: ``laser 4``, ``the hand sensor``, ``relic 2`` (a message)."""
    number = _relic_number(step)
    return words.say("relic", number=number) if number is not None else words.part(step)


def short_label(step, words):
    """A step's name for a small cell on the screen: ``seat 4``, ``hand`` (a message)."""
    if step == HAND:
        return words.say("cell.hand")
    number = _relic_number(step)
    if number is not None:
        return words.say("cell.relic", number=number)
    parts = parse(step)
    kind = parts.kind.value if parts.kind in _CELLS else "other"
    return words.say("cell." + kind, number=parts.number or 0)


def instruction(step, words):
    """What the builder does to answer ``step`` (a message)."""
    if step == HAND:
        return words.say("do.hand")
    number = _relic_number(step)
    if number is not None:
        return words.say("do.relic", number=number)
    return words.say("do." + ACTIONS.get(parse(step).kind, "change"), part=words.part(step))


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
    ``threshold_mm`` is the hand threshold; a step unanswered for ``timeout_s`` is skipped;
    ``words`` the game's (:class:`WiringWords`)."""

    def __init__(self, steps, where, threshold_mm=400, timeout_s=30.0, words=None):
        self.words = words
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
        return self.words.say("prompt", step=self.index + 1, steps=len(self.steps),
                              do=instruction(step, self.words), where=self.where.get(step, "?"))

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
                lines.append(self.words.say("not_at_rest", reads=self._reads(name)))
        self._ask(t)
        return lines

    def _reads(self, name):
        value = self.values[name]
        if name == HAND:
            return self.words.say("reads_hand", mm=int(value), threshold=self.threshold_mm)
        if parse(name).kind is Kind.RELIC:
            return self.words.say("reads_relic", number=parse(name).number,
                                  degrees=int(round(value)))
        return self.words.say("reads", part=self.words.part(name), value=int(value),
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
            return self._say(self.words.say("ok", part=step_words(step, self.words),
                                            where=str(self.where.get(step))))
        if family(step) != family(expected) or step not in self.steps:
            return []
        self.wrong.append((expected, step))
        return self._say(self.words.say("wrong", expected=step_words(expected, self.words),
                                        expected_at=str(self.where.get(expected)),
                                        got=step_words(step, self.words),
                                        got_at=str(self.where.get(step))))

    def expire(self, t):
        """Skip the step asked now if its deadline has passed by ``t``."""
        if self.deadline is None or t < self.deadline:
            return []
        timeout = int(self.timeout_s) if float(self.timeout_s).is_integer() else self.timeout_s
        return self.skip(t, self.words.say("timed_out",
                                           part=step_words(self.expected, self.words),
                                           s=timeout))

    def skip(self, t, why=None):
        """Skip the step asked now (the guard's choice: a part that is not there today)."""
        if self.done:
            return []
        step = self.expected
        self.skipped.append(step)
        self.index += 1
        self._ask(t)
        return self._say(why or self.words.say("skipped", part=step_words(step, self.words)))

    def summary(self):
        """What the check found, as messages (one a line)."""
        words = self.words
        lines = [words.say("answered", n=len(self.steps), answered=len(self.passed))]
        if self.skipped:
            lines.append(words.say("no_answer", parts=words.commas(
                step_words(n, words) for n in self.skipped)))
        if self.wrong:
            mixups = words.semicolons(words.say("mixup", expected=step_words(a, words),
                                                got=step_words(b, words))
                                      for a, b in self.wrong)
            lines.append(words.say("mixups", mixups=mixups))
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
        """The check as the rig's screen shows it (:class:`WiringView`)."""
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
            steps.append(WiringStep(short_label(step, self.words), state, self.live(step),
                                    step in mixed))
        left = None
        if self.deadline is not None and now is not None:
            left = max(0.0, self.deadline - now)
        return WiringView(
            steps=tuple(steps), prompt=self.prompt(),
            instruction=None if self.done else instruction(self.expected, self.words),
            where=None if self.done else self.where.get(self.expected),
            lines=tuple(self.lines), done=self.done,
            summary=tuple(self.summary()) if self.done else (), left_s=left)


def pin_places(pinmap):
    """Where each pin input is wired, for the messages: ``{"laser.4": "GPIO22", ...}``."""
    return {name: "GPIO%d" % spec.pin for name, spec in pinmap.inputs.items()
            if name in PIN_INPUTS}


#: Where the Pico's firmware (firmware/code.py) wires each relic's accelerometer (bus names and
#: addresses, as printed on the board: no words to translate).
RELIC_PLACES = {1: "hub I2C0 0x18", 2: "hub I2C0 0x19", 3: "hub I2C1 0x18"}  # not words


def wiring_check(pinmap, tof, hand_threshold_mm, hand, relics, timeout_s, words, inputs=None):
    """A :class:`WiringCheck` of the pins in ``pinmap`` (``inputs``: the names of those the
    game's parts use, :meth:`rig.table.parts.TableParts.pin_inputs`; None: every one), the hand
    sensor (at ``tof``: its I2C bus and address; a hand closer than ``hand_threshold_mm``) if
    ``hand``, and the three relics if ``relics``, in the game's ``words``."""
    pins = pinmap.inputs if inputs is None else [n for n in pinmap.inputs if n in inputs]
    steps = check_order(pins, hand, RELICS if relics else ())
    where = pin_places(pinmap)
    where[HAND] = "I2C bus %d, 0x%02X" % tof                  # not words: a bus, an address
    where.update({relic_step(n): RELIC_PLACES[n] for n in RELICS})
    return WiringCheck(steps, where, hand_threshold_mm, timeout_s, words)
