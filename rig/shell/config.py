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
from ..games.cleptomano.rules import museum
from ..core.addresses import bind_problem
from ..games.cleptomano.rules.calls import input_label
from ..games.cleptomano.rules.detect import DetectSettings
from ..core.errors import ConfigError
from ..core.keynames import known_key_name
from ..core.settings import Context, Key, Section, Table, is_number, show, show_hex
from ..core.text import control_character
from ..core.tournament import Broker, check_rig_id, parse_broker
from . import files
from .. import games

DEFAULT_CONFIG_PATH = Path("/etc/cleptomano/rig.toml")
WIRING_DIR = Path(__file__).resolve().parents[2] / "wiring"
# Package data, so an installed wheel has it too; in the repo a link, resolved to the one file
# a builder edits, wiring/pinmap.toml.
DEFAULT_PINMAP_PATH = (Path(__file__).resolve().parents[1] / "data" / "pinmap.toml").resolve()

# --- What the pin map may name ------------------------------------------------------------------

#: Every input a pin map may wire, with what it is (these are also the recordings' input names).
KNOWN_INPUTS = {name: input_label(name) for name in (
    (museum.BUTTON,) + tuple(museum.laser(n) for n in museum.LASERS)
    + museum.SEATS + (museum.GUARD,) + museum.PAINTING_INPUTS)}
#: Inputs every pin map must have, whatever the level.
REQUIRED_INPUTS = ((museum.BUTTON,) + tuple(museum.laser(n) for n in museum.PRINTED_LASERS)
                   + (museum.GUARD,) + museum.PAINTING_INPUTS)
KNOWN_OUTPUTS = {
    "buzzer": "buzzer (touch, caught, escaped, refused sounds)",
    "led.ready": "status lamp: museum ready",
    "led.turn": "status lamp: a turn is running",
    "led.fault": "status lamp: a sensor fault needs the referee",
}
REQUIRED_OUTPUTS = ("buzzer",)

#: BCM GPIO number -> physical pin on the 40-pin header (every Pi since the B+, the Pi 5 too).
BCM_TO_HEADER = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}
#: Header GPIOs the pin map may not use, and why.
RESERVED_PINS = {
    0: "ID_SD, the HAT ID EEPROM's bus",
    1: "ID_SC, the HAT ID EEPROM's bus",
    2: "I2C1 SDA, the VL53L0X hand sensor's data line",
    3: "I2C1 SCL, the VL53L0X hand sensor's clock line",
    14: "UART TX (serial console)",
    15: "UART RX (serial console)",
}
PULLS = ("up", "down", "none")
LEVELS = ("high", "low")


@dataclass(frozen=True)
class InputPin:
    """One input: BCM ``pin``, the internal ``pull`` ("up", "down", "none") and which electrical
    level is value 1 (``active`` "high" or "low": contact, seated, on stand, pressed)."""
    pin: int
    pull: str
    active: str

    @property
    def active_high(self):
        return self.active == "high"


@dataclass(frozen=True)
class OutputPin:
    """One output: BCM ``pin`` and the level that turns it on (``active`` "high" or "low")."""
    pin: int
    active: str

    @property
    def active_high(self):
        return self.active == "high"


@dataclass(frozen=True)
class PinMap:
    """Where everything is wired.  ``inputs``/``outputs`` map recording names to pins."""
    inputs: Dict[str, InputPin]
    outputs: Dict[str, OutputPin]
    i2c_bus: int = 1
    tof_address: int = 0x29
    path: Optional[Path] = field(default=None, compare=False)

    def used_pins(self):
        """BCM pin -> name, for every input and output."""
        used = {p.pin: n for n, p in self.inputs.items()}
        used.update({p.pin: n for n, p in self.outputs.items()})
        return used

    def free_pins(self):
        """Header GPIOs neither used nor reserved, lowest first."""
        used = self.used_pins()
        return [p for p in sorted(BCM_TO_HEADER) if p not in used and p not in RESERVED_PINS]

    @property
    def added_rods(self):
        """Numbers of the added rods (4-8) this pin map wires."""
        return tuple(n for n in museum.ADDED_LASERS if museum.laser(n) in self.inputs)


