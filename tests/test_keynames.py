"""The key names a config's ``[keys]`` may use (rig.core.keynames) are the ones the display's
pygame knows: the config checks them without importing pygame, and must agree with it."""

import os

import pytest

from rig.core.keynames import KEY_NAMES, known_key_name

pygame = pytest.importorskip("pygame")


@pytest.fixture(scope="module")
def video():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    yield
    pygame.display.quit()


def test_every_name_in_the_table_is_one_pygame_knows(video):
    for name in sorted(KEY_NAMES):
        assert pygame.key.key_code(name), name
        assert pygame.key.key_code(name.upper()) == pygame.key.key_code(name), name


def test_every_key_pygame_names_is_in_the_table(video):
    for constant in (n for n in dir(pygame) if n.startswith("K_")):
        for compat in (True, False):
            name = pygame.key.name(getattr(pygame, constant), use_compat=compat)
            assert not name or known_key_name(name), (constant, name)


@pytest.mark.parametrize("name", ["t", "T", "é", "Return", "F8", "keypad +", "[+]", "Left Ctrl"])
def test_names_the_guard_may_bind(name):
    assert known_key_name(name)


@pytest.mark.parametrize("name", ["banana", "ab", "kp_plus", "[=]", "ctrl"])
def test_names_neither_knows(video, name):
    assert not known_key_name(name)
    with pytest.raises(ValueError):
        pygame.key.key_code(name)
