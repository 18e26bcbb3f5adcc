"""The functional core stays pure, and the arrows point one way.

* Every module under ``rig/core/``, every game's ``rules/`` folder (``rig/games/<game>/rules/``)
  and the table's pure parts (``rig/table/``: :data:`TABLE_PURE`) imports only the standard
  library, ``rig.core``, the table's pure parts and (a game's rules) its own rules folder,
  and of the standard library nothing that reads a clock, starts a thread, opens a file or a
  socket (``IMPURE_STDLIB``); it never calls ``open``, ``print`` or ``input``.
* No module of ``rig`` imports the simulator; the core imports neither the shell nor a face.

Checked three ways: the modules' source (every import statement, lazy ones included), a fresh
interpreter that imports them all, and a replay run with the clock booby-trapped.  The check
walks the folder, so a new core module is covered the day it is added.
"""

import ast
import json
import pathlib
import subprocess
import sys
import time

import pytest

from sim.imports import imported_names, modules, package_of

ROOT = pathlib.Path(__file__).resolve().parent.parent
RIG = ROOT / "rig"
CORE_DIR = RIG / "core"

#: Standard-library modules the core may not use: clocks, threads, processes, files, the network,
#: the terminal, logging (output), and foreign code.
IMPURE_STDLIB = {
    "time", "datetime", "threading", "_thread", "asyncio", "concurrent", "multiprocessing",
    "subprocess", "sched", "socket", "select", "selectors", "signal", "os", "io", "pathlib",
    "shutil", "tempfile", "glob", "fnmatch", "logging", "urllib", "http", "ssl", "sqlite3",
    "ctypes", "mmap", "fcntl", "termios", "tty", "pty", "platform", "uuid", "secrets",
    "webbrowser", "zipfile", "tarfile", "gzip", "bz2", "lzma", "pickle", "shelve", "dbm",
    "importlib", "pkgutil", "runpy", "site", "sysconfig", "locale", "getpass", "pwd", "grp",
    "resource", "atexit", "faulthandler", "tracemalloc", "gc", "inspect", "warnings",
    "smtplib", "ftplib", "imaplib", "poplib", "socketserver", "xmlrpc", "wsgiref", "mailbox",
}
IMPURE_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "breakpoint"}


CORE = modules(CORE_DIR, "rig.core")
CORE_IDS = [name for name, _ in CORE]
#: Every game's pure rules: ``rig/games/<game>/rules/``, found by walking the folder, so a new
#: game's rules are covered the day its folder is added.
RULES = [module for folder in sorted((RIG / "games").glob("*/rules"))
         for module in modules(folder, "rig.games.%s.rules" % folder.parent.name)]
#: The table's pure parts (below the games, which may import them): the rest of ``rig/table/``
#: are device adapters, which import their hardware libraries lazily.
TABLE_PURE = ("names", "debounce", "protocol", "parts", "reflex", "wiringcheck")
TABLE = [(name, path) for name, path in modules(RIG / "table", "rig.table")
         if name.rsplit(".", 1)[-1] in TABLE_PURE]
PURE = CORE + RULES + TABLE
PURE_IDS = [name for name, _ in PURE]


def impure_calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [(node.lineno, node.func.id) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in IMPURE_CALLS]


def core_violations(name, path):
    """What makes a core module impure, in words (empty when it is pure)."""
    bad = []
    for line, target in imported_names(path, package_of(name, path)):
        root = target.split(".")[0]
        if target == "<dynamic import>":
            bad.append((line, "imports a module by name at run time"))
        elif root == "rig":
            own = ".".join(name.split(".")[:4]) if name.startswith("rig.games.") else "rig.core"
            table = tuple("rig.table.%s" % m for m in TABLE_PURE)
            if not (any(target == allowed or target.startswith(allowed + ".")
                        for allowed in ("rig.core", own) + table) or target == "rig.table"):
                bad.append((line, "imports %s, outside rig.core" % target))
        elif root not in sys.stdlib_module_names:
            bad.append((line, "imports %s, which is not the standard library" % target))
        elif root in IMPURE_STDLIB:
            bad.append((line, "imports %s (a clock, a thread or I/O)" % target))
    bad += [(line, "calls %s()" % call) for line, call in impure_calls(path)]
    return ["%s:%d %s" % (path.relative_to(ROOT), line, what) for line, what in sorted(bad)]


@pytest.mark.parametrize("name,path", PURE, ids=PURE_IDS)
def test_core_module_imports_only_the_pure_standard_library_and_the_core(name, path):
    assert core_violations(name, path) == []


