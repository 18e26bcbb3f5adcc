"""Which key mode each game uses at the rig (:func:`mode_for`), its keys' help and its main
action (what Space gives, and the museum's start button in a game of the game host).  Each
game's mode lives in its folder (``rig/games/<game>/keys.py``, its ``MODE``, built on
:class:`rig.draw.keymodes.Mode`) and is found through the registry
(:mod:`rig.display.parts`).  Pure.
"""

from typing import Optional

from ..draw.keymodes import Mode
from .game_screens import draw
from .parts import face_part

# Every key mode shows a game's snapshot as the faces draw it (a mode of the kit below the
# games cannot name the faces' drawing itself).
Mode.draw_game = staticmethod(draw)


def _mode_class(game):
    keys = face_part(game, "keys")
    return getattr(keys, "MODE", None)


def mode_for(game: str, bindings=None, keypad=True) -> Optional[Mode]:
    """A fresh key mode for the game named ``game`` (None for a game without keys), made with
    the display's key options (``bindings``, the rig's ``[keys]``; ``keypad``)."""
    cls = _mode_class(game)
    if cls is None:
        return None
    mode = cls(bindings, keypad)
    mode.game = game
    return mode


def key_help(game: str):
    """The game's keys as short ``"KEYS: action"`` strings (the screen's help, the README)."""
    cls = _mode_class(game)
    return cls.HELP if cls is not None else ()


def primary(game: str):
    """The command Space gives in the game named ``game`` (its main action: get a clue, start
    the exhibition, roll): what a press of the museum's start button gives too.  None for a
    game without keys."""
    mode = mode_for(game)
    if mode is None or "space" not in getattr(mode, "KEYS", {}):
        return None
    command, _ = mode.begin(mode.KEYS["space"])
    return command
