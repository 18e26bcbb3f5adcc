"""The web face's routes: the phone companion's HTTP contract (README "Phone companion").

=========================================  ===================================================
``GET /``                                  the one phone page, every game's
                                           (``rig/web/static/index.html``, docs/games/phones.md);
                                           ``GET /games/`` answers it too
``GET /api/state``                         the snapshot, as JSON (anyone; read-only)
``GET /api/session``                       ``{"paired": bool, "name": ...}`` for this phone
``POST /api/pair``                         ``{"code": "123456", "name": "Ben's phone"}``: a
                                           session cookie (HttpOnly, SameSite=Strict)
``POST /api/unpair``                       this phone's session ends
``GET /api/seats``                          the match's seats: ``{"seats": [{"name": "Ana",
                                           "free": true}], "paired": bool, "name": ...,
                                           "seat": "Ana" or null, "boot": "..."}`` (anyone;
                                           ``boot`` changes when the rig restarts;
                                           docs/games/phones.md)
``POST /api/seat``                          ``{"name": "Ana"}``: a paired phone takes that
                                           seat (or another name: a spectator); 409 taken
``POST /api/command``                      one command in the running game's recording
                                           vocabulary: 200 and the snapshot after it, 409 and
                                           the reason when the rules refuse it, 401 unpaired,
                                           403 a phone that is no player's (a game whose
                                           phones hold a seat), 400 malformed
                                           (:func:`rig.web.games.command_route`)
``POST /api/layout``                       ``{"layout": "4: L-I R-II; ...", "lasers": 4}``:
                                           every rule the layout breaks, in the guard's words
                                           (``problems``), and the lasers they name
                                           (``bad_lasers``): Cleptómano's check, served as
                                           every game's ``phone_checks`` are
``GET /api/matches``                       the matches recorded here, newest first
``GET /api/matches/ID``                    a match's replay (``cleptomano replay``'s JSON)
``GET /api/matches/ID/recording``          its recording, the JSON Lines file
``WS /api/live``                           the push channel (:mod:`rig.web.live`)
``POST /api/night/game``                   the rig's next game, from a paired phone
                                           (:mod:`rig.web.night`)
``GET /api/words``                         this phone's language and its words for the page
                                           (``?lang=es`` for another; :mod:`rig.web.language`)
``POST /api/language``                     ``{"language": "fr"}``: the phone's language from
                                           now on (the ``cleptomano_lang`` cookie)
``GET /api/audits``, ``/api/audits.csv``    the host phone's audits; ``POST /api/service``
                                           its service mode (:mod:`rig.web.host`)
=========================================  ===================================================

Every refusal is ``{"error": "..."}`` with one message that says what was wrong and what to
send, in the phone's language: its ``cleptomano_lang`` cookie's, else its browser's
``Accept-Language`` (English when it names none the rig speaks).  So are the snapshots, the calls
and the listings: the rig keeps them as codes (:class:`rig.core.msg.Msg`) and says them at this
edge (:func:`rig.web.language.said`), once per language in use.  :class:`Guard` wraps them
all: the Host and Origin checks, the body's size limit and the security headers.
"""

import asyncio
import json
import socket

from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from ..core.errors import RequestError
from ..core.msg import Msg
from ..core.names import normal, same_name_key, seat_key
from .commands import load_json
from .games import check_routes, command_route, game_routes, recordings_routes
from .gate import LogThrottle, client_key
from .host import host_routes
from .language import (error, language_of, language_of_headers, language_routes, refusal_text, said,
                       words_in, words_of)
from .night import night_routes

COOKIE = "cleptomano_session"
MAX_BODY_BYTES = 16 * 1024
SEND_TIMEOUT_S = 5.0
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
     b"base-uri 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


# --- the guard around every request -----------------------------------------------------------

def this_machine():
    """The host names a phone may use for the rig besides its addresses: ``localhost``, the
    machine's name and its mDNS ``.local`` name."""
    name = socket.gethostname().lower()
    return {"localhost", name, name + ".local"}


def _host_ok(host, names):
    """Whether a Host header names this rig: an IP address (a name that resolves here only by
    DNS rebinding is refused) or one of ``names``."""
    from ..core.addresses import parse_address
    if host.startswith("["):
        return parse_address(host[1:].split("]")[0]) is not None
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return parse_address(name) is not None or name.lower() in names


