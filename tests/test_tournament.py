"""The tournament's contract without a broker: topics and match ids, the match message and
its checks (every payload from the broker is untrusted), and the standings as a pure function
of the matches -- duplicates once, the newest version only, names trimmed and caseless."""

import dataclasses
import json
import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules import standings as sd
from rig.games.cleptomano.rules.replay import replay
from rig.games.cleptomano.rules import tournament as tm
from rig.core.errors import ConfigError, PayloadError
from rig.links.feed import Feed, record_of, records_from
from rig.shell.storage import Follower
from sim.tournament import LIBRARY, SOAK, forged_result, tournament_copy

FUZZ = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture])
@pytest.fixture
def record(tmp_path):
    path = tournament_copy(SOAK[0], tmp_path, "table-1", "match-20261201-190000")
    return record_of(path), path.read_text(encoding="utf-8")


def message(record, text=None):
    return tm.match_topic(record.rig, record.match_id), tm.match_payload(record, text)


# --- ids, topics, the broker's address -------------------------------------------------------

def test_a_match_id_is_the_recording_file_name():
    assert tm.match_id_of("match-20261201-190000.jsonl") == "match-20261201-190000"
    assert tm.match_id_of("match-20261201-190000-2.jsonl") == "match-20261201-190000-2"
    for name in ("match-20261201-190000", "notes.jsonl", "match-1-2.jsonl", "../x.jsonl"):
        assert tm.match_id_of(name) is None


def test_topics_round_trip_and_anything_else_is_refused():
    assert tm.parse_topic(tm.match_topic("table-3", "match-20261201-190000")) == (
        "table-3", "matches", "match-20261201-190000")
    assert tm.parse_topic(tm.status_topic("table-3")) == ("table-3", "status", None)
    for topic in ("cleptomano/rigs/table-3", "cleptomano/rigs/a b/status",
                  "cleptomano/rigs/table-3/matches/evil", "other/rigs/t/status",
                  "cleptomano/rigs/table-3/status/more", None):
        with pytest.raises(PayloadError, match="is not one of the tournament's"):
            tm.parse_topic(topic)


@pytest.mark.parametrize("url, words", [
    ("tcp://h:1883", "scheme must be mqtt://"), ("mqtt://", "no valid host"),
    ("mqtt://h:0", "port 1-65535"), ("mqtt://h/x", "more than a host"),
])
def test_a_bad_broker_address_says_how_to_write_one(url, words):
    with pytest.raises(ConfigError, match=words) as caught:
        tm.parse_broker(url)
    assert "give mqtt://HOST:1883" in str(caught.value)


def test_broker_addresses():
    assert tm.parse_broker("mqtt://10.0.0.5").url == "mqtt://10.0.0.5:1883"
    assert tm.parse_broker("MQTTS://broker.lan").url == "mqtts://broker.lan:8883"
    assert tm.parse_broker("mqtt://[::1]:1884").connect_host == "::1"


# --- the match message ---------------------------------------------------------------------------

def test_a_match_message_round_trips_and_is_rerefereed(record):
    rec, text = record
    assert tm.parse_message(*message(rec, text)) == rec
    big = dataclasses.replace(rec, size=tm.MAX_EMBEDDED_RECORDING_BYTES + 1)
    assert tm.parse_message(*message(big)) == big   # too long to embed: sha256, replay checked


def test_a_match_without_its_recording_is_refused_when_it_could_carry_it(record):
    """Reproducer: a match message with no recording was believed, so a made-up "Mallory"
    reached rank 1 with 21 points."""
    rec, _ = record
    forged = forged_result(rec.header, rec.match_id, rec.rig)
    topic = tm.match_topic(rec.rig, rec.match_id)
    with pytest.raises(PayloadError, match="carries no recording"):
        tm.parse_message(topic, tm.dumps(forged))
    with pytest.raises(PayloadError, match="carries no recording"):
        tm.parse_message(*message(rec))                     # a real one without it, too
    feed = Feed(None)
    feed.take(topic, tm.dumps(forged))
    assert feed.skipped == 1 and feed.standings()["players"] == []


