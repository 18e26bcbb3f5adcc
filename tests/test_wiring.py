"""The wiring documents: generated from the pin map, committed, and complete."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sim.tools import wiringdocs
from rig.shell.config import BCM_TO_HEADER, RESERVED_PINS, load_pinmap, pinmap_from_dict

WIRING = Path(__file__).resolve().parent.parent / "wiring"
SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def pinmap():
    return load_pinmap()


@pytest.mark.parametrize("name", ["pins.md", "diagram.svg", "bom.md"])
def test_committed_documents_equal_the_generated_ones(pinmap, name):
    generated = wiringdocs.documents(pinmap)[name]
    committed = (WIRING / name).read_text(encoding="utf-8")
    assert committed == generated, "run `python -m sim.tools.wiringdocs` and commit wiring/%s" % name


def test_check_mode_passes_on_the_repo_and_fails_on_a_stale_copy(tmp_path, capsys):
    assert wiringdocs.main(["--check"]) == 0
    for name, text in wiringdocs.documents(load_pinmap()).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pins.md").write_text("old\n", encoding="utf-8")
    assert wiringdocs.main(["--check", "--out", str(tmp_path)]) == 1
    assert "pins.md" in capsys.readouterr().err
    assert (tmp_path / "pins.md").read_text(encoding="utf-8") == "old\n"  # --check writes nothing
    assert wiringdocs.main(["--out", str(tmp_path)]) == 0
    assert wiringdocs.main(["--check", "--out", str(tmp_path)]) == 0


def test_a_broken_pin_map_is_reported_not_written(tmp_path, capsys):
    bad = tmp_path / "map.toml"
    bad.write_text("[inputs]\nbutton = 3\n", encoding="utf-8")
    assert wiringdocs.main(["--pinmap", str(bad), "--out", str(tmp_path)]) == 2
    assert "inputs.button" in capsys.readouterr().err
    assert not (tmp_path / "pins.md").exists()


def test_every_input_and_output_is_in_the_table_with_its_pins(pinmap):
    table = wiringdocs.pin_table_markdown(pinmap)
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([\w.]+)` \|.*$", table, re.M)}
    for name, pin in list(pinmap.inputs.items()) + list(pinmap.outputs.items()):
        assert name in rows, name
        assert "| GPIO%d | %d |" % (pin.pin, BCM_TO_HEADER[pin.pin]) in rows[name]
    assert "0x29" in table and "GPIO2 (pin 3)" in table


def test_every_input_and_output_is_in_the_bom(pinmap):
    bom = wiringdocs.bom_markdown(pinmap)
    for name in list(pinmap.inputs) + list(pinmap.outputs):
        assert "`%s`" % name in bom, name
    touch = [n for n in pinmap.inputs if wiringdocs.kind_of(n) == "touch"]
    assert "| %d | AT42QT1010" % len(touch) in bom
    assert "relic-hub.md" in bom


def test_svg_parses_and_shows_every_pin_and_device(pinmap):
    svg = wiringdocs.wiring_svg(pinmap)
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG_NS + "svg"
    texts = [t.text for t in root.iter(SVG_NS + "text")]
    for name, pin in list(pinmap.inputs.items()) + list(pinmap.outputs.items()):
        assert any(t.startswith(name + ": ") for t in texts), name
        assert "GPIO%d" % pin.pin in texts, name
    assert sorted(int(t) for t in texts if t.isdigit()) == list(range(1, 41))
    assert any("VL53L0X" in t for t in texts)
    # One box per used GPIO plus the two I2C lines, and no two boxes in the same place.
    boxes = [(r.get("x"), r.get("y")) for r in root.iter(SVG_NS + "rect")
             if r.get("fill-opacity")]
    assert len(boxes) == len(pinmap.used_pins()) + 2 == len(set(boxes))


def test_the_default_pin_map_uses_no_pin_twice_and_no_reserved_pin(pinmap):
    pins = [p.pin for p in pinmap.inputs.values()] + [p.pin for p in pinmap.outputs.values()]
    assert len(pins) == len(set(pins))
    assert not set(pins) & set(RESERVED_PINS)
    assert set(pins) <= set(BCM_TO_HEADER)


def test_the_default_pin_map_wires_the_whole_rulebook(pinmap):
    expected = {"button", "guard", "painting.1", "painting.2"}
    expected |= {"laser.%d" % n for n in range(1, 9)} | {"seat.%d" % n for n in range(4, 9)}
    assert set(pinmap.inputs) == expected
    assert set(pinmap.outputs) == {"buzzer", "led.ready", "led.turn", "led.fault"}
    touch = [pinmap.inputs[n] for n in expected if n.startswith("laser") or n == "guard"]
    assert all((p.pull, p.active) == ("none", "high") for p in touch)
    switches = [pinmap.inputs[n] for n in expected
                if n.startswith(("seat", "painting")) or n == "button"]
    assert all((p.pull, p.active) == ("up", "low") for p in switches)
    assert (pinmap.i2c_bus, pinmap.tof_address) == (1, 0x29)


def test_documents_follow_a_different_pin_map():
    small = pinmap_from_dict({"inputs": {
        "button": {"pin": 16, "pull": "up", "active": "low"},
        "laser.1": {"pin": 4, "pull": "none", "active": "high"},
        "laser.2": {"pin": 17, "pull": "none", "active": "high"},
        "laser.3": {"pin": 27, "pull": "none", "active": "high"},
        "guard": {"pin": 6, "pull": "none", "active": "high"},
        "painting.1": {"pin": 7, "pull": "up", "active": "low"},
        "painting.2": {"pin": 12, "pull": "up", "active": "low"}},
        "outputs": {"buzzer": {"pin": 13, "active": "high"}}})
    assert "| 4 | AT42QT1010" in wiringdocs.bom_markdown(small)
    assert "seat" not in wiringdocs.pin_table_markdown(small).split("## Outputs")[0]
    ET.fromstring(wiringdocs.wiring_svg(small).encode("utf-8"))
