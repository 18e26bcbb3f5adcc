"""Opening a file a person named on the command line or in a config: a regular file only,
read no further than such a file can be (:func:`read_text`), or a CA file as the TLS context
that trusts it (:func:`load_ca_file`).  Below the games and the shell: a game reads the files its
settings name, and the shell's config checks a tournament's CA file, with these alone.

``cleptomano replay /dev/zero`` would read until memory runs out, a named pipe would block until
someone writes to it, and a directory cannot be read at all.  So the path is checked before it
is opened (a serial port is never opened by mistake), opened without blocking, and checked again
on the open file (the path may have changed in between).
"""

import os
import ssl
import stat

from .core.errors import ConfigError

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


#: A CA file is a few certificates: a larger file is not one.
MAX_CA_FILE_BYTES = 256 * 1024


def load_ca_file(path, key=None):
    """The TLS context that trusts the CA certificates (PEM) of the file at ``path`` and no
    other, checking the broker's name; ConfigError naming ``key``, the file and the fix when
    it cannot be read or holds no certificate.  Called at start-up (a rig's ``[tournament]
    ca_file``, the leaderboard's ``--ca-file``), so a bad file is one line, never a crash at
    the first connection."""
    fix = ("give the CA certificate (PEM, \"-----BEGIN CERTIFICATE-----\") that signed the "
           "broker's certificate: make-users.sh puts it beside each password as ca.crt")
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_CA_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError("%s cannot be read (%s); %s" % (path, exc.strerror or exc, fix),
                          key=key) from None
    if len(raw) > MAX_CA_FILE_BYTES:
        raise ConfigError("%s is more than %d KiB, not a CA certificate; %s"
                          % (path, MAX_CA_FILE_BYTES // 1024, fix), key=key)
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        text = None
    fresh = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)       # trusts nothing until told
    fresh.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        if text is None or "-----BEGIN CERTIFICATE-----" not in text:
            raise ValueError("no PEM certificate in it")
        fresh.load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError) as exc:
        raise ConfigError("%s is not a CA certificate (%s); %s"
                          % (path, getattr(exc, "reason", None) or exc, fix), key=key) from None
    if not fresh.cert_store_stats().get("x509"):
        raise ConfigError("%s holds no certificate; %s" % (path, fix), key=key)
    return fresh
