"""Issue 31: the referee's overrides, logged with who made them and why.

Every undo, void, correction, haul count and clamp is recorded (a ``reason`` on its line, or a
``why`` line after it), listed by ``replay --overrides`` and ``history``, counted by the audits
(docs/contracts/recording.md, replay.md, cli.md); the guard picks the reason with one digit at
the screen, a phone sends it in its command's body (docs/contracts/http.md)."""

import csv
import io
import json
from dataclasses import replace
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from starlette.testclient import TestClient

from rig import cli
from rig.core.errors import InvalidChoice, RecordingError
from rig.display.face import KeyedDisplay
from rig.games.cleptomano.game import GAME
from rig.games.cleptomano.keys import KeyMapper
from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import overrides as ov
from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules.audit import audit
from rig.games.cleptomano.rules.replay import replay_lines
from rig.games.cleptomano.rules.view import Scoreboard
from rig.shell import storage
from rig.words import english
from sim.harness import Harness, Recording

PLAYERS = ("Ana", "Ben", "Caro")


def night():
    """Two rounds' worth of overrides: a touch undone while Ana's turn runs (the keys, a reason
    picked after), her haul counted by a phone past what the sensors allow (a typed reason: a
    haul and a clamp), Ben caught by a third touch the guard takes back (void, misfire on the
    line), Ben's turn played again and a touch of it taken back afterwards (a correction, by a
    phone, no reason)."""
    r = Recording(PLAYERS)
    r.press(1.0)
    r.hand_in(2.0)
    r.touch(4, 3.0)
    r.line({"t": 4.0, "undo": "touch", "by": "guard"})
    r.line({"t": 4.5, "why": "sensor-fault", "by": "guard"})
    r.take_painting(1, 5.0)
    r.hand_out(6.0)
    r.press(7.0)
    r.line({"t": 8.0, "loot": {"paintings": 2, "relics": 0}, "by": "Ben's phone",
            "reason": "  she  had\tboth "})
    r.return_painting(1, 9.0)
    r.press(12.0)
    r.hand_in(13.0)
    for i, rod in enumerate((4, 5, 6)):
        r.touch(rod, 14.0 + i)
    r.hand_out(17.0)
    r.line({"t": 18.0, "undo": "touch", "by": "guard", "reason": "misfire"})
    r.press(20.0)
    r.hand_in(21.0)
    r.touch(7, 22.0)
    r.hand_out(23.0)
    r.press(24.0)
    r.line({"t": 25.0, "undo": "touch", "by": "Caro's phone"})
    r.end(30.0)
    return r


def replayed(r):
    return replay_lines(r.lines(), overrides=True)


# --- the rules: each override, with who and why -------------------------------------------------

def test_every_override_is_recorded_with_who_made_it_and_why():
    got = replayed(night())["overrides"]
    assert [(o["kind"], o["thief"], o["by"], o["reason"]) for o in got] == [
        ("undo", "Ana", "keys", "sensor-fault"),
        ("haul", "Ana", "Ben's phone", "she had both"),
        ("clamp", "Ana", "rules", "rulebook"),
        ("void", "Ben", "keys", "misfire"),
        ("correction", "Ben", "Caro's phone", "unspecified"),
    ]
    assert got[0]["laser"] == 4 and got[3]["laser"] == 6 and got[4]["laser"] == 7
    assert (got[1]["from"], got[1]["to"]) == ([1, 0], [2, 0])
    assert (got[2]["from"], got[2]["to"]) == ([2, 0], [1, 0])
    assert {o["guard"] for o in got} == {"Ben"}
    assert [o["round"] for o in got] == [1, 1, 1, 1, 1]


def test_the_replay_without_the_option_is_what_it_always_was():
    r = night()
    plain = replay_lines(r.lines())
    assert "overrides" not in plain
    assert dict(replayed(r), overrides=None) == dict(plain, overrides=None)


def test_a_reason_is_taken_only_while_its_override_is_the_last_thing_commanded():
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1, touches=1)
    r.choose(10.0, "thief", "Caro")
    r.line({"t": 11.0, "why": "other", "by": "guard"})
    with pytest.raises(RecordingError, match="no_override"):
        replay_lines(r.lines())
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1, touches=1)
    r.line({"t": 10.0, "undo": "touch"})
    r.heist(12.0)
    r.line({"t": 21.0, "why": "other"})           # a turn started since: too late
    with pytest.raises(RecordingError, match="no_override"):
        replay_lines(r.lines())


