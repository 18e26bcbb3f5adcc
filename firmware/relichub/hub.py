"""The hub loop's logic: sample every relic, decide tilt / motion / falls, write frames.

:class:`Hub` owns no clock and no port: ``code.py`` calls :meth:`Hub.tick` with the time in
milliseconds and gives it a ``write(bytes)`` function; tests give it fake sensors, a fake clock
and a list's ``append``.  A sensor is any object with ``read_g()`` returning ``(x, y, z)`` in g
(raising ``OSError`` when it does not answer) and, optionally, ``take_freefall()`` returning True
once when its free-fall interrupt has latched.

What goes out (see rig/table/protocol.py for the bytes):

* a hello at the first tick (``boot`` set) and every HELLO_PERIOD_MS after;
* a heartbeat every HEARTBEAT_PERIOD_MS (20 per second) with every relic's tilt, motion, fall
  counter and whether its sensor answers;
* an event at once, in the same tick, on every fall and every motion change.
"""

try:  # On the Pico: lib/relic_protocol.py, a copy of rig/table/protocol.py made by firmware/build.py.
    import relic_protocol as protocol
except ImportError:  # On CPython (tests, the virtual hub): the very same file in the repo.
    from rig.table import protocol

from relichub.freefall import FreeFallDetector
from relichub.motion import MotionDetector
from relichub.tilt import MOUNT_AXIS, TiltTracker
from relichub.vector import magnitude

FIRMWARE_VERSION = (1, 0, 0)
SAMPLE_PERIOD_MS = 10  # 100 Hz for every relic
HEARTBEAT_PERIOD_MS = 50  # 20 Hz; the Pi wants at least 10 Hz
HELLO_PERIOD_MS = 2000


class Relic:
    """One relic's sensor and its three detectors."""

    def __init__(self, relic_id, sensor, mount_axis=MOUNT_AXIS):
        self.id = relic_id
        self.sensor = sensor
        self.take_freefall = None
        if sensor is not None:
            self.take_freefall = getattr(sensor, "take_freefall", None)
        self.tilt = TiltTracker(mount_axis)
        self.motion = MotionDetector()
        self.freefall = FreeFallDetector()
        self.present = False
        self.read_errors = 0

    def status(self):
        return protocol.RelicStatus(self.id, self.tilt.tilt_deg, self.motion.moving,
                                    self.freefall.falls, self.present, self.tilt.calibrated)


class Hub:
    """The firmware's state; drive it with :meth:`tick`.

    ``sensors`` maps relic id (1..3) to a sensor object, or to None for a relic with no sensor.
    ``write`` receives each complete frame (bytes); an ``OSError`` from it is counted in
    ``write_errors`` and the frame is dropped (the Pi resynchronises).
    """

    def __init__(self, sensors, write, firmware=FIRMWARE_VERSION,
                 sample_period_ms=SAMPLE_PERIOD_MS, heartbeat_period_ms=HEARTBEAT_PERIOD_MS,
                 hello_period_ms=HELLO_PERIOD_MS, mount_axes=None):
        ids = sorted(sensors)
        for relic_id in ids:
            if not isinstance(relic_id, int) or relic_id < 1 or relic_id > 8:
                raise ValueError("relic id %r; allowed: 1..8; fix the sensors table in code.py"
                                 % (relic_id,))
        if sample_period_ms <= 0 or heartbeat_period_ms <= 0 or hello_period_ms <= 0:
            raise ValueError("periods must be > 0 ms; got sample %r, heartbeat %r, hello %r"
                             % (sample_period_ms, heartbeat_period_ms, hello_period_ms))
        self.relics = []
        for relic_id in ids:
            axis = MOUNT_AXIS
            if mount_axes is not None and relic_id in mount_axes:
                axis = mount_axes[relic_id]
            self.relics.append(Relic(relic_id, sensors[relic_id], axis))
        self.write = write
        self.firmware = tuple(firmware)
        self.sample_period_ms = sample_period_ms
        self.heartbeat_period_ms = heartbeat_period_ms
        self.hello_period_ms = hello_period_ms
        self.encoder = protocol.Encoder()
        self.frames_written = 0
        self.write_errors = 0
        self.samples = 0
        self.overruns = 0
        self._next_sample_ms = None
        self._next_heartbeat_ms = None
        self._next_hello_ms = None
        self._booted = False

    # --- the loop -----------------------------------------------------------------------------

    def tick(self, now_ms):
        """Do whatever is due at ``now_ms``; return the time (ms) at which something is next due."""
        if self._next_sample_ms is None:
            self._next_sample_ms = now_ms
            self._next_heartbeat_ms = now_ms
            self._next_hello_ms = now_ms
        if now_ms >= self._next_sample_ms:
            self.sample(now_ms)
            self._next_sample_ms = self._advance(self._next_sample_ms, self.sample_period_ms,
                                                 now_ms, True)
        if now_ms >= self._next_hello_ms:
            self._send(self.encoder.hello(now_ms, self.firmware, self.relics_mask(),
                                          not self._booted))
            self._booted = True
            self._next_hello_ms = self._advance(self._next_hello_ms, self.hello_period_ms,
                                                now_ms, False)
        if now_ms >= self._next_heartbeat_ms:
            self._send(self.encoder.heartbeat(now_ms, self.statuses()))
            self._next_heartbeat_ms = self._advance(self._next_heartbeat_ms,
                                                    self.heartbeat_period_ms, now_ms, False)
        return min(self._next_sample_ms, self._next_heartbeat_ms, self._next_hello_ms)

    def _advance(self, due_ms, period_ms, now_ms, count_overrun):
        due_ms += period_ms
        if due_ms <= now_ms:  # fell behind (a slow write, a busy bus): skip, do not burst
            if count_overrun:
                self.overruns += 1
            due_ms = now_ms + period_ms
        return due_ms

    def sample(self, now_ms):
        """Read every relic once and write an event for each fall and motion change."""
        self.samples += 1
        for relic in self.relics:
            if relic.sensor is None:
                continue
            try:
                vec = relic.sensor.read_g()
                hw_fall = False
                if relic.take_freefall is not None:
                    hw_fall = relic.take_freefall()
            except OSError:
                relic.present = False
                relic.read_errors += 1
                continue
            relic.present = True
            moved = relic.motion.update(now_ms, vec)
            relic.tilt.update(now_ms, vec, not relic.motion.moving)
            fell = relic.freefall.update(now_ms, magnitude(vec), hw_fall)
            if fell:
                self._send(self.encoder.event(now_ms, relic.id, protocol.EVENT_FREEFALL, 1,
                                              relic.freefall.falls, relic.tilt.tilt_deg))
            if moved:
                self._send(self.encoder.event(now_ms, relic.id, protocol.EVENT_MOTION,
                                              1 if relic.motion.moving else 0,
                                              relic.freefall.falls, relic.tilt.tilt_deg))

    # --- state --------------------------------------------------------------------------------

    def relics_mask(self):
        """Bit i-1 set for each relic i whose sensor answered at its last read."""
        mask = 0
        for relic in self.relics:
            if relic.present:
                mask |= 1 << (relic.id - 1)
        return mask

    def statuses(self):
        return [relic.status() for relic in self.relics]

    def relic(self, relic_id):
        for relic in self.relics:
            if relic.id == relic_id:
                return relic
        raise KeyError("relic %r; allowed: %r" % (relic_id, [r.id for r in self.relics]))

    def _send(self, frame):
        try:
            self.write(frame)
        except OSError:
            self.write_errors += 1
            return
        self.frames_written += 1
