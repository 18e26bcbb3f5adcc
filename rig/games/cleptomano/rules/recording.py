"""The recording format (a public contract, see README "Recordings"): parse, validate, write.

JSON Lines, UTF-8.  The first line is the header::

    {"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"], "difficulty": "normal"}

with optional ``timer_s`` (seconds or null), ``lasers`` (3-5), ``corridor`` (wide/narrow),
``first_thief`` and ``rig`` (the rig's tournament id, when it plays in one).  Every other line
carries ``t`` (seconds since the start, never decreasing) and one of ``input``/``value``,
``choose``/``player``, ``loot``, ``undo``, ``why``, ``new_match`` or ``end``; a command (``choose``,
``loot``, ``undo``, ``why``, ``new_match``) may say ``by`` whom it was given (the keypad's
``"guard"`` or a paired phone's name).  A ``loot`` or ``undo`` line may say the ``reason`` for
the override it makes; a ``why`` line gives it after the override (issue 31,
:mod:`.overrides`).  A ``new_match`` line ends the match like ``end`` does, and the next
recording's header is made from it (:func:`header_from`).

Pure: text in, values out (and values in, text out); every error names the line and what is
wrong.  Reading and writing files is the shell's (:mod:`rig.shell.storage`).
"""

from dataclasses import dataclass, fields, replace

from . import events as ev
from rig.table.debounce import DetectSettings
from rig.table.names import BINARY_INPUTS, INPUT_NAMES, RELICS
from .engine.model import check_new_match, check_players
from rig.core.errors import InvalidChoice, LevelError, RecordingError, RulesError
from rig.core.tournament import RIG_ID_RULE, is_rig_id  # noqa: F401 (a header's rig id)
from .levels import make_level
from .overrides import REASONS, check_reason
# The JSON Lines every game's recording shares; Cleptómano's readers use them through this module.
from rig.core.jsonl import (MAX_LINE_BYTES, MAX_NESTING, LineReader, dumps,  # noqa: F401
                            is_number, line_head, load_line, read_lines)

MAGIC = "recording"
FORMAT = "cleptomano"
VERSION = 1
_HEADER_KEYS = {"recording", "version", "players", "difficulty", "timer_s", "lasers",
                "corridor", "first_thief", "detect", "rig"}
_UNSET = object()


@dataclass(frozen=True)
class Header:
    players: tuple
    difficulty: str = "normal"
    timer_s: object = _UNSET      # _UNSET: the preset's; None: no limit
    lasers: object = None
    corridor: object = None
    first_thief: object = None
    settings: DetectSettings = DetectSettings()
    rig: object = None            # the tournament's rig id (rig.games.cleptomano.rules.tournament), or None

    @property
    def level(self):
        kwargs = {}
        if self.timer_s is not _UNSET:
            kwargs["timer_s"] = self.timer_s
        return make_level(self.difficulty, lasers=self.lasers, corridor=self.corridor, **kwargs)

    def to_json(self):
        out = {"recording": FORMAT, "version": VERSION, "players": list(self.players),
               "difficulty": self.difficulty}
        if self.timer_s is not _UNSET:
            out["timer_s"] = self.timer_s
        if self.lasers is not None:
            out["lasers"] = self.lasers
        if self.corridor is not None:
            out["corridor"] = self.corridor
        if self.first_thief is not None:
            out["first_thief"] = self.first_thief
        if self.settings != DetectSettings():
            out["detect"] = {f.name: getattr(self.settings, f.name)
                             for f in fields(DetectSettings) if f.name not in _PER_PART}
            # The service mode's per-rod merge windows and per-relic tilt thresholds (issue
            # 31), written only when set, as {"laser.4": 0.2} and {"2": 45.0}.
            for name in _PER_PART:
                pairs = getattr(self.settings, name)
                if pairs:
                    out["detect"][name] = {str(k): v for k, v in pairs}
        if self.rig is not None:
            out["rig"] = self.rig
        return out


