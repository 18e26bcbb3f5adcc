"""The hand sensor: a VL53L0X time-of-flight sensor at the museum entrance (shell code).

It answers one question for the referee: how far is the nearest thing above the door, in mm?
An arm reaching into the museum passes over it; nothing in range reads 8190.

Three layers, so the logic is tested without hardware and without sleeping:

* :func:`open_vl53l0x` -- the only code that touches Blinka and Adafruit's driver, imported
  lazily so the rig imports on any laptop.  It refuses ``io_timeout_s`` 0, the driver's default,
  which makes every read wait forever for a sensor that has stopped answering; it never lets
  Blinka ask to pip-install anything; and it says what to do when Blinka's platform library,
  the I2C bus or the permission to open it is missing.
* :class:`HandSensor` -- one driver object behind a factory: opens it lazily in continuous mode,
  reads the range only when the driver's ``data_ready`` says a measurement is waiting, clamps
  "nothing in range" to 8190, and on any I2C error (or no measurement for the driver's
  ``io_timeout_s``) drops the object so the next read re-initialises it through the factory.
* :class:`HandPoller` -- the thread: polls, forwards readings that matter, backs off after
  errors, and reports the sensor lost after N failures in a row and found again on recovery.
  Its waiting is injected (``wait(stop_event, timeout_s)``), and :meth:`HandPoller.poll_once`
  runs one step without a thread, so tests drive it step by step.
"""

import logging
import os
import sys
import threading
import time

from .debounce import DetectSettings
from .names import NOTHING_IN_RANGE_MM  # 8190+: nothing within range
from ..core.errors import SensorError
from .threads import is_running, stop_and_join

log = logging.getLogger(__name__)

#: A reading inside the hand threshold is forwarded if it moved this much since the last one
#: forwarded (a noisy sensor errs by a few percent: 5-10 mm at a hand's distance)...
MIN_CHANGE_MM = 20
#: ...and any reading that crossed the threshold, at once, whatever the step.
DEFAULT_THRESHOLD_MM = DetectSettings.hand_threshold_mm

#: What a failing I2C read raises: the kernel's OSError (EREMOTEIO, EIO), the driver's
#: RuntimeError("Timeout waiting for VL53L0X!") and wrong-ID errors, ValueError from Blinka.
I2C_ERRORS = (OSError, RuntimeError, TimeoutError, ValueError)

#: While the sensor has no new measurement the poller looks again this soon (or after its poll
#: interval, if shorter): a look is one status read, under half a millisecond on the bus, and
#: between looks the bus and the interpreter are free for the pin callbacks.
NOT_READY_RETRY_S = 0.005

#: Blinka 10's platform library for a Raspberry Pi's pins, which ``import board`` loads even
#: for I2C; the same requirement as in pyproject.toml (a test keeps the two equal).
GPIOD_REQUIREMENT = "gpiod>=2.2.2,<3"


#: How many times the hand sensor is re-initialised after I2C errors before it is given up
#: until the rig restarts: (default, low, high).  At the poller's longest back-off (2 s) the
#: default is over five hours of a sensor that never answers.
MAX_REINITS = (10000, 1, 1000000)


def check_max_reinits(max_reinits):
    default, low, high = MAX_REINITS
    if isinstance(max_reinits, bool) or not isinstance(max_reinits, int) \
            or not low <= max_reinits <= high:
        raise SensorError("max_reinits %r is not allowed; give a whole number of "
                          "re-initialisations from %d to %d (%d is the default)"
                          % (max_reinits, low, high, default))
    return max_reinits


def check_io_timeout(io_timeout_s):
    """The driver's io_timeout_s must be finite and above 0: 0 means wait forever."""
    if isinstance(io_timeout_s, bool) or not isinstance(io_timeout_s, (int, float)) \
            or not 0 < io_timeout_s <= 10:
        raise SensorError(
            "io_timeout_s %r is not allowed; give seconds above 0, at most 10 (0.5 is a good "
            "value): 0 makes the VL53L0X driver wait forever for a sensor that stopped "
            "answering, so the rig would hang ([tof] io_timeout_s in rig.toml)" % (io_timeout_s,))
    return float(io_timeout_s)


