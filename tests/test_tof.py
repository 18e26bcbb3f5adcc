"""The hand-sensor adapter: what reaches the referee, how errors are survived, how it stops.

The logic is driven step by step with :meth:`HandPoller.poll_once` (no thread, no sleep); the
thread itself is tested with an injected wait and bounded waits on events.
"""

import threading

import pytest

from rig.core.errors import SensorError
from rig.table.tof import HandPoller, HandSensor, check_io_timeout, open_vl53l0x, should_report
from sim.fake_tof import FakeVL53L0X, fake_factory


class Recorder:
    def __init__(self):
        self.readings = []
        self.statuses = []

    def reading(self, distance_mm):
        self.readings.append(distance_mm)

    def status(self, lost, reason):
        self.statuses.append((lost, reason))


def make(fake=None, **kwargs):
    fake = fake or FakeVL53L0X()
    rec = Recorder()
    kwargs.setdefault("threshold_mm", 400)
    poller = HandPoller(fake.factory, rec.reading, rec.status, **kwargs)
    return fake, rec, poller


def feed(fake, poller, values):
    for value in values:
        fake.range = value
        poller.poll_once()


# --- What is forwarded ----------------------------------------------------------------------------

def test_readings_are_forwarded_when_they_cross_the_threshold_or_move_20mm_inside():
    fake, rec, poller = make()
    feed(fake, poller, [8190, 8190, 600, 1200, 605, 402, 399, 398, 401, 250, 252, 230, 211,
                        8190])
    # Beyond the threshold only the crossing matters: 600, 1200, 605 and 402 are all "out".
    # 399 crossed by 3 mm; 398 did not move; 401 crossed back; 250 crossed in; 252 moved 2 mm;
    # 230 moved 20 mm inside (the distance a refused start quotes); 211 moved 19; 8190 is out.
    assert rec.readings == [8190, 399, 401, 250, 230, 8190]


@pytest.mark.parametrize("last,new,report", [
    (None, 500, True), (500, 504, False), (500, 495, False), (8190, 1200, False),
    (401, 400, False), (400, 399, True), (399, 400, True), (8190, 8190, False),
    (300, 281, False), (300, 280, True), (150, 8190, True),
])
def test_should_report_table(last, new, report):
    assert should_report(last, new, 400) is report


def test_readings_of_8190_and_above_mean_nothing_in_range():
    fake, rec, poller = make()
    feed(fake, poller, [8191, 65535, 8190, 120, 9000])
    assert rec.readings == [8190, 120, 8190]


def test_the_sensor_is_started_in_continuous_mode():
    fake, rec, poller = make()
    poller.poll_once()
    assert fake.continuous and fake.starts == 1 and fake.opens == 1


# --- Errors, retries, loss and recovery -----------------------------------------------------------

def test_an_i2c_error_is_retried_with_backoff_and_reinitialisation():
    fake, rec, poller = make(backoff_s=(0.1, 0.35), lost_after=10)
    fake.range = 300
    assert poller.poll_once() == 0.02
    fake.fail_next(4)
    delays = [poller.poll_once() for _ in range(4)]
    assert delays == [0.1, 0.2, 0.35, 0.35]  # doubling, capped
    assert fake.opens == 4  # each read after a failure re-initialises the sensor
    assert poller.poll_once() == 0.02  # back to normal pace
    assert fake.opens == 5 and fake.continuous
    assert poller.poll_once() == 0.02
    fake.fail_next(1)
    assert poller.poll_once() == 0.1  # backoff starts again from the first delay
    assert rec.statuses == []  # a few failures are not a loss
    assert rec.readings == [300]


@pytest.mark.parametrize("error", [OSError(5, "Input/output error"),
                                   RuntimeError("Timeout waiting for VL53L0X!"),
                                   TimeoutError("bus")])
def test_every_kind_of_i2c_error_is_survived(error):
    fake, rec, poller = make(lost_after=2)
    fake.fail_next(1, error)
    poller.poll_once()
    fake.range = 200
    poller.poll_once()
    assert rec.readings == [200] and rec.statuses == []


