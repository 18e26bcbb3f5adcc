"""Cleptómano's recordings as the host's files see them: a match's file followed as it grows,
and which unfinished match a start takes up again (issue 29: the shell's recordings modules
name no game; they ask the game through its contract, :mod:`rig.core.contract`).

Nothing here opens a file itself: the shell's recordings module (:mod:`rig.shell.storage`) is
handed in as ``store`` (its ``read``, ``is_finished``, ``closing_command`` and
``append_line``), so the files are still opened in one place only.
"""

import logging

from .rules import events as ev
from .rules import recording
from .rules import replay as rereferee
from .rules.engine import check_new_match
from ...core.errors import RigError

log = logging.getLogger("cleptomano")


class Following:
    """One recording's lines read as they come (:class:`rig.shell.storage.Follower` hands
    them on), refereed as ``cleptomano replay`` referees them: ``header`` once read,
    ``done`` once the line that ends the match was read, ``number`` the last line's number."""

    def __init__(self, path):
        self.path = path
        self._reader = recording.LineReader(recording.parse_header, recording.parse_item,
                                            path, stop=recording.ends_match)
        self._referee = None
        self.end_t = 0.0

    @property
    def header(self):
        return self._reader.header

    @property
    def done(self):
        return self._reader.done

    @property
    def number(self):
        return self._reader.number

    def feed(self, text):
        """Take one line's text (RecordingError naming the line for a bad one)."""
        item = self._reader.feed(text)
        if item is not None:
            if self._referee is None:
                self._referee = rereferee.new_referee(self.header)
            rereferee.feed(self._referee, self._reader.number, item, self.path)
            self.end_t = item.t

    def result(self):
        """The replay output of the lines taken (None before the header)."""
        if self.header is None:
            return None
        if self._referee is None:
            self._referee = rereferee.new_referee(self.header)
        return rereferee.result(self._referee.finish(self.end_t))


def pick_resume(store, directory, players, level):
    """The unfinished recording of this match to take up: ``(path, referee, torn)``, or None.

    Chosen by content, never by modification time (a Pi without a real-time clock may set
    its clock back): of the recordings without an end line, the one of this match (same
    players and level, or those of a match set up at the rig: a ``new_match`` line closed
    another recording) that holds the most play.  The others of them are closed with their
    end line (one whose last line is torn is left as it is).  Only the chosen one is left for
    the caller to repair and append to."""
    found = []
    ours = {(tuple(players), level)}
    paths = [p for p in sorted(directory.glob("match-*.jsonl")) if p.is_file()]
    for path in paths:
        command = store.closing_command(path) if store.is_finished(path) else None
        if command is not None:
            set_up, level_set_up, _ = check_new_match(command)
            ours.add((set_up, level_set_up))
    for path in paths:
        if store.is_finished(path):
            continue
        torn = []
        try:                        # read only: a file is changed once it is taken up
            header, items = store.read(path, torn)
            ref, _ = rereferee.referee(header, items, path)
        except RigError as exc:
            log.warning("cannot resume %s (%s); it is left as it is", path, exc)
            continue
        if (header.players, header.level) not in ours:
            _close_other(store, path, ref, torn,
                         "is another match (players or level differ)")  # not words: the log
            continue
        found.append((len(items), ref.t, str(path), path, ref, torn))
    if not found:
        return None
    found.sort()
    for *_, path, ref, torn in found[:-1]:
        _close_other(store, path, ref, torn,  # not words: the log
                     "holds less of this match than another unfinished recording")  # not words
    *_, path, ref, torn = found[-1]
    return path, ref, torn


def _close_other(store, path, ref, torn, why):
    """Close another match's unfinished recording with its end line, so it is never taken
    up again; one whose last line is torn is left exactly as it is (an end line after the
    torn bytes would spoil it, and cutting them is for a file the rig takes up)."""
    if torn or store.last_line_bytes(path)[1]:
        log.info("%s %s; its last line has no end, so it is left as it is (`cleptomano "
                 "replay` reads what it holds)", path, why)
        return
    log.info("%s %s; closing it", path, why)
    store.append_line(path, ev.End(ref.t))
