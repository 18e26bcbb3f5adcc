"""The Pi's link to the relic hub: a serial port in, relic inputs and link status out.

Three parts:

* :class:`InputTracker` (pure): decoded frames in, ``(name, value)`` relic inputs out, with the
  recording contract's names: ``relic.N.tilt`` (degrees, through a deadband that keeps every
  decision: see the class), ``relic.N.motion`` (1 moving / 0 still, on change) and
  ``relic.N.freefall`` (1 then 0 for each fall, deduplicated by the hub's fall counter, so a
  fall whose event frame was lost arrives with the next heartbeat, and only once).  A report
  about a relic the rig does not know (a hub wired with a fourth relic) is counted and
  dropped here: the recording has no name for it, and replay would refuse the line.
* :class:`FloodGuard` (pure): how many frames a second the hub sends, and which of them the
  link reads while it sends far too many (a hub gone wrong must not bury the referee).
* :class:`HubLink` (shell): owns one reader thread that opens the port by its stable path,
  decodes, calls ``on_input(name, value)``, ``on_status(lost, reason)`` and ``on_fault(active,
  message)``, and reconnects with back-off whatever happens.  The callbacks run on the reader
  thread; keep them short (enqueue).
"""

import logging
import threading
import time

from . import names as museum
from ..core.errors import ConfigError, HubError
from .names import Aspect
from .protocol import (Decoder, Event, EVENT_MOTION, FALLS_MODULO, FRAME_HEARTBEAT, FRAME_HELLO,
                       Heartbeat, Hello)
from .threads import is_running, stop_and_join

log = logging.getLogger(__name__)

DEFAULT_URL = "/dev/cleptomano-hub"
TILT_STEP_DEG = 1.0
TILT_MARKS_DEG = museum.TILT_MARKS_DEG  # upright below 30; broken when >= 60 held 300 ms
EXPECTED_RELICS = museum.RELICS
MAX_FALLS_PER_FRAME = 20  # a larger jump of the counter is a hub restart we did not see
#: A hub sends about 21 frames a second (20 heartbeats, a hello every 2 s), and about 40 with
#: every relic moving and falling at once: more than this many in a second is a flood.
FLOOD_FRAMES_PER_S = 100
#: While the hub floods, the link reads only its heartbeats and hellos, one per this many s.
FLOODED_READ_GAP_S = 0.04
_FLOODED_READS = frozenset((FRAME_HEARTBEAT, FRAME_HELLO))


