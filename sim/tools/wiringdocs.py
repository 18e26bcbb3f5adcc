"""The wiring documents, generated from the pin map so they can never disagree with the rig.

``python -m sim.tools.wiringdocs`` writes ``wiring/pins.md`` (the pin table), ``wiring/diagram.svg``
(the header with every used pin and a box per contact, module, buzzer and sensor) and
``wiring/bom.md`` (the parts list) from ``wiring/pinmap.toml``; ``--check`` only compares and
exits 1 if a committed file is stale (CI runs it).

Pure text generation: the standard library only, and no drawing library -- the SVG is written
by hand, laid out on the header's own grid (one row per pair of pins).
"""

import argparse
import sys
from pathlib import Path
from xml.sax.saxutils import escape

from rig.shell.config import (BCM_TO_HEADER, DEFAULT_PINMAP_PATH, KNOWN_INPUTS, KNOWN_OUTPUTS,
                     WIRING_DIR, load_pinmap)
from rig.core.errors import ConfigError

GENERATED_NOTE = ("Generated from `wiring/pinmap.toml` by `python -m sim.tools.wiringdocs`; edit the "
                  "pin map and re-run it, never this file.")

HEADER_TO_BCM = {header: bcm for bcm, header in BCM_TO_HEADER.items()}
POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V",
              **{p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)}}
#: I2C bus -> (SDA, SCL) BCM pins on the header.
I2C_PINS = {1: (2, 3), 0: (0, 1)}

#: Each kind of device: the part used, and the colour it has in the diagram.
PARTS = {
    "touch": ("AT42QT1010 capacitive touch breakout, fast mode (e.g. SparkFun SEN-12041)",
              "#1f6fb4"),
    "seat": ("miniature lever microswitch, normally open (or reed switch + magnet)", "#2f8f2f"),
    "stand": ("microswitch under the painting's spot (or reed switch + magnet)", "#128a8a"),
    "button": ("momentary push button, panel mount (e.g. 24-30 mm arcade button)", "#7a4fb0"),
    "buzzer": ("active buzzer 5 V, driven by an NPN transistor", "#c0392b"),
    "led": ("5 mm LED + 330 Ω resistor", "#d9822b"),
    "tof": ("VL53L0X time-of-flight breakout (e.g. Adafruit 3317, Pololu 2490)", "#8c564b"),
}
LED_COLOURS = {"led.ready": "green", "led.turn": "yellow", "led.fault": "red"}
MEANING = {"touch": "touched", "seat": "rod seated", "stand": "painting on its stand",
           "button": "pressed"}


def kind_of(name):
    """The kind of device behind an input or output name."""
    if name.startswith("laser.") or name == "guard":
        return "touch"
    if name.startswith("seat."):
        return "seat"
    if name.startswith("painting."):
        return "stand"
    if name.startswith("led."):
        return "led"
    return name  # button, buzzer


def describe(name):
    return KNOWN_INPUTS.get(name) or KNOWN_OUTPUTS.get(name) or name


def _gpio(bcm):
    return "GPIO%d (pin %d)" % (bcm, BCM_TO_HEADER[bcm])


def _value_one(name, pin):
    level = "high" if pin.active_high else "low"
    how = "switch closed to GND" if (kind_of(name) != "touch" and not pin.active_high) \
        else "module output"
    return "%s: %s (%s)" % (level, MEANING.get(kind_of(name), "active"), how)


def _pull(pull):
    return {"up": "up (internal)", "down": "down (internal)", "none": "none (driven)"}[pull]


# --- pins.md ---------------------------------------------------------------------------------------

