"""Hostile input never raises (issue 23): every reader of outside input bounds nesting and size
and answers with its one clear error.

The reproducer: a recording line of JSON nested 20,000 deep (``{"recording": "cleptomano",
"version": [[[[...``) made ``cleptomano replay`` die with a RecursionError traceback (the
header was read for its game by a json.loads of its own).  Here it goes through the real
command for every game's recording, and the same depth through every other reader: a phone's
HTTP body, a WebSocket message, an MQTT payload, a board, card table and sheet file named by the
config.  Then hypothesis mutates a valid input of each reader (byte flips, cuts, nesting,
10**400, U+2028, NaN) and checks the reader gives a value or its one error, nothing else.  The
mutants that once failed are kept as ``@example`` cases, each saying what it raised before.
"""

import json
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from rig.core import bounded
from rig.games.cleptomano.rules import tournament as tm
from rig.core.errors import ConfigError, PayloadError, RecordingError, RequestError
from rig.games.canine.rules import parse_card_table
from rig.games.chest_heist.rules import parse_sheet
from rig.games.stop_thief.rules.board import BoardError, parse_board
from rig.games.stop_thief.resources import sample_town_text
from rig.shell.config import load_config
from rig.web.commands import load_json, parse_command
from sim.cli import run, run_child

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ROOT / "tests" / "golden" / "history"
#: One real recording of each game (the golden history holds every game's).
RECORDINGS = {"cleptomano": ROOT / "tests" / "recordings" / "three_player_match.jsonl",
              "stop-thief": HISTORY / "stop-thief-20261201-201500.jsonl",
              "stolen-paintings": HISTORY / "stolen-paintings-20261201-201500.jsonl",
              "chest-heist": HISTORY / "chest-heist-20261201-201500.jsonl",
              "canine": HISTORY / "canine-20261201-201500.jsonl"}
CARDS_TOML = (ROOT / "rig" / "games" / "canine" / "rules" / "data" /
              "example_cards.toml").read_text("utf-8")
SHEET = (ROOT / "docs" / "chest-heist-sheet.json").read_text("utf-8")
BOARD_TOML = sample_town_text()
DEEP = 20000
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def deep(depth=DEEP, inner="1"):
    return "[" * depth + inner + "]" * depth


def one_line_refusal(result, where):
    code, out, err = result
    assert (code, out) == (2, ""), result
    assert "Traceback" not in err and err.endswith("\n") and len(err.splitlines()) == 1, err
    assert err.startswith("cleptomano: %s" % where), err
    return err


# === the bound, measured ==========================================================================

def legal_depths():
    """How deep each of our own formats nests, in every sample of it the repository holds."""
    from rig.games.stop_thief.rules.board import board_to_dict
    found = {"recording": max(bounded.json_depth(line) for path in
                              list(HISTORY.glob("*.jsonl")) + list(RECORDINGS.values())
                              for line in path.read_text("utf-8").split("\n")),
             "board": bounded.json_depth(json.dumps(board_to_dict(parse_board(BOARD_TOML)))),
             "card table": bounded.json_depth(json.dumps(tomllib.loads(CARDS_TOML))),
             "sheet": bounded.json_depth(SHEET),
             "web command": bounded.json_depth(json.dumps(
                 {"new_match": {"players": ["Ana", "Ben"], "difficulty": "normal"}}))}
    return found


def test_our_formats_nest_a_few_levels_well_within_the_bound():
    depths = legal_depths()
    assert max(depths.values()) <= 6, depths
    assert bounded.MAX_DEPTH >= 4 * max(depths.values())
    assert tm.MAX_NESTING >= 2 * max(depths.values())