# --- The shell's sections (each game brings its own: rig/games/<game>/settings.py) ----------------

def _pins(values, t, context):
    """The ``[pins]`` section, and the pin map it names read (a game's section may check itself
    against it right after: Cleptómano's level against the rods wired)."""
    pins = PINS.value(**values)
    if context.pinmap is None:
        context.pinmap = load_pinmap(pins.map)
    return pins


PINS = Section("pins", (
    Key("map", "path", DEFAULT_PINMAP_PATH, "the pin map; a relative path is read next to "
        "this file", what="a path to a pin map", example='"pinmap.toml"'),
    Key("backend", "choice", "auto", "\"auto\": real pins on a Pi, the simulator elsewhere; "
        "\"real\"; \"sim\"", choices=("auto", "real", "sim")),
    Key("edge_delay_s", "number", 0.05, "how late lgpio may deliver an edge; applied in stamp "
        "order", low=0, high=0.5),
), class_name="PinsConfig", module=__name__, build=_pins)

#: The [detect] section is the detector's own settings (timings in seconds, the hand threshold).
DetectConfig = DetectSettings
_DETECT = DetectSettings()
DETECT = Section("detect", (
    Key("merge_window_s", "number", _DETECT.merge_window_s, "edges on one laser closer than "
        "this are one touch", low=0, high=1),
    Key("glitch_s", "number", _DETECT.glitch_s, "shorter pulses are noise", low=0, high=0.1),
    Key("seat_open_s", "number", _DETECT.seat_open_s, "a seat open this long means the rod was "
        "displaced", low=0, high=5),
    Key("tilt_hold_s", "number", _DETECT.tilt_hold_s, "a relic's tilt must hold this long to "
        "count", low=0, high=5),
    Key("hand_threshold_mm", "whole", _DETECT.hand_threshold_mm, "closer than this to the "
        "entrance sensor = hand inside", unit="millimetres", low=20, high=2000),
    Key("stuck_contact_s", "number", _DETECT.stuck_contact_s, "a contact held this long is a "
        "fault", low=0.5, high=600),
), value=DetectConfig)


def _tof_address(t, key, context):
    address = t.data.get(key.name, key.default_from(context))
    if not is_number(address) or not isinstance(address, int) or not 0x08 <= address <= 0x77:
        raise t.error(key.name, "%s is not a 7-bit I2C address; give 0x08 to 0x77 (the VL53L0X "
                                "answers at 0x29 unless re-addressed)" % show_hex(address))
    return address


def _backoff(t, key, context):
    backoff = t.data.get(key.name, list(key.default))
    if (not isinstance(backoff, list) or len(backoff) != 2
            or not all(is_number(v) for v in backoff)
            or not 0 < backoff[0] <= backoff[1] <= 60):
        raise t.error(key.name, "%s is not allowed; give [first, longest] seconds to wait "
                                "between retries, 0 < first <= longest <= 60 (default %s)"
                      % (show(backoff), show(key.default)))
    return (float(backoff[0]), float(backoff[1]))


