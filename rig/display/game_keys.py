"""Which key mode each companion game uses at the rig (:func:`mode_for`), its keys' help and its
main action (what Space and the museum's start button give).  Each game's mode lives in its
folder (``rig/games/<game>/keys.py``), built on :class:`rig.display.keymodes.Mode`.  Pure.
"""

from typing import Optional

from ..games.canine.keys import CanineKeys
from ..games.chest_heist.keys import ChestHeistKeys
from ..games.stolen_paintings.keys import StolenPaintingsKeys
from ..games.stop_thief.keys import StopThiefKeys
from .keymodes import Mode

MODES = {"stop-thief": StopThiefKeys, "stolen-paintings": StolenPaintingsKeys,
         "chest-heist": ChestHeistKeys, "canine": CanineKeys}


def mode_for(game: str) -> Optional[Mode]:
    """A fresh key mode for the game named ``game`` (None for a name no mode knows)."""
    cls = MODES.get(game)
    if cls is None:
        return None
    mode = cls()
    mode.game = game
    return mode


def key_help(game: str):
    """The game's keys as short ``"KEYS: action"`` strings (the screen's help, the README)."""
    cls = MODES.get(game)
    return cls.HELP if cls is not None else ()


def primary(game: str):
    """The command Space gives in the game named ``game`` (its main action: get a clue, start
    the exhibition, roll): what a press of the museum's start button gives too.  None for a
    name no mode knows."""
    mode = mode_for(game)
    if mode is None:
        return None
    command, _ = mode.begin(mode.KEYS["space"])
    return command
