"""One wiring for every rig: :func:`build_rig` makes the :class:`~rig.shell.daemon.Rig` from the
config and a :class:`Backend`, whether the backend is the real Pi (:func:`real_backend`) or the
simulator (``sim.backend``, ``sim.table``); :func:`build_game_host` makes the host of any other
game of the registry, for ``cleptomano run`` and the simulator's game tables alike."""

import logging
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..core.errors import RigError
from .daemon import Rig
from .faces import Faces, NullDisplay
from .gamehost import GameHost
from .pins import Outputs
from .session import RecordingSession
from .sources import HubSource, PinSource
from .wiring import input_sources

log = logging.getLogger("cleptomano")


@dataclass
class Backend:
    """Where the rig's devices come from.

    ``pin_factory`` a gpiozero pin factory (lgpio on a Pi, mock pins in the simulator);
    ``clock`` the rig's clock (:class:`rig.shell.clock.MonotonicClock` or a virtual one);
    ``tof_factory`` opens the hand sensor (None: no hand sensor, the exit button alone);
    ``relics`` the relic source (:class:`~rig.shell.sources.HubSource` or the simulator's feed;
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


def build_rig(config, backend, *, recordings_dir=None, players=None, level=None,
              first_thief=None, key_help=(), resume=True, patterns=None, trace=None,
              sync_hook=None, phones=None):
    """The rig for ``config`` on ``backend``; ``players``/``level``/``first_thief`` override the
    config's match, ``patterns`` the buzzer's, ``trace`` observes the referee loop,
    ``sync_hook(path)`` each fsync of the recording (the kill tests) and ``phones`` is the
    phones' pairing the screen shows (:class:`rig.web.pairing.Pairing`; None: no phones)."""
    clock = backend.clock
    sources = input_sources(config, backend)
    directory = Path(recordings_dir or config.storage.recordings_dir)
    session = RecordingSession(directory, backend.wall_clock, clock=clock)
    display = backend.display if backend.display is not None else NullDisplay()
    links = []
    if config.tournament is not None:
        link = tournament_link(config.tournament, directory, session)
        links.append(link)
        display = Faces(display, link.face)
    return Rig(config, pins=PinSource(config.pinmap, backend.pin_factory, clock),
               outputs=Outputs(config.pinmap, backend.pin_factory), clock=clock,
               session=session, sources=sources, display=display,
               players=players, level=level, first_thief=first_thief, key_help=key_help,
               resume=resume, patterns=patterns, trace=trace,
               edge_delay_s=backend.edge_delay_s, sync_hook=sync_hook, phones=phones,
               links=links)


def build_game_host(config, name, players, *, clock, recordings_dir=None, display=None,
                    phones=None, key_help=(), button=None, seed=None):
    """The host of the registry's game ``name`` (:mod:`rig.games`) for ``players``: its settings
    from ``config`` (its own table), its recording in ``recordings_dir`` (None: the config's),
    the start button's debounce from ``[detect]``.  ``display`` and ``phones`` as for
    :func:`build_rig`; ``key_help`` and ``button`` (the command a press of the start button
    gives) are the game's keys' own, which the faces know (the shell never imports a face);
    ``seed`` None: a fresh one, drawn when the game starts."""
    from ..games import game, settings
    played = game(name)
    directory = Path(recordings_dir or config.storage.recordings_dir)
    return GameHost(played, players, settings=settings(played, config), clock=clock,
                    session=RecordingSession(directory, clock=clock), display=display,
                    seed=seed, key_help=key_help, phones=phones, button=button,
                    detect=config.detect, language=config.table.language)


def tournament_link(config, directory, session):
    """The rig's link to the tournament's broker (``config``: ``[tournament]``), told of every
    recording ``session`` makes durable.  It paces itself in real time (the network's), even
    on a simulated table in virtual time."""
    from ..links.publisher import TournamentLink
    from .clock import MonotonicClock
    link = TournamentLink(config, directory, MonotonicClock())
    session.listeners.append(link.recording_written)
    return link


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


def real_backend(config, display=None):
    """The Raspberry Pi: gpiozero's pin factory (lgpio), the VL53L0X, the relic hub."""
    from .clock import MonotonicClock
    from .tof import open_vl53l0x
    clock = MonotonicClock()
    factory = real_pin_factory(clock)
    tof = config.tof

    def tof_factory():
        return open_vl53l0x(tof.i2c_bus, tof.address, tof.io_timeout_s, tof.timing_budget_us)

    relics = HubSource(config.hub.url, config.hub, clock) if config.hub.enabled else None
    return Backend(factory, clock, tof_factory, relics, display,
                   edge_delay_s=config.pins.edge_delay_s)


def game_button(config, clock, on_edge, pin_factory=None):
    """The museum's start button alone, for a companion game: a gpiozero input on
    ``pin_factory`` (None: the Pi's, :func:`real_pin_factory`) whose edges, stamped by the pin,
    go to ``on_edge(value, t_abs)``; the rest of the museum's pins stay closed.  A button that
    cannot be opened (no pin library, a busy pin, no permission) is one warning and None: the
    game goes on with the keys and the phones."""
    from ..games.cleptomano.rules.museum import BUTTON
    from .pins import Inputs
    try:
        factory = real_pin_factory(clock) if pin_factory is None else pin_factory
        return Inputs(config.pinmap, factory, clock, lambda t, name, value: on_edge(value, t),
                      names=(BUTTON,))
    except RigError as exc:
        log.warning("Start button: %s; the game goes on with the keys and the phones.", exc)
        return None