TOF = Section("tof", (
    Key("i2c_bus", "whole", 1, "the hand sensor's I2C bus (default: the pin map's [i2c] bus)",
        unit="bus numbers", low=0, high=31, default_from=lambda c: c.pinmap.i2c_bus),
    Key("address", "custom", 0x29, "its 7-bit address, 0x08-0x77 (default: the pin map's "
        "tof_address)", unit="", default_from=lambda c: c.pinmap.tof_address, parse=_tof_address,
        example="0x29"),
    Key("io_timeout_s", "number", 0.5, "0.1 to 10: longer than one reading (never 0: the "
        "driver would wait forever)", low=0.1, high=10,
        zero_hint="0 would make the driver wait forever for a stuck sensor"),
    Key("poll_interval_s", "number", 0.02, "pause between readings", low=0, high=1),
    Key("timing_budget_us", "whole", 20000, "longer is steadier but slower per reading",
        unit="microseconds", low=20000, high=200000),
    Key("retry_backoff_s", "custom", (0.1, 2.0), "[first, longest] wait between retries after "
        "an I2C error", parse=_backoff),
    Key("lost_after", "whole", 3, "failed reads in a row before the sensor is reported lost",
        unit="failed reads", low=1, high=100),
), class_name="TofConfig", module=__name__,
    read_order=("i2c_bus", "address", "io_timeout_s", "retry_backoff_s", "poll_interval_s",
                "timing_budget_us", "lost_after"),
    doc="The VL53L0X hand sensor.  ``i2c_bus``/``address`` default to the pin map's.")

HUB = Section("hub", (
    Key("url", "string", "/dev/cleptomano-hub", "serial port or pyserial URL; \"\" disables "
        "relic sensing", allow_empty=True,
        what="a serial port or pyserial URL (\"\" disables relic sensing)"),
    Key("heartbeat_timeout_s", "number", 1.0, "silence this long means the hub is lost",
        low=0.1, high=30),
    Key("baudrate", "whole", 115200, "the serial speed", unit="baud", low=1200, high=4000000),
), class_name="HubConfig", module=__name__, namespace={"enabled": property(lambda s: bool(s.url))},
    doc="The relic hub's serial link; ``url`` \"\" disables relic sensing.")


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
), class_name="TableConfig", module=__name__,
    doc="The table: the language its screen speaks (README \"Languages\").")


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
        from ..links.mqtt import load_ca_file
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


# --- The pin map ----------------------------------------------------------------------------------

def _flatten(table):
    """Accept both ``"laser.1" = {...}`` and ``laser.1 = {...}`` (TOML nests the latter)."""
    flat = {}
    for name, value in table.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            for sub, entry in value.items():
                flat["%s.%s" % (name, sub)] = entry
        else:
            flat[name] = value
    return flat


