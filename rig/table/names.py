"""The museum box, once: its pieces, the rig's names for its inputs, their rest state, the marks.

Part of the table (:mod:`rig.table`), below the games: every other module spells the table
through this one: Cleptómano's detector and recording, the pin map, the relic hub link, the
wiring check, the screen and the simulator.  Pure: the standard library only.

The pieces (rulebook, "Components" and "Security System"):

* lasers 1-3 are printed (1 left wall, 2 right wall, 3 the gallery); 4-8 are the rods the guard
  adds, 3 to 5 of them by level, each resting in a seat whose switch says it is in place;
* two paintings on their stands in the gallery;
* three relics, relic 1 the one closest to the gallery;
* the guard token, the start/exit button, and the hand sensor at the door.

Input names (the recording's vocabulary): ``button``, ``guard``, ``laser.N``, ``seat.N``,
``painting.N``, ``tof`` and ``relic.N.tilt`` / ``relic.N.freefall`` / ``relic.N.motion``.
"""

import enum
from dataclasses import dataclass
from typing import Optional

PRINTED_LASERS = (1, 2, 3)
ADDED_LASERS = (4, 5, 6, 7, 8)
LASERS = PRINTED_LASERS + ADDED_LASERS
MIN_ADDED_LASERS, MAX_ADDED_LASERS = 3, 5
PAINTINGS = (1, 2)
RELICS = (1, 2, 3)

#: The VL53L0X reads 8190 (or more) when nothing is in range.
NOTHING_IN_RANGE_MM = 8190
#: A relic is upright below 30 degrees from its rest orientation; 60 or more is tipped over.
UPRIGHT_BELOW_DEG = 30.0
TIPPED_FROM_DEG = 60.0
TILT_MARKS_DEG = (UPRIGHT_BELOW_DEG, TIPPED_FROM_DEG)


class Kind(enum.StrEnum):
    """What an input is: the first part of its name."""
    BUTTON = "button"
    GUARD = "guard"
    LASER = "laser"
    SEAT = "seat"
    PAINTING = "painting"
    TOF = "tof"
    RELIC = "relic"


class Aspect(enum.StrEnum):
    """What the relic hub reports of a relic: the last part of a relic input's name."""
    TILT = "tilt"
    FREEFALL = "freefall"
    MOTION = "motion"


BUTTON, GUARD, TOF = Kind.BUTTON.value, Kind.GUARD.value, Kind.TOF.value


def laser(n):
    return "laser.%d" % n


def seat(n):
    return "seat.%d" % n


def painting(n):
    return "painting.%d" % n


def relic(n, aspect):
    """``relic(2, Aspect.TILT) == "relic.2.tilt"``."""
    return "relic.%d.%s" % (n, aspect)


CONTACTS = (BUTTON, GUARD) + tuple(laser(n) for n in LASERS)
SEATS = tuple(seat(n) for n in ADDED_LASERS)
PAINTING_INPUTS = tuple(painting(n) for n in PAINTINGS)
RELIC_INPUTS = tuple(relic(n, a) for n in RELICS for a in Aspect)
INPUT_NAMES = CONTACTS + SEATS + PAINTING_INPUTS + (TOF,) + RELIC_INPUTS
#: Inputs whose value is 0 or 1 (the rest are numbers: tof in mm, tilt in degrees).
BINARY_INPUTS = frozenset(CONTACTS + SEATS + PAINTING_INPUTS + tuple(
    name for name in RELIC_INPUTS if not name.endswith("." + Aspect.TILT)))
#: Inputs that are wired to the Pi's pins (the rest come from the hand sensor and the hub).
PIN_INPUTS = CONTACTS + SEATS + PAINTING_INPUTS


@dataclass(frozen=True)
class InputName:
    """A parsed input name: ``laser.4`` is (LASER, 4, None), ``relic.2.tilt`` (RELIC, 2, TILT)."""
    kind: Kind
    number: Optional[int] = None
    aspect: Optional[Aspect] = None


def parse(name):
    """The parts of a known input name, or None for a name the rig does not know."""
    if name not in _PARSED:
        return None
    return _PARSED[name]


def _parse(name):
    parts = name.split(".")
    kind = Kind(parts[0])
    number = int(parts[1]) if len(parts) > 1 else None
    aspect = Aspect(parts[2]) if len(parts) > 2 else None
    return InputName(kind, number, aspect)


_PARSED = {name: _parse(name) for name in INPUT_NAMES}


def rest_value(name):
    """An input's value when the museum is set up and nobody touches it (the recording
    contract's "before any line"): no contact, every seat seated, both paintings on their
    stands, nothing in range at the door, relics upright and still, the button released."""
    kind = _PARSED[name].kind
    if kind in (Kind.SEAT, Kind.PAINTING):
        return 1
    if kind is Kind.TOF:
        return NOTHING_IN_RANGE_MM
    if _PARSED[name].aspect is Aspect.TILT:
        return 0.0
    return 0


REST = {name: rest_value(name) for name in INPUT_NAMES}


def is_upright(tilt_deg):
    return tilt_deg < UPRIGHT_BELOW_DEG


def is_tipped(tilt_deg):
    return tilt_deg >= TIPPED_FROM_DEG


def in_play(level):
    """The inputs a level uses: the printed lasers and its added rods with their seats, and
    everything that is not a rod."""
    return frozenset(
        [BUTTON, GUARD, TOF] + [laser(n) for n in level.rods] + [seat(n) for n in level.added_rods]
        + list(PAINTING_INPUTS) + list(RELIC_INPUTS))


# --- the builder's words for the parts (English: pin-map, config and terminal errors) ----------

def describe(name):
    """A builder's word for an input, in English (pin-map and config errors): ``laser.5`` ->
    ``laser 5``.  The table's words on screen are the game's (Cleptómano's ``calls.part``)."""
    parts = parse(name)
    if parts is None:
        return name
    if parts.kind is Kind.GUARD:
        return "the guard token"        # not words: the builder's (pin-map errors)
    if parts.kind is Kind.BUTTON:
        return "the start button"       # not words: the builder's (pin-map errors)
    if parts.kind is Kind.TOF:
        return "the hand sensor"        # not words: the builder's (pin-map errors)
    if parts.kind is Kind.SEAT:
        return "laser %d's seat" % parts.number   # not words: the builder's (pin-map errors)
    return "%s %d" % (parts.kind, parts.number)


_LASER_PLACES = {1: "printed laser, left wall",    # not words: the builder's (config errors)
                 2: "printed laser, right wall",   # not words: the builder's (config errors)
                 3: "printed laser, gallery"}      # not words: the builder's (config errors)


def input_label(name):
    """What a pin-map input is, for the builder (English, the config's errors):
    ``"seat switch under added rod 4's rest"``."""
    parts = parse(name)
    if parts.kind is Kind.BUTTON:
        return "start/exit button"      # not words: the builder's (config errors)
    if parts.kind is Kind.GUARD:
        return "guard token"            # not words: the builder's (config errors)
    if parts.kind is Kind.LASER:
        return _LASER_PLACES.get(parts.number,
                                 "added laser rod %d" % parts.number)  # not words: builder's
    if parts.kind is Kind.SEAT:
        return "seat switch under added rod %d's rest" % parts.number  # not words: builder's
    if parts.kind is Kind.PAINTING:
        return "painting %d stand" % parts.number   # not words: the builder's (config errors)
    return describe(name)
