"""The game night on the phones: choose the rig's next game from a paired phone.

=========================================  ===================================================
``GET /api/games``                         the games the rig plays, the registry's, in its
                                           order (anyone; no pairing): each one's ``name``,
                                           ``title``, ``museum`` (played at the museum, its
                                           players from its set-up screen), ``min_players``,
                                           ``max_players`` and ``solo``; the phones' "Play
                                           another game" offers these
``POST /api/night/game``                   ``{"game": "stop-thief", "players": ["Ana",
                                           "Ben"]}`` (a museum game's players may be left
                                           out: the table's stay; ``"end": true`` to end a game in
                                           progress): 200 and what the rig runs next, 401
                                           unpaired, 400 malformed, 409 while a Cleptómano
                                           turn runs or a game is in progress and not over
=========================================  ===================================================

The rig switches in the same process (:func:`rig.cli.cmd_run`): the game on it now stops as
Ctrl-C stops it (its recording closed), and the next one starts, with the same phones paired.
One web server serves the whole night (:class:`Switchboard`): it keeps its sockets, so every
phone keeps its address, its cookie and the server's port, and the face it serves is swapped
(a restart on the same port could lose the port to another program, or race its own closing
sockets).  A phone's page that finds another game on the rig goes to that game's page.
"""

import logging
from dataclasses import dataclass

from ..core.errors import RequestError, RulesError
from ..core.msg import Msg
from ..core.names import check_names
from ..games import game as game_named
from ..games import games
from ..games import names as game_names
from ..games import at_table, settings, title_words
from .commands import load_json
from .language import said, words_of
from .pairing import told_bound
from .server import WebServer

log = logging.getLogger("cleptomano")

NIGHT_GAMES = game_names()   # the registry's (Cleptómano first) when the rig started
CLEPTOMANO = NIGHT_GAMES[0]  # the registry's first game: the rig's own, its night's start
KEYS = ("game", "players", "end")
EXAMPLE = '{"game": "stop-thief", "players": ["Ana", "Ben"]}'


@dataclass(frozen=True)
class Choice:
    """A game chosen for the rig: its name, its players (None: Cleptómano's own set-up), and
    whether the game in progress is to be ended for it."""
    game: str
    players: tuple = None
    end: bool = False


def parse_choice(obj, config=None):
    """A ``POST /api/night/game`` body (decoded JSON) as a :class:`Choice`, or RequestError
    (400) naming the value, what is allowed and the fix.  A game's players are checked by its
    own rules (how many it takes), as ``--players`` is when the rig starts it."""
    if not isinstance(obj, dict):
        raise RequestError(Msg("rig.night.not_a_choice", value=_short(obj), example=EXAMPLE))
    unknown = sorted(set(obj) - set(KEYS))
    if unknown:
        raise RequestError(Msg("rig.night.unknown_key", key=unknown[0][:40], keys=", ".join(KEYS)))
    game, players, end = obj.get("game"), obj.get("players"), obj.get("end", False)
    if not isinstance(game, str) or game not in game_names():
        raise RequestError(Msg("rig.night.no_such_game", game=_short(game),
                               games=", ".join(game_names())))
    if not isinstance(end, bool):
        raise RequestError(Msg("rig.night.bad_end", end=_short(end)))
    if at_table(game_named(game)) and not players:   # its set-up screen's (the table's) players
        return Choice(game, None, end)
    return Choice(game, checked_players(game, players, config), end)


def checked_players(game, players, config=None):
    """``players`` (a list of names) for ``game``, stripped, or RequestError (400)."""
    if not isinstance(players, list) or not players:
        raise RequestError(Msg("rig.night.players_not_list", players=_short(players)))
    try:
        names = check_names(players)
    except RulesError as exc:
        raise RequestError(exc.msg, 400) from None
    chosen = game_named(game)
    try:
        chosen.new_game(tuple(names), 0, settings(chosen, config))   # any seed tells
    except RulesError as exc:
        raise RequestError(Msg("rig.night.players_refused", game=title_words(chosen),
                               reason=exc.msg if exc.msg is not None else str(exc))) from None
    return tuple(names)


def _short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def refusal(face, choice):
    """Why the rig cannot switch now (a 409 RequestError), or None: the running game's own
    ``switch_refusal`` over the face's newest snapshot (a Cleptómano turn is running: a hand
    may be in the museum; a game is in progress and ``choice`` does not end it)."""
    running = face.rig
    playing = face.playing
    if running is None or playing is None:
        raise RequestError(Msg("rig.night.starting"), 503)
    why = playing.switch_refusal(face.board, choice.end)
    return None if why is None else RequestError(why, 409)