class InputTracker:
    """Turns decoded frames into relic inputs; no I/O, no clock, no threads.

    Call :meth:`connected` on every new connection, then :meth:`feed` with each frame.

    The tilt's deadband: the referee asks of a tilt only which side of each mark it is on
    (upright below 30, tipped from 60: ``tilt_marks_deg``), so a reading that crosses a mark is
    sent at once, whatever its step, and one on the same side of every mark as the last one sent
    changes no decision.  Of those, only a move of ``tilt_step_deg`` or more while the relic
    moves (or in the frame where it comes to rest) is sent, for the record: the noise of a
    relic at rest writes nothing.  A relic balanced right on a mark still writes each crossing,
    as each one changes what the referee would decide.
    """

    def __init__(self, tilt_step_deg=TILT_STEP_DEG, tilt_marks_deg=TILT_MARKS_DEG,
                 expected_relics=EXPECTED_RELICS):
        if not tilt_step_deg > 0:
            raise ConfigError("tilt_step_deg=%r; allowed: > 0 degrees; fix: use 1.0"
                              % (tilt_step_deg,), key="tilt_step_deg")
        self.tilt_step_deg = float(tilt_step_deg)
        self.tilt_marks_deg = tuple(float(m) for m in tilt_marks_deg)
        self.expected_relics = tuple(expected_relics)
        self.firmware = None
        self.relics_present = {}
        self.relic_frames = {}          # per relic: the heartbeats that reported it answering
        self.unknown_relics = 0         # reports about relics the recording cannot hold
        self.first_unknown_relic = None  # the first such relic of this connection
        self._tilt = {}
        self._motion = {}
        self._falls = {}

    def connected(self):
        """A new connection: falls counted by the hub so far are history, not news, and every
        relic's tilt and motion are sent afresh."""
        self._falls = {}
        self.first_unknown_relic = None
        self.forget_values()

    def forget_values(self):
        """Send every relic's tilt and motion again with the next heartbeat (after a loss the
        rig has set them to neutral values; the relics still sensed must be restored)."""
        self._tilt = {}
        self._motion = {}

    def feed(self, frame):
        """The inputs that ``frame`` changes, in order: falls first, then motion, then tilt."""
        out = []
        if isinstance(frame, Hello):
            self.firmware = frame.firmware
            if frame.boot:  # counters restart at 0 now: every fall after this one is news
                self._falls = {}
                for relic in self.expected_relics:
                    self._falls[relic] = 0
                for relic in frame.relics():
                    self._falls[relic] = 0
        elif isinstance(frame, Heartbeat):
            seen = {}
            for status in frame.relics:
                if not self._known(status.relic):
                    continue
                seen[status.relic] = status.present
                if not status.present:
                    continue
                self.relic_frames[status.relic] = self.relic_frames.get(status.relic, 0) + 1
                self._falls_input(status.relic, status.falls, out)
                changed = self._motion_input(status.relic, status.moving, out)
                self._tilt_input(status.relic, status.tilt_deg, changed, out)
            self.relics_present = seen
        elif isinstance(frame, Event) and self._known(frame.relic):
            self._falls_input(frame.relic, frame.falls, out)
            changed = frame.event == EVENT_MOTION and self._motion_input(
                frame.relic, bool(frame.value), out)
            self._tilt_input(frame.relic, frame.tilt_deg, changed, out)
        return out

    def missing_relics(self):
        """Expected relics whose sensor the last heartbeat did not report answering."""
        return [r for r in self.expected_relics if not self.relics_present.get(r, False)]

    def _known(self, relic):
        """Whether the recording can hold inputs of ``relic``; counts the reports it cannot."""
        if relic in self.expected_relics:
            return True
        self.unknown_relics += 1
        if self.first_unknown_relic is None:
            self.first_unknown_relic = relic
        return False

    def _falls_input(self, relic, falls, out):
        last = self._falls.get(relic)
        self._falls[relic] = falls
        if last is None:
            return
        new = (falls - last) % FALLS_MODULO
        if new > MAX_FALLS_PER_FRAME:  # the counter went back: the hub restarted unseen
            new = falls if falls <= MAX_FALLS_PER_FRAME else 0
        name = museum.relic(relic, Aspect.FREEFALL)
        for _ in range(new):
            out.append((name, 1.0))
            out.append((name, 0.0))

    def _motion_input(self, relic, moving, out):
        """Send a change of motion; True when there was one."""
        value = 1.0 if moving else 0.0
        if self._motion.get(relic) == value:
            return False
        self._motion[relic] = value
        out.append((museum.relic(relic, Aspect.MOTION), value))
        return True

    def _side(self, tilt):
        return tuple(tilt >= mark for mark in self.tilt_marks_deg)

    def _tilt_input(self, relic, tilt_deg, motion_changed, out):
        """Send a tilt that crosses a mark, or that moved a step on a relic in motion (see the
        class's deadband)."""
        if tilt_deg is None:
            return
        tilt = round(float(tilt_deg), 1)
        last = self._tilt.get(relic)
        if last is not None and self._side(tilt) == self._side(last):
            in_motion = motion_changed or self._motion.get(relic) == 1.0
            if not in_motion or abs(tilt - last) < self.tilt_step_deg:
                return
        self._tilt[relic] = tilt
        out.append((museum.relic(relic, Aspect.TILT), tilt))


