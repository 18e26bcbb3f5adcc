"""The table's state: the evening's choices, kept through game switches, restarts and crashes.

What a table chose for the evening (the screen's language, the voice on or off, the players,
Cleptómano's level and laser layout, the night's game) is one value, :class:`TableState`.  A
field left None has not been chosen: ``rig.toml`` gives it.  The shell keeps the value as JSON
next to the recordings (:mod:`rig.shell.table_state`); this module is the pure part: the value,
its JSON form and the reading of a file that may be corrupt, hostile or from a newer rig.

Reading never fails: :func:`parse_state` gives the fields it can use and one problem (a
:class:`rig.core.errors.ConfigError` naming the field, the value, what is allowed and the fix)
for each field it cannot; a bad field is dropped, the others are kept.
"""

import json
import re
from dataclasses import dataclass, fields, replace
from typing import Optional, Tuple

from .errors import ConfigError, RigError
from .names import check_names
from .service import check_tuning

#: The format written; a file of a newer version is read field by field (what is known is kept).
VERSION = 1
#: The screen's languages (as ``[table] language``).
LANGUAGES = ("en", "es", "fr", "ro", "es_AR")
#: Cleptómano's difficulties, corridors and added lasers (as ``[match]``).
DIFFICULTIES = ("easy", "normal", "hard")
CORRIDORS = ("wide", "narrow")
LASERS = (3, 4, 5)
#: A game's registry name: the registry checks it is one of its games.
GAME_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}\Z")
#: The largest file read (a hostile file does not fill the memory).
MOST_BYTES = 64 * 1024
MOST_PLAYERS = 8
#: Where each choice comes from, as the set-up screen shows it.
TABLE, DEFAULT = "table", "rig.toml"


@dataclass(frozen=True)
class Level:
    """Cleptómano's difficulty and its timer (seconds; None: no time limit)."""
    difficulty: str
    timer_s: Optional[float] = None


@dataclass(frozen=True)
class Layout:
    """Cleptómano's added laser rods and corridor."""
    lasers: int
    corridor: str


@dataclass(frozen=True)
class TableState:
    """The evening's choices; None: not chosen (``rig.toml`` gives it)."""
    language: Optional[str] = None
    voice: Optional[bool] = None
    players: Optional[Tuple[str, ...]] = None
    level: Optional[Level] = None
    layout: Optional[Layout] = None
    game: Optional[str] = None
    #: The service mode's settings (issue 31: rods' merge windows, relics' tilt thresholds,
    #: the sound), ``((key, value), ...)`` sorted; rig.toml's are the factory values.
    tuning: Optional[Tuple[Tuple[str, object], ...]] = None

    def chose(self, **choices):
        """This state with ``choices`` made (each checked: ConfigError names a bad one)."""
        checked = {name: _check(name, value) for name, value in choices.items()}
        return replace(self, **checked)

    def sources(self):
        """``{field: "table" or "rig.toml"}``: where each choice comes from."""
        return {f.name: TABLE if getattr(self, f.name) is not None else DEFAULT
                for f in fields(self)}


FIELDS = tuple(f.name for f in fields(TableState))