def open_vl53l0x(i2c_bus=1, address=0x29, io_timeout_s=0.5, timing_budget_us=20000):
    """Open the VL53L0X through Blinka and return the driver object (its ``.range`` in mm).

    Blinka and the driver are imported here, not at module level, so the rig imports anywhere.
    The caller (:class:`HandSensor`) starts continuous mode.  Raises :class:`SensorError` for a
    zero timeout, a missing library, a missing I2C bus or no permission to open it, and the
    driver's OSError/RuntimeError/ValueError if the sensor does not answer (the caller retries
    all of them).
    """
    io_timeout_s = check_io_timeout(io_timeout_s)
    # Blinka 10's `import board` offers to pip-install the platform libraries it finds missing
    # (gpiod, and PWM and NeoPixel backends the rig never uses) when stdin and stdout are a
    # terminal, and waits for [Y/n] -- here on the hand-sensor thread of a rig started from a
    # shell.  Its README's setting for programs that manage their own dependencies turns that
    # off; a missing library then raises, and is reported below.
    os.environ["BLINKA_SKIP_DEPENDENCY_CHECK"] = "1"
    try:
        import adafruit_vl53l0x
        if i2c_bus == 1:
            board, busio = _import_blinka()
            i2c = _open_bus_1(board, busio)
        else:
            try:
                from adafruit_extended_bus import ExtendedI2C
            except ImportError:
                raise SensorError(
                    "i2c_bus %d needs the adafruit-extended-bus package (Blinka alone opens "
                    "bus 1, header pins 3 and 5); install it, or wire the sensor to bus 1 and "
                    "set [tof] i2c_bus = 1" % i2c_bus) from None
            i2c = ExtendedI2C(i2c_bus)
    except (ImportError, NotImplementedError) as exc:
        raise SensorError(
            "cannot open the hand sensor: %s; install adafruit-circuitpython-vl53l0x and "
            "Blinka on the Pi (pip install -e .), or run with [pins] backend = \"sim\""
            % exc) from None
    sensor = adafruit_vl53l0x.VL53L0X(i2c, address=address, io_timeout_s=io_timeout_s)
    sensor.measurement_timing_budget = timing_budget_us
    return sensor


def _import_blinka():
    """``board`` and ``busio``; Blinka's RuntimeError for a missing platform library becomes a
    :class:`SensorError` that names the package and the command that installs it."""
    try:
        import board
        import busio
    except RuntimeError as exc:
        missing = getattr(exc.__cause__, "name", None)
        if missing == "gpiod":
            raise SensorError(
                "cannot open the hand sensor: Blinka opens the Raspberry Pi's pins (even for "
                "I2C) through the gpiod package, and %s has none; install it with `sudo %s -m "
                "pip install '%s'` (systemd/install.sh does; Debian bookworm's apt package "
                "python3-libgpiod is 1.6, too old for Blinka 10) and restart the rig"
                % (sys.prefix, sys.executable, GPIOD_REQUIREMENT)) from exc
        raise SensorError("cannot open the hand sensor: Blinka: %s; install it into %s and "
                          "restart the rig" % (exc, sys.prefix)) from exc
    return board, busio


def _open_bus_1(board, busio):
    """Blinka's I2C on header pins 3 and 5; a missing /dev/i2c-1 or no permission to open it
    is said as such, not as a wiring fault."""
    try:
        return busio.I2C(board.SCL, board.SDA)
    except ValueError as exc:  # Blinka: "No Hardware I2C on (scl,sda)=(3, 2) ..."
        raise SensorError(
            "cannot open the hand sensor: /dev/i2c-1 does not exist, so I2C is off; turn it on "
            "with `sudo raspi-config nonint do_i2c 0` (systemd/install.sh does) and reboot"
        ) from exc
    except PermissionError as exc:
        raise SensorError(
            "cannot open the hand sensor: /dev/i2c-1: %s; the rig's user must be in the i2c "
            "group (systemd/install.sh adds it), and under systemd the i2c-dev module must be "
            "loaded before the service starts, or DeviceAllow=char-i2c matches nothing "
            "(`sudo systemctl restart cleptomano` once it is)" % exc.strerror) from exc