class Guard:
    """ASGI middleware: refuses a request whose Host is not this rig (DNS rebinding), an
    unsafe request or a WebSocket from another origin (CSRF, cross-site WebSocket hijacking),
    and a body over ``max_body`` bytes; adds the security headers to every answer.  Each kind
    of refusal is logged through ``refusals`` (a :class:`rig.web.gate.LogThrottle`: a line a
    kind every few seconds at most), which the server's gate shares."""

    def __init__(self, app, names, max_body=MAX_BODY_BYTES, refusals=None):
        self.app = app
        self.names = names
        self.max_body = max_body
        self.refusals = refusals if refusals is not None else LogThrottle()

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(scope, headers)
        words = words_in(language_of_headers(headers))
        if problem is not None:
            self.refusals.warning("refusals (%d, %s)" % (problem.status, problem.msg.code),
                                  "phones: refused a request from %s: %s", _who(scope),
                                  problem.msg)
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008})
            return await self._refuse(problem, send, words)
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            body = await self._body(headers, receive)
            if body is _GONE:
                return None                 # the client went (or the server closed it)
            if body is None:
                self.refusals.warning("refusals (413, body over the limit)",
                                      "phones: refused a request from %s: its body is over "
                                      "%d bytes", _who(scope), self.max_body)
                return await self._refuse(RequestError(
                    Msg("rig.web.body_too_big", most=str(self.max_body)), 413), send, words)
            receive = _replay(body)

        async def secured(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + _HEADERS)
            await send(message)

        await self.app(scope, receive, secured)

    def _problem(self, scope, headers):
        host = headers.get("host", "")
        if not _host_ok(host, self.names):
            return RequestError(Msg("rig.web.foreign_host", host=host[:80]), 421)
        if scope["type"] == "http" and scope["method"] not in _UNSAFE:
            return None
        origin = headers.get("origin")
        if origin is not None and origin not in ("http://" + host, "https://" + host):
            return RequestError(Msg("rig.web.foreign_origin", origin=origin[:80],
                                    page="http://" + host[:80]), 403)
        if origin is None and headers.get("sec-fetch-site") in ("cross-site", "same-site"):
            return RequestError(Msg("rig.web.foreign_site"), 403)
        return None

    async def _body(self, headers, receive):
        """The whole body, None as soon as it is over the limit, ``_GONE`` when the client
        went before it was all in (a partial body is never answered)."""
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return None
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return _GONE
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks)

    async def _refuse(self, exc, send, words):
        body = json.dumps({"error": refusal_text(exc, words)}, separators=(",", ":"),
                          ensure_ascii=False).encode("utf-8")
        await send({"type": "http.response.start", "status": exc.status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode("ascii")),
                                (b"connection", b"close")] + _HEADERS})
        await send({"type": "http.response.body", "body": body})


_GONE = object()


def _who(scope):
    """The device a request came from, as the log names it (:func:`rig.web.gate.client_key`)."""
    client = scope.get("client")
    return client_key(client[0] if client else None)


def _replay(body):
    sent = False

    async def receive():
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive


# --- the routes ---------------------------------------------------------------------------------