def header_for(players, level, first_thief=None, settings=None, rig=None):
    """The header that reproduces ``level`` (a preset name, or custom overrides on normal);
    ``rig`` the tournament's rig id (None: the rig plays in no tournament)."""
    from .levels import PRESETS
    base = PRESETS.get(level.name)
    if base is not None and base == level:
        return Header(tuple(players), level.name, first_thief=first_thief,
                      settings=settings or DetectSettings(), rig=rig)
    return Header(tuple(players), "normal", timer_s=level.timer_s, lasers=level.lasers,
                  corridor=level.corridor, first_thief=first_thief,
                  settings=settings or DetectSettings(), rig=rig)


def header_from(command, settings=None, rig=None):
    """The header of the recording a :class:`~rig.games.cleptomano.rules.events.NewMatch` opens: its
    own settings, as it gave them (the preset's where it left one out); ``rig`` as for
    :func:`header_for`."""
    first = command.first_thief if command.first_thief is not None else command.players[0]
    return Header(tuple(command.players), command.difficulty,
                  _UNSET if command.timer_s is ev.PRESET else command.timer_s, command.lasers,
                  command.corridor, first, settings or DetectSettings(), rig)


# --- parsing ----------------------------------------------------------------------------------

def _fail(message, line):
    raise RecordingError(message, line=line)


def parse_header(obj, line=1):
    if not isinstance(obj, dict) or obj.get(MAGIC) != FORMAT:
        _fail('the first line must be the header {"recording": "cleptomano", "version": 1, '
              '"players": [...], "difficulty": ...}', line)
    unknown = sorted(set(obj) - _HEADER_KEYS)
    if unknown:
        _fail("header key %r is not known; allowed keys: %s" % (
            unknown[0], ", ".join(sorted(_HEADER_KEYS))), line)
    if obj.get("version") != VERSION:
        _fail("version %r is not supported; this rig reads version %d" % (
            obj.get("version"), VERSION), line)
    players = obj.get("players")
    try:
        check_players(players)
    except InvalidChoice as exc:
        _fail("players: %s" % exc, line)
    difficulty = obj.get("difficulty", "normal")
    first = obj.get("first_thief")
    if first is not None and first not in players:
        _fail("first_thief %r is not one of the players %s" % (first, players), line)
    settings = DetectSettings()
    if "detect" in obj:
        settings = _parse_settings(obj["detect"], line)
    rig = obj.get("rig")
    if rig is not None and not is_rig_id(rig):
        _fail("rig %r is not a rig id; a tournament's rig id is %s" % (rig, RIG_ID_RULE), line)
    header = Header(tuple(players), difficulty, obj.get("timer_s", _UNSET),
                    obj.get("lasers"), obj.get("corridor"), first, settings, rig)
    try:
        header.level
    except LevelError as exc:
        _fail(str(exc), line)
    return header


#: The header's per-part detect settings (issue 31's service mode): an object each.
_PER_PART = ("merge_by_contact", "tipped_by_relic")


def _parse_settings(obj, line):
    names = {f.name for f in fields(DetectSettings)}
    if not isinstance(obj, dict) or set(obj) - names:
        _fail("header detect must be an object with keys from %s" % ", ".join(sorted(names)),
              line)
    per_part = {}
    for key in _PER_PART:
        if key in obj:
            per_part[key] = _parse_per_part(key, obj[key], line)
    for key, value in obj.items():
        if key not in _PER_PART and (not is_number(value) or value < 0):
            _fail("detect.%s %r must be a number of 0 or more" % (key, value), line)
    return DetectSettings(**{k: float(v) for k, v in obj.items() if k not in _PER_PART},
                          **per_part)


