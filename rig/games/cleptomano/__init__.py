"""Cleptómano: the rig's first game (see rig.games); its rules are the rest of rig.core."""

from .game import GAME  # noqa: F401
