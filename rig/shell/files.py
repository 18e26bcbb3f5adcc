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


#: A file a config names (a board, a card table, a score sheet) is a few KB of text.
MAX_TEXT_BYTES = 1 << 20


def read_text(path, max_bytes=MAX_TEXT_BYTES):
    """The UTF-8 text of the regular file at ``path``, read no further than ``max_bytes``.
    Raises :class:`OSError` as :func:`open_regular` does (and when the file is longer, saying
    so), or :class:`UnicodeDecodeError`."""
    with open_regular(path) as f:
        raw = f.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise OSError(0, "it is longer than %d bytes; such a file is a few KB of text (is this "
                         "the right file?)" % max_bytes, str(path))
    return raw.decode("utf-8")
