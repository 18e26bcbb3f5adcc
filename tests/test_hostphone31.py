"""Issue 31's host phone (docs/games/phones.md "The table's host phone"): the table makes one paired
phone its host at the screen (F7, then its number), the host alone reads the audits (GET
/api/audits, /api/audits.csv) and opens service mode (POST /api/service), and every attack of
docs/dev/security.md is played against those routes: a phone that is not host, an unpaired
client, a forged or replayed cookie, a foreign Host or Origin, a huge or malformed ``since``, a
flood.  Through the real rig on the simulated table in virtual time (the referee's loop, its
key handling, its pairing store) and Starlette's test client on the real app."""

import json
import threading
from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st
from starlette.testclient import TestClient

from rig.core.errors import RulesError
from rig.core.msg import Msg
from rig.core.phones import MakeHost, PhonesView, screen_lines
from rig.shell import audits as shell_audits
from rig.shell.config import load_config
from rig.shell.faces import Faces, MemoryDisplay
from rig.web.face import WebFace
from rig.web.pairing import NIGHT_S, Pairing
from rig.words import Words, english
from sim.harness import Harness
from sim.script import demo_match

BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}
CODE = "980219"
PLAYERS = ["Ana", "Ben", "Caro"]


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


def make_face(tmp_path, store=None, wall=None, recordings=None):
    static = tmp_path / "static"
    static.mkdir(exist_ok=True)
    (static / "index.html").write_text("<!doctype html><title>rig</title>", "utf-8")
    pairing = Pairing("http://192.168.1.20:8080/", randbelow=lambda n: int(CODE), store=store,
                      wall=wall or Clock())
    return WebFace(load_config(None).web, recordings or tmp_path / "recordings",
                   pairing=pairing, static_dir=static)


def phone(face, address="10.0.0.2", lang="en"):
    return TestClient(face.app, base_url=BASE, client=(address, 50000),
                      headers={"Accept-Language": lang})


def pair(client, name, code=CODE):
    answer = client.post("/api/pair", json={"code": code, "name": name}, headers=ORIGIN)
    assert answer.status_code == 200, answer.text
    return client


def error_of(answer):
    body = answer.json()
    assert set(body) == {"error"}, body
    return body["error"]


@pytest.fixture
def table(tmp_path):
    """The rig on the simulated table, its screen (a MemoryDisplay the keys type at) and its
    phones' face, with the demo match's recording in its recordings folder; yields
    ``(table, screen, face)``."""
    records = tmp_path / "recordings"
    records.mkdir()
    demo_match().write(records / "match-20261201-200000.jsonl")
    face = make_face(tmp_path, recordings=records)
    screen = MemoryDisplay()
    harness = Harness(recordings_dir=records, display=Faces(screen, face), phones=face.pairing,
                      players=PLAYERS)
    harness.start()
    face.rig = harness.rig
    try:
        yield harness, screen, face
    finally:
        harness.stop()


def keys_at(screen, *names):
    """Type ``names`` at the rig's screen with Cleptómano's own key mode (the snapshot it
    reads is the screen's newest): the command typed, if any."""
    from rig.games.cleptomano.keys import KeyMapper
    keys = KeyMapper(None, PLAYERS)
    keys.observe(screen.board)
    command = None
    for name in names:
        command, _ = keys.feed(name)
    if command is not None:
        screen.type(command)
    return command


def make_host(table, screen, number):
    harness, _, _ = table if isinstance(table, tuple) else (table, None, None)
    command = keys_at(screen, "f7", str(number))
    harness.advance(0.2)
    return command


# --- the host, made at the screen ------------------------------------------------------------

