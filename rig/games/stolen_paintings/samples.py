"""Sample screens of Stolen Paintings, made by playing its real rules core, so every sample is
a state the game can reach.

``cleptomano screenshot paintings-exhibition OUT.png`` renders one headless (see
:func:`rig.display.samples.screenshot`); the tests render them all and the README shows some.
:data:`SAMPLES` maps a state name to ``(draw function, view)``.
"""

from ...core.msg import Msg
from ...draw.strip import with_strip
from . import rules as sp
from . import screen as paintings_screen

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")


def _paintings():
    """One game of Stolen Paintings, stopped at each of its screens."""
    out = {}
    game = sp.new_game(PLAYERS, exhibition_s=60)
    out["paintings-setup"] = sp.public_view(game)
    game, _ = sp.step(game, sp.Start(5.0, "Ana"))
    out["paintings-exhibition"] = sp.public_view(game, now_t=23.6)
    out["paintings-last10"] = sp.public_view(game, now_t=57.8)
    game, _ = sp.step(game, sp.Tick(65.0))
    out["paintings-swap"] = sp.public_view(game)
    game, _ = sp.step(game, sp.Steal(80.0, "Ana", (3, 6, 8)))
    game, _ = sp.step(game, sp.Mark(90.0, "Carla", (3, 5)))
    out["paintings-auction"] = sp.public_view(game)
    for t, who, marks in ((95.0, "Bruno", (3, 1)), (99.0, "Diego", (5,))):
        game, _ = sp.step(game, sp.Mark(t, who, marks))
    out["paintings-reveal"] = sp.public_view(game)
    # Ana and Carla tie on 10 points; Ana kept 2 paintings as thief, Carla 1: Ana wins.
    rounds = (("Bruno", (2,), {"Ana": (2,), "Carla": (2,), "Diego": (4,)}),
              ("Carla", (1, 4, 8), {"Ana": (2,), "Bruno": (8,), "Diego": (4, 6)}),
              ("Diego", (7,), {"Ana": (7,), "Bruno": (6,), "Carla": (7, 8)}))
    t = 100.0
    for thief, stolen, marks in rounds:
        game, _ = sp.step(game, sp.Start(t, thief))
        game, _ = sp.step(game, sp.Steal(t + 70, thief, stolen))
        for who, m in marks.items():
            game, _ = sp.step(game, sp.Mark(t + 80, who, m))
        t += 100
    out["paintings-over"] = sp.public_view(game)
    samples = {name: (paintings_screen.draw, view) for name, view in out.items()}
    # A refusal in the host's strip: its own band, under the points row and the last line of
    # the final table, never over them.
    refused = Msg("stolen_paintings.refuse.mark_table", thief="Bruno")
    for name in ("paintings-reveal", "paintings-over"):
        samples[name + "-strip"] = (with_strip(paintings_screen.draw, refused), out[name])
    return samples


SAMPLES = _paintings()
STATES = tuple(SAMPLES)

#: The face's one way in (README "Adding a game"): the states ``cleptomano screenshot`` knows
#: of this game, and :func:`shot` for each.
SHOTS = STATES


def shot(name):
    """``(draw, thing)`` for the sample ``name`` of :data:`SHOTS`: ``draw(surface, thing)``."""
    return SAMPLES[name]
