"""The wiring check's shell side: which inputs this rig reads, where each is wired, and the walk
through them on the rig's own sources (``cleptomano check-wiring``).

The check reads the inputs exactly as the rig does: the pins through
:class:`~rig.table.sources.PinSource`, the hand sensor through
:class:`~rig.table.sources.HandSource` (its poller), the relics through the relic source (the
hub's serial link, or the simulator's feed), all onto one :class:`~rig.shell.inbox.Inbox`.  The
judging is the game's (:meth:`rig.core.contract.Game.new_wiring_check`: Cleptómano's
``WiringCheck``), shared with the check on the screen.
"""

from ..words import english
from ..games import games, table_parts
from ..table.parts import Part
from .inbox import FaultReport, Inbox, Reading
from ..table.sources import HandSource, PinSource
from .intake import Intake

TIMEOUT_S = 30.0


def new_check(config, hand, relics, timeout_s=TIMEOUT_S, game=None):
    """The wiring check of every pin in the pin map, the hand sensor if ``hand``, and the
    three relics if ``relics``: ``game``'s (None: the registry's first, the museum's)."""
    game = game if game is not None else games()[0]
    return game.new_wiring_check(config, hand, relics, timeout_s)


def new_check_for(config, sources, timeout_s=TIMEOUT_S, game=None):
    """The check of the rig with these sources (besides the pins), driven by the table parts
    ``game`` declares (:func:`rig.games.table_parts`): the hand sensor when it declares it and
    one source is a :class:`HandSource`, the relics when it declares the hub and another source
    is there (its pins are the ones its parts use: the game's check reads them so)."""
    game = game if game is not None else games()[0]
    parts = table_parts(game)
    hand = Part.HAND in parts and any(isinstance(s, HandSource) for s in sources)
    relics = Part.HUB in parts and any(not isinstance(s, HandSource) for s in sources)
    return new_check(config, hand, relics, timeout_s, game)


def input_sources(config, backend):
    """The sources besides the pins that ``backend`` gives the rig: the hand sensor's poller
    and the relic source, each when there is one."""
    sources = []
    if backend.tof_factory is not None:
        sources.append(HandSource(backend.tof_factory, config.tof,
                                  config.detect.hand_threshold_mm, backend.clock))
    if backend.relics is not None:
        sources.append(backend.relics)
    return sources


def run_check(config, backend, out, timeout_s=TIMEOUT_S, stop=None, builder=None):
    """Walk through every input on ``backend``'s devices; ``out(line)`` shows progress (verdicts
    indented by two spaces).  ``builder`` (the simulator's) is told when the devices are open
    (``start()``) and each step asked (``ask(step)``).  Returns the :class:`WiringCheck`."""
    import threading
    stop = stop or threading.Event()
    clock = backend.clock
    inbox = Inbox(clock)
    intake = Intake(inbox, clock)
    pins = PinSource(config.pinmap, backend.pin_factory, clock)
    sources = input_sources(config, backend)
    check = new_check_for(config, sources, timeout_s)
    started = []
    try:
        for source in [pins] + sources:
            source.start(intake)
            started.append(source)
        if builder is not None:
            builder.start()
        for line in check.begin(clock.now(), pins.values()):
            out(english(line))
        asked = None
        faulty = set()          # sources whose fault was shown (a clearing means news)
        while not stop.is_set() and not check.done:
            if check.expected != asked:
                asked = check.expected
                out(english(check.prompt()))
                if builder is not None:
                    builder.ask(asked)
            lines = []
            for item in inbox.take(check.deadline, stop):
                if type(item) is Reading:
                    lines += check.feed(item.t_abs, item.name, item.value)
                elif type(item) is FaultReport and (item.active or item.source in faulty):
                    (faulty.add if item.active else faulty.discard)(item.source)
                    lines.append(("Fault: " if item.active else "Cleared: ")
                                 + english(item.message))
            lines += check.expire(clock.now())
            for line in lines:
                out("  " + english(line))
    finally:
        for source in reversed(started):
            source.stop(timeout_s=1.0)
    for line in check.summary():
        out(english(line))
    return check
