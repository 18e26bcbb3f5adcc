"""Sample Stop Thief! screens, played for real on the sample town, and headless PNGs of them.

Each sample is a seeded game on Port Pilfer taken through a short script of table commands by
the real rules (:mod:`rig.games.stop_thief.rules.rules`), so the screens show states a game
really reaches.  ``scanner_screenshot(NAME, OUT.png, size)`` renders one; ``board_png`` draws
the town alone, big, with its legend, for printing it to play on.
"""

from functools import lru_cache

from ...core.errors import DisplayError
from ...core.msg import Msg
from ...draw.strip import with_strip
from ...draw.kit import save_png
from .rules import events as ev
from .rules.rules import new_game, step
from .rules.views import public_view

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")

#: name -> (seed, script).  Script words: clue, end, replay, wrong (an arrest next to the
#: thief), catch (an arrest on it); a script stops when the game is won.
SCRIPTS = {
    "start": (3, ()),
    "clues": (3, ("clue", "end", "clue", "wrong", "clue", "end", "clue", "end", "clue")),
    "arrest": (3, ("clue", "end", "clue", "wrong", "clue", "end", "clue", "end", "clue", "end",
                   "clue", "catch")),
    "winner": (3, (("clue", "catch") + ("clue", "end") * 3) * 4),
}
STATES = tuple(SCRIPTS)


def _command(game, word, t):
    if word == "clue":
        return ev.GetClue(t)
    if word == "end":
        return ev.EndTurn(t)
    if word == "replay":
        return ev.ReplayClue(t)
    here = game.case.thief.space
    if word == "catch":
        return ev.Arrest(t, here)
    return ev.Arrest(t, game.board.next_to[here][0])


@lru_cache(maxsize=None)
def sample_game(name):
    """The game of the sample ``name`` (one of :data:`STATES`) on the sample town."""
    from .resources import sample_town
    if name not in SCRIPTS:
        raise DisplayError("%r is not a Stop Thief! sample screen; use one of %s"
                           % (name, ", ".join(STATES)))
    seed, script = SCRIPTS[name]
    game = new_game(sample_town(), PLAYERS, seed)
    for i, word in enumerate(script):
        if game.over:
            break
        game, _ = step(game, _command(game, word, 10.0 * (i + 1)))
    return game


def sample_view(name):
    return public_view(sample_game(name))


def scanner_screenshot(name, out_path, size=(800, 480)):
    """Render the sample screen ``name`` at ``size`` into the PNG ``out_path``."""
    return save_png(*shot("stop-thief-%s" % name), out_path, size)


def board_png(board, out_path, size=(1800, 1200)):
    """The board alone on a light page, with its name and the clue legend: print it to play
    on."""
    return save_png(_draw_board_page, board, out_path, size)


def _draw_board_page(surface, board):
    from ...draw.kit import DARK, put_text
    from .townmap import PAPER, draw_legend, draw_town
    w, h = surface.get_size()
    surface.fill(PAPER)
    put_text(surface, Msg("stop_thief.map.page_title", board=board.name),
             (int(w * 0.02), int(h * 0.01), int(w * 0.96), int(h * 0.06)), DARK)
    draw_town(surface, board, (int(w * 0.01), int(h * 0.07), int(w * 0.98), int(h * 0.8)),
              paper=True, font_scale=1.4)
    draw_legend(surface, (int(w * 0.03), int(h * 0.88), int(w * 0.94), int(h * 0.11)), DARK)


#: The face's one way in (README "Adding a game"): the states ``cleptomano screenshot`` knows
#: of this game (``stop-thief-NAME`` for each of :data:`STATES`), and :func:`shot` for each.
SHOTS = tuple("stop-thief-" + name for name in STATES) + ("stop-thief-clues-strip",)
#: A refusal in the host's strip, in its own band below the map.
STRIP = Msg("stop_thief.refuse.end_before_clue", player="Bruno")


def shot(name):
    """``(draw, thing)`` for the sample ``name`` of :data:`SHOTS`: ``draw(surface, thing)``,
    played on demand."""
    from .screen import draw
    state = name[len("stop-thief-"):]
    drawn = (lambda surface, g: draw(surface, public_view(g), g.board))
    if state.endswith("-strip"):
        return with_strip(drawn, STRIP), sample_game(state[:-len("-strip")])
    return drawn, sample_game(state)
