"""The rig as a builder installs it: the wheel, not this checkout.

``systemd/install.sh`` pip-installs the project (not editable), so whatever the wheel leaves out
is missing on the Pi. One wheel is built per session from a copy of the working tree, installed
into a fresh venv in a temporary directory, and everything here runs that venv's ``python`` and
``cleptomano`` with the working directory outside the checkout: every module of the wheel
imports from the venv, the default pin map and the firmware's relic logic are found there, and
``screenshot``, ``replay`` and a short simulated match (with the virtual relic hub) work.
Third-party packages come from PyPI (through pip's cache after the first run).

The wheel is built the way a Pi builds it: by pip, for a plain venv outside the checkout
(``python -m venv``: no editable install, no ``rig`` importable, checked), with the working
directory outside the checkout and no PYTHONPATH, so the build step sees only the build
requirements pip installs in its isolated environment.  (Built with this venv's pip, whose
editable install makes ``rig`` importable everywhere, a build step that imported the project
passed here and failed on every Pi.)  The copy holds a stale ``build/lib`` with a module that
has no source, as a failed or older build leaves behind: the wheel must not carry it.

Two tiers. ``make test`` builds the wheel (this venv's pip, run for the plain venv's
interpreter: ``pip --python``, so no pip is installed into it) and unpacks it (what pip does
with a pure wheel, less the launcher script) into a directory, then runs this interpreter
without its site hook (``python -S``) on that directory and this venv's third-party packages
alone: the checkout's editable install is never loaded (its finder comes from a .pth file, which
only the site hook reads), so a module or data file the wheel leaves out is missing there too.
``make test-heavy`` installs it with pip, with its dependencies, into a fresh venv, and runs its
``cleptomano``; and builds the wheel again from a clean copy with the pip Debian bookworm and
Raspberry Pi OS ship (23.0.1, in a plain venv of its own, from PyPI) and with ``python -m
build`` (sdist, then the wheel from it): both give the same files, byte for byte.
"""

import compileall
import json
import os
import shutil
import struct
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from sim.script import demo_match

REPO = Path(__file__).resolve().parent.parent
# Left out of the copy the wheel is built from: what is not source, and build leftovers that
# setuptools would otherwise pack (a stale build/lib keeps modules deleted since).
NOT_SOURCE = {".git", ".venv", "build", "dist", "recordings", ".pytest_cache", ".hypothesis"}
# The MicroPython test tier's code and downloads (npm, pip --target) and the browser tests'
# Node driver (npm): no part of the rig.
NOT_IN_WHEEL = (REPO / "sim/micropython", REPO / "sim/browser")
PACKAGES = ("rig", "sim", "relichub")
BUILD_TIMEOUT_S = 300

CLI = "import sys; from rig.cli import main; sys.exit(main(sys.argv[1:]))"


def run(args, cwd, timeout_s=120, path=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NOTIFY_SOCKET")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1")
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in path)
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout_s)
    assert result.returncode == 0, "%s failed:\n%s%s" % (args, result.stdout, result.stderr)
    return result


def _ignore(directory, names):
    top = Path(directory) == REPO
    # The compiled catalogs (.mo) are left out too, as a clean checkout has none: the wheel's
    # own build step must make them.
    return {n for n in names if (top and n in NOT_SOURCE) or n == "__pycache__"
            or n.endswith((".egg-info", ".mo")) or Path(directory, n) in NOT_IN_WHEEL}


