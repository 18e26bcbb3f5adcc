"""The recording session: the match's file on disk, from its header to its end line.

It opens a new recording (``match-YYYYmmdd-HHMMSS.jsonl``), resumes an unfinished one after a
crash, writes every line (flushed before the referee acts on it), fsyncs on request from its own
thread (so the disk never delays the buzzer), and writes the end line when the match closes.
A disk that fails is a named fault, never a stop: :meth:`RecordingSession.record` answers with
the fault effects to show.
"""

import logging
import threading
import time
from dataclasses import dataclass

from ..core import events as ev
from ..core import recording, rules
from ..core.errors import RigError
from ..core.replay import referee as rereferee
from . import storage

log = logging.getLogger("cleptomano")


@dataclass(frozen=True)
class Resumed:
    """A recording taken up again: its path and the referee rebuilt from it (restart line
    written, not yet fed)."""
    path: object
    referee: object
    restart: ev.Restart


class RecordingSession:
    """One recordings directory; one open recording at a time."""

    def __init__(self, directory, wall_clock=time.time):
        self.directory = directory
        self.wall_clock = wall_clock
        self.writer = None
        self.path = None
        self.record_errors = 0
        self._failing = False
        self._sync_request = threading.Event()
        self._stop = threading.Event()
        self._thread = None

    # --- files ------------------------------------------------------------------------------------
    def prepare(self):
        self.directory.mkdir(parents=True, exist_ok=True)

    def open(self, header):
        """Start a new recording with ``header``; returns its path."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.wall_clock()))
        path = self.directory / ("match-%s.jsonl" % stamp)
        n = 1
        while path.exists():
            n += 1
            path = self.directory / ("match-%s-%d.jsonl" % (stamp, n))
        self.path = path
        self.writer = storage.Writer(path, header)
        return path

    def resume(self, players, level):
        """Continue the newest unfinished recording, if it is this match's: rebuild the match by
        replaying it and write the restart line.  None when there is nothing to resume."""
        candidates = sorted(self.directory.glob("match-*.jsonl"),
                            key=lambda p: p.stat().st_mtime)
        if not candidates or storage.is_finished(candidates[-1]):
            return None
        path = candidates[-1]
        cut = storage.repair(path)
        if cut:
            log.warning("%s: %s", path, cut)
        try:
            header, items = storage.read(path)
            ref, _ = rereferee(header, items, path)
        except RigError as exc:
            log.warning("cannot resume %s (%s); it is left as it is and a new match starts",
                        path, exc)
            return None
        if header.players != players or header.level != level:
            log.info("%s is another match (players or level differ); closing it", path)
            self._end_file(path, ref.t)
            return None
        if rules.is_over(ref.match):
            self._end_file(path, ref.t)   # it had ended: nothing to resume
            return None
        self.path = path
        self.writer = storage.Writer(path)
        restart = ev.Restart(ref.t)
        self.writer.write(restart)
        self.writer.sync()
        return Resumed(path, ref, restart)

    @staticmethod
    def _end_file(path, t):
        writer = storage.Writer(path)
        writer.write(ev.End(t))
        writer.close()

    def record(self, item):
        """Append one line.  Returns the fault effects to perform: a disk that fails is a
        named fault (the referee goes on), cleared when writing works again."""
        try:
            self.writer.write(item)
        except (OSError, ValueError) as exc:
            self.record_errors += 1
            if self._failing:
                return []
            self._failing = True
            return [ev.Fault(item.t, "recording", "Recording failed (%s): this match is not "
                             "being saved; check the disk" % exc, True)]
        if self._failing:
            self._failing = False
            return [ev.Fault(item.t, "recording", "recording works again", False)]
        return []

    def close(self, t):
        """Write the end line at ``t`` and close the file."""
        writer, self.writer = self.writer, None
        if writer is None:
            return
        try:
            writer.write(ev.End(t))
        finally:
            writer.close()

    def abandon(self):
        """Close the file as a crash would leave it (no end line): the next start resumes it."""
        writer, self.writer = self.writer, None
        if writer is not None:
            writer.close()

    # --- the sync thread ----------------------------------------------------------------------------
    def request_sync(self):
        self._sync_request.set()

    def start_sync(self):
        self._thread = threading.Thread(target=self._sync_loop, name="cleptomano-recording-sync",
                                        daemon=True)
        self._thread.start()
        return self._thread

    def stop_sync(self):
        self._stop.set()
        self._sync_request.set()

    def _sync_loop(self):
        while not self._stop.is_set():
            if self._sync_request.wait(0.5):
                self._sync_request.clear()
                writer = self.writer
                if writer is not None:
                    try:
                        writer.sync()
                    except ValueError:
                        pass       # closed meanwhile: closing synced it
                    except OSError as exc:
                        log.warning("the recording could not be synced to disk: %s", exc)
