"""The simulator as a backend of ``cleptomano run`` and ``cleptomano check-wiring``.

Registered under the ``cleptomano.backends`` entry point (see pyproject.toml), so the ``rig``
package finds it without importing ``sim`` by name.
"""

import json
import os
import shutil
import sys
import threading

from rig.core.recording import item_to_json
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
    hub = _virtual_hub(config)
    table = real_time_table(config, display=display, recordings_dir=recordings,
                            key_help=key_help, players=players,
                            hub_url=hub.path if hub is not None else None, hub=hub,
                            phones=phones)
    player = None
    result = None
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


def wiring_demo(pinmap, stop):
    """A simulated pin factory plus a virtual builder who touches every input in turn."""
    from rig.core.museum import rest_value
    from rig.core.wiringcheck import check_order
    factory = VirtualFactory()
    museum = Museum(factory, pinmap)

    def builder():
        if stop.wait(0.3):
            return
        museum.rest()
        for name in check_order(pinmap):
            if stop.wait(0.15):
                return
            museum.set(name, 1 - rest_value(name))
            if stop.wait(0.1):
                return
            museum.set(name, rest_value(name))

    threading.Thread(target=builder, name="sim-builder", daemon=True).start()
    return factory
