"""The hand sensor through the real stack: the rig's HandSensor/HandPoller and open_vl53l0x, over
Adafruit's real ``adafruit_vl53l0x`` driver, Adafruit's bus-device locking, Blinka's real
``board`` and ``busio`` (forced to a Raspberry Pi 4 with Blinka's BLINKA_FORCEBOARD and
BLINKA_FORCECHIP) and Adafruit_PureIO's SMBus, down to the kernel's /dev/i2c-1.  Only that last
layer is replaced (:mod:`sim.i2cdev`), with a VL53L0X at register level behind it
(:mod:`sim.vl53l0x`).

Time is the bus's: every transfer costs its time on a 100 kHz bus, the driver's
``time.monotonic`` reads that clock, and the poller's waits advance it, so the driver's own
timeout loops run as on a Pi, in virtual time, without sleeping.

Blinka 10 needs the ``gpiod`` package for a Pi's pins even to import ``board`` (it opens no GPIO
until a pin is used); the test extras install it.  The missing-library and terminal-prompt
checks run in a child Python, the only way to give Blinka a terminal or hide a package.
"""

import errno
import json
import os
import pathlib
import pty
import select
import subprocess
import sys
import time
import tomllib
import types

import pytest

from rig.core.errors import SensorError
from rig.table.tof import GPIOD_REQUIREMENT, HandPoller, HandSensor, open_vl53l0x
from sim.i2cdev import I2CDev
from sim.vl53l0x import VL53L0XChip

pytest.importorskip("gpiod", reason="Blinka 10 imports gpiod for a Raspberry Pi's pins; the "
                                    "gpiod package exists for Linux only (pip install -e '.[test]')")

ROOT = pathlib.Path(__file__).resolve().parent.parent
PI_4 = {"BLINKA_FORCEBOARD": "RASPBERRY_PI_4B", "BLINKA_FORCECHIP": "BCM2XXX"}
#: Blinka's dependency check knows a Pi 4 by /proc/cpuinfo's Revision line, which no forced
#: board has, but a Pi 5 by its board id: forced, it is the Pi that check sees, prompt and all.
PI_5 = {"BLINKA_FORCEBOARD": "RASPBERRY_PI_5", "BLINKA_FORCECHIP": "BCM2XXX"}
BLINKA_MODULES = ("board", "busio", "microcontroller", "adafruit_blinka")
#: The period of a measurement at the rig's default timing budget, as the driver programs it.
PERIOD_S = 0.0206


def forget_blinka():
    """Drop Blinka's modules, so the next ``import board`` detects the board again."""
    for name in list(sys.modules):
        if name.split(".")[0] in BLINKA_MODULES:
            del sys.modules[name]


@pytest.fixture
def pi(monkeypatch):
    """A Raspberry Pi 4 as Blinka sees it, a VL53L0X on I2C bus 1 at 0x29, the bus's clock."""
    for name, value in PI_4.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("BLINKA_SKIP_DEPENDENCY_CHECK", raising=False)  # the rig sets it
    forget_blinka()
    dev = I2CDev()
    chip = dev.attach(1, 0x29, VL53L0XChip())
    undo = dev.install()
    import adafruit_vl53l0x
    monkeypatch.setattr(adafruit_vl53l0x, "time", types.SimpleNamespace(monotonic=dev.now))
    yield types.SimpleNamespace(dev=dev, chip=chip)
    undo()
    forget_blinka()


class Rig:
    """The rig's poller on the real factory, driven the way its thread drives it: one poll,
    then the wait it asks for (bus time passes, the bus idle)."""

    def __init__(self, pi, io_timeout_s=0.5, timing_budget_us=20000, **kwargs):
        self.dev = pi.dev
        self.readings = []   # (bus time, mm)
        self.statuses = []   # (bus time, lost, reason)
        self.polls = []      # (transfers, bus seconds) each poll cost
        self.poller = HandPoller(
            lambda: open_vl53l0x(1, 0x29, io_timeout_s, timing_budget_us),
            lambda mm: self.readings.append((self.dev.now(), mm)),
            lambda lost, reason: self.statuses.append((self.dev.now(), lost, reason)),
            threshold_mm=400, now=self.dev.now, **kwargs)

    def poll(self):
        transfers, busy_s = self.dev.transfers, self.dev.busy_s
        delay_s = self.poller.poll_once()
        self.polls.append((self.dev.transfers - transfers, self.dev.busy_s - busy_s))
        self.dev.advance(delay_s)

    def run(self, seconds):
        until = self.dev.now() + seconds
        while self.dev.now() < until:
            self.poll()

    @property
    def values(self):
        return [mm for _, mm in self.readings]


