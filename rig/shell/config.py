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

Reading files is this module's only I/O; it reads no clock and opens no device.
"""

import difflib
import json
import math
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Optional, Tuple

from ..core import levels, museum, rules
from ..core.addresses import bind_problem
from ..core.calls import input_label
from ..core.detect import DetectSettings
from ..core.errors import ConfigError, InvalidChoice, LevelError
from ..core.text import control_character, nesting
from ..core.tournament import Broker, check_rig_id, parse_broker
from . import files

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


# --- Config sections ------------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchConfig:
    """Who plays and at which level.  One player is a solo heist."""
    players: Tuple[str, ...] = ("Ana", "Ben", "Caro")
    first_thief: str = "Ana"
    level: levels.Level = levels.PRESETS["normal"]

    @property
    def solo(self):
        return len(self.players) == 1


@dataclass(frozen=True)
class PinsConfig:
    map: Path = DEFAULT_PINMAP_PATH
    backend: str = "auto"  # "auto": real pins on a Pi, the simulator elsewhere
    edge_delay_s: float = 0.05  # how late lgpio may deliver an edge; applied in stamp order


#: The [detect] section is the detector's own settings (timings in seconds, the hand threshold).
DetectConfig = DetectSettings


@dataclass(frozen=True)
class TofConfig:
    """The VL53L0X hand sensor.  ``i2c_bus``/``address`` default to the pin map's."""
    i2c_bus: int = 1
    address: int = 0x29
    io_timeout_s: float = 0.5
    poll_interval_s: float = 0.02
    timing_budget_us: int = 20000
    retry_backoff_s: Tuple[float, float] = (0.1, 2.0)
    lost_after: int = 3


@dataclass(frozen=True)
class HubConfig:
    """The relic hub's serial link; ``url`` "" disables relic sensing."""
    url: str = "/dev/cleptomano-hub"
    heartbeat_timeout_s: float = 1.0
    baudrate: int = 115200

    @property
    def enabled(self):
        return bool(self.url)


@dataclass(frozen=True)
class DisplayConfig:
    enabled: bool = True
    fullscreen: bool = True
    size: Tuple[int, int] = (800, 480)
    fps: int = 30
    quiet: bool = False
    process: bool = True


@dataclass(frozen=True)
class KeysConfig:
    """The guard's key bindings, as pygame key names."""
    thief: str = "t"
    guard: str = "g"
    loot: str = "l"
    undo: str = "u"
    confirm: str = "return"
    cancel: str = "escape"
    setup: str = "s"
    revoke: str = "f8"


@dataclass(frozen=True)
class WebConfig:
    """The phone companion's web face: ``bind`` the addresses it answers on ("local": every
    loopback, link-local and private address of this machine, followed as they come and go;
    never a public one), ``port`` its TCP port."""
    enabled: bool = True
    bind: Tuple[str, ...] = ("local",)
    port: int = 8080


@dataclass(frozen=True)
class StorageConfig:
    recordings_dir: Path = Path("~/.local/state/cleptomano").expanduser()


def _thief_settings(**values):
    """Stop Thief!'s thief settings (RulesError naming a bad one); none given: the defaults."""
    from ..games.stop_thief.rules.thief import make_settings
    return make_settings(**values)


@dataclass(frozen=True)
class StopThiefConfig:
    """``[stop_thief]``: the board (None: the packaged sample town) and the thief's settings
    (a :class:`rig.games.stop_thief.rules.thief.Settings`)."""
    board: object = field(default=None, compare=False)
    board_path: Optional[Path] = None
    settings: object = field(default_factory=_thief_settings)



@dataclass(frozen=True)
class StolenPaintingsConfig:
    """``[stolen_paintings]``: the exhibition's length and the marking rule."""
    exhibition_s: float = 60.0
    max_marks: int = 3
    wrong_mark_cost: int = 0


@dataclass(frozen=True)
class ChestHeistConfig:
    """``[chest_heist]``: the score sheet (None: play without one, ticking on paper)."""
    sheet: object = field(default=None, compare=False)
    sheet_path: Optional[Path] = None


@dataclass(frozen=True)
class CanineConfig:
    """``[canine]``: the card table (None: the example, its numbers placeholders), the
    optional rule and the longer game."""
    table: object = field(default=None, compare=False)
    cards_path: Optional[Path] = None
    optional_rule: str = "off"
    longer_game: bool = False


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


