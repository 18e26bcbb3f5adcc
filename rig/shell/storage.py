"""Recording files on disk: read one, repair a torn one, append to one (shell code).

The format itself is pure and lives in :mod:`rig.core.recording`; this module is the only one that
opens recording files.  :class:`Writer` flushes every line to the operating system and fsyncs
when asked (at turn boundaries and penalties, from the daemon's sync thread).
"""

import json
import os

from ..core import recording
from ..core.errors import RecordingError
from ..core.replay import replay
from . import files


def read(path):
    """The recording at ``path`` as ``(header, items)``, or one RecordingError naming the file
    (and the line) and what is wrong.  Only a regular file is read, a line at a time, each
    ending at ``"\\n"`` only: that is how the writer ends them, and the text between may hold
    U+2028 or U+0085, which ``str.splitlines`` would split on."""
    try:
        f = files.open_regular(path)
    except OSError as exc:
        raise RecordingError("cannot be read: %s; give the path of a recording (a "
                             "match-*.jsonl file)" % exc.strerror, path=path) from None
    with f:
        return recording.parse_lines(_lines(f), path)


def _lines(f):
    """The text of each line of the binary file ``f``, without its ``"\\n"``.  A line longer
    than a recording's longest is handed on cut short, and nothing after it (the parser refuses
    it by its length, and the rest of it is never read)."""
    for number, raw in enumerate(iter(lambda: f.readline(recording.MAX_LINE_BYTES + 1), b""), 1):
        if len(raw) > recording.MAX_LINE_BYTES and not raw.endswith(b"\n"):
            yield raw.decode("utf-8", "replace")   # every byte stays at least one byte long
            return
        try:
            yield raw.removesuffix(b"\n").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordingError("is not UTF-8 text (byte %d of the line: %s); save the file as "
                                 "UTF-8" % (exc.start + 1, exc.reason), line=number) from None


def repair(path):
    """Cut a torn last line (the rig lost power in the middle of writing it).  Returns a
    sentence saying what was cut, or None when the file was whole."""
    with open(path, "rb+") as f:
        data = f.read()
        if not data or data.endswith(b"\n"):
            return None
        cut = data.rfind(b"\n") + 1
        f.truncate(cut)
    return "cut a torn last line of %d bytes (written when the rig stopped)" % (len(data) - cut)


def is_finished(path):
    """True when the recording's last line is the end line."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - 200))
        tail = f.read().rstrip().rsplit(b"\n", 1)[-1]
    try:
        return json.loads(tail).get("end") is True
    except (ValueError, AttributeError):
        return False


def replay_file(path):
    """Re-referee the recording at ``path``; the replay output (see README)."""
    return replay(*read(path), path)


class Writer:
    """Appends lines to a recording file: every line flushed, fsync on :meth:`sync`."""

    def __init__(self, path, header=None):
        self.path = path
        self._file = open(path, "a", encoding="utf-8")
        if header is not None:
            self.write_obj(header.to_json())
            self.sync()

    def write_obj(self, obj):
        self._file.write(recording.dumps(obj) + "\n")
        self._file.flush()

    def write(self, item):
        self.write_obj(recording.item_to_json(item))

    def sync(self):
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self):
        if not self._file.closed:
            self.sync()
            self._file.close()