def _parse_per_part(key, value, line):
    """``detect.merge_by_contact`` ({"laser.4": 0.2}) or ``detect.tipped_by_relic``
    ({"2": 45.0}) as the settings' sorted pairs."""
    relics = key == "tipped_by_relic"
    known = tuple(str(n) for n in RELICS) if relics else INPUT_NAMES
    if not isinstance(value, dict) or not all(
            k in known and is_number(v) and v >= 0 for k, v in value.items()):
        _fail("detect.%s %r must be an object of %s -> a number of 0 or more"
              % (key, value, "relic numbers 1-3" if relics else "contact names"), line)
    return tuple(sorted((int(k) if relics else k, float(v)) for k, v in value.items()))


_LINE_KEYS = {"input": {"t", "input", "value"}, "choose": {"t", "choose", "player", "by"},
              "loot": {"t", "loot", "by", "reason"}, "undo": {"t", "undo", "by", "reason"},
              "why": {"t", "why", "by"},
              "new_match": {"t", "new_match", "by"},
              "restart": {"t", "restart"}, "tick": {"t", "tick"}, "end": {"t", "end"},
              "device": {"t", "device", "state"}}


def parse_item(obj, line, last_t=0.0):
    """One line after the header -> an input change or a command."""
    t, kind, by = line_head(obj, line, last_t, _LINE_KEYS)
    if kind == "input":
        name, value = obj["input"], obj.get("value")
        if name not in INPUT_NAMES:
            _fail("input %r is not known; inputs are button, laser.1-8, seat.4-8, guard, "
                  "painting.1-2, tof, relic.1-3.tilt/freefall/motion" % (name,), line)
        if name in BINARY_INPUTS:
            if value not in (0, 1) or isinstance(value, float):
                _fail("input %s value %r must be 0 or 1" % (name, value), line)
        elif not is_number(value) or (name == "tof" and value < 0):
            _fail("input %s value %r must be a number%s" % (
                name, value, " of mm, 0 or more" if name == "tof" else " of degrees"), line)
        return ev.InputChange(t, name, value)
    if kind == "choose":
        role, player = obj["choose"], obj.get("player")
        if role not in ("thief", "guard"):
            _fail("choose %r is not a role; use \"thief\" or \"guard\"" % (role,), line)
        if not isinstance(player, str):
            _fail("choose needs a \"player\" name, got %r" % (player,), line)
        return ev.Choose(t, ev.Role(role), player, by)
    if kind == "loot":
        loot = obj["loot"]
        if not isinstance(loot, dict) or set(loot) != {"paintings", "relics"}:
            _fail('loot must be {"paintings": N, "relics": N}, got %r' % (loot,), line)
        for key, top in (("paintings", 2), ("relics", 3)):
            v = loot[key]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= top:
                _fail("loot %s %r must be a whole number from 0 to %d" % (key, v, top), line)
        return ev.ConfirmLoot(t, loot["paintings"], loot["relics"], by,
                              _reason(obj.get("reason"), line))
    if kind == "undo":
        if obj["undo"] != "touch":
            _fail("undo %r is not known; the guard can undo a \"touch\"" % (obj["undo"],), line)
        return ev.UndoTouch(t, by, _reason(obj.get("reason"), line))
    if kind == "why":
        if obj["why"] is None:
            _fail("why needs a reason: one of %s or a short text" % ", ".join(REASONS), line)
        return ev.Why(t, _reason(obj["why"], line), by)
    if kind == "new_match":
        return _parse_new_match(obj["new_match"], t, by, line)
    if kind == "device":
        device, state = obj["device"], obj.get("state")
        if device not in ev.DEVICES:
            _fail("device %r is not known; devices are %s" % (device, ", ".join(ev.DEVICES)),
                  line)
        if state not in ev.DEVICE_STATES:
            _fail("device %s state %r is not known; states are %s"
                  % (device, state, ", ".join(ev.DEVICE_STATES)), line)
        return ev.DeviceChange(t, device, state)
    if obj[kind] is not True:
        _fail("%s must be true, got %r" % (kind, obj[kind]), line)
    return {"restart": ev.Restart, "tick": ev.Tick, "end": ev.End}[kind](t)