# --- Open and ranging ------------------------------------------------------------------------------

def test_blinka_finds_the_sensor_where_the_rig_tells_the_builder_to_look(pi):
    import board
    import busio
    assert [hex(a) for a in busio.I2C(board.SCL, board.SDA).scan()] == ["0x29"]  # i2cdetect


@pytest.mark.parametrize("budget_us", [20000, 33000])
def test_open_initialises_the_sensor_and_ranges_continuously_at_the_timing_budget(pi, budget_us):
    pi.chip.distance_mm = 321
    rig = Rig(pi, timing_budget_us=budget_us)
    rig.poll()
    assert rig.poller.sensor.opens == 1 and pi.chip.continuous
    assert pi.chip.register(0, 0x01) == 0xE8  # the driver's init ran to its last step
    period_s = pi.chip.periods_s[-1]
    assert abs(period_s - budget_us / 1e6) < 0.03 * budget_us / 1e6
    measured = pi.chip.measurements
    rig.run(1.0)
    assert rig.values == [321] and rig.statuses == []
    assert abs(pi.chip.measurements - measured - 1.0 / period_s) <= 1


def test_continuous_ranging_follows_what_is_in_front_of_the_sensor(pi):
    rig = Rig(pi)
    script = [(0.0, 8190), (0.2, 350), (0.4, 250), (0.6, 120), (0.8, 8190)]
    for t, mm in script:
        rig.run(t - pi.dev.now())
        pi.chip.distance_mm = mm
    rig.run(0.2)
    assert rig.values == [mm for _, mm in script]
    changed_at = [t for t, _ in script[1:]]
    seen_at = [t for t, _ in rig.readings[1:]]
    # Seen within one measurement (started before the change) plus one look at the status.
    assert all(0 < seen - changed < 2 * PERIOD_S + 0.005 for seen, changed in
               zip(seen_at, changed_at)), (seen_at, changed_at)


def test_nothing_in_range_reads_8190_whatever_the_sensor_reports_above_it(pi):
    rig = Rig(pi)
    for raw_mm in (8191, 65535, 8190, 300, 20000):
        pi.chip.distance_mm = raw_mm
        rig.run(0.1)
    assert rig.values == [8190, 300, 8190]


@pytest.mark.parametrize("budget_us", [20000, 33000])
def test_a_poll_holds_the_bus_for_a_status_read_never_for_a_measurement(pi, budget_us):
    """The driver's ``range`` polls the status until a measurement is ready, as fast as Python
    runs, holding the bus and the GIL up to a timing budget; the rig looks at ``data_ready``
    first.  A reading costs 5 transfers (status, range, interrupt clear), a look 2."""
    rig = Rig(pi, timing_budget_us=budget_us)
    rig.poll()  # the open: the driver's init, once
    rig.polls.clear()
    started_s, busy_s, measured = pi.dev.now(), pi.dev.busy_s, pi.chip.measurements
    for t in range(40):
        pi.chip.distance_mm = 100 + 10 * t
        rig.run(0.025)
    assert max(transfers for transfers, _ in rig.polls) <= 5
    assert max(held_s for _, held_s in rig.polls) < 0.0015
    busy = (pi.dev.busy_s - busy_s) / (pi.dev.now() - started_s)
    assert busy < 0.1, "the bus was busy %.0f %% of the time" % (100 * busy)
    read = sum(1 for transfers, _ in rig.polls if transfers == 5)
    assert read >= pi.chip.measurements - measured - 2  # and every measurement is read


# --- A sensor that stops answering -------------------------------------------------------------

def test_a_sensor_that_stops_ranging_is_given_up_within_io_timeout_and_recovers(pi):
    rig = Rig(pi, io_timeout_s=0.2, lost_after=3, backoff_s=(0.1, 0.4))
    pi.chip.distance_mm = 250
    rig.run(0.1)
    pi.chip.stop_measuring()  # still acknowledges every byte; never finishes a measurement
    stopped_s = pi.dev.now()
    rig.run(0.19)
    assert rig.statuses == []  # looks at the status, waits, within io_timeout_s
    rig.run(1.5)
    lost = [s for s in rig.statuses if s[1]]
    assert len(lost) == 1 and lost[0][0] - stopped_s < 1.0
    assert "lost after 3 failed reads" in lost[0][2]
    assert "Timeout waiting for VL53L0X!" in lost[0][2]  # the driver's re-init gave up
    # No poll, re-initialisation included, held the bus longer than io_timeout_s and change.
    assert max(held_s for _, held_s in rig.polls) < 0.2 + 0.1
    opens = rig.poller.sensor.opens
    pi.chip = pi.dev.attach(1, 0x29, VL53L0XChip(distance_mm=250))  # power-cycled
    rig.run(1.0)
    assert rig.poller.sensor.opens == opens + 1
    assert rig.statuses[-1][1:] == (False, "hand sensor answers again")
    assert rig.values[-1] == 250


