"""Stand-in for CircuitPython's ``board`` on the Raspberry Pi Pico (board id
``raspberry_pi_pico``): the pins broken out on its edge, GP0-GP22 and GP26-GP28, and the LED."""

import microcontroller

for _n in tuple(range(23)) + (25, 26, 27, 28):
    globals()["GP%d" % _n] = getattr(microcontroller.pin, "GPIO%d" % _n)
LED = GP25  # noqa: F821  (defined just above)
A0 = GP26  # noqa: F821
A1 = GP27  # noqa: F821
A2 = GP28  # noqa: F821
