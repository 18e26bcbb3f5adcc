"""The kept recordings on the phone companion's API: each recording in the recordings folder,
replayed to its result, and the recording itself for download.

:class:`Recordings` is the one history, for every game, served by one route
(:func:`recording_routes`) under its two bases: the games played at the museum (Cleptómano's
matches, ``GET /api/matches``, :class:`Matches`) and every other game's (``GET
/api/game/recordings``, :class:`GameRecordings`).  A listing entry is the game's own
(:meth:`rig.core.contract.Game.recording_entry`).  A recording's id is its file name without
``.jsonl`` (``match-20261201-201500``, ``chest-heist-20261201-201500``), checked against the
history's pattern; nothing else names a file, so no request can reach outside the folder.
Replays are remembered by the file's size and modification time: a finished game is replayed
once, the live one whenever it has grown.

A game that hides something while it runs (``hides``: a secret, or dice its seed will roll;
every game but Cleptómano) is served only once it is over: while its recording has no clean
end (the one being written now, or the newest of its game a crash cut off, which the next
start takes up again) and its replay says it is not over, it is left out of the listing, and
its replay and file are refused (403, :class:`Withheld`) without a word of what they hold: its
seed would name every die still to roll, its lines every hidden card.
"""

import asyncio
import re
import threading

from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Route

from ..core.errors import RecordingError, RequestError
from ..core.msg import Msg, N_
from ..shell.session import cut_off
from ..shell.storage import game_of, is_finished, newest, replay_file
from ..games import at_table, games
from .language import said, words_of
from .pairing import quoted

STAMP = r"(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-\d{1,4})?$"
MAX_LISTED = 500


class Withheld(RequestError):
    """A recording of a game not over yet, which hides something: not served."""