class HandSensor:
    """One VL53L0X behind a factory, re-opened after any I2C error.

    ``factory()`` returns a driver-like object with ``.data_ready``, ``.range`` (mm),
    ``.io_timeout_s``, ``start_continuous()`` and ``stop_continuous()``.  ``now()`` is the clock
    that times how long the sensor has gone without a measurement.  Not thread-safe: one thread
    (the poller) owns it.
    """

    def __init__(self, factory, now=time.monotonic, max_reinits=MAX_REINITS[0]):
        self._factory = factory
        self._now = now
        self._device = None
        self._measured_s = None  # when the open device last had a measurement (or was opened)
        self.opens = 0  # how many times the factory was called (re-initialisation tries + 1)
        #: Re-initialisations that worked: the sensor opened and ranging again after an I2C
        #: error or a stall (logged each time; the sensor health reads it: docs/contracts/cli.md).
        self.reinits = 0
        self.max_reinits = check_max_reinits(max_reinits)

    @property
    def is_open(self):
        return self._device is not None

    def read_mm(self):
        """The newest reading in mm, 8190 meaning nothing in range; None if the sensor has not
        finished a measurement since the last reading.

        The range is read only once ``data_ready`` is set: the driver's ``range`` would wait
        for the measurement by polling the sensor's status as fast as Python can, up to a
        timing budget each time, holding the I2C bus and the interpreter lock against the pin
        callbacks.  Raises :class:`SensorError` (with the I2C error as its cause) if opening or
        reading failed, or if no measurement came for the driver's ``io_timeout_s`` (a sensor
        that answers but no longer ranges); the broken driver object is dropped so the next
        call re-initialises it.
        """
        try:
            if self._device is None:
                if self.opens > self.max_reinits:
                    raise SensorError(
                        "hand sensor: re-initialised %d times, its bound (max_reinits %d); not "
                        "tried again until the rig restarts: check its I2C wires and its 3V3 "
                        "supply, then restart the rig" % (self.opens - 1, self.max_reinits))
                self.opens += 1
                device = self._factory()
                device.start_continuous()
                self._device = device
                self._measured_s = self._now()
                if self.opens > 1:
                    self.reinits += 1
                    log.warning("hand sensor re-initialised after an I2C error (%d since the "
                                "rig started, at most %d tries)", self.reinits, self.max_reinits)
            if not self._device.data_ready:
                self._check_still_ranging()
                return None
            distance_mm = self._device.range
        except SensorError:  # the factory's own refusal (missing library...): same handling
            self._drop()
            raise
        except I2C_ERRORS as exc:
            self._drop()
            raise SensorError("hand sensor: %s: %s; check its 4 wires (3V3, GND, SDA on pin 3, "
                              "SCL on pin 5) and that `i2cdetect -y 1` shows 29"
                              % (type(exc).__name__, exc)) from exc
        self._measured_s = self._now()
        if isinstance(distance_mm, bool) or not isinstance(distance_mm, (int, float)):
            self._drop()
            raise SensorError("hand sensor: reading %r is not a distance in mm; the driver "
                              "object is not a VL53L0X" % (distance_mm,))
        if distance_mm >= NOTHING_IN_RANGE_MM:
            return NOTHING_IN_RANGE_MM
        return max(0, int(distance_mm))

    def close(self):
        """Stop continuous ranging; never raises (the sensor may already be gone)."""
        device, self._device = self._device, None
        if device is not None:
            try:
                device.stop_continuous()
            except I2C_ERRORS:
                pass

    def _check_still_ranging(self):
        waited_s = self._now() - self._measured_s
        timeout_s = self._device.io_timeout_s
        if waited_s >= timeout_s:
            raise SensorError("hand sensor: no measurement for %.2f s (io_timeout_s %.2f): it "
                              "answers on I2C but stopped ranging; re-initialising it (if it "
                              "keeps stopping, check its 3V3 supply)" % (waited_s, timeout_s))

    def _drop(self):
        """Forget a failed driver object without talking to the sensor again: its
        ``stop_continuous`` waits up to io_timeout_s for a sensor that may be hung, and the
        next open re-initialises it anyway."""
        self._device = None