def test_f7_then_a_number_makes_that_phone_host_said_and_shown_on_the_screen(table):
    harness, screen, face = table
    ana, ben = pair(phone(face), "Ana"), pair(phone(face, "10.0.0.3"), "Ben")
    harness.advance(0.2)
    assert make_host(harness, screen, 2) == MakeHost(name="Ben")
    assert harness.said("The table's host phone is now Ben: it reads the audits")
    assert screen.board.phones.host == "Ben"
    assert english(screen_lines(screen.board.phones)[3]) == "Host: Ben · paired: Ana and Ben"
    # The phones see which phone is host in every snapshot (the code never).
    state = ana.get("/api/state").json()
    assert state["phones"]["host"] == "Ben" and state["phones"]["code"] is None
    assert ben.get("/api/audits").status_code == 200
    assert ana.get("/api/audits").status_code == 403
    # One host at a time: another number moves it; 0: no host.
    make_host(harness, screen, 1)
    assert screen.board.phones.host == "Ana"
    assert ben.get("/api/audits").status_code == 403 and ana.get("/api/audits").status_code == 200
    assert make_host(harness, screen, 0) == MakeHost()
    assert harness.said("No phone is the table's host now")
    assert screen.board.phones.host is None
    assert ana.get("/api/audits").status_code == 403


def test_the_keys_prompt_lists_the_phones_and_waits_for_a_real_number():
    from rig.draw.keymodes import Mode
    from rig.games.cleptomano.keys import KeyMapper
    view = PhonesView("http://x/", CODE, ("José", "Ben"))
    clepto = KeyMapper(None, ("Ana", "Ben"))
    clepto._board = SimpleNamespace(phones=view)
    other = Mode()
    other.observe(SimpleNamespace(phones=view, players=(), over=False))
    for keys in (clepto, other):
        command, prompt = keys.feed("f7")
        assert command is None and "HOST PHONE: 1 José, 2 Ben; 0: NO HOST" in english(prompt)
        assert keys.feed("7")[0] is None                # no seventh phone: still asking
        assert keys.feed("1") == (MakeHost(name="José"), None)
        keys.feed("f7")
        assert keys.feed("escape") == (None, None)      # cancelled: nothing made
        keys.feed("f7")
        assert keys.feed("0") == (MakeHost(), None)
    # Without a phone paired the prompt says so.
    clepto._board = SimpleNamespace(phones=PhonesView("http://x/", CODE))
    assert "no phone is paired yet" in english(clepto.feed("f7")[1])


def test_f7_clashes_with_no_key_of_any_game():
    from rig.draw import keymodes
    from rig.games import games
    from rig.display.game_keys import mode_for
    from rig.games.cleptomano.keys import DEFAULT_BINDINGS
    assert keymodes.HOST_KEY not in {k for keys in DEFAULT_BINDINGS.values() for k in keys}
    assert keymodes.HOST_KEY not in (keymodes.HELP_KEY, keymodes.PHONES_KEY, *keymodes.CANCEL,
                                     *keymodes.CONFIRM)
    for game in games():
        mode = mode_for(game.name)
        if mode is not None and hasattr(mode, "KEYS"):
            assert keymodes.HOST_KEY not in mode.KEYS, game.name


def test_the_host_survives_a_restart_and_ends_with_its_session(tmp_path):
    store, wall = tmp_path / "phones.json", Clock()
    face = make_face(tmp_path, store=store, wall=wall)
    ana = pair(phone(face), "Ana")
    pair(phone(face, "10.0.0.3"), "Ben")
    assert face.pairing.make_host("Ana") is True
    assert face.pairing.make_host("Zoe") is False           # no phone paired as Zoe
    saved = json.loads(store.read_text("utf-8"))
    assert saved["host"] in {e["key"] for e in saved["phones"]}  # a hash, never the token
    assert ana.cookies.get("cleptomano_session") not in store.read_text("utf-8")
    # A restart: the same phone is host again, its cookie reads the audits.
    again = make_face(tmp_path, store=store, wall=wall)
    assert again.pairing.view().host == "Ana"
    back = phone(again)
    back.cookies.set("cleptomano_session", ana.cookies.get("cleptomano_session"))
    assert back.get("/api/audits").status_code == 200
    # A move of seat keeps it (the same phone); Leave ends it.
    assert back.post("/api/seat", json={"name": "Caro"}, headers=ORIGIN).status_code == 200
    assert again.pairing.view().host == "Caro"
    back.post("/api/unpair", headers=ORIGIN)
    assert again.pairing.view().host is None
    assert json.loads(store.read_text("utf-8"))["host"] is None


