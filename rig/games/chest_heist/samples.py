"""Sample screens of the chest heist, made by playing its real rules core, so every sample is a
state the game can reach: with the example sheet and without a sheet.

``cleptomano screenshot chests-roll OUT.png`` renders one headless (see
:func:`rig.display.samples.screenshot`); the tests render them all and the README shows some.
:data:`SAMPLES` maps a state name to ``(draw function, view)``.
"""

from ...core.msg import Msg
from ...draw.strip import with_strip
from . import rules as ch
from . import screen as chest_screen
from .rules.example import EXAMPLE_SHEET
from .rules.sheet import sheet_from_json

# Seed 2024 rolls, turn by turn: 2 4 3 6 1 | 3 2 2 5 6 | 5 6 4 1 5 | 2 4 6 4 3 | 3 5 2 4 5 |
# 4 5 5 5 5 | 2 1 4 3 1 | 6 5 5 1 4 | ...  What the player did with them, on the example sheet:
# (box, dice) to tick a box, (skimmer, dice) to charge one.
_SEED = 2024
_SHEET_TURNS = (
    (("r1c1", (3,)), ("r1c2", (1,)), ("r1c6", (5,)), ("r2c4", (2,)), ("r4c1", (4,))),
    (("r1c5", (4, 5)), ("r2c1", (1,)), ("r2c6", (2,)), ("r5c1", (3,))),
    (("r2c2", (1,)), ("r2c5", (2, 4)), ("r3c3", (3, 5))),
    (("r3c1", (1, 3)), ("r3c2", (2, 4)), ("r3c5", (5,))),
    (("r3c4", (2, 4)), ("r4c6", (1, 3)), ("r5c2", (5,))),
    (("r3c6", (1,)), ("r4c2", (2, 3)), ("r5c4", (4, 5))),
    (("r4c4", (1, 3)), ("r5c5", (4,)), ("r6c4", (2,))),
    (("r5c3", (1, 4)), ("r5c6", (5,)), (2, (2,))),
)


def _play(game, turns, t=0.0, end=True):
    """Each turn: roll, its moves, and the end of the turn (but for the last if not ``end``)."""
    for number, moves in enumerate(turns, 1):
        t += 1
        game, _ = ch.step(game, ch.Roll(t))
        for target, dice in moves:
            t += 1
            move = (ch.Charge(t, None, target, dice) if isinstance(target, int)
                    else ch.Mark(t, None, target, dice))
            game, _ = ch.step(game, move)
        if end or number < len(turns):
            t += 1
            game, _ = ch.step(game, ch.EndTurn(t))
    return game, t


def _chests():
    """The chest heist stopped at its screens, with the example sheet and without a sheet."""
    out = {}
    game, t = _play(ch.new_game(_SEED, "Ana", sheet_from_json(EXAMPLE_SHEET)), _SHEET_TURNS,
                    end=False)
    out["chests-sheet"] = ch.public_view(game)
    game, _ = ch.step(game, ch.EndTurn(t + 1))
    out["chests-roll"] = ch.public_view(game)
    game, t = _play(ch.new_game(_SEED, "Ana"), ((("3", (3,)), (1, (4, 2)), ("P", (1,))),))
    game, _ = ch.step(game, ch.Roll(t + 1))
    game, _ = ch.step(game, ch.Reroll(t + 2, None, (2, 3)))
    game, _ = ch.step(game, ch.Mark(t + 3, None, "4", (5,), (1,)))
    game, _ = ch.step(game, ch.Charge(t + 4, None, 2, (1,)))
    out["chests-nosheet"] = ch.public_view(game)
    game, _ = ch.step(game, ch.EndTurn(t + 5))
    game, t = _play(game, [()] * 10, t + 5)
    out["chests-count"] = ch.public_view(game)
    game, _ = ch.step(game, ch.CountDiamonds(t + 1, None, 20))
    out["chests-over"] = ch.public_view(game)
    samples = {name: (chest_screen.draw, view) for name, view in out.items()}
    # A refusal in the host's strip: its own band, under the chests I to L, never over them.
    refused = Msg("chest_heist.refuse.die_ticked", die=2, value=6, box="4")
    samples["chests-nosheet-strip"] = (with_strip(chest_screen.draw, refused),
                                       out["chests-nosheet"])
    return samples


SAMPLES = _chests()
STATES = tuple(SAMPLES)

#: The face's one way in (README "Adding a game"): the states ``cleptomano screenshot`` knows
#: of this game, and :func:`shot` for each.
SHOTS = STATES


def shot(name):
    """``(draw, thing)`` for the sample ``name`` of :data:`SHOTS`: ``draw(surface, thing)``."""
    return SAMPLES[name]
