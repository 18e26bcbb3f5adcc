"""systemd/pi-check.sh (``make pi-check``) as far as it runs without booting anything.

The check itself needs root and many minutes, so it is not part of ``make test``; these tests
keep the script honest in between: it lints clean, documents itself and refuses what it does
not know before touching anything.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "systemd" / "pi-check.sh"


def pi_check(*args):
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=30)


def test_help_says_what_is_checked_and_what_is_changed():
    result = pi_check("--help")
    assert result.returncode == 0
    for check in ("install", "ready", "sandbox", "recording", "words", "hub", "watchdog"):
        assert "\n  %s " % check in result.stdout
    assert "PrivateNetwork=no" in result.stdout
    assert "set -euo" not in result.stdout


def test_an_unknown_option_is_refused_before_anything_runs():
    result = pi_check("--frobnicate")
    assert result.returncode == 1
    assert "unknown option '--frobnicate'" in result.stderr
    assert "--keep" in result.stderr
    assert result.stdout == ""


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (Debian package 'shellcheck')")
def test_pi_check_is_shellcheck_clean():
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout
