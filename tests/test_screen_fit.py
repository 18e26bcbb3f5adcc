"""The table's screen never hides nor cuts (issue 30): the font draws no gap inside a word, names
shrink to the legibility floor and then end in "…" (never break inside a word), the host's
message strip has its own band below the game, labels are at least the floor, and every sample
screen fits a long real name of each language and the pseudo-locale."""

import pytest

from rig.display import kit


@pytest.fixture(scope="module")
def pygame():
    pg = kit.load_pygame()
    yield pg
    kit.use_words("en")


# --- "PREPAR ACIÓN": the built-in font's kerning table ---------------------------------------------

@pytest.mark.parametrize("word", ["PREPARACIÓN", "puntuación", "exposición", "RA", "tu", "xp"])
def test_the_screen_font_puts_no_gap_inside_a_word(pygame, word):
    """FreeSans Bold's kerning table pushes t-u, R-A, x-p apart (+77..+89 thousandths of an em):
    a word is drawn no wider than its letters side by side."""
    for size in (32, 64, 120):
        f = kit.get_font(size)
        assert f.size(word)[0] <= sum(f.size(ch)[0] for ch in word) + 1, (word, size)


def test_the_kernless_font_measures_lines_as_pygame_s_own(pygame):
    """Only the kerning is gone: a size's line height is pygame's built-in font's."""
    for size in (6, 20, 32, 48, 100):
        assert kit.get_font(size).get_height() == pygame.font.Font(None, size).get_height()