class Recordings:
    """The recordings in ``directory`` of the games played at the museum (``museum`` True) or
    of every other game (False), their ids matching :attr:`ID` (its last six groups the date
    and time); ``live()`` names the one being written now.  Each listing entry is its game's
    ``recording_entry``."""

    museum = True

    # Read from the registry at each listing, so a game registered later is listed too.
    @property
    def ID(self):
        return re.compile("^(%s)-%s" % ("|".join(re.escape(g.prefix) for g in self._games()),
                                        STAMP))

    @property
    def GLOBS(self):
        return tuple("%s-*.jsonl" % g.prefix for g in self._games())

    def _games(self):
        return [g for g in games() if at_table(g) == self.museum]

    # The refusals that name an id, and where the list is.
    @property
    def NOT_AN_ID(self):
        return N_("rig.web.not_a_match_id") if self.museum else N_("rig.web.not_a_game_id")

    @property
    def NO_SUCH(self):
        return N_("rig.web.no_such_match") if self.museum else \
            N_("rig.web.no_such_game_recording")

    @property
    def EXAMPLE(self):
        return "%s-20261201-201500" % (self._games() or games())[0].prefix

    @property
    def LISTED_AT(self):
        return "GET /api/matches" if self.museum else "GET /api/game/recordings"

    def __init__(self, directory, live=lambda: None):
        self.directory = directory
        self.live = live
        self._lock = threading.Lock()
        self._replays = {}        # id -> ((size, mtime_ns), result, torn, made)

    def path(self, rec_id):
        """The recording of ``rec_id``; RequestError (404) for an id that names none."""
        if not isinstance(rec_id, str) or not self.ID.match(rec_id):
            raise RequestError(Msg(self.NOT_AN_ID, id=quoted(rec_id), example=self.EXAMPLE,
                                   listed_at=self.LISTED_AT), 404)
        path = self.directory / (rec_id + ".jsonl")
        if not path.is_file():
            raise RequestError(Msg(self.NO_SUCH, id=rec_id, listed_at=self.LISTED_AT), 404)
        return path

    def replay(self, rec_id):
        """``(result, torn)``: the replay output of the recording (as ``cleptomano replay``
        prints it) and the torn last line's warning, if any; RequestError (404, or 422 for a
        recording that cannot be read)."""
        _, (_, result, torn, _) = self._replayed(rec_id)
        return result, torn

    def _replayed(self, rec_id):
        """``(path, (key, result, torn, made))``: the recording replayed once per version of
        the file (its size and modification time, ``key``); ``made`` keeps what the listing
        derived from that replay (:meth:`summary`), so a listing reads no file it has read."""
        path = self.path(rec_id)
        game = game_of(path)
        hidden = game is not None and game.hides and self._open(game, path)
        stat = path.stat()
        key = (stat.st_size, stat.st_mtime_ns)
        with self._lock:
            known = self._replays.get(rec_id)
        if known is None or known[0] != key:
            torn = []
            try:
                known = (key, replay_file(path, torn), tuple(torn), {})
            except RecordingError as exc:
                if hidden:          # not even why: the words could quote what it hides
                    raise self._withheld(rec_id) from None
                raise RequestError(Msg("rig.web.cannot_replay", id=rec_id, why=exc.detail),
                                   422) from None
            with self._lock:
                self._replays[rec_id] = known
        if hidden and not _over(game, known[1]):
            raise self._withheld(rec_id)
        return path, known

    def _open(self, game, path):
        """Whether ``path`` (of ``game``) may still be played on: the recording being written
        now, or the newest of its game with no clean end (the next start takes it up)."""
        live = self.live()
        if live is not None and live.name == path.name:
            return True
        return cut_off(game, path) and newest(self.directory, game.prefix) == path

    def _withheld(self, rec_id):
        return Withheld(Msg("rig.web.recording_withheld", id=rec_id,
                            listed_at=self.LISTED_AT), 403)

    def served(self, rec_id):
        """The recording of ``rec_id`` when it may be served (see above); RequestError (404,
        403 while its game hides something and is not over)."""
        path = self.path(rec_id)
        game = game_of(path)
        if game is not None and game.hides and self._open(game, path):
            path, _ = self._replayed(rec_id)        # Withheld while its game is not over
        return path

    def ids(self):
        """The ids of the recordings here, newest first (by the time in the name)."""
        ids = self.ID        # read once a listing (the games' is made from the registry)
        found = {p.stem for pattern in self.GLOBS for p in self.directory.glob(pattern)
                 if ids.match(p.stem) and p.is_file()}
        return sorted(found, key=lambda i: (ids.match(i).groups()[-6:], i),
                      reverse=True)[:MAX_LISTED]

    def listing(self):
        """Every recording, newest first: its id, date, whether it is being written now, and
        :meth:`summary` of its replay (or the one-line ``error`` that says why it has none)."""
        live = self.live()
        ids = self.ID
        out = []
        for rec_id in self.ids():
            y, mo, d, h, mi, s = ids.match(rec_id).groups()[-6:]
            entry = {"id": rec_id, "date": "%s-%s-%sT%s:%s:%s" % (y, mo, d, h, mi, s),
                     "live": live is not None and live.stem == rec_id}
            try:
                path, (_, result, torn, made) = self._replayed(rec_id)
                if "summary" not in made:
                    made["summary"] = self.summary(path, result)
                if made["summary"] is None:
                    continue        # empty: nobody played (not the one being played now)
                entry.update(made["summary"], torn=bool(torn))
                if entry["live"] and entry.get("decided"):
                    entry["live"] = False       # still open for a correction, but finished
            except Withheld:
                continue            # a game not over that hides something: not listed
            except RequestError as exc:
                entry["error"] = exc.msg if exc.msg is not None else exc.detail
            out.append(entry)
        return out

    def summary(self, path, result):
        """The listing entry of the recording at ``path``, whose replay is ``result``: its
        game's ``recording_entry``; RequestError (422) for a file of no game listed here."""
        game = game_of(path)
        if game is None or at_table(game) != self.museum:
            raise RequestError(Msg("rig.web.no_companion_game", file=path.name), 422)
        return game.recording_entry(result, is_finished(path), live=self._is_live(path))

    def _is_live(self, path):
        live = self.live()
        return live is not None and live.name == path.name


class Matches(Recordings):
    """The games played at the museum: Cleptómano's matches (``GET /api/matches``)."""
    museum = True


class GameRecordings(Recordings):
    """Every other game's recordings (``GET /api/game/recordings``)."""
    museum = False


def recording_routes(base, recordings, answers):
    """``GET base`` (the listing), ``GET base/ID`` (a replay, with its warnings) and ``GET
    base/ID/recording`` (the JSON Lines file, for download) of ``recordings``."""

    @answers
    async def listing(request):
        return JSONResponse(said(await asyncio.to_thread(recordings.listing),
                                 words_of(request)))

    @answers
    async def replayed(request):
        result, torn = await asyncio.to_thread(recordings.replay, request.path_params["id"])
        return JSONResponse(dict(result, warnings=list(torn)))

    @answers
    async def recording(request):
        rec_id = request.path_params["id"]
        path = await asyncio.to_thread(recordings.served, rec_id)
        return FileResponse(path, media_type="application/jsonl; "
                            "charset=utf-8", filename=rec_id + ".jsonl")

    return [Route(base, listing), Route(base + "/{id}", replayed),
            Route(base + "/{id}/recording", recording)]


def _over(game, result):
    """Whether the game a replay ``result`` is of is over (its outcome says so)."""
    try:
        return bool(game.outcome(result).over)
    except (KeyError, TypeError, ValueError):
        return False