def test_lost_after_n_consecutive_failures_then_recovered():
    fake, rec, poller = make(lost_after=3)
    fake.range = 250
    poller.poll_once()
    fake.unplug()
    for _ in range(2):
        poller.poll_once()
    assert rec.statuses == []
    for _ in range(5):  # reported once, not on every failure
        poller.poll_once()
    assert len(rec.statuses) == 1
    lost, reason = rec.statuses[0]
    assert lost and "lost after 3 failed reads" in reason and "Remote I/O error" in reason
    assert poller.lost
    fake.plug()
    poller.poll_once()
    assert rec.statuses[1] == (False, "hand sensor answers again")
    assert rec.readings == [250, 250]  # the first reading after recovery is always forwarded


def test_a_factory_that_cannot_open_counts_as_a_failure():
    rec = Recorder()

    def factory():
        raise SensorError("cannot open the hand sensor: No module named 'board'")

    poller = HandPoller(factory, rec.reading, rec.status, lost_after=1)
    poller.poll_once()
    assert rec.statuses == [(True, "hand sensor lost after 1 failed reads: cannot open the "
                                   "hand sensor: No module named 'board'")]


def test_a_raising_callback_does_not_kill_the_poller():
    fake = FakeVL53L0X(100)

    def broken(distance_mm):
        raise ValueError("consumer bug")

    poller = HandPoller(fake.factory, broken, lambda lost, reason: None)
    assert poller.poll_once() == 0.02


def test_hand_sensor_refuses_a_non_distance():
    class Weird:
        data_ready = True
        io_timeout_s = 0.5
        range = "far"

        def start_continuous(self):
            pass

        def stop_continuous(self):
            pass

    with pytest.raises(SensorError, match="not a distance"):
        HandSensor(Weird).read_mm()


def test_the_range_is_read_only_when_a_measurement_is_ready():
    fake, rec, poller = make(poll_interval_s=0.02)
    fake.range = 300
    assert poller.poll_once() == 0.02 and rec.readings == [300]
    fake.stop_ranging()
    fake.range = 100
    reads = fake.reads
    assert poller.poll_once() == 0.005  # nothing new: look again soon, at the status only
    assert fake.reads == reads + 1 and rec.readings == [300] and rec.statuses == []


def test_a_sensor_that_stops_ranging_fails_after_io_timeout_and_is_reinitialised():
    now = [0.0]
    fake = FakeVL53L0X(300, io_timeout_s=0.5)
    rec = Recorder()
    poller = HandPoller(fake.factory, rec.reading, rec.status, lost_after=1,
                        now=lambda: now[0])
    poller.poll_once()
    fake.stop_ranging()
    for now[0] in (0.1, 0.3, 0.499):  # within io_timeout_s: no failure, only quick looks
        assert poller.poll_once() == 0.005
    assert rec.statuses == [] and fake.opens == 1
    now[0] = 0.5
    poller.poll_once()
    assert rec.statuses and rec.statuses[0][0] is True
    assert "no measurement for 0.50 s (io_timeout_s 0.50)" in rec.statuses[0][1]
    assert fake.stops == 0  # a failed sensor is not talked to before it is re-opened
    fake.range = 200
    poller.poll_once()
    assert fake.opens == 2 and rec.readings == [300, 200]
    assert rec.statuses[-1] == (False, "hand sensor answers again")


# --- The io timeout -------------------------------------------------------------------------------

@pytest.mark.parametrize("bad", [0, 0.0, -1, None, True, 11])
def test_io_timeout_zero_or_unbounded_is_rejected_with_a_clear_error(bad):
    with pytest.raises(SensorError) as caught:
        open_vl53l0x(io_timeout_s=bad)  # refused before any hardware library is imported
    assert "wait forever" in str(caught.value) and "io_timeout_s" in str(caught.value)


def test_io_timeout_accepts_finite_values():
    assert check_io_timeout(0.5) == 0.5


@pytest.mark.parametrize("kwargs,words", [
    ({"poll_interval_s": -1}, "poll_interval_s"),
    ({"backoff_s": (2.0, 0.1)}, "backoff_s"),
    ({"lost_after": 0}, "lost_after"),
])
def test_poller_parameters_are_checked(kwargs, words):
    with pytest.raises(SensorError, match=words):
        make(**kwargs)


