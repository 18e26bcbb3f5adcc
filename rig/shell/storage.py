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


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as exc:
        raise RecordingError("is not UTF-8 text (%s)" % exc.reason, path=path, line=1) from None
    except OSError as exc:
        raise RecordingError("cannot be read: %s; check the path" % exc.strerror,
                             path=path) from None
    return recording.parse_lines(text.splitlines(), path)


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
