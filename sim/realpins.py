"""gpiozero's real lgpio pin factory on a simulated Raspberry Pi.

The real-stack tests and ``make bench`` run the rig's pins module on gpiozero's own
``LGPIOFactory`` and ``LGPIOPin``, replacing only what touches hardware: the ``lgpio`` C module
(by :mod:`sim/standins/lgpio.py <lgpio>`, imported under that name) and the board revision
gpiozero reads from ``/proc/device-tree`` to know which pins the board has.
"""

import contextlib
import sys
from pathlib import Path

STANDINS = Path(__file__).resolve().parent / "standins"

#: Board revision codes (new-style, as in /proc/device-tree/system/linux,revision).
PI_4B = 0xc03114
PI_5 = 0xd04170


def load_lgpio():
    """The lgpio stand-in, imported as ``lgpio`` (the name gpiozero imports).  Refuses if the
    real module is already loaded: gpiozero would be talking to real hardware."""
    if str(STANDINS) not in sys.path:
        sys.path.insert(0, str(STANDINS))
    import lgpio
    if not getattr(lgpio, "STANDIN", False):
        raise RuntimeError("the real lgpio module (%s) is already imported, so gpiozero would "
                           "drive real pins; run the real-stack tests in a fresh interpreter"
                           % getattr(lgpio, "__file__", "built-in"))
    return lgpio


@contextlib.contextmanager
def simulated_pi(revision=PI_5, chips=None):
    """A Raspberry Pi as gpiozero's real LGPIOFactory meets it; yields the stand-in's kernel.

    ``revision`` is the board gpiozero believes it runs on (a Pi 5 by default: gpiozero then
    picks its gpiochip as on a real one); ``chips`` as :meth:`lgpio.Kernel.reset`.  Pin factories
    made inside must be closed inside."""
    lgpio = load_lgpio()
    from gpiozero.pins import local
    lgpio.kernel.reset(chips)
    saved = local.get_pi_revision
    local.get_pi_revision = lambda: revision
    try:
        yield lgpio.kernel
    finally:
        local.get_pi_revision = saved
        lgpio.kernel.reset()


def contact_edges(pinmap, pulses):
    """The line edges that contact pulses ``[(name, start_ns, width_ns)]`` make, in kernel-time
    order: ``[(t_ns, name, value, gpio, level)]`` (``value`` as the recording has it, 1 while
    closed; ``level`` on the wire, by the pin map's polarity)."""
    edges = []
    for name, start_ns, width_ns in pulses:
        spec = pinmap.inputs[name]
        closed = 1 if spec.active == "high" else 0
        edges.append((start_ns, name, 1, spec.pin, closed))
        edges.append((start_ns + width_ns, name, 0, spec.pin, 1 - closed))
    return sorted(edges)


def play(kernel, edges):
    """The kernel sees ``edges`` (as :func:`contact_edges` gives them) happen at their times."""
    for t_ns, _, _, gpio, level in edges:
        kernel.edge(gpio, level, t_ns)
