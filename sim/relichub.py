"""A virtual relic hub: the firmware's own logic on scripted accelerometers, on a pseudo-terminal.

The daemon opens it exactly as it opens the real one: by a stable path, a symlink
``<link_dir>/cleptomano-hub`` to the pty's slave side, recreated on every :meth:`replug`.
Behind it runs ``firmware/relichub/hub.py`` (the very code the Pico runs) against three
:class:`VirtualRelic` objects whose accelerometer readings follow scripts::

    hub = VirtualRelicHub(tmp_path)          # plugged in, booted, nothing written yet
    hub.step(10)                             # 10 samples = 100 ms of hub time, frames written
    hub.knock_over(2); hub.settle()          # relic 2 tips onto its side and lies still
    hub.drop(1); hub.step(40)                # relic 1 falls: an event frame at once
    hub.unplug(); hub.replug()               # the link goes away; a fresh boot comes back
    hub.start(); ...; hub.stop()             # or: heartbeats in real time for a live run
    flood = HubFlood(hub, 12000)             # or a hub gone wrong: 12,000 frames a second
    flood.start(); ...; flood.stop()

Stepping is deterministic (the noise comes from a seeded generator) and thread-safe, so a test
may step while a :class:`rig.table.hub.HubLink` reads the other side.  The firmware's logic is the
package ``relichub``, installed from ``firmware/relichub`` with the rig (see pyproject.toml).
"""

import math
import os
import random
import sys
import threading
import time
import tty
from collections import deque
from pathlib import Path

from relichub.hub import Hub, SAMPLE_PERIOD_MS  # the firmware's own logic
from rig.table import protocol
from rig.core.errors import HardwareError
from rig.table.threads import stop_and_join

LINK_NAME = "cleptomano-hub"
UPRIGHT = (0.0, 0.0, 1.0)
ON_ITS_SIDE = (0.0, 1.0, 0.0)
NOISE_G = 0.002


def _leaning(angle_deg, magnitude_g=1.0):
    a = math.radians(angle_deg)
    return (0.0, magnitude_g * math.sin(a), magnitude_g * math.cos(a))


class VirtualRelic:
    """One relic's body: what its accelerometer reads, one sample (10 ms) at a time.

    ``pose`` is what it does when no script runs: ``"upright"``, ``"lying"``, ``"leaning"`` or
    ``"held"`` (in a hand: a gentle wobble).  Scripts queue exact samples before that.
    """

    def __init__(self, relic_id, rng, noise_g=NOISE_G):
        self.id = relic_id
        self.pose = "upright"
        self.rest = UPRIGHT
        self.queue = deque()
        self.connected = True
        self.current = UPRIGHT
        self._rng = rng
        self._noise_g = noise_g
        self._held_samples = 0

    def advance(self):
        if self.queue:
            vec = self.queue.popleft()
        elif self.pose == "held":
            t = self._held_samples * SAMPLE_PERIOD_MS / 1000.0
            self._held_samples += 1
            angle = 10.0 * math.sin(2 * math.pi * 1.5 * t)
            vec = _leaning(angle, 1.0 + 0.08 * math.sin(2 * math.pi * 3.0 * t))
        else:
            vec = self.rest
        n = self._noise_g
        rng = self._rng
        self.current = (vec[0] + rng.uniform(-n, n), vec[1] + rng.uniform(-n, n),
                        vec[2] + rng.uniform(-n, n))
        return self.current


class SimSensor:
    """The fake LIS3DH the firmware's Hub reads: ``read_g()`` like code.py's adapter."""

    def __init__(self, relic):
        self.relic = relic

    def read_g(self):
        if not self.relic.connected:
            raise OSError("LIS3DH of relic %d not answering (virtual cable pulled)"
                          % self.relic.id)
        return self.relic.current


