"""The relic hub's own firmware files under a real MicroPython, on a virtual Pico.

The CIRCUITPY drive exactly as ``firmware/build.py`` lays it out (code.py, boot.py, relichub/,
relic_protocol.py) plus the real ``adafruit_lis3dh`` and ``adafruit_bus_device`` sources from
PyPI run under the official MicroPython WebAssembly build on Node.js
(``sim/micropython/run_hub.mjs``), on a heap the size of the Pico's.  Below the driver, stand-ins
for CircuitPython's built-in modules answer at the register level (``sim/micropython/
circuitpython/``): LIS3DH chips that feel a scripted motion, wired as in wiring/relic-hub.md.
What the firmware writes to USB is decoded here with the Pi's own Decoder and InputTracker::

    python -m sim.micropython_hub              # the standard scenario: figures and inputs
    python -m sim.micropython_hub --min-heap   # also the smallest heap the firmware runs in

Needs the repository checkout, Node.js, and what ``make micropython`` installs: the npm
package (sim/micropython/node_modules) and the driver sources (sim/micropython/lib).
"""

import argparse
import json
import math
import os
import resource
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rig.core.errors import HardwareError
from rig.table.protocol import Decoder, Heartbeat, Hello
from rig.table.hub import InputTracker

REPO = Path(__file__).resolve().parent.parent
MICROPYTHON_DIR = REPO / "sim" / "micropython"
RUNNER = MICROPYTHON_DIR / "run_hub.mjs"
NODE_PACKAGE = MICROPYTHON_DIR / "node_modules" / "@micropython" / \
    "micropython-webassembly-pyscript"
LIB_DIR = MICROPYTHON_DIR / "lib"
BUILD_SCRIPT = REPO / "firmware" / "build.py"
# CircuitPython 9 on a Pico (RP2040) has about 190 KB of heap free for code.py.
PICO_HEAP_BYTES = 192 * 1024
USB_PACKET_BYTES = 64  # the Pi reads the port in USB full-speed packets at most
SETUP_HINT = "run `make micropython` (npm ci and the driver sources; needs Node.js)"

UPRIGHT = (0.0, 0.0, 1.0)
ON_ITS_SIDE = (0.0, 1.0, 0.0)
# The relic hub as wired in wiring/relic-hub.md: relic -> (SCL, SDA, I2C address, INT1 pin).
WIRING = {
    1: ("GP5", "GP4", 0x18, "GP10"),
    2: ("GP5", "GP4", 0x19, "GP11"),
    3: ("GP3", "GP2", 0x18, "GP12"),
}
NOISE_MG = 1.5  # the LIS3DH's noise at 400 Hz, high resolution, is of this order


def leaning(angle_deg, g=1.0):
    """Gravity as the sensor reads it when the relic leans ``angle_deg`` towards +Y."""
    a = math.radians(angle_deg)
    return (0.0, g * math.sin(a), g * math.cos(a))


class Motion:
    """What one relic's accelerometer feels, as keyframes ``[t_ms, x_g, y_g, z_g]`` (linear in
    between, held after the last), built gesture by gesture from an upright relic."""

    def __init__(self, start=UPRIGHT):
        self.frames = [[0] + list(start)]

    def at(self, t_ms, vec):
        if t_ms <= self.frames[-1][0]:
            raise ValueError("keyframe at %r ms; allowed: after %r ms; fix the gesture's times"
                             % (t_ms, self.frames[-1][0]))
        self.frames.append([t_ms] + [round(v, 4) for v in vec])
        return self

    def then(self, t_ms, steps):
        """Hold the last keyframe until ``t_ms``, then add ``(offset_ms, vec)`` keyframes."""
        last = self.frames[-1]
        if t_ms > last[0]:
            self.at(t_ms, last[1:])
        for offset_ms, vec in steps:
            self.at(t_ms + offset_ms, vec)
        return self

    def knock_over(self, t_ms):
        """Tipped by a finger: over onto its side in about 300 ms, a thud, then lying still."""
        return self.then(t_ms, [(100, leaning(20)), (250, leaning(70, 0.9)),
                                (330, (0.0, 1.8, 0.3)), (360, (0.0, 0.9, 0.05)),
                                (400, ON_ITS_SIDE)])

    def lift(self, t_ms, carry_ms=1000):
        """Lifted straight up, carried with the wobble of a hand, set down upright."""
        steps = [(60, (0.0, 0.0, 1.3)), (160, (0.0, 0.0, 1.25))]
        offset, side = 260, 1
        while offset < carry_ms:
            steps.append((offset, leaning(12 * side, 1.0 + 0.05 * side)))
            offset, side = offset + 150, -side
        steps += [(offset + 60, (0.0, 0.0, 0.8)), (offset + 120, (0.0, 0.0, 1.15)),
                  (offset + 160, UPRIGHT)]
        return self.then(t_ms, steps)

    def drop(self, t_ms, fall_ms=250):
        """Let go: free fall (almost no acceleration) for ``fall_ms``, a hard landing upright."""
        return self.then(t_ms, [(15, (0.0, 0.0, 0.05)), (fall_ms, (0.02, 0.01, 0.05)),
                                (fall_ms + 10, (0.3, 0.2, 3.0)), (fall_ms + 40, (0.0, 0.0, 0.9)),
                                (fall_ms + 80, UPRIGHT)])


