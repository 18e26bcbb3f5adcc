"""A test harness on the simulated table, in the manner of MPF's machine tests.

:class:`Harness` is a :class:`sim.table.SimulatedTable` (the whole rig, every thread, on mock
pins and a virtual clock) that a test drives the way a game night does and then asks what the
table would notice::

    t = Harness().start()
    t.start_turn()                    # press start at 1 s, the hand goes in at 2 s
    t.touch("laser.4")                # a clean 80 ms touch, now
    t.advance(0.5)
    assert t.turn.touches == 1 and t.buzzes() == 1
    t.hand_out(); t.press()           # walk out, press exit
    assert t.result()["turns"][0]["score"] == 0

Time only moves when the test says so (:meth:`advance`, or the gestures, which take their own
time); nothing sleeps.  The buzzer's and the lamps' history comes from gpiozero's mock pins.

:class:`Recording` builds recordings by gesture for the referee's own tests (no daemon): the
gestures of :class:`sim.script.Script` under the names those tests read best, and whole turns.
"""

import json
import threading
import time

from rig.games.cleptomano.rules.replay import replay_lines
from rig.table.names import NOTHING_IN_RANGE_MM
from rig.shell.clock import MonotonicClock
from rig.shell.storage import replay_file

from .script import Script
from .table import SimulatedTable

PLAYERS = ("Ana", "Ben", "Caro")
INSIDE_MM = 150        # a hand sensor reading inside the museum (threshold 400 mm)
WAIT_S = 30.0         # a bound for what a loaded machine delivers late, never a measurement


def wait_until(predicate, timeout_s=WAIT_S):
    """A bounded wait in real time, for what arrives in real time (serial frames from the
    virtual hub on a pty, a display in another thread or process): True once ``predicate()``
    holds, False after ``timeout_s``."""
    pause = threading.Event()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        pause.wait(0.005)
    return predicate()


class Harness(SimulatedTable):
    """The simulated table with gestures, clock control and what the table notices."""

    # --- time -------------------------------------------------------------------------------------
    @property
    def now(self):
        """Seconds since the rig started (the recording's clock)."""
        return self.clock.now() - self.start_s

    def advance_to(self, t):
        """Move the clock to ``t`` seconds after the rig started (never back)."""
        super().advance_to(t)
        return self

    def advance(self, seconds):
        """Let ``seconds`` of virtual time pass: the rig does everything it would have done."""
        self.advance_to(self.now + seconds)
        return self

    # --- gestures (each at the current time, taking its own time) -----------------------------
    def set(self, name, value):
        """Drive one pin input to its recording value, now."""
        self.museum.set(name, value)
        self.settle()
        return self

    def touch(self, name="laser.4", hold_s=0.08):
        """A clean touch of a contact (``laser.N``, ``guard``): closed for ``hold_s``."""
        self.set(name, 1)
        self.advance(hold_s)
        return self.set(name, 0)

    def press(self, hold_s=0.15):
        """Press and release the start/exit button, then let the press register."""
        self.touch("button", hold_s)
        return self.advance(0.1)

    def hand_in(self, distance_mm=INSIDE_MM):
        self.tof.range = distance_mm
        return self.advance(0.05)

    def hand_out(self):
        self.tof.range = NOTHING_IN_RANGE_MM
        return self.advance(0.05)

    def lift(self, painting):
        return self.set("painting.%d" % painting, 0)

    def put_back(self, painting):
        return self.set("painting.%d" % painting, 1)

    def play_sampled(self, objects, every_s):
        """Play recording lines as :meth:`play` does and, every ``every_s`` seconds of virtual
        time until the end line, note what the display was last shown (the table's display
        must keep its snapshots, as :class:`rig.shell.faces.MemoryDisplay` does): returns
        ``[(t, board)]``.  A sample due at a line's time is taken before the line is played."""
        samples = []
        n = 1
        for obj in objects:
            if "t" not in obj:
                continue
            while round(n * every_s, 6) <= obj["t"]:
                self.advance_to(round(n * every_s, 6))
                samples.append((round(n * every_s, 6), self.rig.display.board))
                n += 1
            if "end" in obj:
                break
            self.advance_to(obj["t"])
            self.apply(obj)
            self.settle()
        return samples

    def value(self, name):
        """What the referee believes an input reads now."""
        return self.rig.referee.detector.values[name]

    def relic(self, number, aspect, value):
        """A relic value as the relic hub would report it (``relic(2, "tilt", 85.0)``)."""
        self.relics.send("relic.%d.%s" % (number, aspect), value)
        self.settle()
        return self

    def submit(self, command):
        """A command at the guard's controls (the rig stamps it now)."""
        self.rig.submit(command)
        self.settle()
        return self

    def start_turn(self, at=1.0, hand_in_at=2.0):
        """Press start at ``at`` and put the hand in at ``hand_in_at``; a turn must run."""
        self.advance_to(at)
        self.press()
        if hand_in_at is not None:
            self.advance_to(hand_in_at)
            self.hand_in()
        assert self.turn is not None, list(self.rig.log_lines)
        return self

    # --- what the table notices --------------------------------------------------------------
    @property
    def match(self):
        return self.rig.referee.match

    @property
    def turn(self):
        """The running turn, or None."""
        return self.match.current

    @property
    def board(self):
        """What the score display shows now."""
        return self.rig.scoreboard()

    def said(self, words):
        """Whether the referee said ``words`` (in the log, as the table hears it)."""
        return any(words in line for line in self.rig.log_lines)

    def output_history(self, name="buzzer"):
        """The output pin's changes, as (seconds since the rig started, 1 on / 0 off)."""
        spec = self.config.pinmap.outputs[name]
        pin = self.factory.pin(spec.pin)
        changes = pin.states[1:]       # gpiozero's MockPin: (seconds since the last, state)
        t = pin._last_change - sum(s.timestamp for s in changes)
        out = []
        for state in changes:
            t += state.timestamp
            out.append((round(t - self.start_s, 6),
                        int(bool(state.state) == (spec.active == "high"))))
        return out

    def buzzes(self):
        """How many times the buzzer has come on."""
        return sum(1 for _, on in self.output_history("buzzer") if on)

    def lamp(self, name):
        """An output's state now (``led.ready``, ``led.turn``, ``led.fault``): 1 lit."""
        return self.museum.outputs_state(name)

    def recorded(self):
        """The recording's lines after the header, as objects."""
        text = self.rig.recording_path.read_text("utf-8")
        return [json.loads(line) for line in text.split("\n")[1:] if line]

    def result(self):
        return self.rig.result()

    def live_then_replay(self):
        """The rig's own result, then stop it cleanly and re-referee its recording."""
        live = self.rig.result()
        path = self.rig.recording_path
        self.stop()
        return live, replay_file(path)


