"""The rig's configuration: two TOML files read into frozen dataclasses, or a clear error.

* the rig config (``/etc/cleptomano/rig.toml``): who plays, the level, detector timings, the hand
  sensor, the relic hub, the display, the guard's keys, where recordings go.  Every key is
  optional; :func:`load_config` with no path gives the defaults.
* the pin map (``wiring/pinmap.toml`` in the repo by default): which GPIO each contact, switch,
  buzzer and lamp is wired to.  ``wiring/pins.md`` and ``wiring/diagram.svg`` are generated from
  it, so the documentation cannot disagree with the rig.

Why so strict: a rig that starts with a typo in its config referees a whole game night wrongly.
So every unknown section or key, wrong type, out-of-range value, duplicate pin or unknown input
raises :class:`~rig.core.errors.ConfigError` naming the file, the ``section.key``, the value, what is
allowed and the fix, e.g. ``rig.toml: detect.merge_window_s: -1 is out of range; give seconds
from 0 to 1 (default 0.1)``.  Nothing half-configured is ever returned.

Each key is declared once (:mod:`rig.core.settings`: its name, kind, bounds, unit, default and
doc line).  This module declares the shell's own sections and collects the others from the
games: each game of the registry (:func:`rig.games.packages`) whose folder has a ``settings``
part brings its ``SECTION`` (Cleptómano's ``[match]`` too), so this module names no game.

Reading files is this module's only I/O; it reads no clock and opens no device.
"""

import difflib
import functools
import json
import re
import sys
import tomllib
from dataclasses import dataclass, field, make_dataclass
from pathlib import Path
from typing import Dict, Optional

from ..core import bounded
from ..core.addresses import bind_problem
from ..core.errors import ConfigError
from ..core.keynames import known_key_name
from ..core.settings import Context, Key, Section, Table, is_number, show, show_hex
from ..core.text import control_character
from ..core.tournament import Broker, check_rig_id, parse_broker
from ..table import settings as table_settings
from ..table.settings import (  # noqa: F401 (the pin map's names, as config.X before)
    BCM_TO_HEADER, DEFAULT_PINMAP_PATH, DETECT, HUB, KNOWN_INPUTS, KNOWN_OUTPUTS, LEVELS, PULLS,
    REQUIRED_INPUTS, REQUIRED_OUTPUTS, RESERVED_PINS, TOF, DetectConfig, HubConfig, InputPin,
    OutputPin, PinMap, TofConfig, pinmap_from_dict)
from .. import files
from .. import games

DEFAULT_CONFIG_PATH = Path("/etc/cleptomano/rig.toml")
WIRING_DIR = Path(__file__).resolve().parents[2] / "wiring"

# --- The shell's sections (each game brings its own: rig/games/<game>/settings.py) ----------------

def _pins(values, t, context):
    """The ``[pins]`` section, and the pin map it names read (a game's section may check itself
    against it right after: Cleptómano's level against the rods wired)."""
    pins = PINS.value(**values)
    if context.pinmap is None:
        context.pinmap = load_pinmap(pins.map)
    return pins


PINS = Section("pins", table_settings.PINS.keys, value=table_settings.PinsConfig,
               build=_pins)


def _size(t, key, context):
    size = t.data.get(key.name, list(key.default))
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
            or not (160 <= size[0] <= 7680 and 120 <= size[1] <= 4320)):
        raise t.error(key.name, "%s is not a screen size; give [width, height] in whole "
                                "pixels, 160-7680 by 120-4320 (default %s)"
                      % (show(size), show(key.default)))
    return (size[0], size[1])


DISPLAY = Section("display", (
    Key("enabled", "boolean", True, "false: run without the score display"),
    Key("fullscreen", "boolean", True, "false: a window of size"),
    Key("size", "custom", (800, 480), "[width, height] in pixels when not fullscreen",
        unit="pixels", parse=_size),
    Key("fps", "whole", 30, "frames drawn a second", unit="frames per second", low=1, high=30),
    Key("quiet", "boolean", False, "true: no sounds from the display"),
    Key("process", "boolean", True, "draw in a separate process, so drawing never delays "
        "refereeing"),
), class_name="DisplayConfig", module=__name__,
    read_order=("size", "enabled", "fullscreen", "fps", "quiet", "process"))


