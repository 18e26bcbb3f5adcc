"""A companion game on the rig in real time with its phones' web face, for the browser tests:
the game host as ``cleptomano run --game ... --headless`` runs it, served on 127.0.0.1 at a
free port, and the helpers that pair a page with the code the rig's screen shows and tap a row
of numbers on it."""

from dataclasses import replace

from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.shell.faces import Faces, MemoryDisplay
from rig.shell.build import build_game_host
from rig.web.face import GameWebFace


class GameTable:
    """One companion game on the rig in real time, its web face on 127.0.0.1 (a free port), a
    screen that keeps what it shows (read for the pairing code as a player reads the rig's).
    ``seed`` is the game's (None: a fresh one, as the rig draws it); ``settings`` replace
    tables of the config (``stop_thief=StopThiefConfig(...)``); ``port`` and ``pairing`` the
    web face's (a restart: the same port, a pairing with the same store)."""

    def __init__(self, recordings_dir, game, players, seed=None, port=0, pairing=None,
                 **settings):
        config = load_config(None)
        if settings:
            config = replace(config, **settings)
        self.memory = MemoryDisplay(keep=50)
        self.web = GameWebFace(config.web.__class__(bind=("127.0.0.1",), port=port),
                               recordings_dir, pairing=pairing)
        self.host = build_game_host(config, game, players, clock=MonotonicClock(), seed=seed,
                                    recordings_dir=recordings_dir,
                                    display=Faces(self.memory, self.web),
                                    phones=self.web.pairing)

    @property
    def url(self):
        return self.web.pairing.url + "games/"

    @property
    def code(self):
        return self.memory.board.phones.code     # the newest GameScreen the rig showed

    def __enter__(self):
        self.web.start()                 # the server first, as cleptomano run starts it
        self.host.start()
        self.web.rig = self.host
        return self

    def __exit__(self, *exc):
        self.web.stop(3.0)
        self.host.stop()


def pair(phone, rig, name):
    phone.goto(rig.url)
    phone.wait("#pair h2", text="Play from this phone")
    phone.fill("#pair-code", rig.code).fill("#pair-name", name)
    phone.click('#pair button[type="submit"]')
    phone.gone("#pair")
    return phone


def tap(phone, places, row="#controls .row"):
    """Toggle the places ``places`` (numbers) on the page's ``row`` of buttons, each seen
    pressed."""
    for place in places:
        button = '%s button:text-is("%d")' % (row, place)
        if row.endswith('[data-toggles="dice"]'):     # the chest heist's dice show their faces
            button = '%s button[data-place="%d"]' % (row, place)
        phone.click(button).wait(button + '[aria-pressed="true"]')