def test_the_stall_itself_is_reported_as_such(pi):
    rig = Rig(pi, io_timeout_s=0.2, lost_after=1)
    rig.run(0.05)
    pi.chip.stop_measuring()
    rig.run(0.25)
    assert "no measurement for 0.20 s (io_timeout_s 0.20)" in rig.statuses[0][2]


# --- I2C errors and re-initialisation ----------------------------------------------------------

@pytest.mark.parametrize("code", [errno.EREMOTEIO, errno.EIO, errno.ETIMEDOUT])
def test_i2c_errors_are_survived_by_reinitialising_the_sensor(pi, code):
    rig = Rig(pi, lost_after=3)
    pi.chip.distance_mm = 300
    rig.run(0.1)
    pi.dev.fail_next(2, code)
    pi.chip.distance_mm = 150
    rig.run(0.5)
    assert rig.values == [300, 150] and rig.statuses == []
    assert rig.poller.sensor.opens == 2  # dropped after the error, opened again


def test_an_unplugged_sensor_is_lost_with_the_wiring_hint_and_found_when_plugged(pi):
    rig = Rig(pi, lost_after=3, backoff_s=(0.1, 0.2))
    pi.chip.distance_mm = 300
    rig.run(0.1)
    pi.dev.detach(1, 0x29)
    rig.run(1.0)
    lost = [reason for _, is_lost, reason in rig.statuses if is_lost]
    assert len(lost) == 1
    assert "No I2C device at address: 0x29" in lost[0]  # the driver's probe at re-open
    assert "check its 4 wires" in lost[0] and "i2cdetect -y 1" in lost[0]
    pi.dev.attach(1, 0x29, VL53L0XChip(distance_mm=310))  # back, freshly powered
    rig.run(0.5)
    assert rig.statuses[-1][1:] == (False, "hand sensor answers again")
    assert rig.values[-1] == 310


def test_a_sensor_that_loses_i2c_comes_back_reinitialised_and_counted(pi, caplog):
    """Issue 31: the VL53L0X loses the bus (a brown-out: it answers nothing), comes back at
    power-on defaults, and the rig re-initialises it through Adafruit's driver, counts it and
    logs it."""
    rig = Rig(pi, lost_after=3, backoff_s=(0.1, 0.2))
    pi.chip.distance_mm = 300
    rig.run(0.1)
    assert rig.poller.sensor.reinits == 0
    pi.dev.detach(1, 0x29)
    with caplog.at_level("WARNING", logger="rig.table.tof"):
        rig.run(1.0)
        assert rig.poller.sensor.reinits == 0       # tried, never answered: not counted
        pi.dev.attach(1, 0x29, VL53L0XChip(distance_mm=120))   # back, freshly powered
        rig.run(0.5)
    assert rig.values[-1] == 120                       # ranging again: it was re-initialised
    assert rig.poller.sensor.reinits == 1
    assert any("hand sensor re-initialised after an I2C error (1 since the rig started"
               in r.getMessage() for r in caplog.records)


def test_reinitialising_stops_at_its_bound_with_the_fix(pi):
    rig = Rig(pi, lost_after=1, backoff_s=(0.1, 0.1), max_reinits=2)
    pi.chip.distance_mm = 300
    rig.run(0.1)
    pi.dev.detach(1, 0x29)
    rig.run(1.0)
    assert rig.poller.sensor.opens == 3                # the first open and 2 re-initialisations
    pi.dev.attach(1, 0x29, VL53L0XChip(distance_mm=120))
    rig.run(0.5)
    assert rig.poller.sensor.opens == 3 and rig.values == [300]
    assert rig.poller.lost


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3", 10 ** 7])
def test_a_bad_reinit_bound_is_refused_with_the_range(bad):
    with pytest.raises(SensorError) as err:
        HandSensor(lambda: None, max_reinits=bad)
    assert "max_reinits %r is not allowed" % (bad,) in str(err.value)
    assert "from 1 to 1000000" in str(err.value)


# --- The bus itself ----------------------------------------------------------------------------

def test_i2c_switched_off_is_reported_with_the_command_that_switches_it_on(pi):
    pi.dev.remove_bus(1)
    with pytest.raises(SensorError) as caught:
        HandSensor(open_vl53l0x, now=pi.dev.now).read_mm()
    assert "/dev/i2c-1 does not exist" in str(caught.value)
    assert "raspi-config nonint do_i2c 0" in str(caught.value)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EPERM])
