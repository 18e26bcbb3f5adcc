"""The history of matches for ``GET /api/matches``: each recording in the recordings folder,
replayed to its result, and the recording itself for download.

A recording's id is its file name without ``.jsonl`` (``match-20261201-201500``); nothing else
names a file, so no request can reach outside the folder.  Replays are remembered by the
file's size and modification time: a finished match is replayed once, the live one whenever it
has grown.
"""

import re
import threading

from ..core.errors import RecordingError, RequestError
from ..shell.storage import is_finished, replay_file

ID = re.compile(r"^match-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-\d{1,4})?$")
MAX_LISTED = 500


class Matches:
    """The recordings in ``directory``; ``live()`` names the one being written now."""

    def __init__(self, directory, live=lambda: None):
        self.directory = directory
        self.live = live
        self._lock = threading.Lock()
        self._replays = {}        # id -> ((size, mtime_ns), result, torn)

    def path(self, match_id):
        """The recording of ``match_id``; RequestError (404) for an id that names none."""
        if not isinstance(match_id, str) or not ID.match(match_id):
            raise RequestError("%r is not a match id; ids look like match-20261201-201500 "
                               "(GET /api/matches lists them)" % (match_id,), 404)
        path = self.directory / (match_id + ".jsonl")
        if not path.is_file():
            raise RequestError("there is no match %s; GET /api/matches lists the matches "
                               "recorded here" % match_id, 404)
        return path

    def replay(self, match_id):
        """``(result, torn)``: the replay output of the match (as ``cleptomano replay`` prints
        it) and the torn last line's warning, if any; RequestError (404, or 422 for a
        recording that cannot be read)."""
        path = self.path(match_id)
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            known = self._replays.get(match_id)
        if known is not None and known[0] == key:
            return known[1], known[2]
        torn = []
        try:
            result = replay_file(path, torn)
        except RecordingError as exc:
            raise RequestError("the recording %s cannot be replayed: %s" % (match_id, exc.detail),
                               422) from None
        with self._lock:
            self._replays[match_id] = (key, result, tuple(torn))
        return result, tuple(torn)

    def listing(self):
        """Every match, newest first: its id, date, players and result in short."""
        live = self.live()
        ids = sorted((p.stem for p in self.directory.glob("match-*.jsonl")
                      if ID.match(p.stem) and p.is_file()), reverse=True)[:MAX_LISTED]
        out = []
        for match_id in ids:
            y, mo, d, h, mi, s = ID.match(match_id).groups()
            entry = {"id": match_id, "date": "%s-%s-%sT%s:%s:%s" % (y, mo, d, h, mi, s),
                     "live": live is not None and live.stem == match_id}
            try:
                result, torn = self.replay(match_id)
            except RequestError as exc:
                entry["error"] = exc.detail
                out.append(entry)
                continue
            entry.update(players=result["players"], winner=result["winner"],
                         title=result["title"], round_wins=result["round_wins"],
                         scores=_totals(result), finished=is_finished(self.path(match_id)),
                         torn=bool(torn))
            out.append(entry)
        return out


def _totals(result):
    """Each player's points: over the match's rounds (tiebreak attempts decide, they do not
    add), or the solo heist's own turn."""
    totals = {p: 0 for p in result["players"]}
    if result["rounds"]:
        for row in result["rounds"]:
            for player, score in row["scores"].items():
                totals[player] += score or 0
    else:
        for turn in result["turns"]:
            totals[turn["thief"]] += turn["score"] or 0
    return totals
