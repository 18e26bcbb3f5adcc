"""The Pi's link to the relic hub, over loop:// and over a pty driven by the virtual hub."""

import threading
import time

import pytest
import serial

from rig.table import protocol as p
from rig.core.errors import ConfigError, HubError
from rig.table.hub import FloodGuard, HubLink, InputTracker
from sim.harness import wait_until
from sim.relichub import VirtualRelicHub

WAIT_S = 5.0  # upper bound for anything to arrive; a passing test waits far less


class Recorder:
    """The two callbacks, with a condition to wait on (bounded)."""

    def __init__(self):
        self.inputs = []
        self.statuses = []
        self.faults = []
        self.cond = threading.Condition()

    def on_input(self, name, value):
        with self.cond:
            self.inputs.append((name, value))
            self.cond.notify_all()

    def on_status(self, lost, reason):
        with self.cond:
            self.statuses.append((lost, reason))
            self.cond.notify_all()

    def on_fault(self, active, message):
        with self.cond:
            self.faults.append((active, message))
            self.cond.notify_all()

    def wait_for(self, predicate, timeout_s=WAIT_S):
        with self.cond:
            return self.cond.wait_for(predicate, timeout_s)

    def values(self, name):
        with self.cond:
            return [v for n, v in self.inputs if n == name]

    def lost_flags(self):
        with self.cond:
            return [lost for lost, _ in self.statuses]


class LoopPorts:
    """serial_for_url for tests: every open makes a new loop:// port the test can write into."""

    def __init__(self):
        self.ports = []
        self.kwargs = []
        self.cond = threading.Condition()

    def __call__(self, url, **kwargs):
        port = serial.serial_for_url("loop://", **kwargs)
        with self.cond:
            self.ports.append(port)
            self.kwargs.append(kwargs)
            self.cond.notify_all()
        return port

    def wait_port(self, count=1):
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.ports) >= count, WAIT_S)
            return self.ports[count - 1]


class FakeClock:
    def __init__(self):
        self.now_s = 1000.0
        self.lock = threading.Lock()

    def __call__(self):
        with self.lock:
            return self.now_s

    def advance(self, seconds):
        with self.lock:
            self.now_s += seconds


def beat(enc, ms, tilts=(0.0, 0.0, 0.0), moving=(), falls=(0, 0, 0), absent=()):
    relics = [p.RelicStatus(i + 1, tilts[i], (i + 1) in moving, falls[i], (i + 1) not in absent)
              for i in range(3)]
    return enc.heartbeat(ms, relics)


@pytest.fixture
def loop_link():
    made = []

    def make(**kwargs):
        rec, ports = Recorder(), LoopPorts()
        kwargs.setdefault("on_fault", rec.on_fault)
        kwargs.setdefault("backoff_initial_s", 0.01)
        kwargs.setdefault("backoff_max_s", 0.05)
        link = HubLink("loop://", rec.on_input, rec.on_status, serial_for_url=ports, **kwargs)
        link.start()
        made.append(link)
        return link, rec, ports

    yield make
    for link in made:
        assert link.stop(2.0)


# --- over loop:// --------------------------------------------------------------------------------

def test_inputs_arrive_with_the_contract_names_and_only_on_change(loop_link):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    assert ports.kwargs[0]["exclusive"] is True and ports.kwargs[0]["timeout"] == 0.05
    enc = p.Encoder()
    port.write(enc.hello(5, (1, 0, 0), 0b111, boot=True) + beat(enc, 10))
    assert rec.wait_for(lambda: rec.lost_flags() == [False] and len(rec.inputs) == 6)
    assert "firmware 1.0.0" in rec.statuses[0][1] and link.firmware == (1, 0, 0)
    assert set(rec.inputs) == {("relic.%d.%s" % (r, k), 0.0) for r in (1, 2, 3)
                               for k in ("tilt", "motion")}
    port.write(beat(enc, 60, tilts=(0.4, 0.0, 0.0)) +  # too small a change to record
               enc.event(70, 2, p.EVENT_MOTION, 1, 0, 3.25) +
               beat(enc, 110, tilts=(0.4, 3.3, 0.0), moving=(2,)))
    assert rec.wait_for(lambda: len(rec.inputs) == 8)
    assert rec.inputs[6:] == [("relic.2.motion", 1.0), ("relic.2.tilt", 3.2)]
    # The link counts a frame once it has handed on its inputs: wait for the count too (a
    # loaded machine's test thread could read it between the two).
    assert rec.wait_for(lambda: link.counters["frames"] == 5)
    assert link.counters["inputs"] == 8