def _reason(value, line):
    """A line's reason (None: none given), checked and cleaned as the rules check it."""
    if value is None:
        return None
    try:
        return check_reason(value)
    except RulesError as exc:
        _fail(str(exc), line)


_NEW_MATCH_KEYS = ("players", "difficulty", "timer_s", "lasers", "corridor", "first_thief")


def _parse_new_match(spec, t, by, line):
    """A ``new_match`` line's object, checked as the set-up screen's command is
    (:func:`rig.games.cleptomano.rules.engine.check_new_match`)."""
    if not isinstance(spec, dict) or "players" not in spec:
        _fail('new_match must be {"players": [...], "difficulty": ..., "first_thief": ...}, got '
              '%r' % (spec,), line)
    unknown = sorted(set(spec) - set(_NEW_MATCH_KEYS))
    if unknown:
        _fail("new_match key %r is not known; allowed keys: %s"
              % (unknown[0], ", ".join(_NEW_MATCH_KEYS)), line)
    command = ev.NewMatch(t, spec["players"], spec.get("difficulty", "normal"),
                          spec.get("timer_s", ev.PRESET), spec.get("lasers"),
                          spec.get("corridor"), spec.get("first_thief"), by)
    try:
        players, _, first = check_new_match(command)
    except RulesError as exc:
        _fail("new_match: %s" % exc, line)
    return replace(command, players=players, first_thief=first)


def parse_lines(lines, path=None):
    """Parse a whole recording; returns ``(header, items)``.  Raises RecordingError naming
    FILE:LINE."""
    return read_lines(lines, parse_header, parse_item, path, stop=ends_match)


def ends_match(item):
    """Whether a recording's match ends at ``item``: its ``end`` line, or the ``new_match`` line
    that closed it (inputs are held until then; later deadlines never fire)."""
    return isinstance(item, (ev.End, ev.NewMatch))


# --- writing ----------------------------------------------------------------------------------

def item_to_json(item):
    if isinstance(item, ev.InputChange):
        value = item.value
        if isinstance(value, float) and value.is_integer() and item.name in BINARY_INPUTS:
            value = int(value)
        return {"t": item.t, "input": item.name, "value": value}
    if isinstance(item, ev.Choose):
        return _by(item, {"t": item.t, "choose": item.role, "player": item.player})
    if isinstance(item, ev.ConfirmLoot):
        return _why(item, _by(item, {"t": item.t, "loot": {"paintings": item.paintings,
                                                            "relics": item.relics}}))
    if isinstance(item, ev.UndoTouch):
        return _why(item, _by(item, {"t": item.t, "undo": "touch"}))
    if isinstance(item, ev.Why):
        return _by(item, {"t": item.t, "why": item.why})
    if isinstance(item, ev.NewMatch):
        spec = {"players": list(item.players), "difficulty": item.difficulty}
        if item.timer_s is not ev.PRESET:
            spec["timer_s"] = item.timer_s
        for key in ("lasers", "corridor"):
            if getattr(item, key) is not None:
                spec[key] = getattr(item, key)
        spec["first_thief"] = item.first_thief if item.first_thief is not None \
            else item.players[0]
        return _by(item, {"t": item.t, "new_match": spec})
    if isinstance(item, ev.Restart):
        return {"t": item.t, "restart": True}
    if isinstance(item, ev.Tick):
        return {"t": item.t, "tick": True}
    if isinstance(item, ev.End):
        return {"t": item.t, "end": True}
    if isinstance(item, ev.DeviceChange):
        return {"t": item.t, "device": item.device, "state": item.state}
    raise TypeError("cannot record %r" % (item,))


def _why(command, out):
    """A command's line, with the reason it gave for its override when it gave one."""
    if command.why is not None:
        out["reason"] = command.why
    return out


def _by(command, out):
    """A command's line, with who gave it when that is known."""
    if command.by is not None:
        out["by"] = command.by
    return out