def pin_table_markdown(pinmap):
    """The pin table: every input, output, the I2C sensor, power and the free GPIOs."""
    lines = ["# Pin table", "", GENERATED_NOTE, "",
             "BCM numbers are what the software uses; header pins are the physical positions "
             "(pin 1 is the square pad: inner row, at the header's end farthest from the USB "
             "ports; odd pins on the inner row, even pins on the board's edge).", "", "## Inputs", "",
             "| Input | What | BCM | Header pin | Pull | Value 1 = | Part |",
             "|---|---|---|---|---|---|---|"]
    for name, pin in pinmap.inputs.items():
        lines.append("| `%s` | %s | GPIO%d | %d | %s | %s | %s |" % (
            name, describe(name), pin.pin, BCM_TO_HEADER[pin.pin], _pull(pin.pull),
            _value_one(name, pin), PARTS[kind_of(name)][0]))
    lines += ["", "## Outputs", "", "| Output | What | BCM | Header pin | On when | Part |",
              "|---|---|---|---|---|---|"]
    for name, pin in pinmap.outputs.items():
        part = PARTS[kind_of(name)][0]
        if name in LED_COLOURS:
            part = "%s LED + 330 Ω resistor" % LED_COLOURS[name]
        lines.append("| `%s` | %s | GPIO%d | %d | %s | %s |" % (
            name, describe(name), pin.pin, BCM_TO_HEADER[pin.pin],
            "high" if pin.active_high else "low", part))
    lines += ["", "## I2C", "", "| Device | Bus | Address | SDA | SCL | Power |",
              "|---|---|---|---|---|---|"]
    sda, scl = I2C_PINS.get(pinmap.i2c_bus, (None, None))
    where = ((_gpio(sda), _gpio(scl)) if sda is not None
             else ("bus %d's SDA" % pinmap.i2c_bus, "bus %d's SCL" % pinmap.i2c_bus))
    lines.append("| VL53L0X hand sensor (`tof`) | %d | 0x%02X | %s | %s | VIN to 3V3 (pin 1), "
                 "GND to pin 6 |" % (pinmap.i2c_bus, pinmap.tof_address, where[0], where[1]))
    lines += ["", "## Power and ground", "",
              "| Rail | Header pins | Feeds |", "|---|---|---|",
              "| 3V3 | 1, 17 | VDD of every touch module, VL53L0X VIN |",
              "| 5V | 2, 4 | buzzer (+) |",
              "| GND | 6, 9, 14, 20, 25, 30, 34, 39 | every module, switch, LED and the buzzer "
              "transistor's emitter |"]
    free = pinmap.free_pins()
    lines += ["", "## Free GPIOs", "",
              ", ".join(_gpio(p) for p in free) if free else "None: every GPIO is used.", ""]
    return "\n".join(lines)


# --- bom.md ----------------------------------------------------------------------------------------

def bom_markdown(pinmap):
    """The bill of materials, with quantities counted from the pin map."""
    groups = {}
    for name in list(pinmap.inputs) + list(pinmap.outputs):
        groups.setdefault(kind_of(name), []).append(name)

    def names(kind):
        return ", ".join("`%s`" % n for n in groups.get(kind, []))

    rows = [
        ("1", "Raspberry Pi 5 (2 GB is plenty; any Pi with a 40-pin header works)", "the referee",
         "Raspberry Pi OS, I2C enabled, SPI and I2S audio left disabled"),
        ("1", "Raspberry Pi 27 W USB-C power supply (5.1 V, 5 A)", "Pi and everything on it",
         "see the power budget in README.md"),
        ("1", "microSD card, 16 GB or more", "the system", ""),
        ("1", "800x480 display (DSI or HDMI)", "the score display", "powered on its own"),
    ]
    if groups.get("touch"):
        rows.append((str(len(groups["touch"])), PARTS["touch"][0], names("touch"),
                     "one per electrode; leave the mode jumper on fast (F)"))
        rows.append(("1 roll", "copper foil tape with conductive adhesive, 5-6 mm wide "
                               "(or conductive paint)", names("touch"),
                     "the electrode on each laser and on the guard token"))
        rows.append((str(len(groups["touch"])), "1 m of thin flexible silicone wire, "
                                                "28-30 AWG", "electrode leads",
                     "soft enough not to drag a rod; keep leads short"))
    if groups.get("seat"):
        rows.append(("%d (or %d)" % (len(groups["seat"]), 2 * len(groups["seat"])),
                     PARTS["seat"][0], names("seat"),
                     "one under each added rod's rest, or one under each end wired in series; "
                     "lowest operating force you can find"))
    if groups.get("stand"):
        rows.append((str(len(groups["stand"])), PARTS["stand"][0], names("stand"),
                     "closed while the painting stands on it"))
    if groups.get("button"):
        rows.append(("1", PARTS["button"][0], names("button"), "between GPIO and GND"))
    if groups.get("buzzer"):
        rows += [("1", PARTS["buzzer"][0], names("buzzer"), "(+) to 5V, (-) to the collector"),
                 ("1", "NPN transistor (BC337 or 2N2222)", names("buzzer"),
                  "emitter to GND"),
                 ("1", "1 kΩ resistor", names("buzzer"), "GPIO to the transistor's base"),
                 ("1", "1N4148 diode", names("buzzer"),
                  "across a magnetic buzzer, cathode to 5V (not needed for piezo)")]
    for name in groups.get("led", []):
        rows.append(("1", "%s 5 mm LED + 330 Ω resistor" % LED_COLOURS.get(name, "any"),
                     "`%s`" % name, describe(name)))
    rows.append(("1", PARTS["tof"][0], "`tof` (I2C bus %d, 0x%02X)"
                 % (pinmap.i2c_bus, pinmap.tof_address),
                 "at the museum entrance, facing up; 3V3 logic"))
    rows.append(("1", "relic hub", "relics 1-3", "see [relic-hub.md](relic-hub.md)"))
    rows.append(("-", "jumper wires (female Dupont), screw terminal blocks or a proto HAT",
                 "connections", "label every lead with its input name"))
    lines = ["# Bill of materials", "", GENERATED_NOTE, "",
             "| Qty | Part | For | Notes |", "|---|---|---|---|"]
    lines += ["| %s | %s | %s | %s |" % row for row in rows]
    lines.append("")
    return "\n".join(lines)


