"""A test game's catalogs compiled where its tests find them (``.mo`` beside each ``.po``; they
are not in git), one test process at a time: the workers of ``pytest -n`` share the folder, and
two compiling at once would trip over each other's files."""

import fcntl
import tempfile
import zlib
from pathlib import Path

from rig import catalogs


def compile_catalogs(folder):
    """Compile every catalog under ``folder``, holding a lock file named after it."""
    lock = Path(tempfile.gettempdir()) / ("catalogs-%08x.lock" % zlib.crc32(str(folder).encode()))
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            catalogs.compile_all(root=folder)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
