"""The table's host phone (issue 31): the one paired phone the table made host at the screen
(``F7`` then its number: :mod:`rig.draw.keymodes`, :meth:`rig.web.pairing.Pairing.make_host`)
reads the audits and opens service mode.

=========================================  ===================================================
``GET /api/audits[?since=YYYY-MM-DD]``     the audits of the recordings, as ``cleptomano
                                           audits --json`` prints them (docs/contracts/cli.md),
                                           from that day on (all of them without ``since``)
``GET /api/audits.csv[?since=...]``        the same as CSV (``cleptomano audits --csv``), a
                                           download (``Content-Disposition: attachment``)
``POST /api/service``                      ``{}``: the rig opens service mode at the screen,
                                           by the host phone's name; 200 ``{"service": true,
                                           "by": "Ana"}``, 409 and the reason when the rig
                                           refuses (a turn runs), 503 when this rig has no
                                           service mode
=========================================  ===================================================

Each answers 401 to a phone that is not paired and 403 to a paired phone that is not the host
(the answer names who is host, never anything the audits hold); a ``since`` that is no day
answers 400 naming it.  The audits are read from the recordings on a thread (the server's loop
never waits for the files), one reading at a time: a second request while one is read answers
429 (try again in a moment), so a phone that asks in a loop cannot keep the Pi's disk and
cores from the referee.  ``open_service(by)`` is injected (the face's
:attr:`rig.web.face.WebFace.open_service`, the host's own once it has one); it raises a
:class:`rig.core.errors.RigError` whose message says why when it refuses.
"""

import asyncio
import re
import threading
from datetime import date

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import RequestError, RigError
from ..core.msg import Msg
from .commands import load_json
from .pairing import quoted

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
AUDITS_TIMEOUT_S = 60.0         # a night's recordings are read in well under a second
SERVICE_TIMEOUT_S = 5.0


def parse_since(values):
    """``?since=``'s day as a ``date`` (None: not given): RequestError (400) naming the value
    for anything but one ``YYYY-MM-DD`` day."""
    if not values:
        return None
    text = values[-1] if len(values) == 1 else values
    try:
        if not isinstance(text, str) or not _DAY.fullmatch(text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise RequestError(Msg("rig.web.bad_since", value=quoted(text))) from None


def host_routes(face, session_of, answers):
    """The routes above, for :func:`rig.web.app.build_app`; ``session_of(request)`` the
    phone's session (or None), ``answers(handler)`` its error answers."""
    reading = threading.Lock()          # one audits reading at a time, whoever asks

    def host_only(request):
        session = session_of(request)
        if session is None:
            raise RequestError(Msg("rig.web.not_paired"), 401)
        if not face.pairing.is_host(session.token):
            host = face.pairing.host
            raise RequestError(Msg("rig.web.not_host", name=session.name) if host is None
                               else Msg("rig.web.not_the_host", name=session.name, host=host),
                               403)
        return session

    async def audits_of(request):
        host_only(request)
        since = parse_since(request.query_params.getlist("since"))
        if not reading.acquire(blocking=False):
            raise RequestError(Msg("rig.web.audits_busy"), 429)
        try:
            from ..shell.audits import audits
            from ..words import english_error
            return await asyncio.wait_for(asyncio.to_thread(
                audits, face.recordings_dir, since, say=english_error), AUDITS_TIMEOUT_S)
        except (OSError, RigError):
            raise RequestError(Msg("rig.web.audits_unreadable"), 503) from None
        except asyncio.TimeoutError:
            raise RequestError(Msg("rig.web.no_answer", seconds=AUDITS_TIMEOUT_S), 503) from None
        finally:
            reading.release()

    @answers
    async def audits_json(request):
        return JSONResponse(await audits_of(request))

    @answers
    async def audits_csv(request):
        from ..shell.audits import to_csv
        out = await audits_of(request)
        name = "audits-%s.csv" % (out["since"] or "all")
        return Response(to_csv(out), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="%s"' % name})

    @answers
    async def service(request):
        session = host_only(request)
        body = await request.body()
        obj = load_json(body) if body.strip() else {}
        if not isinstance(obj, dict) or obj:
            raise RequestError(Msg("rig.web.service_body"))
        opener = face.open_service
        if opener is None:
            raise RequestError(Msg("rig.web.no_service_mode"), 503)
        try:
            await asyncio.wait_for(asyncio.to_thread(opener, session.name), SERVICE_TIMEOUT_S)
        except RigError as exc:
            raise RequestError(exc.msg if isinstance(exc.msg, Msg)
                               else Msg("rig.web.service_refused"), 409) from None
        except asyncio.TimeoutError:
            raise RequestError(Msg("rig.web.no_answer", seconds=SERVICE_TIMEOUT_S), 503) from None
        return JSONResponse({"service": True, "by": session.name})

    return [Route("/api/audits", audits_json), Route("/api/audits.csv", audits_csv),
            Route("/api/service", service, methods=["POST"])]