def test_a_reason_given_with_the_command_leaves_nothing_to_pick():
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1, touches=1)
    r.line({"t": 10.0, "undo": "touch", "reason": "wrong-player"})
    r.line({"t": 11.0, "why": "other"})
    with pytest.raises(RecordingError, match="no_override"):
        replay_lines(r.lines())


def test_a_confirmed_haul_that_changes_nothing_is_no_override():
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1)
    r.loot(10.0, 1, 0, by="guard")
    assert replayed(r)["overrides"] == []


# --- bad reasons: one clear error, nothing lost -------------------------------------------------

BAD = [
    (5, "not a text"),
    (["misfire"], "not a text"),
    ("", "empty reason"),
    (" \n\t ", "empty reason"),
    ("x" * (ov.MAX_REASON_CHARS + 1), "characters long"),
    ("bad\u202etext", "U+202E"),
    ("nul\x00here", "U+0000"),
    ("zero\u200bwidth", "U+200B"),
]


@pytest.mark.parametrize("value, words", BAD)
def test_a_bad_reason_is_refused_with_one_clear_error_and_the_match_is_unchanged(value, words):
    state = GAME.new_game(PLAYERS, 0)
    for item in (ev.InputChange(1.0, "button", 1), ev.InputChange(1.1, "button", 0),
                 ev.InputChange(3.0, "laser.4", 1), ev.InputChange(3.1, "laser.4", 0)):
        state, _ = GAME.step(state, item)
    before = state.copy()
    with pytest.raises(InvalidChoice, match=re.escape(words)) as caught:
        GAME.step(state, ev.UndoTouch(4.0, "Ben's phone", value))
    assert "\n" not in str(caught.value) and caught.value.msg is not None
    assert state == before and state.match.current.touches == 1
    state, _ = GAME.step(state, ev.UndoTouch(4.0, "Ben's phone"))    # the same, well given
    assert state.match.current.touches == 0


@pytest.mark.parametrize("value, words", BAD)
def test_a_bad_reason_on_a_recording_line_names_the_line(value, words):
    for obj in ({"t": 2.0, "undo": "touch", "reason": value},
                {"t": 2.0, "loot": {"paintings": 0, "relics": 0}, "reason": value},
                {"t": 2.0, "why": value}):
        with pytest.raises(RecordingError, match=re.escape(words)) as caught:
            recording.parse_item(obj, 7)
        assert "line 7" in str(caught.value) or caught.value.line == 7


@given(st.text(max_size=80))
@settings(max_examples=150, deadline=None)
def test_a_typed_reason_is_refused_or_cleaned_bounded_and_read_back_the_same(text):
    try:
        why = ov.check_reason(text)
    except InvalidChoice as exc:
        assert exc.msg is not None and "\n" not in str(exc)
        return
    assert 1 <= len(why) <= ov.MAX_REASON_CHARS and why == why.strip()
    assert ov.check_reason(why) == why
    line = recording.item_to_json(ev.UndoTouch(3.0, "Ana's phone", why))
    assert recording.parse_item(json.loads(recording.dumps(line)), 2) == \
        ev.UndoTouch(3.0, "Ana's phone", why)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_json_as_a_reason_or_a_why_is_one_recording_error_or_a_clean_reason(value):
    for obj in ({"t": 1.0, "undo": "touch", "reason": value}, {"t": 1.0, "why": value}):
        try:
            item = recording.parse_item(obj, 3)
        except RecordingError as exc:
            assert "\n" not in str(exc)
            continue
        assert item.why is None or item.why == ov.check_reason(item.why)


def test_a_why_line_reads_back_as_it_was_written():
    item = ev.Why(5.5, "rules-dispute", "guard")
    line = recording.item_to_json(item)
    assert line == {"t": 5.5, "why": "rules-dispute", "by": "guard"}
    assert recording.parse_item(line, 2) == item


# --- shown and counted: replay, history, audits ------------------------------------------------

