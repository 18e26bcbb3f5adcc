"""A phone's command, for every game: the body of ``POST /api/command`` (and of its older twin
``POST /api/game/command``), read as a recording line is.

The phone speaks the running game's recording vocabulary (README "Recordings"): exactly what one
line holds, minus ``t`` (the referee stamps it when it takes the command) and ``by`` (the rig
adds the player the paired phone sits as, or the phone's own name for a game whose phones hold
no seat: :attr:`rig.core.contract.Game.seated_phones`).  So it is checked by the game's own
parser (its ``command_from_json``), and what the host records is the line a replay reads back.
Only the commands the game lets a phone send (``phone_commands``) pass.
"""

from dataclasses import replace

from ..core import bounded
from ..core.errors import RecordingError, RequestError
from ..core.msg import Msg, N_

#: How long a phone's command waits for the referee's answer.
COMMAND_TIMEOUT_S = 3.0


class _NotJson(Exception):
    """What :func:`rig.core.bounded.load_json` found wrong, in the parser's own words."""


def load_json(body):
    """A request body's one JSON value; RequestError (400) naming what is wrong (the JSON
    parser's own words, which are technical, stay English)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError(Msg("rig.web.not_utf8", why=exc.reason))
    if text.count("[") + text.count("{") > bounded.MAX_DEPTH:
        found = bounded.json_depth(text)
        if found > bounded.MAX_DEPTH:
            raise RequestError(Msg("rig.web.too_deep", most=bounded.MAX_DEPTH, found=found))
    try:
        return bounded.load_json(text, _NotJson, "", syntax="%s")
    except _NotJson as exc:
        raise RequestError(Msg("rig.web.not_json", why=str(exc).rstrip("; "))) from None


def parse_command(obj, by, game=None):
    """The command of ``game`` (a :class:`rig.core.contract.Game`; None: the registry's first)
    in ``obj`` (a body's JSON value), given by ``by``; raises RequestError (400) with one
    message naming what is wrong and what to send."""
    if game is None:
        from ..games import games
        game = games()[0]
    example = game.example
    if not isinstance(obj, dict):       # the words each endpoint has always answered
        raise RequestError(Msg("rig.web.game_command_not_object", example=example)
                           if game.seated_phones else
                           Msg("rig.web.command_not_object", example=example,
                               got=type(obj).__name__))
    for key, why in (("t", N_("rig.web.why_no_t")), ("by", N_("rig.web.why_no_by"))):
        if key in obj:
            raise RequestError(Msg("rig.web.command_leave_out", key=key, why=Msg(why)))
    try:
        item = game.command_from_json(obj)
    except RecordingError as exc:
        raise RequestError(Msg("rig.web.bad_command", why=exc.detail, example=example)) \
            from None
    allowed = game.phone_commands
    if allowed is not None and not isinstance(item, allowed):
        raise RequestError(Msg("rig.web.command_not_phone", kind=_kind(obj), example=example))
    return replace(item, by=by)


def _kind(obj):
    """The kind of line ``obj`` is, as a refusal names it: its first key."""
    return str(next(iter(obj), "such"))[:20]


def __getattr__(name):
    """``COMMANDS``: the registry's first game's phone commands (what this module once held
    for Cleptómano alone)."""
    if name == "COMMANDS":
        from ..games import games
        return games()[0].phone_commands
    raise AttributeError(name)
