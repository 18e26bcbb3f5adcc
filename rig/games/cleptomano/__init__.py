"""Cleptómano: the rig's first game (see rig.games); its own pure rules are in rules/, the rest of
them (those the other games share) still in rig.core."""

from .game import GAME  # noqa: F401
