"""The recording session: the match's file on disk, from its header to its end line.

It opens a new recording (``match-YYYYmmdd-HHMMSS.jsonl``), resumes an unfinished one after a
crash, writes every line before the referee acts on it, fsyncs on request from its own thread
(so the disk never delays the buzzer), and writes the end line when the match closes.

Nothing is lost to a disk that fails: a line that cannot be written now (a full disk, a
read-only one, a file that cannot even be created) is kept in memory, in order, up to
``max_held_bytes``, and written when the disk works again (retried every ``RETRY_S``); the
screen and the log say how many lines, how many seconds of play, are at risk.  Only when that
memory is full does :meth:`RecordingSession.record` refuse a line, and the referee then does not
act on it: no decision is ever taken on an input the recording does not hold.

The other games (the :class:`~rig.shell.gamehost.GameHost`'s) write each command's line whole or
not at all (:meth:`RecordingSession.record_whole`: a full disk refuses the command), and are
resumed the same way after a crash: :meth:`RecordingSession.resume_game` takes up the game's
newest recording when it was cut off (:func:`cut_off`: no end line, or its open marker left
beside it) and its game can go on (:func:`unfinished`); :func:`night_game` is the game the
night starts with after a crash.
"""

import enum
import logging
import os
import shutil
import threading
import time
from collections import deque
from dataclasses import dataclass

from ..core.errors import ConfigError, HardwareError, RigError
from ..core.jsonl import dumps
from ..games import games
from . import storage
from .clock import MonotonicClock
from ..table.threads import start_on_clock

log = logging.getLogger("cleptomano")

MAX_HELD_BYTES = 16 * 2 ** 20     # about 1,000 turns of play
RETRY_S = 1.0
MIN_FREE_BYTES = 4096             # refuse to start on a disk with less room than a block
_END = object()                   # close(): Cleptómano's own end line


class Health(enum.StrEnum):
    OK = "ok"            # every line is on its way to the disk
    HELD = "held"        # lines are kept in memory, waiting for the disk
    FULL = "full"        # the memory for them is full too: lines are refused


@dataclass(frozen=True)
class Unfinished:
    """A companion game's recording cut off by a crash, taken up again: the ``game`` (of
    :mod:`rig.games`), the recording's ``path``, the ``state`` its lines leave, its ``header``
    (a dict) and the ``t`` of its last line (the game's clock goes on from there)."""
    game: object
    path: object
    state: object
    header: dict
    last_t: float


def marks_open(game):
    """Whether ``game``'s recordings have an open marker beside them while they are written:
    a game without an end line, and a game whose end line came after its first recordings
    (``marks_open``: Stolen Paintings, whose recordings before issue 30 end without one, so
    only the marker tells a cut-off one from those)."""
    return game.end_line(0.0) is None or getattr(game, "marks_open", False)


def cut_off(game, path):
    """Whether the recording at ``path`` of ``game`` had no clean end: no end line, for a game
    that writes one; its open marker still there, for a game that writes none
    (:func:`rig.shell.storage.open_marker`; a recording from before the markers has none, and
    is never taken up).  A game that writes both is cut off when its recording has no end
    line and its marker is still there."""
    if not marks_open(game):
        return not storage.is_finished(path)
    if game.end_line(0.0) is not None and storage.is_finished(path):
        return False
    return storage.open_marker(path).exists()


def unfinished(directory, game, torn=None, why=None):
    """The newest recording of ``game`` in ``directory`` when it was cut off and its game can go
    on, taken up (an :class:`Unfinished`; the file is only read: a torn last line is left out
    and named in ``torn``), else None.  A game that is over, or a recording that cannot be read,
    is not taken up: ``why`` (a list, if given) is told why in words."""
    path = storage.newest(directory, game.prefix)
    if path is None or not cut_off(game, path):
        return None
    named = storage.game_of(path)           # its header first: never another game's file
    if named is None or named.name != game.name:
        if why is not None:
            why.append("cannot resume %s: its header names %s, not %s; it is left as it is"
                       % (path, "no game the rig knows" if named is None else named.title,
                          game.title))
        return None
    try:
        state, header, last_t = storage.restore_file(path, game, torn)
    except RigError as exc:
        if why is not None:
            why.append("cannot resume %s (%s); it is left as it is" % (path, exc))
        return None
    except NotImplementedError:         # a game that does not say how (no restore)
        if why is not None:
            why.append("cannot resume %s: %s does not say how to take a game up again (its "
                       "GAME has no restore)" % (path, game.title))
        return None
    if game.over(state):
        if why is not None:
            why.append("%s: its game is over, so it is not resumed" % path)
        return None
    return Unfinished(game, path, state, header, last_t)