def test_noise_bad_crc_truncation_and_gaps_are_counted_and_skipped(loop_link):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    enc = p.Encoder()
    cut = beat(enc, 0)[9:]  # the board reset as we opened: we see the tail of a frame first
    good = beat(enc, 50, tilts=(5.0, 0.0, 0.0))
    bad = bytearray(beat(enc, 100, tilts=(50.0, 0.0, 0.0)))
    bad[-2] ^= 0x01
    truncated = beat(enc, 150)[:14]
    enc.seq += 3  # three frames lost on the way
    after = enc.event(300, 3, p.EVENT_MOTION, 1, 0, 7.0)
    port.write(cut + b"line noise\r\n" + good + bytes(bad) + truncated + after)
    assert rec.wait_for(lambda: ("relic.3.motion", 1.0) in rec.inputs)
    c = link.counters
    assert (c["frames"], c["bad_crc"], c["truncated"]) == (2, 1, 1)
    assert c["garbage"] == 2  # the tail of the first frame and the line noise
    assert c["seq_gaps"] == 1 and c["frames_missed"] == 5  # bad, truncated and three lost
    assert rec.values("relic.1.tilt") == [5.0]  # the corrupted 50 degrees never arrived


def test_lost_after_one_second_without_heartbeat_then_back(loop_link):
    clock = FakeClock()
    link, rec, ports = loop_link(clock=clock)
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0))
    assert rec.wait_for(lambda: rec.lost_flags() == [False])
    clock.advance(0.9)  # not yet: an event is no heartbeat, but 0.9 s is within the limit
    port.write(enc.event(900, 1, p.EVENT_MOTION, 1, 0, 0.0))
    assert rec.wait_for(lambda: ("relic.1.motion", 1.0) in rec.inputs)
    port.write(enc.event(910, 1, p.EVENT_MOTION, 0, 0, 0.0))
    assert rec.wait_for(lambda: rec.inputs[-1] == ("relic.1.motion", 0.0))
    assert rec.lost_flags() == [False]
    clock.advance(0.1)
    assert rec.wait_for(lambda: rec.lost_flags() == [False, True])
    assert "no heartbeat for 1.0 s" in rec.statuses[-1][1]
    port = ports.wait_port(2)  # the link reopened the port
    port.write(beat(enc, 1100))
    assert rec.wait_for(lambda: rec.lost_flags() == [False, True, False])


def test_a_fall_is_delivered_once_whether_by_event_or_by_the_next_heartbeat(loop_link):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0, falls=(4, 0, 0)))  # falls before we listened are history
    port.write(enc.event(20, 1, p.EVENT_FREEFALL, 1, 5, 0.0) + beat(enc, 50, falls=(5, 0, 0)))
    assert rec.wait_for(lambda: rec.values("relic.1.freefall") == [1.0, 0.0])
    enc.seq += 1  # the event frame of the next fall is lost ...
    port.write(beat(enc, 100, falls=(6, 0, 0)) + beat(enc, 150, falls=(6, 0, 0)))  # ... not it
    assert rec.wait_for(lambda: link.counters["frames"] == 5)
    assert rec.values("relic.1.freefall") == [1.0, 0.0, 1.0, 0.0]


def test_a_stale_or_replayed_frame_makes_no_phantom_fall(loop_link):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    enc = p.Encoder()
    boot = enc.hello(0, (1, 0, 0), 0b111, boot=True)
    old = beat(enc, 50)                                   # falls 0, 0, 0
    port.write(boot + old + enc.event(90, 1, p.EVENT_FREEFALL, 1, 1, 0.0) +
               beat(enc, 100, falls=(1, 0, 0)))
    assert rec.wait_for(lambda: link.counters["frames"] == 4)
    assert rec.values("relic.1.freefall") == [1.0, 0.0]
    # The old heartbeat again (its fall counter 0), then the old boot hello, as a faulty USB
    # hub or a replaying port would deliver them; the hub's own frames go on meanwhile.
    port.write(old + beat(enc, 150, falls=(1, 0, 0)) + boot + beat(enc, 200, falls=(1, 0, 0)))
    assert rec.wait_for(lambda: link.counters["frames"] == 6)
    assert rec.values("relic.1.freefall") == [1.0, 0.0]   # no phantom falls
    assert link.counters["stale"] == 2 and link.counters["seq_gaps"] == 0


