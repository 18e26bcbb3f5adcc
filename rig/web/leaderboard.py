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
=========================  ===========================================================

Read-only: nothing here changes the standings, which come from the broker (or the recordings)
alone.  The page asks for ``/api/standings`` every :data:`REFRESH_S` seconds.
"""

from pathlib import Path

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .app import Guard, this_machine

STATIC = Path(__file__).resolve().parent / "static" / "leaderboard"
REFRESH_S = 1.0
DEFAULT_PORT = 8090         # the rig's own phone page is on 8080: both may run on one machine


def build_app(standings, static_dir=STATIC, names=None):
    """The ASGI app serving ``standings()`` (the current standings, JSON-ready)."""
    page = Path(static_dir) / "index.html"

    async def index(request):
        return FileResponse(page, media_type="text/html; charset=utf-8")

    async def api(request):
        return JSONResponse(standings())

    async def missing(request, exc):
        return JSONResponse({"error": "%s is not here; the standings are at GET /api/standings"
                                      % request.url.path}, status_code=exc.status_code)

    app = Starlette(routes=[
        Route("/", index), Route("/phone", index), Route("/api/standings", api),
        Mount("/static", StaticFiles(directory=static_dir)),
    ], exception_handlers={404: missing, 405: missing})
    return Guard(app, names if names is not None else this_machine())