TABLE = Section("table", (
    Key("language", "choice", "en", "the language of the screen, the key help, the set-up "
        "screens and the voice: \"en\" English, \"es\" Español (Latin American, tú), \"es_AR\" "
        "Español rioplatense (Cleptómano's screen in voseo, the rest as \"es\"), \"fr\" "
        "Français, \"ro\" Română (each phone chooses its own)",
        choices=("en", "es", "fr", "ro", "es_AR")),
    Key("attract_after_s", "whole", 300, "the attract screen (each game's title and how to "
        "play, the last night's winners, the phones' QR code, dimmed and drifting) after this "
        "long with nobody playing, never during a turn or a set-up; 0: never",
        low=0, high=3600),
), class_name="TableConfig", module=__name__,
    doc="The table: the language its screen speaks (README \"Languages\") and its attract "
        "screen.")


SOUND = Section("sound", (
    Key("voice", "boolean", True, "false: no voice (the rig says the countdown, Caught!, "
        "Escaped!, results and clue kinds aloud in the table's language, with espeak-ng)"),
    Key("voice_cache", "path", "~/.cache/cleptomano/voice", "where the spoken phrases are kept "
        "once rendered (by default under $XDG_CACHE_HOME when set, as systemd's unit does)",
        what="a directory", value_default=Path("~/.cache/cleptomano/voice").expanduser()),
    Key("voice_cache_mb", "whole", 20, "the most the phrase cache may hold (the least recently "
        "said go first)", unit="MB", low=1, high=1000),
    Key("voice_speed_wpm", "whole", 165, "how fast the voice speaks", unit="words a minute",
        low=80, high=400),
    Key("voice_volume", "number", 1.0, "the voice's loudness, 0.0 (silent) to 1.0",
        unit="a fraction of full volume", low=0, high=1),
    Key("voice_es", "choice", "es-419", "the Spanish voice: \"es-419\" Latin America's (as "
        "the Spanish words are), \"es\" Spain's", choices=("es-419", "es")),
), class_name="SoundConfig", module=__name__,
    doc="The voice: the moments a thief cannot look up for, said aloud (README \"Voice\").")


def _keys(values, t, context):
    chosen = {}
    for key in KEYS.keys:
        value = t.string(key.name, key.default, what=key.what).strip()
        if value != key.default and not known_key_name(value):
            raise t.error(key.name, "%s is not a key name the keyboard knows; use pygame key "
                                    "names such as \"t\", \"return\", \"space\", \"f1\" or "
                                    "keypad \"[+]\" (default %s)"
                          % (show(value), show(key.default)))
        for other, taken in chosen.items():
            if taken.lower() == value.lower():
                raise t.error(key.name, "%s is already bound to %s; give every action its own "
                                        "key" % (show(value), other))
        chosen[key.name] = value
    return KEYS.value(**chosen)


KEYS = Section("keys", tuple(
    Key(name, "checked", default, doc, what="a pygame key name such as \"t\" or \"return\"")
    for name, default, doc in (
        ("thief", "t", "the thief's turn"), ("guard", "g", "the guard's call"),
        ("loot", "l", "loot taken"), ("undo", "u", "undo the last call"),
        ("confirm", "return", "confirm"), ("cancel", "escape", "cancel"),
        ("setup", "s", "the set-up screen: a new match, the wiring check, the layout"),
        ("revoke", "f8", "then Enter: unpair every phone and show a new pairing code"))),
    class_name="KeysConfig", module=__name__, build=_keys,
    doc="The guard's key bindings, as pygame key names.")

STORAGE = Section("storage", (
    Key("recordings_dir", "path", "~/.local/state/cleptomano", "where recordings go (under "
        "systemd give \"/var/lib/cleptomano\")", what="a directory",
        value_default=Path("~/.local/state/cleptomano").expanduser()),
), class_name="StorageConfig", module=__name__)


def _bind(t, key, context):
    bind = t.data.get(key.name, key.default[0])
    addresses = [bind] if isinstance(bind, str) else bind
    if not isinstance(addresses, list) or not addresses:
        raise t.error(key.name, "%s is not an address or a list of addresses; write bind = "
                                "\"local\" (default: every local network interface) or bind = "
                                "[\"192.168.1.20\", \"127.0.0.1\"]" % show(bind))
    if addresses != ["local"]:
        for address in addresses:
            problem = bind_problem(address)
            if problem is not None:
                raise t.error(key.name, problem)
    return tuple(addresses)