@pytest.mark.parametrize("ending", ["unpair_named", "revoke", "expired", "lost_cookie"])
def test_the_host_ends_when_its_phone_is_unpaired_or_leaves(tmp_path, ending):
    wall = Clock()
    face = make_face(tmp_path, wall=wall)
    ana = pair(phone(face), "Ana")
    face.pairing.make_host("Ana")
    if ending == "unpair_named":
        face.pairing.unpair_named("Ana")
    elif ending == "revoke":
        face.pairing.revoke()
    elif ending == "expired":
        wall.now += NIGHT_S + 1
    else:                                   # the same phone pairs again: a new session
        ana.cookies.clear()
        pair(ana, "Ana")
    assert face.pairing.view().host is None and face.pairing.host is None
    assert ana.get("/api/audits").status_code in (401, 403)


def test_a_store_naming_a_host_that_is_no_session_makes_no_host(tmp_path):
    store = tmp_path / "phones.json"
    store.write_text(json.dumps({"phones": [], "host": "ab" * 32}), "utf-8")
    assert make_face(tmp_path, store=store).pairing.view().host is None
    store.write_text(json.dumps({"phones": [], "host": ["not", "a", "key"]}), "utf-8")
    assert make_face(tmp_path, store=store).pairing.view().host is None


# --- the audits, for the host alone ----------------------------------------------------------

def test_the_host_reads_the_demo_matchs_audits_as_the_command_line_prints_them(table):
    harness, screen, face = table
    ana = pair(phone(face), "Ana")
    harness.advance(0.2)
    make_host(harness, screen, 1)
    got = ana.get("/api/audits")
    assert got.status_code == 200
    assert got.json() == shell_audits.audits(face.recordings_dir)
    body = got.json()
    assert body["matches"]["cleptomano"]["started"] >= 1
    assert body["touches"]["laser.4"]["touches"] == 1
    assert body["nights"]["2026-12-01"] == 1
    # since: the nights from that day on
    later = ana.get("/api/audits?since=2026-12-02").json()
    assert later["since"] == "2026-12-02" and "2026-12-01" not in later["nights"]
    # The CSV: a download, the command line's CSV.
    csv = ana.get("/api/audits.csv?since=2026-12-01")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert csv.headers["content-disposition"] == 'attachment; filename="audits-2026-12-01.csv"'
    assert csv.text == shell_audits.to_csv(shell_audits.audits(
        face.recordings_dir, shell_audits.parse_since("2026-12-01")))
    assert "touches,laser.4,touches,1" in csv.text


def test_a_phone_that_is_not_host_reads_nothing_and_is_told_how(table):
    harness, screen, face = table
    ana, ben = pair(phone(face), "Ana"), pair(phone(face, "10.0.0.3", "es"), "Ben")
    nobody = phone(face, "10.0.0.9")
    harness.advance(0.2)
    answer = ana.get("/api/audits")
    assert answer.status_code == 403
    assert "F7" in error_of(answer) and "Ana is not the table's host" in error_of(answer)
    make_host(harness, screen, 1)
    for client, path in ((ben, "/api/audits"), (ben, "/api/audits.csv"),
                         (nobody, "/api/audits"), (nobody, "/api/audits.csv?since=2026-12-01")):
        answer = client.get(path)
        assert answer.status_code in (401, 403)
        text = error_of(answer)
        assert "laser" not in answer.text and "cleptomano" not in answer.text.lower()
    said = error_of(ben.get("/api/audits"))
    assert said == Words("es").say("rig.web.not_the_host", name="Ben", host="Ana")
    assert error_of(nobody.get("/api/audits")) == english(Msg("rig.web.not_paired"))


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "2026-02-30", "20261201",
                                 "2026-12-01T00:00", " 2026-12-01", "x" * 10000, "٢٠٢٦-١٢-٠١"])
def test_a_malformed_or_huge_since_is_one_error_naming_it(table, bad):
    harness, screen, face = table
    ana = pair(phone(face), "Ana")
    harness.advance(0.2)
    make_host(harness, screen, 1)
    for path in ("/api/audits", "/api/audits.csv"):
        answer = ana.get(path, params={"since": bad})
        assert answer.status_code == 400
        text = error_of(answer)
        assert "YYYY-MM-DD" in text and "2026-12-01" in text and len(text) < 300
        assert repr(bad)[:20] in text


