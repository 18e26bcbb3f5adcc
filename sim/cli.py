"""The command line as the tests run it: ``cleptomano ARGV`` in this process (an exception that
escapes :func:`rig.cli.main` fails the test) or as a user runs it, in a child process."""

import contextlib
import io
import subprocess
import sys
from pathlib import Path

from rig import cli


def run(*argv):
    """``cleptomano ARGV`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def run_child(*argv, timeout_s=60):
    """``cleptomano ARGV`` as a user runs it (the installed script), in a child process:
    (exit status, stdout, stderr)."""
    script = Path(sys.executable).with_name("cleptomano")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "rig.cli"]
    done = subprocess.run(command + [str(a) for a in argv], capture_output=True, text=True,
                          timeout=timeout_s, stdin=subprocess.DEVNULL)
    return done.returncode, done.stdout, done.stderr