class FloodGuard:
    """Counts the hub's frames per window and decides which ones the link reads; pure (the
    time is handed in).

    More than ``limit_per_s`` frames within a window of ``window_s`` is a flood, from that frame
    on: then only heartbeats and hellos are read, one per ``gap_s`` at most, and every other
    frame is dropped (counted in ``dropped``).  Nothing is lost that decides a turn: a heartbeat
    holds every relic's tilt and motion, and its fall counters bring every fall.  A fresh window
    starts with the flood; when it closes, ``rate_per_s`` is the flood's measured rate (for the
    fault's words).  A window with at most half the limit ends the flood.  ``last_rate_per_s``
    is the rate of the last window closed.
    """

    def __init__(self, limit_per_s=FLOOD_FRAMES_PER_S, window_s=1.0, gap_s=FLOODED_READ_GAP_S):
        self.limit_per_s = limit_per_s
        self.window_s = window_s
        self.gap_s = gap_s
        self.flooding = False
        self.rate_per_s = None
        self.last_rate_per_s = None
        self.dropped = 0
        self._window_start_s = None
        self._count = 0
        self._read_s = None

    def only(self):
        """The frame types worth decoding now: None (all), or while flooding those it reads."""
        return _FLOODED_READS if self.flooding else None

    def skipped(self, frames, now_s):
        """``frames`` the decoder skipped unread (see :meth:`only`): counted, and dropped."""
        self.tick(now_s)
        self._count += frames
        self.dropped += frames

    def admit(self, frame, now_s):
        """Whether the link reads ``frame``, which arrived at ``now_s``."""
        self.tick(now_s)
        self._count += 1
        if not self.flooding and self._count > self.limit_per_s * self.window_s:
            self.flooding = True
            self.rate_per_s = None
            self._window_start_s, self._count = now_s, 1
        if not self.flooding:
            return True
        if isinstance(frame, (Heartbeat, Hello)) and (
                self._read_s is None or now_s - self._read_s >= self.gap_s):
            self._read_s = now_s
            return True
        self.dropped += 1
        return False

    def tick(self, now_s):
        """Close the window once it is over; call it often, whether frames come or not."""
        start = self._window_start_s
        if start is None or now_s < start:
            self._window_start_s, self._count = now_s, 0
            return
        elapsed = now_s - start
        if elapsed < self.window_s:
            return
        rate = self._count / elapsed
        self.last_rate_per_s = rate
        if self.flooding:
            if rate <= self.limit_per_s / 2:
                self.flooding = False
                self.rate_per_s = None
            else:
                self.rate_per_s = rate
        self._window_start_s, self._count = now_s, 0


class HubLink:
    """The relic hub on a serial port, read by one owned thread.

    ``url`` is a path (``/dev/cleptomano-hub``, a pty symlink) or any pyserial URL
    (``loop://``); ``serial_for_url`` opens it (inject a fake in tests).  ``on_input(name,
    value)`` gets every relic input change; ``on_relic(relic, answering)`` (optional) hears
    that one relic's frames stopped (the hub's heartbeat no longer reports its sensor
    answering) or came back, for the audits; ``on_status(lost, reason)`` is called whenever the
    link's condition changes: lost (cannot open, read error / unplugged, no heartbeat for
    ``heartbeat_timeout_s``, an expected relic's sensor not answering) or back (heartbeats flow
    and every expected relic answers).  ``on_fault(active, message)`` (optional) hears that the
    hub floods the rig (more than ``flood_frames_per_s``: see :class:`FloodGuard`) and that it
    has calmed down.  ``clock`` (seconds) decides heartbeat timeouts and frame rates.

    The thread never dies on I/O: it closes the port, waits ``backoff_initial_s`` doubling up to
    ``backoff_max_s``, and opens the port again.
    """

    def __init__(self, url, on_input, on_status, *, serial_for_url=None,
                 heartbeat_timeout_s=1.0, clock=time.monotonic, read_timeout_s=0.05,
                 backoff_initial_s=0.1, backoff_max_s=2.0, baudrate=115200, exclusive=True,
                 tilt_step_deg=TILT_STEP_DEG, tilt_marks_deg=TILT_MARKS_DEG,
                 expected_relics=EXPECTED_RELICS, on_fault=None,
                 flood_frames_per_s=FLOOD_FRAMES_PER_S, on_relic=None):
        if not isinstance(url, str) or not url:
            raise ConfigError("url=%r; allowed: a device path such as %s or a pyserial URL; fix "
                              "the hub url in the config" % (url, DEFAULT_URL), key="url")
        for key, value in (("heartbeat_timeout_s", heartbeat_timeout_s),
                           ("read_timeout_s", read_timeout_s),
                           ("backoff_initial_s", backoff_initial_s),
                           ("backoff_max_s", backoff_max_s)):
            if not isinstance(value, (int, float)) or not value > 0:
                raise ConfigError("%s=%r; allowed: a number of seconds > 0; fix the hub "
                                  "settings" % (key, value), key=key)
        if isinstance(flood_frames_per_s, bool) or not isinstance(flood_frames_per_s, int) \
                or flood_frames_per_s < 50:
            raise ConfigError("flood_frames_per_s=%r; allowed: a whole number of frames a "
                              "second, 50 or more (a hub sends about 21, at most about 40); fix: "
                              "use %d" % (flood_frames_per_s, FLOOD_FRAMES_PER_S),
                              key="flood_frames_per_s")
        if read_timeout_s >= heartbeat_timeout_s:
            raise ConfigError("read_timeout_s=%r; allowed: less than heartbeat_timeout_s=%r; fix: "
                              "keep the read timeout short (0.05 s)"
                              % (read_timeout_s, heartbeat_timeout_s), key="read_timeout_s")
        self.url = url
        self._on_input = on_input
        self._on_status = on_status
        self._on_fault = on_fault
        self._on_relic = on_relic
        self._silent = set()            # the expected relics whose frames stopped (on_relic told)
        import serial       # pyserial, imported here: the table's pure parts import anywhere
        self._serial_for_url = serial.serial_for_url if serial_for_url is None else serial_for_url
        self._port_errors = (serial.SerialException, OSError)
        self.heartbeat_timeout_s = float(heartbeat_timeout_s)
        self._clock = clock
        self._read_timeout_s = float(read_timeout_s)
        self._backoff_initial_s = float(backoff_initial_s)
        self._backoff_max_s = float(backoff_max_s)
        self._baudrate = baudrate
        self._exclusive = exclusive
        self._tracker = InputTracker(tilt_step_deg, tilt_marks_deg, expected_relics)
        self._decoder = Decoder()
        self._flood = FloodGuard(flood_frames_per_s)
        self._flood_shown = False
        self._stop = threading.Event()
        self._thread = None
        self._port = None
        self._status = None
        self._status_key = None
        self._last_heartbeat_s = None
        self._stale_at_heartbeat = 0    # the decoder's stale count when the last heartbeat came
        self._lock = threading.Lock()
        self._extra = {"connects": 0, "disconnects": 0, "inputs": 0, "callback_errors": 0}

    # --- public -------------------------------------------------------------------------------

    def start(self):
        """Start the reader thread (once)."""
        if self._thread is not None:
            raise HubError("HubLink for %s already started; allowed: start() once per link; "
                           "fix: make a new HubLink after stop()" % self.url)
        self._thread = threading.Thread(target=self._run, name="relic-hub-link", daemon=True)
        self._thread.start()

    @property
    def running(self):
        """True while the reader thread runs (for the service watchdog)."""
        return is_running(self._thread)

    def stop(self, timeout_s=2.0):
        """Ask the thread to stop and wait at most ``timeout_s``; True when it has stopped."""
        return stop_and_join(self._stop, self._thread, timeout_s, "the relic hub reader")

    @property
    def status(self):
        """The last reported ``(lost, reason)``, or None before the first report."""
        return self._status

    @property
    def firmware(self):
        """The hub's firmware version from its last hello, e.g. ``(1, 0, 0)``, or None."""
        return self._tracker.firmware

    @property
    def counters(self):
        """A snapshot: frames, garbage, truncated, bad_crc, unknown_version, malformed,
        seq_gaps, frames_missed, stale (frames older than the newest, dropped), connects,
        disconnects, inputs, callback_errors, unknown_relics (reports about a relic the rig
        does not know, dropped), flood_dropped (frames not read while the hub flooded) and
        relic_frames (per relic, the heartbeats that reported its sensor answering)."""
        with self._lock:
            result = self._decoder.counters()
            result.update(self._extra)
            result["unknown_relics"] = self._tracker.unknown_relics
            result["relic_frames"] = dict(self._tracker.relic_frames)
            result["flood_dropped"] = self._flood.dropped
        return result

    # --- the thread ---------------------------------------------------------------------------

    def _run(self):
        backoff_s = self._backoff_initial_s
        try:
            while not self._stop.is_set():
                self._watch_flood(self._clock())
                if self._port is None:
                    reason = self._connect()
                    if reason is not None:
                        self._set_status(True, reason)
                        self._stop.wait(backoff_s)
                        backoff_s = min(backoff_s * 2, self._backoff_max_s)
                        continue
                try:
                    reason, heard = self._read_once()
                except Exception as exc:  # a bug must not end the link: log, reconnect
                    log.exception("relic hub link: unexpected error")
                    reason, heard = ("relic hub link error (%r); reconnecting" % (exc,), False)
                if heard:
                    backoff_s = self._backoff_initial_s
                if reason is not None:
                    self._disconnect()
                    self._set_status(True, reason)
                    self._stop.wait(backoff_s)
                    backoff_s = min(backoff_s * 2, self._backoff_max_s)
        finally:
            self._disconnect()

    def _connect(self):
        """Open the port; None on success, else the reason it could not be opened."""
        try:
            try:
                port = self._serial_for_url(self.url, baudrate=self._baudrate,
                                            timeout=self._read_timeout_s,
                                            exclusive=self._exclusive)
            except TypeError:  # a backend that knows no ``exclusive``
                port = self._serial_for_url(self.url, baudrate=self._baudrate,
                                            timeout=self._read_timeout_s)
        except self._port_errors + (ValueError,) as exc:
            return ("relic hub not found at %s (%s); check its USB cable and that the udev rule "
                    "systemd/99-cleptomano-hub.rules is installed" % (self.url, exc))
        with self._lock:
            self._port = port
            self._decoder.reset_stream()
            self._extra["connects"] += 1
        self._tracker.connected()
        self._heard_heartbeat()
        return None

    def _disconnect(self):
        port = self._port
        if port is None:
            return
        self._port = None
        with self._lock:
            self._extra["disconnects"] += 1
        try:
            port.close()
        except self._port_errors as exc:
            log.debug("closing %s: %s", self.url, exc)

    def _read_once(self):
        """Read what is there (waiting at most the read timeout) and handle it.

        Returns ``(reason, heard)``: ``reason`` is why the link must be dropped (else None);
        ``heard`` is True when a heartbeat arrived.
        """
        port = self._port
        try:
            data = port.read(max(1, port.in_waiting))
        except self._port_errors as exc:
            return ("relic hub at %s unplugged or failed (%s); reconnecting" % (self.url, exc),
                    False)
        heard = False
        if data:
            guard, decoder = self._flood, self._decoder
            now_s = self._clock()
            with self._lock:
                skipped = decoder.skipped
                frames = decoder.feed(data, guard.only())
                guard.skipped(decoder.skipped - skipped, now_s)
            for frame in frames:
                if isinstance(frame, Heartbeat):
                    heard = True
                    self._heard_heartbeat()
                if guard.admit(frame, now_s):
                    self._track(frame)
            self._watch_flood(now_s)
            if heard:
                missing = self._tracker.missing_relics()
                self._relics_answering(missing)
                if missing:
                    names = ", ".join(str(r) for r in missing)
                    self._set_status(True, "relic %s sensor not answering on the hub; check "
                                     "its cable and wiring/relic-hub.md" % names,
                                     "relics:" + names)
                else:
                    firmware = self._tracker.firmware
                    version = ".".join(str(p) for p in firmware) if firmware else "unknown"
                    self._set_status(False, "relic hub connected at %s (firmware %s)"
                                     % (self.url, version), "ok")
        silent_s = self._clock() - self._last_heartbeat_s
        if silent_s >= self.heartbeat_timeout_s:
            if self._decoder.stale > self._stale_at_heartbeat:
                return ("relic hub at %s sent only frames older than the newest seen for %.1f s "
                        "(allowed: %.1f s): it restarted without its boot hello reaching the "
                        "rig, or something replays old frames; reconnecting to take its numbers "
                        "afresh" % (self.url, silent_s, self.heartbeat_timeout_s), heard)
            return ("relic hub at %s sent no heartbeat for %.1f s (allowed: %.1f s); check that "
                    "the Pico runs code.py and boot.py enables usb_cdc.data; reconnecting"
                    % (self.url, silent_s, self.heartbeat_timeout_s), heard)
        return None, heard

    def _watch_flood(self, now_s):
        """Show the flood once its rate is measured, and clear it when the hub calms down."""
        guard = self._flood
        guard.tick(now_s)
        if guard.flooding and guard.rate_per_s is not None and not self._flood_shown:
            self._flood_shown = True
            self._fault(True, "Relic hub floods the rig: %d frames/s (a hub sends about 21; "
                        "allowed: %d); only its heartbeats are read until it calms down; check "
                        "the hub's firmware (code.py) and that nothing else writes to %s"
                        % (guard.rate_per_s, guard.limit_per_s, self.url))
        elif not guard.flooding and self._flood_shown:
            self._flood_shown = False
            self._fault(False, "Relic hub calm again: %d frames/s" % guard.last_rate_per_s)

    def _fault(self, active, message):
        if self._on_fault is not None:
            self._call("on_fault", self._on_fault, active, message)

    def _relics_answering(self, missing):
        """Tell ``on_relic(relic, answering)`` of each expected relic whose frames stopped (its
        sensor no longer reported answering in the hub's heartbeat) or came back, once a
        change."""
        missing = set(missing)
        if missing == self._silent:
            return
        stopped, back = sorted(missing - self._silent), sorted(self._silent - missing)
        self._silent = missing
        if self._on_relic is None:
            return
        for relic in stopped:
            self._call("on_relic", self._on_relic, relic, False)
        for relic in back:
            self._call("on_relic", self._on_relic, relic, True)

    def _heard_heartbeat(self):
        self._last_heartbeat_s = self._clock()
        self._stale_at_heartbeat = self._decoder.stale

    def _track(self, frame):
        """Turn one frame into relic inputs; the first report of a connection about a relic the
        rig does not know is logged (every one is counted)."""
        tracker = self._tracker
        unknown_before = tracker.first_unknown_relic
        inputs = tracker.feed(frame)
        if unknown_before is None and tracker.first_unknown_relic is not None:
            log.warning("relic hub at %s reports relic %d; this rig knows relics %s, and a "
                        "recording cannot hold any other: its reports are dropped (counted as "
                        "unknown_relics); fix: give the relics only these numbers in the RELICS "
                        "table of the hub's code.py (wiring/relic-hub.md)", self.url,
                        tracker.first_unknown_relic,
                        ", ".join(str(r) for r in tracker.expected_relics))
        for name, value in inputs:
            self._emit(name, value)

    def _emit(self, name, value):
        with self._lock:
            self._extra["inputs"] += 1
        self._call("on_input", self._on_input, name, value)

    def _call(self, what, callback, *args):
        """Call a consumer back; a bug in it must not kill the link (counted and logged)."""
        try:
            callback(*args)
        except Exception:
            with self._lock:
                self._extra["callback_errors"] += 1
            log.exception("%s%r failed", what, args)

    def _set_status(self, lost, reason, key="io"):
        """Report a change of condition.  While lost, the I/O reasons (cannot open, read error,
        silence) count as one condition, so a dead hub is reported once, not on every retry;
        a different set of missing relics is a new condition."""
        if self._status is not None and self._status[0] == lost and (
                not lost or key == self._status_key):
            return
        self._status = (lost, reason)
        self._status_key = key
        self._call("on_status", self._on_status, lost, reason)
        if lost:
            self._tracker.forget_values()
