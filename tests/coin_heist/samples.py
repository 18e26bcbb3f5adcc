"""Sample screens of the coin heist, made by playing its rules, so every sample is a state the
game can reach.  ``SHOTS`` (the names ``cleptomano screenshot`` knows) and ``shot(name)`` ->
``(draw, view)`` are what the faces read (README "Adding a game")."""

from . import rules as coin
from . import screen

_SEED = 7


def _views():
    game = coin.new_game(("Ana", "Ben"), _SEED)
    out = {"coin-heist-start": coin.public_view(game)}
    t = 0.0
    while game.winner is None:
        t += 1.0
        game, _ = coin.step(game, coin.Call(t, None, "heads"))
        if len(game.flips) == 2:
            out["coin-heist-play"] = coin.public_view(game)
    out["coin-heist-won"] = coin.public_view(game)
    return out


VIEWS = _views()
SHOTS = tuple(VIEWS)


def shot(name):
    """``(draw, view)`` for the sample ``name`` of :data:`SHOTS`."""
    return screen.draw, VIEWS[name]
