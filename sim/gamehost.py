"""A companion game on the game host in virtual time, as the tests play it: the display that
hears what it plays (:class:`Speakers`), and the game with its web face and phones as Starlette
test clients (:class:`Night`, fixture ``night`` in tests/conftest.py).  Shared by the game host's
tests (tests never import each other).  Starlette's test client (a test dependency: httpx2) is
imported where a phone is made, so the installed wheel imports this module without it."""

from rig.display.face import KeyedDisplay
from rig.display.game_screens import cues
from rig.shell.config import load_config
from rig.shell.faces import Faces
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.session import RecordingSession
from rig.web.face import GameWebFace
from rig.web.pairing import Pairing
from sim.clock import VirtualClock


class Speakers(KeyedDisplay):
    """The display as the table knows it: keys, the drawn frame, and the sounds it plays (cued
    from each snapshot and the one before, as the render loop does)."""

    def __init__(self):
        super().__init__(keep=20)
        self.heard = []
        self._last = None

    def show(self, board):
        self.heard += cues(self._last, board)
        self._last = board
        super().show(board)


BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}


def codes():
    """Pairing codes 100000, 100001... in turn (one for each phone pairing)."""
    drawn = iter(range(100000, 200000))
    return lambda n: next(drawn)


class Night:
    """A game on the host with its web face and phones (test clients, each its own cookie)."""

    def __init__(self, directory, game, players, config=None, seed=7):
        static = directory / "static"
        static.mkdir()
        (static / "index.html").write_text("<!doctype html><title>rig</title>", "utf-8")
        self.clock = VirtualClock()
        self.pairing = Pairing("http://192.168.1.20:8080/", randbelow=codes())
        # The phones list the recordings of the folder the host records to, as on the rig.
        self.face = GameWebFace(load_config(None).web, directory / "rec", pairing=self.pairing,
                                static_dir=static)
        self.screen = Speakers()
        self.host = GameHost(game_named(game), players, settings=config, clock=self.clock,
                             session=RecordingSession(directory / "rec", clock=self.clock),
                             display=Faces(self.screen, self.face), seed=seed,
                             phones=self.pairing)
        self.host.start()
        self.face.rig = self.host
        self.clock.advance(0.2)
        self.phones = {}

    def phone(self, name):
        """A phone paired as ``name`` (with the code the screen shows now)."""
        from starlette.testclient import TestClient
        client = TestClient(self.face.app, base_url=BASE)
        code = self.pairing.view().code
        assert client.post("/api/pair", json={"code": code, "name": name},
                           headers=ORIGIN).status_code == 200
        self.phones[name] = client
        return client

    def send(self, name, obj):
        answer = self.phones[name].post("/api/game/command", json=obj, headers=ORIGIN)
        self.clock.advance(0.2)
        return answer

    def public(self):
        from starlette.testclient import TestClient
        return TestClient(self.face.app, base_url=BASE).get("/api/game").json()

    def close(self):
        for client in self.phones.values():
            client.close()
        self.host.stop()
