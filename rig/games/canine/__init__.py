"""Canine Kleptomaniacs: one game of the rig (see rig.games); its rules are ``rules/``."""

from .game import GAME  # noqa: F401
