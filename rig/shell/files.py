"""Opening a file a person named on the command line or in a config: a regular file only.

``cleptomano replay /dev/zero`` would read until memory runs out, a named pipe would block until
someone writes to it, and a directory cannot be read at all.  So the path is checked before it
is opened (a serial port is never opened by mistake), opened without blocking, and checked again
on the open file (the path may have changed in between).
"""

import os
import stat

_NOT_FILES = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
              (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
              (stat.S_ISSOCK, "a socket"))


def _check_regular(mode, path):
    if stat.S_ISREG(mode):
        return
    kind = next((what for test, what in _NOT_FILES if test(mode)), "not a regular file")
    raise OSError(0, "it is %s, not a file" % kind, str(path))


def open_regular(path):
    """Open the regular file at ``path`` to read bytes.  Raises :class:`OSError`, whose
    ``strerror`` says why in words: the system's ("No such file or directory") or what the path
    is instead ("it is a named pipe (FIFO), not a file")."""
    try:
        mode = os.stat(path).st_mode
    except ValueError:       # no file system path holds one
        raise OSError(0, "the path holds a NUL character", str(path)) from None
    _check_regular(mode, path)
    # O_NONBLOCK: a FIFO put in the file's place meanwhile cannot block the open (it changes
    # nothing for a regular file's reads).
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        _check_regular(os.fstat(fd).st_mode, path)
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")