def build_app(face, static_dir, names=None):
    """The ASGI app of ``face`` (a :class:`rig.web.face.WebFace`): its pairing, snapshots, push
    channel and the rig it commands.  ``names``: the host names the rig answers to besides its
    addresses (default :func:`this_machine`)."""
    refusals = LogThrottle()            # the refusals' log, shared with the Guard and the server

    def session_of(request):
        return face.pairing.session(request.cookies.get(COOKIE))

    def paired(request):
        session = session_of(request)
        if session is None:
            raise RequestError(Msg("rig.web.not_paired"), 401)
        return session

    async def body_object(request, keys):
        obj = load_json(await request.body())
        if not isinstance(obj, dict):
            raise RequestError(Msg("rig.web.one_object_with", keys=", ".join(keys)))
        unknown = sorted(set(obj) - set(keys))
        if unknown:
            raise RequestError(Msg("rig.web.unknown_key", key=unknown[0][:40],
                                   keys=", ".join(keys)))
        return obj

    def answers(handler):
        async def route(request):
            try:
                return await handler(request)
            except RequestError as exc:
                return error(exc, words_of(request))
        return route

    @answers
    async def state(request):
        return JSONResponse(said(face.state(), words_of(request)))

    @answers
    async def session(request):
        s = session_of(request)
        wake = getattr(face.rig, "wake", None)      # a phone opened the page: the rig's
        if wake is not None:                        # attract screen wakes (issue 31)
            wake()
        return JSONResponse({"paired": s is not None, "name": s.name if s else None})

    @answers
    async def pair(request):
        obj = await body_object(request, ("code", "name"))
        device = client_key(request.client.host if request.client else None)
        try:
            s = face.pairing.pair(obj.get("code"), obj.get("name"), device)
        except RequestError as exc:
            if exc.status == 429:
                refusals.warning("refusals (429, pairing locked for one device)",
                                 "phones: pairing refused to %s: %s", device, exc.msg)
            raise
        response = JSONResponse({"paired": True, "name": s.name})
        response.set_cookie(COOKIE, s.token, httponly=True, samesite="strict", path="/")
        return response

    def players():
        return tuple(getattr(face.rig, "players", None) or ())

    def seat_of(name):
        """The player a phone named ``name`` sits as, or None (a spectator)."""
        seat = seat_key(name)
        return next((p for p in players() if same_name_key(normal(p)) == seat), None)

    @answers
    async def seats(request):
        s = session_of(request)
        held = {seat_key(n) for n in face.pairing.view().phones}
        mine = seat_of(s.name) if s is not None else None
        return JSONResponse({
            "seats": [{"name": p, "free": same_name_key(normal(p)) not in held}
                      for p in players()],
            "paired": s is not None, "name": s.name if s else None, "seat": mine,
            "boot": face.pairing.boot})

    @answers
    async def seat(request):
        s = paired(request)
        obj = await body_object(request, ("name",))
        device = client_key(request.client.host if request.client else None)
        moved = face.pairing.seat(s.token, obj.get("name"), device)
        return JSONResponse({"paired": True, "name": moved.name, "seat": seat_of(moved.name)})

    @answers
    async def unpair(request):
        s = paired(request)
        face.pairing.unpair(s.token)
        response = JSONResponse({"paired": False, "name": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response

    async def live(websocket):
        address = client_key(websocket.client.host if websocket.client else None)
        why = face.live.refusal(address)
        client = face.live.join(language_of(websocket), address) if why is None else None
        if client is None:
            if why is not None and why[0] != "stopping":
                refusals.warning("refusals (1013, too many watchers: %s)" % why[0],
                                 "phones: refused a watcher from %s: %s", address, why[1])
            try:
                await websocket.accept()        # accepted, then closed with its reason: a
                await websocket.close(code=1013)    # refusal before accepting is an HTTP 403
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass                            # it went first
            return
        await websocket.accept()
        reader = asyncio.ensure_future(_drain(websocket))
        # The phone going (its reader done) wakes the client as a push does: one wait per push,
        # no task made for it (ten phones are woken ten times a push).
        reader.add_done_callback(lambda _: client.wake.set())
        try:
            while not face.live.closing:
                await client.wake.wait()
                if reader.done():
                    return
                await _send(websocket, client)
            await _send(websocket, client)      # what was pushed before the rig stopped
            await websocket.close(code=1001)
        except (WebSocketDisconnect, asyncio.TimeoutError, RuntimeError, OSError):
            return
        finally:
            face.live.leave(client)
            reader.cancel()

    routes = [
        Route("/api/state", state),
        Route("/api/session", session),
        Route("/api/pair", pair, methods=["POST"]),
        Route("/api/unpair", unpair, methods=["POST"]),
        Route("/api/seats", seats),
        Route("/api/seat", seat, methods=["POST"]),
        Route("/api/command", command_route(face, paired, answers, False), methods=["POST"]),
        *check_routes(answers, body_object),       # each game's checks: POST /api/layout
        *recordings_routes(face, answers),         # /api/matches, /api/game/recordings
        *language_routes(answers),    # each phone's words: rig.web.language
        WebSocketRoute("/api/live", live),
        *game_routes(face, paired, answers),       # the other games: rig.web.games
        *night_routes(face, paired, answers),      # the next game: rig.web.night
        *host_routes(face, session_of, answers),   # the host phone: rig.web.host
        # The one phone page (static/index.html) answers / and, for the pages that knew the
        # games' own page there, /games/ too; its one relative script, the games' frame,
        # answers from both.
        Route("/games/", page(static_dir, "index.html")),
        Route("/games.js", page(static_dir, "games/games.js")),
        Mount("/", StaticFiles(directory=static_dir, html=True, check_dir=False)),
    ]
    app = Starlette(routes=routes, exception_handlers={404: not_there, 405: not_there})
    return Guard(app, this_machine() if names is None else set(names), refusals=refusals)


def page(static_dir, name):
    """A route answering the file ``name`` of ``static_dir`` (404 when it has none)."""
    from pathlib import Path

    from starlette.exceptions import HTTPException
    from starlette.responses import FileResponse
    path = Path(static_dir) / name

    async def served(request):
        if not path.is_file():
            raise HTTPException(404)
        return FileResponse(path)
    return served


async def not_there(request, exc):
    """An address or a method the API does not have: one JSON error under /api (``/api``
    itself too: ``/api/matches/..`` reaches it so), the plain page elsewhere."""
    path = request.url.path
    if path != "/api" and not path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code)
    if exc.status_code == 405:
        return error(RequestError(Msg("rig.web.wrong_method", path=request.url.path[:80],
                                      method=request.method[:10]), 405), words_of(request))
    return error(RequestError(Msg("rig.web.no_such_address", path=request.url.path[:80]), 404),
                 words_of(request))


async def _send(websocket, client):
    """Send a phone what waits for it, the batch bounded by one timeout."""
    async with asyncio.timeout(SEND_TIMEOUT_S):
        for text in client.take():
            await websocket.send_text(text)
            client.sent += 1


async def _drain(websocket):
    """Read (and drop) what a phone sends, until it goes: the channel is one way.  A message
    over the size limit closes it (the server's ``ws_max_size``)."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
