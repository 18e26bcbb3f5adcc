"""The companion games on the phone companion's API (README "Playing the other games").

=========================================  ===================================================
``GET /api/game``                          the game on the rig now: its public view, as the
                                           screen shows it (anyone; no pairing)
``GET /api/playing``                       the game the one phone page loads the part of:
                                           ``{"game": "stop-thief", "title": "Stop Thief!",
                                           "parts": ["js"]}`` (which of its folder's
                                           ``phone.js``, ``.html``, ``.css`` it has; anyone)
``GET /api/game/me``                       the paired phone's player's own view (their secret
                                           entries, what they may send now)
``GET /api/game/board``                    the game's board map, as its file gives it (anyone;
                                           the phones draw a caught thief's path on it); 404
                                           for a game without a map
``POST /api/game/command``                 one command in the game's recording vocabulary,
                                           without ``t`` and ``by``: 200 and the player's view
                                           after it, 409 and the reason when the game refuses
                                           it, 401 unpaired, 403 a phone that is no player's,
                                           400 malformed, 404 when Cleptómano runs (the one
                                           command endpoint, :func:`command_route`, answering
                                           the player's view)
``GET /api/game/recordings``               the games recorded here (every game's but those
                                           played at the museum, which ``GET /api/matches``
                                           lists: one route, :func:`recordings_routes`), newest
                                           first: each one's game, date, players and result
                                           in words, or the one line that says why its
                                           recording does not replay; a game not over yet
                                           is not listed (its seed names the dice to come)
``GET /api/game/recordings/ID``            a game's replay (``cleptomano replay``'s JSON);
                                           403 while the game is not over
``GET /api/game/recordings/ID/recording``  its recording, the JSON Lines file; 403 while the
                                           game is not over
``GET /games/phone/NAME.js``               the game's part of the phone page: its
                                           folder's ``phone.js`` (anyone; 404 for a game
                                           without one); ``NAME.html`` and ``NAME.css`` its
                                           ``phone.html`` and ``phone.css`` likewise
=========================================  ===================================================

A phone plays as the player whose name it was paired with (``"Ben"``, or ``"Ben's phone"``):
its seat, which pairing gives to one phone at a time (:mod:`rig.web.pairing`); a game whose
phones hold no seat (``seated_phones`` False: Cleptómano's guard's phone) commands as the phone
itself, and has no player's view: ``/api/game*`` answer 404 for it, as they always have.
The same pairing, Host and Origin checks, body limit and push channel as the rest of the API
(:mod:`rig.web.app`): while a game runs, ``GET /api/state`` and the live channel carry its
``phone_json`` (:meth:`rig.games.base.GameBase.phone_json`).  Nothing here ever holds a secret
of the game: the public view is the game's own (proven free of them by each game's tests), a
player's view holds only their own.
Once the game is over, that snapshot says so and gives its result in words (the page's
after-game); the recordings are those of the rig's recordings folder, as for Cleptómano's
matches (:mod:`rig.web.matches`).
"""

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import RequestError
from ..core.msg import Msg
from ..core.names import normal, same_name_key, seat_key
from ..games import data, games, title_words
from ..words import english
from .commands import COMMAND_TIMEOUT_S, load_json, parse_command
from .language import said, words_of
from .matches import GameRecordings, Matches, recording_routes

#: What the game's folder may hold of the phone page, by the name it is served under.
PHONE_PARTS = {"js": ("phone.js", "text/javascript"), "html": ("phone.html", "text/html"),
               "css": ("phone.css", "text/css")}


def phone_part(name, kind="js"):
    """The phone page's part of the game named ``name`` (``"stop-thief"``): the text of its
    folder's ``phone.js`` (``kind`` "js"; "html", "css": its ``phone.html``, ``phone.css``),
    or RequestError (404) naming the games that have one."""
    filename = PHONE_PARTS[kind][0]
    found = {g.name: g for g in games() if data(g, filename) is not None}
    if name not in found:
        raise RequestError(Msg("rig.web.no_phone_script", name=repr(name[:40]),
                               games=", ".join(found)), 404)
    return data(found[name], filename)


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


def command_route(face, paired, answers, with_view):
    """The one command endpoint, for every game: the paired phone's command, parsed by the
    running game (:func:`rig.web.commands.parse_command`), by the player the phone sits as (or
    the phone itself, for a game whose phones hold no seat), put on the host's inbox and waited
    for.  ``with_view`` answers the player's own view (``POST /api/game/command``), else the
    snapshot after it (``POST /api/command``)."""

    @answers
    async def command(request):
        session = paired(request)
        playing = face.playing
        if with_view and (face.rig is None or playing is None or not playing.seated_phones):
            raise RequestError(Msg("rig.web.no_other_game"), 404)
        obj = load_json(await request.body())
        if playing is None:
            raise RequestError(Msg("rig.web.not_refereeing"), 503)
        seated = playing.seated_phones
        player = player_of(face.rig, session.name) if seated and face.rig is not None else None
        item = parse_command(obj, player if seated else session.name, playing)
        if seated and face.rig is None:
            raise RequestError(Msg("rig.web.not_refereeing"), 503)
        answer = await face.command(item, COMMAND_TIMEOUT_S)
        if not answer.accepted:
            raise RequestError(answer.reason, 409)
        if with_view:
            return JSONResponse(said(face.rig.player_view(player), words_of(request)))
        return JSONResponse(said(face.state(answer.board), words_of(request)))

    return command


def check_routes(answers, body_object):
    """``POST /api/<name>`` for each pure check of every registered game
    (``phone_checks``: Cleptómano's ``/api/layout``)."""
    routes = []
    for g in games():
        for name, keys, answer in g.phone_checks:
            def make(keys=keys, answer=answer):
                @answers
                async def check(request):
                    obj = await body_object(request, keys)
                    return JSONResponse(said(answer(obj, english), words_of(request)))
                return check
            routes.append(Route("/api/" + name, make(), methods=["POST"]))
    return routes


def recordings_routes(face, answers):
    """The one recordings route, under its two bases: ``/api/matches`` lists the games played
    at the museum (Cleptómano's matches), ``/api/game/recordings`` every other game's, each
    entry the game's own ``recording_entry``."""
    return [*recording_routes("/api/matches", Matches(face.recordings_dir, face.recording_path),
                              answers),
            *recording_routes("/api/game/recordings",
                              GameRecordings(face.recordings_dir, face.recording_path),
                              answers)]


def game_routes(face, paired, answers):
    """The routes above, for :func:`rig.web.app.build_app`; ``paired(request)`` and
    ``answers(handler)`` are its session check and its error answers."""

    def host():
        playing = face.playing
        if face.rig is None or playing is None or not playing.seated_phones:
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

    def part(kind):
        @answers
        async def served(request):
            return Response(phone_part(request.path_params["name"], kind),
                            media_type=PHONE_PARTS[kind][1])
        return served

    @answers
    async def playing(request):
        running = face.playing
        if running is None:
            raise RequestError(Msg("rig.web.game_starting"), 503)
        return JSONResponse({"game": running.name, "title": running.title,
                             "parts": [kind for kind, (filename, _) in PHONE_PARTS.items()
                                       if data(running, filename) is not None]})

    return [*(Route("/games/phone/{name}.%s" % kind, part(kind)) for kind in PHONE_PARTS),
            Route("/api/playing", playing),
            Route("/api/game", game), Route("/api/game/me", me),
            Route("/api/game/board", board),
            Route("/api/game/command", command_route(face, paired, answers, True),
                  methods=["POST"])]