@given(st.recursive(st.none() | st.integers() | st.text(alphabet='[]{}"\\ab'),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(alphabet='[]{}"\\ab', max_size=3), inner,
                                      max_size=3), max_leaves=12))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_the_depth_scan_agrees_with_the_parser(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0
    assert bounded.json_depth(json.dumps(value)) == depth(value)


def test_the_depth_scan_is_linear_on_strings_full_of_escaped_quotes():
    # Each '"' opens a string that escaped quotes keep open to the end: a scan that tried each
    # one again would take hours on a line of a megabyte.
    # How its cost grows is ``make bench --only replay``'s (``scaling.json_depth.ratio``).
    text = '{"t": "' + '\\"[' * 400_000
    with pytest.raises(RecordingError, match="not JSON"):
        bounded.load_json(text, RecordingError, "fix")
    assert bounded.json_depth(text) == 1


# === recordings: the reproducer through the real command, every game ================================

def header_of(game):
    return json.loads(RECORDINGS[game].read_text("utf-8").split("\n")[0])


@pytest.mark.parametrize("game", sorted(RECORDINGS))
def test_the_reproducer_is_one_line_from_the_real_command(tmp_path, game):
    path = tmp_path / "match.jsonl"
    path.write_text('{"recording": "%s", "version": %s}\n' % (game, deep()), encoding="utf-8")
    err = one_line_refusal(run_child("replay", path), "%s:1: " % path)
    assert "nest more than 32 deep (20001 levels)" in err and "is this a recording?" in err


@pytest.mark.parametrize("game", sorted(RECORDINGS))
def test_a_deep_line_after_the_header_names_its_line(tmp_path, game):
    path = tmp_path / "match.jsonl"
    path.write_text(json.dumps(header_of(game)) + "\n" + '{"t": 1.0, "x": %s}\n' % deep(),
                    encoding="utf-8")
    assert "nest more than 32 deep" in one_line_refusal(run("replay", path), "%s:2: " % path)


@pytest.mark.parametrize("last", [deep(), "[" * DEEP])
def test_a_deep_last_line_without_its_end_is_refused_by_line_not_cut(tmp_path, last):
    """A torn write is a piece of a line the rig wrote, a few levels deep: a last line nested
    20,000 deep is hostile input, named like any other (it raised RecursionError before)."""
    lines = RECORDINGS["cleptomano"].read_text("utf-8").split("\n")
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(lines[:5]) + "\n" + last, encoding="utf-8")
    assert "nest more than 32 deep" in one_line_refusal(run("replay", path), "%s:6: " % path)


def test_the_rigs_own_readers_of_recordings_pass_over_a_deep_one(tmp_path):
    from rig.shell.storage import closing_command, game_of, is_finished, recent_players
    path = tmp_path / "match-20261202-120000.jsonl"
    path.write_text("%s\n%s\n" % (deep(2000), deep(2000)), encoding="utf-8")
    assert game_of(path) is None and closing_command(path) is None
    assert not is_finished(path) and recent_players(tmp_path) == []


def test_a_huge_recording_line_is_refused_unread(tmp_path):
    path = tmp_path / "match.jsonl"
    path.write_text('{"recording": "canine", "version": 1, "players": ["%s"]}\n'
                    % ("x" * (3 << 20)), encoding="utf-8")
    assert "longer than 1048576 bytes" in one_line_refusal(run("replay", path), "%s:1: " % path)


# === the files a config names: board, card table, sheet ==========================================

