"""The coin heist: the sixth game, in the test suite only (README "Adding a game"); registered
from the tests with ``rig.games.register("coin_heist")``."""

from .game import GAME  # noqa: F401
