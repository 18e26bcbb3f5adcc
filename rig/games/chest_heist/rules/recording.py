"""The chest heist's recording: JSON Lines, a header then one move a line.

::

    {"recording": "chest-heist", "version": 1, "seed": 8191, "player": "Ana", "sheet": {...}}
    {"t": 2.0, "roll": [3, 5, 6, 1, 2]}
    {"t": 9.5, "reroll": [4, 5], "rolled": [3, 5, 6, 4, 4]}
    {"t": 20.1, "mark": "11", "dice": [2, 3]}
    {"t": 31.0, "mark": "x2", "dice": [4, 5]}
    {"t": 35.2, "charge": 1, "dice": [1]}
    {"t": 40.0, "end_turn": true}
    ...
    {"t": 900.0, "diamonds": 14}

``player`` and ``sheet`` (:mod:`.sheet`'s format) are optional.  ``roll`` and ``rolled`` are
the five dice after the roll, written so a reader sees them; a replay rolls them again from the
seed and refuses a line whose dice differ.  ``mark`` is a box id with a sheet ("r2c3"), a box
("11", "P", "I", "x2", "x2:6") without; ``dice`` are places 1 to 5, ``skimmers`` numbers 1 to
3 (both optional on a mark line).  ``diamonds`` is the table's count, without a sheet only.
"""

from rig.core.errors import ConfigError, RulesError
from rig.core.gamekit import check_header, command_line, dumps, fail, read_kind, read_lines, replay_items
from . import commands as cmd
from .model import new_game
from .rules import step
from .sheet import sheet_from_json, sheet_to_json
from .views import GAME, result

_KINDS = {"roll": (), "reroll": ("rolled",), "mark": ("dice", "skimmers"),
          "charge": ("dice",), "end_turn": (), "diamonds": ()}


def header(game):
    out = {"recording": GAME, "version": 1, "seed": game.seed}
    if game.player is not None:
        out["player"] = game.player
    if game.sheet is not None:
        out["sheet"] = sheet_to_json(game.sheet)
    return out


def line(command, game):
    """The recording line for ``command``, accepted; ``game`` is the game after it."""
    if isinstance(command, cmd.Roll):
        return command_line(command, roll=list(game.turn.dice))
    if isinstance(command, cmd.Reroll):
        return command_line(command, reroll=sorted(command.dice), rolled=list(game.turn.dice))
    if isinstance(command, cmd.Mark):
        extra = {"skimmers": list(command.skimmers)} if command.skimmers else {}
        return command_line(command, mark=command.box, dice=list(command.dice), **extra)
    if isinstance(command, cmd.Charge):
        return command_line(command, charge=command.skimmer, dice=list(command.dice))
    if isinstance(command, cmd.EndTurn):
        return command_line(command, end_turn=True)
    if isinstance(command, cmd.CountDiamonds):
        return command_line(command, diamonds=command.diamonds)
    raise TypeError("cannot record %r" % (command,))


def parse_header(obj, number):
    check_header(obj, GAME, ("seed", "player", "sheet"), number)
    sheet = None
    if obj.get("sheet") is not None:
        try:
            sheet = sheet_from_json(obj["sheet"])
        except ConfigError as exc:
            fail("sheet: %s" % exc, number)
    try:
        return new_game(obj.get("seed"), obj.get("player"), sheet)
    except RulesError as exc:
        fail(str(exc), number)


def _list(obj, key, number):
    value = obj.get(key, [])
    if not isinstance(value, list):
        fail("%s %r must be a list of numbers" % (key, value), number)
    return tuple(value)


def parse_item(obj, number, last_t=0.0):
    """A line -> the command, or (the command, the dice the line says it rolled)."""
    kind = read_kind(obj, _KINDS, number, last_t)
    t, by, value = obj["t"], obj.get("by"), obj[kind]
    if kind == "end_turn" and value is not True:
        fail("end_turn must be true, got %r" % (value,), number)
    if kind == "roll":
        return cmd.Roll(t, by), _rolled(value, number)
    if kind == "reroll":
        return cmd.Reroll(t, by, _list(obj, "reroll", number)), _rolled(obj.get("rolled"), number)
    if kind == "mark":
        return cmd.Mark(t, by, value, _list(obj, "dice", number), _list(obj, "skimmers", number))
    if kind == "charge":
        return cmd.Charge(t, by, value, _list(obj, "dice", number))
    if kind == "end_turn":
        return cmd.EndTurn(t, by)
    return cmd.CountDiamonds(t, by, value)


def _rolled(value, number):
    if not isinstance(value, list) or len(value) != 5 or not all(
            isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value):
        fail("the dice rolled %r must be a list of the 5 dice, each 1 to 6" % (value,), number)
    return tuple(value)


def _same_dice(game, said):
    if game.turn.dice != said:
        return ("the line says the dice were %s, which is not what the header's seed rolls; "
                "the recording was changed or belongs to another seed"   # never the seed's
                % (list(said),))                                         # dice (not rolled yet)
    return None


def restore_lines(lines, path=None):
    """The game as a recording's lines leave it (the host resumes an unfinished one so)."""
    game, items = read_lines(lines, parse_header, parse_item, path)
    return replay_items(game, items, step, _same_dice, path)


def replay_lines(lines, path=None):
    """Re-play a recording; the :func:`~.views.result` of the game as the lines leave it."""
    return result(restore_lines(lines, path))


def write_lines(game, played):
    """The recording of ``played``, (command, game after it) pairs, from ``game``."""
    return [dumps(header(game))] + [dumps(line(c, after)) for c, after in played]