@dataclass(frozen=True)
class Config:
    """The whole, validated configuration.  ``path`` is the file it came from (None: defaults)."""
    match: MatchConfig = field(default_factory=MatchConfig)
    pins: PinsConfig = field(default_factory=PinsConfig)
    pinmap: Optional[PinMap] = None
    detect: DetectConfig = field(default_factory=DetectConfig)
    tof: TofConfig = field(default_factory=TofConfig)
    hub: HubConfig = field(default_factory=HubConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keys: KeysConfig = field(default_factory=KeysConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    stop_thief: StopThiefConfig = field(default_factory=StopThiefConfig)
    stolen_paintings: StolenPaintingsConfig = field(default_factory=StolenPaintingsConfig)
    chest_heist: ChestHeistConfig = field(default_factory=ChestHeistConfig)
    canine: CanineConfig = field(default_factory=CanineConfig)
    web: WebConfig = field(default_factory=WebConfig)
    tournament: Optional[TournamentConfig] = None
    path: Optional[Path] = None

    @classmethod
    def from_dict(cls, data, path=None, *, pinmap=None):
        """Validate parsed TOML ``data`` (as if read from ``path``).  ``pinmap`` skips reading
        the pin map file (tests)."""
        return _build_config(data, path, pinmap)


# --- Loading ---------------------------------------------------------------------------------------

def load_config(path=None):
    """Read and validate the rig config at ``path`` (None: every default, default pin map)."""
    if path is None:
        return Config.from_dict({}, None)
    path = Path(path)
    data = _read_toml(path, "the rig config",
                      "create it from wiring/rig.example.toml, or give another --config")
    return Config.from_dict(data, path)


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
MAX_TOML_NESTING = 32
MAX_TOML_DOTS_PER_LINE = 64
#: TOML's strings and comments: the brackets and dots in them are text.
_TOML_TEXT = re.compile("|".join((
    r'"""(?:[^\\]|\\[\s\S])*?"""',     # a multi-line basic string
    r"'''[\s\S]*?'''",                # a multi-line literal string
    r'"(?:[^"\\\n]|\\.)*"',            # a basic string
    r"'[^'\n]*'",                      # a literal string
    r"#[^\n]*")))                      # a comment


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
    bare = _TOML_TEXT.sub(lambda m: '""' + "\n" * m.group().count("\n"), text)
    _check_shape(bare, path)
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


def _check_shape(bare, path):
    """Refuse, naming the line, TOML nested or dotted deeper than any config needs (``bare``:
    the text with its strings and comments blanked)."""
    depth = 0
    for number, line in enumerate(bare.split("\n"), 1):
        if line.count(".") > MAX_TOML_DOTS_PER_LINE:
            raise _line_error(path, number, "more than %d dots outside strings; a config line "
                                            "is one key = value (is this the right file?)"
                              % MAX_TOML_DOTS_PER_LINE)
        deepest, depth = nesting(line, depth)
        if deepest > MAX_TOML_NESTING:
            raise _line_error(path, number, "arrays or tables nest more than %d deep; a config "
                                            "nests two or three (is this the right file?)"
                              % MAX_TOML_NESTING)


def _line_error(path, line, message):
    """A ConfigError about the file's text at ``line`` (None: somewhere in it)."""
    error = ConfigError(("line %d: " % line if line else "") + message, path=path)
    error.line = line
    return error


# --- Value checking --------------------------------------------------------------------------------

def _show(value):
    """A value as the user wrote it in TOML; an integer of hundreds of digits by its length
    (TOML's hexadecimal can spell one too long for Python to print in decimal)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 128:
        return "a number of about %d digits" % int(value.bit_length() * math.log10(2) + 1)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[%s]" % ", ".join(_show(v) for v in value)
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s = %s" % (k, _show(v)) for k, v in value.items())
    return str(value)


def _hex(value):
    ok = isinstance(value, int) and not isinstance(value, bool)
    return "0x%02X" % value if ok and value >= 0 else _show(value)


def _num(x):
    return ("%g" % x) if isinstance(x, float) else str(x)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Table:
    """One TOML table being read: checks keys against the allowed set, then each value."""

    def __init__(self, data, name, path, allowed=None, shape=None):
        self.name = name
        self.path = path
        if not isinstance(data, dict):
            shape = shape or "a [%s] section with key = value lines" % name
            raise self.error(None, "%s is not a table; write it as %s" % (_show(data), shape))
        self.data = data
        for key in data if allowed is not None else ():
            if key not in allowed:
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                fix = ("did you mean %s? " % hint[0]) if hint else ""
                raise self.error(key, "unknown key %s in [%s]; %sallowed keys: %s; fix or "
                                      "remove it" % (_show(key), name, fix, ", ".join(allowed)))

    def key(self, key):
        return "%s.%s" % (self.name, key) if key is not None else self.name

    def error(self, key, message):
        return ConfigError(message, path=self.path, key=self.key(key))

    def has(self, key):
        return key in self.data

    def number(self, key, default, low, high, *, unit="seconds", whole=False,
               low_open=False, zero_hint=""):
        """A number in [low, high] (or (low, high] with ``low_open``)."""
        value = self.data.get(key, default)
        span = ("above %s, at most %s" if low_open else "from %s to %s") % (_num(low), _num(high))
        allowed = "give %s%s %s (default %s)" % ("whole " if whole else "", unit, span,
                                                 _num(default))
        if not _is_number(value) or (whole and not isinstance(value, int)):
            kind = "a whole number" if whole else "a number"
            raise self.error(key, "%s is not %s; %s" % (_show(value), kind, allowed))
        too_low = value <= low if low_open else value < low
        if value != value or too_low or value > high:      # NaN is out of every range
            extra = (" (%s)" % zero_hint) if (value == 0 and zero_hint) else ""
            raise self.error(key, "%s is out of range%s; %s" % (_show(value), extra, allowed))
        return value if whole else float(value)

    def boolean(self, key, default):
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, "%s is not true or false; write %s = true or %s = false "
                                  "(no quotes; default %s)"
                             % (_show(value), key, key, _show(default)))
        return value

    def string(self, key, default, *, allow_empty=False, what="a string"):
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.error(key, "%s is not %s; write it in \"quotes\" (default %s)"
                             % (_show(value), what, _show(default)))
        if not allow_empty and not value.strip():
            raise self.error(key, "%s is empty; give %s (default %s)"
                             % (_show(value), what, _show(default)))
        bad = control_character(value)
        if bad is not None:
            raise self.error(key, "%s holds %s; give %s on one line, without control "
                                  "characters" % (_show(value), bad, what))
        return value

    def choice(self, key, default, choices):
        value = self.data.get(key, default)
        if value not in choices or not isinstance(value, str):
            raise self.error(key, "%s is not allowed; use one of %s (default %s)"
                             % (_show(value), ", ".join(_show(c) for c in choices),
                                _show(default)))
        return value


# --- The rig config -------------------------------------------------------------------------------

_SECTIONS = {
    "match": ("players", "difficulty", "timer_s", "lasers", "corridor", "first_thief"),
    "pins": ("map", "backend", "edge_delay_s"),
    "detect": ("merge_window_s", "glitch_s", "seat_open_s", "tilt_hold_s", "hand_threshold_mm",
               "stuck_contact_s"),
    "tof": ("i2c_bus", "address", "io_timeout_s", "poll_interval_s", "timing_budget_us",
            "retry_backoff_s", "lost_after"),
    "hub": ("url", "heartbeat_timeout_s", "baudrate"),
    "display": ("enabled", "fullscreen", "size", "fps", "quiet", "process"),
    "keys": ("thief", "guard", "loot", "undo", "confirm", "cancel", "setup", "revoke"),
    "storage": ("recordings_dir",),
    "stop_thief": ("board", "stay_chance", "crime_scene_weight", "crime_wave_on_stay",
                   "subway_loudspeaker"),
    "stolen_paintings": ("exhibition_s", "max_marks", "wrong_mark_cost"),
    "chest_heist": ("sheet",),
    "canine": ("cards", "optional_rule", "longer_game"),
    "web": ("enabled", "bind", "port"),
    "tournament": ("broker", "rig_id", "username", "password", "password_file", "ca_file"),
}


def _build_config(data, path, pinmap):
    path = Path(path) if path is not None else None
    base_dir = path.resolve().parent if path is not None else Path.cwd()
    for name in data:
        if name not in _SECTIONS:
            hint = difflib.get_close_matches(str(name), list(_SECTIONS), n=1)
            fix = ("did you mean [%s]? " % hint[0]) if hint else ""
            raise ConfigError("unknown section [%s]; %sthe sections are %s; fix or remove it"
                              % (name, fix, ", ".join("[%s]" % s for s in _SECTIONS)),
                              path=path, key=str(name))
    tables = {name: _Table(data.get(name, {}), name, path, keys)
              for name, keys in _SECTIONS.items()}
    match = _match(tables["match"])
    pins = _pins(tables["pins"], base_dir)
    if pinmap is None:
        pinmap = load_pinmap(pins.map)
    _check_level_wired(tables["match"], match.level, pinmap)
    return Config(match=match, pins=pins, pinmap=pinmap, detect=_detect(tables["detect"]),
                  tof=_tof(tables["tof"], pinmap), hub=_hub(tables["hub"]),
                  display=_display(tables["display"]), keys=_keys(tables["keys"]),
                  storage=_storage(tables["storage"], base_dir), web=_web(tables["web"]),
                  stop_thief=_stop_thief(tables["stop_thief"], base_dir),
                  stolen_paintings=_stolen_paintings(tables["stolen_paintings"]),
                  chest_heist=_chest_heist(tables["chest_heist"], base_dir),
                  canine=_canine(tables["canine"], base_dir),
                  tournament=_tournament(tables["tournament"], base_dir)
                  if "tournament" in data else None, path=path)


def _match(t):
    default = MatchConfig()
    players = t.data.get("players", list(default.players))
    if isinstance(players, list):
        players = [p.strip() if isinstance(p, str) else p for p in players]
    try:
        names = list(rules.check_players(players))
    except InvalidChoice as exc:
        raise t.error("players", "%s, e.g. players = [\"Ana\", \"Ben\"]" % exc) from None
    first = t.data.get("first_thief", names[0])
    if not isinstance(first, str) or first.strip() not in names:
        raise t.error("first_thief", "%s is not one of the players (%s); give one of their "
                                     "names, the one with the biggest hands (default: the first "
                                     "player)" % (_show(first), ", ".join(names)))
    return MatchConfig(players=tuple(names), first_thief=first.strip(), level=_level(t))


def _level(t):
    difficulty = t.data.get("difficulty", "normal")
    overrides = []
    if t.has("timer_s"):
        timer = t.data["timer_s"]
        if isinstance(timer, str):
            if timer.strip().lower() != "none":
                raise t.error("timer_s", "%s is not a time limit; give seconds above 0 (30 "
                                         "hard, 60 normal), or \"none\" for no time limit"
                              % _show(timer))
            timer = None
        overrides.append(("timer_s", timer))
    for key in ("lasers", "corridor"):
        if t.has(key):
            overrides.append((key, t.data[key]))
    # Build the level one setting at a time, so an error names the key that caused it.
    level = _make_level(t, "difficulty", difficulty, {})
    kwargs = {}
    for key, value in overrides:
        kwargs[key] = value
        level = _make_level(t, key, difficulty, kwargs)
    return level


def _make_level(t, key, difficulty, kwargs):
    try:
        return levels.make_level(difficulty, **kwargs)
    except LevelError as exc:
        # TOML has no null: the config file says "none" where Python says None.
        message = str(exc).replace("or null for", "or \"none\" for")
        raise t.error(key, message) from None


def _check_level_wired(t, level, pinmap):
    missing = [n for rod in level.added_rods for n in (museum.laser(rod), museum.seat(rod))
               if n not in pinmap.inputs]
    if missing:
        key = "lasers" if t.has("lasers") else "difficulty"
        raise t.error(key, "%d added lasers need %s in the pin map %s, which lacks them; wire "
                           "and add them there, or lower lasers to %d"
                      % (level.lasers, ", ".join(missing), pinmap.path or "(given)",
                         len(pinmap.added_rods)))


def _pins(t, base_dir):
    default = PinsConfig()
    map_path = default.map
    if t.has("map"):
        map_path = Path(t.string("map", str(default.map), what="a path to a pin map"))
        map_path = map_path.expanduser()
        if not map_path.is_absolute():
            map_path = base_dir / map_path
    return PinsConfig(map=map_path, backend=t.choice("backend", "auto", ("auto", "real", "sim")),
                      edge_delay_s=t.number("edge_delay_s", default.edge_delay_s, 0, 0.5))


def _detect(t):
    d = DetectConfig()
    return DetectConfig(
        merge_window_s=t.number("merge_window_s", d.merge_window_s, 0, 1),
        glitch_s=t.number("glitch_s", d.glitch_s, 0, 0.1),
        seat_open_s=t.number("seat_open_s", d.seat_open_s, 0, 5),
        tilt_hold_s=t.number("tilt_hold_s", d.tilt_hold_s, 0, 5),
        hand_threshold_mm=t.number("hand_threshold_mm", d.hand_threshold_mm, 20, 2000,
                                   unit="millimetres", whole=True),
        stuck_contact_s=t.number("stuck_contact_s", d.stuck_contact_s, 0.5, 600),
    )


def _tof(t, pinmap):
    d = TofConfig()
    bus = t.number("i2c_bus", pinmap.i2c_bus, 0, 31, unit="bus numbers", whole=True)
    address = t.data.get("address", pinmap.tof_address)
    if not _is_number(address) or not isinstance(address, int) or not 0x08 <= address <= 0x77:
        raise t.error("address", "%s is not a 7-bit I2C address; give 0x08 to 0x77 (the "
                                 "VL53L0X answers at 0x29 unless re-addressed)" % _hex(address))
    timeout = t.number("io_timeout_s", d.io_timeout_s, 0, 10, low_open=True,
                       zero_hint="0 would make the driver wait forever for a stuck sensor")
    low, high = d.retry_backoff_s
    backoff = t.data.get("retry_backoff_s", [low, high])
    if (not isinstance(backoff, list) or len(backoff) != 2
            or not all(_is_number(v) for v in backoff)
            or not 0 < backoff[0] <= backoff[1] <= 60):
        raise t.error("retry_backoff_s", "%s is not allowed; give [first, longest] seconds to "
                                         "wait between retries, 0 < first <= longest <= 60 "
                                         "(default [0.1, 2.0])" % _show(backoff))
    return TofConfig(
        i2c_bus=bus, address=address, io_timeout_s=timeout,
        poll_interval_s=t.number("poll_interval_s", d.poll_interval_s, 0, 1),
        timing_budget_us=t.number("timing_budget_us", d.timing_budget_us, 20000, 200000,
                                  unit="microseconds", whole=True),
        retry_backoff_s=(float(backoff[0]), float(backoff[1])),
        lost_after=t.number("lost_after", d.lost_after, 1, 100, unit="failed reads",
                            whole=True),
    )


def _hub(t):
    d = HubConfig()
    return HubConfig(
        url=t.string("url", d.url, allow_empty=True,
                     what="a serial port or pyserial URL (\"\" disables relic sensing)"),
        heartbeat_timeout_s=t.number("heartbeat_timeout_s", d.heartbeat_timeout_s, 0.1, 30),
        baudrate=t.number("baudrate", d.baudrate, 1200, 4000000, unit="baud", whole=True),
    )


def _display(t):
    d = DisplayConfig()
    size = t.data.get("size", list(d.size))
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in size)
            or not (160 <= size[0] <= 7680 and 120 <= size[1] <= 4320)):
        raise t.error("size", "%s is not a screen size; give [width, height] in whole pixels, "
                              "160-7680 by 120-4320 (default [800, 480])" % _show(size))
    return DisplayConfig(
        enabled=t.boolean("enabled", d.enabled), fullscreen=t.boolean("fullscreen", d.fullscreen),
        size=(size[0], size[1]),
        fps=t.number("fps", d.fps, 1, 30, unit="frames per second", whole=True),
        quiet=t.boolean("quiet", d.quiet), process=t.boolean("process", d.process))


def _known_key_name(name):
    """Whether pygame knows the key name (``"t"``, ``"return"``, keypad ``"[+]"``); True when
    pygame cannot be imported here (the display then refuses it itself)."""
    try:
        import os
        import warnings
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
    except ImportError:
        return True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # "pygame.init() has not been called": names only
        try:
            pygame.key.key_code(name)
        except ValueError:
            return False
    return True


def _keys(t):
    d = KeysConfig()
    values = {}
    for key in _SECTIONS["keys"]:
        value = t.string(key, getattr(d, key), what="a pygame key name such as \"t\" or "
                                                    "\"return\"").strip()
        if value != getattr(d, key) and not _known_key_name(value):
            raise t.error(key, "%s is not a key name the keyboard knows; use pygame key names "
                               "such as \"t\", \"return\", \"space\", \"f1\" or keypad "
                               "\"[+]\" (default %s)" % (_show(value), _show(getattr(d, key))))
        for other, taken in values.items():
            if taken.lower() == value.lower():
                raise t.error(key, "%s is already bound to %s; give every action its own key"
                              % (_show(value), other))
        values[key] = value
    return KeysConfig(**values)


def _storage(t, base_dir):
    if not t.has("recordings_dir"):
        return StorageConfig()
    raw = t.string("recordings_dir", "~/.local/state/cleptomano", what="a directory")
    path = Path(raw).expanduser()
    if not path.is_absolute():
        path = base_dir / path
    return StorageConfig(recordings_dir=path)


# --- The companion games' tables ---------------------------------------------------------------------

def _file(t, key, base_dir, what):
    """The path under ``key`` (relative to the config's folder), or None when not given or
    ``""`` (the game's packaged default)."""
    raw = t.string(key, "", allow_empty=True, what=what).strip()
    if not raw:
        return None
    path = Path(raw).expanduser()
    return path if path.is_absolute() else base_dir / path


def _read_text(t, key, path):
    try:
        with files.open_regular(path) as f:
            return f.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise t.error(key, "%s cannot be read (%s); give the path of a UTF-8 text file"
                      % (path, getattr(exc, "strerror", None) or exc)) from None


def _rules_checked(t, check, values):
    """``check(**values)``, its RulesError turned into a ConfigError naming the first key of
    the table its message names (else the table)."""
    from ..core.errors import RulesError
    try:
        return check(**values)
    except RulesError as exc:
        key = next((k for k in t.data if str(k) in str(exc)), None)
        raise t.error(key, str(exc)) from None


def _stop_thief(t, base_dir):
    from .boards import read_board
    settings = _rules_checked(t, _thief_settings,
                              {k: v for k, v in t.data.items() if k != "board"})
    path = _file(t, "board", base_dir, "a board file (.toml or .json)")
    board = None
    if path is not None:
        try:
            board = read_board(path)
        except ConfigError as exc:
            raise t.error("board", str(exc)) from None
    return StopThiefConfig(board=board, board_path=path, settings=settings)


def _stolen_paintings(t):
    from ..games.stolen_paintings.rules.model import check_settings
    d = StolenPaintingsConfig()
    values = {k: t.data.get(k, getattr(d, k)) for k in _SECTIONS["stolen_paintings"]}
    settings = _rules_checked(t, check_settings, values)
    return StolenPaintingsConfig(settings.exhibition_s, settings.max_marks,
                                 settings.wrong_mark_cost)


def _chest_heist(t, base_dir):
    from ..games.chest_heist.rules import parse_sheet
    path = _file(t, "sheet", base_dir, "a score sheet file (JSON)")
    if path is None:
        return ChestHeistConfig()
    text = _read_text(t, "sheet", path)
    try:
        sheet = parse_sheet(text, str(path))
    except ConfigError as exc:
        raise t.error("sheet", str(exc)) from None
    return ChestHeistConfig(sheet=sheet, sheet_path=path)


def _canine(t, base_dir):
    from ..games.canine.rules import parse_card_table
    from ..games.canine.rules.scoring import OPTIONAL_RULES
    d = CanineConfig()
    path = _file(t, "cards", base_dir, "a card table file (TOML)")
    table = None
    if path is not None:
        text = _read_text(t, "cards", path)
        try:
            table = parse_card_table(text)
        except ConfigError as exc:
            raise t.error("cards", "%s: %s" % (path, exc)) from None
    return CanineConfig(table=table, cards_path=path,
                        optional_rule=t.choice("optional_rule", d.optional_rule, OPTIONAL_RULES),
                        longer_game=t.boolean("longer_game", d.longer_game))
def _web(t):
    d = WebConfig()
    bind = t.data.get("bind", "local")
    addresses = [bind] if isinstance(bind, str) else bind
    if not isinstance(addresses, list) or not addresses:
        raise t.error("bind", "%s is not an address or a list of addresses; write bind = "
                              "\"local\" (default: every local network interface) or bind = "
                              "[\"192.168.1.20\", \"127.0.0.1\"]" % _show(bind))
    if addresses != ["local"]:
        for address in addresses:
            problem = bind_problem(address)
            if problem is not None:
                raise t.error("bind", problem)
    return WebConfig(enabled=t.boolean("enabled", d.enabled), bind=tuple(addresses),
                     port=t.number("port", d.port, 1024, 65535, unit="TCP port numbers", whole=True))


#: A password file holds one line: the password.
MAX_PASSWORD_FILE_BYTES = 1024


def _tournament(t, base_dir):
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
        password = _password_file(t, _path(t, "password_file", base_dir))
    ca_file = None
    if t.has("ca_file"):
        if not broker.tls:
            raise t.error("ca_file", "is for a TLS broker; write broker = \"mqtts://%s:8883\" "
                                     "or remove ca_file" % broker.host)
        ca_file = _path(t, "ca_file", base_dir)
        if not ca_file.is_file():
            raise t.error("ca_file", "%s is not a file; give the CA certificate (PEM) that "
                                     "signed the broker's certificate" % ca_file)
    return TournamentConfig(broker=broker, rig_id=rig_id, username=username,
                            password=password, ca_file=ca_file)


def _path(t, key, base_dir):
    path = Path(t.string(key, "", what="a path")).expanduser()
    return path if path.is_absolute() else base_dir / path


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
    i2c = _Table(data.get("i2c", {}), "i2c", path, ("bus", "tof_address"))
    bus = i2c.number("bus", 1, 0, 31, unit="bus numbers", whole=True)
    address = i2c.data.get("tof_address", 0x29)
    if not isinstance(address, int) or isinstance(address, bool) or not 0x08 <= address <= 0x77:
        raise i2c.error("tof_address", "%s is not a 7-bit I2C address; give 0x08 to 0x77 (the "
                                       "VL53L0X answers at 0x29)" % _hex(address))
    if "inputs" not in data:
        raise ConfigError("the pin map has no [inputs] table; add one entry per "
                                  "contact, e.g. button = { pin = 16, pull = \"up\", active = "
                                  "\"low\" }", path=path, key="inputs")
    raw_inputs = _Table(data["inputs"], "inputs", path).data
    raw_outputs = _Table(data.get("outputs", {}), "outputs", path).data
    flat_inputs, flat_outputs = _flatten(raw_inputs), _flatten(raw_outputs)
    claimed = {e.get("pin") for e in list(flat_inputs.values()) + list(flat_outputs.values())
               if isinstance(e, dict) and isinstance(e.get("pin"), int)}
    free = [p for p in sorted(BCM_TO_HEADER) if p not in claimed and p not in RESERVED_PINS]
    used = {}
    inputs = {}
    for name, entry in flat_inputs.items():
        _known(name, KNOWN_INPUTS, "inputs", path)
        e = _Table(entry, "inputs.%s" % name, path, ("pin", "pull", "active"),
                   shape="%s = { pin = ..., pull = ..., active = ... }" % _toml_key(name))
        pin = _pin(e, name, used, free)
        inputs[name] = InputPin(pin=pin, pull=_required_choice(e, "pull", PULLS),
                                active=_required_choice(e, "active", LEVELS))
    outputs = {}
    for name, entry in flat_outputs.items():
        _known(name, KNOWN_OUTPUTS, "outputs", path)
        e = _Table(entry, "outputs.%s" % name, path, ("pin", "active"),
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
                          % (section[:-1], _show(name), fix, ", ".join(known)),
                          path=path, key="%s.%s" % (section, name))


def _pin(e, name, used, free):
    if not e.has("pin"):
        raise e.error("pin", "missing; give the BCM GPIO number it is wired to, e.g. pin = 16")
    pin = e.data["pin"]
    if not isinstance(pin, int) or isinstance(pin, bool) or pin not in BCM_TO_HEADER:
        raise e.error("pin", "%s is not a header GPIO; give a BCM number from 0 to 27 (GPIO17 "
                             "is pin = 17, not the header position 11)" % _show(pin))
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
        raise e.error(key, "missing; add %s = one of %s" % (key, ", ".join(_show(c)
                                                                           for c in choices)))
    value = e.data[key]
    if value not in choices or not isinstance(value, str):
        raise e.error(key, "%s is not allowed; use one of %s"
                      % (_show(value), ", ".join(_show(c) for c in choices)))
    return value