# --- diagram.svg -----------------------------------------------------------------------------------

ROW_Y0, ROW_STEP = 96, 26
LEFT_PIN_X, RIGHT_PIN_X = 566, 634
PIN_R = 9
BOX_W, BOX_H = 360, 20
LEFT_BOX_X, RIGHT_BOX_X = 40, 800
WIDTH = 1200
POWER_COLOURS = {"3V3": "#e0a030", "5V": "#d9534f", "GND": "#222222"}
UNUSED = "#c8c8c8"
SHORT_RESERVED = {0: "ID_SD", 1: "ID_SC", 14: "TXD", 15: "RXD", 2: "SDA", 3: "SCL"}


def _connections(pinmap):
    """Header pin -> (label, kind, gpio text) for every pin the rig uses."""
    conn = {}
    for name, pin in list(pinmap.inputs.items()) + list(pinmap.outputs.items()):
        conn[BCM_TO_HEADER[pin.pin]] = ("%s: %s" % (name, describe(name)), kind_of(name),
                                        "GPIO%d" % pin.pin)
    sda, scl = I2C_PINS.get(pinmap.i2c_bus, (None, None))
    if sda is not None:
        conn[BCM_TO_HEADER[sda]] = ("tof: VL53L0X hand sensor SDA (0x%02X)" % pinmap.tof_address,
                                    "tof", "GPIO%d SDA" % sda)
        conn[BCM_TO_HEADER[scl]] = ("tof: VL53L0X hand sensor SCL", "tof", "GPIO%d SCL" % scl)
    return conn


def _text(x, y, text, *, size=11, anchor="start", fill="#222222", weight="normal"):
    return ('<text x="%d" y="%d" font-size="%d" text-anchor="%s" fill="%s" font-weight="%s">%s'
            '</text>' % (x, y, size, anchor, fill, weight, escape(text)))