def _sources(folder):
    """Every file of the rig's own under ``folder``: modules and data files alike."""
    return [p for p in (REPO / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts
            and not any(d in p.parents for d in NOT_IN_WHEEL) and p.suffix != ".pyc"]


#: What a failed or older build leaves in the tree: a module whose source is gone.
STALE = "build/lib/rig/left_by_an_old_build.py"


def _copy(tree, to):
    return shutil.copytree(tree, to, symlinks=True)


@pytest.fixture(scope="session")
def clean_tree(tmp_path_factory):
    """A copy of the working tree as a fresh clone has it (no compiled catalogs, no build),
    taken once: every wheel of the session is built from a copy of it."""
    tree = tmp_path_factory.mktemp("tree") / "src"
    shutil.copytree(REPO, tree, symlinks=True, ignore=_ignore)
    return tree


def plain_venv(where, with_pip=False):
    """A venv as ``python3 -m venv`` makes it, outside the checkout, and its python: the
    checkout's ``rig`` must not be importable there (the build must not need it)."""
    run([sys.executable, "-m", "venv", *(() if with_pip else ("--without-pip",)), where],
        cwd=where.parent)
    python = where / "bin/python"
    probe = subprocess.run([python, "-c", "import rig"], cwd=where.parent, capture_output=True,
                           text=True, timeout=60, env={k: v for k, v in os.environ.items()
                                                       if k != "PYTHONPATH"})
    assert "No module named 'rig'" in probe.stderr, "rig is importable in %s" % where
    return python


def wheel_files(path):
    """Every file of a wheel and its bytes, less RECORD (which only hashes the others)."""
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if not n.endswith(".dist-info/RECORD")}


@pytest.fixture(scope="session")
def wheel(clean_tree, tmp_path_factory):
    """The wheel and pip's build output, built from a clean copy of the working tree by pip for
    a plain venv, outside the checkout."""
    base = tmp_path_factory.mktemp("wheel")
    source = _copy(clean_tree, base / "src")
    (source / STALE).parent.mkdir(parents=True)
    (source / STALE).write_text("raise ImportError('a module of an old build')\n")
    python = plain_venv(base / "plain")
    built = run([sys.executable, "-m", "pip", "--python", python, "wheel", "--no-deps",
                 "--wheel-dir", base / "dist", source], cwd=base, timeout_s=BUILD_TIMEOUT_S)
    (path,) = (base / "dist").glob("cleptomano_rig-*.whl")
    return path, built.stdout + built.stderr


@dataclass(frozen=True)
class Installed:
    """Where the wheel's files went, and how to run its Python and its ``cleptomano``."""
    root: Path                  # the directory that holds the wheel's packages
    python: tuple               # the interpreter, with what it needs to see only the wheel
    cleptomano: tuple           # the command
    path: tuple = None          # PYTHONPATH, if any

    def run(self, args, cwd, timeout_s=120):
        return run(list(args), cwd, timeout_s, self.path)


@pytest.fixture(scope="session")
def unpacked(wheel, tmp_path_factory):
    """The wheel unpacked into a directory, run by this interpreter without its site hook on
    that directory and this venv's third-party packages (never the checkout)."""
    root = tmp_path_factory.mktemp("unpacked")
    zipfile.ZipFile(wheel[0]).extractall(root)
    compileall.compile_dir(root, quiet=1)         # as pip does when it installs
    purelib = Path(sysconfig.get_paths()["purelib"])
    python = (sys.executable, "-S")
    return Installed(root, python, python + ("-c", CLI), (root, purelib))


@pytest.fixture(scope="session")
def venv(wheel, tmp_path_factory):
    """A fresh venv outside the checkout with the wheel installed (pip, its dependencies
    from PyPI); how to run it."""
    home = tmp_path_factory.mktemp("installed")
    # Without a pip of its own (seconds saved): this session's pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", home / "venv"], cwd=home)
    run([sys.executable, "-m", "pip", "--python", home / "venv/bin/python", "install", "--quiet",
         wheel[0]], cwd=home, timeout_s=BUILD_TIMEOUT_S)
    python = home / "venv/bin/python"
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                  cwd=home).stdout.strip()
    return Installed(Path(purelib), (python,), (home / "venv/bin/cleptomano",))


