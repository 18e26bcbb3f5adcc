"""The functional core stays pure: no GPIO library, no clock, no threads, no sockets or serial
ports, no display, and never the simulator.  Checked three ways: the modules' source (every
import statement, lazy ones included), a fresh interpreter that imports them all, and a replay
run with the clock functions booby-trapped."""

import ast
import json
import pathlib
import subprocess
import sys
import time

import pytest

RIG = pathlib.Path(__file__).resolve().parent.parent / "rig"

CORE = ("levels", "rules", "events", "detect", "referee", "recording", "replay", "titles",
        "layout", "errors", "protocol", "board", "view", "wiringcheck")

# Top-level module names the core may never import.
FORBIDDEN = {
    # pins and hardware
    "gpiozero", "RPi", "lgpio", "pigpio", "board", "busio", "digitalio", "microcontroller",
    "adafruit_blinka", "serial", "smbus", "smbus2", "spidev",
    # the clock, threads, processes, the network
    "time", "datetime", "threading", "_thread", "asyncio", "concurrent", "multiprocessing",
    "subprocess", "sched", "socket", "select", "selectors", "signal",
    # the screen and the simulator
    "pygame", "sim",
}
FORBIDDEN_PREFIXES = ("adafruit_",)


def imported_names(path):
    """Every module a file imports, as (line, absolute-or-relative dotted name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.append((node.lineno, base))
            if node.level and not node.module:
                found += [(node.lineno, "." + alias.name) for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("__import__", "import_module"):
                found.append((node.lineno, "<dynamic import>"))
    return found


def forbidden(name):
    root = name.split(".")[0]
    return name == "<dynamic import>" or root in FORBIDDEN or root.startswith(
        FORBIDDEN_PREFIXES)


@pytest.mark.parametrize("module", CORE)
def test_core_module_source_imports_nothing_impure(module):
    path = RIG / (module + ".py")
    bad = ["%s:%d imports %s" % (path.name, line, name)
           for line, name in imported_names(path) if forbidden(name)]
    assert bad == []


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_core_modules_of_the_rig(module):
    path = RIG / (module + ".py")
    for line, name in imported_names(path):
        if name.strip(".") == "":
            continue        # "from . import x": x is listed on its own
        if name.startswith("."):
            target = name.lstrip(".").split(".")[0]
        elif name.startswith("rig."):
            target = name.split(".")[1]
        else:
            continue
        assert target in CORE, "%s:%d imports rig.%s, which is not pure core" % (
            path.name, line, target)


def test_no_rig_module_imports_the_simulator():
    bad = []
    for path in sorted(RIG.rglob("*.py")):
        bad += ["%s:%d imports %s" % (path.relative_to(RIG.parent), line, name)
                for line, name in imported_names(path) if name.split(".")[0] == "sim"]
    assert bad == []


def test_importing_the_core_loads_no_hardware_and_starts_no_thread():
    code = (
        "import sys, json\n"
        + "".join("import rig.%s\n" % m for m in CORE)
        + "loaded = sorted(set(m.split('.')[0] for m in sys.modules))\n"
        + "threads = None\n"
        + "if 'threading' in sys.modules:\n"
        + "    import threading; threads = threading.active_count()\n"
        + "print(json.dumps({'loaded': loaded, 'threads': threads}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=str(RIG.parent))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    hardware = {"gpiozero", "RPi", "lgpio", "pigpio", "board", "busio", "digitalio", "serial",
                "pygame", "sim", "adafruit_blinka"}
    assert hardware.isdisjoint(report["loaded"])
    assert not [m for m in report["loaded"] if m.startswith("adafruit_")]
    assert report["threads"] in (None, 1)


def test_replay_reads_no_clock(monkeypatch):
    """A whole turn re-refereed with every clock function booby-trapped."""
    from rig.replay import replay_lines

    def trap(*args, **kwargs):
        raise AssertionError("the core read the clock or slept")

    header = {"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"],
              "difficulty": "hard"}
    lines = [header,
             {"t": 1.0, "input": "button", "value": 1}, {"t": 1.1, "input": "button", "value": 0},
             {"t": 2.0, "input": "tof", "value": 120},
             {"t": 3.0, "input": "painting.1", "value": 0},
             {"t": 4.0, "input": "laser.8", "value": 1}, {"t": 4.2, "input": "laser.8", "value": 0},
             {"t": 5.0, "input": "tof", "value": 8190},
             {"t": 40.0, "end": True}]
    for name in ("time", "monotonic", "perf_counter", "sleep", "time_ns", "monotonic_ns"):
        monkeypatch.setattr(time, name, trap)
    result = replay_lines([json.dumps(x) for x in lines])
    monkeypatch.undo()
    turn = result["turns"][0]
    assert (turn["outcome"], turn["touches"], turn["score"]) == ("escaped", 1, 1)
    assert turn["duration_s"] == pytest.approx(30.0)


def test_the_import_check_itself_catches_impure_imports(tmp_path):
    source = (
        "import json\n"
        "from time import monotonic\n"
        "import threading as th\n"
        "def lazy():\n"
        "    import gpiozero\n"
        "    from adafruit_vl53l0x import VL53L0X\n"
        "    return __import__('serial')\n"
        "from .levels import make_level\n"
    )
    path = tmp_path / "impure.py"
    path.write_text(source, encoding="utf-8")
    caught = sorted(name for _, name in imported_names(path) if forbidden(name))
    assert caught == ["<dynamic import>", "adafruit_vl53l0x", "gpiozero", "threading", "time"]
