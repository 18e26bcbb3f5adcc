"""A timed turn's end worked out ahead (rig.shell.ahead, issue 27): shortly before the time
limit the rig works the end out on a copy of the referee, and when the limit is due it only
writes the tick line and performs what was made.  Whatever the table does in between, the
recording, the pins and the log are what stepping the referee when due gives (the whole daemon
on the simulated table, in virtual time); on the real clock the rig wakes a little early and
finishes the wait on the clock itself (rig.shell.clock.MonotonicClock.spin_until)."""

import types

import pytest

from rig.games.cleptomano.rules.levels import make_level
from rig.shell import ahead, clock as clock_module, host as daemon  # the one Host (issue 29)

LIMIT_S = 10.0      # the turn starts at 1.0 s: its time limit is at 11.0 s


def evening(table, **kwargs):
    """Two timed turns: the first with a touch, a glitch and a rod brushed in its last 50 ms
    (each after its end was worked out), the second left to run out untouched."""
    t = table(level=make_level("normal", timer_s=LIMIT_S), **kwargs)
    t.start_turn(at=1.0, hand_in_at=2.0)
    t.advance_to(10.96).touch("laser.4", hold_s=0.003)      # counts: 4 ms before the limit
    t.advance_to(10.98).set("laser.5", 1)
    t.advance(0.0003).set("laser.5", 0)                     # a glitch: the detector alone
    t.advance_to(10.995).touch("laser.6", hold_s=0.01)      # its first edge before the limit
    t.advance_to(12.0).hand_out()
    t.start_turn(at=12.5, hand_in_at=13.0)
    t.advance_to(24.0)
    return t


def what_the_table_noticed(t):
    turns = [(turn.outcome, turn.end_t, turn.touches) for turn in t.match.turns]
    pins = {name: t.output_history(name) for name in ("buzzer", "led.turn", "led.ready")}
    said = [line.split(" Recording to ")[0] for line in t.rig.log_lines]   # (its own file)
    return turns, t.recorded(), pins, said


def test_an_end_worked_out_ahead_is_the_end_stepped_when_due(table, monkeypatch):
    ahead_made = []
    work_out = ahead.work_out

    def counting(*args):
        ahead_made.append(args[2])
        return work_out(*args)

    monkeypatch.setattr(daemon, "work_out", counting)
    worked_out = what_the_table_noticed(evening(table))
    assert len(ahead_made) >= 3        # worked out again after each change in the last 50 ms

    def cannot(*args):
        raise RuntimeError("not this time")

    monkeypatch.setattr(daemon, "work_out", cannot)
    stepped = what_the_table_noticed(evening(table))
    assert worked_out == stepped
    turns, lines, pins, _ = worked_out
    assert turns[0][2] == 2 and turns[1][1] == pytest.approx(12.5 + LIMIT_S)
    ticks = [line for line in lines if "tick" in line]
    assert [line["t"] for line in ticks] == [11.0, 22.5]
    # The tick line is written before the turn lamp goes off (its effect).
    assert (11.0, 0) in pins["led.turn"] and (22.5, 0) in pins["led.turn"]


def test_an_end_worked_out_ahead_is_on_time_with_the_late_edge_allowance(table):
    t = table(level=make_level("normal", timer_s=LIMIT_S), edge_delay_s=0.05)
    t.start_turn(at=1.0, hand_in_at=2.0)
    t.advance_to(10.99).touch("laser.4", hold_s=0.003)
    t.advance_to(12.0)
    assert (t.match.turns[0].touches, t.match.turns[0].end_t) == (1, 11.0)
    assert [line["t"] for line in t.recorded() if "tick" in line] == [11.0]


class FakeTime:
    """``time.monotonic`` moving ``step_s`` at each reading."""

    def __init__(self, start_s=100.0, step_s=0.0001):
        self.now, self.step_s, self.readings = start_s, step_s, 0

    def monotonic(self):
        self.readings += 1
        self.now += self.step_s
        return self.now


@pytest.fixture
def fake_time(monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(clock_module, "time", types.SimpleNamespace(monotonic=fake.monotonic))
    return fake


def test_the_spin_ends_on_the_deadline(fake_time):
    clock = clock_module.MonotonicClock()
    until = fake_time.now + 0.0005
    assert clock.spin_until(until, lambda: False) >= until
    assert fake_time.readings <= 7


def test_the_spin_ends_when_something_arrives(fake_time):
    clock = clock_module.MonotonicClock()
    asked = []

    def arrived():
        asked.append(1)
        return len(asked) == 3

    now = clock.spin_until(fake_time.now + 0.0009, arrived)
    assert len(asked) == 3 and fake_time.readings == 3
    assert now == fake_time.now


def test_the_spin_is_never_longer_than_its_bound(fake_time):
    clock = clock_module.MonotonicClock()
    start = fake_time.now
    now = clock.spin_until(start + 60.0, lambda: False)      # a minute away: not spun for
    assert start + clock_module.SPIN_S <= now < start + clock_module.SPIN_S + 0.001


def test_the_spin_stops_for_a_held_back_edge_due_before_the_end():
    # With the late-edge allowance an edge waits edge_delay_s on the rig; one due before the
    # end is applied first (in stamp order), so the spin ends at its due time, not the end's.
    spun = []
    clock = types.SimpleNamespace(spin_until=lambda t, interrupted: spun.append(t) or t)
    rig = types.SimpleNamespace(clock=clock, _spin_s=0.0005, edge_delay_s=0.05, inbox=[],
                                stop_event=None, _pending=[(9.9495, 1, "an edge")])
    assert daemon.Host._on_time(rig, 10.0, 9.9996) == 9.9996    # the edge is due: no spin
    assert spun == []
    rig._pending = [(9.9502, 1, "an edge")]                     # due at 10.0002: after the end
    assert daemon.Host._on_time(rig, 10.0, 9.9997) == 10.0 and spun == [10.0]
    rig._pending = [(9.9499, 1, "an edge")]                     # due at 9.9999: before it
    assert daemon.Host._on_time(rig, 10.0, 9.9997) == pytest.approx(9.9999)
    assert spun[-1] == pytest.approx(9.9999)
    rig._pending = []
    assert daemon.Host._on_time(rig, 10.0, 9.9990) == 9.9990     # not yet within the spin
    assert len(spun) == 2