WEB = Section("web", (
    Key("enabled", "boolean", True, "false: no web server at all"),
    Key("bind", "custom", ("local",), "\"local\": this machine's loopback, link-local and "
        "private addresses; or a list such as [\"192.168.1.20\"]; never public", parse=_bind,
        example='"local"'),
    Key("port", "whole", 8080, "its TCP port", unit="TCP port numbers", low=1024, high=65535),
), class_name="WebConfig", module=__name__,
    read_order=("bind", "enabled", "port"),
    doc="The phone companion's web face: ``bind`` the addresses it answers on (\"local\": every "
        "loopback, link-local and private address of this machine, followed as they come and "
        "go; never a public one), ``port`` its TCP port.")


@dataclass(frozen=True)
class TournamentConfig:
    """The rig's link to a tournament's MQTT broker (:mod:`rig.links`); absent: no tournament.
    ``password`` is the one given, or read from ``password_file``; ``username`` defaults to
    ``rig_id`` (the shipped broker ACL names each rig's user after its id)."""
    broker: Broker
    rig_id: str
    username: str
    password: Optional[str] = field(default=None, repr=False)
    ca_file: Optional[Path] = None


# --- Loading ---------------------------------------------------------------------------------------

def load_config(path=None):
    """Read and validate the rig config at ``path`` (None: every default, default pin map)."""
    if path is None:
        return __getattr__("Config").from_dict({}, None)
    path = Path(path)
    data = _read_toml(path, "the rig config",
                      "create it from wiring/rig.example.toml, or give another --config")
    return __getattr__("Config").from_dict(data, path)


def load_pinmap(path=None):
    """Read and validate a pin map (None: the repo's ``wiring/pinmap.toml``)."""
    path = DEFAULT_PINMAP_PATH if path is None else Path(path)
    data = _read_toml(path, "the pin map",
                      "copy wiring/pinmap.toml from the repo, or set [pins] map in rig.toml")
    return pinmap_from_dict(data, path)


#: A rig config or a pin map is a few KB.  tomllib recurses into nested arrays and tables and
#: keeps every prefix of a dotted key, so text beyond these would exhaust its stack or memory
#: before it could say what is wrong: they are refused first.
MAX_TOML_BYTES = 1 << 20
MAX_TOML_NESTING = bounded.MAX_DEPTH
MAX_TOML_DOTS_PER_LINE = bounded.MAX_TOML_DOTS_PER_LINE


