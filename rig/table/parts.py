"""The table parts a game uses, declared as data in the game's folder (``<game>/parts.py``:
``PARTS``), read by the host's build: only the parts a game declares are opened, and a game that
declares none gets no hardware opened at all (its keys and the phones play it).

Pure: the standard library and the table's names only.
"""

import enum
from dataclasses import dataclass
from typing import Optional

from .names import Kind, parse
from .reflex import ReflexRule


class Part(enum.StrEnum):
    """A part of the museum box."""
    RODS = "rods"          # the lasers (printed and added) and the added rods' seat switches
    GUARD = "guard"        # the guard token's contact
    STANDS = "stands"      # the paintings' stands
    BUTTON = "button"      # the start/exit button
    HUB = "hub"            # the relic hub (relics' tilt, motion and falls), on USB serial
    HAND = "hand"          # the VL53L0X hand sensor at the door
    BUZZER = "buzzer"
    LAMPS = "lamps"        # the optional status lamps (led.ready, led.turn, led.fault)


_PIN_PART = {Kind.LASER: Part.RODS, Kind.SEAT: Part.RODS, Kind.GUARD: Part.GUARD,
             Kind.PAINTING: Part.STANDS, Kind.BUTTON: Part.BUTTON}


def part_of_input(name):
    """The part a pin input belongs to (None for a name the table does not know)."""
    parsed = parse(name)
    return None if parsed is None else _PIN_PART.get(parsed.kind)


def part_of_output(name):
    if name == "buzzer":
        return Part.BUZZER
    return Part.LAMPS if name.startswith("led.") else None


@dataclass(frozen=True)
class TableParts:
    """What a game uses of the table: ``uses`` (a set of :class:`Part`) and the touch-to-buzzer
    ``reflex`` (:class:`~rig.table.reflex.ReflexRule`, or None)."""
    uses: frozenset = frozenset()
    reflex: Optional[ReflexRule] = None

    def __post_init__(self):
        uses = frozenset(self.uses)
        unknown = sorted(str(p) for p in uses if p not in set(Part))
        if unknown:
            raise ValueError("unknown table parts %s; the table has %s"
                             % (", ".join(unknown), ", ".join(p.value for p in Part)))
        object.__setattr__(self, "uses", frozenset(Part(p) for p in uses))
        if self.reflex is not None:
            if part_of_output(self.reflex.output) not in self.uses:
                raise ValueError("the reflex drives %s, a part the game does not declare; add "
                                 "Part.%s to its parts" % (self.reflex.output,
                                                         Part.BUZZER.name))
            stray = sorted(n for n in self.reflex.inputs if part_of_input(n) not in self.uses)
            if stray:
                raise ValueError("the reflex reads %s, which no declared part wires; declare "
                                 "their parts or leave them out of the reflex" % ", ".join(stray))

    def __contains__(self, part):
        return part in self.uses

    def pin_inputs(self, wired):
        """The inputs of ``wired`` (names in a pin map) the game's parts use, in order."""
        return tuple(n for n in wired if part_of_input(n) in self.uses)

    def outputs(self, wired):
        """The outputs of ``wired`` the game's parts use, in order."""
        return tuple(n for n in wired if part_of_output(n) in self.uses)

    @property
    def any(self):
        return bool(self.uses)


#: A game that declares nothing: no hardware is opened for it.
NONE = TableParts()
