"""Issue 30's pairing traps, each through the phones' HTTP API (docs/games/phones.md): the code
typed with its space, a seat picked among the match's players, a spectator, "Leave", a lost
cookie, a name in the table's language, the screen's key that unpairs one seat, and the
pairings that outlive a restart for the night and no longer."""

import json

from starlette.testclient import TestClient

from rig.core.names import seat_key
from rig.shell.config import load_config
from rig.web.face import WebFace
from rig.web.pairing import NIGHT_S, Pairing

import pytest

BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}
CODE = "980219"


class Clock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now


class Host:
    """The host the face asks for the match's players (nothing else is needed here)."""
    players = ("José", "Amélie", "Ben")


def make_face(tmp_path, store=None, wall=None):
    static = tmp_path / "static"
    static.mkdir(exist_ok=True)
    (static / "index.html").write_text("<!doctype html><title>rig</title>", "utf-8")
    pairing = Pairing(randbelow=lambda n: int(CODE), store=store, wall=wall or Clock())
    face = WebFace(load_config(None).web, tmp_path / "recordings", pairing=pairing,
                   static_dir=static)
    face.rig = Host()
    return face


def phone(face, address="10.0.0.2"):
    return TestClient(face.app, base_url=BASE, client=(address, 50000))


def pair(client, name, code=CODE):
    return client.post("/api/pair", json={"code": code, "name": name}, headers=ORIGIN)


@pytest.fixture
def face(tmp_path):
    return make_face(tmp_path)


def test_the_code_typed_with_its_space_pairs(face):
    # The screen shows "980 219"; typed so, it pairs (it was a 400 "not a pairing code").
    answer = pair(phone(face), "José", code="980 219")
    assert answer.status_code == 200, answer.text
    # Still six digits: anything else is refused as before.
    assert pair(phone(face, "10.0.0.3"), "Ben", code="980 21").status_code == 400
    assert pair(phone(face, "10.0.0.3"), "Ben", code="980\n219").status_code == 400


def test_the_phone_page_takes_the_code_with_its_space():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    html = (root / "rig/games/cleptomano/phone.html").read_text("utf-8")
    frame = (root / "rig/web/static/games/frame.html").read_text("utf-8")
    for page in (html, frame):
        assert 'maxlength="6"' not in page.split('id="pair-code"')[1].split(">")[0]


def test_seats_list_the_match_players_and_which_are_free(face):
    a = phone(face)
    seats = a.get("/api/seats").json()
    assert seats.pop("boot") == face.pairing.boot
    assert seats == {
        "seats": [{"name": "José", "free": True}, {"name": "Amélie", "free": True},
                  {"name": "Ben", "free": True}],
        "paired": False, "name": None, "seat": None}
    assert pair(a, "José").status_code == 200
    seats = phone(face, "10.0.0.9").get("/api/seats").json()
    assert seats["seats"][0] == {"name": "José", "free": False}
    assert a.get("/api/seats").json()["seat"] == "José"


def test_a_phone_named_in_spanish_sits_at_its_players_seat(face):
    # "Teléfono de José" (the placeholder invited it) held no seat: its commands were refused
    # and "Jose" was let in at José's seat beside it.
    a = phone(face)
    assert pair(a, "Teléfono de José").status_code == 200
    assert a.get("/api/seats").json()["seat"] == "José"
    assert pair(phone(face, "10.0.0.3"), "Jose").status_code == 409
    for name in ("Celular de José", "Téléphone de José", "Telefonul lui José"):
        assert seat_key(name) == seat_key("José")


def test_the_same_name_without_its_accent_is_the_same_seat(face):
    assert pair(phone(face), "José").status_code == 200
    answer = pair(phone(face, "10.0.0.3"), "Jose")
    assert answer.status_code == 409 and "José" in answer.json()["error"]


