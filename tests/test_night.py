"""The game night: POST /api/night/game from a paired phone (every status, through Starlette's
test client on the real rig and game host in virtual time), its body fuzzed, and whole nights
of ``cleptomano run`` switching game in one process, its phones' server on 127.0.0.1 (real
time, a few seconds each: every wait has a deadline, none is a sleep)."""

import http.client
import json
import logging
import os
import re
import shutil
import signal
import tempfile
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from rig import cli
from rig.games.cleptomano.rules import events as ev
from rig.core.errors import RequestError
from rig.shell.config import load_config
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.night import Night
from rig.shell.session import RecordingSession
from rig.shell.storage import replay_file
from rig.web.face import GameWebFace, WebFace
from rig.web.night import NIGHT_GAMES, Choice, Switchboard, parse_choice
from rig.web.pairing import Pairing
from sim.broker import free_port
from sim.clock import VirtualClock
from sim.harness import Harness
from sim.sdnotify import Listener

BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}


def static_dir(directory):
    static = directory / "static"
    static.mkdir(exist_ok=True)
    (static / "index.html").write_text("<!doctype html><title>rig</title>", "utf-8")
    return static


def paired(face, name):
    client = TestClient(face.app, base_url=BASE)
    answer = client.post("/api/pair", json={"code": face.pairing.view().code, "name": name},
                         headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    return client


def choose(client, body):
    return client.post("/api/night/game", json=body, headers=ORIGIN)


@pytest.fixture
def game_night(tmp_path):
    """A chest heist on the game host (virtual clock) with its face on a game night; yields
    (night, face, host)."""
    clock = VirtualClock()
    night = Night(load_config(None))
    night.leg()
    face = GameWebFace(load_config(None).web, tmp_path, pairing=Pairing(),
                       static_dir=static_dir(tmp_path))
    face.night = night
    host = GameHost(game_named("chest-heist"), ("Ana",), clock=clock, seed=3,
                    session=RecordingSession(tmp_path / "rec", clock=clock), display=face,
                    phones=face.pairing)
    host.start()
    face.rig = host
    clock.advance(0.2)
    yield night, face, host
    host.stop()


def test_an_unpaired_phone_is_refused_and_nothing_switches(game_night):
    night, face, _ = game_night
    answer = choose(TestClient(face.app, base_url=BASE), {"game": "cleptomano", "end": True})
    assert answer.status_code == 401 and "not paired" in answer.json()["error"]
    assert night.take() is None


@pytest.mark.parametrize("body, words", [
    ([], "send one JSON object such as"),
    ({"game": "chess"}, "game 'chess' is not a game of the rig; send one of cleptomano, "
                        "stop-thief, stolen-paintings, chest-heist, canine"),
    ({"game": "canine", "players": "Ana,Ben"}, "Type the players' names for this game"),
    ({"game": "canine", "players": ["Ana", " "]}, "an empty name names nobody"),
    ({"game": "canine", "players": ["Ana", "ana"]}, "'ana' is the same name as 'Ana'"),
    ({"game": "canine", "players": ["Ana", "An\u0301a"]}, "the same name as 'Ana'"),
    ({"game": "canine", "players": ["Ana", "Ana\u200b"]}, "U+200B"),
    ({"game": "canine", "players": ["Ana", "\u202eanA"]}, "U+202E"),
    ({"game": "canine", "players": ["Ana", "\u0301\u0301"]}, "no letter or digit"),
    ({"game": "canine", "players": ["Ana", "B" * 25]}, "24 characters or fewer"),
    ({"game": "canine", "players": ["Ana"]}, "Canine Kleptomaniacs: "),
    ({"game": "stop-thief", "players": ["Ana", "Ben\nCaro"]}, "U+000A"),
    ({"game": "cleptomano", "players": ["Ana", "ANA"]}, "the same name as"),
    ({"game": "cleptomano", "end": "yes"}, "The choice to end the game in progress was not "
                                          "understood ('yes')"),
    ({"game": "cleptomano", "next": 1}, "a part 'next' the rig does not know"),
])
def test_a_malformed_choice_is_one_clear_message_and_changes_nothing(game_night, body, words):
    night, face, host = game_night
    answer = choose(paired(face, "Ana"), body)
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    assert night.take() is None and host.alive()


def test_a_game_in_progress_is_not_left_unless_the_phone_ends_it(game_night, caplog):
    night, face, host = game_night
    phone = paired(face, "Ana's phone")
    refused = choose(phone, {"game": "stop-thief", "players": ["Ana", "Ben"]})
    assert refused.status_code == 409
    assert "The chest heist is in progress" in refused.json()["error"]
    assert refused.json()["error"] == (       # what to do, in the player's words (no JSON)
        "The chest heist is in progress and not over; finish it, or tick “End the game in "
        "progress now (its recording keeps it, unfinished)”")
    assert night.take() is None
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        answer = choose(phone, {"game": "stop-thief", "players": [" Ana", "Ben "],
                                "end": True})
    assert answer.status_code == 200
    assert answer.json() == {"game": "stop-thief", "players": ["Ana", "Ben"],
                             "by": "Ana's phone", "page": "/games/"}
    assert night.take() == (Choice("stop-thief", ("Ana", "Ben"), True), "Ana's phone")
    assert "Game night: Ana's phone chose stop-thief for Ana, Ben (ending the game in " \
           "progress)" in caplog.text
    # One choice at a time: the rig is switching already.
    again = choose(phone, {"game": "cleptomano", "end": True})
    assert again.status_code == 409 and "already chose Stop Thief!; the rig is switching" in \
        again.json()["error"]
    # The game stops as Ctrl-C stops it: its recording replays as an unfinished game.
    path = host.recording_path
    host.stop()
    assert replay_file(path)["over"] is False


def test_a_face_without_a_game_night_says_so(game_night):
    _, face, _ = game_night
    face.night = None
    answer = choose(paired(face, "Ana"), {"game": "cleptomano"})
    assert answer.status_code == 404 and "cleptomano run" in answer.json()["error"]


def test_a_cleptomano_turn_is_never_cut_short_but_between_turns_the_rig_switches(tmp_path):
    night = Night(load_config(None))
    night.leg()
    pairing = Pairing()
    face = WebFace(load_config(None).web, tmp_path, pairing=pairing,
                   static_dir=static_dir(tmp_path))
    face.night = night
    table = Harness(recordings_dir=tmp_path, display=face, phones=pairing,
                    players=["Ana", "Ben"])
    table.start()
    face.rig = table.rig
    try:
        phone = paired(face, "Ben")
        table.start_turn()
        for body in ({"game": "chest-heist", "players": ["Ben"]},
                     {"game": "chest-heist", "players": ["Ben"], "end": True}):
            refused = choose(phone, body)
            assert refused.status_code == 409, refused.text
            assert "a Cleptómano turn is running (Ana steals)" in refused.json()["error"]
        assert night.take() is None
        table.advance(1.0).hand_out().press()              # the turn ends; the loot is told
        table.submit(ev.ConfirmLoot(0.0, 0, 0))
        assert face.board.phase == "between", face.board
        assert choose(phone, {"game": "chest-heist", "players": ["Ben"]}).status_code == 200
    finally:
        table.stop()
    assert night.take() == (Choice("chest-heist", ("Ben",)), "Ben")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["game", "players", "end", "x"])
                                      | st.text(max_size=5), inner, max_size=4),
                    max_leaves=12)
       | st.fixed_dictionaries({"game": st.sampled_from(NIGHT_GAMES)},
                               optional={"players": st.lists(st.text(max_size=30),
                                                             max_size=12),
                                         "end": st.booleans()}))