def test_only_stale_frames_for_a_second_reconnects_and_says_why(loop_link):
    # The hub restarted without its boot hello reaching us: its new numbers all look old.
    clock = FakeClock()
    link, rec, ports = loop_link(clock=clock)
    port = ports.wait_port()
    port.write(beat(p.Encoder(seq=30000), 0))
    assert rec.wait_for(lambda: rec.lost_flags() == [False])
    restarted = p.Encoder(seq=1)
    port.write(beat(restarted, 50) + beat(restarted, 100))
    assert wait_until(lambda: link.counters["stale"] == 2)
    clock.advance(1.0)
    assert rec.wait_for(lambda: rec.lost_flags() == [False, True])
    assert "only frames older than the newest" in rec.statuses[-1][1]
    ports.wait_port(2).write(beat(restarted, 1100))        # the new connection takes them
    assert rec.wait_for(lambda: rec.lost_flags() == [False, True, False])


def test_a_missing_relic_sensor_is_reported_and_its_return_too(loop_link):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0, absent=(3,)))
    assert rec.wait_for(lambda: rec.lost_flags() == [True])
    assert "relic 3 sensor not answering" in rec.statuses[0][1]
    port.write(beat(enc, 50))
    assert rec.wait_for(lambda: rec.lost_flags() == [True, False])


def test_a_consumer_that_raises_does_not_kill_the_link(loop_link):
    link, rec, ports = loop_link()
    broken = {"calls": 0}

    def on_input(name, value):
        broken["calls"] += 1
        raise RuntimeError("bug in the consumer")

    link._on_input = on_input
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0) + beat(enc, 50))
    assert rec.wait_for(lambda: rec.lost_flags() == [False])
    assert rec.wait_for(lambda: link.counters["frames"] == 2)
    assert link.counters["callback_errors"] == broken["calls"] == 6


def test_a_port_that_cannot_be_opened_is_retried_with_backoff(loop_link):
    rec = Recorder()
    attempts = []
    done = threading.Event()

    def refuse(url, **kwargs):
        attempts.append(time.monotonic())
        if len(attempts) >= 4:
            done.set()
        raise serial.SerialException("could not open port %s: [Errno 2] No such file" % url)

    link = HubLink("/dev/cleptomano-hub", rec.on_input, rec.on_status, serial_for_url=refuse,
                   backoff_initial_s=0.01, backoff_max_s=0.04)
    link.start()
    try:
        assert done.wait(WAIT_S)
    finally:
        assert link.stop(2.0)
    assert rec.lost_flags() == [True]  # reported once, not on every retry
    assert "relic hub not found at /dev/cleptomano-hub" in rec.statuses[0][1]
    assert "99-cleptomano-hub.rules" in rec.statuses[0][1]
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    assert gaps[0] >= 0.009 and gaps[2] >= 0.039


def test_bad_settings_get_clear_errors():
    rec = Recorder()
    with pytest.raises(ConfigError, match="url=''; allowed: a device path"):
        HubLink("", rec.on_input, rec.on_status)
    with pytest.raises(ConfigError, match="heartbeat_timeout_s=0; allowed: a number of seconds"):
        HubLink("loop://", rec.on_input, rec.on_status, heartbeat_timeout_s=0)
    with pytest.raises(ConfigError, match="read_timeout_s=2; allowed: less than"):
        HubLink("loop://", rec.on_input, rec.on_status, read_timeout_s=2)
    with pytest.raises(ConfigError, match="flood_frames_per_s=10; allowed: a whole number"):
        HubLink("loop://", rec.on_input, rec.on_status, flood_frames_per_s=10)
    with pytest.raises(ConfigError, match="tilt_step_deg=0"):
        InputTracker(tilt_step_deg=0)
    link = HubLink("loop://", rec.on_input, rec.on_status)
    link.start()
    try:
        with pytest.raises(HubError, match="already started"):
            link.start()
    finally:
        assert link.stop(2.0)


# --- the pure tracker -----------------------------------------------------------------------------

def test_tilt_is_recorded_when_it_crosses_the_rules_marks_even_by_a_little():
    t = InputTracker()
    t.connected()
    enc = p.Encoder()
    dec = p.Decoder()

    def tilt_inputs(value, moving=()):
        frame = dec.feed(beat(enc, 0, tilts=(value, 0.0, 0.0), moving=moving))[0]
        return [v for n, v in t.feed(frame) if n == "relic.1.tilt"]

    assert tilt_inputs(29.6) == [29.6]
    assert tilt_inputs(30.2) == [30.2]  # crossed 30: upright no more
    assert tilt_inputs(30.9) == []
    assert tilt_inputs(59.8) == []      # a still relic's tilt: nothing to decide short of 60
    assert tilt_inputs(60.0) == [60.0]  # reached 60
    assert tilt_inputs(59.5) == [59.5]  # and back under it
    assert tilt_inputs(52.0, moving=(1,)) == [52.0]   # moving: a step of 1 degree is recorded
    assert tilt_inputs(52.6, moving=(1,)) == []
    assert tilt_inputs(50.0) == [50.0]  # the frame it comes to rest in: where it rests
    assert tilt_inputs(40.0) == []


