"""The tournament's leaderboard on the web (README "Tournament"): the standings for the venue's
big screen and for the players' phones, served by the rig's own web stack (Starlette on uvicorn,
:class:`rig.web.server.WebServer`, behind :class:`rig.web.app.Guard`), with no asset from the
internet.

=========================  ===========================================================
``GET /``                  the big-screen view (``static/leaderboard/index.html``)
``GET /phone``             the same page laid out for a phone
``GET /api/standings``     the standings as JSON (:func:`rig.games.cleptomano.rules.standings.standings`,
                           with each rig's status and live match)
``GET /static/...``        the page's script and style sheet
``GET /dom.js``            the phones' pages' words and DOM (``static/dom.js``)
``GET /api/words``         the reader's language and words (:mod:`rig.web.language`)
``POST /api/language``     ``{"language": "ro"}``: the reader's language from now on
=========================  ===========================================================

The page speaks each reader's language, as the phone companion's pages do (its picker, the
``cleptomano_lang`` cookie, else the browser's ``Accept-Language``); the standings are names
and numbers.  Read-only: nothing here changes the standings, which come from the broker (or the recordings)
alone.  The page asks for ``/api/standings`` every :data:`REFRESH_S` seconds.
"""

from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..core.errors import RequestError
from ..core.msg import Msg
from .app import Guard, error, this_machine
from .language import language_routes, words_of
from .server import Who

STATIC = Path(__file__).resolve().parent / "static" / "leaderboard"
DOM_JS = Path(__file__).resolve().parent / "static" / "dom.js"
REFRESH_S = 1.0
DEFAULT_PORT = 8090         # the rig's own phone page is on 8080: both may run on one machine
#: How the leaderboard's web server names itself in the log and its errors.
WHO = Who("leaderboard", "the leaderboard's web server",  # not words: the log's and terminal's
          "give another --port (default %d), or stop the program that holds it; "  # not words
          "--bind chooses the addresses" % DEFAULT_PORT,  # not words: the builder's
          "the standings are no longer served")  # not words: the log's


def build_app(standings, static_dir=STATIC, names=None):
    """The ASGI app serving ``standings()`` (the current standings, JSON-ready)."""
    page = Path(static_dir) / "index.html"

    async def index(request):
        return FileResponse(page, media_type="text/html; charset=utf-8")

    async def api(request):
        return JSONResponse(standings())

    async def dom(request):
        return FileResponse(DOM_JS, media_type="text/javascript; charset=utf-8")

    async def missing(request, exc):
        return error(RequestError(Msg("rig.board.not_here", path=request.url.path[:80]),
                                  exc.status_code), words_of(request))

    def answers(handler):
        async def route(request):
            try:
                return await handler(request)
            except RequestError as exc:
                return error(exc, words_of(request))
        return route

    app = Starlette(routes=[
        Route("/", index), Route("/phone", index), Route("/api/standings", api),
        Route("/dom.js", dom), *language_routes(answers),
        Mount("/static", StaticFiles(directory=static_dir)),
    ], exception_handlers={404: missing, 405: missing})
    return Guard(app, names if names is not None else this_machine())
