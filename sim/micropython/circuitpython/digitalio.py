"""Stand-in for CircuitPython's ``digitalio`` inputs: a pin's level is what is wired to it (a
virtual LIS3DH's INT1 output) or, while nothing drives it, what its pull makes it.  Outputs are
not modelled (the firmware drives no pin)."""

import virtual_pico


class Direction:
    INPUT = "Direction.INPUT"
    OUTPUT = "Direction.OUTPUT"


class Pull:
    UP = "Pull.UP"
    DOWN = "Pull.DOWN"


class DigitalInOut:
    def __init__(self, pin):
        virtual_pico.claim(pin, self)
        self._pin = pin
        self._pull = None

    @property
    def direction(self):
        return Direction.INPUT

    @direction.setter
    def direction(self, value):
        if value != Direction.INPUT:
            raise NotImplementedError("the MicroPython test tier models input pins only")

    @property
    def pull(self):
        return self._pull

    @pull.setter
    def pull(self, value):
        if value not in (None, Pull.UP, Pull.DOWN):
            raise ValueError("Invalid pull.")
        self._pull = value

    @property
    def value(self):
        chip = virtual_pico.int1_wire(self._pin)
        level = chip.int1_level() if chip is not None else None
        if level is None:  # nothing drives the pin: the pull decides
            return self._pull == Pull.UP
        return level
