"""The score display, its sounds and the guard's keys.

* :mod:`rig.display.render` -- pure drawing of a :class:`rig.core.view.Scoreboard` on a pygame Surface;
* :mod:`rig.display.window` -- the window shell (:class:`DisplayProcess`, :class:`DisplayThread`)
  that shows the latest snapshot without ever blocking the referee;
* :mod:`rig.display.sounds` -- sounds synthesised at start-up (no audio files);
* :mod:`rig.display.keys` -- the guard's key sequences turned into rig commands;
* :mod:`rig.display.samples` -- sample screens and headless screenshots;
* :mod:`rig.display.kit` -- the display kit every screen draws with (palette, text, shapes,
  headless screenshots); :mod:`rig.display.synth` -- sound synthesis (tones, mixes, PCM);
* :mod:`rig.display.game_screens` -- another game's screen with the host's message strip; each
  game's own screen, keys, sounds and sample screens live in its folder
  (``rig/games/<game>/screen.py``, ``keys.py``, ``sounds.py``, ``samples.py``), found through
  the registry by :mod:`rig.display.parts` (one interface per part, the same for every game).

Importing this package does not import pygame: each module imports it where it draws or plays,
so the referee's core and the CLI start fast on a Pi without a screen.
"""

import os

# pygame prints a greeting on import; the rig's CLI output and logs stay clean without it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_LAZY = {
    "draw": "render", "regions": "render", "countdown_text": "kit",
    "DisplayProcess": "window", "DisplayThread": "window",
    "KeyMapper": "keys", "key_help": "keys", "DEFAULT_BINDINGS": "keys",
    "SoundBank": "sounds", "synthesize": "sounds",
    "sample_board": "samples", "screenshot": "samples", "STATES": "samples",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'rig.display' has no attribute %r" % name)
    import importlib
    return getattr(importlib.import_module("." + module, __name__), name)
