"""A fake VL53L0X for tests and the laptop simulator: settable range, injectable I2C errors.

It behaves like Adafruit's driver object where :mod:`rig.table.tof` can tell: ``.data_ready``
(the status read that starts every poll), ``.range`` in mm (8190 when nothing is in range),
``.io_timeout_s``, ``start_continuous()``/``stop_continuous()``, and errors of the kinds a real
bus produces (``OSError(121, 'Remote I/O error')`` when the sensor drops off the bus,
``RuntimeError('Timeout waiting for VL53L0X!')`` when it stops answering).  Queued errors,
an unplugged sensor and a hang show on ``data_ready``, the first bus access of a poll.
:mod:`sim.vl53l0x` is the same sensor one layer down, for the real driver.

    fake = FakeVL53L0X()
    poller = HandPoller(fake.factory, on_reading, on_status)
    fake.range = 120          # an arm over the door
    fake.fail_next(3)         # the next 3 reads raise OSError
    fake.unplug()             # every read and every re-open fails until plug()
    fake.stop_ranging()       # answers, but data_ready stays False until re-opened
"""

import random
import threading

from rig.table.names import NOTHING_IN_RANGE_MM


class FakeVL53L0X:
    """One fake sensor.  Thread-safe enough for one poller thread plus the test thread."""

    def __init__(self, range_mm=NOTHING_IN_RANGE_MM, *, io_timeout_s=0.5):
        self.range_mm = range_mm
        self.io_timeout_s = io_timeout_s
        self.continuous = False
        self.reads = 0           # data_ready and .range reads, failed ones included
        self.opens = 0           # factory calls
        self.starts = 0          # start_continuous calls
        self.stops = 0           # stop_continuous calls
        self._failures = []      # exceptions for the next reads, oldest first
        self._unplugged = False
        self._ranging = True     # False: no measurement finishes until the next open
        self._hang = None        # an Event: reads block on it (at most io_timeout_s)
        self._lock = threading.Lock()
        self.read_started = threading.Event()  # set when a read begins, for tests to wait on
        self.read_event = threading.Event()    # set after every read

    # --- The driver's surface -------------------------------------------------------------------

    @property
    def data_ready(self):
        self.read_started.set()
        with self._lock:
            self.reads += 1
            hang = self._hang
            error = self._failures.pop(0) if self._failures else None
            unplugged = self._unplugged
            ranging = self._ranging
        try:
            if hang is not None:
                # Like a stuck read: it ends, but not before io_timeout_s.
                if not hang.wait(self.io_timeout_s):
                    raise RuntimeError("Timeout waiting for VL53L0X!")
            if unplugged:
                raise OSError(121, "Remote I/O error")
            if error is not None:
                raise error
            return ranging
        finally:
            self.read_event.set()

    @property
    def range(self):
        with self._lock:
            self.reads += 1
            unplugged = self._unplugged
            value = self.range_mm
        if unplugged:
            raise OSError(121, "Remote I/O error")
        return value

    @range.setter
    def range(self, range_mm):
        with self._lock:
            self.range_mm = range_mm

    def start_continuous(self):
        if self._unplugged:
            raise OSError(121, "Remote I/O error")
        self.starts += 1
        self.continuous = True

    def stop_continuous(self):
        self.stops += 1
        self.continuous = False
        if self._unplugged:
            raise OSError(121, "Remote I/O error")

    # --- Test controls ------------------------------------------------------------------------

    def fail_next(self, count=1, error=None):
        """The next ``count`` reads raise ``error`` (default: the kernel's I2C OSError)."""
        with self._lock:
            for _ in range(count):
                self._failures.append(error if error is not None
                                      else OSError(121, "Remote I/O error"))

    def unplug(self):
        """The sensor leaves the bus: reads and re-opens fail until :meth:`plug`."""
        self._unplugged = True

    def plug(self):
        """Back on the bus, freshly powered: errors queued by :meth:`fail_next` are gone."""
        with self._lock:
            self._unplugged = False
            self._failures.clear()

    def stop_ranging(self):
        """Keep answering, but finish no measurement (data_ready False) until re-opened."""
        self._ranging = False

    def hang(self):
        """Reads block like a stuck sensor, ending after io_timeout_s; :meth:`release` ends it."""
        self._hang = threading.Event()

    def release(self):
        hang, self._hang = self._hang, None
        if hang is not None:
            hang.set()

    def factory(self):
        """A factory for :class:`rig.table.tof.HandPoller`: re-opening returns this same sensor,
        reset to single-shot mode and ranging again, or raises OSError while unplugged."""
        self.opens += 1
        if self._unplugged:
            raise OSError(121, "Remote I/O error")
        self.continuous = False
        self._ranging = True
        return self


class NoisyVL53L0X(FakeVL53L0X):
    """The fake sensor with a real one's noise: each reading of a distance is off by a normal
    error of ``sigma_fraction`` of it (at least ``min_sigma_mm``; ST gives a few percent), and
    while nothing is in range a share ``ghost_share`` of the readings are ghosts, far distances
    drawn from ``ghost_mm`` (ambient light and the room beyond the door).  Seeded: the same
    readings every run."""

    def __init__(self, range_mm=NOTHING_IN_RANGE_MM, *, seed=0, sigma_fraction=0.03,
                 min_sigma_mm=3.0, ghost_share=0.0, ghost_mm=(1000, 2500), **kwargs):
        super().__init__(range_mm, **kwargs)
        self._rng = random.Random(seed)
        self.sigma_fraction = sigma_fraction
        self.min_sigma_mm = min_sigma_mm
        self.ghost_share = ghost_share
        self.ghost_mm = ghost_mm

    def _noisy(self):
        value = FakeVL53L0X.range.fget(self)
        rng = self._rng
        if value >= NOTHING_IN_RANGE_MM:
            if rng.random() < self.ghost_share:
                return rng.randint(*self.ghost_mm)
            return value
        sigma = max(self.min_sigma_mm, self.sigma_fraction * value)
        return max(0, int(round(rng.gauss(value, sigma))))

    range = property(_noisy, FakeVL53L0X.range.fset)


def fake_factory(range_mm=NOTHING_IN_RANGE_MM):
    """A new fake and its factory, for one-line setups: ``fake, factory = fake_factory()``."""
    fake = FakeVL53L0X(range_mm)
    return fake, fake.factory