def test_a_lost_cookie_takes_its_own_seat_back_and_nobody_elses(face):
    first = phone(face)
    assert pair(first, "José").status_code == 200
    again = phone(face)                 # the same phone, its cookie lost
    assert pair(again, "José").status_code == 200
    assert first.get("/api/session").json()["paired"] is False      # the old session ended
    assert face.pairing.view().phones == ("José",)
    # Another device is still refused: one seat, one phone.
    assert pair(phone(face, "10.0.0.7"), "José").status_code == 409


def test_a_paired_phone_moves_seat_without_the_code_and_not_onto_a_taken_one(face):
    a, b = phone(face), phone(face, "10.0.0.3")
    assert pair(a, "José").status_code == 200
    assert pair(b, "Ben").status_code == 200
    answer = a.post("/api/seat", json={"name": "Amélie"}, headers=ORIGIN)
    assert answer.status_code == 200 and answer.json()["seat"] == "Amélie"
    assert b.post("/api/seat", json={"name": "amelie"}, headers=ORIGIN).status_code == 409
    assert phone(face, "10.0.0.4").post("/api/seat", json={"name": "José"},
                                        headers=ORIGIN).status_code == 401
    # A name that is no player's: a spectator, paired, at no seat.
    answer = b.post("/api/seat", json={"name": "Caro"}, headers=ORIGIN)
    assert answer.status_code == 200 and answer.json()["seat"] is None
    assert b.post("/api/seat", json={"seat": "Ben"}, headers=ORIGIN).status_code == 400


def test_leave_frees_the_seat_for_another_phone(face):
    a = phone(face)
    assert pair(a, "José").status_code == 200
    assert a.post("/api/unpair", headers=ORIGIN).status_code == 200
    assert pair(phone(face, "10.0.0.3"), "José").status_code == 200


def test_the_screens_key_unpairs_one_seat(face):
    a, b = phone(face), phone(face, "10.0.0.3")
    pair(a, "José")
    pair(b, "Ben")
    assert face.pairing.unpair_named("Caro") is False
    assert face.pairing.unpair_named("José") is True
    assert a.get("/api/session").json()["paired"] is False
    assert b.get("/api/session").json()["paired"] is True


def test_pairings_outlive_a_restart_for_the_night_and_no_longer(tmp_path):
    store = tmp_path / "phones.json"
    wall = Clock()
    face = make_face(tmp_path, store, wall)
    a = phone(face)
    assert pair(a, "José").status_code == 200
    cookie = a.cookies.get("cleptomano_session")
    # The file keeps no token: only its hash.
    assert cookie not in store.read_text("utf-8")
    assert oct(store.stat().st_mode & 0o777) == "0o600"
    # A restart: a new face, the same store; the phone's next tap works (was a 401).
    restarted = make_face(tmp_path, store, wall)
    assert restarted.pairing.boot != face.pairing.boot      # the phones see it restarted
    b = phone(restarted)
    b.cookies.set("cleptomano_session", cookie)
    assert b.get("/api/seats").json()["seat"] == "José"
    assert pair(phone(restarted, "10.0.0.3"), "José").status_code == 409
    # The night is over: the pairing has expired, and the seat is free.
    wall.now += NIGHT_S + 1
    assert b.get("/api/session").json()["paired"] is False
    assert pair(phone(restarted, "10.0.0.3"), "José").status_code == 200
    after = make_face(tmp_path, store, Clock(wall.now))
    assert after.pairing.view().phones == ("José",)


def test_an_unreadable_store_pairs_everyone_again(tmp_path, caplog):
    store = tmp_path / "phones.json"
    store.write_text("{not json", "utf-8")
    face = make_face(tmp_path, store)
    assert face.pairing.view().phones == ()
    assert "unreadable" in caplog.text
    store.write_text(json.dumps({"phones": [{"key": "x", "name": "\u202e", "until": 9e12},
                                            "junk"]}), "utf-8")
    assert make_face(tmp_path, store).pairing.view().phones == ()


