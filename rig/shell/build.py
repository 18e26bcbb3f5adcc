"""One wiring for every rig, one host class for every game (:class:`~rig.shell.host.Host`):
:func:`build_rig` makes the host of the game played at the table (the registry's first,
Cleptómano) from the config and a :class:`Backend`, with the table parts the game declares,
whether the backend is the real Pi (:func:`real_backend`) or the simulator (``sim.backend``,
``sim.table``); :func:`build_game_host` makes the host of any other game of the registry, for
``cleptomano run`` and the simulator's game tables alike."""

import logging
from pathlib import Path

from .. import games
from ..games import table_parts  # noqa: F401 (build.table_parts: its old home)
from ..table.parts import Part
from ..table.reflex import Reflex
from .faces import Faces, NullDisplay
from .host import Host
from ..table.backend import (Backend, game_button, pi_backend,  # noqa: F401 (build.Backend...)
                             real_pin_factory)
from ..table.pins import Outputs
from .session import RecordingSession
from ..table.sources import HandSource, PinSource
from .wiring import input_sources

log = logging.getLogger("cleptomano")

def build_rig(config, backend, *, recordings_dir=None, players=None, level=None,
              first_thief=None, key_help=(), resume=True, patterns=None, trace=None,
              sync_hook=None, phones=None, link_for=None, game=None):
    """The rig for ``config`` on ``backend``, its game ``game`` (None: the registry's first,
    the game played at the table); ``players``/``level``/``first_thief`` override the
    config's match, ``patterns`` the buzzer's, ``trace`` observes the referee loop,
    ``sync_hook(path)`` each fsync of the recording (the kill tests) and ``phones`` is the
    phones' pairing the screen shows (:class:`rig.web.pairing.Pairing`; None: no phones).
    ``link_for(tournament, directory, session)`` makes the tournament's link when the config has a
    ``[tournament]`` (:func:`rig.links.publisher.tournament_link`: the links sit above the shell,
    so whoever builds the rig hands it over; None: no link is made)."""
    clock = backend.clock
    played = game if game is not None else games.games()[0]
    parts = table_parts(played)
    sources = [s for s in input_sources(config, backend)
               if (Part.HAND if isinstance(s, HandSource) else Part.HUB) in parts]
    directory = Path(recordings_dir or config.storage.recordings_dir)
    session = RecordingSession(directory, backend.wall_clock, clock=clock)
    display = backend.display if backend.display is not None else NullDisplay()
    links = []
    if config.tournament is not None and link_for is not None:
        link = link_for(config.tournament, directory, session)
        links.append(link)
        display = Faces(display, link.face)
    reflex = Reflex(parts.reflex) if parts.reflex is not None else None
    pins = PinSource(config.pinmap, backend.pin_factory, clock,
                     names=parts.pin_inputs(config.pinmap.inputs), reflex=reflex)
    outputs = Outputs(config.pinmap, backend.pin_factory,
                      names=parts.outputs(config.pinmap.outputs), reflex=reflex)
    return Host(played, players, config=config, pins=pins, outputs=outputs, clock=clock,
                session=session, sources=sources, display=display, level=level,
                first_thief=first_thief, key_help=key_help, resume=resume, patterns=patterns,
                trace=trace, edge_delay_s=backend.edge_delay_s, sync_hook=sync_hook,
                phones=phones, links=links)


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
    return Host(played, players, settings=settings(played, config), clock=clock,
                session=RecordingSession(directory, clock=clock), display=display,
                seed=seed, key_help=key_help, phones=phones, button=button,
                detect=config.detect, language=config.table.language)


def real_backend(config, display=None):
    """The Raspberry Pi: gpiozero's pin factory (lgpio), the VL53L0X, the relic hub, on the rig's
    monotonic clock (:func:`rig.table.backend.pi_backend`)."""
    from .clock import MonotonicClock
    return pi_backend(config, MonotonicClock(), display)
