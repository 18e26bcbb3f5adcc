"""Recording files on disk: read one, repair a torn one, append to one (shell code).

Each format is pure and lives in its game's folder (a line is JSON, :mod:`rig.core.jsonl`); this
module names no game (it asks the game's contract, :mod:`rig.core.contract`) and is the only one
that opens recording files.  :class:`Writer` flushes every line to the operating system
and fsyncs when asked (at turn boundaries and penalties, from the daemon's sync thread).
"""

import errno
import fcntl
import hashlib
import io
import os
import re
import threading
from pathlib import Path

from ..core import jsonl
from ..core.names import name_problem, normal, same_name_key
from ..core.bounded import json_depth
from ..core.errors import ConfigError, RecordingError, RigError
from ..games import at_table, by_recording, games
from .. import files


#: The header's key that names a recording's game (every game's: :func:`rig.games.by_recording`).
_MAGIC = "recording"


def _home():
    """The game whose recordings the rig reads item by item when nothing else names one: the
    registry's first (Cleptómano's matches, ``match-*.jsonl``)."""
    return games()[0]


def read(path, torn=None, game=None):
    """The recording at ``path`` as ``(header, items)``, or one RecordingError naming the file
    (and the line) and what is wrong.  Only a regular file is read, a line at a time, each
    ending at ``"\\n"`` only: that is how the writer ends them, and the text between may hold
    U+2028 or U+0085, which ``str.splitlines`` would split on.

    A last line without its ``"\\n"`` that is not JSON is a torn write (the power went in the
    middle of it): it is left out, and ``torn`` (a list, if given) is told ``"FILE:LINE: ..."``
    in words.  Without ``torn`` it is bad input like any other bad line.  ``game`` reads
    the items (:meth:`rig.core.contract.Game.read_recording`; None: the registry's first)."""
    game = game if game is not None else _home()
    f = _open(path)
    with f:
        return game.read_recording(_lines(f, path, torn), path)


def read_lines(path, torn=None):
    """The text of every line of the recording at ``path`` (read as :func:`read` reads them: a
    regular file only, ``torn`` as there), for a game's own reader (the audits)."""
    f = _open(path)
    with f:
        return list(_lines(f, path, torn))


def _open(path):
    try:
        return files.open_regular(path)
    except OSError as exc:
        raise RecordingError("cannot be read: %s; give the path of a recording (a "
                             "match-*.jsonl file, or a game's)" % exc.strerror,
                             path=path) from None


def _lines(f, path=None, torn=None, first=1):
    """The text of each line of the binary file ``f``, without its ``"\\n"`` (the first is line
    ``first``).  A line longer than a recording's longest is handed on cut short, and nothing
    after it (the parser refuses it by its length, and the rest of it is never read).  A torn
    last line is left out when ``torn`` is given (see :func:`read`)."""
    for number, raw in enumerate(iter(lambda: f.readline(jsonl.MAX_LINE_BYTES + 1), b""),
                                 first):
        if len(raw) > jsonl.MAX_LINE_BYTES and not raw.endswith(b"\n"):
            yield raw.decode("utf-8", "replace")   # every byte stays at least one byte long
            return
        if torn is not None and not raw.endswith(b"\n") and raw.strip() \
                and not _is_json(raw):
            torn.append("%s:%d: the last line is torn (%d bytes without their end, written as "
                        "the rig stopped); what happened before it is reported"
                        % (path, number, len(raw)))
            return
        try:
            yield raw.removesuffix(b"\n").decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordingError("is not UTF-8 text (byte %d of the line: %s); save the file as "
                                 "UTF-8" % (exc.start + 1, exc.reason), path=path,
                                 line=number) from None


def _is_json(raw):
    """Whether a last line is whole JSON, not a torn write.  One nested deeper than a recording
    line may is no torn write either (the rig never wrote it): the reader refuses it by name."""
    try:
        if json_depth(raw.decode("utf-8")) > jsonl.MAX_NESTING:
            return True
    except UnicodeDecodeError:
        return False
    return _value(raw) is not _NOT_JSON


_NOT_JSON = object()


def _value(raw):
    """The JSON value of one line's bytes, read as a recording line is (bounded: a line nested
    20,000 deep is no JSON, not a RecursionError); ``_NOT_JSON`` when it is none."""
    try:
        return jsonl.load_line(raw.decode("utf-8"), 0)
    except (UnicodeDecodeError, RecordingError):
        return _NOT_JSON