def to_json(state):
    """``state`` as the file's text (chosen fields only, with the format's version)."""
    out = {"version": VERSION}
    for name in FIELDS:
        value = getattr(state, name)
        if value is None:
            continue
        if isinstance(value, Level):
            value = {"difficulty": value.difficulty, "timer_s": value.timer_s}
        elif isinstance(value, Layout):
            value = {"lasers": value.lasers, "corridor": value.corridor}
        elif name == "tuning":
            value = dict(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def parse_state(text, where="the table's state"):
    """``(state, problems)`` from a file's text (str or bytes): every field that can be used,
    and a ConfigError for each that cannot (dropped: ``rig.toml`` gives it).  Never raises."""
    problems = []
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MOST_BYTES:
            return TableState(), [_problem(where, None, "is %d bytes, more than the %d a "
                                           "table's state takes; delete the file (the rig.toml "
                                           "defaults are used)" % (len(text), MOST_BYTES))]
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            return TableState(), [_problem(where, None, "is not UTF-8 (%s); delete the file "
                                           "(the rig.toml defaults are used)" % exc.reason)]
    if len(text) > MOST_BYTES:
        return TableState(), [_problem(where, None, "is longer than the %d characters a "
                                       "table's state takes; delete the file" % MOST_BYTES)]
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return TableState(), [_problem(where, None, "is not JSON (%s); delete the file (the "
                                       "rig.toml defaults are used)" % _one_line(exc))]
    if not isinstance(data, dict):
        return TableState(), [_problem(where, None, "holds %s, not an object such as "
                                       "{\"version\": 1, \"language\": \"es\"}; delete the file"
                                       % _shown(data))]
    version = data.get("version")
    if type(version) is not int or version < 1:
        problems.append(_problem(where, "version", "%s is not a format version (a whole number "
                                 "from 1); the fields are read as version %d"
                                 % (_shown(version), VERSION)))
    elif version > VERSION:
        problems.append(_problem(where, "version", "%d is newer than this rig's %d (a newer "
                                 "rig wrote it); the fields this rig knows are used, the "
                                 "others kept out" % (version, VERSION)))
    chosen = {}
    for name in FIELDS:
        if name not in data or data[name] is None:
            continue
        try:
            chosen[name] = _from_json(name, data[name])
        except ConfigError as exc:
            problems.append(_problem(where, name, exc.detail))
    unknown = sorted(str(k) for k in data if k not in FIELDS and k != "version")
    if unknown and not (type(version) is int and version > VERSION):
        problems.append(_problem(where, _short(unknown[0]), "is not a choice this rig keeps "
                                 "(%s); it is left out" % ", ".join(FIELDS)))
    return TableState(**chosen), problems


def _from_json(name, value):
    if name == "level":
        if not isinstance(value, dict):
            raise ConfigError("%s is not a level; write {\"difficulty\": \"normal\", "
                              "\"timer_s\": 60}" % _shown(value))
        value = Level(value.get("difficulty"), value.get("timer_s"))
    elif name == "layout":
        if not isinstance(value, dict):
            raise ConfigError("%s is not a laser layout; write {\"lasers\": 4, \"corridor\": "
                              "\"wide\"}" % _shown(value))
        value = Layout(value.get("lasers"), value.get("corridor"))
    elif name == "tuning":
        if not isinstance(value, dict):
            raise ConfigError("%s is not the service mode's settings; write {\"merge.laser.4\": "
                              "0.15}" % _shown(value))
        value = tuple(value.items())
    elif name == "players":
        if not isinstance(value, list):
            raise ConfigError("%s is not a list of names; write [\"Ana\", \"Ben\"]"
                              % _shown(value))
        value = tuple(value)
    return _check(name, value)


def _check(name, value):
    """``value`` for field ``name`` as the state keeps it, or ConfigError (value, allowed,
    fix)."""
    if value is None:
        return None
    if name == "language":
        if value not in LANGUAGES:
            raise ConfigError("%s is not a language of the screen; use one of %s"
                              % (_shown(value), ", ".join(LANGUAGES)), key=name)
        return value
    if name == "voice":
        if not isinstance(value, bool):
            raise ConfigError("%s is not true or false" % _shown(value), key=name)
        return value
    if name == "players":
        if (not isinstance(value, (tuple, list)) or not value or len(value) > MOST_PLAYERS
                or not all(isinstance(n, str) for n in value)):
            raise ConfigError("%s is not 1 to %d names; give a list such as [\"Ana\", \"Ben\"]"
                              % (_shown(value), MOST_PLAYERS), key=name)
        try:
            return check_names(tuple(value))
        except RigError as exc:
            raise ConfigError(_one_line(exc), key=name) from None
    if name == "level":
        if not isinstance(value, Level) or value.difficulty not in DIFFICULTIES:
            raise ConfigError("%s is not a difficulty; use one of %s"
                              % (_shown(getattr(value, "difficulty", value)),
                                 ", ".join(DIFFICULTIES)), key=name)
        timer = value.timer_s
        if timer is not None and (isinstance(timer, bool) or not isinstance(timer, (int, float))
                                  or not 1 <= timer <= 3600):
            raise ConfigError("timer_s %s is not seconds from 1 to 3600, nor null (no time "
                              "limit)" % _shown(timer), key=name)
        return Level(value.difficulty, None if timer is None else float(timer))
    if name == "layout":
        if not isinstance(value, Layout) or isinstance(value.lasers, bool) \
                or value.lasers not in LASERS or value.corridor not in CORRIDORS:
            raise ConfigError("%s is not a laser layout; give lasers 3, 4 or 5 and corridor "
                              "\"wide\" or \"narrow\"" % _shown(value), key=name)
        return Layout(int(value.lasers), value.corridor)
    if name == "game":
        if not isinstance(value, str) or not GAME_NAME.match(value):
            raise ConfigError("%s is not a game's name; use one of the names `cleptomano run "
                              "--game` takes (`cleptomano run --help` lists them)"
                              % _shown(value), key=name)
        return value
    if name == "tuning":
        try:
            return check_tuning(value) or None
        except RigError as exc:
            raise ConfigError(_one_line(exc), key=name) from None
    raise ConfigError("%s is not a choice the table keeps; use one of %s"
                      % (_shown(name), ", ".join(FIELDS)), key="table state")


def _problem(where, name, detail):
    return ConfigError(detail, path=where, key=name)


def _shown(value, most=40):
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _short(text, most=40):
    return _shown(text, most)[1:-1] if isinstance(text, str) else _shown(text, most)


def _one_line(exc):
    return " ".join(str(exc).split())
