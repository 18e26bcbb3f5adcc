"""Stand-in for CircuitPython's ``time`` on the virtual clock: ``monotonic``, ``monotonic_ns``
and ``sleep``, which is where virtual time passes (and where the power is cut at the end)."""

import virtual_pico


def monotonic():
    return virtual_pico.clock.us / 1000000


def monotonic_ns():
    return virtual_pico.clock.us * 1000


def sleep(seconds):
    virtual_pico.clock.sleep(seconds)