def last_line_bytes(path):
    """``(size, tail)``: the file's size and how many bytes follow its last ``"\\n"`` (0 for
    a file that ends with one), read backwards from its end: only the file's tail is read."""
    with files.open_regular(path) as f:
        size = f.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - 65536)
            f.seek(start)
            found = f.read(end - start).rfind(b"\n")
            if found >= 0:
                return size, size - (start + found + 1)
            end = start
        return size, size


def repair(path, torn):
    """Make the recording at ``path``, which the rig takes up, end with a whole line, and say
    exactly what was changed (None: nothing).  ``torn`` is what reading it found (a list
    filled by :func:`read`): when the reader left a torn last line out, those bytes, and only
    those, are cut; a last line the reader took as whole (JSON without its newline) gets its
    ``"\\n"``, so nothing it holds is lost.  Only ever called on a file the rig has read and
    takes up (never on one it refuses: that one is left exactly as it is)."""
    size, tail = last_line_bytes(path)
    if tail == 0:
        return None
    if torn:
        with open(path, "rb+") as f:
            f.truncate(size - tail)
            os.fsync(f.fileno())
        return ("cut its torn last line: %d bytes without their end, written as the rig "
                "stopped (the file was %d bytes, now %d)" % (tail, size, size - tail))
    with open(path, "ab") as f:
        f.write(b"\n")
        os.fsync(f.fileno())
    return ("ended its last line (%d bytes of JSON without their newline): 1 byte added (the "
            "file was %d bytes, now %d)" % (tail, size, size + 1))


def is_finished(path):
    """True when the recording's last line is the end line (a path that is not a regular file,
    a FIFO say, is no finished recording, and is never opened for reading)."""
    from ..files import open_regular
    try:
        f = open_regular(path)
    except OSError:
        return False
    with f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - 200))
        tail = f.read().rstrip().rsplit(b"\n", 1)[-1]
    obj = _value(tail)
    return isinstance(obj, dict) and obj.get("end") is True


def closing_command(path, game=None):
    """The ``new_match`` command that closed the finished recording at ``path`` (its last line
    before the end line), or None: the next recording was opened with its settings."""
    try:
        f = files.open_regular(path)
    except OSError:
        return None
    with f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - 4096))
        tail = f.read().rstrip().split(b"\n")[-2:]
    if len(tail) < 2:
        return None
    obj = _value(tail[0])
    if not isinstance(obj, dict) or "new_match" not in obj:
        return None
    try:
        return (game if game is not None else _home()).parse_line(obj, 0)
    except RecordingError:
        return None


def recent_players(directory, recordings=30):
    """The players of the newest ``recordings`` recordings in ``directory``, newest first, each
    name once (read from their headers; a file that cannot be read is passed over)."""
    names, seen = [], set()
    prefix = _home().prefix
    for path in sorted(Path(directory).glob("%s-*.jsonl" % prefix), reverse=True)[:recordings]:
        try:
            with files.open_regular(path) as f:
                header = _value(f.readline(jsonl.MAX_LINE_BYTES))
        except OSError:
            continue
        players = header.get("players") if isinstance(header, dict) else None
        for name in players if isinstance(players, list) else ():
            if name_problem(name) is None and same_name_key(normal(name)) not in seen:
                seen.add(same_name_key(normal(name)))       # the one rule (rig.core.names)
                names.append(normal(name))
    return names


def replay_file(path, torn=None, overrides=False):
    """Re-referee the recording at ``path``; the replay output (see README).  ``torn``: as for
    :func:`read` (a torn last line is left out and named there).  The game its header names
    (:func:`rig.games.by_recording`) replays it; a header that names none is read as
    Cleptómano's, whose reader says what is wrong with it.  ``overrides``: the museum's replay
    lists the referee's overrides too (``replay --overrides``)."""
    game = game_of(path)
    if game is None:
        game = _home()
    f = _open(path)
    with f:
        lines = _lines(f, path, torn)
        # A game whose replay streams takes the lines as they come (its first bad line is the
        # one it names); another reads them all first, as they always have.
        if overrides and at_table(game):    # with the referee's overrides (issue 31)
            return game.replay(lines, path, overrides=True)
        return game.replay(lines if game.streams_replay else list(lines), path)


def restore_file(path, game, torn=None):
    """The unfinished recording at ``path`` of ``game`` (a :mod:`rig.games` game) taken up
    again: ``(state, header, last_t)``: the state its lines leave (:meth:`Game.restore`, the
    same ``step`` calls as the live game made), its header (a dict: the seed, the players) and
    the ``t`` of its last line (0.0 for a header alone).  ``torn``: as for :func:`read`.
    RecordingError names the file and the line for one that cannot be taken up."""
    f = _open(path)
    with f:
        lines = list(_lines(f, path, torn))
    state = game.restore(lines, path)
    header = jsonl.load_line(lines[0], 1)          # both checked by restore() already
    last_t = jsonl.load_line(lines[-1], len(lines)).get("t", 0.0) if len(lines) > 1 \
        else 0.0
    return state, header, last_t