def night_game(directory):
    """The companion game the game night starts with after a crash: the game whose recording is
    the newest in ``directory`` (by the stamps in the names) when that recording was cut off and
    can go on; None when the newest is the night's first game's (the registry's first,
    Cleptómano, which the night starts with anyway), or ended cleanly (the first game then, as
    always)."""
    found = []
    for game in games():
        path = storage.newest(directory, game.prefix)
        if path is not None:
            found.append((storage.stamp(path, game.prefix), path.name, game))
    if not found:
        return None
    *_, game = max(found)
    if game is games()[0]:
        return None
    return unfinished(directory, game, torn=[])


@dataclass(frozen=True)
class Resumed:
    """A recording taken up again: its path and the referee rebuilt from it (restart line
    written, not yet fed)."""
    path: object
    referee: object
    restart: object


class _Held:
    """One line (or the closing of a file) waiting for the disk."""
    __slots__ = ("writer", "data", "t", "close")

    def __init__(self, writer, data, t, close=False):
        self.writer, self.data, self.t, self.close = writer, data, t, close


class RecordingSession:
    """One recordings directory; one open recording at a time."""

    def __init__(self, directory, wall_clock=time.time, max_held_bytes=MAX_HELD_BYTES,
                 clock=None, on_synced=None):
        self.directory = directory
        self.wall_clock = wall_clock
        self.max_held_bytes = max_held_bytes
        self.writer = None
        self.path = None
        self.record_errors = 0
        self._held = deque()
        self._held_bytes = 0
        self._error = None          # the last OSError, while lines are held
        self._refused = 0           # lines refused since the memory filled
        self.clock = clock if clock is not None else MonotonicClock()
        self._cond = self.clock.condition()
        self._sync_requested = False
        self._stop = threading.Event()
        self._thread = None
        #: Told ``(path)`` after each fsync (the kill tests kill the process there).
        self._on_synced = on_synced
        self._marked = None         # the open recording whose open marker is on disk
        #: The game whose items :meth:`record` writes (None: the registry's first); the
        #: table's host sets it.
        self.game = None
        #: Told ``(path, size, closed)`` whenever ``size`` bytes of a recording are on disk
        #: (after each fsync, and when a file is closed): the tournament link reads only these.
        self.listeners = []

    # --- the directory --------------------------------------------------------------------------
    def prepare(self):
        """Make sure recordings can be written here; one clear error naming the directory and
        the fix otherwise (a read-only directory is a configuration mistake under systemd,
        whose ProtectSystem=strict leaves only /var/lib/cleptomano writable)."""
        key = "storage.recordings_dir"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError("%s cannot be created (%s); give a directory the rig may write to "
                              "(/var/lib/cleptomano under systemd)"
                              % (self.directory, exc.strerror or exc), key=key) from None
        if not os.access(self.directory, os.W_OK):
            raise ConfigError("%s is read-only for the rig; give a directory it may write to "
                              "(under systemd only /var/lib/cleptomano is writable: "
                              "ProtectSystem=strict)" % self.directory, key=key)
        free = shutil.disk_usage(self.directory).free
        if free < MIN_FREE_BYTES:
            raise HardwareError("the disk holding %s is full (%d KB free); free some space (old "
                                "recordings can be copied off) and start the rig again"
                                % (self.directory, free // 1024))

    # --- files ------------------------------------------------------------------------------------
    def open(self, header):
        """Start a new recording with ``header``; returns its path (the file itself may wait
        for the disk, like any line)."""
        path = self.open_text(dumps(header.to_json()))
        self.request_sync()
        return path

    def open_text(self, header_line, prefix="match", marked=False):
        """Start a new recording ``PREFIX-YYYYmmdd-HHMMSS.jsonl`` whose first line is
        ``header_line`` (text, no newline): the other games' recordings are named after their
        game, so a Cleptómano start never mistakes one for a match to resume.  ``marked``: its
        open marker is put beside it (:func:`rig.shell.storage.mark_open`) before its header is
        synced, and :meth:`close` takes it away (a game without an end line)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.wall_clock()))
        path = self.directory / ("%s-%s.jsonl" % (prefix, stamp))
        n = 1
        while path.exists():
            n += 1
            path = self.directory / ("%s-%s-%d.jsonl" % (prefix, stamp, n))
        self.path = path
        self.writer = storage.Writer(path)
        self._hold(self.writer, header_line, 0.0)
        self.flush()
        if marked:
            self._mark(path)
        return path

    def _mark(self, path):
        try:
            storage.mark_open(path)
        except OSError as exc:
            log.warning("%s: its open marker could not be written (%s); the game plays on, but "
                        "a crash would not resume it", path, exc.strerror or exc)
            return
        self._marked = path

    def resume_game(self, game):
        """Continue ``game``'s unfinished recording, if the newest of its recordings is one
        (see :func:`unfinished`): a torn last line is cut, the file is appended to from now
        on.  Returns the :class:`Unfinished`, or None (a new game begins: the reason is in the
        log, and an over or unreadable recording's open marker is taken away)."""
        path = storage.newest(self.directory, game.prefix)
        if path is None or not cut_off(game, path):
            return None
        why, torn = [], []
        found = unfinished(self.directory, game, torn=torn, why=why)    # read only
        if found is None:
            for words in why:
                log.warning("%s; a new game begins", words)
            try:
                storage.mark_closed(path)
            except OSError as exc:
                log.warning("%s: its open marker could not be removed: %s", path, exc)
            return None
        cut = storage.repair(path, torn)         # taken up: only now is the file touched
        if cut:
            log.warning("%s: %s", path, cut)
        self.path = path
        self.writer = storage.Writer(path)
        if marks_open(game):
            self._marked = path
        return found

    def resume(self, players, level, game=None):
        """Continue this match's unfinished recording, if there is one: rebuild the match by
        replaying it and write the restart line.  None when there is nothing to resume.

        Which recording is the game's choice (:meth:`rig.core.contract.Game.pick_resume`;
        ``game`` None: the registry's first).  Cleptómano's is by content, never by
        modification time (a Pi without a real-time clock may set its clock back): of the
        recordings without an end line, the one of this match (same players and level, or
        those of a match set up at the rig: a ``new_match`` line closed another recording)
        that holds the most play.  A match that has been decided is resumed too, until the
        next start closes it: the guard may still correct its last haul."""
        game = game if game is not None else games()[0]
        picked = game.pick_resume(storage, self.directory, players, level)
        if picked is None:
            return None
        path, ref, torn = picked
        cut = storage.repair(path, torn)
        if cut:
            log.warning("%s: %s", path, cut)
        self.path = path
        self.writer = storage.Writer(path)
        restart = game.restart_item(ref)
        self._hold(self.writer, game.item_line(restart), ref.t)
        self.flush()
        self.request_sync()
        return Resumed(path, ref, restart)

    # --- lines -----------------------------------------------------------------------------------
    def record(self, item, game=None):
        """Append one item's line (written by ``game``, :meth:`rig.core.contract.Game.item_line`;
        None: :attr:`game`, else the registry's first).  True when the line is written or
        kept for the disk; False when it is refused (the memory for waiting lines is full):
        then it must not be acted on."""
        if game is None:
            game = self.game if self.game is not None else games()[0]
        return self.record_text(game.item_line(item), item.t)

    def record_text(self, text, t):
        """Append the line ``text`` (no newline) of play at ``t``; True or False as
        :meth:`record`."""
        if self._held and self._held_bytes + len(text) + 1 > self.max_held_bytes:
            self.flush()
            if self._held and self._held_bytes + len(text) + 1 > self.max_held_bytes:
                self._refused += 1
                self.record_errors += 1
                return False
        self._hold(self.writer, text, t)
        self.flush()
        return True

    def record_whole(self, text, t):
        """Write the line ``text`` (no newline) of play at ``t`` now, whole, or not at all: a
        game at human pace stops taking commands while the disk refuses (the lines before it
        are written first).  True when it is written (:meth:`sync_now` makes it durable); False
        when the disk refused it: nothing of it is left in the file, so it must not be acted
        on, and the same command given again once there is space is taken."""
        if not self.flush():
            return False
        try:
            self.writer.write_whole((text + "\n").encode("utf-8"))
        except OSError as exc:
            if self._error is None:
                self.record_errors += 1
            self._error = exc.strerror or str(exc)
            log.warning("the recording could not take a line (%s); it was refused",
                        self._error)
            return False
        self._error = None
        return True

    def _hold(self, writer, text, t):
        data = (text + "\n").encode("utf-8")
        self._held.append(_Held(writer, data, t))
        self._held_bytes += len(data)

    def flush(self):
        """Write what waits, in order, until the disk refuses; returns True when all is
        written."""
        held = self._held
        while held:
            entry = held[0]
            try:
                if entry.close:
                    size = entry.writer.close()
                    if size is not None:
                        self._tell(entry.writer.path, size, True)
                else:
                    n = entry.writer.write(entry.data)
                    self._held_bytes -= n
                    if n < len(entry.data):
                        entry.data = entry.data[n:]
                        raise OSError(28, "No space left on device")
            except OSError as exc:
                if self._error is None:
                    self.record_errors += 1
                self._error = exc.strerror or str(exc)
                return False
            held.popleft()
        if self._error is not None:
            self._error = None
            self._refused = 0
        return True

    @property
    def holding(self):
        """Whether lines wait for the disk."""
        return bool(self._held)

    def health(self, now_t=None, words=None):
        """``(Health, words)``: how the recording stands, in words for the screen and the log
        (None when all is well).  ``now_t`` is the match's time now, for the seconds at risk;
        ``words(moment, **params)`` the game's words for it (the host's
        :meth:`~rig.core.contract.Game.host_words`: ``recording_kept``, ``recording_held``,
        ``recording_full``; None: no words, only the health)."""
        lines = [e for e in self._held if not e.close]
        if not lines:
            return Health.OK, None
        say = words if words is not None else (lambda moment, **params: None)
        since = lines[0].t
        span = max(0.0, (now_t if now_t is not None else lines[-1].t) - since)
        kept = say("recording_kept", n=len(lines), span_s=int(round(span)))
        if self._refused:
            return Health.FULL, say("recording_full", error=str(self._error), kept=kept,
                                    n=self._refused)
        room = max(0, self.max_held_bytes - self._held_bytes)
        room = ("%.1f MB" % (room / 2 ** 20)) if room >= 2 ** 20 else ("%d KB" % (room // 1024))
        return Health.HELD, say("recording_held", error=str(self._error), kept=kept, room=room)

    def close(self, t, end_line=_END):
        """Write the end line at ``t`` (``end_line``: another text, or None for a recording
        whose format has no end line) and close the file (both may wait for the disk)."""
        writer, self.writer = self.writer, None
        if writer is None:
            return
        if end_line is _END:
            home = games()[0]
            end_line = home.item_line(home.end_item(t))
        if end_line is not None:
            self._hold(writer, end_line, t)
        self._held.append(_Held(writer, b"", t, close=True))
        self.flush()
        if self._marked == writer.path:
            self._marked = None
            try:
                storage.mark_closed(writer.path)
            except OSError as exc:
                log.warning("%s: its open marker could not be removed (%s); the next start of "
                            "its game resumes it", writer.path, exc.strerror or exc)

    def abandon(self):
        """Close the file as a crash would leave it (no end line): the next start resumes it.
        Lines still waiting for the disk are lost, as they would be in a crash."""
        writers = {id(e.writer): e.writer for e in self._held}
        if self.writer is not None:
            writers[id(self.writer)] = self.writer
        self._held.clear()
        self._held_bytes = 0
        self.writer = None
        self._marked = None         # left on disk: the next start resumes the game
        for writer in writers.values():
            try:
                writer.close()
            except OSError as exc:
                log.warning("closing %s: %s", writer.path, exc)

    def _tell(self, path, size, closed):
        for listener in self.listeners:
            try:
                listener(path, size, closed)
            except Exception:
                log.exception("a listener of the recording failed on %s", path)

    def sync_now(self):
        """fsync the open recording from this thread (a game whose moves come at human pace
        makes each line durable before acting on it); False when the disk refused."""
        if self.writer is None or self._held:
            return False
        try:
            self.writer.sync()
        except OSError as exc:
            log.warning("the recording could not be synced to disk: %s", exc)
            return False
        if self._on_synced is not None:
            self._on_synced(self.writer.path)
        return True

    # --- the sync thread ----------------------------------------------------------------------------
    def request_sync(self):
        with self._cond:
            self._sync_requested = True
            self._cond.notify_all()

    def start_sync(self, on_synced=None):
        """Start the thread that fsyncs the open recording on request; ``on_synced(path)``
        (optional) is told after each fsync (the kill tests snapshot the file there).  It waits
        on the session's clock, so in virtual time a durable moment is on disk before time
        moves on."""
        if on_synced is not None:
            self._on_synced = on_synced
        self._thread = start_on_clock(self.clock, self._sync_loop, "cleptomano-recording-sync")
        return self._thread

    def stop_sync(self):
        self._stop.set()
        with self._cond:
            self._cond.notify_all()

    def _sync_loop(self):
        while not self._stop.is_set():
            with self._cond:
                self.clock.wait(self._cond, lambda: self._sync_requested, None, self._stop)
                if not self._sync_requested:
                    continue
                self._sync_requested = False
            writer = self.writer
            if writer is None:
                continue
            try:
                size = writer.sync()
            except OSError as exc:
                log.warning("the recording could not be synced to disk: %s", exc)
                continue
            if size is not None:
                self._tell(writer.path, size, False)
            if self._on_synced is not None:
                try:
                    self._on_synced(writer.path)
                except Exception:
                    log.exception("the sync hook failed on %s", writer.path)
