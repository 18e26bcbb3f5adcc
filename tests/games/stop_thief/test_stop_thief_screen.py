"""The Stop Thief! scanner screen, rendered for real (pygame, headless) at 800x480 and 1920x1080.

Checked by what the table must see, in pixel regions that survive font differences: the caught
thief's path appears on the map after an arrest and never before, the turn marker, each clue's
icon, the winner; and the screen draws nothing but the public view.
"""

from dataclasses import replace

import pytest

pygame = pytest.importorskip("pygame")

from rig.core.errors import DisplayError
from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.rules import step
from rig.games.stop_thief.rules.thief import Thief
from rig.games.stop_thief.rules.views import public_view
from rig.draw.kit import AMBER, GOLD
from rig.games.stop_thief.icons import ICON_COLOURS
from rig.games.stop_thief.samples import STATES, board_png, sample_game, scanner_screenshot
from rig.games.stop_thief.screen import WIN_BANNER, draw, regions

from sim.frames import area, count

SIZES = ((800, 480), (1920, 1080))


def frame(name, size=(800, 480), view=None):
    game = sample_game(name)
    surface = pygame.Surface(size)
    draw(surface, public_view(game) if view is None else view, game.board)
    return surface


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_the_caught_thiefs_path_is_on_the_map_after_an_arrest_and_never_before(size):
    r = regions(size)["map"]
    for name in ("start", "clues"):
        assert count(frame(name, size), r, GOLD) == 0, name
    assert count(frame("arrest", size), r, GOLD) > area(r) * 0.002
    # ... until the next clue: then the map is clean again.
    game = sample_game("arrest")
    after, _ = step(game, ev.GetClue(500.0))
    surface = pygame.Surface(size)
    draw(surface, public_view(after), after.board)
    assert count(surface, r, GOLD) == 0


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_the_turn_marker_sits_on_the_row_of_the_player_whose_turn_it_is(size):
    view = public_view(sample_game("clues"))
    turn = [p["turn"] for p in view["players"]].index(True)
    x, y, w, h = regions(size)["players"]
    top = y + int(h * 0.18)
    row = (y + h - top) // 4
    surface = frame("clues", size)
    for i in range(4):
        marker = (x, top + i * row, row, row)
        assert (count(surface, marker, AMBER) > area(marker) * 0.05) == (i == turn), i


@pytest.mark.parametrize("size", SIZES, ids=["800x480", "1920x1080"])
def test_each_clue_shows_its_icon(size):
    view = public_view(sample_game("clues"))
    x, y, w, h = regions(size)["clues"]
    top = y + int(h * 0.16)
    row = (y + h - top) // 6
    surface = frame("clues", size)
    for i, clue in enumerate(view["clues"]):
        icon = (x, top + i * row, row, row)
        assert count(surface, icon, ICON_COLOURS[clue["kind"]]) > area(icon) * 0.04, clue


def test_the_winner_is_shown_over_the_map_and_only_at_the_end():
    r = regions((800, 480))["map"]
    assert count(frame("winner"), r, WIN_BANNER) > area(r) * 0.2
    assert count(frame("arrest"), r, WIN_BANNER) == 0


def test_the_screen_draws_the_view_and_nothing_of_the_thief():
    game = sample_game("clues")
    moved = replace(game, case=replace(game.case, thief=Thief(40, 41, (40,) * 6)))
    a, b = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    draw(a, public_view(game), game.board)
    draw(b, public_view(moved), moved.board)
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@pytest.mark.parametrize("view", [{}, None, {"players": "x", "thief": 3, "clues": [1, None]},
                                  {"arrest": {"path": [999, "c1"]}, "winner": 7, "retire": "a"},
                                  {"clues": [{"kind": "riddle", "words": None, "number": []}]}])
def test_a_broken_view_still_draws(view):
    frame("start", view=view)


@pytest.mark.parametrize("name, size", [(name, (800, 480)) for name in STATES]
                         + [("arrest", (1920, 1080))])
def test_every_sample_screen_renders_to_png(name, size, tmp_path):
    out = tmp_path / ("%s-%dx%d.png" % ((name,) + size))
    assert scanner_screenshot(name, out, size) == str(out)
    assert pygame.image.load(str(out)).get_size() == size


def test_the_board_alone_renders_for_printing(tmp_path):
    out = tmp_path / "board.png"
    board_png(sample_game("start").board, out, (1200, 800))
    assert pygame.image.load(str(out)).get_size() == (1200, 800)


@pytest.mark.parametrize("name, size, out, words", [
    ("lineup", (800, 480), "x.png", "'lineup' is not a Stop Thief! sample screen"),
    ("start", (10, 10), "x.png", "screenshot size (10, 10) is not usable"),
    ("start", (800, 480), "x.jpg", "must end in .png"),
])
def test_bad_screenshot_requests_are_one_clear_error(name, size, out, words, tmp_path):
    with pytest.raises(DisplayError, match=words.replace("(", r"\(").replace(")", r"\)")):
        scanner_screenshot(name, tmp_path / out, size)
