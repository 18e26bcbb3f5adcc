"""The Pico firmware's logic on CPython: tilt, motion, free fall and the hub loop, with fakes."""

import ast
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
# Appended, not prepended: firmware/code.py must never shadow the standard library's "code".
if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))

from relichub import freefall, motion, tilt  # noqa: E402
from relichub.freefall import FreeFallDetector  # noqa: E402
from relichub.hub import Hub  # noqa: E402
from relichub.motion import MotionDetector  # noqa: E402
from relichub.tilt import TiltTracker  # noqa: E402

from rig.table import protocol

UPRIGHT = (0.0, 0.0, 1.0)
ON_ITS_SIDE = (0.0, 1.0, 0.0)


def leaning(angle_deg, g=1.0):
    a = math.radians(angle_deg)
    return (0.0, g * math.sin(a), g * math.cos(a))


# --- tilt -----------------------------------------------------------------------------------------

def test_upright_reads_zero_and_knocked_over_reads_ninety():
    t = TiltTracker()
    assert t.update(0, UPRIGHT, still=True) == pytest.approx(0.0, abs=0.01)
    assert t.update(10, ON_ITS_SIDE, still=True) == pytest.approx(90.0, abs=0.01)
    assert t.update(20, (0.0, 0.0, -1.0), still=True) == pytest.approx(180.0, abs=0.01)


def test_tilt_is_held_while_the_reading_is_not_gravity():
    t = TiltTracker()
    t.update(0, leaning(20), still=True)
    assert t.update(10, (0.0, 0.3, 0.1), still=False) == pytest.approx(20.0, abs=0.01)  # falling
    assert t.update(20, (0.0, 2.0, 0.5), still=False) == pytest.approx(20.0, abs=0.01)  # impact
    assert TiltTracker().update(0, (0.0, 0.0, 0.2), still=False) is None  # nothing trusted yet


def test_rest_vector_captured_when_placed_upright_takes_out_the_mounting_angle():
    t = TiltTracker()
    mounted = leaning(5)  # the breakout sits 5 degrees off in the relic
    now = 0
    while now <= tilt.CAPTURE_MS:
        t.update(now, mounted, still=True)
        now += 10
    assert t.calibrated
    assert t.update(now, mounted, still=True) == pytest.approx(0.0, abs=0.01)
    assert t.update(now + 10, leaning(95), still=True) == pytest.approx(90.0, abs=0.01)


def test_a_relic_lying_at_power_on_is_never_taken_as_upright():
    t = TiltTracker()
    for now in range(0, 2000, 10):
        t.update(now, ON_ITS_SIDE, still=True)
    assert not t.calibrated
    assert t.tilt_deg == pytest.approx(90.0, abs=0.01)


def test_no_capture_while_moving():
    t = TiltTracker()
    for now in range(0, 2000, 10):
        t.update(now, leaning(3), still=False)
    assert not t.calibrated


# --- free fall ------------------------------------------------------------------------------------

def fall_for(ms, det=None, start=0):
    """Samples every 10 ms: 1 g, then |a| = 0.05 g spanning ``ms``, then 1 g again."""
    det = det or FreeFallDetector()
    fired = []
    det.update(start, 1.0)
    t = start + 10
    for t_low in range(t, t + ms + 1, 10):
        if det.update(t_low, 0.05):
            fired.append(t_low)
    det.update(t_low + 10, 1.0)
    return det, fired


def test_a_30_ms_fall_is_detected_once_at_30_ms():
    det, fired = fall_for(30)
    assert fired == [40]  # low from 10 ms on: confirmed on the sample at 40 ms
    assert det.falls == 1


def test_a_20_ms_dip_is_not_a_fall():
    det, fired = fall_for(20)
    assert fired == [] and det.falls == 0


def test_a_long_fall_counts_once_and_the_next_fall_after_landing_counts_again():
    det, fired = fall_for(300)
    assert len(fired) == 1
    det, fired = fall_for(100, det, start=1000)
    assert det.falls == 2


def test_the_chips_free_fall_interrupt_counts_once_with_the_software_check():
    det = FreeFallDetector()
    assert det.update(0, 0.9, hw_fall=True)  # the chip saw 30 ms low between our samples
    assert not det.update(10, 0.05)
    assert not det.update(40, 0.05, hw_fall=True)  # the same fall
    assert det.falls == 1


def test_fall_counter_wraps():
    det = FreeFallDetector()
    det.falls = freefall.FALLS_MODULO - 1
    fall_for(50, det)
    assert det.falls == 0


# --- motion ---------------------------------------------------------------------------------------

def feed(det, samples, start=0):
    """Feed (x, y, z) samples 10 ms apart; return the times at which ``moving`` changed."""
    changes = []
    for i, vec in enumerate(samples):
        if det.update(start + i * 10, vec):
            changes.append((start + i * 10, det.moving))
    return changes


def vibration(amplitude_g, n):
    return [(0.0, amplitude_g if i % 2 else -amplitude_g, 1.0) for i in range(n)]


