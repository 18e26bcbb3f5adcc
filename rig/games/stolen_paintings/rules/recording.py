"""Stolen Paintings' recording: JSON Lines, a header then one command a line.

::

    {"recording": "stolen-paintings", "version": 1, "players": ["Ana", "Ben", "Caro"],
     "exhibition_s": 60, "max_marks": 3, "wrong_mark_cost": 0}
    {"t": 5.0, "start": true, "by": "Ana"}
    {"t": 70.2, "steal": [2, 6], "by": "Ana"}
    {"t": 81.0, "mark": [2, 5], "by": "Ben"}
    {"t": 95.5, "end": true}

The three settings are optional (the defaults above).  The game has no chance, so no seed.
Ticks are not recorded: a replay ends each exhibition at its own deadline, as the live game did.
The end line (issue 30; optional: a recording from before it, or one cut off by a crash, has
none) is written when the rig stops the game cleanly, at the time it stopped: a replay lets
time pass to it, so an exhibition whose countdown ran out after the last command replays as
over, as the live game had it.  Nothing after the end line is read.
"""

from rig.core.errors import RulesError
from rig.core.gamekit import check_header, command_line, dumps, fail, read_kind, read_lines, replay_items
from . import commands as cmd
from .model import new_game
from .rules import step
from .views import GAME, result

_SETTINGS = ("exhibition_s", "max_marks", "wrong_mark_cost")
_KINDS = {"start": (), "steal": (), "mark": (), "end": ()}


def header(game):
    """The first line that makes this game again."""
    out = {"recording": GAME, "version": 1, "players": list(game.players)}
    out.update({k: getattr(game.settings, k) for k in _SETTINGS})
    return out


def line(command):
    """The recording line for an accepted command (None for a Tick, which is not recorded)."""
    if isinstance(command, cmd.Start):
        return command_line(command, start=True)
    if isinstance(command, cmd.Steal):
        return command_line(command, steal=list(command.paintings))
    if isinstance(command, cmd.Mark):
        return command_line(command, mark=list(command.paintings))
    if isinstance(command, cmd.Tick):
        return None
    raise TypeError("cannot record %r" % (command,))


def end_line(t):
    """The line that closes a recording the rig stopped cleanly at ``t``."""
    return {"t": t, "end": True}


def parse_header(obj, number):
    check_header(obj, GAME, ("players",) + _SETTINGS, number)
    try:
        return new_game(obj.get("players"), **{k: obj[k] for k in _SETTINGS if k in obj})
    except RulesError as exc:
        fail(str(exc), number)


def parse_item(obj, number, last_t=0.0):
    kind = read_kind(obj, _KINDS, number, last_t)
    t, by, value = obj["t"], obj.get("by"), obj[kind]
    if kind in ("start", "end"):
        if value is not True:
            fail("%s must be true, got %r" % (kind, value), number)
        if kind == "end":
            if by is not None:
                fail("the end line says no \"by\": the rig writes it when it stops", number)
            return cmd.Tick(t)          # time passes to the stop, then nothing more
        return cmd.Start(t, by)
    if not isinstance(value, list):
        fail("%s %r must be a list of painting numbers 1 to 8" % (kind, value), number)
    if kind == "steal":
        return cmd.Steal(t, by, tuple(value))
    return cmd.Mark(t, by, tuple(value))


def restore_lines(lines, path=None):
    """The game as a recording's lines leave it (the host resumes an unfinished one so)."""
    game, items = read_lines(lines, parse_header, parse_item, path,
                             stop=lambda item: isinstance(item, cmd.Tick))
    return replay_items(game, items, step, path=path)


def replay_lines(lines, path=None):
    """Re-play a recording; the :func:`~.views.result` of the game as the lines leave it."""
    return result(restore_lines(lines, path))


def write_lines(game, commands):
    """The recording of ``commands`` played from ``game`` (for tests and tools)."""
    out = [dumps(header(game))]
    out += [dumps(x) for x in map(line, commands) if x is not None]
    return out