#: A recording's name: ``PREFIX-YYYYmmdd-HHMMSS.jsonl``, or ``...-N.jsonl`` for the N-th of
#: that second.
_STAMPED = re.compile(r"-(\d{8})-(\d{6})(?:-(\d+))?\.jsonl$")


def stamp(path, prefix):
    """The sort key of a recording of ``prefix`` by the stamp in its name (the wall clock's
    when it was opened), or None for a file that is not one."""
    name = Path(path).name
    if not name.startswith(prefix):
        return None
    found = _STAMPED.fullmatch(name[len(prefix):])
    if found is None:
        return None
    day, second, n = found.groups()
    return day, second, int(n or 1)


def newest(directory, prefix):
    """The newest recording of ``prefix`` in ``directory`` by the stamp in its name (never by
    the modification time: a Pi without a real-time clock may set its clock back), or None."""
    found = [(stamp(p, prefix), p.name, p) for p in Path(directory).glob("%s-*.jsonl" % prefix)]
    found = [x for x in found if x[0] is not None and x[2].is_file()]
    return max(found)[2] if found else None


def open_marker(path):
    """The file that says the recording at ``path`` is open: a game without an end line (every
    companion game but Stop Thief!) has it beside its recording from its start to its clean
    stop, so one left after a crash says the game was cut off."""
    path = Path(path)
    return path.with_name(path.name + ".open")


def mark_open(path):
    """Create the recording's open marker and make it durable (its directory fsynced)."""
    marker = open_marker(path)
    os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o666))
    sync_directory(marker.parent)


def mark_closed(path):
    """Remove the recording's open marker (a clean stop); nothing when there is none."""
    marker = open_marker(path)
    try:
        os.unlink(marker)
    except FileNotFoundError:
        return
    sync_directory(marker.parent)


def game_of(path):
    """The game (a :class:`rig.core.contract.Game` of :mod:`rig.games`) whose recording is at
    ``path``, by its header; None for one that cannot be read or names no game."""
    try:
        with files.open_regular(path) as f:
            header = _value(f.readline(jsonl.MAX_LINE_BYTES))
    except OSError:
        return None
    kind = header.get(_MAGIC) if isinstance(header, dict) else None
    return by_recording(kind) if isinstance(kind, str) else None


class Follower:
    """One recording read as it grows (the tournament link follows the open match so): each
    read takes the whole lines added since the last, refereed as ``cleptomano replay``
    referees them and hashed, so :meth:`result` is at every point what replaying the bytes
    read so far gives, at the cost of the new lines only.

    ``size`` bytes have been read (whole lines), ``sha256`` is theirs; ``closed`` once the end
    line was read; ``error`` the RecordingError that stopped the reading (bad input: the
    recording is then no longer followed)."""

    def __init__(self, path, game=None):
        self.path = Path(path)
        self.size = 0
        self._hash = hashlib.sha256()
        #: The game's reading of the lines (:meth:`rig.core.contract.Game.follow`; ``game``
        #: None: the registry's first, whose matches the tournament link follows).
        self._reader = (game if game is not None else _home()).follow(self.path)
        self.error = None

    @property
    def header(self):
        return self._reader.header

    @property
    def closed(self):
        return self._reader.done

    @property
    def end_t(self):
        return self._reader.end_t

    @property
    def sha256(self):
        return self._hash.hexdigest()

    def read(self, upto=None, final=False):
        """Read what was added up to byte ``upto`` of the file (None: its end).  ``final``:
        nothing more will be written, so a last line without its newline is read as
        :func:`read` reads one (left out if torn).  The match's bytes end with the line that
        ends it (whatever follows is no part of it).  OSError when the file cannot be read."""
        if self.error is not None or self.closed:
            return
        with files.open_regular(self.path) as f:
            f.seek(self.size)
            data = f.read() if upto is None else f.read(max(0, upto - self.size))
        whole = data.rfind(b"\n") + 1
        chunk = data if final else data[:whole]
        first = self._reader.number + 1
        torn, closing = [], None
        try:
            for text in _lines(io.BytesIO(chunk), self.path, torn, first):
                self._reader.feed(text)
                if self.closed and closing is None:
                    closing = self._reader.number
        except RecordingError as exc:
            self.error = exc
            return
        taken = chunk[:whole] if torn else chunk
        if closing is not None:
            taken = through_line(taken, closing - first + 1)
        self.size += len(taken)
        self._hash.update(taken)

    def result(self):
        """The replay output of what was read (None before the header)."""
        return self._reader.result()

    def text(self):
        """The bytes read, as text, read again from the file: None when they are no longer
        what was hashed (the file was changed underneath)."""
        with files.open_regular(self.path) as f:
            data = f.read(self.size)
        if hashlib.sha256(data).hexdigest() != self.sha256:
            return None
        return data.decode("utf-8")


