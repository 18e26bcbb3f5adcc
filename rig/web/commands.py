"""A phone's command: the body of ``POST /api/command``, read as a recording line is.

The phone speaks the recording's own vocabulary (README "Recordings"): exactly what one line
holds, minus ``t`` (the referee stamps it when it takes the command) and ``by`` (the rig adds
the paired phone's name).  So it is checked by the recording's own parser
(:func:`rig.games.cleptomano.rules.recording.parse_item`), and what the referee records is the line
a replay reads back.
"""

from dataclasses import replace

from ..games.cleptomano.rules import events as ev
from ..core import bounded
from ..core.errors import RecordingError, RequestError
from ..core.msg import Msg, N_
from ..games.cleptomano.rules.recording import parse_item
from ..games.cleptomano import GAME

#: How long a phone's command waits for the referee's answer.
COMMAND_TIMEOUT_S = 3.0

#: The lines a phone may send: the guard's commands.  Inputs come from the museum's sensors;
#: restart, tick and end lines are the rig's own.
COMMANDS = (ev.Choose, ev.ConfirmLoot, ev.UndoTouch, ev.NewMatch)
EXAMPLES = GAME.example      # Cleptómano's, kept with its game


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


def parse_command(obj, by):
    """The command in ``obj`` (a body's JSON value), given by the phone named ``by``; raises
    RequestError (400) with one message naming what is wrong and what to send."""
    if not isinstance(obj, dict):
        raise RequestError(Msg("rig.web.command_not_object", example=EXAMPLES,
                               got=type(obj).__name__))
    for key, why in (("t", N_("rig.web.why_no_t")), ("by", N_("rig.web.why_no_by"))):
        if key in obj:
            raise RequestError(Msg("rig.web.command_leave_out", key=key, why=Msg(why)))
    try:
        item = parse_item(dict(obj, t=0.0), 1)
    except RecordingError as exc:
        raise RequestError(Msg("rig.web.bad_command", why=exc.detail, example=EXAMPLES)) \
            from None
    if not isinstance(item, COMMANDS):
        raise RequestError(Msg("rig.web.command_not_phone", kind=_kind(obj), example=EXAMPLES))
    return replace(item, by=by)


def _kind(obj):
    return next((k for k in ("input", "restart", "tick", "end") if k in obj), "such")