def test_no_permission_for_the_bus_names_the_group_and_the_device_policy(pi, code):
    pi.dev.open_error = code
    with pytest.raises(SensorError) as caught:
        HandSensor(open_vl53l0x, now=pi.dev.now).read_mm()
    message = str(caught.value)
    assert os.strerror(code) in message and "i2c group" in message
    assert "DeviceAllow=char-i2c" in message and "wires" not in message


# --- Blinka's platform library and its prompt --------------------------------------------------

CHILD = r"""
import json, sys, types
from sim.i2cdev import I2CDev
from sim.vl53l0x import VL53L0XChip
from rig.table.tof import HandPoller, open_vl53l0x

if sys.argv[1] == "without-gpiod":
    class NoGpiod:
        "The gpiod package, not installed."
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "gpiod":
                raise ModuleNotFoundError("No module named %r" % name, name=name)
    sys.meta_path.insert(0, NoGpiod())

dev = I2CDev()
dev.attach(1, 0x29, VL53L0XChip(distance_mm=420))
dev.install()
import adafruit_vl53l0x
adafruit_vl53l0x.time = types.SimpleNamespace(monotonic=dev.now)
seen = {"readings": [], "lost": []}
poller = HandPoller(open_vl53l0x, seen["readings"].append,
                    lambda lost, reason: seen["lost"].append(reason), lost_after=1, now=dev.now)
while not (seen["readings"] or seen["lost"]):
    dev.advance(poller.poll_once())
print("RESULT " + json.dumps(seen))
"""


def run_child(mode, terminal):
    """Run CHILD on a Pi 5 as Blinka sees it, on pipes or on a pseudo-terminal (stdin and
    stdout both a tty, as in a shell).  Returns (exit status or None if it had to be killed,
    everything it printed)."""
    env = {k: v for k, v in os.environ.items() if k != "BLINKA_SKIP_DEPENDENCY_CHECK"}
    env.update(PI_5)
    command = [sys.executable, "-c", CHILD, mode]
    if not terminal:
        done = subprocess.run(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout + done.stderr
    master, slave = pty.openpty()
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdin=slave, stdout=slave,
                             stderr=slave)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and b"[Y/n]" not in out:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                if child.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed its side
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(master)
        if child.poll() is None:  # waiting at Blinka's prompt, or hung
            child.kill()
        status = child.wait(10)
    return (None if status < 0 else status), out.decode("utf-8", "replace")


def child_result(out):
    for line in out.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise AssertionError("the child printed no result:\n" + out)


@pytest.mark.parametrize("terminal", [False, True], ids=["service", "terminal"])
def test_a_missing_gpiod_is_reported_with_the_command_that_installs_it(terminal):
    status, out = run_child("without-gpiod", terminal)
    assert "[Y/n]" not in out, "Blinka asked to install packages:\n" + out
    assert status == 0, out
    lost = child_result(out)["lost"]
    assert len(lost) == 1, out
    message = lost[0]
    assert "gpiod package" in message
    assert "%s -m pip install '%s'" % (sys.executable, GPIOD_REQUIREMENT) in message
    assert "python3-libgpiod is 1.6, too old" in message
    assert "wires" not in message and "i2cdetect" not in message


def test_from_a_terminal_blinka_never_asks_to_install_what_the_rig_does_not_use():
    """Blinka 10 asks [Y/n] to pip-install its PWM and NeoPixel backends when stdin and stdout
    are a terminal, even with gpiod installed: from the hand-sensor thread it would block it."""
    status, out = run_child("with-gpiod", terminal=True)
    assert "[Y/n]" not in out and "Install them" not in out, out
    assert status == 0, out
    assert child_result(out) == {"readings": [420], "lost": []}


# --- The dependency ----------------------------------------------------------------------------

def test_pyproject_asks_for_the_gpiod_blinka_asks_for_on_arm_linux(pi, monkeypatch):
    for name, value in PI_5.items():
        monkeypatch.setenv(name, value)
    from adafruit_blinka.agnostic import detector
    from adafruit_blinka.platform_dependencies import get_platform_dependencies
    assert ("gpiod", GPIOD_REQUIREMENT) in get_platform_dependencies(detector)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    gpiod = [d for d in project["dependencies"] if d.startswith("gpiod")]
    assert len(gpiod) == 1 and gpiod[0].startswith(GPIOD_REQUIREMENT + ";")
    for machine in ("aarch64", "armv7l", "armv6l"):
        assert "platform_machine == '%s'" % machine in gpiod[0]
    assert any(d.startswith(GPIOD_REQUIREMENT) for d in project["optional-dependencies"]["test"])