def test_any_body_is_a_choice_or_one_400(body):
    try:
        choice = parse_choice(body)
    except RequestError as exc:
        assert exc.status == 400 and "\n" not in str(exc) and str(exc)
        return
    assert choice.game in NIGHT_GAMES and isinstance(choice.end, bool)
    assert choice.players is None or all(name == name.strip() and name
                                         for name in choice.players)


# --- whole nights of cleptomano run, in real time -------------------------------------------------

DEADLINE_S = 20.0


class Phone:
    """A paired phone's requests to the rig's server: its cookie kept, as a browser keeps it;
    each answer is ``(status, body)``."""

    def __init__(self, port):
        self.port = port
        self.cookie = None

    def get(self, path):
        return self.ask("GET", path)

    def post(self, path, body):
        return self.ask("POST", path, body)

    def ask(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Origin": "http://127.0.0.1:%d" % self.port}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.cookie:
            headers["Cookie"] = self.cookie
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers=headers)
            response = conn.getresponse()
            cookie = response.getheader("set-cookie")
            if cookie:
                self.cookie = cookie.split(";")[0]
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()


class Codes(logging.Handler):
    """The pairing codes the rig logs (headless: no screen shows them), newest last."""

    def __init__(self):
        super().__init__()
        self.codes = []

    def emit(self, record):
        found = re.search(r"pairing code (\d{3}) (\d{3})", record.getMessage())
        if found:
            self.codes.append("".join(found.groups()))


def until(condition, what, deadline_s=DEADLINE_S):
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("no %s within %g s" % (what, deadline_s))


