"""The museum box, once: its pieces, the rig's names for its inputs, their rest state, the marks.

Every other module spells the table through this one: the detector, the recording, the config
and its pin map, the relic hub link, the wiring check, the screen and the simulator.

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


class PieceKind(enum.StrEnum):
    PAINTING = "painting"
    RELIC = "relic"


class PieceState(enum.StrEnum):
    IN_PLACE = "in place"  # not words: an enum value
    TAKEN = "taken"
    BROKEN = "broken"


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
