"""A game's face parts are found through the registry: a game registered from a package outside
``rig/`` (this test's own, made in tmp_path) is keyed, drawn, heard and screenshot with no edit
to the faces, through the one interface each part answers (README "Adding a game"): its
``keys.MODE``, ``screen.draw_screen``, ``sounds.extra_sounds()``, ``samples.SHOTS`` and
``samples.shot``."""

import textwrap

import pygame
import pytest

from rig import cli
from rig import games as registry
from rig.core.gamekit import GameScreen
from rig.display.face import KeyedDisplay
from rig.display.game_keys import key_help, primary
from rig.display.game_screens import extra_sounds
from sim.frames import strip_shown

HEADS = (230, 180, 20)       # the coin's colour on the screen, heads up
TAILS = (60, 110, 220)

GAME = '''
from dataclasses import dataclass

from rig.games.chest_heist import GAME as CHEST


@dataclass(frozen=True)
class Toss:
    t: float
    by: object = None


class Coin(type(CHEST)):     # a whole game (the registry checks it); its own faces here
    name = prefix = recording = "coin"
    title = "Heads or tails"
    section = "coin"
    example = '{"toss": true}'


GAME = Coin()
'''

KEYS = '''
from rig.draw.keymodes import Mode

from .game import Toss


class CoinKeys(Mode):
    KEYS = {"space": "toss", "t": "toss"}
    HELP = ("T, Space: toss the coin",)

    def begin(self, action):
        return Toss(0.0), None


MODE = CoinKeys
'''

SCREEN = '''
from rig.draw.kit import load_pygame

COLOURS = {"heads": %r, "tails": %r}


def draw(surface, view):
    load_pygame()
    surface.fill(COLOURS[view["side"]])


def draw_screen(surface, snapshot, now_s=None):
    draw(surface, snapshot.view)
''' % (HEADS, TAILS)

SAMPLES = '''
from .screen import draw

SHOTS = ("coin-heads", "coin-tails")


def shot(name):
    return draw, {"side": name[len("coin-"):]}
'''

SOUNDS = '''
def extra_sounds():
    return {"toss": lambda rate: [0] * (rate // 10)}
'''


@pytest.fixture
def coin(tmp_path, monkeypatch):
    """A game package of the test's own (its rules, keys, screen, samples and sounds),
    registered and taken out afterwards."""
    package = "coin_%s" % tmp_path.name.replace("-", "_")
    folder = tmp_path / "site" / package
    folder.mkdir(parents=True)
    parts = {"__init__": "from .game import GAME\n", "game": GAME, "keys": KEYS, "screen": SCREEN,
             "samples": SAMPLES, "sounds": SOUNDS}
    for name, text in parts.items():
        (folder / (name + ".py")).write_text(textwrap.dedent(text), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    registry.register(package)
    try:
        yield package
    finally:
        registry.unregister(package)


def centre(frame):
    w, h = frame.get_size()
    return tuple(frame.get_at((w // 2, h // 3)))[:3]


def test_a_registered_games_keys_give_its_commands(coin):
    display = KeyedDisplay()
    display.show(GameScreen(game="coin", view={"side": "heads"}, players=("Ana",)))
    display.press("t", "space")
    typed = display.poll_commands()
    assert [type(c).__name__ for c in typed] == ["Toss", "Toss"]
    assert type(primary("coin")).__name__ == "Toss"
    assert key_help("coin") == ("T, Space: toss the coin",)


def test_a_registered_game_is_drawn_with_the_hosts_strip(coin):
    display = KeyedDisplay()
    display.show(GameScreen(game="coin", view={"side": "tails"}, players=("Ana",)))
    frame = display.frame()
    assert centre(frame) == TAILS and not strip_shown(frame)
    display.show(GameScreen(game="coin", view={"side": "heads"}, players=("Ana",),
                            message="Ana tossed: heads"))
    frame = display.frame((1920, 1080))
    assert centre(frame) == HEADS and strip_shown(frame)
    display.press("h")                              # the keys' help on the strip
    assert strip_shown(display.frame())


def test_a_registered_game_is_screenshot_by_its_state_names(coin, tmp_path, capsys):
    out = tmp_path / "coin.png"
    assert cli.main(["screenshot", "coin-tails", str(out), "--size", "640x360"]) == 0
    shot = pygame.image.load(str(out))
    assert shot.get_size() == (640, 360) and centre(shot) == TAILS
    assert cli.main(["screenshot", "coin-edge", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "coin-edge" in err and "coin-heads, coin-tails" in err


def test_a_registered_games_own_sounds_are_made_at_the_display(coin):
    made = extra_sounds("coin")
    assert set(made) == {"toss"} and len(made["toss"](22050)) == 2205
    assert extra_sounds("no-such-game") == {} and extra_sounds(None) == {}


def test_once_unregistered_the_faces_no_longer_know_it(coin):
    registry.unregister(coin)
    assert primary("coin") is None and key_help("coin") == ()
    display = KeyedDisplay()
    display.show(GameScreen(game="coin", view={"side": "heads"}))
    assert display.press("space").poll_commands() == []


def test_every_snapshot_is_dispatched_the_same_way_cleptomano_first():
    """Cleptómano's Scoreboard says its game as a GameScreen does: the face takes its keys and
    screen from its folder through the registry, as for any other game."""
    from rig.games.cleptomano.rules.view import Scoreboard
    from rig.games.cleptomano import keys as cleptomano_keys
    from rig.games.cleptomano import screen as cleptomano_screen
    from rig.games.stop_thief import keys as stop_thief_keys

    display = KeyedDisplay()
    display.show(Scoreboard(players=("Ana", "Ben")))
    assert type(display.face.keys) is cleptomano_keys.MODE
    assert display.face.screen()[0] is cleptomano_screen.draw
    display.show(GameScreen(game="stop-thief", view={}, players=("Ana", "Ben")))
    assert type(display.face.keys) is stop_thief_keys.MODE
    display.show(Scoreboard(players=("Ana", "Ben")))
    display.press("s")                              # Cleptómano's set-up screen opens
    assert display.face.keys.flow is not None
