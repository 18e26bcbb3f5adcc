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
from ..games.cleptomano.rules.recording import parse_item
from ..games.cleptomano import GAME

#: How long a phone's command waits for the referee's answer.
COMMAND_TIMEOUT_S = 3.0

#: The lines a phone may send: the guard's commands.  Inputs come from the museum's sensors;
#: restart, tick and end lines are the rig's own.
COMMANDS = (ev.Choose, ev.ConfirmLoot, ev.UndoTouch, ev.NewMatch)
EXAMPLES = GAME.example      # Cleptómano's, kept with its game


def load_json(body):
    """A request body's one JSON value; RequestError (400) naming what is wrong."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestError("the body is not UTF-8 text (%s); send one JSON object" % exc.reason)
    return bounded.load_json(text, RequestError, "send one JSON object", what="the body",
                             nests="the body nests arrays or objects too deep:",
                             syntax="the body is not JSON (%s)")


def parse_command(obj, by):
    """The command in ``obj`` (a body's JSON value), given by the phone named ``by``; raises
    RequestError (400) with one message naming what is wrong and what to send."""
    if not isinstance(obj, dict):
        raise RequestError("a command is one JSON object, such as %s; got %s"
                           % (EXAMPLES, type(obj).__name__))
    for key, why in (("t", "the rig stamps the time when the referee takes it"),
                     ("by", "the rig records the paired phone's name")):
        if key in obj:
            raise RequestError("leave %r out of a command: %s" % (key, why))
    try:
        item = parse_item(dict(obj, t=0.0), 1)
    except RecordingError as exc:
        raise RequestError("%s (a command is %s)" % (exc.detail, EXAMPLES)) from None
    if not isinstance(item, COMMANDS):
        raise RequestError("a phone cannot send a %s line; the museum's sensors and the rig "
                           "write those. Send %s" % (_kind(obj), EXAMPLES))
    return replace(item, by=by)


def _kind(obj):
    return next((k for k in ("input", "restart", "tick", "end") if k in obj), "such")