def on_the_rig(phone, game):
    """The game the phones' server says runs now is ``game`` (Cleptómano: its snapshot)."""
    def look():
        try:
            status, state = phone.get("/api/state")
        except OSError:
            return False
        seen.append((status, state))
        return status == 200 and state.get("game", "cleptomano") == game
    seen = []
    try:
        return until(look, "%s on the rig" % game)
    except AssertionError as exc:
        raise AssertionError("%s; the rig answered %r last" % (exc, seen[-1:])) from None


@pytest.fixture
def night_run(tmp_path):
    """``cleptomano run`` on the main thread (as signals need), simulated and headless, its
    phones' server on 127.0.0.1; ``drive(phone, code)`` runs on another thread with a
    :class:`Phone` of that server and ``code()``, the newest pairing code."""
    port = free_port()
    config = tmp_path / "rig.toml"
    config.write_text('[match]\nplayers = ["Ana", "Ben"]\n[web]\nbind = ["127.0.0.1"]\n'
                      'port = %d\n' % port, "utf-8")
    rec = tmp_path / "rec"
    codes = Codes()
    logger = logging.getLogger("cleptomano")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(codes)
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def run(first, drive, duration_s=60):
        failed = []

        def driver():
            try:
                drive(Phone(port), lambda: until(lambda: codes.codes and codes.codes[-1],
                                                 "pairing code"))
            except BaseException as exc:        # the test reads it after the run
                failed.append(exc)
            finally:
                os.kill(os.getpid(), signal.SIGINT)     # Ctrl-C: the night ends

        thread = threading.Thread(target=driver, daemon=True)
        started = time.monotonic()
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(cli, "is_raspberry_pi", lambda: False)
            thread.start()
            status = cli.main(["run", "--sim", "--headless", "--config", str(config),
                               "--recordings", str(rec), "--duration-s", str(duration_s)]
                              + first)
        thread.join(DEADLINE_S)
        if failed:
            raise failed[0]
        return status, time.monotonic() - started

    yield run, rec
    logger.removeHandler(codes)
    logger.setLevel(level)
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def test_a_night_goes_from_a_game_to_cleptomano_and_on_with_the_phones_still_paired(
        night_run):
    run, rec = night_run
    seen = {}

    def drive(phone, code):
        on_the_rig(phone, "chest-heist")
        assert phone.post("/api/pair", {"code": code(), "name": "Ana"})[0] == 200
        assert phone.post("/api/game/command", {"roll": True})[0] == 200
        refused = phone.post("/api/night/game", {"game": "cleptomano"})
        assert refused[0] == 409 and "in progress" in refused[1]["error"], refused
        assert phone.post("/api/night/game", {"game": "cleptomano", "end": True})[0] == 200
        on_the_rig(phone, "cleptomano")
        assert phone.get("/api/session") == (200, {"paired": True, "name": "Ana"})
        chosen = phone.post("/api/night/game", {"game": "stolen-paintings",
                                                "players": ["Ana", "Ben", "Caro"]})
        assert chosen[0] == 200, chosen
        on_the_rig(phone, "stolen-paintings")
        # Still paired, and now Ana plays the new game from the same phone.
        started = phone.post("/api/game/command", {"start": True})
        assert started[0] == 200, started
        seen["phones"] = phone.get("/api/game")[1]["phones"]["phones"]

    # Ended by the driver's Ctrl-C, long before --duration-s (a generous bound, not a timing).
    status, wall_s = run(["--game", "chest-heist", "--players", "Ana"], drive, duration_s=600)
    assert status == 0 and wall_s < 600
    assert seen["phones"] == ["Ana"]
    chest, = rec.glob("chest-heist-*.jsonl")
    match, = rec.glob("match-*.jsonl")
    paintings, = rec.glob("stolen-paintings-*.jsonl")
    assert replay_file(chest)["over"] is False             # ended from the phone, unfinished
    assert replay_file(match)["players"] == ["Ana", "Ben"]
    assert replay_file(paintings)["players"] == ["Ana", "Ben", "Caro"]


def test_a_signal_during_a_switch_stops_the_whole_night_at_once(night_run, monkeypatch):
    run, rec = night_run
    switching = Night.switching

    def interrupted(self, status):             # Ctrl-C lands between the two games
        switching(self, status)
        os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(Night, "switching", interrupted)

    def drive(phone, code):
        on_the_rig(phone, "stop-thief")
        assert phone.post("/api/pair", {"code": code(), "name": "Ben"})[0] == 200
        assert phone.post("/api/night/game", {"game": "canine", "players": ["Ana", "Ben"],
                                              "end": True})[0] == 200

    status, wall_s = run(["--game", "stop-thief", "--players", "Ana,Ben"], drive, duration_s=600)
    assert status == 0 and wall_s < 600               # the signal ended it, not the duration
    thief, = rec.glob("stop-thief-*.jsonl")
    assert replay_file(thief)["players"] == ["Ana", "Ben"]
    assert not list(rec.glob("canine-*.jsonl"))             # the next game never began