class RealTimeHarness(Harness):
    """The same gestures on the real clock, for a test that watches the rig from outside the
    process's clock (a browser on the web face): each gesture takes its time for real, waiting
    in short bounded steps, and the rig's own threads do the rest."""

    def __init__(self, config=None, **kwargs):
        super().__init__(config, clock=MonotonicClock(), **kwargs)

    def advance_to(self, t):
        """Wait until ``t`` seconds after the rig started (at once if that has passed)."""
        pause = threading.Event()
        while True:
            left = self.start_s + t - self.clock.now()
            if left <= 0:
                return self
            pause.wait(min(left, 0.05))


class Recording(Script):
    """A recording built by gesture, for the referee's tests: a header and time-stamped lines,
    kept in time order on output."""

    def __init__(self, players=PLAYERS, difficulty="normal", **header):
        super().__init__(players, difficulty, **header)

    # --- raw lines ---------------------------------------------------------------------------
    def line(self, obj):
        return self._add(obj)

    def set(self, t, name, value):
        return self.input(t, name, value)

    # --- what happens at the table -------------------------------------------------------------
    def press(self, t, hold=0.05):
        """The start/exit button pressed at ``t`` and released ``hold`` seconds later."""
        return super().press(t, hold)

    def hand_in(self, t, mm=INSIDE_MM):
        return super().hand_in(t, mm)

    def touch(self, rod, t, dur=0.05):
        """A clean touch on laser ``rod``: contact at ``t``, released ``dur`` later."""
        return super().touch(rod, t, hold_s=dur)

    def guard(self, t, dur=0.05):
        self.set(t, "guard", 1)
        return self.set(t + dur, "guard", 0)

    def unseat(self, rod, t, dur=None):
        """Laser ``rod``'s seat opens at ``t`` (and closes ``dur`` later, if given)."""
        self.set(t, "seat.%d" % rod, 0)
        if dur is not None:
            self.set(t + dur, "seat.%d" % rod, 1)
        return self

    take_painting = Script.lift_painting

    def take_relic(self, n, t, carry=0.5):
        """Relic ``n`` starts moving at ``t`` and stands still, upright, ``carry`` later."""
        self.set(t, "relic.%d.motion" % n, 1)
        return self.set(t + carry, "relic.%d.motion" % n, 0)

    def tilt(self, n, t, deg):
        return self.set(t, "relic.%d.tilt" % n, deg)

    def fall(self, n, t):
        self.set(t, "relic.%d.freefall" % n, 1)
        return self.set(t + 0.02, "relic.%d.freefall" % n, 0)

    # --- whole turns -------------------------------------------------------------------------
    def heist(self, t, paintings=0, relics=0, touches=0, rods=(4, 5, 6, 7, 8, 1, 2, 3)):
        """A clean, successful turn starting with the press at ``t``: the thief goes in, takes
        ``paintings`` paintings and then ``relics`` relics (in order), touches ``touches``
        lasers on the way, walks out and presses exit.  The guard then puts the paintings back.
        Returns the time of the exit press (start + 8 s)."""
        self.press(t)
        self.hand_in(t + 1.0)
        for i in range(paintings):
            self.take_painting(i + 1, t + 1.5 + 0.2 * i)
        for i in range(relics):
            self.take_relic(i + 1, t + 2.5 + 0.5 * i, carry=0.2)
        for i in range(touches):
            self.touch(rods[i], t + 4.5 + 0.5 * i)
        self.hand_out(t + 7.0)
        self.press(t + 8.0)
        for i in range(paintings):
            self.return_painting(i + 1, t + 9.0)
        return t + 8.0

    def caught_by_guard(self, t, paintings=0):
        """A turn that ends caught: the thief takes paintings, then touches the guard."""
        self.press(t)
        self.hand_in(t + 1.0)
        for i in range(paintings):
            self.take_painting(i + 1, t + 1.5 + 0.2 * i)
        self.guard(t + 3.0)
        self.hand_out(t + 5.0)
        for i in range(paintings):
            self.return_painting(i + 1, t + 9.0)
        return t + 3.0

    # --- output ------------------------------------------------------------------------------
    def replay(self):
        return replay_lines(self.lines())


def only_turn(result):
    assert len(result["turns"]) == 1, result["turns"]
    return result["turns"][0]


def solo(**header):
    return Recording(players=("Ana",), **header)
