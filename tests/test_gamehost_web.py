"""The companion games on the phone companion's API, through Starlette's test client on the
real game host (virtual clock): a whole game of Stolen Paintings played from three phones
alone, every status of POST /api/game/command, each game's phone vocabulary, the push channel,
and for Stop Thief! that no API answer depends on where the hidden thief is."""

import json
import random
from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from rig.shell.config import StolenPaintingsConfig, load_config
from rig.shell.faces import Faces
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.session import RecordingSession
from rig.shell.storage import replay_file
from rig.web.face import WebFace
from rig.web.games import GameWebFace
from rig.web.pairing import Pairing
from sim.clock import VirtualClock

from test_gamehost import Speakers

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
        self.face = GameWebFace(load_config(None).web, directory, pairing=self.pairing,
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
        return TestClient(self.face.app, base_url=BASE).get("/api/game").json()

    def close(self):
        for client in self.phones.values():
            client.close()
        self.host.stop()


@pytest.fixture
def night(tmp_path):
    made = []

    def make(game, players, **kw):
        made.append(Night(tmp_path, game, players, **kw))
        return made[-1]

    yield make
    for n in made:
        n.close()


def test_a_whole_stolen_paintings_game_from_the_phones_alone(night):
    players = ("Ana", "Ben", "Caro")
    n = night("stolen-paintings", players, config=StolenPaintingsConfig(exhibition_s=10))
    for name in players:
        n.phone(name if name != "Ben" else "Ben's phone")
    me = {p: (p if p != "Ben" else "Ben's phone") for p in players}
    stolen = {"Ana": [2, 6], "Ben": [1, 4, 8], "Caro": [3]}
    marks = {"Ana": [2, 6], "Ben": [1, 2], "Caro": [3, 4]}
    for thief in players:
        detectives = [p for p in players if p != thief]
        answer = n.send(me[thief], {"start": True})
        assert answer.status_code == 200 and answer.json()["phase"] == "exhibition"
        assert n.public()["view"]["remaining_s"] == pytest.approx(9.8, abs=0.3)
        n.clock.advance(10.0)
        assert n.public()["view"]["phase"] == "swap" and n.screen.heard[-1] == "gong"
        refused = n.send(me[detectives[0]], {"steal": [1]})
        assert refused.status_code == 409 and "thief" in refused.json()["error"]
        assert n.send(me[thief], {"steal": stolen[thief]}).json()["mine"] == stolen[thief]
        for d in detectives:
            view = n.send(me[d], {"mark": marks[d]}).json()
            if d == detectives[0]:              # the last ballot reveals and moves on
                assert view["role"] == "detective" and view["mine"] == marks[d]
                public = n.public()
                assert public["view"]["marked"] == [d] and json.dumps(marks[d]) not in \
                    json.dumps(public["view"]["waiting"])
                assert n.phones[me[d]].get("/api/game/me").json()["mine"] == marks[d]
        assert n.public()["view"]["last_round"]["stolen"] == stolen[thief]
    final = n.public()
    assert final["view"]["phase"] == "over" and final["view"]["winners"]
    assert n.screen.heard[-1] == "fanfare"
    result = json.loads(json.dumps(n.host.result()))
    n.host.stop()
    assert replay_file(n.host.recording_path) == result
    assert [line.get("by") for line in map(json.loads, n.host.recording_path.read_text(
        "utf-8").splitlines()[1:3])] == ["Ana", "Ana"]


def test_every_status_of_a_game_command(night):
    n = night("chest-heist", ("Ana",))
    stranger = TestClient(n.face.app, base_url=BASE)
    assert stranger.get("/api/game").status_code == 200          # watching needs no pairing
    assert stranger.post("/api/game/command", json={"roll": True},
                         headers=ORIGIN).status_code == 401
    assert stranger.get("/api/game/me").status_code == 401
    n.phone("Zed")
    answer = n.send("Zed", {"roll": True})
    assert answer.status_code == 403 and "pair again with your player's name" in \
        answer.json()["error"]
    n.phone("Ana")
    lines = n.host.recording_path.read_text("utf-8")
    for body, words in (([1], "one JSON object"), ({"t": 3, "roll": True}, "leave 't' out"),
                        ({"roll": [1, 2, 3, 4, 5]}, "the rig rolls the dice"),
                        ({"reroll": [1], "rolled": [1, 1, 1, 1, 1]}, "leave 'rolled' out"),
                        ({"shake": True}, "a command is")):
        answer = n.send("Ana", body)
        assert answer.status_code == 400 and words in answer.json()["error"], answer.json()
    refused = n.send("Ana", {"end_turn": True})
    assert refused.status_code == 409 and "roll" in refused.json()["error"]
    assert n.host.recording_path.read_text("utf-8") == lines     # nothing recorded
    assert n.public()["message"].startswith("Refused: ")          # and the screen says why
    rolled = n.send("Ana", {"roll": True})
    assert rolled.status_code == 200 and rolled.json()["phase"] == "play"
    assert rolled.json()["you"] == "Ana"
    assert n.screen.heard == ["dice"]
    assert n.pairing.view().code not in json.dumps(n.public())


@pytest.mark.parametrize("game, players, commands", [
    ("stop-thief", ("Ana", "Ben"), [("Ana", {"clue": True}), ("Ana", {"replay": True}),
                                    ("Ana", {"end_turn": True}), ("Ben", {"clue": True})]),
    ("canine", ("Ana", "Ben"), [("Ana", {"doggy": "Doggy A", "face_up": True}),
                                ("Ben", {"draw": "action"}),
                                ("Ben", {"play": "badger"}), ("Ben", {"roll": True})]),
])
def test_each_games_phone_vocabulary_reaches_the_game_and_its_recording(night, game,
                                                                        players, commands):
    n = night(game, players)
    for name in players:
        n.phone(name)
    for name, body in commands:
        answer = n.send(name, body)
        assert answer.status_code == 200, answer.json()
    recorded = [json.loads(x) for x in n.host.recording_path.read_text("utf-8").splitlines()]
    assert [line.get("by") for line in recorded[1:]] == [name for name, _ in commands]
    assert json.loads(json.dumps(n.host.result())) == replay_file(n.host.recording_path)


def test_the_push_channel_carries_the_game(night):
    n = night("stop-thief", ("Ana", "Ben"))
    ana = n.phone("Ana")
    with ana.websocket_connect(BASE.replace("http", "ws") + "/api/live",
                               headers={"Origin": BASE}) as ws:
        first = json.loads(ws.receive_text())
        assert first["type"] == "state" and first["state"]["game"] == "stop-thief"
        n.send("Ana", {"clue": True})
        seen = []
        while not any(m["type"] == "state" and m["state"]["view"]["clue_taken"]
                      for m in seen):
            seen.append(json.loads(ws.receive_text()))
        assert any(m["type"] == "call" and "Clue 1" in m["text"] for m in seen)


def test_stop_thief_no_api_answer_depends_on_the_hidden_thief(night):
    from rig.games.stop_thief.rules.thief import Thief
    n = night("stop-thief", ("Ana", "Ben"), seed=2 ** 40 + 7)
    for name in ("Ana", "Ben"):
        n.phone(name)
    rng = random.Random(5)
    for _ in range(25):
        player = n.host.game.player
        n.send(player, rng.choice([{"clue": True}, {"clue": True}, {"replay": True},
                                   {"end_turn": True}, {"arrest": 4}]))
        game = n.host.game
        if game.over or game.case.caught_by is not None:
            continue
        now = n.clock.now()

        def answers():
            """GET /api/game as the screen now would make it, and each phone's own view."""
            return [n.face.state(n.host.screen(now))] + [
                n.phones[p].get("/api/game/me").json() for p in ("Ana", "Ben")]

        seen = answers()
        others = [s for s in game.board.numbers if s != game.case.thief.space]
        n.host.game = replace(game, case=replace(game.case, thief=Thief(
            rng.choice(others), rng.choice(others), tuple(rng.choice(others)
                                                         for _ in game.case.thief.path))))
        moved = answers()
        n.host.game = game
        assert json.loads(json.dumps(moved)) == json.loads(json.dumps(seen))
        assert "seed" not in json.dumps(seen) and str(game.seed) not in json.dumps(seen)


def test_the_game_routes_answer_404_while_cleptomano_runs(tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    face = WebFace(load_config(None).web, tmp_path, static_dir=static)
    with TestClient(face.app, base_url=BASE) as client:
        for route in ("/api/game", "/api/game/board"):
            answer = client.get(route)
            assert answer.status_code == 404 and "it referees Cleptómano" in \
                answer.json()["error"]


def test_a_refused_secret_entry_tells_the_table_whose_it_was_and_only_its_phone_why(night):
    """A thief's steal or a detective's ballot the rules refuse: the reason names what it held,
    so it goes back to that phone alone; the screen and the calls say only whose it was."""
    players = ("Ana", "Ben", "Caro")
    n = night("stolen-paintings", players, config=StolenPaintingsConfig(exhibition_s=10))
    for name in players:
        n.phone(name)
    assert n.send("Ana", {"start": True}).status_code == 200
    n.clock.advance(10.0)
    lines = n.host.recording_path.read_text("utf-8")
    for name, body, words in (("Ana", {"steal": [2, 6, 7, 8]}, "1 to 3"),
                              ("Ana", {"steal": [2, 9]}, "9")):
        refused = n.send(name, body)
        assert refused.status_code == 409 and words in refused.json()["error"]
        assert n.public()["message"] == "Refused: Ana's entry; their phone says why"
        assert n.host.log_lines[-1].endswith("Refused: Ana's entry; their phone says why")
    assert n.send("Ana", {"steal": [2, 6]}).status_code == 200
    refused = n.send("Ben", {"mark": [1, 2, 3, 4]})
    assert refused.status_code == 409
    assert n.public()["message"] == "Refused: Ben's entry; their phone says why"
    assert n.host.recording_path.read_text("utf-8").count("\n") == lines.count("\n") + 1
    # A command that is not a secret is refused in the open, as before.
    refused = n.send("Caro", {"start": True})
    assert refused.status_code == 409
    assert n.public()["message"] == "Refused: " + refused.json()["error"]