class VirtualRelicHub:
    """The hub on a pty; see the module doc.  Use as a context manager or call :meth:`close`."""

    def __init__(self, link_dir, name=LINK_NAME, relics=(1, 2, 3), *, seed=0,
                 noise_g=NOISE_G, clock=time.monotonic):
        link_dir = Path(link_dir)
        if not link_dir.is_dir():
            raise HardwareError("link_dir=%s is not a directory; allowed: an existing folder for "
                                "the hub's symlink; fix: create it first" % link_dir)
        self.link_path = link_dir / name
        self._rng = random.Random(seed)
        self.relics = {}
        for relic_id in relics:
            self.relics[relic_id] = VirtualRelic(relic_id, self._rng, noise_g)
        self.now_ms = 0
        self.frames_written = 0
        self.frames_lost = 0
        self.bytes_dropped = 0
        self.muted = False
        self.hub = None
        self._clock = clock
        self._lock = threading.RLock()
        self._master = None
        self._slave = None
        self._boot_ms = 0
        self._thread = None
        self._stop = threading.Event()
        self.replug()

    # --- the cable ----------------------------------------------------------------------------

    @property
    def path(self):
        """The stable path to open (a symlink, like /dev/cleptomano-hub)."""
        return str(self.link_path)

    @property
    def plugged(self):
        return self._master is not None

    def replug(self):
        """Plug in: a new pty, the symlink pointed at it, and a freshly booted firmware."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # bytes pass untouched until the reader configures the port
            os.set_blocking(master, False)
            tmp = self.link_path.with_name(self.link_path.name + ".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            os.symlink(os.ttyname(slave), tmp)
            os.replace(tmp, self.link_path)
            self._master, self._slave = master, slave
            sensors = {}
            for relic_id, relic in self.relics.items():
                sensors[relic_id] = SimSensor(relic)
            self._boot_ms = self.now_ms
            self.hub = Hub(sensors, self._write)

    def unplug(self):
        """Pull the USB cable: the pty and the symlink go away, the firmware stops."""
        with self._lock:
            if self._master is None:
                return
            if self.link_path.is_symlink():
                self.link_path.unlink()
            for fd in (self._master, self._slave):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self._master = self._slave = None
            self.hub = None

    def mute(self):
        """Frames are made but lost on the way (a heartbeat gap, a lost event frame)."""
        self.muted = True

    def unmute(self):
        self.muted = False

    def inject(self, data):
        """Write raw bytes into the stream (noise, a corrupted frame)."""
        with self._lock:
            self._write_raw(bytes(data))

    def _write(self, frame):
        if self.muted:
            self.frames_lost += 1
            return
        self.frames_written += 1
        self._write_raw(frame)

    def _write_raw(self, data):
        if self._master is None:
            self.bytes_dropped += len(data)
            return
        try:
            n = os.write(self._master, data)
        except (BlockingIOError, OSError):  # nobody reads: the pty is full, like a USB host away
            n = 0
        self.bytes_dropped += len(data) - n
        try:  # nothing is expected from the Pi; keep the other direction from filling up
            os.read(self._master, 4096)
        except (BlockingIOError, OSError):
            pass

    # --- time ---------------------------------------------------------------------------------

    def step(self, samples=1):
        """Advance ``samples`` x 10 ms of hub time: relics move, the firmware samples and writes."""
        with self._lock:
            for _ in range(samples):
                for relic in self.relics.values():
                    relic.advance()
                if self.hub is not None:
                    self.hub.tick(self.now_ms - self._boot_ms)
                self.now_ms += SAMPLE_PERIOD_MS

    def step_ms(self, ms):
        self.step(max(0, int(ms) // SAMPLE_PERIOD_MS))

    def pending_samples(self):
        """Samples until every running script has played out."""
        with self._lock:
            return max([len(r.queue) for r in self.relics.values()] + [0])

    def settle(self, extra_ms=500):
        """Play out every running script, then ``extra_ms`` more (long enough to read still)."""
        self.step(self.pending_samples())
        self.step_ms(extra_ms)

    # --- what players do ------------------------------------------------------------------------

    def _relic(self, relic_id):
        try:
            return self.relics[relic_id]
        except KeyError:
            raise HardwareError("relic %r; allowed: %s; fix the test script"
                                % (relic_id, sorted(self.relics))) from None

    def _script(self, relic_id, samples, pose, rest):
        with self._lock:
            relic = self._relic(relic_id)
            relic.queue.extend(samples)
            relic.pose = pose
            relic.rest = rest
            relic._held_samples = 0
            return len(relic.queue)

    def knock_over(self, relic_id, duration_ms=300):
        """The relic topples onto its side (about 90 degrees) and lies still.

        Returns the samples the script takes."""
        n = max(1, duration_ms // SAMPLE_PERIOD_MS)
        samples = [_leaning(90.0 * ((i + 1) / n) ** 2, 0.9) for i in range(n)]
        samples += [(0.0, 1.8, 0.4), (0.0, 1.4, 0.2), (0.0, 0.9, 0.1), (0.0, 1.05, 0.0)]
        return self._script(relic_id, samples, "lying", ON_ITS_SIDE)

    def tip(self, relic_id, angle_deg, duration_ms=200):
        """The relic leans to ``angle_deg`` and stays there (propped against something)."""
        n = max(1, duration_ms // SAMPLE_PERIOD_MS)
        samples = [_leaning(angle_deg * (i + 1) / n) for i in range(n)]
        return self._script(relic_id, samples, "leaning", _leaning(angle_deg))

    def lift(self, relic_id):
        """A hand picks the relic up and holds it (it keeps moving a little)."""
        samples = [(0.0, 0.0, 1.25)] * 10
        return self._script(relic_id, samples, "held", UPRIGHT)

    def set_down(self, relic_id):
        """The relic is put back upright and left still (also: the guard stands it up)."""
        samples = [(0.0, 0.1, 0.85)] * 8 + [(0.0, 0.0, 1.3)]
        return self._script(relic_id, samples, "upright", UPRIGHT)

    def drop(self, relic_id, fall_ms=150, lands_on_side=True):
        """The relic falls for ``fall_ms`` (150 ms is about 11 cm) and lands."""
        n = max(1, fall_ms // SAMPLE_PERIOD_MS)
        samples = [(0.01, 0.02, 0.03)] * n + [(0.0, 2.5, 1.0), (0.0, 1.3, 0.3)]
        rest = ON_ITS_SIDE if lands_on_side else UPRIGHT
        return self._script(relic_id, samples, "lying" if lands_on_side else "upright", rest)

    def pull_sensor_cable(self, relic_id, connected=False):
        """The relic's sensor stops answering (or answers again with ``connected=True``)."""
        with self._lock:
            self._relic(relic_id).connected = connected

    # --- real time ------------------------------------------------------------------------------

    def start(self, speed=1.0):
        """Run the hub in real time on a thread (a live simulated game); :meth:`stop` ends it."""
        if self._thread is not None:
            raise HardwareError("virtual hub already running; allowed: start() once; fix: call "
                                "stop() first")
        if not speed > 0:
            raise HardwareError("speed=%r; allowed: > 0; fix: use 1.0 for real time" % (speed,))
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, args=(speed,), name="virtual-relic-hub",
                                        daemon=True)
        self._thread.start()

    def _run(self, speed):
        start_s = self._clock()
        start_ms = self.now_ms
        while not self._stop.wait(SAMPLE_PERIOD_MS / 1000.0):
            due_ms = start_ms + (self._clock() - start_s) * 1000.0 * speed
            behind = int((due_ms - self.now_ms) // SAMPLE_PERIOD_MS)
            if behind > 0:
                self.step(min(behind, 100))

    def stop(self, timeout_s=1.0):
        """Stop the real-time thread; True when it has ended within ``timeout_s``."""
        if not stop_and_join(self._stop, self._thread, timeout_s, "the virtual relic hub"):
            return False
        self._thread = None
        return True

    def close(self):
        self.stop()
        self.unplug()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# --- a hub gone wrong -------------------------------------------------------------------------------

def flood_frames(frames_per_s, relics=(1, 2, 3), heartbeat_period_ms=50):
    """One full turn of the sequence counter (65,536 frames, numbered as one boot numbers them,
    so the stream may be played round and round) from a hub that floods: a hello, then every
    ``heartbeat_period_ms`` a heartbeat (every relic upright and still) and between them event
    frames, each of which changes an input: a relic's motion flips and its tilt jumps 10
    degrees."""
    if not frames_per_s > 0:
        raise HardwareError("frames_per_s=%r; allowed: > 0; fix the flood's rate"
                            % (frames_per_s,))
    enc = protocol.Encoder()
    still = [protocol.RelicStatus(r, 0.0, False, 0, True, True) for r in relics]
    per_heartbeat = max(1, int(round(frames_per_s * heartbeat_period_ms / 1000.0)))
    frames = []
    for i in range(protocol.SEQ_MODULO):
        ms = int(i * 1000.0 / frames_per_s)
        if i == 0:
            frames.append(enc.hello(ms, (1, 0, 0), (1 << len(relics)) - 1))
        elif i % per_heartbeat == 0:
            frames.append(enc.heartbeat(ms, still))
        else:
            flip = (i // len(relics)) % 2
            frames.append(enc.event(ms, relics[i % len(relics)], protocol.EVENT_MOTION, flip, 0,
                                    10.0 + 10.0 * flip))
    return frames


class HubFlood:
    """Floods a :class:`VirtualRelicHub`'s port at ``frames_per_s`` from its own thread: the
    frames of :func:`flood_frames`, encoded once, written every ``period_s`` (what is due), so
    the writer costs the process a system call, not the encoding.  Leave the hub itself
    unstarted: the flood is the hub's whole output, heartbeats included."""

    def __init__(self, hub, frames_per_s=12000, period_s=0.005, clock=time.monotonic):
        if not 0 < period_s <= 0.1:
            raise HardwareError("period_s=%r; allowed: above 0, at most 0.1 s; fix the flood's "
                                "write period" % (period_s,))
        self.hub = hub
        self.frames_per_s = frames_per_s
        self.period_s = period_s
        self.frames = flood_frames(frames_per_s, tuple(hub.relics))
        self.written = 0                 # frames handed to the port
        self._clock = clock
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        if self._thread is not None:
            raise HardwareError("the flood is already running; allowed: start() once; fix: "
                                "call stop() first")
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="relic-hub-flood", daemon=True)
        self._thread.start()

    def _run(self):
        frames, cycle = self.frames, len(self.frames)
        most = int(4 * self.frames_per_s * self.period_s) + 1   # catching up, at most 4 periods
        start_s = self._clock()
        at = 0                       # the next frame's place in the endless stream
        while not self._stop.wait(self.period_s):
            due = int((self._clock() - start_s) * self.frames_per_s)
            at = max(at, due - most)     # starved for longer: those frames were never made
            n = due - at
            if n <= 0:
                continue
            first = at % cycle
            chunk = frames[first:first + n]
            if len(chunk) < n:
                chunk += frames[:n - len(chunk)]
            self.hub.inject(b"".join(chunk))
            self.written += n
            at = due

    def stop(self, timeout_s=1.0):
        """Stop writing; True when the thread has ended within ``timeout_s``."""
        if not stop_and_join(self._stop, self._thread, timeout_s, "the relic hub flood"):
            return False
        self._thread = None
        return True

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    """``python -m sim.relichub DIR``: a live virtual hub at DIR/cleptomano-hub until Ctrl-C."""
    import argparse

    parser = argparse.ArgumentParser(description="Run a virtual relic hub on a pty.")
    parser.add_argument("link_dir", help="folder for the cleptomano-hub symlink")
    args = parser.parse_args(argv)
    Path(args.link_dir).mkdir(parents=True, exist_ok=True)
    with VirtualRelicHub(args.link_dir) as hub:
        hub.start()
        print("virtual relic hub at %s (Ctrl-C to stop)" % hub.path)
        forever = threading.Event()
        try:
            while not forever.wait(1.0):
                pass
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