def page_of(g):
    """The address of game ``g``'s phone page as the phones have always been told: ``/`` for a
    game played at the museum, ``/games/`` for another; both serve the one phone page."""
    return "/" if at_table(g) else "/games/"


def games_json():
    """``GET /api/games``: every game of the registry, in its order, as the phones offer it."""
    return [{"name": g.name, "title": title_words(g), "museum": at_table(g),
             "min_players": g.min_players, "max_players": g.max_players, "solo": bool(g.solo)}
            for g in games()]


def night_routes(face, paired, answers):
    """The route above, for :func:`rig.web.app.build_app`; ``face.night`` is the
    :class:`rig.shell.night.Night` (None: the rig runs no game night, as in the tests of one
    face)."""
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    @answers
    async def choose(request):
        session = paired(request)
        night = face.night
        if night is None:
            raise RequestError(Msg("rig.night.no_night"), 404)
        choice = parse_choice(load_json(await request.body()), night.config)
        ready = getattr(face, "ready", None)
        if ready is not None:
            await ready()             # a game starting: its rig comes in a moment
        refused = refusal(face, choice)
        if refused is not None:
            raise refused
        night.choose(choice, session.name)
        log.info("Game night: %s chose %s%s%s", session.name, choice.game,
                 " for %s" % ", ".join(choice.players) if choice.players else "",
                 " (ending the game in progress)" if choice.end else "")
        return JSONResponse({"game": choice.game, "players": list(choice.players or ()),
                             "by": session.name,
                             "page": page_of(game_named(choice.game))})

    @answers
    async def listed(request):
        return JSONResponse(said(games_json(), words_of(request)))

    return [Route("/api/games", listed), Route("/api/night/game", choose, methods=["POST"])]


class Switchboard:
    """One web server for the whole night, serving the face of the game on the rig now
    (:meth:`serve` swaps it).  The pairing is the night's: every face is made with it."""

    def __init__(self, web, pairing, **server_options):
        self.pairing = pairing
        self.port = web.port
        self.face = None
        self.loop = None
        self.server = WebServer(self, web.bind, web.port, on_loop=self._attach,
                                on_close=self._close, on_bound=self._bound, **server_options)

    async def __call__(self, scope, receive, send):
        face = self.face
        if face is not None:
            return await face.app(scope, receive, send)
        if scope["type"] == "websocket":                 # the page tries again later:
            await receive()                              # accepted, then closed with 1013
            await send({"type": "websocket.accept"})     # (refused before accepting, it
            return await send({"type": "websocket.close", "code": 1013})   # is an HTTP 403)
        if scope["type"] == "http":
            from .language import error, language_of_headers, words_in
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            await error(RequestError(Msg("rig.night.first_game_starting"), 503),
                        words_in(language_of_headers(headers)))(scope, receive, send)

    def serve(self, face):
        """From now on ``face`` answers the phones; the pages watching the previous one are
        closed (they reconnect to this one and see the game change).  The face has no server
        of its own, so stopping it with its game (as the display's faces stop) leaves the
        night's serving."""
        old, self.face = self.face, face
        if self.loop is not None:
            face.live.attach(self.loop)
            if old is not None:
                try:
                    self.loop.call_soon_threadsafe(old.live.close)
                except RuntimeError:        # the server stopped meanwhile
                    pass

    def farewell(self, timeout_s=1.0):
        """The night ends (Ctrl-C, systemd's stop): every phone watching is told "the rig
        stopped, it will be back" and its socket closed; waits at most about ``timeout_s`` for
        them to have it.  True when every phone had it."""
        import asyncio
        import concurrent.futures
        face, loop = self.face, self.loop
        if face is None or loop is None:
            return True

        async def tell():
            face.live.farewell(Msg("rig.night.rig_stopped"))
            deadline = loop.time() + timeout_s
            while face.live.clients and loop.time() < deadline:
                await asyncio.sleep(0.02)
            return not face.live.clients
        try:
            return asyncio.run_coroutine_threadsafe(tell(), loop).result(timeout_s + 2.0)
        except (RuntimeError, concurrent.futures.TimeoutError):   # the loop closed meanwhile
            return False

    def start(self, timeout_s=5.0):
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
        self.server.start(timeout_s)
        return self

    def stop(self, timeout_s=3.0):
        return self.server.stop(timeout_s)

    def _attach(self, loop):
        self.loop = loop
        if self.face is not None:
            self.face.live.attach(loop)

    def _close(self):
        if self.face is not None:
            self.face.live.close()

    def _bound(self, bound):
        told_bound(self.pairing, bound, self.port)