def pinmap_from_dict(data, path=None):
    """Validate a parsed pin map.  See ``wiring/pinmap.toml`` for the format."""
    path = Path(path) if path is not None else None
    for name in data:
        if name not in ("i2c", "inputs", "outputs"):
            raise ConfigError("unknown section [%s]; a pin map has [i2c], [inputs] and "
                              "[outputs]; fix or remove it" % name, path=path, key=str(name))
    i2c = Table(data.get("i2c", {}), "i2c", path, ("bus", "tof_address"))
    bus = i2c.number("bus", 1, 0, 31, unit="bus numbers", whole=True)
    address = i2c.data.get("tof_address", 0x29)
    if not isinstance(address, int) or isinstance(address, bool) or not 0x08 <= address <= 0x77:
        raise i2c.error("tof_address", "%s is not a 7-bit I2C address; give 0x08 to 0x77 (the "
                                       "VL53L0X answers at 0x29)" % show_hex(address))
    if "inputs" not in data:
        raise ConfigError("the pin map has no [inputs] table; add one entry per "
                                  "contact, e.g. button = { pin = 16, pull = \"up\", active = "
                                  "\"low\" }", path=path, key="inputs")
    raw_inputs = Table(data["inputs"], "inputs", path).data
    raw_outputs = Table(data.get("outputs", {}), "outputs", path).data
    flat_inputs, flat_outputs = _flatten(raw_inputs), _flatten(raw_outputs)
    claimed = {e.get("pin") for e in list(flat_inputs.values()) + list(flat_outputs.values())
               if isinstance(e, dict) and isinstance(e.get("pin"), int)}
    free = [p for p in sorted(BCM_TO_HEADER) if p not in claimed and p not in RESERVED_PINS]
    used = {}
    inputs = {}
    for name, entry in flat_inputs.items():
        _known(name, KNOWN_INPUTS, "inputs", path)
        e = Table(entry, "inputs.%s" % name, path, ("pin", "pull", "active"),
                   shape="%s = { pin = ..., pull = ..., active = ... }" % _toml_key(name))
        pin = _pin(e, name, used, free)
        inputs[name] = InputPin(pin=pin, pull=_required_choice(e, "pull", PULLS),
                                active=_required_choice(e, "active", LEVELS))
    outputs = {}
    for name, entry in flat_outputs.items():
        _known(name, KNOWN_OUTPUTS, "outputs", path)
        e = Table(entry, "outputs.%s" % name, path, ("pin", "active"),
                   shape="%s = { pin = ..., active = ... }" % _toml_key(name))
        outputs[name] = OutputPin(pin=_pin(e, name, used, free),
                                  active=_required_choice(e, "active", LEVELS))
    for name in REQUIRED_INPUTS:
        if name not in inputs:
            raise ConfigError("%s (%s) is missing; every rig needs it: add %s = { pin = ..., "
                              "pull = ..., active = ... } under [inputs]"
                              % (name, KNOWN_INPUTS[name], _toml_key(name)),
                              path=path, key="inputs.%s" % name)
    for name in REQUIRED_OUTPUTS:
        if name not in outputs:
            raise ConfigError("%s is missing; add %s = { pin = ..., active = \"high\" } under "
                              "[outputs]" % (name, name), path=path, key="outputs.%s" % name)
    for rod in museum.ADDED_LASERS:
        laser, seat = museum.laser(rod), museum.seat(rod)
        if (laser in inputs) != (seat in inputs):
            have, lack = (laser, seat) if laser in inputs else (seat, laser)
            raise ConfigError("%s has no %s; an added rod needs both its touch contact and the "
                              "seat switch under its rest: add %s or remove %s"
                              % (have, lack, _toml_key(lack), _toml_key(have)),
                              path=path, key="inputs.%s" % have)
    return PinMap(inputs=inputs, outputs=outputs, i2c_bus=bus, tof_address=address, path=path)


def _toml_key(name):
    return json.dumps(name) if "." in name else name


def _known(name, known, section, path):
    if name not in known:
        hint = difflib.get_close_matches(name, list(known), n=1)
        fix = ("did you mean %s? " % hint[0]) if hint else ""
        raise ConfigError("unknown %s name %s; %sthe rig knows %s; rename or remove it"
                          % (section[:-1], show(name), fix, ", ".join(known)),
                          path=path, key="%s.%s" % (section, name))


def _pin(e, name, used, free):
    if not e.has("pin"):
        raise e.error("pin", "missing; give the BCM GPIO number it is wired to, e.g. pin = 16")
    pin = e.data["pin"]
    if not isinstance(pin, int) or isinstance(pin, bool) or pin not in BCM_TO_HEADER:
        raise e.error("pin", "%s is not a header GPIO; give a BCM number from 0 to 27 (GPIO17 "
                             "is pin = 17, not the header position 11)" % show(pin))
    free = ", ".join(str(p) for p in free) or "none left: drop an optional lamp"
    if pin in RESERVED_PINS:
        raise e.error("pin", "GPIO%d is reserved: %s; choose a free GPIO (%s)"
                      % (pin, RESERVED_PINS[pin], free))
    if pin in used:
        raise e.error("pin", "GPIO%d is already used by %s; every input and output needs its "
                             "own GPIO; choose a free one (%s)" % (pin, used[pin], free))
    used[pin] = name
    return pin


def _required_choice(e, key, choices):
    if not e.has(key):
        raise e.error(key, "missing; add %s = one of %s" % (key, ", ".join(show(c)
                                                                           for c in choices)))
    value = e.data[key]
    if value not in choices or not isinstance(value, str):
        raise e.error(key, "%s is not allowed; use one of %s"
                      % (show(value), ", ".join(show(c) for c in choices)))
    return value