def test_since_given_twice_is_refused_not_guessed(table):
    harness, screen, face = table
    ana = pair(phone(face), "Ana")
    harness.advance(0.2)
    make_host(harness, screen, 1)
    assert ana.get("/api/audits?since=2026-12-01&since=2026-12-02").status_code == 400


def test_fuzz_since_is_a_day_or_one_error(tmp_path):
    face = make_face(tmp_path)
    ana = pair(phone(face), "Ana")
    face.pairing.make_host("Ana")

    @settings(max_examples=25, deadline=None)
    @given(since=st.text(max_size=40))
    def check(since):
        answer = ana.get("/api/audits", params={"since": since})
        assert answer.status_code in (200, 400)
        if answer.status_code == 400:
            assert "YYYY-MM-DD" in error_of(answer)

    check()


# --- service mode, from the host phone --------------------------------------------------------

def test_service_mode_opens_by_the_host_phones_name_and_answers_503_without_one(tmp_path):
    face = make_face(tmp_path)
    ana, ben = pair(phone(face), "Ana"), pair(phone(face, "10.0.0.3"), "Ben")
    face.pairing.make_host("Ana")
    answer = ana.post("/api/service", json={}, headers=ORIGIN)
    assert answer.status_code == 503
    assert "open it at the rig's screen" in error_of(answer)
    opened = []
    face.service = opened.append
    assert ana.post("/api/service", headers=ORIGIN).json() == {"service": True, "by": "Ana"}
    assert ben.post("/api/service", json={}, headers=ORIGIN).status_code == 403
    assert opened == ["Ana"]


def test_service_mode_is_the_hosts_own_once_it_has_one(tmp_path):
    face = make_face(tmp_path)
    ana = pair(phone(face), "Ana")
    face.pairing.make_host("Ana")
    opened = []
    face.rig = SimpleNamespace(players=(), open_service=opened.append)
    assert ana.post("/api/service", json={}, headers=ORIGIN).status_code == 200
    assert opened == ["Ana"]


def test_a_refusal_of_the_rig_is_409_in_the_phones_words(tmp_path):
    face = make_face(tmp_path)
    ana = pair(phone(face, lang="fr"), "Ana")
    face.pairing.make_host("Ana")

    def refuse(by):
        raise RulesError(Msg("rig.web.service_refused"))

    face.service = refuse
    answer = ana.post("/api/service", json={}, headers=ORIGIN)
    assert answer.status_code == 409
    assert error_of(answer) == Words("fr").say("rig.web.service_refused")


@pytest.mark.parametrize("body", ['{"open": true}', "[]", "nope", '"x"'])
def test_service_mode_takes_no_parameters(tmp_path, body):
    face = make_face(tmp_path)
    ana = pair(phone(face), "Ana")
    face.pairing.make_host("Ana")
    opened = []
    face.service = opened.append
    answer = ana.post("/api/service", content=body, headers=dict(ORIGIN, **{
        "Content-Type": "application/json"}))
    assert answer.status_code == 400 and opened == []


# --- the attacks (docs/dev/security.md) ---------------------------------------------------------

def host_face(tmp_path):
    face = make_face(tmp_path)
    ana = pair(phone(face), "Ana")
    face.pairing.make_host("Ana")
    opened = []
    face.service = opened.append
    return face, ana, opened


def test_a_forged_cookie_reads_nothing(tmp_path):
    face, ana, opened = host_face(tmp_path)
    forger = phone(face, "10.0.0.66")
    token = ana.cookies.get("cleptomano_session")
    for forged in ("x" * 43, token[:-1] + ("A" if token[-1] != "A" else "B"), token.upper(),
                   "", "%00", token + token):
        forger.cookies.set("cleptomano_session", forged)
        assert forger.get("/api/audits").status_code == 401
        assert forger.post("/api/service", json={}, headers=ORIGIN).status_code == 401
    assert opened == []