def test_systemd_hears_the_night_as_one_service_its_watchdog_fed_across_the_switch(
        night_run, monkeypatch):
    run, rec = night_run
    short = tempfile.mkdtemp(prefix="sd")
    address = os.path.join(short, "notify.sock")
    systemd = Listener(address)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "2000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))

    def drive(phone, code):
        on_the_rig(phone, "chest-heist")
        assert phone.post("/api/pair", {"code": code(), "name": "Ana"})[0] == 200
        assert phone.post("/api/night/game", {"game": "canine", "players": ["Ana", "Ben"],
                                              "end": True})[0] == 200
        on_the_rig(phone, "canine")

    try:
        status, _ = run(["--game", "chest-heist", "--players", "Ana"], drive)
        told = [field for message in systemd.pending() for field in message]
    finally:
        systemd.sock.close()
        shutil.rmtree(short, ignore_errors=True)
    assert status == 0
    ready = [i for i, field in enumerate(told) if field == "READY=1"]
    switching = told.index("STATUS=switching to canine, as Ana chose")
    assert len(ready) == 2 and ready[0] < switching < ready[1]     # ready again after it
    assert told[switching - 1] == "WATCHDOG=1"                     # fed as the switch begins
    assert told.count("STOPPING=1") == 1 and told[-1] == "STOPPING=1"   # once, at the end


def test_duration_s_bounds_the_whole_night_not_each_game(night_run):
    run, rec = night_run

    def closed():
        try:
            Phone(phone_port[0]).get("/api/state")
        except OSError:
            return True
        return False

    phone_port = []

    def drive(phone, code):
        phone_port.append(phone.port)
        on_the_rig(phone, "chest-heist")
        assert phone.post("/api/pair", {"code": code(), "name": "Ana"})[0] == 200
        assert phone.post("/api/night/game", {"game": "canine", "players": ["Ana", "Ben"],
                                              "end": True})[0] == 200
        on_the_rig(phone, "canine")
        until(closed, "the night's end")        # --duration-s: nobody stops it

    status, wall_s = run(["--game", "chest-heist", "--players", "Ana"], drive, duration_s=3)
    assert status == 0 and wall_s >= 3                 # not before its time
    canine, = rec.glob("canine-*.jsonl")
    assert replay_file(canine)["players"] == ["Ana", "Ben"]


def test_the_nights_server_answers_503_until_its_first_game_is_served(tmp_path):
    board = Switchboard(load_config(None).web, Pairing())
    answer = TestClient(board, base_url=BASE).get("/api/state")
    assert answer.status_code == 503 and "starting its first game" in answer.json()["error"]
    face = WebFace(load_config(None).web, tmp_path, pairing=board.pairing,
                   static_dir=static_dir(tmp_path))
    board.serve(face)
    assert TestClient(board, base_url=BASE).get("/").status_code == 200


def test_a_signal_that_lands_inside_a_wait_on_the_nights_event_does_not_hang(monkeypatch):
    """A signal handler runs on the main thread between two of its steps, maybe inside
    ``Event.wait`` while it holds the event's lock: the handler must not take that lock
    itself.  Here the lock is held, as there, by the thread that runs the handler."""
    from rig import cli
    installed = {}
    monkeypatch.setattr(cli.signal, "signal", lambda sig, handler: installed.update({sig: handler}))
    night = Night()
    leg = night.leg()
    handler = cli.on_signals(night.stop_all)
    assert installed == {signal.SIGINT: handler, signal.SIGTERM: handler}
    returned = threading.Event()

    def main_thread_inside_wait():
        with leg._cond:                 # what Event.wait holds when the signal lands
            handler(signal.SIGINT, None)
            returned.set()

    inside = threading.Thread(target=main_thread_inside_wait, daemon=True)
    inside.start()
    inside.join(5.0)
    assert returned.is_set(), "the signal handler waited for the lock its own thread holds"
    assert night.stopped.wait(5.0) and leg.wait(5.0)


def test_a_leg_begun_right_after_a_signal_is_over_before_it_starts(monkeypatch):
    """The handler's own flag: the main thread's next leg is over however late the signal's
    thread runs stop_all (issue 27: beside another suite the next game began and made its
    recording)."""
    from rig import cli
    monkeypatch.setattr(cli.signal, "signal", lambda sig, handler: None)
    night = Night()
    night.leg()
    late = threading.Event()

    def stop_all_late():
        late.wait(5.0)
        night.stop_all()
    handler = cli.on_signals(stop_all_late, night.signalled)
    handler(signal.SIGINT, None)            # its thread has not run stop_all yet
    assert night.stopping() and not night.stopped.is_set()
    assert night.leg().is_set() and night.take() is None
    late.set()
    assert night.stopped.wait(5.0)