def should_report(last_mm, new_mm, threshold_mm, min_change_mm=MIN_CHANGE_MM):
    """Whether a reading is worth forwarding: the first one; one on the other side of
    ``threshold_mm`` than the last one forwarded (below it is "hand in"), at once; and, inside,
    a move of ``min_change_mm`` or more (a start refused for a blocked entrance quotes the
    distance).  The referee asks of a reading only which side of the threshold it is on, so the
    readings left out change no decision, and a noisy sensor beyond the door (ghost readings,
    a wall at 1.2 m) writes nothing."""
    if last_mm is None:
        return True
    inside = new_mm < threshold_mm
    if inside != (last_mm < threshold_mm):
        return True
    return inside and abs(new_mm - last_mm) >= min_change_mm


class HandPoller:
    """Polls the hand sensor on its own thread and reports what changed.

    ``on_reading(distance_mm)`` is called only for readings :func:`should_report` accepts;
    ``on_status(lost, reason)`` once when ``lost_after`` reads in a row have failed (lost True)
    and once when a read succeeds again (lost False).  Both run on the poller's thread and
    must only hand the value on (put it on a queue).  After a failure the poller waits
    ``backoff_s[0]`` seconds, doubling up to ``backoff_s[1]``, and re-opens the sensor through
    ``sensor_factory``.

    ``max_reinits`` bounds the re-initialisations (:data:`MAX_REINITS`); ``sensor.reinits``
    counts those that worked, and ``on_reinit(reinits)`` (optional) hears of each one (the
    recording's ``reinit`` line: docs/audits31.md).

    ``wait(stop_event, timeout_s)`` does all the waiting (default ``stop_event.wait``); it
    returns True when the poller should stop.  ``now()`` times a sensor that has stopped ranging:
    give the clock ``wait`` waits on.
    """

    def __init__(self, sensor_factory, on_reading, on_status, *, poll_interval_s=0.02,
                 backoff_s=(0.1, 2.0), lost_after=3, threshold_mm=DEFAULT_THRESHOLD_MM,
                 min_change_mm=MIN_CHANGE_MM, wait=None, now=time.monotonic,
                 name="hand-poller", max_reinits=MAX_REINITS[0], on_reinit=None):
        if isinstance(poll_interval_s, bool) or not 0 <= poll_interval_s <= 1:
            raise SensorError("poll_interval_s %r is not allowed; give seconds from 0 to 1 "
                              "(0.02 is a good value)" % (poll_interval_s,))
        first, longest = backoff_s
        if not 0 < first <= longest <= 60:
            raise SensorError("backoff_s %r is not allowed; give (first, longest) seconds with "
                              "0 < first <= longest <= 60, e.g. (0.1, 2.0)" % (backoff_s,))
        if isinstance(lost_after, bool) or not isinstance(lost_after, int) or lost_after < 1:
            raise SensorError("lost_after %r is not allowed; give a whole number of failed "
                              "reads, 1 or more (3 is a good value)" % (lost_after,))
        self.sensor = HandSensor(sensor_factory, now, max_reinits)
        self._on_reading = on_reading
        self._on_status = on_status
        self._on_reinit = on_reinit
        self._reinits_told = 0  # the re-initialisations on_reinit has heard of
        self.poll_interval_s = float(poll_interval_s)
        self.backoff_s = (float(first), float(longest))
        self.lost_after = lost_after
        self.threshold_mm = threshold_mm
        self.min_change_mm = min_change_mm
        self._wait = wait if wait is not None else _event_wait
        self._name = name
        self._stop = threading.Event()
        self._thread = None
        self.failures = 0  # consecutive failed reads
        self.lost = False
        self.last_mm = None  # last forwarded reading
        self._next_backoff_s = self.backoff_s[0]

    # --- One step, no thread: the whole behaviour --------------------------------------------

    def poll_once(self):
        """Read once, report what changed, and return how long to wait before the next read."""
        try:
            distance_mm = self.sensor.read_mm()
        except SensorError as exc:
            return self._failed(exc)
        self._tell_reinits()
        if distance_mm is None:  # no new measurement yet: look again soon
            return min(self.poll_interval_s, NOT_READY_RETRY_S)
        self.failures = 0
        self._next_backoff_s = self.backoff_s[0]
        if self.lost:
            self.lost = False
            self.last_mm = None  # the first reading after recovery is always forwarded
            self._call(self._on_status, False, "hand sensor answers again")
        if should_report(self.last_mm, distance_mm, self.threshold_mm, self.min_change_mm):
            self.last_mm = distance_mm
            self._call(self._on_reading, distance_mm)
        return self.poll_interval_s

    def _tell_reinits(self):
        reinits = self.sensor.reinits
        if reinits != self._reinits_told:
            self._reinits_told = reinits
            if self._on_reinit is not None:
                self._call(self._on_reinit, reinits)

    def _failed(self, exc):
        self.failures += 1
        delay_s = self._next_backoff_s
        self._next_backoff_s = min(self._next_backoff_s * 2, self.backoff_s[1])
        log.warning("%s (failure %d, retrying in %.2f s)", exc, self.failures, delay_s)
        if self.failures >= self.lost_after and not self.lost:
            self.lost = True
            self._call(self._on_status, True,
                       "hand sensor lost after %d failed reads: %s" % (self.failures, exc))
        return delay_s

    def _call(self, callback, *args):
        try:
            callback(*args)
        except Exception:  # a broken consumer must not kill the sensor thread
            log.exception("hand poller callback %r failed", callback)

    # --- The thread ----------------------------------------------------------------------------

    def start(self):
        """Start polling on a daemon thread (once)."""
        if self._thread is not None:
            raise SensorError("the hand poller is already running; stop() it before starting "
                              "another")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def request_stop(self):
        """Ask the thread to stop without waiting for it (see :meth:`stop`)."""
        self._stop.set()

    def stop(self, timeout_s=1.0):
        """Ask the thread to stop and wait at most ``timeout_s``.  Returns True if it ended.

        A read in progress ends within the driver's io_timeout_s, so give at least that."""
        if not stop_and_join(self._stop, self._thread, timeout_s,
                             "the hand poller (a sensor read is hanging)"):
            return False
        self._thread = None
        return True

    @property
    def running(self):
        return is_running(self._thread)

    def _run(self):
        try:
            while not self._stop.is_set():
                delay_s = self.poll_once()
                if self._wait(self._stop, delay_s):
                    break
        finally:
            self.sensor.close()


def _event_wait(stop_event, timeout_s):
    return stop_event.wait(timeout_s)


def poller_from_config(tof, hand_threshold_mm, on_reading, on_status, *, sensor_factory=None,
                       wait=None, now=time.monotonic):
    """A :class:`HandPoller` set up from a :class:`rig.shell.config.TofConfig`.

    ``sensor_factory`` defaults to the real sensor through :func:`open_vl53l0x` with the
    config's bus, address, io timeout and timing budget (checked here, before any thread).
    """
    if sensor_factory is None:
        check_io_timeout(tof.io_timeout_s)

        def sensor_factory():
            return open_vl53l0x(tof.i2c_bus, tof.address, tof.io_timeout_s,
                                tof.timing_budget_us)
    return HandPoller(sensor_factory, on_reading, on_status,
                      poll_interval_s=tof.poll_interval_s, backoff_s=tof.retry_backoff_s,
                      lost_after=tof.lost_after, threshold_mm=hand_threshold_mm, wait=wait,
                      now=now)
