"""The relic hub's firmware files under a real MicroPython, with the real LIS3DH driver.

The CIRCUITPY drive as firmware/build.py lays it out runs under the official MicroPython
WebAssembly build (Node.js) on a virtual Pico whose LIS3DH chips answer at the register level
and feel a scripted motion (sim/micropython_hub.py): relic 1 is knocked over, relic 2 lifted and
set down, relic 3 dropped; relic 3 is plugged in only after power-on and relic 2's cable is
pulled for half a second.  What the firmware writes to USB must decode with the Pi's own
Decoder and InputTracker with zero errors and show each gesture.
"""

import pytest

from rig.core.errors import HardwareError
from sim import micropython_hub as picohub

pytestmark = pytest.mark.skipif(
    picohub.node_path() is None,
    reason="node not found: the MicroPython WebAssembly build runs on Node.js (apt-get install "
           "nodejs, then make micropython)")


@pytest.fixture(scope="module")
def pico():
    return picohub.run(picohub.standard_scenario())


@pytest.fixture(scope="module")
def received(pico):
    return picohub.Received(pico.usb_bytes)


def first_ms(received, name, value):
    return next(ms for ms, name_, value_ in received.inputs if name_ == name and value_ == value)


def test_the_firmware_runs_to_the_end_without_an_error(pico):
    assert pico.error is None, "%s\nconsole:\n%s" % (pico.error, "\n".join(pico.report["console"]))
    assert pico.report["virtual_ms"] >= picohub.END_MS
    # Nothing else on the console: no "INT1 pin unusable", no "no free-fall interrupt".
    assert pico.report["console"] == ["relic hub 1.0.0 running"]


def test_it_runs_from_source_on_the_picos_heap(pico):
    report = pico.report
    assert report["heap_bytes"] == picohub.PICO_HEAP_BYTES
    assert pico.heap_fits, "the heap grew by %d bytes in %s; live bytes by phase: %s" % (
        report["heap_grew_by"], report["heap_grew_in"], report["phases"])
    phases = [phase for phase, _ in report["phases"]]
    assert phases[:4] == ["power-on", "boot.py", "import relic_protocol", "import relichub.hub"]


def test_a_heap_too_small_for_the_firmware_is_caught():
    small = picohub.run(picohub.standard_scenario(), heap_bytes=48 * 1024)
    assert not small.heap_fits
    assert "MemoryError: the 49152-byte heap ran out in import" in small.error


def test_without_boot_py_the_firmware_says_what_to_do(tmp_path):
    drive = picohub.build_drive(tmp_path / "CIRCUITPY")
    (drive / "boot.py").unlink()  # so usb_cdc.data, the frames' port, is never turned on
    run = picohub.run(picohub.standard_scenario(), drive=drive)
    assert run.error.startswith("in start(): the firmware was still inside start() when the "
                                "power was cut")
    assert set(run.report["console"]) == {
        "usb_cdc.data is off: copy boot.py to CIRCUITPY and reset the board"}
    assert run.usb_bytes == b""


def test_every_frame_decodes_on_the_pi_with_zero_errors(received):
    assert received.errors() == {}
    hellos = received.hellos()
    assert [h.ms for h in hellos] == [0, 2000, 4000]
    assert hellos[0].boot and not any(h.boot for h in hellos[1:])
    assert hellos[0].firmware == (1, 0, 0)
    heartbeats = [ms for ms, _ in received.present]
    assert len(heartbeats) == picohub.END_MS // 50  # 20 a second, the first at 0 ms


def test_a_knocked_over_relic_tilts_past_60_moves_and_settles(received):
    tilts = received.values("relic.1.tilt")
    assert tilts[0] < 1 and max(tilts) >= 60
    assert tilts[-1] == pytest.approx(90, abs=2)
    assert received.values("relic.1.motion") == [0.0, 1.0, 0.0]
    assert picohub.KNOCK_AT_MS < first_ms(received, "relic.1.motion", 1.0) \
        <= picohub.KNOCK_AT_MS + 60
    assert received.values("relic.1.freefall") == []


def test_a_lifted_relic_moves_and_stays_upright(received):
    assert received.values("relic.2.motion") == [0.0, 1.0, 0.0]
    assert picohub.LIFT_AT_MS < first_ms(received, "relic.2.motion", 1.0) \
        <= picohub.LIFT_AT_MS + 60
    assert max(received.values("relic.2.tilt")) < 30
    assert received.values("relic.2.freefall") == []


def test_a_dropped_relic_falls_once_seen_by_the_chip_and_the_samples(received, pico):
    assert received.values("relic.3.freefall") == [1.0, 0.0]
    assert picohub.DROP_AT_MS < first_ms(received, "relic.3.freefall", 1.0) \
        <= picohub.DROP_AT_MS + 60
    chips = pico.report["chips"]
    assert chips["relic 3"]["int1_events"] == 1  # the LIS3DH's own free-fall interrupt fired
    assert chips["relic 3"]["int1_cleared"] >= 1  # ... and code.py read INT1_SRC to clear it
    assert chips["relic 1"]["int1_events"] == chips["relic 2"]["int1_events"] == 0


def test_pulled_cables_are_reported_and_picked_up_again(received, pico):
    def present(relic, from_ms, to_ms):
        return {p[relic] for ms, p in received.present if from_ms <= ms < to_ms}

    # Relic 3 alone on I2C1: no pull-ups at power-on, found at the next retry (1 s).
    assert present(3, 0, picohub.RELIC3_PLUGGED_MS) == {False}
    assert present(3, 1100, picohub.END_MS) == {True}
    # Relic 2's cable pulled and pushed back: reported within a sample, re-opened within 1 s.
    pulled, back = picohub.RELIC2_PULLED_MS
    assert present(2, 0, pulled) == {True}
    assert present(2, pulled + 20, back) == {False}
    assert present(2, back + 1000, picohub.END_MS) == {True}
    assert pico.report["chips"]["relic 2"]["resets"] == 1  # it came back from a power-on reset


def test_the_firmware_writes_no_read_only_or_reserved_register(pico):
    for name, chip in pico.report["chips"].items():
        assert [hex(register) for register in chip["bad_writes"]] == [], name


# --- The tier's own errors name the fix --------------------------------------------------------

def test_a_missing_node_npm_package_or_driver_names_the_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(picohub, "NODE_PACKAGE", tmp_path / "node_modules" / "none")
    with pytest.raises(HardwareError, match="is missing; fix: run `make micropython`"):
        picohub.run(picohub.standard_scenario())
    monkeypatch.setattr(picohub, "node_path", lambda: None)
    with pytest.raises(HardwareError, match="node not found on PATH; .*apt-get install nodejs"):
        picohub.run(picohub.standard_scenario())
    with pytest.raises(HardwareError, match="no driver sources in .*fix: run `make micropython`"):
        picohub.build_drive(tmp_path / "CIRCUITPY", lib_dir=tmp_path)


def test_a_keyframe_out_of_order_is_refused():
    with pytest.raises(ValueError, match="keyframe at 500 ms; allowed: after 1000 ms"):
        picohub.Motion().at(1000, picohub.UPRIGHT).at(500, picohub.ON_ITS_SIDE)
