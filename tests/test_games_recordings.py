"""The games page's after-game and history on the API, through Starlette's test client on the
real game host (virtual clock): once a game is over ``GET /api/game`` says so with its result
in words, and ``GET /api/game/recordings`` lists this game's recording and the earlier games'
(every companion game's, newest first) with each one's replay result and its file for
download; a recording that does not replay is listed with its one-line reason, and no id
reaches outside the recordings folder."""

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rig.shell.config import load_config
from rig.shell.faces import Faces
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.session import RecordingSession
from rig.shell.storage import replay_file
from rig.web.face import GameWebFace
from rig.web.games import GameRecordings
from rig.web.pairing import Pairing
from rig.words import english
from sim.clock import VirtualClock
from sim.gamehost import BASE, ORIGIN, Speakers, codes

ROOT = Path(__file__).resolve().parent.parent
#: 2026-01-01 12:00 and 12:05 UTC: the earlier game, then tonight's.
EARLIER_S, TONIGHT_S = 1767268800.0, 1767269100.0


class Evening:
    """Games hosted one after another in one recordings folder, the phones' face on it."""

    def __init__(self, directory):
        self.directory = directory
        self.clock = VirtualClock()
        self.pairing = Pairing("http://192.168.1.20:8080/", randbelow=codes())
        static = directory.parent / "static"
        static.mkdir()
        self.face = GameWebFace(load_config(None).web, directory, pairing=self.pairing,
                                static_dir=static)
        self.host = None

    def host_game(self, game, players, wall_s):
        """Start ``game`` (its recording named by the wall clock ``wall_s``), shown on the
        face; the host of a game started before is stopped first, as a rig's next run."""
        if self.host is not None:
            self.host.stop()
        self.host = GameHost(game_named(game), players, clock=self.clock, seed=7,
                             session=RecordingSession(self.directory, lambda: wall_s,
                                                      clock=self.clock),
                             display=Faces(Speakers(), self.face), phones=self.pairing)
        self.host.start()
        self.face.rig = self.host
        self.clock.advance(0.2)
        return self.host

    def phone(self, name):
        client = TestClient(self.face.app, base_url=BASE)
        assert client.post("/api/pair", json={"code": self.pairing.view().code, "name": name},
                           headers=ORIGIN).status_code == 200
        return client

    def game(self):
        self.clock.advance(0.2)                  # the host shows its new screen
        return TestClient(self.face.app, base_url=BASE).get("/api/game").json()


@pytest.fixture
def evening(tmp_path):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    made = Evening(recordings)
    yield made
    if made.host is not None:
        made.host.stop()


def send(phone, obj):
    answer = phone.post("/api/game/command", json=obj, headers=ORIGIN)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_after_a_game_the_api_says_it_is_over_and_lists_it_with_the_earlier_ones(evening):
    earlier = evening.host_game("stolen-paintings", ("Ana", "Ben", "Caro"), EARLIER_S)
    earlier_path = earlier.recording_path
    host = evening.host_game("chest-heist", ("Ana",), TONIGHT_S)
    # An earlier night's files: a Cleptómano match named as a game, and a torn-up game.
    broken = evening.directory / "stop-thief-20251231-230000.jsonl"
    broken.write_text("not json\n", "utf-8")
    shutil.copy(ROOT / "tests" / "recordings" / "three_player_match.jsonl",
                evening.directory / "canine-20251231-220000.jsonl")
    shutil.copy(ROOT / "tests" / "recordings" / "three_player_match.jsonl",
                evening.directory / "match-20251231-210000.jsonl")   # Cleptómano's: not here
    ana = evening.phone("Ana")
    playing = evening.game()
    assert playing["over"] is False and playing["outcome"] is None
    for _ in range(12):
        send(ana, {"roll": True})
        send(ana, {"end_turn": True})
    assert evening.game()["over"] is False            # the diamonds are still to be counted
    send(ana, {"diamonds": 14})

    over = evening.game()
    result = host.result()
    assert over["over"] is True
    assert over["outcome"] == "score %d: %s" % (result["score"], result["title"]["en"])
    listing = ana.get("/api/game/recordings")
    assert listing.status_code == 200
    entries = listing.json()
    assert [e["id"] for e in entries] == [host.recording_path.stem, earlier_path.stem,
                                          "stop-thief-20251231-230000",
                                          "canine-20251231-220000"]
    tonight, before, torn_up, clepto = entries
    assert tonight == {"id": host.recording_path.stem, "date": tonight["date"], "live": True,
                       "game": "chest-heist", "title": "The chest heist", "players": ["Ana"],
                       "outcome": over["outcome"], "torn": False}
    assert before["live"] is False and before["torn"] is False
    assert before["title"] == "Stolen Paintings" and before["players"] == ["Ana", "Ben", "Caro"]
    assert before["outcome"] == "unfinished (round 1) · Ana 0, Ben 0, Caro 0"
    assert torn_up["error"].startswith("the recording stop-thief-20251231-230000 cannot be "
                                       "replayed: ") and "\n" not in torn_up["error"]
    assert clepto["error"] == ("canine-20251231-220000.jsonl holds no companion game (its "
                               "header names none); cleptomano replay "
                               "canine-20251231-220000.jsonl says what it holds")

    # Each recording downloads as it is on disk; its replay is cleptomano replay's.
    for entry, path in ((tonight, host.recording_path), (before, earlier_path),
                        (torn_up, broken)):
        download = ana.get("/api/game/recordings/%s/recording" % entry["id"])
        assert download.status_code == 200 and download.content == path.read_bytes()
        assert download.headers["content-disposition"] == \
            'attachment; filename="%s.jsonl"' % entry["id"]
    replayed = ana.get("/api/game/recordings/" + earlier_path.stem)
    assert replayed.status_code == 200
    assert replayed.json() == dict(replay_file(earlier_path), warnings=[])
    refused = ana.get("/api/game/recordings/stop-thief-20251231-230000")
    assert refused.status_code == 422 and refused.json()["error"] == torn_up["error"]