def config_with(tmp_path, section, key, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    path = tmp_path / "rig.toml"
    path.write_text('[%s]\n%s = "%s"\n' % (section, key, name), encoding="utf-8")
    return path


DEEP_FILES = {
    # what: (section, key, file name, text, words)
    "a board in JSON": ("stop_thief", "board", "town.json", '{"name": %s}' % deep(),
                        "nest more than 32 deep (20001 levels)"),
    "a board in TOML": ("stop_thief", "board", "town.toml", "name = %s\n" % deep(),
                        "line 1: arrays or tables nest more than 32 deep"),
    "a board of dotted keys": ("stop_thief", "board", "town.toml",
                               "%s = 1\n" % ".".join(["a"] * 100000), "more than 64 dots"),
    "a card table in TOML": ("canine", "cards", "cards.toml", "x = %s\n" % deep(),
                             "nest more than 32 deep"),
    "a card table in JSON": ("canine", "cards", "cards.json", '{"x": %s}' % deep(),
                             "nest more than 32 deep (20001 levels)"),
    "a sheet": ("chest_heist", "sheet", "sheet.json", '{"rows": %s}' % deep(),
                "nest more than 32 deep (20001 levels)"),
    "a sheet of 2 MB": ("chest_heist", "sheet", "sheet.json", '{"rows": "%s"}' % ("x" * (2 << 20)),
                        "longer than 1048576 bytes"),
    "a board of 2 MB": ("stop_thief", "board", "town.toml", 'name = "%s"\n' % ("x" * (2 << 20)),
                        "longer than 1048576 bytes"),
}


@pytest.mark.parametrize("what", sorted(DEEP_FILES))
def test_a_hostile_file_the_config_names_is_one_config_error(tmp_path, what):
    section, key, name, text, words = DEEP_FILES[what]
    path = config_with(tmp_path, section, key, name, text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert words in message and name in message, message
    assert message.startswith("%s: %s.%s: " % (path, section, key)), message


def test_the_real_command_names_a_deep_board(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    section, key, name, text, words = DEEP_FILES["a board in JSON"]
    path = config_with(tmp_path, section, key, name, text)
    assert words in one_line_refusal(run("history", "--config", path),
                                     "%s: stop_thief.board: " % path)


# === a phone's HTTP body, a WebSocket message ======================================================

@pytest.fixture
def web(tmp_path):
    from starlette.testclient import TestClient
    from rig.web.face import WebFace
    from rig.web.pairing import Pairing
    from sim.harness import Harness
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Cleptomano</title>", "utf-8")
    face = WebFace(load_config(None).web, tmp_path / "rec",
                   pairing=Pairing("http://192.168.1.20:8080/", randbelow=lambda n: 424242),
                   static_dir=static)
    table = Harness(recordings_dir=tmp_path / "rec", display=face, phones=face.pairing,
                    players=["Ana", "Ben"])
    table.start()
    face.rig = table.rig
    try:
        with TestClient(face.app, base_url="http://127.0.0.1:8080") as client:
            yield table, client
    finally:
        table.stop()


ORIGIN = {"Origin": "http://127.0.0.1:8080"}


def test_a_deep_body_is_one_400_or_413_and_the_rig_goes_on(web):
    table, client = web
    assert client.post("/api/pair", json={"code": "424242", "name": "Ben"},
                       headers=ORIGIN).status_code == 200
    for body, status, words in ((deep(), 413, "over"),
                                (deep(5000), 400, "more than 32 deep (5,000 levels)"),
                                ('{"choose": "thief", "player": %s}' % deep(40), 400,
                                 "(41 levels)")):
        answer = client.post("/api/command", content=body.encode(), headers=ORIGIN)
        assert answer.status_code == status and words in answer.json()["error"], answer.text
    answer = client.post("/api/command", json={"choose": "thief", "player": "Ben"},
                         headers=ORIGIN)
    assert answer.status_code == 200 and answer.json()["next_thief"] == "Ben"


def test_a_websocket_message_is_read_and_dropped_whatever_it_holds(web):
    """The push channel is one way: a phone's messages are never parsed, so nothing in one (a
    nesting of 20,000, a line separator, a lone surrogate's bytes) can raise; the channel goes on
    pushing."""
    table, client = web
    with client.websocket_connect("ws://127.0.0.1:8080/api/live", headers=ORIGIN) as ws:
        assert json.loads(ws.receive_text())["type"] == "state"
        for message in (deep(), '{"a": NaN, "b": 1e400, "c": "\u2028"}', "{" * 100):
            ws.send_text(message)
        ws.send_bytes(b"\xed\xa0\x80" + deep(100).encode())
        assert client.post("/api/pair", json={"code": "424242", "name": "Ben"},
                           headers=ORIGIN).status_code == 200
        client.post("/api/command", json={"choose": "thief", "player": "Ben"}, headers=ORIGIN)
        table.advance(0.3)
        while json.loads(ws.receive_text()).get("state", {}).get("next_thief") != "Ben":
            pass


# === an MQTT payload ===============================================================================

@pytest.mark.parametrize("topic", [tm.status_topic("table-1"), tm.live_topic("table-1"),
                                   tm.match_topic("table-1", "match-20261201-190000")])
def test_a_deep_mqtt_payload_is_one_payload_error(topic):
    with pytest.raises(PayloadError, match=r"nests more than 16 deep \(1000 levels\)"):
        tm.parse_message(topic, deep(1000).encode())


def test_the_leaderboard_skips_a_deep_payload_and_goes_on(caplog):
    from rig.games.cleptomano.rules.tournament import Broker
    from rig.links.feed import Feed
    feed = Feed(Broker("mqtt", "localhost", 1883))
    feed.take(tm.status_topic("table-1"), deep(2000).encode())
    feed.take(tm.status_topic("table-1"), tm.status_payload("table-1", True))
    assert feed.skipped == 1 and feed.received == 1
    skipped = [r for r in caplog.records if "skipped" in r.getMessage()]
    assert len(skipped) == 1 and skipped[0].exc_info is None        # refused, not a bug
    assert "nests more than 16 deep (2000 levels)" in skipped[0].getMessage()


# === fuzz: a valid input of each reader, mutated ===================================================

ODD = ["\u2028", "\u2029", "\x85", "\x00", "\ufeff", "\u202e", "NaN", "-Infinity", "Infinity",
       "1e400", "1" + "0" * 400, "-0", '"', "\\", "\\u", "\\ud800", ",", ":", "{", "}", "[", "]",
       "=", ".", "#", "\n", "'''", '"""', "\udcff"]


@st.composite
def mutated(draw, text):
    """``text`` after 1-3 changes: a character replaced or put in (odd unicode, JSON's and
    TOML's syntax, NaN, numbers beyond a float), a piece cut, the rest cut off, or a nesting of
    arrays or tables 40, 2,000 or 20,000 deep put in."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["flip", "insert", "cut", "truncate", "nest", "nest"]))
        if how == "flip":
            text = text[:at] + draw(st.sampled_from(ODD) | st.characters()) + text[at + 1:]
        elif how == "insert":
            text = text[:at] + draw(st.sampled_from(ODD)) + text[at:]
        elif how == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif how == "truncate":
            text = text[:at]
        else:
            depth = draw(st.sampled_from([40, 2000, DEEP]))
            opener = draw(st.sampled_from(["[", "{\"a\": ", "{a = "]))
            closer = {"[": "]", "{\"a\": ": "}", "{a = ": "}"}[opener]
            text = text[:at] + opener * depth + "1" + closer * depth + text[at:]
    return text


TEXTS = {game: path.read_text("utf-8") for game, path in RECORDINGS.items()}


RECORDING_MUTANTS = st.sampled_from(sorted(TEXTS.values())).flatmap(mutated)


@FUZZ
@given(text=RECORDING_MUTANTS)
@example(text='{"recording": "stop-thief", "version": %s}\n' % deep()).via(
    "the reproducer: RecursionError before issue 23 (the header read for its game)")
@example(text="[" * 2000 + "1" + "]" * 2000 + TEXTS["canine"]).via(
    "found by this fuzz: RecursionError before issue 23 (a nesting put before the header)")
@example(text=TEXTS["chest-heist"].replace("\n", "\n\udcff", 1)).via(
    "found by this fuzz: a companion game's line that is not UTF-8 was named 'line 2:' without "
    "its file")
@example(text=TEXTS["cleptomano"] + deep()).via(
    "RecursionError before issue 23 (a deep torn last line, tested for JSON)")
def test_fuzz_recordings_of_every_game(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "match.jsonl"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    code, out, err = result = run("replay", path)
    if code == 0:
        assert json.loads(out) and (err == "" or "the last line is torn" in err), result
    else:
        assert re.match(r"%s:\d+: \S" % re.escape(str(path)), one_line_refusal(result, "")[12:])


def board_json():
    from rig.games.stop_thief.rules.board import board_to_dict
    return json.dumps(board_to_dict(parse_board(BOARD_TOML)), indent=1)


BOARDS = [("toml", BOARD_TOML), ("json", board_json())]


BOARD_MUTANTS = st.sampled_from(BOARDS).flatmap(lambda b: st.tuples(st.just(b[0]),
                                                                     mutated(b[1])))


@FUZZ
@given(fmt_text=BOARD_MUTANTS)
@example(fmt_text=("json", '{"name": %s}' % deep())).via("RecursionError before issue 23")
@example(fmt_text=("toml", "name = %s" % deep())).via("RecursionError before issue 23")
@example(fmt_text=("toml", "%s = 1" % ".".join(["a"] * 100000))).via(
    "hours before issue 23: tomllib's time grows faster than the square of the parts (8,000 "
    "took 4.5 s)")
def test_fuzz_board_files(fmt_text):
    fmt, text = fmt_text
    try:
        parse_board(text, fmt)
    except BoardError as exc:
        assert str(exc) and "\n" not in str(exc)


CARDS_JSON = json.dumps(tomllib.loads(CARDS_TOML))


CARD_MUTANTS = st.sampled_from([CARDS_TOML, CARDS_JSON]).flatmap(mutated)


@FUZZ
@given(text=CARD_MUTANTS)
@example(text='{"collectable": %s}' % deep()).via("RecursionError before issue 23")
@example(text="collectable = %s" % deep()).via("RecursionError before issue 23")
def test_fuzz_card_tables(text):
    try:
        parse_card_table(text)
    except ConfigError as exc:
        assert str(exc)


@FUZZ
@given(text=mutated(SHEET))
@example(text='{"rows": %s}' % deep()).via("RecursionError before issue 23")
def test_fuzz_sheet_files(text):
    try:
        parse_sheet(text, "sheet.json")
    except ConfigError as exc:
        assert str(exc).startswith("sheet.json: ")


EXAMPLE_CONFIG = (ROOT / "wiring" / "rig.example.toml").read_text("utf-8")
PINMAP = (ROOT / "wiring" / "pinmap.toml").read_text("utf-8")
CONFIG_MUTANTS = st.sampled_from([("rig.toml", EXAMPLE_CONFIG), ("pinmap.toml", PINMAP)]).flatmap(
    lambda f: st.tuples(st.just(f[0]), mutated(f[1])))


@FUZZ
@given(name_text=CONFIG_MUTANTS)
def test_fuzz_configs_and_pin_maps(tmp_path_factory, name_text):
    """tests/test_hostile_input.py mutates them value by value; here nestings and odd text go
    in anywhere."""
    where = tmp_path_factory.mktemp("fuzz")
    (where / "rig.toml").write_text(EXAMPLE_CONFIG, encoding="utf-8")
    (where / "pinmap.toml").write_text(PINMAP, encoding="utf-8")
    name, text = name_text
    (where / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        load_config(where / "rig.toml")
    except ConfigError as exc:
        assert str(exc).startswith("%s: " % exc.path) and "\n" not in str(exc)


COMMANDS = [{"choose": "thief", "player": "Ben"}, {"loot": {"paintings": 1, "relics": 2}},
            {"undo": "touch"}, {"new_match": {"players": ["Ana", "Ben"], "difficulty": "hard",
                                              "first_thief": "Ben"}}]


BODY_MUTANTS = st.sampled_from(COMMANDS).map(json.dumps).flatmap(mutated)


@FUZZ
@given(body=BODY_MUTANTS)
def test_fuzz_http_bodies(body):
    try:
        parse_command(load_json(body.encode("utf-8", "surrogatepass")), "Ben's phone")
    except RequestError as exc:
        assert exc.status == 400 and str(exc)


def match_message():
    """A finished match's message as a rig publishes it (its recording embedded)."""
    import tempfile
    from rig.links.feed import record_of
    from sim.tournament import SOAK, tournament_copy
    with tempfile.TemporaryDirectory() as directory:
        path = tournament_copy(SOAK[0], Path(directory), "table-1", "match-20261201-190000")
        record = record_of(path)
        return (tm.match_topic(record.rig, record.match_id),
                tm.match_payload(record, path.read_text("utf-8")))


def mqtt_payloads():
    board = {"phase": "turn", "players": ["Ana", "Ben"], "round": 2, "thief": "Ana",
             "guard": "Ben", "remaining_s": 41.5, "touches": 1, "turn_score": 3,
             "round_wins": {"Ana": 1}}
    return [(tm.status_topic("table-1"), tm.status_payload("table-1", True)),
            (tm.live_topic("table-1"), tm.dumps(board)), match_message()]


MQTT_MUTANTS = st.sampled_from(mqtt_payloads()).flatmap(
    lambda m: st.tuples(st.just(m[0]), mutated(m[1].decode("utf-8"))))


@FUZZ
@given(message=MQTT_MUTANTS)
def test_fuzz_mqtt_payloads(message):
    topic, text = message
    payload = text.encode("utf-8", "surrogatepass")
    try:
        tm.parse_message(topic, payload)
    except PayloadError as exc:
        assert str(exc)


# --- the same fuzz at length (make test-heavy) -----------------------------------------------

@pytest.mark.heavy
@settings(FUZZ, max_examples=1500)
@given(case=st.one_of(RECORDING_MUTANTS.map(lambda x: ("recordings", x)),
                      BOARD_MUTANTS.map(lambda x: ("boards", x)),
                      CARD_MUTANTS.map(lambda x: ("cards", x)),
                      mutated(SHEET).map(lambda x: ("sheets", x)),
                      CONFIG_MUTANTS.map(lambda x: ("configs", x)),
                      BODY_MUTANTS.map(lambda x: ("bodies", x)),
                      MQTT_MUTANTS.map(lambda x: ("mqtt", x))))
def test_fuzz_every_reader_at_length(tmp_path_factory, case):
    reader, value = case
    if reader in ("recordings", "configs"):
        check = {"recordings": test_fuzz_recordings_of_every_game,
                 "configs": test_fuzz_configs_and_pin_maps}[reader]
        check.hypothesis.inner_test(tmp_path_factory, value)
        return
    check = {"boards": test_fuzz_board_files, "cards": test_fuzz_card_tables,
             "sheets": test_fuzz_sheet_files, "bodies": test_fuzz_http_bodies,
             "mqtt": test_fuzz_mqtt_payloads}[reader]
    check.hypothesis.inner_test(value)
