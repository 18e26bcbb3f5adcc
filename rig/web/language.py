"""Each phone's language: which one it reads, its words for the page, and the picker's choice.

=========================================  ===================================================
``GET /api/words``                         this phone's language and its words:
                                           ``{"language": "es", "languages": {"en":
                                           "English", "es": "Español", ...}, "words": {code:
                                           template, or {cldr_category: template} for a
                                           plural}}`` for the rig's catalog and every game's;
                                           ``?lang=fr`` asks for another language's
``POST /api/language``                     ``{"language": "fr"}``: this phone reads French
                                           from now on (the ``cleptomano_lang`` cookie); the
                                           answer is ``GET /api/words``'s in that language
=========================================  ===================================================

A phone reads the language of its ``cleptomano_lang`` cookie (the page's picker sets it), or
else the one its browser's ``Accept-Language`` prefers (:func:`rig.words.best_language`),
English when it names none the rig speaks.  Each phone chooses its own: the table's screen
keeps the table's language (``[table] language``).  Everything the rig sends a phone is said in
its language at the edge (:func:`said`): snapshots, calls, refusals, listings.  The test
language ``pseudo`` (accented, 40 % longer) is accepted too, never offered by the picker.
"""

import functools

from ..core.errors import RequestError
from ..core.msg import Msg
from ..words import CHOICES, PSEUDO, RIG_DOMAIN, Words, best_language, localize

COOKIE = "cleptomano_lang"
#: A year: the phone keeps its language from one game night to the next.
COOKIE_MAX_AGE_S = 365 * 24 * 3600
SPOKEN = tuple(CHOICES) + (PSEUDO,)


def _spoken(lang):
    return lang if isinstance(lang, str) and lang in SPOKEN else None


def cookie_of(header):
    """The language the ``Cookie`` header ``header`` chose, or None (for the Guard, which has
    no request object)."""
    for part in (header or "").split(";"):
        key, _, value = part.strip().partition("=")
        if key == COOKIE:
            return _spoken(value.strip())
    return None


def language_of_headers(headers):
    """The language of a phone whose request has ``headers`` (a lower-case dict)."""
    return (cookie_of(headers.get("cookie"))
            or best_language(headers.get("accept-language")))


def language_of(request):
    """The language the phone that sent ``request`` (an HTTP request or a WebSocket) reads:
    ``?lang=`` if given, its cookie, or its browser's Accept-Language."""
    return (_spoken(request.query_params.get("lang"))
            or _spoken(request.cookies.get(COOKIE))
            or best_language(request.headers.get("accept-language")))


def words_of(request):
    """:class:`rig.words.Words` in ``request``'s language."""
    return words_in(language_of(request))


@functools.lru_cache(maxsize=None)
def words_in(lang):
    return Words(lang)


def said(obj, words):
    """``obj`` (an answer: dicts, lists, values) with every :class:`~rig.core.msg.Msg` in it (or
    its JSON) said by ``words``: what crosses to a phone."""
    return localize(obj, words)


def plain(obj, depth=0):
    """``obj`` with every :class:`~rig.core.msg.Msg` in it as its JSON (``{"code": ...,
    "params": ...}``): JSON-ready, still in no language (a snapshot the faces keep)."""
    if isinstance(obj, Msg):
        return obj.as_json()
    if depth > 64:
        return obj
    if isinstance(obj, dict):
        return {k: plain(v, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain(v, depth + 1) for v in obj]
    return obj


def refusal_text(exc, words):
    """A refusal's words for a phone: its message said in the phone's language, or its text."""
    m = getattr(exc, "msg", None)
    if isinstance(m, Msg):
        return words.text(m)
    return getattr(exc, "detail", None) or str(exc)


def domains():
    """The catalogs a phone's page needs: the rig's and every registered game's."""
    from ..games import catalog_domain, games
    out = [RIG_DOMAIN]
    for g in games():
        domain = catalog_domain(g)
        if domain not in out:
            out.append(domain)
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _table(lang, chosen):
    return Words(lang).table(chosen)


def words_json(lang):
    """``GET /api/words``'s answer in ``lang``."""
    return {"language": lang, "languages": dict(CHOICES), "words": _table(lang, domains())}


def parse_language(obj):
    """The language a ``POST /api/language`` body (decoded JSON) chooses, or RequestError
    (400) with the choices."""
    if not isinstance(obj, dict) or set(obj) - {"language"}:
        raise RequestError(Msg("rig.web.one_object_with", keys="language"))
    lang = obj.get("language")
    if _spoken(lang) is None:
        raise RequestError(Msg("rig.web.no_such_language", language=_short(lang),
                               choices=", ".join("%s (%s)" % (code, name)
                                               for code, name in CHOICES.items())))
    return lang


def _short(value):
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def language_routes(answers):
    """The routes above, for :func:`rig.web.app.build_app` (and the leaderboard's);
    ``answers(handler)`` makes its refusals answers."""
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from .commands import load_json

    @answers
    async def words(request):
        return JSONResponse(words_json(language_of(request)))

    @answers
    async def language(request):
        lang = parse_language(load_json(await request.body()))
        response = JSONResponse(words_json(lang))
        response.set_cookie(COOKIE, lang, max_age=COOKIE_MAX_AGE_S, samesite="strict",
                            path="/")
        return response

    return [Route("/api/words", words), Route("/api/language", language, methods=["POST"])]


def error(exc, words=None):
    """A refusal's answer: ``{"error": ...}`` in ``words``' language (English by default)."""
    from starlette.responses import JSONResponse
    return JSONResponse({"error": refusal_text(exc, words or words_in("en"))},
                        status_code=exc.status)
