"""The rig's screen, which loads the games: the window, the face, the sounds and voice the rig
itself plays, the sample screenshots.  It sits above the games and the shell (it finds each
game's screen, keys, sounds and samples through the registry); what the games draw with is the
drawing kit below them, :mod:`rig.draw`.

* :mod:`rig.display.window` -- the window shell (:class:`DisplayProcess`, :class:`DisplayThread`)
  that shows the latest snapshot without ever blocking the referee;
* :mod:`rig.display.face` -- the render loop's logic: every snapshot says its game, whose keys
  and screen are found through the registry by :mod:`rig.display.parts` (one interface per
  part, the same for every game: README "Adding a game");
* :mod:`rig.display.game_keys` -- which key mode each game uses; :mod:`rig.display.game_screens`
  -- a game's snapshot: its screen with the host's message strip and the phones;
* :mod:`rig.display.sounds` -- sounds synthesised at start-up (no audio files);
  :mod:`rig.display.voice` -- the spoken calls;
* :mod:`rig.display.samples` -- headless screenshots of every game's sample screens.

Each game's own screen, keys, sounds and sample screens live in its folder
(``rig/games/<game>/screen.py``, ``keys.py``, ``sounds.py``, ``samples.py``; Cleptómano's
scoreboard, guard's keys, set-up screen and wiring check in ``rig/games/cleptomano/``).

Importing this package does not import pygame: each module imports it where it draws or plays,
so the referee's core and the CLI start fast on a Pi without a screen.
"""

import os

# pygame prints a greeting on import; the rig's CLI output and logs stay clean without it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

_LAZY = {
    "DisplayProcess": "window", "DisplayThread": "window",
    "SoundBank": "sounds", "synthesize": "sounds",
    "screenshot": "samples",
}

__all__ = sorted(_LAZY)


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError("module 'rig.display' has no attribute %r" % name)
    import importlib
    return getattr(importlib.import_module("." + module, __name__), name)
