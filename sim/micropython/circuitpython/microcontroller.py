"""Stand-in for CircuitPython's ``microcontroller``: the RP2040's pins (``microcontroller.pin``).

Only ``Pin`` is here, the one part the firmware reaches (through ``board``)."""


class Pin:
    """One GPIO of the RP2040, named as CircuitPython names it."""

    def __init__(self, number):
        self.number = number
        self.name = "GP%d" % number

    def __repr__(self):
        return "board.%s" % self.name


class _Pins:
    pass


pin = _Pins()
for _n in range(30):
    setattr(pin, "GPIO%d" % _n, Pin(_n))