def scenario(end_ms, motions, unplugged=None):
    """The virtual hardware for one run: ``motions`` maps relic id to its :class:`Motion`;
    ``unplugged`` maps relic id to ``[(from_ms, to_ms), ...]`` while its cable is pulled."""
    unplugged = unplugged or {}
    buses = {}
    for relic_id in sorted(WIRING):
        scl, sda, address, int1 = WIRING[relic_id]
        chip = {"name": "relic %d" % relic_id, "address": address, "int1": int1,
                "motion": motions.get(relic_id, Motion()).frames, "noise_mg": NOISE_MG,
                "seed": relic_id, "unplugged": [list(w) for w in unplugged.get(relic_id, ())]}
        buses.setdefault((scl, sda), []).append(chip)
    return {"end_ms": end_ms,
            "buses": [{"scl": scl, "sda": sda, "chips": chips}
                      for (scl, sda), chips in buses.items()]}


# The standard run: every gesture and both kinds of pulled cable, in 6 s of hub time.
KNOCK_AT_MS = 2000      # relic 1 knocked over
LIFT_AT_MS = 2000       # relic 2 lifted, carried 1 s, set down
DROP_AT_MS = 3000       # relic 3 dropped
RELIC3_PLUGGED_MS = 800  # relic 3 (alone on I2C1) plugged in only after power-on
RELIC2_PULLED_MS = (4200, 4700)
END_MS = 6000


def standard_scenario():
    return scenario(END_MS,
                    {1: Motion().knock_over(KNOCK_AT_MS), 2: Motion().lift(LIFT_AT_MS),
                     3: Motion().drop(DROP_AT_MS)},
                    {2: [RELIC2_PULLED_MS], 3: [(0, RELIC3_PLUGGED_MS)]})


# --- Running it ----------------------------------------------------------------------------------

def node_path():
    """The ``node`` to run, or None where Node.js is not installed."""
    return shutil.which("node")


