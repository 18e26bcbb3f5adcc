"""Where the table's devices come from: the real Raspberry Pi's (:func:`pi_backend`), or the
simulator's (``sim.backend``, ``sim.table``), as one :class:`Backend`; and the start button alone
for a game that uses nothing else of the museum (:func:`game_button`).

Every hardware library is imported lazily, inside the function that needs it.
"""

import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..core.errors import RigError
from .sources import HubSource

log = logging.getLogger("cleptomano")


@dataclass
class Backend:
    """Where the rig's devices come from.

    ``pin_factory`` a gpiozero pin factory (lgpio on a Pi, mock pins in the simulator);
    ``clock`` the rig's clock (``rig.shell.clock.MonotonicClock`` or a virtual one);
    ``tof_factory`` opens the hand sensor (None: no hand sensor, the exit button alone);
    ``relics`` the relic source (:class:`~rig.table.sources.HubSource` or the simulator's feed;
    None: no relic sensing); ``display`` the face (None: headless); ``wall_clock`` names the
    recording files; ``edge_delay_s`` how late the pins may deliver an edge after its stamp (0
    for pins that call back at once, as the simulator's do).
    """
    pin_factory: object
    clock: object
    tof_factory: Optional[Callable] = None
    relics: Optional[object] = None
    display: Optional[object] = None
    wall_clock: Callable[[], float] = field(default=time.time)
    edge_delay_s: float = 0.0


def real_pin_factory(clock):
    """gpiozero's default pin factory (lgpio on a Raspberry Pi), checked to stamp edges on
    ``clock``.  When there is none, or gpiozero fell back to one that cannot time edges, one
    :class:`RigError` that gives every library's reason instead of gpiozero's warnings."""
    import warnings
    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback
    from .pins import check_edge_clock
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except Exception as exc:
            failed = exc
        else:
            failed = None
    reasons = "; ".join(str(w.message) for w in caught
                        if issubclass(w.category, PinFactoryFallback))
    if failed is not None:
        raise RigError("no GPIO pin library could be loaded (%s); on a Raspberry Pi install "
                       "lgpio (systemd/install.sh does), or run the simulator with --sim"
                       % (reasons or failed)) from None
    try:
        check_edge_clock(Device.pin_factory, clock)
    except RigError as exc:
        if not reasons:
            raise
        raise RigError("%s (gpiozero's reasons: %s)" % (exc, reasons)) from None
    return Device.pin_factory


def pi_backend(config, clock, display=None):
    """The Raspberry Pi on ``clock`` (the rig's monotonic clock): gpiozero's pin factory (lgpio),
    checked to stamp edges on it, the VL53L0X, the relic hub."""
    from .tof import open_vl53l0x
    factory = real_pin_factory(clock)
    tof = config.tof

    def tof_factory():
        return open_vl53l0x(tof.i2c_bus, tof.address, tof.io_timeout_s, tof.timing_budget_us)

    relics = HubSource(config.hub.url, config.hub, clock) if config.hub.enabled else None
    return Backend(factory, clock, tof_factory, relics, display,
                   edge_delay_s=config.pins.edge_delay_s)


def game_button(config, clock, on_edge, pin_factory=None, parts=None):
    """The museum's start button alone, for a companion game: a gpiozero input on
    ``pin_factory`` (None: the Pi's, :func:`real_pin_factory`) whose edges, stamped by the pin,
    go to ``on_edge(value, t_abs)``; the rest of the museum's pins stay closed.  A button that
    cannot be opened (no pin library, a busy pin, no permission) is one warning and None: the
    game goes on with the keys and the phones.  ``parts`` (the game's declared
    :class:`~rig.table.parts.TableParts`; None: the button) without the button: nothing is
    opened, None."""
    from .names import BUTTON
    from .parts import Part
    from .pins import Inputs
    if parts is not None and Part.BUTTON not in parts:
        return None
    try:
        factory = real_pin_factory(clock) if pin_factory is None else pin_factory
        return Inputs(config.pinmap, factory, clock, lambda t, name, value: on_edge(value, t),
                      names=(BUTTON,))
    except RigError as exc:
        log.warning("Start button: %s; the game goes on with the keys and the phones.", exc)
        return None