def test_replay_history_and_audits_list_and_count_the_overrides(tmp_path, capsys):
    path = night().write(tmp_path / "match-20261207-200000.jsonl")
    assert cli.main(["replay", "--overrides", str(path)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [o["kind"] for o in shown["overrides"]] == [
        "undo", "haul", "clamp", "void", "correction"]
    assert cli.main(["replay", str(path)]) == 0
    assert "overrides" not in json.loads(capsys.readouterr().out)

    assert cli.main(["history", "--dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    said = [line.strip() for line in lines if line.startswith("    override: ")]
    assert said[0] == ("override: touch undone at 4.0 s, Ana's turn (round 1), by keys "
                       "(guard Ben), why: sensor fault")
    assert said[1].endswith("by Ben's phone (guard Ben), why: she had both")
    assert len(said) == 5 and "why: unspecified" in said[4]

    csv_path = tmp_path / "audits.csv"
    assert cli.main(["audits", "--json", "--recordings", str(tmp_path),
                     "--csv", str(csv_path)]) == 0
    got = json.loads(capsys.readouterr().out)["overrides"]
    assert got["kinds"] == {"undo": 1, "void": 1, "correction": 1, "haul": 1, "clamp": 1}
    assert got["reasons"] == {"misfire": 1, "wrong-player": 0, "sensor-fault": 1,
                              "rules-dispute": 0, "other": 0, "unspecified": 1,
                              "rulebook": 1, "typed": 1}
    assert got["by"] == {"Ben's phone": 1, "Caro's phone": 1, "keys": 2, "rules": 1}
    rows = list(csv.reader(io.StringIO(csv_path.read_text("utf-8"))))
    assert ["overrides", "void", "kinds", "1"] in rows
    assert ["overrides", "Caro's phone", "by", "1"] in rows
    assert cli.main(["audits", "--recordings", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "Overrides:" in text and "void 1" in text and "typed 1" in text


def test_the_audit_of_a_recording_counts_what_its_replay_lists():
    r = night()
    counted = audit(r.lines())["overrides"]
    assert sum(counted["kinds"].values()) == len(replayed(r)["overrides"]) == 5
    assert counted["by"]["keys"] == 2


def test_a_recording_without_overrides_counts_none():
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1)
    assert set(audit(r.lines())["overrides"]["kinds"].values()) == {0}


# --- the screen: one digit picks the reason ----------------------------------------------------

def test_the_screen_asks_why_after_an_override_and_a_digit_gives_the_reason():
    keys = KeyMapper(players=PLAYERS)
    board = Scoreboard(players=PLAYERS, reason_wanted="undo")
    keys.observe(board)
    _, shown = keys.shown(board, None)
    assert "1 misfire" in english(shown.message) and "5 other" in english(shown.message)
    command, _ = keys.feed("3")
    assert command == ev.Why(0.0, "sensor-fault", by="guard")
    keys.observe(Scoreboard(players=PLAYERS))
    assert keys.feed("3") == (None, None)           # nothing asked: a digit alone does nothing


def test_escape_leaves_the_reason_unspecified_and_the_question_goes():
    keys = KeyMapper(players=PLAYERS)
    board = Scoreboard(players=PLAYERS, reason_wanted="void")
    keys.observe(board)
    assert keys.feed("escape") == (None, None)
    assert keys.shown(board, None)[1].message is None
    assert keys.feed("1") == (None, None)
    keys.observe(Scoreboard(players=PLAYERS))
    keys.observe(board)                              # the next override asks again
    assert keys.why_asked()


def test_another_command_key_is_never_held_up_by_the_question():
    keys = KeyMapper(players=PLAYERS)
    keys.observe(Scoreboard(players=PLAYERS, reason_wanted="undo"))
    command, _ = keys.feed("u")
    assert command == ev.UndoTouch(0.0, by="guard")
    _, prompt = keys.feed("t")
    assert prompt is not None and keys.feed("2")[0] == ev.Choose(0.0, ev.Role.THIEF, "Ben")


def test_the_reason_picked_at_the_screen_keys_is_recorded_replayed_and_counted(tmp_path):
    display = KeyedDisplay()
    table = Harness(recordings_dir=tmp_path / "rec", players=PLAYERS, display=display)
    table.start()
    try:
        table.start_turn()
        table.touch("laser.5")
        table.advance(0.5)
        display.press("u")
        table.advance(0.2)
        assert table.board.reason_wanted == "undo" and table.turn.touches == 0
        display.face.show(table.board)
        assert "Why?" in english(display.face.screen()[1].message)
        display.press("2")
        table.advance(0.2)
        assert table.board.reason_wanted is None
        lines = table.recorded()
        path = table.rig.recording_path
    finally:
        table.stop()
    # The rig records the keys' commands by the turn's guard (Ben), as it always has.
    assert {"undo": "touch", "by": "Ben"}.items() <= next(
        line for line in lines if "undo" in line).items()
    assert any(line.get("why") == "wrong-player" and line.get("by") == "Ben"
               for line in lines)
    over, = storage.replay_file(path, overrides=True)["overrides"]
    assert (over["kind"], over["by"], over["guard"], over["reason"], over["laser"]) == (
        "undo", "Ben", "Ben", "wrong-player", 5)
    assert audit(storage.read_lines(path), path)["overrides"]["reasons"]["wrong-player"] == 1


# --- a phone: the reason in the command's body ------------------------------------------------

BASE = "http://127.0.0.1:8080"
ORIGIN = {"Origin": BASE}


@pytest.fixture
def phone(tmp_path):
    from rig.shell.config import load_config
    from rig.web.face import WebFace
    from rig.web.pairing import Pairing
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Cleptomano</title>", "utf-8")
    pairing = Pairing("http://192.168.1.20:8080/", randbelow=lambda n: 424242)
    records = tmp_path / "recordings"
    face = WebFace(load_config(None).web, records, pairing=pairing, static_dir=static)
    table = Harness(recordings_dir=records, display=face, phones=pairing, players=PLAYERS)
    table.start()
    face.rig = table.rig
    try:
        with TestClient(face.app, base_url=BASE) as client:
            answer = client.post("/api/pair", json={"code": face.pairing.view().code,
                                                    "name": "Ben's phone"}, headers=ORIGIN)
            assert answer.status_code == 200, answer.text
            yield table, client
    finally:
        table.stop()


def send(client, obj):
    return client.post("/api/command", json=obj, headers=ORIGIN)


def test_a_phone_gives_the_reason_with_its_command_or_right_after(phone):
    table, client = phone
    table.start_turn()
    table.touch("laser.4")
    table.advance(0.5)
    answer = send(client, {"undo": "touch", "reason": "misfire"})
    assert answer.status_code == 200 and answer.json()["reason_wanted"] is None
    table.touch("laser.6")
    table.advance(0.5)
    answer = send(client, {"undo": "touch"})
    assert answer.status_code == 200 and answer.json()["reason_wanted"] == "undo"
    answer = send(client, {"why": "the rod\nwobbles"})
    assert answer.status_code == 200 and answer.json()["reason_wanted"] is None
    lines = table.recorded()
    assert [line.get("reason") for line in lines if "undo" in line] == ["misfire", None]
    assert {"why": "the rod wobbles", "by": "Ben's phone"}.items() <= next(
        line for line in lines if "why" in line).items()
    live, again = table.live_then_replay()
    assert again == live
    got = storage.replay_file(table.rig.recording_path, overrides=True)["overrides"]
    assert [(o["by"], o["reason"]) for o in got] == [
        ("Ben's phone", "misfire"), ("Ben's phone", "the rod wobbles")]


@pytest.mark.parametrize("value, words", BAD[:6])
def test_a_phones_bad_reason_is_one_400_and_loses_nothing(phone, value, words):
    table, client = phone
    table.start_turn()
    table.touch("laser.4")
    table.advance(0.5)
    before = table.recorded()
    answer = send(client, {"undo": "touch", "reason": value})
    assert answer.status_code == 400
    assert words in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert table.recorded() == before and table.turn.touches == 1
    assert send(client, {"undo": "touch", "reason": "other"}).status_code == 200
    assert table.turn.touches == 0


def test_a_phones_reason_with_no_override_waiting_is_refused(phone):
    table, client = phone
    answer = send(client, {"why": "misfire"})
    assert answer.status_code == 409 and "no override" in answer.json()["error"].lower()


# --- the kill sweep: the overrides counted after a kill at every fsync -------------------------

def test_overrides_counted_after_a_kill_at_every_fsync_are_what_the_recording_says(
        tmp_path, capsys):
    snapshots, holder = [], {}

    def at_sync(path):
        snapshots.append((path.read_bytes(), holder["table"].rig.referee.match.overrides))

    table = holder["table"] = Harness(recordings_dir=tmp_path / "live", players=PLAYERS,
                                      sync_hook=at_sync)
    table.start()
    table.play(night().objects())
    table.stop()
    assert len(snapshots) > 10 and len(snapshots[-1][1]) == 5
    for n, (data, live) in enumerate(snapshots):
        rec = tmp_path / ("cut-%d" % n)
        rec.mkdir()
        path = rec / "match-20260101-000000.jsonl"
        path.write_bytes(data)
        assert cli.main(["audits", "--json", "--recordings", str(rec)]) == 0
        got = json.loads(capsys.readouterr().out)["overrides"]
        assert sum(got.get("kinds", {}).values()) == len(live), "fsync %d" % n
        listed = storage.replay_file(path, overrides=True)["overrides"]
        assert [(o["kind"], o["by"], o["reason"]) for o in listed] == [
            (o.kind.value, o.by, o.why) for o in live], "fsync %d" % n


def test_a_newer_message_is_shown_over_the_question_which_comes_back_after_it():
    keys = KeyMapper(players=PLAYERS)
    keys.observe(Scoreboard(players=PLAYERS))
    board = Scoreboard(players=PLAYERS, reason_wanted="undo", message="Touch undone")
    keys.observe(board)
    assert "Why?" in english(keys.shown(board, None)[1].message)
    newer = replace(board, message="Laser 5 touched")
    keys.observe(newer)
    assert keys.shown(newer, None)[1].message == "Laser 5 touched"
    assert keys.feed("1")[0] == ev.Why(0.0, "misfire", by="guard")     # still answerable
    keys.observe(replace(board, message=None))
    assert keys.why_asked() is False          # answered: asked no more


def test_a_phone_name_like_a_formula_is_text_in_the_audits_csv(tmp_path, capsys):
    r = Recording(PLAYERS)
    r.heist(1.0, paintings=1, touches=1)
    r.line({"t": 10.0, "undo": "touch", "by": "=HYPERLINK(1)"})
    r.write(tmp_path / "match-20261207-200000.jsonl")
    csv_path = tmp_path / "a.csv"
    assert cli.main(["audits", "--recordings", str(tmp_path), "--csv", str(csv_path)]) == 0
    capsys.readouterr()
    rows = list(csv.reader(io.StringIO(csv_path.read_text("utf-8"))))
    assert ["overrides", "'=HYPERLINK(1)", "by", "1"] in rows


@given(st.one_of(st.text(max_size=90), st.integers(), st.none(), st.lists(st.text(), max_size=2)))
@settings(max_examples=100, deadline=None)
def test_a_phones_body_with_any_reason_is_one_400_or_a_command_with_a_clean_reason(value):
    from rig.core.errors import RequestError
    from rig.web.commands import parse_command
    for body in ({"undo": "touch", "reason": value}, {"why": value},
                 {"loot": {"paintings": 1, "relics": 0}, "reason": value}):
        try:
            item = parse_command(body, "Ben's phone", GAME)
        except RequestError as exc:
            assert exc.status == 400 and "\n" not in str(exc)
            continue
        assert item.by == "Ben's phone"
        assert item.why is None or ov.check_reason(item.why) == item.why


def _attempt(r, t, touches=0):
    """A tiebreak attempt pressed at ``t``: in, ``touches`` rods, painting 1 out at t + 4 s."""
    r.press(t)
    r.hand_in(t + 1.0)
    for i in range(touches):
        r.touch(4 + i, t + 1.2 + 0.3 * i)
    r.take_painting(1, t + 3.5)
    r.hand_out(t + 4.0)
    r.return_painting(1, t + 5.0)
    return t + 7.0


def test_a_tiebreak_attempts_correction_and_void_are_overrides_of_round_0():
    r = Recording(("Ana", "Ben"))
    t = 1.0
    for _ in range(4):                       # both win rounds 1 and 2: a tiebreak
        t = r.heist(t, paintings=1) + 3.0
    t = _attempt(r, t, touches=3)            # Ana caught by her third touch
    r.line({"t": t - 0.5, "undo": "touch", "by": "Ben's phone", "reason": "misfire"})
    t = _attempt(r, t, touches=1)            # Ana again
    r.line({"t": t - 0.5, "undo": "touch", "by": "Ben's phone"})
    _attempt(r, t)                           # Ben
    got = replayed(r)["overrides"]
    assert [(o["kind"], o["round"], o["thief"], o["reason"]) for o in got] == [
        ("void", 0, "Ana", "misfire"), ("correction", 0, "Ana", "unspecified")]
    assert english(ov.line_msg(got[1])).startswith(
        "score corrected at %.1f s, Ana's tiebreak attempt, by Ben's phone" % got[1]["t"])