def test_the_screens_qr_carries_the_code_and_no_phone_ever_reads_it():
    from rig.core.phones import PhonesView, pair_link, public
    view = PhonesView("http://192.168.1.20:8080/", "980219", ("José",))
    assert pair_link(view) == "http://192.168.1.20:8080/?pair=980219"
    assert pair_link(public(view)) == "http://192.168.1.20:8080/"
    assert pair_link(PhonesView("http://x/", "980219", locked_s=30.0)) == "http://x/"
    assert pair_link(PhonesView("", "980219")) == ""


def test_the_qr_drawn_on_the_screen_is_the_link_with_the_code(monkeypatch):
    import pygame
    from rig.core.phones import PhonesView
    from rig.draw import phones as drawing
    drawn = []
    monkeypatch.setattr(drawing, "draw_qr", lambda surface, text, box: drawn.append(text))
    pygame.init()
    surface = pygame.Surface((800, 200))
    drawing.draw_phones(surface, PhonesView("http://192.168.1.20:8080/", "980219"),
                        (0, 0, 800, 200))
    assert drawn == ["http://192.168.1.20:8080/?pair=980219"]


def test_the_screens_keys_unpair_one_seat_by_its_number():
    from types import SimpleNamespace
    from rig.core.phones import PhonesView, RevokePhones
    from rig.games.cleptomano.keys import KeyMapper
    from rig.words import english
    keys = KeyMapper(None, ("Ana", "Ben"))
    keys._board = SimpleNamespace(phones=PhonesView("http://x/", "980219", ("José", "Ben")))
    command, prompt = keys.feed("f8")
    assert command is None and "1 José, 2 Ben" in english(prompt)
    assert keys.feed("2") == (RevokePhones(name="Ben"), None)
    keys.feed("f8")
    assert keys.feed("7")[0] is None                     # no seventh phone: still asking
    assert keys.feed("return") == (RevokePhones(), None)  # Enter: every phone, as before


def test_a_seat_unpaired_from_the_screen_is_free_and_said(tmp_path):
    from rig.core.phones import RevokePhones
    from sim.harness import Harness
    face = make_face(tmp_path)
    records = tmp_path / "records"
    table = Harness(recordings_dir=records, display=face, phones=face.pairing,
                    players=["José", "Amélie", "Ben"])
    table.start()
    try:
        a, b = phone(face), phone(face, "10.0.0.3")
        pair(a, "José")
        pair(b, "Ben")
        table.submit(RevokePhones(name="José"))
        table.advance(0.2)
        assert table.said("José's phone unpaired")
        assert a.get("/api/session").json()["paired"] is False
        assert b.get("/api/session").json()["paired"] is True
        assert pair(phone(face, "10.0.0.4"), "José").status_code == 200
    finally:
        table.stop()


def test_the_code_is_on_the_screen_for_a_new_game_and_tabs_panel_leaves_the_scores():
    from rig.core.gamekit import GameScreen
    from rig.core.phones import PhonesView
    from rig.draw.keymodes import Mode
    mode = Mode()
    fresh = GameScreen("stop-thief", {}, players=("José",), phones=PhonesView("http://x/", "1"))
    mode.observe(fresh)
    assert mode.phones_shown()                  # nobody paired: the code without Tab
    assert mode.shown(fresh, None)[1].phones is not None
    seated = GameScreen("stop-thief", {}, phones=PhonesView("http://x/", "1", ("José",)))
    mode.observe(seated)
    assert not mode.phones_shown()              # a phone joined: the game's own screen
    mode.feed("tab")
    assert mode.phones_shown()                  # Tab shows it again
    over = GameScreen("stop-thief", {}, over=True,
                      phones=PhonesView("http://x/", "1", ("José",)))
    mode.observe(over)
    assert not mode.phones_shown()              # the end: the scores, not Tab's panel
    assert mode.shown(over, None)[1].phones is None