def test_the_core_folder_holds_only_what_every_game_shares():
    expected = {"rig.core"} | {"rig.core.%s" % m for m in (
        "addresses", "attract", "audits", "banner_queue", "bounded", "contract", "effects",
        "errors", "gamekit", "jsonl", "keynames", "msg", "names", "phones", "service",
        "settings", "severity", "table_state", "text", "tournament")}
    assert set(CORE_IDS) == expected


def test_cleptomanos_own_rules_live_in_its_folder_and_are_walked_as_pure():
    moved = ("layout", "referee", "replay", "tournament", "standings", "wiringcheck",
             "events", "calls", "recording", "board", "view", "banners", "titles",
             "levels", "detect", "engine", "engine.model", "engine.step")
    assert {"rig.games.cleptomano.rules.%s" % m for m in moved} <= set(PURE_IDS)
    # rig.core.tournament is the tournament's part that is no game's (topics, the envelope):
    # Cleptómano's match messages stay in its rules/tournament.py.
    assert not {"rig.core.%s" % m for m in moved + ("rules",) if m != "tournament"} \
        & set(CORE_IDS)


def test_the_tables_pure_parts_are_walked_as_pure_and_the_game_keeps_none_of_them():
    assert {"rig.table.%s" % m for m in TABLE_PURE} <= set(PURE_IDS)
    for moved in ("museum", "protocol"):
        assert not (RIG / "games" / "cleptomano" / "rules" / (moved + ".py")).exists()


def test_no_rig_module_imports_the_simulator():
    bad = []
    for name, path in modules(RIG, "rig"):
        bad += ["%s:%d imports %s" % (path.relative_to(ROOT), line, target)
                for line, target in imported_names(path, package_of(name, path))
                if target.split(".")[0] == "sim"]
    assert bad == []


def test_importing_the_core_loads_no_hardware_and_starts_no_thread():
    code = (
        "import sys, json\n"
        + "".join("import %s\n" % m for m in PURE_IDS)
        + "loaded = sorted(set(m.split('.')[0] for m in sys.modules))\n"
        + "threads = None\n"
        + "if 'threading' in sys.modules:\n"
        + "    import threading; threads = threading.active_count()\n"
        + "print(json.dumps({'loaded': loaded, 'threads': threads}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    hardware = {"gpiozero", "RPi", "lgpio", "pigpio", "board", "busio", "digitalio", "serial",
                "pygame", "sim", "adafruit_blinka"}
    assert hardware.isdisjoint(report["loaded"])
    assert not [m for m in report["loaded"] if m.startswith("adafruit_")]
    assert report["threads"] in (None, 1)


def test_replay_reads_no_clock(monkeypatch):
    """A whole turn re-refereed with every clock function booby-trapped."""
    from rig.games.cleptomano.rules.replay import replay_lines

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


def test_the_check_itself_catches_impure_modules(tmp_path):
    source = (
        "import json\n"
        "from time import monotonic\n"
        "import threading as th\n"
        "import numpy\n"
        "from ..shell import config\n"
        "from . import levels\n"
        "def lazy():\n"
        "    import gpiozero\n"
        "    open('x')\n"
        "    return importlib.import_module('serial')\n"
    )
    folder = tmp_path / "rig" / "core"
    folder.mkdir(parents=True)
    path = folder / "impure.py"
    path.write_text(source, encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = core_violations("rig.core.impure", path)
    finally:
        ROOT = saved
    assert found == [
        "rig/core/impure.py:2 imports time (a clock, a thread or I/O)",
        "rig/core/impure.py:3 imports threading (a clock, a thread or I/O)",
        "rig/core/impure.py:4 imports numpy, which is not the standard library",
        "rig/core/impure.py:5 imports rig.shell, outside rig.core",
        "rig/core/impure.py:8 imports gpiozero, which is not the standard library",
        "rig/core/impure.py:9 calls open()",
        "rig/core/impure.py:10 imports a module by name at run time",
    ]


def test_every_error_of_the_tree_is_also_the_built_in_type_it_means():
    from rig.core import errors
    from rig.table.protocol import ProtocolError
    builtin = {
        errors.RulesError: ValueError, errors.LevelError: ValueError,
        errors.InvalidChoice: ValueError, errors.LootError: ValueError,
        errors.IllegalMove: ValueError, errors.ConfigError: ValueError,
        errors.RecordingError: ValueError, errors.RequestError: ValueError,
        errors.RecordingError: ValueError, errors.PayloadError: ValueError,
        errors.HardwareError: OSError,
        errors.SensorError: OSError, errors.HubError: OSError,
        errors.DisplayError: RuntimeError, ProtocolError: ValueError,
    }
    for cls, base in builtin.items():
        assert issubclass(cls, errors.RigError) and issubclass(cls, base), cls
    tree = {c for c in vars(errors).values()
            if isinstance(c, type) and issubclass(c, errors.RigError) and c is not errors.RigError}
    assert tree <= set(builtin)