def _read_toml(path, what, fix):
    try:
        with files.open_regular(path) as f:
            raw = f.read(MAX_TOML_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError("%s %s does not exist; %s" % (what, path, fix), path=path) from None
    except OSError as exc:
        raise ConfigError("cannot read %s: %s; check the path and the file's permissions"
                          % (what, exc.strerror or exc), path=path) from None
    if len(raw) > MAX_TOML_BYTES:
        raise ConfigError("is longer than %d bytes; %s is a few KB of TOML (is this the right "
                          "file?)" % (MAX_TOML_BYTES, what), path=path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _line_error(path, raw.count(b"\n", 0, exc.start) + 1,
                          "byte %d is not UTF-8; save the file as UTF-8 text" % (exc.start + 1))
    shape = bounded.toml_shape(text)
    if shape is not None:
        line, kind, found = shape
        raise _line_error(path, line, found + (
            "; a config line is one key = value (is this the right file?)" if kind == "dots"
            else "; a config nests two or three (is this the right file?)"))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = re.search(r"line (\d+)", message)     # else "at end of document": the last line
        line = int(found.group(1)) if found else text.count("\n", 0, len(text.rstrip())) + 1
        raise _line_error(path, line, "TOML syntax error: %s; fix that line (strings need "
                                      "\"quotes\", one key = value per line)" % message)
    except ValueError:       # the only other one: an integer beyond Python's digit limit
        limit = sys.get_int_max_str_digits()
        bare = bounded.toml_bare(text)
        found = re.search(r"(?:[0-9]_?){%d}" % (limit + 1), bare)
        raise _line_error(path, bare.count("\n", 0, found.start()) + 1 if found else None,
                          _TOO_MANY_DIGITS % limit)
    _check_integers(data, path)
    return data


_TOO_MANY_DIGITS = "a number has more than %d digits; give a number the rig can use"


def _check_integers(value, path, key=None):
    """Refuse, naming its key, an integer of more digits than Python prints (TOML's
    hexadecimal can spell one that its decimal could not): every message shows its value."""
    if isinstance(value, dict):
        for name, item in value.items():
            _check_integers(item, path, name if key is None else "%s.%s" % (key, name))
    elif isinstance(value, list):
        for item in value:
            _check_integers(item, path, key)
    elif isinstance(value, int) and value.bit_length() > 1024:      # beyond any float
        try:
            str(value)
        except ValueError:
            raise ConfigError(_TOO_MANY_DIGITS % sys.get_int_max_str_digits(), path=path,
                              key=key) from None


def _line_error(path, line, message):
    """A ConfigError about the file's text at ``line`` (None: somewhere in it)."""
    error = ConfigError(("line %d: " % line if line else "") + message, path=path)
    error.line = line
    return error




# --- [tournament] and the whole config -----------------------------------------------------------

def _tournament(values, t, context):
    for key in ("broker", "rig_id"):
        if not t.has(key):
            raise t.error(key, "missing; a [tournament] needs broker = \"mqtt://HOST:1883\" and "
                               "rig_id = \"table-3\" (remove the section to play without one)")
    try:
        broker = parse_broker(t.string("broker", "", what="the broker's address"))
    except ConfigError as exc:
        raise t.error("broker", exc.detail) from None
    try:
        rig_id = check_rig_id(t.data["rig_id"])
    except ConfigError as exc:
        raise t.error("rig_id", exc.detail + " (the broker's ACL names it)") from None
    username = t.string("username", rig_id, what="the broker user name") \
        if t.has("username") else rig_id
    if t.has("password") and t.has("password_file"):
        raise t.error("password_file", "give either password or password_file, not both")
    password = None
    if t.has("password"):
        password = t.string("password", "", what="the broker password")
    elif t.has("password_file"):
        password = _password_file(t, _path(t, "password_file", context))
    ca_file = None
    if t.has("ca_file"):
        if not broker.tls:
            raise t.error("ca_file", "is for a TLS broker; write broker = \"mqtts://%s:8883\" "
                                     "or remove ca_file" % broker.host)
        ca_file = _path(t, "ca_file", context)
        from ..files import load_ca_file
        try:                        # loaded as the link will load it: one line now, no crash
            load_ca_file(ca_file)
        except ConfigError as exc:
            raise t.error("ca_file", exc.detail) from None
    return TournamentConfig(broker=broker, rig_id=rig_id, username=username,
                            password=password, ca_file=ca_file)


def _path(t, key, context):
    return context.path(t.string(key, "", what="a path"))


TOURNAMENT = Section("tournament", (
    Key("broker", "checked", None, "mqtt://HOST:PORT, or mqtts://HOST:8883 (TLS, see ca_file)",
        example='"mqtt://192.168.1.10:1883"'),
    Key("rig_id", "checked", None, "this table's id: 1-32 letters, digits, - or _",
        example='"table-3"'),
    Key("username", "checked", None, "the broker user (default: rig_id, as the shipped ACL "
        "names it)", example='"table-3"'),
    Key("password", "checked", None, "the broker password (or password_file, not both)",
        example='"..."'),
    Key("password_file", "checked", None, "a file holding the broker password on one line",
        example='"/etc/cleptomano/tournament.password"'),
    Key("ca_file", "checked", None, "mqtts only: the CA certificate that signed the broker's; "
        "default: the system's CAs", example='"/etc/cleptomano/tournament-ca.crt"'),
), value=TournamentConfig, build=_tournament, optional=True,
    doc="a tournament's MQTT broker; without this section the rig plays on its own")

#: The shell's sections, around the games' (the order of the config file and its messages).
_SHELL_BEFORE_GAMES = (PINS, DETECT, TOF, HUB, DISPLAY, TABLE, SOUND, KEYS, STORAGE)
_SHELL_AFTER_GAMES = (WEB, TOURNAMENT)


def sections():
    """Every section of the rig config by table name, in order: the shell's and, after
    ``[storage]``, each registered game's (``SECTION`` of its folder's ``settings`` part, found
    through the registry), but a game's section that names the shell section it comes
    ``before`` (Cleptómano's ``[match]``, first)."""
    return _sections(games.packages())


@functools.cache
def _sections(registry):
    shell = list(_SHELL_BEFORE_GAMES)
    after = []
    for g in games.games():
        settings = games.part(g, "settings")
        if settings is None:
            continue
        section = settings.SECTION
        if section.before is not None:
            shell.insert(shell.index(_shell_named(section.before)), section)
        else:
            after.append(section)
    return {s.name: s for s in shell + after + list(_SHELL_AFTER_GAMES)}


def _shell_named(name):
    for s in _SHELL_BEFORE_GAMES:
        if s.name == name:
            return s
    raise ValueError("a game's section comes before %r, which is not a shell section" % name)


def read_order():
    """The order the sections are read in: [web] before the games' after [storage] (as before
    they had sections of their own), so a file with several mistakes is refused for the same
    one."""
    names = list(sections())
    last = names.index(STORAGE.name) + 1
    return names[:last] + [WEB.name] + [n for n in names[last:]
                                        if n not in (WEB.name, TOURNAMENT.name)] \
        + [TOURNAMENT.name]


@functools.cache
def _config_class(registry):
    """The whole, validated configuration: one attribute per section (a game's too), the pin
    map after ``pins``, and ``path``, the file it came from (None: defaults)."""
    fields = []
    for name, s in _sections(registry).items():
        fields.append((name, object, field(default=None) if s.optional
                       else field(default_factory=s.default)))
        if name == "pins":
            fields.append(("pinmap", Optional[PinMap], field(default=None)))
    fields.append(("path", Optional[Path], field(default=None)))
    cls = make_dataclass("Config", fields, frozen=True, namespace={
        "from_dict": classmethod(_from_dict), "__doc__": _config_class.__wrapped__.__doc__})
    cls.__module__ = __name__
    return cls


def _from_dict(cls, data, path=None, *, pinmap=None):
    """Validate parsed TOML ``data`` (as if read from ``path``).  ``pinmap`` skips reading
    the pin map file (tests)."""
    return _build_config(data, path, pinmap)


def __getattr__(name):
    """``Config`` and each game's section class (``StopThiefConfig``...), made on first use:
    the games' sections are found through the registry only when a config is needed."""
    if name == "Config":
        return _config_class(games.packages())     # a game registered since: its section too
    for s in sections().values():
        if s.value.__name__ == name:
            return s.value
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def _build_config(data, path, pinmap):
    path = Path(path) if path is not None else None
    base_dir = path.resolve().parent if path is not None else Path.cwd()
    known = sections()
    for name in data:
        if name not in known:
            hint = difflib.get_close_matches(str(name), list(known), n=1)
            fix = ("did you mean [%s]? " % hint[0]) if hint else ""
            raise ConfigError("unknown section [%s]; %sthe sections are %s; fix or remove it"
                              % (name, fix, ", ".join("[%s]" % s for s in known)),
                              path=path, key=str(name))

    def resolve(raw):
        resolved = Path(raw).expanduser()
        return resolved if resolved.is_absolute() else base_dir / resolved

    context = Context(resolve, files.read_text, pinmap)
    context.tables = {name: s.table(data.get(name, {}), path) for name, s in known.items()}
    checks = [(after, s, check) for s in known.values() for after, check in s.checks]
    for name in read_order():
        s = known[name]
        value = None if s.optional and name not in data else s.read(context.tables[name], context)
        context.values[name] = value
        for after, checked, check in checks:       # a section's check against this one
            if after == name and checked.name in context.values:
                check(context.tables[checked.name], context.values[checked.name], context)
    values = {name: context.values[name] for name in known}
    return __getattr__("Config")(pinmap=context.pinmap, path=path, **values)


#: A password file holds one line: the password.
MAX_PASSWORD_FILE_BYTES = 1024


def _password_file(t, path):
    try:
        return read_password_file(path)
    except ConfigError as exc:
        raise t.error("password_file", exc.detail) from None


def read_password_file(path, key=None):
    """The broker password a file holds on its one line (a rig's ``password_file``, the
    leaderboard's ``--password-file``); ConfigError naming ``key``, the file and the fix."""
    fix = "give a file holding the broker password on one line (readable only by the rig)"
    try:
        with files.open_regular(path) as f:
            raw = f.read(MAX_PASSWORD_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError("%s cannot be read (%s); %s" % (path, exc.strerror or exc, fix),
                          key=key) from None
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        lines = []
    password = lines[0] if len(lines) == 1 and len(raw) <= MAX_PASSWORD_FILE_BYTES else ""
    if not password or control_character(password) is not None:
        raise ConfigError("%s does not hold one line of text; %s" % (path, fix), key=key)
    return password