def test_a_size_no_recording_can_have_is_refused_and_freezes_nothing(record):
    """Reproducer: ``bytes: 10**18`` was taken, and as the newest version it froze that match
    against every later real one."""
    rec, text = record
    topic, payload = message(rec, text)
    obj = json.loads(payload)
    obj.pop("recording")
    obj["bytes"] = 10 ** 18
    with pytest.raises(PayloadError, match="more than the 67108864 a recording may have"):
        tm.parse_message(topic, tm.dumps(obj))
    feed = Feed(None)
    feed.take(topic, tm.dumps(obj))
    feed.take(topic, payload)
    assert [r.sha256 for r in feed.records()] == [rec.sha256]


@pytest.mark.parametrize("change, words", [
    (lambda r: r.update(winner=r["players"][0] if r["winner"] != r["players"][0]
                        else r["players"][1]), "the winner is"),
    (lambda r: r.update(round_wins={p: 5 for p in r["players"]}), "round_wins"),
    (lambda r: r["turns"][0].update(outcome="caught", score=7), "turn 1 is caught"),
    (lambda r: next(t for t in r["turns"] if t["outcome"] == "escaped" and t["score"] < 7)
     .update(score=7), "scores"),
    (lambda r: r["turns"][0].update(outcome="unfinished", score=None),
     "another turn follows"),
])
def test_a_self_contradicting_replay_is_refused(record, change, words):
    """Reproducer: a result whose figures disagree with each other was taken.  Without the
    recording (too long to embed) the figures are all there is: they must agree."""
    rec, _ = record
    big = dataclasses.replace(rec, size=tm.MAX_EMBEDDED_RECORDING_BYTES + 1)
    topic, payload = message(big)
    obj = json.loads(payload)
    change(obj["replay"])
    with pytest.raises(PayloadError, match="the replay contradicts itself: .*" + words):
        tm.parse_message(topic, tm.dumps(obj))


