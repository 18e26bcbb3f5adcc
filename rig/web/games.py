"""The companion games on the phone companion's API (README "Playing the other games").

=========================================  ===================================================
``GET /api/game``                          the game on the rig now: its public view, as the
                                           screen shows it (anyone; no pairing)
``GET /api/game/me``                       the paired phone's player's own view (their secret
                                           entries, what they may send now)
``GET /api/game/board``                    the game's board map, as its file gives it (anyone;
                                           the phones draw a caught thief's path on it); 404
                                           for a game without a map
``POST /api/game/command``                 one command in the game's recording vocabulary,
                                           without ``t`` and ``by``: 200 and the player's view
                                           after it, 409 and the reason when the game refuses
                                           it, 401 unpaired, 403 a phone that is no player's,
                                           400 malformed, 404 when Cleptómano runs
``GET /api/game/recordings``               the games recorded here (every game's), newest
                                           first: each one's game, date, players and result
                                           in words, or the one line that says why its
                                           recording does not replay; a game not over yet
                                           is not listed (its seed names the dice to come)
``GET /api/game/recordings/ID``            a game's replay (``cleptomano replay``'s JSON);
                                           403 while the game is not over
``GET /api/game/recordings/ID/recording``  its recording, the JSON Lines file; 403 while the
                                           game is not over
``GET /games/phone/NAME.js``               the game's part of the phones' games page: its
                                           folder's ``phone.js`` (anyone; 404 for a game
                                           without one)
=========================================  ===================================================

A phone plays as the player whose name it was paired with (``"Ben"``, or ``"Ben's phone"``):
its seat, which pairing gives to one phone at a time (:mod:`rig.web.pairing`).
The same pairing, Host and Origin checks, body limit and push channel as the rest of the API
(:mod:`rig.web.app`): while a game runs, ``GET /api/state`` and the live channel carry
:func:`game_json`.  Nothing here ever holds a secret of the game: the public view is the
game's own (proven free of them by each game's tests), a player's view holds only their own.
Once the game is over, :func:`game_json` says so and gives its result in words (the page's
after-game); the recordings are those of the rig's recordings folder, as for Cleptómano's
matches (:mod:`rig.web.matches`).
"""

import re
from dataclasses import asdict, replace

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import RecordingError, RequestError
from ..core.msg import Msg, N_
from ..core.names import normal, same_name_key, seat_key
from ..core.phones import public
from ..games import data, games, title_words
from ..shell.storage import game_of
from .commands import COMMAND_TIMEOUT_S, load_json
from .language import said, words_of
from .matches import STAMP, Recordings, recording_routes

def game_json(screen):
    """What anyone may read of the game on the rig: its name, public view, message line,
    players, the phones' pairing without its code, and whether it is over (then its result
    in words)."""
    return {"game": screen.game, "view": screen.view, "message": screen.message,
            "players": list(screen.players),
            "phones": None if screen.phones is None else asdict(public(screen.phones)),
            "over": screen.over, "outcome": screen.outcome}


class GameRecordings(Recordings):
    """The companion games' recordings (``stop-thief-*.jsonl``, ``stolen-paintings-*``,
    ``chest-heist-*``, ``canine-*``): each one's game (by its header, as ``cleptomano
    replay`` finds it), players and result in the words ``cleptomano history`` prints."""

    # Read from the registry at each listing, so a game registered later is listed too.
    @property
    def ID(self):
        return re.compile("^(%s)-%s" % ("|".join(re.escape(g.prefix) for g in games()
                                                  if not g.museum), STAMP))

    @property
    def GLOBS(self):
        return tuple("%s-*.jsonl" % g.prefix for g in games() if not g.museum)

    NOT_AN_ID = N_("rig.web.not_a_game_id")
    NO_SUCH = N_("rig.web.no_such_game_recording")
    EXAMPLE = "chest-heist-20261201-201500"
    LISTED_AT = "GET /api/game/recordings"

    def summary(self, path, result):
        game = game_of(path)
        if game is None or game.museum:
            raise RequestError(Msg("rig.web.no_companion_game", file=path.name), 422)
        return {"game": game.name, "title": title_words(game),
                "players": list(game.players_in(result)),
                "outcome": game.outcome_words(game.outcome(result))}


def phone_script(name):
    """The games page's part of the game named ``name`` (``"stop-thief"``): the text of its
    folder's ``phone.js`` (``rig/games/stop_thief/phone.js``), or RequestError (404) naming the
    games that have one."""
    found = {g.name: g for g in games() if data(g, "phone.js") is not None}
    if name not in found:
        raise RequestError(Msg("rig.web.no_phone_script", name=repr(name[:40]),
                               games=", ".join(found)), 404)
    return data(found[name], "phone.js")


def player_of(host, phone_name):
    """The player a phone named ``phone_name`` plays as (the seat its name names, by the one
    rule of :mod:`rig.core.names`: "Ben", "ben’s phone"), or RequestError (403) saying how
    to pair as one.  Pairing gives a seat to one phone at a time (:mod:`rig.web.pairing`), so
    the phone found here is that seat's own."""
    seat = seat_key(phone_name)
    for player in host.players:
        if same_name_key(normal(player)) == seat:
            return player
    raise RequestError(Msg("rig.web.not_a_player", phone=phone_name,
                           players=", ".join(host.players)), 403)


def game_routes(face, paired, answers):
    """The routes above, for :func:`rig.web.app.build_app`; ``paired(request)`` and
    ``answers(handler)`` are its session check and its error answers."""

    def host():
        if face.rig is None or face.game == "cleptomano":     # not a GameWebFace's host
            raise RequestError(Msg("rig.web.no_other_game"), 404)
        return face.rig

    @answers
    async def game(request):
        host()
        return JSONResponse(said(face.state(), words_of(request)))

    @answers
    async def board(request):
        running = host()
        drawn = running.adapter.map_json(running.game)
        if drawn is None:
            raise RequestError(Msg("rig.web.no_board_map", game=title_words(running.adapter)), 404)
        return JSONResponse(said(drawn, words_of(request)))

    @answers
    async def me(request):
        session = paired(request)
        running = host()
        return JSONResponse(said(running.player_view(player_of(running, session.name)),
                                 words_of(request)))

    @answers
    async def command(request):
        session = paired(request)
        running = host()
        player = player_of(running, session.name)
        obj = load_json(await request.body())
        example = running.adapter.example
        if not isinstance(obj, dict):
            raise RequestError(Msg("rig.web.game_command_not_object", example=example))
        try:
            item = running.adapter.command_from_json(obj)
        except RecordingError as exc:
            raise RequestError(Msg("rig.web.bad_command", why=exc.detail, example=example)) \
                from None
        answer = await face.command(replace(item, by=player), COMMAND_TIMEOUT_S)
        if not answer.accepted:
            raise RequestError(answer.reason, 409)
        return JSONResponse(said(running.player_view(player), words_of(request)))

    @answers
    async def phone(request):
        return Response(phone_script(request.path_params["name"]), media_type="text/javascript")

    recordings = GameRecordings(face.recordings_dir, face.recording_path)
    return [Route("/games/phone/{name}.js", phone),
            Route("/api/game", game), Route("/api/game/me", me),
            Route("/api/game/board", board),
            Route("/api/game/command", command, methods=["POST"]),
            *recording_routes("/api/game/recordings", recordings, answers)]