# Half a minute of pip and a fresh venv: `make test-heavy` (and .ci/run), not `make test`.
@pytest.fixture(params=["unpacked", pytest.param("venv", marks=pytest.mark.heavy)])
def installed(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def outside(tmp_path):
    """A working directory with nothing of the checkout in it."""
    assert REPO not in tmp_path.parents
    return tmp_path


def test_the_build_gives_no_deprecation_warning(wheel):
    _, output = wheel
    assert "deprecat" not in output.lower(), output


def test_the_wheel_holds_every_package_and_data_file(wheel):
    names = zipfile.ZipFile(wheel[0]).namelist()
    for folder in ("rig", "sim"):
        for source in _sources(folder):
            assert source.relative_to(REPO).as_posix() in names
    assert not any(n.startswith(("sim/micropython/", "sim/browser/")) for n in names)
    for source in (REPO / "firmware/relichub").glob("*.py"):
        assert "relichub/" + source.name in names
    # The pin map is a copy of wiring/pinmap.toml, not the link in the repo.
    info = zipfile.ZipFile(wheel[0]).getinfo("rig/data/pinmap.toml")
    assert zipfile.ZipFile(wheel[0]).read(info) == (REPO / "wiring/pinmap.toml").read_bytes()
    assert not any(n.startswith(("tests/", "firmware/", "wiring/")) for n in names)
    # Built from the tree's sources alone: not what a build left in build/lib.
    assert STALE.removeprefix("build/lib/") not in names


IMPORT_ALL = r"""
import importlib, json, pathlib, sys
site = pathlib.Path(sys.argv[1])
names = []
for package in sys.argv[2:]:
    for path in sorted((site / package).rglob("*.py")):
        parts = path.relative_to(site).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
where = {name: importlib.import_module(name).__file__ for name in names}
from rig.shell.config import DEFAULT_PINMAP_PATH, load_config
where["pinmap"] = str(DEFAULT_PINMAP_PATH)
where["pinmap inputs"] = len(load_config().pinmap.inputs)
print(json.dumps(where))
"""


def test_every_module_of_the_wheel_imports_from_where_it_was_installed(installed, outside):
    where = json.loads(installed.run([*installed.python, "-c", IMPORT_ALL, installed.root,
                                      *PACKAGES], cwd=outside).stdout)
    inputs = where.pop("pinmap inputs")
    assert {"rig.display.window", "rig.games.canine.rules", "sim.relichub", "sim.tools.bench",
            "relichub.hub"} <= set(where)
    for name, path in where.items():
        assert Path(path).is_relative_to(installed.root), "%s comes from %s" % (name, path)
    assert inputs > 0


def test_screenshot_renders_a_png(installed, outside):
    out = outside / "turn.png"
    result = installed.run([*installed.cleptomano, "screenshot", "turn", out], cwd=outside)
    assert result.stdout.strip() == str(out)
    header = out.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (800, 480)


SAY = r"""
from rig.core.msg import Msg
from rig.words import Words, catalog_file
print(catalog_file("rig", "ro"))
for lang in ("en", "es", "fr", "ro"):
    print(Words(lang).text(Msg("rig.phones.wrong_codes", n=20)))
"""


def test_the_wheel_carries_the_compiled_catalogs_and_speaks_every_language(wheel, installed,
                                                                          outside):
    names = zipfile.ZipFile(wheel[0]).namelist()
    for lang in ("en", "es", "fr", "ro"):              # built by the wheel's build step
        assert "rig/locale/%s/LC_MESSAGES/rig.mo" % lang in names
        assert "rig/games/stop_thief/locale/%s/LC_MESSAGES/stop_thief.mo" % lang in names
    said = installed.run([*installed.python, "-c", SAY], cwd=outside).stdout.splitlines()
    assert Path(said[0]).is_relative_to(installed.root)
    assert said[1:] == ["20 WRONG CODES: pairing", "20 CÓDIGOS ERRÓNEOS: emparejar",
                        "20 CODES FAUX : appairage", "20 DE CODURI GREȘITE: asociere"]
    out = outside / "turn-ro.png"
    installed.run([*installed.cleptomano, "screenshot", "turn", out, "--lang", "ro"],
                  cwd=outside)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_replay_gives_the_recorded_result(installed, outside):
    recording = shutil.copy(REPO / "tests/recordings/three_player_match.jsonl", outside)
    result = installed.run([*installed.cleptomano, "replay", recording], cwd=outside)
    expected = json.loads((REPO / "tests/recordings/three_player_match.json").read_text())
    assert json.loads(result.stdout) == expected


#: Ana starts her turn, reaches in and touches laser 4 once.
SHORT_TURN = ((1.0, "button", 1), (1.6, "button", 0), (2.0, "tof", 150), (3.0, "laser.4", 1),
              (3.3, "laser.4", 0), (3.8, "tof", 150))


@pytest.mark.heavy      # seconds of a real-time match
def test_a_simulated_match_runs_with_the_virtual_hub_and_its_recording_replays(venv, outside):
    # The demo's header and a turn of its own, with presses long enough (0.3-0.6 s) that a
    # loaded machine, which may run the playing thread late, cannot shorten them into noise.
    lines = [demo_match().lines()[0]] + [json.dumps(dict(t=t, input=name, value=value)) for
                                         t, name, value in SHORT_TURN]
    short = outside / "short.jsonl"
    short.write_text("\n".join(lines) + "\n")
    recordings = outside / "recordings"
    result = venv.run([*venv.cleptomano, "run", "--sim", "--headless", "--demo", short,
                       "--recordings", recordings, "--duration-s", "30"], cwd=outside,
                      timeout_s=60)
    assert "Recording: " in result.stderr
    (recorded,) = recordings.glob("match-*.jsonl")
    # The demo scripts no relic: their readings come from the firmware's logic, on a pty.
    assert not any("relic." in line for line in lines)
    inputs = {json.loads(line).get("input") for line in recorded.read_text().splitlines()}
    assert {"relic.1.tilt", "relic.2.tilt", "relic.3.tilt"} <= inputs
    replayed = json.loads(venv.run([*venv.cleptomano, "replay", recorded], cwd=outside).stdout)
    assert replayed["players"] == json.loads(lines[0])["players"]
    turn = replayed["turns"][0]
    assert (turn["thief"], turn["outcome"], turn["touches"]) == ("Ana", "unfinished", 1)


#: The pip of Debian bookworm and Raspberry Pi OS (bookworm), which install.sh finds there.
BOOKWORM_PIP = "pip==23.0.1"


def _with_old_pip(base, source):
    python = plain_venv(base / "venv", with_pip=True)
    run([python, "-m", "pip", "install", "--quiet", BOOKWORM_PIP], cwd=base,
        timeout_s=BUILD_TIMEOUT_S)
    assert run([python, "-m", "pip", "--version"], cwd=base).stdout.startswith("pip 23.0.1 ")
    run([python, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", base / "dist", source],
        cwd=base, timeout_s=BUILD_TIMEOUT_S)


def _with_build(base, source):
    python = plain_venv(base / "venv", with_pip=True)
    run([python, "-m", "pip", "install", "--quiet", "build"], cwd=base, timeout_s=BUILD_TIMEOUT_S)
    run([python, "-m", "build", "--outdir", base / "dist", source], cwd=base,
        timeout_s=BUILD_TIMEOUT_S)


# A minute of pip under a plain venv, from PyPI: `make test-heavy` (and .ci/run).
@pytest.mark.heavy
@pytest.mark.parametrize("build", [_with_old_pip, _with_build],
                         ids=["pip-23.0.1", "python-m-build"])
def test_bookworms_pip_and_python_m_build_give_the_same_wheel(build, wheel, clean_tree,
                                                               tmp_path):
    build(tmp_path, _copy(clean_tree, tmp_path / "src"))
    (path,) = (tmp_path / "dist").glob("cleptomano_rig-*.whl")
    theirs, ours = wheel_files(path), wheel_files(wheel[0])
    assert sorted(theirs) == sorted(ours)
    catalogs = {po.relative_to(REPO).with_suffix(".mo").as_posix()
                for po in (REPO / "rig").glob("**/locale/*/LC_MESSAGES/*.po")}
    assert catalogs and catalogs <= set(theirs)
    assert [name for name in ours if theirs[name] != ours[name]] == []