def test_every_replay_the_referee_makes_agrees_with_itself():
    """Every prefix of every recording of the tests: the referee never contradicts itself."""
    for path in sorted(LIBRARY.parent.rglob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for k in range(2, len(lines) + 1):
            header, items = recording.parse_lines(lines[:k])
            assert tm.contradiction(replay(header, items), header.players) is None, (path, k)


def version(rec, text):
    """The match version ``text`` (whole lines of the recording) would be published as."""
    data = text.encode("utf-8")
    header, items = recording.parse_lines(text.split("\n"))
    return dataclasses.replace(
        rec, size=len(data), sha256=tm.sha256(data),
        closed=any(recording.ends_match(item) for _, item in items),
        result=replay(header, items), recording=text)


def test_a_matchs_versions_only_move_forward(record, tmp_path):
    """Reproducer: re-publishing an old retained message downgraded the broker's copy, so a
    restarted leaderboard showed the older version.  The feed takes only a version that extends
    the one it holds (checked by the sha256 of its first bytes), and keeps what it took across
    restarts."""
    rec, text = record
    lines = text.splitlines(keepends=True)
    old = version(rec, "".join(lines[:len(lines) // 2]))
    new = version(rec, text)
    assert tm.supersedes(new, old) is None and tm.supersedes(new, None) is None
    assert "not more than" in tm.supersedes(old, new)
    assert "already held" in tm.supersedes(new, new)
    rewritten = text.replace('"t": 1', '"t": 2', 1) if '"t": 1' in text else text + "\n"
    other = dataclasses.replace(new, size=new.size + 5, recording=rewritten + "x" * 5)
    assert "does not begin with" in tm.supersedes(other, old)
    state = tmp_path / "leaderboard.json"
    feed = Feed(tm.parse_broker("mqtt://127.0.0.1"), state_file=state)
    feed.take(*message(old, old.recording))
    feed.take(*message(new, text))
    feed.take(*message(old, old.recording))          # the old one again: refused
    assert [r.sha256 for r in feed.records()] == [new.sha256] and feed.skipped == 1
    again = Feed(tm.parse_broker("mqtt://127.0.0.1"), state_file=state)   # restarted
    assert [r.sha256 for r in again.records()] == [new.sha256]
    again.take(*message(old, old.recording))
    assert again.standings() == feed.standings()
    other_broker = Feed(tm.parse_broker("mqtt://10.0.0.9"), state_file=state)
    assert other_broker.records() == []              # kept per broker


def test_a_state_file_that_cannot_be_read_is_set_aside(tmp_path, caplog):
    state = tmp_path / "leaderboard.json"
    state.write_text("{not json")
    feed = Feed(tm.parse_broker("mqtt://127.0.0.1"), state_file=state)
    assert feed.records() == [] and (tmp_path / "leaderboard.json.bad").exists()
    assert "cannot be read" in caplog.text


@pytest.mark.parametrize("change, words", [
    (lambda o: o.update(sha256="0" * 64), "not the one of that size and sha256"),
    (lambda o: o["replay"].update(winner=o["replay"]["players"][0]
                                  if o["replay"]["winner"] != o["replay"]["players"][0]
                                  else o["replay"]["players"][1]),
     "not what the recording replays to"),
    (lambda o: o.update(closed=not o["closed"]), "closed does not say"),
    (lambda o: o["header"].update(rig="table-2"), "recorded by rig 'table-2'"),
    (lambda o: o.update(rig="table-2"), "not the topic's"),
    (lambda o: o.pop("replay"), "lacks replay"),
    (lambda o: o.update(bytes=-1), "is not a size"),
])
def test_a_tampered_match_is_refused_naming_why(record, change, words):
    rec, text = record
    topic, payload = message(rec, text)
    obj = json.loads(payload)
    change(obj)
    with pytest.raises(PayloadError, match=words) as caught:
        tm.parse_message(topic, tm.dumps(obj))
    assert str(caught.value).startswith(topic)


def test_a_claimed_replay_without_the_recording_is_checked_value_by_value(record):
    rec, _ = record
    topic, payload = message(dataclasses.replace(rec, size=tm.MAX_EMBEDDED_RECORDING_BYTES + 1))
    for change in ({"winner": "Mallory"}, {"round_wins": {"Mallory": 1}},
                   {"turns": [{"thief": "Eli", "outcome": "escaped", "score": 99}]},
                   {"tiebreak": [{"thief": "Eli", "caught": "no"}]}, {"title": "x" * 81}):
        obj = json.loads(payload)
        obj["replay"].update(change)
        with pytest.raises(PayloadError, match="replay"):
            tm.parse_message(topic, tm.dumps(obj))


@pytest.mark.parametrize("payload, words", [
    (b"x" * (tm.MAX_STATUS_BYTES + 1), "more than the 4096"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[" * 40 + b"]" * 40, "nests more than 16"),
    (b"{", "not JSON"),
    (b'{"status": "maybe", "rig": "table-1"}', "neither"),
    (b'{"status": "online", "rig": "table-2"}', "not the topic's"),
])
def test_a_bad_status_is_refused(payload, words):
    with pytest.raises(PayloadError, match=words):
        tm.parse_message(tm.status_topic("table-1"), payload)


def test_the_live_snapshot_keeps_only_what_the_leaderboard_shows():
    board = {"phase": "turn", "players": ["Ana", "Ben"], "round": 2, "thief": "Ana",
             "guard": "Ben", "remaining_s": 41.5, "touches": 1, "turn_score": 3,
             "round_wins": {"Ana": 1}, "pairing_code": "123456", "roster": ["x"] * 50}
    live = tm.parse_message(tm.live_topic("table-1"), tm.dumps(board))
    assert set(live.board) == set(tm.LIVE_FIELDS) and live.board["thief"] == "Ana"
    for bad in ({"thief": "Mallory"}, {"phase": "dancing"}, {"players": ["\x1b[2J"]},
                {"remaining_s": -1}, {"round_wins": {"Ana": True}}):
        with pytest.raises(PayloadError, match="live"):
            tm.parse_message(tm.live_topic("table-1"), tm.dumps(dict(board, **bad)))


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


@FUZZ
@given(data=st.data())
def test_fuzz_any_payload_is_a_message_or_one_payload_error(record, data):
    """Mutated real messages and arbitrary JSON and bytes, on every kind of topic: a parsed
    message or PayloadError, never anything else; and the feed takes it without raising."""
    rec, text = record
    if not data.draw(st.booleans()):     # too long to embed: the figures alone are checked
        rec, text = dataclasses.replace(rec, size=tm.MAX_EMBEDDED_RECORDING_BYTES + 1), None
    topic, payload = message(rec, text)
    obj = json.loads(payload)
    how = data.draw(st.sampled_from(["key", "replay", "bytes", "json"]))
    if how == "key":
        key = data.draw(st.sampled_from(sorted(obj)))
        obj[key] = data.draw(_JSON)
        payload = tm.dumps(obj)
    elif how == "replay":
        key = data.draw(st.sampled_from(sorted(obj["replay"])))
        obj["replay"][key] = data.draw(_JSON)
        payload = tm.dumps(obj)
    elif how == "bytes":
        raw = bytearray(payload)
        for _ in range(data.draw(st.integers(1, 5))):
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
        payload = bytes(raw)
    else:
        payload = json.dumps(data.draw(_JSON)).encode()
    topic = data.draw(st.sampled_from([topic, tm.status_topic("table-1"),
                                       tm.live_topic("table-1")]))
    try:
        tm.parse_message(topic, payload)
    except PayloadError:
        pass
    feed = Feed(None)
    feed.take(topic, payload)
    feed.standings()


@FUZZ
@given(data=st.data())
def test_fuzz_a_kept_match_is_a_record_or_one_payload_error(record, data):
    """The leaderboard's state file is read back as untrusted too."""
    rec, _ = record
    kept = tm.kept_json(rec)
    assert tm.from_kept(kept) == rec
    how = data.draw(st.sampled_from(["message", "replay", "top"]))
    if how == "message":
        kept["message"][data.draw(st.sampled_from(sorted(kept["message"])))] = data.draw(_JSON)
    elif how == "replay":
        replay_ = kept["message"]["replay"]
        replay_[data.draw(st.sampled_from(sorted(replay_)))] = data.draw(_JSON)
    else:
        kept = data.draw(_JSON)
    try:
        tm.from_kept(kept)
    except PayloadError:
        pass


# --- the standings -------------------------------------------------------------------------------

def records(tmp_path, n, rig="table-1", rename=None, start=0):
    return [record_of(tournament_copy(SOAK[i % len(SOAK)], tmp_path / rig, rig,
                                      "match-20261201-19%04d" % (start + i), rename))
            for i in range(n)]


def test_duplicates_and_order_change_nothing(tmp_path):
    recs = records(tmp_path, 6) + records(tmp_path, 5, rig="table-2")
    once = sd.standings(recs)
    shuffled = recs * 3
    random.Random(4).shuffle(shuffled)
    assert sd.standings(shuffled) == once
    assert sum(r["matches"] for r in once["rigs"]) == 11
    assert sum(p["matches_played"] for p in once["players"]) == sum(
        len(r.result["players"]) for r in recs)


def test_a_newer_version_of_a_match_replaces_the_older(tmp_path):
    rec = records(tmp_path, 1)[0]
    decided = [json.loads(line) for line in
               (tmp_path / "table-1" / (rec.match_id + ".jsonl")).read_text().splitlines()]
    older = tm.MatchRecord(rec.rig, rec.match_id, rec.size - 10, "f" * 64, False, rec.header,
                           dict(rec.result, winner=None))
    assert sd.standings([older, rec]) == sd.standings([rec, older]) == sd.standings([rec])
    assert decided[-1] == {"t": decided[-1]["t"], "end": True}


def test_names_are_trimmed_and_caseless(tmp_path):
    plain = records(tmp_path, 4)
    odd = records(tmp_path, 4, rig="table-2", rename={"Ben": " ben ", "Eli": "ELI"})
    both = {p["name"]: p for p in sd.standings(plain + odd)["players"]}
    alone = {p["name"]: p for p in sd.standings(plain)["players"]}
    assert {n.casefold() for n in both} == {n.casefold() for n in alone} == {"ben", "eli"}
    assert both["Ben"]["matches_played"] == 2 * alone["Ben"]["matches_played"]
    assert both["Ben"]["points"] == 2 * alone["Ben"]["points"]
    assert "ELI" in both                  # a tie of spellings: the same one on every reader


def test_the_standings_from_messages_equal_those_from_the_recordings(tmp_path):
    recs = records(tmp_path, 5) + records(tmp_path, 6, rig="table-2")
    feed = Feed(None)
    for rec in recs + recs[:3]:
        text = (tmp_path / rec.rig / (rec.match_id + ".jsonl")).read_text(encoding="utf-8")
        feed.take(*message(rec, text))
    feed.take("cleptomano/rigs/table-1/matches/match-1", b"junk")
    assert feed.skipped == 1
    rebuilt = sd.standings(records_from([tmp_path]))
    assert feed.standings()["players"] == rebuilt["players"]
    assert feed.standings()["matches"] == rebuilt["matches"]


def test_rebuilding_leaves_out_a_recording_that_cannot_be_read(tmp_path):
    records(tmp_path, 2)
    (tmp_path / "table-1" / "match-20261201-199999.jsonl").write_text("not json\n")
    (tmp_path / "table-1" / "match-20261201-199998.jsonl").write_text(
        SOAK[0].read_text())                              # no rig: not a tournament's
    warnings = []
    assert len(records_from([tmp_path], warnings.append)) == 2
    assert len(warnings) == 1 and "match-20261201-199999.jsonl is left out" in warnings[0]


def test_a_solo_title_and_a_tiebreak_reach_the_table(tmp_path):
    src = tmp_path / "solo.jsonl"
    shutil.copy(LIBRARY.parents[0] / "solo_rulebook_example.jsonl", src)
    rec = record_of(tournament_copy(src, tmp_path / "t", "table-9", "match-20261201-190000"))
    row = sd.standings([rec])["players"][0]
    assert row["name"] == "Ana" and row["best_solo_title"] == rec.result["title"] is not None


def test_a_match_closed_by_new_match_ends_with_that_line_for_the_link_and_the_rebuild(tmp_path):
    """The set-up screen closes a match with a ``new_match`` line, then the session writes its
    end line: the match's bytes end with the first, read at once or across two fsyncs."""
    lines = SOAK[0].read_text(encoding="utf-8").splitlines()[:-1]     # no end line
    last_t = json.loads(lines[-1])["t"]
    header = json.loads(lines[0])
    closing = {"t": last_t + 1, "new_match": {"players": header["players"],
                                              "difficulty": "normal",
                                              "first_thief": header["players"][0]}}
    body = "\n".join(lines + [json.dumps(closing)]) + "\n"
    src = tmp_path / "src.jsonl"
    src.write_text(body + json.dumps({"t": last_t + 1, "end": True}) + "\n", encoding="utf-8")
    path = tournament_copy(src, tmp_path / "t", "table-1", "match-20261201-190000")
    rebuilt = record_of(path)
    assert rebuilt.closed and rebuilt.size < path.stat().st_size
    follower = Follower(path)
    follower.read(upto=rebuilt.size - 5)
    follower.read(final=True)
    assert (follower.size, follower.sha256, follower.closed) == (rebuilt.size, rebuilt.sha256,
                                                                 True)
    assert follower.result() == rebuilt.result