@pytest.mark.parametrize("path", [
    "/api/game/recordings/..%2F..%2Fetc%2Fpasswd",
    "/api/game/recordings/..%2Fsecret-20260101-120000",
    "/api/game/recordings/chest-heist-20260101-120000.jsonl",
    "/api/game/recordings/match-20251231-210000",            # a Cleptómano match: not a game's
    "/api/game/recordings/match-20251231-210000/recording",
    "/api/game/recordings/chest-heist-20990101-000000",
    "/api/game/recordings/chest-heist-20990101-000000/recording",
])
def test_no_id_reaches_outside_the_games_recordings(evening, path):
    evening.host_game("chest-heist", ("Ana",), TONIGHT_S)
    (evening.directory.parent / "secret-20260101-120000.jsonl").write_text("{}", "utf-8")
    shutil.copy(ROOT / "tests" / "recordings" / "three_player_match.jsonl",
                evening.directory / "match-20251231-210000.jsonl")
    answer = TestClient(evening.face.app, base_url=BASE).get(path)
    assert answer.status_code == 404
    error = answer.json()["error"]              # an id with a slash is no route at all
    assert "the list of recorded games" in error or "is not a page of the rig" in error
    assert "GET /" not in error                 # where to look, in a player's words


HEADER = json.dumps({"recording": "chest-heist", "version": 1, "seed": 7, "player": "Ana"})
LINES = st.lists(st.one_of(
    st.text(max_size=40),
    st.dictionaries(st.sampled_from(["t", "roll", "reroll", "mark", "dice", "end_turn",
                                     "diamonds", "by", "rolled", "end"]),
                    st.one_of(st.none(), st.booleans(), st.integers(-3, 20),
                              st.floats(allow_nan=True), st.text(max_size=4),
                              st.lists(st.integers(-1, 7), max_size=6)),
                    max_size=4).map(json.dumps)), max_size=6)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200),
                         LINES.map(lambda lines: "\n".join([HEADER] + lines).encode("utf-8"))))
def test_any_file_in_the_folder_is_listed_with_a_result_or_one_line_never_a_crash(tmp_path,
                                                                                  content):
    directory = tmp_path / ("fuzz-%d" % abs(hash(content)))
    directory.mkdir(exist_ok=True)
    (directory / "chest-heist-20260101-120000.jsonl").write_bytes(content)
    recordings = GameRecordings(directory)
    [entry] = recordings.listing()
    if "error" in entry:
        said = english(entry["error"])          # a code: each phone says it (rig.web.games)
        assert "\n" not in said and "chest-heist-20260101-120000" in said
    else:
        assert entry["game"] == "chest-heist" and entry["outcome"]


def test_a_listing_reads_a_recording_once_until_it_changes(tmp_path, monkeypatch):
    """The page lists the recordings at every new turn on every phone: a recording already
    listed is neither replayed nor read for its header again until the file changes."""
    import rig.web.matches as matches
    directory = tmp_path / "recordings"
    directory.mkdir()
    path = directory / "chest-heist-20260101-120000.jsonl"
    path.write_text(HEADER + "\n", "utf-8")
    recordings = GameRecordings(directory)
    replays, summaries = [], []
    monkeypatch.setattr(matches, "replay_file",
                        lambda *args: replays.append(1) or replay_file(*args))
    summary = GameRecordings.summary
    monkeypatch.setattr(GameRecordings, "summary",
                        lambda self, *args: summaries.append(1) or summary(self, *args))
    first = recordings.listing()
    assert recordings.listing() == first and (len(replays), len(summaries)) == (1, 1)
    recordings.replay("chest-heist-20260101-120000")         # the replay's own page too
    assert len(replays) == 1
    with path.open("a", encoding="utf-8") as f:          # the game goes on: read again
        f.write(json.dumps({"t": 1.0, "roll": [1, 1, 6, 2, 3]}) + "\n")   # seed 7's
    recordings.listing()
    assert (len(replays), len(summaries)) == (2, 2)
