"""A fake VL53L0X for tests and the laptop simulator: settable range, injectable I2C errors.

It behaves like Adafruit's driver object where :mod:`rig.shell.tof` can tell: ``.range`` in mm
(8190 when nothing is in range), ``start_continuous()``/``stop_continuous()``, and errors of
the kinds a real bus produces (``OSError(121, 'Remote I/O error')`` when the sensor drops off
the bus, ``RuntimeError('Timeout waiting for VL53L0X!')`` when it stops answering).

    fake = FakeVL53L0X()
    poller = HandPoller(fake.factory, on_reading, on_status)
    fake.range = 120          # an arm over the door
    fake.fail_next(3)         # the next 3 reads raise OSError
    fake.unplug()             # every read and every re-open fails until plug()
"""

import threading

from rig.core.museum import NOTHING_IN_RANGE_MM


class FakeVL53L0X:
    """One fake sensor.  Thread-safe enough for one poller thread plus the test thread."""

    def __init__(self, range_mm=NOTHING_IN_RANGE_MM, *, io_timeout_s=0.5):
        self.range_mm = range_mm
        self.io_timeout_s = io_timeout_s
        self.continuous = False
        self.reads = 0           # successful and failed .range reads
        self.opens = 0           # factory calls
        self.starts = 0          # start_continuous calls
        self.stops = 0           # stop_continuous calls
        self._failures = []      # exceptions for the next reads, oldest first
        self._unplugged = False
        self._hang = None        # an Event: reads block on it (at most io_timeout_s)
        self._lock = threading.Lock()
        self.read_started = threading.Event()  # set when a read begins, for tests to wait on
        self.read_event = threading.Event()    # set after every read

    # --- The driver's surface -------------------------------------------------------------------

    @property
    def range(self):
        self.read_started.set()
        with self._lock:
            self.reads += 1
            hang = self._hang
            error = self._failures.pop(0) if self._failures else None
            unplugged = self._unplugged
            value = self.range_mm
        try:
            if hang is not None:
                # Like the driver: wait for data, but never longer than io_timeout_s.
                if not hang.wait(self.io_timeout_s):
                    raise RuntimeError("Timeout waiting for VL53L0X!")
            if unplugged:
                raise OSError(121, "Remote I/O error")
            if error is not None:
                raise error
            return value
        finally:
            self.read_event.set()

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

    def hang(self):
        """Reads block like a stuck sensor, ending after io_timeout_s; :meth:`release` ends it."""
        self._hang = threading.Event()

    def release(self):
        hang, self._hang = self._hang, None
        if hang is not None:
            hang.set()

    def factory(self):
        """A factory for :class:`rig.shell.tof.HandPoller`: re-opening returns this same sensor,
        reset to single-shot mode, or raises OSError while unplugged."""
        self.opens += 1
        if self._unplugged:
            raise OSError(121, "Remote I/O error")
        self.continuous = False
        return self


def fake_factory(range_mm=NOTHING_IN_RANGE_MM):
    """A new fake and its factory, for one-line setups: ``fake, factory = fake_factory()``."""
    fake = FakeVL53L0X(range_mm)
    return fake, fake.factory
