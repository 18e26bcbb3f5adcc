"""Recording files on disk: read one, repair a torn one, append to one (shell code).

The format itself is pure and lives in :mod:`rig.core.recording`; this module is the only one that
opens recording files.  :class:`Writer` flushes every line to the operating system and fsyncs
when asked (at turn boundaries and penalties, from the daemon's sync thread).
"""

import json
import os
import threading
from pathlib import Path

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


def closing_command(path):
    """The ``new_match`` command that closed the finished recording at ``path`` (its last line
    before the end line), or None: the next recording was opened with its settings."""
    with open(path, "rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - 4096))
        tail = f.read().rstrip().split(b"\n")[-2:]
    if len(tail) < 2:
        return None
    try:
        obj = json.loads(tail[0])
        if not isinstance(obj, dict) or "new_match" not in obj:
            return None
        return recording.parse_item(obj, 0)
    except (ValueError, RecordingError):
        return None


def recent_players(directory, recordings=30):
    """The players of the newest ``recordings`` recordings in ``directory``, newest first, each
    name once (read from their headers; a file that cannot be read is passed over)."""
    names, seen = [], set()
    for path in sorted(Path(directory).glob("match-*.jsonl"), reverse=True)[:recordings]:
        try:
            with open(path, encoding="utf-8") as f:
                header = json.loads(f.readline())
        except (OSError, ValueError):
            continue
        players = header.get("players") if isinstance(header, dict) else None
        for name in players if isinstance(players, list) else ():
            if isinstance(name, str) and name.strip() and name.casefold() not in seen:
                seen.add(name.casefold())
                names.append(name)
    return names


def replay_file(path):
    """Re-referee the recording at ``path``; the replay output (see README)."""
    return replay(*read(path), path)


def sync_directory(path):
    """fsync a directory, so that a file just created in it survives a power cut."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Writer:
    """One recording file, appended to with whole ``os.write`` calls on an unbuffered
    descriptor: every byte is either handed to the operating system or known not to be (no
    hidden buffer to lose lines in when the disk is full).  The file is created on the first
    write, and its directory fsynced then."""

    def __init__(self, path):
        self.path = Path(path)
        self._fd = None
        self._lock = threading.Lock()     # the sync thread fsyncs while the referee writes

    def write(self, data):
        """Write ``data`` (bytes); returns how many were written (fewer on a disk that has just
        filled up).  Raises OSError when nothing could be written."""
        if self._fd is None:
            created = not self.path.exists()
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC,
                               0o666)
            if created:
                sync_directory(self.path.parent)
        return os.write(self._fd, data)

    def sync(self):
        with self._lock:
            if self._fd is not None:
                os.fsync(self._fd)

    def close(self):
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is not None:
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)


def append_line(path, item):
    """Append one recording line to ``path`` and sync it (closing another match's file)."""
    writer = Writer(path)
    try:
        data = (recording.dumps(recording.item_to_json(item)) + "\n").encode("utf-8")
        if writer.write(data) != len(data):
            raise OSError("the disk is full: the line was cut")
    finally:
        writer.close()
