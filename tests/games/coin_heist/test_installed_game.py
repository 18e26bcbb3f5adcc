"""The test game, the coin heist (tests/coin_heist/), packaged as a distribution of its own
(tests/coin_heist_dist/pyproject.toml), built and installed by real pip into a venv of its own,
and found by the rig through its entry point in the group ``cleptomano.games``: no file of the
rig changed, no ``register()`` call.  It plays through the game host at the keys, the screen,
the phones, ``replay``, ``history`` and the resume after a cut (tests/coin_heist_dist/play.py,
run by the venv's Python where the test suite's copy cannot be imported).

The quick test that the registry takes a game from an entry point object is in
tests/test_registration.py; this one needs a venv and pip: seconds."""

import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from rig import catalogs

HERE = Path(__file__).resolve().parents[2]        # tests/ (this file: tests/games/coin_heist/)
ROOT = HERE.parent


def _run(*command, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.heavy            # a venv, a real pip build and install, a Python of its own
def test_the_coin_heist_installed_through_its_entry_point_plays_everywhere(tmp_path):
    rig_files = {p: p.read_bytes() for p in (ROOT / "rig").rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".mo"}
    source = tmp_path / "src"
    shutil.copytree(HERE / "coin_heist", source / "coin_heist",
                    ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    shutil.copy2(HERE / "coin_heist_dist" / "pyproject.toml", source / "pyproject.toml")
    catalogs.compile_all(root=source / "coin_heist")     # the built distribution carries .mo

    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                   cwd=tmp_path).strip()
    # The rig and its dependencies as this test runs them (its editable install too): the new
    # venv sees them through a site directory; the coin heist is installed into the venv alone.
    (Path(purelib) / "the_rig.pth").write_text(
        "import site; site.addsitedir(%r)\n" % site.getsitepackages()[0], "utf-8")
    # Built as pip builds any project: setuptools in an isolated build environment (from pip's
    # cache or index, as tests/test_wheel.py builds the rig's own wheel).
    _run(python, "-m", "pip", "install", "--quiet", "--no-deps", source, cwd=tmp_path)
    listed = _run(python, "-m", "pip", "list", "--path", purelib, "--format", "json",
                  cwd=tmp_path)
    assert {"name": "coin-heist", "version": "1.0.0"} in json.loads(listed)

    work = tmp_path / "work"
    work.mkdir()
    seen = json.loads(_run(python, HERE / "coin_heist_dist" / "play.py", work, cwd=work)
                      .strip().splitlines()[-1])
    assert seen["names"] == ["cleptomano", "stop-thief", "stolen-paintings", "chest-heist",
                             "canine", "coin-heist"]
    assert seen["installed"] == {"coin-heist": "coin_heist"}
    assert Path(seen["package"]).is_relative_to(Path(purelib))      # the installed copy
    assert seen["played"]["flips"] == 2 and seen["coin_pixels"] > 2000
    assert seen["resumed"]["path"] == str(work / "recordings" / seen["recording"])
    assert seen["resumed"]["view"]["flips"] == 2
    assert seen["resumed"]["view"]["jewels"] == seen["played"]["jewels"]
    assert seen["over"]["winner"] == "Ana" and "fanfare" in seen["heard"]
    assert seen["replay"] == {"status": 0, "same": True}
    assert seen["history"] == ["%s  Coin heist: Ana, Ben  Ana won (jewels: Ana 3 and Ben 0)"
                               % seen["recording"]]
    assert seen["target"] == 2
    assert seen["phone"]["status"] == 200 and seen["phone"]["last"]["called"] == "heads"
    assert seen["phone"]["script"] == 200 and seen["phone"]["script_is_installed"]
    assert seen["phone"]["listed"][-1] == "coin-heist"
    assert {p: p.read_bytes() for p in rig_files} == rig_files    # no file of the rig changed
