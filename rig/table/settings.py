"""The table's settings: the pin map (which GPIO each contact, switch, buzzer and lamp is wired
to) and the ``[pins]``, ``[detect]``, ``[tof]`` and ``[hub]`` sections of ``rig.toml``.

Declared once here, below the games (:mod:`rig.table`); :mod:`rig.shell.config` reads the files
and puts these sections in the rig's config, with every key, default and message as before.
:func:`pinmap_from_dict` validates a parsed pin map; reading the file is the shell's
(:func:`rig.shell.config.load_pinmap`).
"""

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Optional

from ..core.errors import ConfigError
from ..core.settings import Key, Section, Table, is_number, show, show_hex
from . import names as museum
from .debounce import DetectSettings
from .names import input_label

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


# --- The table's sections -------------------------------------------------------------------------

PINS = Section("pins", (
    Key("map", "path", DEFAULT_PINMAP_PATH, "the pin map; a relative path is read next to "
        "this file", what="a path to a pin map", example='"pinmap.toml"'),
    Key("backend", "choice", "auto", "\"auto\": real pins on a Pi, the simulator elsewhere; "
        "\"real\"; \"sim\"", choices=("auto", "real", "sim")),
    Key("edge_delay_s", "number", 0.05, "how late lgpio may deliver an edge; applied in stamp "
        "order", low=0, high=0.5),
), class_name="PinsConfig", module=__name__)

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


PinsConfig = PINS.value
TofConfig = TOF.value
HubConfig = HUB.value

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
