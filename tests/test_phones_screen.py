"""The phones' corner of the rig's screen: the QR code a phone camera reads (module for module
what segno computed for the address), the pairing code, the lock-out, the paired phones."""

import pygame
import pytest

from rig.core.phones import PhonesView, screen_lines
from rig.draw.phones import QUIET_MODULES, draw_qr, qr_matrix
from rig.words import Words
from rig.games.cleptomano.screen import draw
from rig.games.cleptomano.samples import sample_board

URL = "http://192.168.1.23:8080/"


@pytest.fixture(autouse=True)
def _pygame():
    pygame.init()
    yield


def test_the_qr_code_is_drawn_module_for_module_with_its_quiet_zone():
    surface = pygame.Surface((200, 200))
    surface.fill((20, 20, 40))
    left, top, side, _ = draw_qr(surface, URL, (10, 10, 180, 180))
    matrix = qr_matrix(URL)
    n = len(matrix) + 2 * QUIET_MODULES
    px = side // n
    assert px >= 4 and side == px * n                     # whole pixels a module: no blur

    def dark(row, col):
        x = left + col * px + px // 2
        y = top + row * px + px // 2
        return surface.get_at((x, y))[:3] == (0, 0, 0)

    read = tuple(tuple(dark(r + QUIET_MODULES, c + QUIET_MODULES) for c in range(len(matrix)))
                 for r in range(len(matrix)))
    assert read == matrix
    assert not any(dark(0, c) or dark(n - 1, c) for c in range(n))   # the quiet zone is white


def test_a_box_too_small_for_the_code_draws_nothing():
    surface = pygame.Surface((20, 20))
    assert draw_qr(surface, URL, (0, 0, 20, 20)) is None


def test_the_screen_words_the_code_the_lock_out_and_the_phones():
    open_ = PhonesView(URL, "482913", ("Ben's phone", "Ana"))
    def said(view, lang="en"):
        return tuple(Words(lang).text(line) for line in screen_lines(view))

    assert said(open_) == ("PHONES: scan, or open", URL, "CODE 482 913",
                           "Paired: Ben's phone and Ana")
    locked = PhonesView(URL, None, (), locked_s=42.2, wrong_codes=5)
    assert said(locked) == ("5 WRONG CODES: pairing", URL, "LOCKED 43 s", "No phone paired yet")
    assert said(locked, "ro")[0] == "5 CODURI GREȘITE: asociere"
    assert said(PhonesView(URL, None, (), locked_s=1, wrong_codes=20), "ro")[0] == \
        "20 DE CODURI GREȘITE: asociere"
    starting = PhonesView("", "482913")
    assert said(starting)[1] == "(the address comes in a moment)"


def _count(surface, box, colour, tol=40):
    sub = surface.subsurface(pygame.Rect(box))
    return pygame.mask.from_threshold(sub, colour, (tol, tol, tol, 255)).count()


def test_between_turns_the_screen_shows_the_code_in_gold_and_a_lock_out_in_red():
    from rig.draw.kit import GOLD, RED
    shown, locked = pygame.Surface((800, 480)), pygame.Surface((800, 480))
    draw(shown, sample_board("phones"))
    draw(locked, sample_board("phones-locked"))
    corner = (560, 300, 240, 80)                          # where the code line is drawn
    assert _count(shown, corner, GOLD) > 300 and _count(shown, corner, RED) < 50
    assert _count(locked, corner, RED) > 300 and _count(locked, corner, GOLD) < 50
    plain = pygame.Surface((800, 480))
    draw(plain, sample_board("between"))
    assert _count(plain, (440, 270, 140, 120), (255, 255, 255), 10) < 100   # no QR without phones
    assert _count(shown, (440, 270, 140, 120), (255, 255, 255), 10) > 3000
