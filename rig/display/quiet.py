"""Keeping SDL's probes from printing noise, without hiding what went wrong.

Opening a window and the mixer makes SDL try its drivers one after another, and two libraries
underneath print to the process's stderr themselves, not through SDL's errors:

* libwayland prints ``error: XDG_RUNTIME_DIR is invalid or not set in the environment.`` each
  time a driver tries Wayland while that variable is unset or not an absolute path (a service,
  ``sudo``, an SSH session).  Wayland cannot be reached that way anyway (its socket lives in that
  directory), so :func:`runtime_dir` points it at a private empty directory for the probe:
  Wayland then fails quietly, and SDL's own error still names why.
* ALSA's library prints eight ``ALSA lib ...`` lines when there is no sound card.
  :func:`alsa_chatter` catches stderr at the file-descriptor level around the mixer's probe and
  writes back everything that is not ALSA's; the ALSA lines are returned, so the one warning the
  rig logs ("no audio device") can quote the last of them.

Both only act around a probe; nothing is silenced for the rest of the run.
"""

import contextlib
import os
import sys
import tempfile

ALSA_PREFIX = b"ALSA lib "


def _wayland_unreachable(env):
    """libwayland's test: no usable runtime directory and no absolute socket path."""
    runtime = env.get("XDG_RUNTIME_DIR", "")
    return not runtime.startswith("/") and not env.get("WAYLAND_DISPLAY", "").startswith("/")


@contextlib.contextmanager
def runtime_dir(env=os.environ):
    """While the video drivers are tried: a private XDG_RUNTIME_DIR if there is no usable one
    (restored, and the directory removed, afterwards)."""
    if not _wayland_unreachable(env):
        yield
        return
    old = env.get("XDG_RUNTIME_DIR")
    with tempfile.TemporaryDirectory(prefix="cleptomano-xdg-") as private:   # mode 0700
        env["XDG_RUNTIME_DIR"] = private
        try:
            yield
        finally:
            if old is None:
                env.pop("XDG_RUNTIME_DIR", None)
            else:
                env["XDG_RUNTIME_DIR"] = old


@contextlib.contextmanager
def alsa_chatter(fd=2):
    """Catch what is written to ``fd`` (stderr) meanwhile; on the way out, write back every line
    that is not ALSA's own.  Yields the list that then holds what ALSA's lines said (their text
    after the source location)."""
    dropped = []
    try:
        sys.stderr.flush()
        saved = os.dup(fd)
    except (OSError, ValueError, AttributeError):    # no usable stderr: nothing to keep clean
        yield dropped
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), fd)
        try:
            yield dropped
        finally:
            try:
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
            os.dup2(saved, fd)
            os.close(saved)
            caught.seek(0)
            kept = []
            for line in caught.read().splitlines(keepends=True):
                if line.startswith(ALSA_PREFIX):   # "ALSA lib pcm.c:2666:(func) Unknown PCM"
                    words = line.decode("utf-8", "replace").strip()
                    dropped.append(words.split(") ", 1)[-1])
                else:
                    kept.append(line)
            data = b"".join(kept)
            while data:
                data = data[os.write(fd, data):]