# --- The thread -----------------------------------------------------------------------------------

def test_thread_polls_with_the_injected_wait_and_stops_within_its_bound():
    fake, _ = fake_factory(150)
    rec = Recorder()
    waits = []
    enough = threading.Event()

    def wait(stop_event, timeout_s):
        waits.append(timeout_s)
        if len(waits) >= 5:
            enough.set()
        return stop_event.wait(0.001)  # bounded, never a real poll interval

    poller = HandPoller(fake.factory, rec.reading, rec.status, wait=wait)
    poller.start()
    try:
        assert enough.wait(30.0)
    finally:
        assert poller.stop(timeout_s=30.0)      # True: the thread ended within the bound
    assert not poller.running
    assert rec.readings == [150]  # one value, however many polls
    assert waits[0] == 0.02
    assert fake.stops >= 1  # continuous mode stopped on the way out


def test_stop_returns_within_its_bound_even_if_a_read_hangs():
    fake = FakeVL53L0X(150, io_timeout_s=2.0)
    fake.hang()
    rec = Recorder()
    poller = HandPoller(fake.factory, rec.reading, rec.status)
    poller.start()
    try:
        assert fake.read_started.wait(30.0)
        # Returns (False: the read still hangs, as it does until released) rather than wait.
        assert poller.stop(timeout_s=0.05) is False
    finally:
        fake.release()
        assert poller.stop(timeout_s=30.0)  # the read ends, the thread sees stop and ends


def test_start_twice_is_refused():
    fake, rec, poller = make()
    poller = HandPoller(fake.factory, rec.reading, rec.status,
                        wait=lambda event, timeout_s: event.wait(0.001))
    poller.start()
    try:
        with pytest.raises(SensorError, match="already running"):
            poller.start()
    finally:
        assert poller.stop(timeout_s=1.0)


def test_open_vl53l0x_imports_blinka_lazily_and_passes_a_finite_timeout(monkeypatch):
    import sys
    import types

    made = {}

    class Driver:
        def __init__(self, i2c, address, io_timeout_s):
            made.update(i2c=i2c, address=address, io_timeout_s=io_timeout_s)

    board = types.SimpleNamespace(SCL="SCL", SDA="SDA")
    busio = types.SimpleNamespace(I2C=lambda scl, sda: ("i2c", scl, sda))
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "busio", busio)
    monkeypatch.setitem(sys.modules, "adafruit_vl53l0x", types.SimpleNamespace(VL53L0X=Driver))
    sensor = open_vl53l0x(1, 0x29, 0.5, 33000)
    assert made == {"i2c": ("i2c", "SCL", "SDA"), "address": 0x29, "io_timeout_s": 0.5}
    assert sensor.measurement_timing_budget == 33000
    with pytest.raises(SensorError, match="adafruit-extended-bus"):
        monkeypatch.setitem(sys.modules, "adafruit_extended_bus", None)
        open_vl53l0x(3, 0x29, 0.5, 20000)


def test_rig_tof_imports_no_hardware_library():
    import subprocess
    import sys

    code = ("import sys, rig.table.tof, rig.shell.config; "
            "bad = [m for m in ('board', 'busio', 'adafruit_vl53l0x', 'sim') if m in sys.modules]; "
            "sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], timeout=30).returncode == 0


def test_poller_from_config_uses_the_config_values():
    from rig.shell.config import TofConfig
    from rig.table.tof import poller_from_config

    fake = FakeVL53L0X(300)
    rec = Recorder()
    tof = TofConfig(poll_interval_s=0.05, retry_backoff_s=(0.2, 1.0), lost_after=2)
    poller = poller_from_config(tof, 250, rec.reading, rec.status, sensor_factory=fake.factory)
    assert poller.poll_once() == 0.05
    fake.fail_next(2)
    assert [poller.poll_once(), poller.poll_once()] == [0.2, 0.4]
    assert rec.statuses[0][0] is True and poller.threshold_mm == 250
    with pytest.raises(SensorError, match="wait forever"):
        poller_from_config(TofConfig(io_timeout_s=0), 250, rec.reading, rec.status)