def wiring_svg(pinmap):
    """The wiring diagram: the 40-pin header with each used pin, and a box per device."""
    conn = _connections(pinmap)
    bottom = ROW_Y0 + 19 * ROW_STEP
    legend_y = bottom + 50
    notes = [
        "Touch modules (lasers, guard): VDD to 3V3, GND to GND, OUT to the GPIO shown; the "
        "electrode wire goes to the module's PAD.",
        "Switches (seats, stands, button): one leg to the GPIO shown, the other to any GND; "
        "the Pi's internal pull-up does the rest.",
        "Buzzer: GPIO → 1 kΩ → NPN base; emitter to GND; buzzer between 5V and the "
        "collector.  LEDs: GPIO → 330 Ω → LED → GND.",
        "VL53L0X: VIN to 3V3 (pin 1), GND to GND, SDA/SCL as shown; it sits at the museum "
        "entrance, facing up.",
    ]
    kinds = [k for k in PARTS if any(v[1] == k for v in conn.values())]
    height = legend_y + 22 * len(kinds) + 20 * len(notes) + 40
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="DejaVu Sans, Helvetica, Arial, sans-serif">' % (WIDTH, height, WIDTH,
                                                                        height),
           '<title>Cleptomano rig wiring</title>',
           '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % (WIDTH, height),
           _text(WIDTH // 2, 32, "Cleptómano rig: Raspberry Pi 40-pin header wiring", size=20,
                 anchor="middle", weight="bold"),
           _text(WIDTH // 2, 54, "Generated from wiring/pinmap.toml (BCM numbering; the number "
                 "in each circle is the header pin)", size=12, anchor="middle",
                 fill="#555555"),
           '<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#1d5c2e" stroke="#0f3318"/>'
           % (LEFT_PIN_X - 22, ROW_Y0 - 20, RIGHT_PIN_X - LEFT_PIN_X + 44,
              bottom - ROW_Y0 + 40)]
    for header in range(1, 41):
        row, left = (header - 1) // 2, header % 2 == 1
        y = ROW_Y0 + row * ROW_STEP
        x = LEFT_PIN_X if left else RIGHT_PIN_X
        power = POWER_PINS.get(header)
        if power:
            colour, ink = POWER_COLOURS[power], "#ffffff" if power != "3V3" else "#222222"
        elif header in conn:
            colour, ink = PARTS[conn[header][1]][1], "#ffffff"
        else:
            colour, ink = UNUSED, "#333333"
        if header == 1:
            out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff"/>'
                       % (x - PIN_R, y - PIN_R, 2 * PIN_R, 2 * PIN_R, colour))
        else:
            out.append('<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="#ffffff"/>'
                       % (x, y, PIN_R, colour))
        out.append(_text(x, y + 4, str(header), size=9, anchor="middle", fill=ink))
        side = -1 if left else 1
        label_x = x + side * (PIN_R + 14)
        anchor = "end" if left else "start"
        if power:
            out.append(_text(label_x, y + 4, power, size=10, anchor=anchor,
                             fill=POWER_COLOURS[power] if power != "GND" else "#222222",
                             weight="bold"))
            continue
        if header not in conn:
            bcm = HEADER_TO_BCM.get(header)
            what = SHORT_RESERVED.get(bcm, "free")
            out.append(_text(label_x, y + 4, "GPIO%d %s" % (bcm, what), size=9, anchor=anchor,
                             fill="#999999"))
            continue
        label, kind, gpio = conn[header]
        colour = PARTS[kind][1]
        box_x = LEFT_BOX_X if left else RIGHT_BOX_X
        line_from = box_x + BOX_W if left else box_x
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>'
                   % (line_from, y, x + side * PIN_R, y,
                      colour))
        gpio_x = (line_from + 8) if left else (line_from - 8)
        out.append(_text(gpio_x, y - 4, gpio, size=10, anchor="start" if left else "end",
                         fill=colour, weight="bold"))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" '
                   'fill-opacity="0.12" stroke="%s" stroke-width="1.5"/>'
                   % (box_x, y - BOX_H // 2, BOX_W, BOX_H, colour, colour))
        out.append(_text(box_x + 8, y + 4, label, size=11))
    # Legend and notes.
    out.append(_text(LEFT_BOX_X, legend_y - 14, "Parts", size=13, weight="bold"))
    y = legend_y
    for kind in kinds:
        colour = PARTS[kind][1]
        out.append('<rect x="%d" y="%d" width="14" height="14" rx="3" fill="%s"/>'
                   % (LEFT_BOX_X, y - 11, colour))
        out.append(_text(LEFT_BOX_X + 22, y, "%s: %s" % (kind, PARTS[kind][0]), size=11))
        y += 22
    y += 8
    for note in notes:
        out.append(_text(LEFT_BOX_X, y, note, size=11, fill="#444444"))
        y += 20
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- The command ---------------------------------------------------------------------------------

def documents(pinmap):
    """File name -> generated text."""
    return {"pins.md": pin_table_markdown(pinmap), "diagram.svg": wiring_svg(pinmap),
            "bom.md": bom_markdown(pinmap)}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m sim.tools.wiringdocs",
        description="Write wiring/pins.md, wiring/diagram.svg and wiring/bom.md from "
                    "wiring/pinmap.toml.")
    parser.add_argument("--check", action="store_true",
                        help="only compare; exit 1 if a committed file differs")
    parser.add_argument("--pinmap", type=Path, default=DEFAULT_PINMAP_PATH, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=WIRING_DIR, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        pinmap = load_pinmap(args.pinmap)
    except ConfigError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    stale = []
    for name, text in documents(pinmap).items():
        path = args.out / name
        try:
            current = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print("wrote %s" % path)
    if args.check and stale:
        print("stale: %s differ from %s; run `python -m sim.tools.wiringdocs` and commit them"
              % (", ".join(str(p) for p in stale), args.pinmap), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
