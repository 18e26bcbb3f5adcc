"""The screens of the rig's other games, all of them: every sample draws at both sizes, the
README's screenshots are what ``cleptomano screenshot`` renders, and an unknown state is one
clear error.  What each screen must show is tested with its game (tests/games/stolen_paintings/,
tests/games/chest_heist/)."""

from pathlib import Path

import pygame
import pytest

from rig import cli
from rig.games.chest_heist import samples as chest_samples
from rig.games.stolen_paintings import samples as paintings_samples
from sim.frames import SIZES, draw_frame

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = dict(paintings_samples.SAMPLES, **chest_samples.SAMPLES)
STATES = tuple(SAMPLES)
README_SHOTS = ("paintings-exhibition", "paintings-reveal", "chests-sheet", "chests-over")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", STATES)
def test_every_screen_draws_at_both_sizes(name, size):
    surface = draw_frame(*SAMPLES[name], size)
    colours = {surface.get_at((x, y))[:3] for x in range(0, size[0], 37)
               for y in range(0, size[1], 23)}
    assert len(colours) > 3                                       # not a blank screen


@pytest.mark.parametrize("name", README_SHOTS)
def test_the_readme_screenshots_are_what_the_command_renders(tmp_path, name):
    out = tmp_path / (name + ".png")
    assert cli.main(["screenshot", name, str(out), "--size", "800x480"]) == 0
    shown = pygame.image.load(str(ROOT / "docs" / "screenshots" / (name + ".png")))
    assert pygame.image.tobytes(pygame.image.load(str(out)), "RGB") == \
        pygame.image.tobytes(shown, "RGB")


def test_an_unknown_screen_is_one_error_naming_the_game_screens(tmp_path, capsys):
    assert cli.main(["screenshot", "paintings-dancing", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "paintings-dancing" in err[0] and "chests-over" in err[0]