def through_line(data, n):
    """The bytes of ``data`` (lines of a recording) through the end of its ``n``-th line."""
    end = 0
    for _ in range(n):
        found = data.find(b"\n", end)
        end = len(data) if found < 0 else found + 1
    return data[:end]


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
        return os.write(self._opened(), data)

    def _opened(self):
        if self._fd is None:
            created = not self.path.exists()
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC,
                               0o666)
            if created:
                sync_directory(self.path.parent)
        return self._fd

    def write_whole(self, data):
        """Write ``data`` (bytes) whole or not at all: OSError when the disk refused any of
        it, and then the file is cut back to where it was (no half line is left in it)."""
        fd = self._opened()
        size = os.fstat(fd).st_size
        try:
            if os.write(fd, data) < len(data):
                raise OSError(errno.ENOSPC, "No space left on device")
        except OSError:
            os.ftruncate(fd, size)
            raise

    def sync(self):
        """fsync the file; returns how many bytes of it are now on disk (None: not open)."""
        with self._lock:
            if self._fd is None:
                return None
            size = os.fstat(self._fd).st_size
            os.fsync(self._fd)
            return size

    def close(self):
        """fsync and close the file; returns its size then (None: it was not open)."""
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is None:
                return None
            try:
                size = os.fstat(fd).st_size
                os.fsync(fd)
            finally:
                os.close(fd)
            return size


def append_line(path, item, game=None):
    """Append one recording line (``item``, written by ``game``: None, the registry's first)
    to ``path`` and sync it (closing another match's file)."""
    writer = Writer(path)
    try:
        data = ((game if game is not None else _home()).item_line(item) + "\n").encode("utf-8")
        if writer.write(data) != len(data):
            raise OSError("the disk is full: the line was cut")
    finally:
        writer.close()


class FolderLock:
    """The recordings folder held by one rig: an exclusive ``flock`` on ``rig.lock`` in it,
    which holds the rig's PID.  A second rig started on the same folder (by hand beside the
    service, or a second unit) is refused with one line naming the first one's PID, before it
    reads or changes anything there: it never takes up the running game, nor removes its open
    marker.  The kernel lets go of the lock when the process ends, however it ends (a crash or
    a SIGKILL leaves no stale lock); the file itself stays, empty once a rig has stopped."""

    NAME = "rig.lock"

    def __init__(self, directory, key="storage.recordings_dir"):
        self.directory = Path(directory)
        self.path = self.directory / self.NAME
        self.key = key
        self._fd = None

    def acquire(self):
        """Take the folder (created if need be); RigError naming the other rig's PID when
        another process holds it, ConfigError when it cannot be created or written."""
        fix = "give a directory the rig may write to (/var/lib/cleptomano under systemd)"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError("%s cannot be created (%s); %s"
                              % (self.directory, exc.strerror or exc, fix),
                              key=self.key) from None
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW,
                         0o644)
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise ConfigError("%s is read-only for the rig; give a directory it may write "
                                  "to (under systemd only /var/lib/cleptomano is writable: "
                                  "ProtectSystem=strict)" % self.directory,
                                  key=self.key) from None
            raise ConfigError("%s cannot be used (%s); %s"
                              % (self.path, exc.strerror or exc, fix), key=self.key) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            held = exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK)
            pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip() if held else ""
            os.close(fd)
            if not held:
                raise ConfigError("%s cannot be locked (%s); %s"
                                  % (self.path, exc.strerror or exc, fix),
                                  key=self.key) from None
            who = ("another rig, PID %s," % pid) if pid.isdigit() else "another rig"
            raise RigError("%s already uses the recordings folder %s (it holds %s); stop it "
                           "first (`systemctl stop cleptomano`, or Ctrl-C where it runs), or "
                           "give this one another folder (--recordings)"
                           % (who, self.directory, self.NAME)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, b"%d\n" % os.getpid(), 0)
        self._fd = fd
        return self

    def release(self):
        """Let the folder go (its PID taken out of the file); nothing when not held."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass
        os.close(fd)           # the lock goes with the last descriptor

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