def build_drive(out_dir, lib_dir=LIB_DIR):
    """Lay out the CIRCUITPY drive with firmware/build.py, the driver sources from ``lib_dir``."""
    if not (Path(lib_dir) / "adafruit_lis3dh.py").exists():
        raise HardwareError("no driver sources in %s; allowed: adafruit_lis3dh.py and "
                            "adafruit_bus_device/ from PyPI; fix: %s" % (lib_dir, SETUP_HINT))
    done = subprocess.run([sys.executable, str(BUILD_SCRIPT), str(out_dir), "--bundle-lib",
                           str(lib_dir)], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise HardwareError("firmware/build.py failed: %s" % done.stderr.strip())
    return Path(out_dir)


@dataclass(frozen=True)
class Run:
    """One run's outcome: the runner's report (JSON), the USB bytes and the CPU time used."""

    report: dict
    usb_bytes: bytes
    cpu_s: float

    @property
    def error(self):
        return self.report["error"]

    @property
    def heap_fits(self):
        return self.report["heap_grew_in"] is None


def run(hardware, heap_bytes=PICO_HEAP_BYTES, *, drive=None, timeout_s=120):
    """Run the firmware on ``hardware`` (a :func:`scenario` dict) and return a :class:`Run`.

    A firmware exception is in ``Run.error``; a runner that cannot start or breaks down is a
    HardwareError naming the fix.
    """
    node = node_path()
    if node is None:
        raise HardwareError("node not found on PATH; allowed: Node.js 18 or later; fix: install "
                            "it (apt-get install nodejs), then %s" % SETUP_HINT)
    if not NODE_PACKAGE.exists():
        raise HardwareError("%s is missing; fix: %s" % (NODE_PACKAGE, SETUP_HINT))
    with tempfile.TemporaryDirectory(prefix="picohub-") as tmp:
        tmp = Path(tmp)
        if drive is None:
            drive = build_drive(tmp / "CIRCUITPY")
        (tmp / "scenario.json").write_text(json.dumps(hardware))
        usb = tmp / "usb-data.bin"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            code, out, err = _run_node([node, str(RUNNER), "--drive", str(drive), "--scenario",
                                        str(tmp / "scenario.json"), "--frames", str(usb),
                                        "--heap", str(heap_bytes)], timeout_s)
        except subprocess.TimeoutExpired:
            raise HardwareError("the MicroPython runner took over %s s; allowed: a few seconds; "
                                "fix: look for a firmware loop that stopped sleeping"
                                % timeout_s) from None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            report = json.loads(out.strip().split("\n")[-1])
        except (IndexError, ValueError):
            raise HardwareError("the MicroPython runner failed (exit %s): %s"
                                % (code, err.strip() or out)) from None
        usb_bytes = usb.read_bytes() if usb.exists() else b""
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(report, usb_bytes, cpu_s)


# Node 20 can deadlock at exit, after the report is written (nodejs/node#54918: the main thread
# waits in NodePlatform::DrainTasks for a compiler task that waits for the main thread): once
# the report's line is in, the runner gets this long to exit and is then killed.
EXIT_GRACE_S = 5.0


def _run_node(argv, timeout_s):
    """Run the Node runner; ``(exit status, stdout, stderr)``, the status None when it hung at
    exit after its report and was killed.  TimeoutExpired when no report came in ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        out, err = bytearray(), bytearray()
        with selectors.DefaultSelector() as streams:
            streams.register(proc.stdout, selectors.EVENT_READ, out)
            streams.register(proc.stderr, selectors.EVENT_READ, err)
            while streams.get_map() and b"\n" not in out:   # the report: stdout's one line
                left = deadline - time.monotonic()
                if left <= 0:
                    proc.kill()
                    proc.wait()
                    raise subprocess.TimeoutExpired(argv, timeout_s)
                for key, _ in streams.select(left):
                    chunk = os.read(key.fd, 65536)
                    if chunk:
                        key.data.extend(chunk)
                    else:
                        streams.unregister(key.fileobj)
        try:
            code = proc.wait(timeout=EXIT_GRACE_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
    return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


# --- What the Pi makes of it -----------------------------------------------------------------------

class Received:
    """The USB bytes as the Pi's reader takes them: frames, the Decoder's counters, the relic
    inputs (``(ms, name, value)``, in order) and each heartbeat's ``{relic: present}``."""

    def __init__(self, usb_bytes):
        decoder = Decoder()
        tracker = InputTracker()
        tracker.connected()
        self.frames = []
        self.inputs = []
        self.present = []
        for i in range(0, len(usb_bytes), USB_PACKET_BYTES):
            for frame in decoder.feed(usb_bytes[i:i + USB_PACKET_BYTES]):
                self.frames.append(frame)
                for name, value in tracker.feed(frame):
                    self.inputs.append((frame.ms, name, value))
                if isinstance(frame, Heartbeat):
                    self.present.append((frame.ms, dict(tracker.relics_present)))
        self.counters = decoder.counters()

    def errors(self):
        """Every counter that means a frame was lost or broken, with its count (want: none)."""
        return {name: n for name, n in self.counters.items() if name != "frames" and n}

    def values(self, name):
        return [value for _, name_, value in self.inputs if name_ == name]

    def hellos(self):
        return [frame for frame in self.frames if isinstance(frame, Hello)]


def min_heap(hardware, low=16 * 1024, high=PICO_HEAP_BYTES, step=1024, drive=None):
    """The smallest heap (to ``step`` bytes) on which the whole run needs no more heap."""
    while high - low > step:
        middle = (low + high) // 2 // step * step
        result = run(hardware, middle, drive=drive)
        if result.heap_fits:
            if result.error is not None:
                raise HardwareError("the run failed on a %d-byte heap for another reason than "
                                    "the heap: %s" % (middle, result.error))
            high = middle
        else:
            low = middle
    return high


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run the relic hub firmware under MicroPython "
                                     "on a virtual Pico and print what was measured.")
    parser.add_argument("--heap", type=int, default=PICO_HEAP_BYTES,
                        help="heap bytes (default: the Pico's, %(default)s)")
    parser.add_argument("--min-heap", action="store_true",
                        help="also find the smallest heap the standard run fits in")
    args = parser.parse_args(argv)
    hardware = standard_scenario()
    try:
        result = run(hardware, args.heap)
    except HardwareError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    report = result.report
    received = Received(result.usb_bytes)
    print("firmware console: %s" % " | ".join(report["console"]))
    print("error: %s" % report["error"])
    print("%d passes of the loop, %d ms of hub time, %.2f s of CPU"
          % (report["steps"], report["virtual_ms"], result.cpu_s))
    print("heap %d bytes: %s; most live %d bytes" % (
        report["heap_bytes"], "fits" if result.heap_fits else
        "grew by %d in %s" % (report["heap_grew_by"], report["heap_grew_in"]),
        report["max_live_bytes"]))
    for phase, live in report["phases"]:
        print("  live after %-24s %6d bytes" % (phase, live))
    print("%d frames (%d hellos), decoder errors: %s"
          % (len(received.frames), len(received.hellos()), received.errors() or "none"))
    for relic_id in sorted(WIRING):
        print("relic %d: chip %s" % (relic_id, report["chips"]["relic %d" % relic_id]))
    for ms, name, value in received.inputs:
        print("  %6d ms  %-16s %s" % (ms, name, value))
    if args.min_heap:
        with tempfile.TemporaryDirectory(prefix="picohub-") as tmp:
            drive = build_drive(Path(tmp) / "CIRCUITPY")
            print("smallest heap that fits: %d bytes" % min_heap(hardware, drive=drive))
    return 0 if report["error"] is None and result.heap_fits else 1


if __name__ == "__main__":
    sys.exit(main())