def test_a_still_relics_noise_writes_nothing_but_its_crossings():
    t = InputTracker()
    t.connected()
    enc = p.Encoder()
    dec = p.Decoder()
    sent = []
    for i in range(200):   # a relic at rest at 45 degrees, then right at 30, noisy by 1.5 deg
        value = (45.0 if i < 100 else 30.0) + (1.5 if i % 2 else -1.5)
        frame = dec.feed(beat(enc, 50 * i, tilts=(value, 0.0, 0.0)))[0]
        sent += [v for n, v in t.feed(frame) if n == "relic.1.tilt"]
    assert sent[:2] == [43.5, 28.5]      # the first reading, then the first crossing
    assert sent[2:] == [31.5, 28.5] * 49 + [31.5]   # each crossing changes the readiness


def test_fall_counters_across_reconnects_and_restarts():
    t = InputTracker()

    def falls(frame):
        return sum(1 for n, v in t.feed(frame) if n == "relic.2.freefall" and v == 1.0)

    hb = lambda n: p.Heartbeat(0, 0, [p.RelicStatus(2, 0.0, False, n)])  # noqa: E731
    t.connected()
    assert falls(hb(3)) == 0  # history
    assert falls(hb(5)) == 2
    t.connected()
    assert falls(hb(6)) == 0  # during the disconnection: not news at this time
    assert falls(p.Hello(0, 900, (1, 0, 0), 0b111, boot=True)) == 0
    assert falls(hb(1)) == 1  # counted from the boot
    assert falls(hb(0)) == 0  # restarted again unseen: nothing since
    assert falls(hb(2)) == 2
    assert falls(hb(p.FALLS_MODULO - 1)) == 0  # nonsense jump: treated as an unseen restart
    assert t.firmware == (1, 0, 0)


# --- over a pty, against the virtual hub ----------------------------------------------------------

