"""A disk that fills up or turns read-only on cue, under the rig's recording files.

Only the lowest layer is replaced: :mod:`rig.shell.storage` talks to the operating system through
``os.open`` and ``os.write``; :class:`FaultyDisk` stands in for the ``os`` module there and, for
files under one directory, answers as a full disk (ENOSPC, after writing what fitted of the
current write) or a read-only one (EROFS) would, until it is given space again::

    with FaultyDisk(recordings_dir) as disk:
        disk.fill()          # every write and every new file under recordings_dir fails
        ...                  # the rig keeps refereeing, holding its lines in memory
        disk.free()          # space again: the rig's next retry writes them all, in order
"""

import errno
import os
from pathlib import Path

from rig.shell import storage


class _Os:
    """Forwards to :mod:`os`, but for the faulty directory's files."""

    def __init__(self, disk):
        self._disk = disk

    def __getattr__(self, name):
        return getattr(os, name)

    def open(self, path, flags, mode=0o777, *args, **kwargs):
        disk = self._disk
        inside = disk.covers(path)
        if inside and disk.state is not None:
            if disk.state == "read-only" and flags & (os.O_WRONLY | os.O_RDWR):
                raise OSError(errno.EROFS, "Read-only file system", str(path))
            if disk.state == "full" and flags & os.O_CREAT and not Path(path).exists():
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
        fd = os.open(path, flags, mode, *args, **kwargs)
        if inside:
            disk.fds.add(fd)
        return fd

    def write(self, fd, data):
        disk = self._disk
        if disk.state is not None and disk.owns(fd):
            if disk.state == "read-only":
                raise OSError(errno.EROFS, "Read-only file system")
            fits = max(0, min(len(data), disk.room))
            if fits == 0:
                raise OSError(errno.ENOSPC, "No space left on device")
            disk.room -= fits
            return os.write(fd, data[:fits])
        return os.write(fd, data)

    def close(self, fd):
        self._disk.fds.discard(fd)
        self._disk._others.discard(fd)
        return os.close(fd)


class FaultyDisk:
    """The disk under ``directory``: healthy until :meth:`fill` or :meth:`read_only`."""

    def __init__(self, directory):
        self.directory = Path(directory).resolve()
        self.state = None          # None (healthy), "full", "read-only"
        self.room = 0              # bytes a full disk still takes (cut mid-line)
        self.fds = set()
        self._others = set()
        self._saved = None

    def owns(self, fd):
        """Whether ``fd`` is a file under the directory (opened before the disk was faulty
        too: the kernel knows each descriptor's path)."""
        if fd not in self.fds and fd not in self._others:
            try:
                path = os.readlink("/proc/self/fd/%d" % fd)
            except OSError:
                path = None
            (self.fds if path is not None and self.covers(path) else self._others).add(fd)
        return fd in self.fds

    def covers(self, path):
        try:
            return Path(path).resolve().is_relative_to(self.directory)
        except (OSError, ValueError):
            return False

    def fill(self, room_bytes=0):
        """From now on the disk takes ``room_bytes`` more, then refuses every write."""
        self.state, self.room = "full", room_bytes

    def read_only(self):
        self.state = "read-only"

    def free(self):
        self.state = None

    def __enter__(self):
        self._saved = storage.os
        storage.os = _Os(self)
        return self

    def __exit__(self, *exc):
        storage.os = self._saved
