"""The simulator as a backend of ``cleptomano run`` and ``cleptomano check-wiring``.

Registered under the ``cleptomano.backends`` entry point (see pyproject.toml), so the ``rig``
package finds it without importing ``sim`` by name.
"""

import json
import os
import queue
import shutil
import sys
import threading

from rig.games.cleptomano.rules.recording import item_to_json
from rig.shell.storage import read

from .pins import Museum, VirtualFactory
from .script import demo_match
from .table import real_time_table


def _load_objects(path):
    """The recording's lines as objects, read once and validated before anything starts."""
    header, items = read(path)
    return [header.to_json()] + [item_to_json(item) for _, item in items]


def run(config, *, display, recordings, stop, demo=None, serve, key_help=(),
        interactive=False, screen=None, phones=None):
    """Run the rig on a simulated table in real time.  Without a display (or with ``demo``),
    the table plays a recording -- the bundled demo match by default -- and the referee's calls
    are logged as they happen.  With a display (or ``interactive``) the terminal's keyboard
    plays the museum box (see :mod:`sim.keyboard`).  ``phones`` is the phones' pairing, for the
    screen (the web face is among the display's faces)."""
    objects = None
    if screen is None:
        screen = display is not None
    if demo is not None:
        objects = _load_objects(demo)
    elif not screen and not interactive:
        objects = demo_match().objects()
    players = objects[0]["players"] if objects else None
    if players is not None and tuple(players) != tuple(config.match.players):
        print("The recording plays its own players (%s), not the config's (%s); set up "
              "another match on the rig's set-up screen." % (", ".join(players),
                                                             ", ".join(config.match.players)),
              file=sys.stderr)
    hub = _virtual_hub(config)
    window = None
    if display is not None and objects is None:     # the window plays the museum too
        from .keyboard import WindowMuseum
        display = window = WindowMuseum(display)
    table = real_time_table(config, display=display, recordings_dir=recordings,
                            key_help=key_help, players=players,
                            hub_url=hub.path if hub is not None else None, hub=hub,
                            phones=phones)
    player = None
    result = None
    if window is not None:
        from .keyboard import KeyboardMuseum
        window.museum = KeyboardMuseum(table)
    try:
        table.start()
        if objects is not None:
            print("Playing %s in real time; the referee's calls follow."
                  % (demo or "the bundled demo match"), file=sys.stderr)
            player = threading.Thread(target=table.play, args=(objects, stop),
                                      name="sim-demo", daemon=True)
            player.start()
        elif sys.stdin.isatty():
            from .keyboard import KeyboardMuseum, run_terminal
            player = threading.Thread(target=run_terminal, args=(KeyboardMuseum(table), stop),
                                      name="sim-keyboard", daemon=True)
            player.start()
        serve(table.rig, (lambda: player.is_alive()) if player is not None else None)
        result = table.rig.result()
    finally:
        stop.set()
        if player is not None:
            player.join(2.0)
        table.stop()
        if hub is not None:
            hub.close()
            shutil.rmtree(os.path.dirname(hub.path), ignore_errors=True)
        if display is not None:
            display.stop()
    if result is not None and (objects is not None or interactive):
        print("Result: %s" % json.dumps({"round_wins": result["round_wins"],
                                         "winner": result["winner"]}), file=sys.stderr)
    print("Recording: %s" % table.rig.recording_path, file=sys.stderr)
    return 0


def _virtual_hub(config):
    """Start the virtual relic hub on a pseudo-terminal, for the rig to open by path as it
    opens /dev/cleptomano-hub.  None when relic sensing is disabled."""
    if not config.hub.url:
        return None
    import tempfile
    from .relichub import VirtualRelicHub
    hub = VirtualRelicHub(tempfile.mkdtemp(prefix="cleptomano-hub-"))
    hub.start()
    return hub


def wiring_demo(config, stop):
    """The simulated museum for ``cleptomano check-wiring --sim``: a backend (mock pins, a fake
    VL53L0X, the virtual relic hub on a pty when relics are sensed) and a virtual builder who
    does what each step asks, as a person at the table would."""
    from rig.shell.build import Backend
    from rig.shell.clock import MonotonicClock
    from rig.table.sources import HubSource
    from .fake_tof import FakeVL53L0X
    factory = VirtualFactory()
    tof = FakeVL53L0X()
    hub = _virtual_hub(config)
    clock = MonotonicClock()
    relics = HubSource(hub.path, config.hub, clock) if hub is not None else None
    builder = DemoBuilder(Museum(factory, config.pinmap), tof, hub, stop)
    return Backend(factory, clock, tof.factory, relics), builder


class DemoBuilder:
    """Answers each step of the wiring check on the simulated museum, a moment after it is
    asked: a contact touched, a rod lifted, a hand over the door, a relic laid down and stood
    up again.  A miswired museum for the tests: ``wiring`` maps a pin input to the one its wire
    really reaches (a swap), and inputs in ``silent`` never answer (a dead module)."""

    PAUSE_S = 0.05

    def __init__(self, museum, tof, hub, stop, wiring=None, silent=()):
        self.museum, self.tof, self.hub, self.stop = museum, tof, hub, stop
        self.wiring, self.silent = wiring or {}, frozenset(silent)
        self.steps = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="sim-builder", daemon=True)

    def start(self):
        """The check has opened the pins: the museum is set up (rods seated, paintings on
        their stands), as a real one stands before anyone touches it."""
        self.museum.rest()
        self.thread.start()

    def ask(self, step):
        self.steps.put(step)

    def _run(self):
        from rig.table.names import NOTHING_IN_RANGE_MM, rest_value
        from rig.table.wiringcheck import HAND, family
        while not self.stop.is_set():
            try:
                step = self.steps.get(timeout=0.1)
            except queue.Empty:
                continue
            if self.stop.wait(self.PAUSE_S):
                return
            if step in self.silent:
                continue
            if step == HAND:
                self.tof.range = 150
                self.stop.wait(0.1)
                self.tof.range = NOTHING_IN_RANGE_MM
            elif family(step) == "relic":
                number = int(step.split(".")[1])
                self.hub.knock_over(number)
                self.stop.wait(0.6)
                self.hub.set_down(number)
            else:
                wire = self.wiring.get(step, step)
                self.museum.set(wire, 1 - rest_value(wire))
                self.stop.wait(self.PAUSE_S)
                self.museum.set(wire, rest_value(wire))

    def close(self):
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join(2.0)
        if self.hub is not None:
            self.hub.close()
            shutil.rmtree(os.path.dirname(self.hub.path), ignore_errors=True)
