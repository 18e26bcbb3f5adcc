"""The rig's daemon as it was first built: :func:`Rig`, the constructor of the table's game's
host, kept for the simulator, the tests and the tools that name it.

There is one host class, :class:`rig.shell.host.Host`, for every game; what Cleptómano needs of
it (the pins and their edge-delay hold, the hand sensor and relic hub, resume, the wiring check,
the tournament links, faults) follows from what Cleptómano declares (its ``table_inputs``, its
table parts in ``parts.py``, its wiring check), not from its name.  Threads such a host owns,
each with the shared stop event and a bounded join:

* the **referee** thread (the host's loop): takes timestamped items off the inbox, records each
  one (flushed) before acting on it, steps the game with it (``GAME.step``; Cleptómano's state
  is the referee, match and detector), fires deadlines on time as the game's ticks, and performs
  the shared effects the game turns its effects into (:mod:`rig.core.effects`: buzzer, lamps,
  banners, log...), arming the table's reflex after each step;
* the **sync** thread (:class:`~rig.shell.session.RecordingSession`): fsyncs the recording
  whenever the referee marks a moment durable (a turn boundary, a penalty);
* the sources (:mod:`rig.table.sources`): the pins' callbacks (gpiozero's threads), the
  hand-sensor poller and the relic-hub reader, which only stamp and put items on the inbox.

It is built by :func:`rig.shell.build.build_rig` from the config and a backend (the real pins
and devices, or the simulator's): one wiring for both.
"""

from ..games import games
from .host import (DEVICES, FORESEE_S, IDLE_DISPLAY_PERIOD_S,  # noqa: F401 (their old home)
                   TABLE_DISPLAY_PERIOD_S as DISPLAY_PERIOD_S, Host, Stats)

MESSAGE_S = 5.0


def Rig(config, *, pins, outputs, clock, session, sources=(), display=None, players=None,
        level=None, first_thief=None, key_help=(), resume=True, patterns=None, trace=None,
        edge_delay_s=0.0, sync_hook=None, phones=None, links=(), game=None):
    """The :class:`~rig.shell.host.Host` of ``game`` (None: the registry's first, Cleptómano)
    at the table of ``config``, with its table parts given (``pins``, ``outputs``, ``sources``)
    and the rest as :class:`~rig.shell.host.Host` takes them."""
    return Host(game if game is not None else games()[0], players, clock=clock,
                session=session, config=config, display=display, phones=phones,
                key_help=key_help, trace=trace, resume=resume, pins=pins, outputs=outputs,
                sources=sources, links=links, patterns=patterns, edge_delay_s=edge_delay_s,
                sync_hook=sync_hook, level=level, first_thief=first_thief)