def pump(hub, rec, predicate, timeout_s=WAIT_S, samples=5):
    """Step the virtual hub until ``predicate`` holds (pty I/O needs a short wait per step)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        hub.step(samples)
        if rec.wait_for(predicate, 0.02):
            return True
    return False


@pytest.fixture
def pty_link(tmp_path):
    made = []

    def make(**kwargs):
        hub = VirtualRelicHub(tmp_path)
        rec = Recorder()
        kwargs.setdefault("backoff_initial_s", 0.02)
        kwargs.setdefault("backoff_max_s", 0.1)
        link = HubLink(hub.path, rec.on_input, rec.on_status, **kwargs)
        made.append((hub, link))
        link.start()
        assert pump(hub, rec, lambda: rec.lost_flags() == [False])
        return hub, link, rec

    yield make
    for hub, link in made:
        assert link.stop(2.0)
        hub.close()


def test_knocked_over_relic_over_a_pty(pty_link):
    hub, link, rec = pty_link()
    hub.knock_over(2)
    assert pump(hub, rec, lambda: rec.values("relic.2.motion")[-1:] == [0.0] and
                len(rec.values("relic.2.motion")) == 3)
    assert rec.values("relic.2.tilt")[-1] == pytest.approx(90.0, abs=2.0)
    assert rec.values("relic.2.motion") == [0.0, 1.0, 0.0]
    assert rec.values("relic.1.tilt") == [pytest.approx(0.0, abs=1.0)]  # the others stood still
    c = link.counters
    assert c["frames"] >= 10 and c["garbage"] == c["bad_crc"] == c["seq_gaps"] == 0


def test_unplug_and_replug_mid_stream(pty_link):
    hub, link, rec = pty_link()
    hub.lift(1)
    hub.step(20)
    hub.unplug()
    assert rec.wait_for(lambda: rec.lost_flags() == [False, True])
    assert "unplugged" in rec.statuses[1][1]
    hub.step(50)  # time passes while unplugged
    hub.replug()
    assert pump(hub, rec, lambda: rec.lost_flags() == [False, True, False])
    hub.drop(1)
    assert pump(hub, rec, lambda: rec.values("relic.1.freefall") == [1.0, 0.0])
    assert link.counters["connects"] >= 2


def test_a_fall_during_a_heartbeat_gap_arrives_with_the_next_heartbeat(pty_link):
    hub, link, rec = pty_link()
    hub.mute()
    hub.drop(3)
    hub.step(30)  # the fall's event frame and the heartbeats around it are lost
    hub.unmute()
    assert hub.frames_lost >= 2
    assert pump(hub, rec, lambda: rec.values("relic.3.freefall") == [1.0, 0.0])
    hub.settle()
    assert pump(hub, rec, lambda: link.counters["seq_gaps"] >= 1)
    assert rec.values("relic.3.freefall") == [1.0, 0.0]  # exactly once


def test_noise_on_the_line_is_skipped(pty_link):
    hub, link, rec = pty_link()
    hub.inject(b"\x00\x07\x01garbage\x00")
    hub.knock_over(1)
    assert pump(hub, rec, lambda: any(v > 80 for v in rec.values("relic.1.tilt")))
    assert link.counters["garbage"] + link.counters["truncated"] == 1


def test_the_port_is_opened_exclusively(pty_link):
    hub, link, rec = pty_link()
    other = Recorder()
    second = HubLink(hub.path, other.on_input, other.on_status, backoff_initial_s=0.05)
    second.start()
    try:
        assert other.wait_for(lambda: other.lost_flags() == [True])
        assert "exclusively lock" in other.statuses[0][1]
    finally:
        assert second.stop(2.0)
    assert rec.lost_flags() == [False]


def test_the_virtual_hub_runs_in_real_time_for_a_live_game(tmp_path):
    rec = Recorder()
    with VirtualRelicHub(tmp_path) as hub:
        link = HubLink(hub.path, rec.on_input, rec.on_status)
        link.start()
        try:
            hub.start()
            assert rec.wait_for(lambda: rec.lost_flags() == [False])
            hub.knock_over(3)
            assert rec.wait_for(lambda: any(v > 80 for v in rec.values("relic.3.tilt")))
            assert hub.stop(1.0)
        finally:
            assert link.stop(2.0)
    assert not (tmp_path / "cleptomano-hub").exists()  # closed: the link is gone


def open_fds():
    import os
    return len(os.listdir("/proc/self/fd"))


def test_the_virtual_hub_closes_its_fds_and_names_bad_calls(tmp_path):
    from rig.core.errors import HardwareError

    before = open_fds()
    hub = VirtualRelicHub(tmp_path)
    for _ in range(3):
        hub.unplug()
        hub.replug()
    hub.step(10)
    with pytest.raises(HardwareError, match="relic 4; allowed: \\[1, 2, 3\\]"):
        hub.knock_over(4)
    with pytest.raises(HardwareError, match="speed=0; allowed: > 0"):
        hub.start(speed=0)
    hub.close()
    assert open_fds() == before
    with pytest.raises(HardwareError, match="is not a directory"):
        VirtualRelicHub(tmp_path / "missing")


def test_an_unexpected_error_reconnects_instead_of_ending_the_link(loop_link, caplog):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    original = link._tracker.feed
    calls = {"n": 0}

    def flaky(frame):
        calls["n"] += 1
        if calls["n"] == 1:
            raise KeyError("a bug")
        return original(frame)

    link._tracker.feed = flaky
    enc = p.Encoder()
    port.write(beat(enc, 0))
    assert rec.wait_for(lambda: rec.lost_flags() == [True])
    assert "relic hub link error" in rec.statuses[0][1]
    ports.wait_port(2).write(beat(enc, 50))
    assert rec.wait_for(lambda: rec.lost_flags() == [True, False])


# --- frames the recording cannot hold (issue 12, finding 3) ---------------------------------------

def test_frames_about_a_relic_the_rig_does_not_know_are_counted_and_dropped(loop_link, caplog):
    link, rec, ports = loop_link()
    port = ports.wait_port()
    enc = p.Encoder()
    four = [p.RelicStatus(i, 5.0 * i, i == 4, 0) for i in (1, 2, 3, 4)]
    with caplog.at_level("WARNING", logger="rig.table.hub"):
        port.write(enc.hello(0, (1, 0, 0), 0b1111, boot=True) + enc.heartbeat(10, four) +
                   enc.event(20, 4, p.EVENT_MOTION, 0, 0, 25.0) +
                   enc.event(30, 5, p.EVENT_FREEFALL, 1, 1, 0.0) + beat(enc, 60))
        assert rec.wait_for(lambda: link.counters["frames"] == 5)
    names = {name for name, _ in rec.inputs}
    assert names == {"relic.%d.%s" % (r, k) for r in (1, 2, 3) for k in ("tilt", "motion")}
    assert link.counters["unknown_relics"] == 3  # relic 4 in the heartbeat and its event, relic 5
    warnings = [r.getMessage() for r in caplog.records if "relic 4" in r.getMessage()]
    assert len(warnings) == 1, caplog.records  # the first such frame of a connection, once
    assert "knows relics 1, 2, 3" in warnings[0] and "code.py" in warnings[0]



# --- a hub that floods the rig (issue 12, finding 9) ----------------------------------------------

def test_the_flood_guard_reads_all_up_to_the_limit_then_heartbeats_only_until_calm():
    guard = FloodGuard(limit_per_s=100, window_s=1.0, gap_s=0.04)
    event = p.Event(0, 0, 1, p.EVENT_MOTION, 1, 0, 5.0)
    heartbeat = p.Heartbeat(0, 0, [])
    assert all(guard.admit(event, 10.0 + i * 0.001) for i in range(100))
    assert not guard.flooding
    assert guard.admit(event, 10.1) is False                # the 101st frame within a second
    assert guard.flooding and guard.rate_per_s is None      # measured once a window passed
    assert [guard.admit(heartbeat, t) for t in (10.11, 10.12, 10.151)] == [True, False, True]
    assert guard.admit(p.Hello(0, 0, (1, 0, 0), 7), 10.2)   # hellos too, at the same pace
    for i in range(12000):
        guard.admit(event, 10.1 + i / 12000.0)
    guard.tick(11.2)
    assert 10000 < guard.rate_per_s < 12000 and guard.flooding
    assert guard.dropped == 12002
    guard.tick(12.2)                                        # a second without frames: calm
    assert not guard.flooding and guard.last_rate_per_s == 0


def test_a_flooding_hub_is_a_named_fault_and_its_frames_beyond_the_limit_are_dropped(loop_link):
    clock = FakeClock()
    link, rec, ports = loop_link(clock=clock)
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0))
    assert rec.wait_for(lambda: rec.lost_flags() == [False])
    port.write(b"".join(enc.event(i, 1, p.EVENT_MOTION, i % 2, 0, 10.0 + 10 * (i % 2))
                        for i in range(1, 301)))
    heard = lambda: link.counters["frames"] + link.counters["skipped"]  # noqa: E731
    assert wait_until(lambda: heard() == 301)
    assert link.counters["flood_dropped"] == 201             # read: 100 frames in that second
    assert len(rec.values("relic.1.motion")) == 100          # 0 at first, then 99 flips
    clock.advance(0.5)
    port.write(beat(enc, 500))                               # heartbeats are still read
    assert wait_until(lambda: heard() == 302)
    clock.advance(0.5)                                       # the flood's first second is over
    assert rec.wait_for(lambda: rec.faults)
    active, message = rec.faults[0]
    assert active and message.startswith("Relic hub floods the rig: 202 frames/s")
    assert "allowed: 100" in message and "code.py" in message
    for n, ms in ((303, 1500), (304, 2000)):                 # a calm second
        port.write(beat(enc, ms))
        assert wait_until(lambda: heard() == n)
        clock.advance(0.5)
    assert rec.wait_for(lambda: len(rec.faults) == 2)
    assert rec.faults[1][0] is False and rec.faults[1][1].startswith("Relic hub calm again: ")
    assert rec.lost_flags() == [False]                       # the hub was never lost


def test_a_relic_whose_frames_stop_is_told_once_and_its_return_too(loop_link):
    """Issue 31's sensor health: the relic whose sensor the heartbeats stop reporting is named
    (``on_relic``), once while it stays away; its frames are counted per relic."""
    told = []
    link, rec, ports = loop_link(on_relic=lambda relic, answering: told.append(
        (relic, answering)))
    port = ports.wait_port()
    enc = p.Encoder()
    port.write(beat(enc, 0) + beat(enc, 50, absent=(2,)) + beat(enc, 100, absent=(2,)))
    assert rec.wait_for(lambda: told == [(2, False)])
    port.write(beat(enc, 150))
    assert rec.wait_for(lambda: told == [(2, False), (2, True)])
    assert rec.wait_for(lambda: link.counters["relic_frames"] == {1: 4, 2: 2, 3: 4})