def test_still_relic_with_sensor_noise_never_moves():
    det = MotionDetector()
    assert feed(det, vibration(0.01, 300)) == []


def test_a_single_glitch_is_not_motion():
    det = MotionDetector()
    assert feed(det, [UPRIGHT] * 10 + [(0.0, 0.0, 1.5)] + [UPRIGHT] * 50) == []


def test_moving_starts_within_30_ms_and_ends_300_ms_after_it_stops():
    det = MotionDetector()
    shake = [leaning(4 * i) for i in range(1, 51)]  # turning at 400 degrees a second
    changes = feed(det, [UPRIGHT] * 10 + shake + [shake[-1]] * 80)
    (t_on, on), (t_off, off) = changes
    assert on and t_on - 100 <= 30
    assert not off and t_off - 600 >= motion.MOTION_STILL_MS


def test_hysteresis_a_small_vibration_neither_starts_nor_ends_motion():
    between = (motion.MOTION_STOP_G + motion.MOTION_START_G) / 2
    det = MotionDetector()
    assert feed(det, [UPRIGHT] * 5 + vibration(between, 200)) == []
    det = MotionDetector()
    changes = feed(det, [UPRIGHT] * 5 + vibration(0.3, 20) + vibration(between, 200))
    assert [moving for _, moving in changes] == [True]  # still moving, never flapping


def test_knocked_over_relic_moves_then_settles_still():
    det = MotionDetector()
    topple = [leaning(90 * (i / 30) ** 2, 0.9) for i in range(1, 31)]
    changes = feed(det, [UPRIGHT] * 10 + topple + [ON_ITS_SIDE] * 100)
    assert [moving for _, moving in changes] == [True, False]


# --- the hub loop ---------------------------------------------------------------------------------

class FakeAccelerometer:
    def __init__(self, vec=UPRIGHT):
        self.vec = vec
        self.fail = False
        self.latched = False

    def read_g(self):
        if self.fail:
            raise OSError("no ACK at 0x18")
        return self.vec

    def take_freefall(self):
        latched, self.latched = self.latched, False
        return latched


class FakeWire:
    """The writer: collects bytes; decodes them with the Pi's decoder."""

    def __init__(self):
        self.data = bytearray()
        self.decoder = protocol.Decoder()
        self.frames = []
        self.fail = False

    def write(self, frame):
        if self.fail:
            raise OSError("USB gone")
        self.data += frame
        self.frames += self.decoder.feed(frame)


def make_hub():
    sensors = {1: FakeAccelerometer(), 2: FakeAccelerometer(), 3: FakeAccelerometer()}
    wire = FakeWire()
    return Hub(sensors, wire.write), sensors, wire


def run(hub, start_ms, end_ms):
    """The fake clock: tick every millisecond, as often as code.py might."""
    for now in range(start_ms, end_ms):
        hub.tick(now)


def of_kind(frames, kind):
    return [f for f in frames if f.kind == kind]


def test_hub_says_hello_then_heartbeats_at_20_hz_and_samples_at_100_hz():
    hub, _, wire = make_hub()
    run(hub, 0, 1000)
    assert wire.frames[0] == protocol.Hello(0, 0, hub.firmware, 0b111, boot=True)
    beats = of_kind(wire.frames, protocol.FRAME_HEARTBEAT)
    assert len(beats) >= 10 and len(beats) == 20
    assert max(b.ms - a.ms for a, b in zip(beats, beats[1:])) <= 100
    assert hub.samples == 100
    assert wire.decoder.seq_gaps == 0 and wire.decoder.counters()["frames"] == len(wire.frames)
    last = beats[-1].relics
    assert [r.relic for r in last] == [1, 2, 3]
    assert all(r.present and not r.moving and r.tilt_deg < 1 for r in last)
    assert all(r.calibrated for r in last)  # stood upright and still for 500 ms


def test_tick_returns_when_the_next_thing_is_due():
    hub, _, _ = make_hub()
    assert hub.tick(0) == 10
    assert hub.tick(10) == 20
    assert hub.tick(55) == 65  # late: sample now, the next one a full period later (no burst)


def test_a_fall_sends_an_event_at_once_and_the_counter_rides_every_heartbeat():
    hub, sensors, wire = make_hub()
    run(hub, 0, 200)
    sensors[2].vec = (0.0, 0.02, 0.03)  # free fall starts at 200 ms
    n_before = len(wire.frames)
    run(hub, 200, 231)
    falls = [f for f in of_kind(wire.frames, protocol.FRAME_EVENT)
             if f.event == protocol.EVENT_FREEFALL]
    assert len(falls) == 1
    assert falls[0].relic == 2 and falls[0].falls == 1 and falls[0].ms == 230
    assert wire.frames.index(falls[0]) >= n_before
    sensors[2].vec = ON_ITS_SIDE
    run(hub, 231, 1000)
    after = [f for f in of_kind(wire.frames, protocol.FRAME_HEARTBEAT) if f.ms >= 230]
    assert all(f.relics[1].falls == 1 for f in after)
    assert after[-1].relics[1].tilt_deg == pytest.approx(90.0, abs=0.1)