def test_a_replayed_cookie_of_a_host_that_left_reads_nothing(tmp_path):
    face, ana, opened = host_face(tmp_path)
    token = ana.cookies.get("cleptomano_session")
    ana.post("/api/unpair", headers=ORIGIN)
    thief = phone(face, "10.0.0.66")
    thief.cookies.set("cleptomano_session", token)
    assert thief.get("/api/audits").status_code == 401
    assert thief.post("/api/service", json={}, headers=ORIGIN).status_code == 401
    # Ana pairs again at her seat: a new session, not host until the table says so.
    pair(phone(face, "10.0.0.2"), "Ana")
    thief.cookies.set("cleptomano_session", token)
    assert thief.get("/api/audits.csv").status_code == 401
    assert opened == []


def test_a_foreign_host_or_origin_is_refused_before_any_route(tmp_path):
    face, ana, opened = host_face(tmp_path)
    rebinding = ana.get("/api/audits", headers={"Host": "evil.example"})
    assert rebinding.status_code == 421 and "evil.example" in error_of(rebinding)
    cross = ana.post("/api/service", json={}, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403 and "evil.example" in error_of(cross)
    site = ana.post("/api/service", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    assert site.status_code == 403
    assert opened == []


def test_a_get_never_opens_service_mode(tmp_path):
    face, ana, opened = host_face(tmp_path)
    assert ana.get("/api/service").status_code in (404, 405)
    assert opened == []


def test_a_flood_of_requests_reads_nothing_and_the_table_referees_on(table):
    harness, screen, face = table
    ana, ben = pair(phone(face), "Ana"), pair(phone(face, "10.0.0.3"), "Ben")
    harness.advance(0.2)
    make_host(harness, screen, 1)
    strangers = [phone(face, "10.0.1.%d" % i) for i in range(6)]
    for _ in range(5):
        for client in strangers:
            assert client.get("/api/audits").status_code == 401
            assert client.post("/api/service", json={}, headers=ORIGIN).status_code == 401
        assert ben.get("/api/audits.csv").status_code == 403
    # The rig referees on: a turn starts and the host still reads the audits.
    harness.start_turn(at=harness.now + 1.0, hand_in_at=harness.now + 2.0)
    assert harness.rig.scoreboard().phase == "turn"
    assert ana.get("/api/audits").status_code == 200


def test_one_reading_at_a_time_a_second_is_told_to_try_again(tmp_path, monkeypatch):
    face, ana, _ = host_face(tmp_path)
    entered, release = threading.Event(), threading.Event()
    real = shell_audits.audits

    def slow(*args, **kwargs):
        entered.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(shell_audits, "audits", slow)
    answers = []
    first = threading.Thread(target=lambda: answers.append(ana.get("/api/audits")))
    first.start()
    assert entered.wait(30)
    second = phone(face)
    second.cookies.set("cleptomano_session", ana.cookies.get("cleptomano_session"))
    busy = second.get("/api/audits")
    release.set()
    first.join(30)
    assert busy.status_code == 429 and "try again" in error_of(busy)
    assert answers[0].status_code == 200
    assert ana.get("/api/audits").status_code == 200    # free again


def test_recordings_that_cannot_be_read_answer_503_and_the_next_reading_works(tmp_path,
                                                                            monkeypatch):
    face, ana, _ = host_face(tmp_path)
    real = shell_audits.audits

    def broken(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(shell_audits, "audits", broken)
    answer = ana.get("/api/audits")
    assert answer.status_code == 503 and "cleptomano audits" in error_of(answer)
    assert "Permission" not in answer.text                  # nothing of the rig's files
    monkeypatch.setattr(shell_audits, "audits", real)
    assert ana.get("/api/audits").status_code == 200        # the lock was let go


@pytest.mark.parametrize("game", ["stop-thief", "canine", "stolen-paintings", "chest-heist"])
def test_f7_makes_a_host_in_the_other_games_too(tmp_path, game):
    from sim.gamehost import Night
    night = Night(tmp_path, game, ["Ana", "Ben"])
    try:
        night.phone("Ana")
        ben = night.phone("Ben")
        night.clock.advance(0.2)
        night.screen.press("f7", "2")          # the screen's own keys, the game's key mode
        night.clock.advance(0.2)
        assert night.pairing.view().host == "Ben"
        assert night.public()["phones"]["host"] == "Ben"
        assert ben.get("/api/audits").status_code == 200
        assert night.phones["Ana"].get("/api/audits").status_code == 403
    finally:
        night.close()
