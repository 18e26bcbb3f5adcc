"""Sample Canine Kleptomaniacs screens, each played by real commands on the real rules core,
and headless screenshots of them.

Every sample is a game built from the bundled example card table (its numbers placeholders, so
the screen shows the PLACEHOLDER mark) and stepped to the moment shown; what is drawn is its
:func:`~rig.games.canine.rules.views.public_view`.  The tests and the README's screenshots use
the same samples.
"""

from importlib import resources

from ...core.errors import DisplayError
from . import rules as ck
from .rules import HidingPlace, Holdings

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")
EXAMPLE = "data/example_cards.toml"


def example_table():
    """The card table shipped in the package (placeholder numbers)."""
    text = resources.files("rig.games.canine.rules").joinpath(EXAMPLE).read_text("utf-8")
    return ck.parse_card_table(text)


def play(commands, seed, players=PLAYERS, **settings):
    """A new game of the example table stepped through ``commands``."""
    game = ck.new_game(players, example_table(), seed=seed, **settings)
    for command in commands:
        game, _ = ck.step(game, command)
    return game


def _rolls(n):
    return [ck.Roll(10.0 + i) for i in range(n)]


def _doggies():
    # The example table's card names (keys of the table; the screen says card_name of each).
    return [ck.ChooseDoggy(0.0, "Ana", "Doggy A"),  # not words: card names
            ck.ChooseDoggy(0.0, "Bruno", "Doggy B", True),  # not words: card names
            ck.ChooseDoggy(0.0, "Carla", "Doggy C"),  # not words: card names
            ck.ChooseDoggy(0.0, "Diego", "Doggy D")]  # not words: card names


def _draws(n):
    return [ck.DrawAction(1.0 + i) for i in range(n)]


_SOCKS, _BASKET = "Basic Socks", "Laundry Basket"  # not words: card names
_BLOOMERS = "Granny's Bloomers"  # not words: card names
_ENTRIES = {
    "Ana": Holdings((HidingPlace(("Slipper",) * 3),
                     HidingPlace((_SOCKS, _SOCKS, _BASKET), ultimate=True)),
                    ("Wacky Earplugs",), paw=True),  # not words: card names
    "Bruno": Holdings((HidingPlace(("Bone", "Bone", "Bone")), HidingPlace(("Gnashers",) * 2)),
                      poo_pizza=True),
    "Carla": Holdings((HidingPlace((_BLOOMERS + " x3", _BLOOMERS)),
                       HidingPlace(("Slipper", "Slipper")))),
    "Diego": Holdings((HidingPlace(("Grotty Balls",) * 4), HidingPlace(()),  # not words: names
                       HidingPlace(("Tea Towel",) * 5))),  # not words: card names
}


def _reveal(*players):
    return [ck.Reveal(90.0, p, _ENTRIES[p]) for p in players]


def _build():
    ended = _doggies() + _draws(3) + [ck.DeckEmpty(60.0, None, "action")]
    return {
        "start": play(_doggies()[:2] + _draws(2), seed=1),
        "squirrel": play(_doggies() + _draws(4) + [ck.PlayCard(5.0, "Ana", "squirrel")]
                         + _rolls(3), seed=4),
        "key": play(_doggies() + _draws(9) + [ck.PlayCard(5.0, "Bruno", "key", parity="odd",
                                                          discards=2)] + _rolls(2), seed=2),
        "charm": play(_doggies() + _draws(12) + [ck.PlayCard(5.0, "Carla", "charm",
                                                             thief="Diego")] + _rolls(3), seed=4),
        "badger": play(_doggies() + _draws(20) + [ck.PlayCard(5.0, "Diego", "badger")]
                       + _rolls(1), seed=6),
        "longer": play(_doggies() + _draws(3) + [ck.DeckEmpty(30.0, None, "action")]
                       + _draws(5), seed=1, longer_game=True),
        "scoring": play(ended + _reveal("Ana", "Carla"), seed=1),
        "final": play(ended + _reveal(*PLAYERS), seed=1),
        "final-optional": play(ended + _reveal(*PLAYERS), seed=1, optional_rule="that-kind"),
    }


_GAMES = None


def sample_game(state_name):
    """The sample game for ``state_name`` (one of :data:`STATES`)."""
    global _GAMES
    if _GAMES is None:
        _GAMES = _build()
    try:
        return _GAMES[state_name]
    except (KeyError, TypeError):
        raise DisplayError("%r is not a Canine Kleptomaniacs sample screen; use one of %s"
                           % (state_name, ", ".join(STATES))) from None


STATES = ("start", "squirrel", "key", "charm", "badger", "longer", "scoring", "final",
          "final-optional")


def screenshot(state_name, out_path, size=(800, 480)):
    """Render sample ``state_name``'s public view into the PNG ``out_path``, headless."""
    from ...draw.kit import save_png
    return save_png(*shot("canine-%s" % state_name), out_path, size)


#: The face's one way in (README "Adding a game"): the states ``cleptomano screenshot`` knows
#: of this game (``canine-NAME`` for each of :data:`STATES`), and :func:`shot` for each.
SHOTS = tuple("canine-" + name for name in STATES) + ("canine-final-strip",)


def shot(name):
    """``(draw, thing)`` for the sample ``name`` of :data:`SHOTS`: ``draw(surface, thing)``,
    played on demand."""
    from ...core.msg import Msg
    from ...draw.strip import with_strip
    from .screen import draw
    state = name[len("canine-"):]
    if state.endswith("-strip"):       # a refusal in the host's strip, below the final table
        refused = Msg("canine.refuse.charm_self", player="Bruno")
        return with_strip(draw, refused), ck.public_view(sample_game(state[:-len("-strip")]))
    return draw, ck.public_view(sample_game(state))