def test_motion_changes_send_events_both_ways():
    hub, sensors, wire = make_hub()
    run(hub, 0, 300)
    for t in range(300, 600, 10):
        sensors[3].vec = leaning(20 if (t // 10) % 2 else -20)
        run(hub, t, t + 10)
    sensors[3].vec = UPRIGHT
    run(hub, 600, 1500)
    moves = [(f.relic, f.value) for f in of_kind(wire.frames, protocol.FRAME_EVENT)
             if f.event == protocol.EVENT_MOTION]
    assert moves == [(3, 1), (3, 0)]


def test_the_chips_interrupt_reports_a_fall_the_samples_missed():
    hub, sensors, wire = make_hub()
    run(hub, 0, 100)
    sensors[1].latched = True
    run(hub, 100, 111)
    assert [(f.relic, f.falls) for f in of_kind(wire.frames, protocol.FRAME_EVENT)] == [(1, 1)]


def test_a_sensor_that_stops_answering_is_reported_and_comes_back():
    hub, sensors, wire = make_hub()
    run(hub, 0, 100)
    sensors[3].fail = True
    run(hub, 100, 2100)
    hello = of_kind(wire.frames, protocol.FRAME_HELLO)[-1]
    assert hello.relics() == [1, 2]
    assert not of_kind(wire.frames, protocol.FRAME_HEARTBEAT)[-1].relics[2].present
    sensors[3].fail = False
    run(hub, 2100, 2200)
    assert of_kind(wire.frames, protocol.FRAME_HEARTBEAT)[-1].relics[2].present


def test_a_failing_usb_write_is_counted_and_the_hub_carries_on():
    hub, _, wire = make_hub()
    run(hub, 0, 100)
    wire.fail = True
    run(hub, 100, 200)
    wire.fail = False
    run(hub, 200, 300)
    assert hub.write_errors >= 2
    assert wire.decoder.seq_gaps == 1  # the Pi can tell that frames were lost
    assert of_kind(wire.frames, protocol.FRAME_HEARTBEAT)[-1].ms >= 250


def test_bad_hub_settings_get_clear_errors():
    with pytest.raises(ValueError, match="relic id 0; allowed: 1..8"):
        Hub({0: FakeAccelerometer()}, FakeWire().write)
    with pytest.raises(ValueError, match="periods must be > 0 ms"):
        Hub({1: FakeAccelerometer()}, FakeWire().write, sample_period_ms=0)


# --- what goes onto the Pico ----------------------------------------------------------------------

HARDWARE_MODULES = {"board", "busio", "digitalio", "adafruit_lis3dh", "usb_cdc", "microcontroller"}
NOT_ON_CIRCUITPYTHON = {"dataclasses", "typing", "enum", "__future__"}


def imports_of(path):
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def pico_sources():
    return [REPO / "rig" / "table" / "protocol.py"] + sorted((FIRMWARE / "relichub").glob("*.py"))


def test_only_code_and_boot_touch_the_hardware():
    for path in pico_sources():
        assert not imports_of(path) & HARDWARE_MODULES, path
    assert {"board", "busio", "adafruit_lis3dh", "usb_cdc"} <= imports_of(FIRMWARE / "code.py")


@pytest.mark.parametrize("path", pico_sources() + [FIRMWARE / "code.py", FIRMWARE / "boot.py"],
                         ids=lambda p: p.name)
def test_pico_code_keeps_to_what_circuitpython_runs(path):
    tree = ast.parse(path.read_text())
    assert not imports_of(path) & NOT_ON_CIRCUITPYTHON
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr), "f-string at line %d" % node.lineno
        assert not isinstance(node, (ast.AnnAssign, ast.Match)), "line %d" % node.lineno
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args)


def test_build_lays_out_a_ready_to_copy_circuitpy_folder(tmp_path):
    out = tmp_path / "CIRCUITPY"
    result = subprocess.run([sys.executable, str(FIRMWARE / "build.py"), str(out)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert (out / "code.py").exists() and (out / "boot.py").exists()
    assert (out / "lib" / "relic_protocol.py").read_bytes() == \
        (REPO / "rig" / "table" / "protocol.py").read_bytes()
    assert (out / "lib" / "relichub" / "hub.py").exists()
    # The Pico's view: only lib/ on the path, no package ``rig`` (python -I -S: no site-packages).
    probe = ("import sys; sys.path.insert(0, %r); import relichub.hub as h; "
             "print(h.protocol.__name__, issubclass(h.protocol.ProtocolError, ValueError))"
             % str(out / "lib"))
    result = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True,
                            text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["relic_protocol", "True"]


def test_build_names_a_wrong_bundle_folder(tmp_path):
    result = subprocess.run([sys.executable, str(FIRMWARE / "build.py"), str(tmp_path / "out"),
                             "--bundle-lib", str(tmp_path)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert "adafruit_lis3dh.mpy not found" in result.stderr and "--bundle-lib" in result.stderr
