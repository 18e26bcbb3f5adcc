"""Issue 31: the audits, derived from the recordings (``cleptomano audits``), and the sensor health
judged from them (docs/contracts/cli.md)."""

import csv
import json
from datetime import date
import os
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rig import cli
from rig.core import audits as core
from rig.games.cleptomano.rules import engine as rules
from rig.games.cleptomano.rules.audit import audit
from rig.shell import audits, storage
from sim.script import Script, demo_match, rod_night as night

PLAYERS = ["Ana", "Ben", "Caro"]


def run_audits(capsys, *args):
    code = cli.main(["audits", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def demo_recordings(tmp_path):
    """The demo match ``make run`` plays, refereed live by the rig on the simulated table."""
    from sim.harness import Harness
    table = Harness(recordings_dir=tmp_path / "rec", players=PLAYERS)
    table.start()
    table.play(demo_match().objects())
    table.stop()
    return tmp_path / "rec"


# --- after the demo match ----------------------------------------------------------------------

def test_after_the_demo_match_audits_json_shows_its_match_and_touches(tmp_path, capsys):
    rec = demo_recordings(tmp_path)
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(rec))
    assert code == 0
    got = json.loads(out)
    assert got["matches"]["cleptomano"] == {"started": 1, "finished": 1, "abandoned": 0,
                                            "running": 0}
    lasers = {name: c["touches"] for name, c in got["touches"].items()
              if name.startswith("laser.")}
    # The demo: Ana's bounced touch on rod 4 (one touch; its first bounce, 0.4 ms, a glitch
    # filtered), her three
    # touches of round 2 (1, 5, 2), Caro's on rod 3.
    assert lasers == {"laser.1": 1, "laser.2": 1, "laser.3": 1, "laser.4": 1, "laser.5": 1,
                      "laser.6": 0, "laser.7": 0}
    assert got["touches"]["guard"]["touches"] == 1
    assert got["touches"]["laser.4"]["glitches"] == 1
    assert got["levels"] == {"normal": {"caught": 2, "escaped": 4}}
    assert got["health"] == [] and got["unreadable"] == []
    # The same as the replay of that recording says.
    path, = rec.glob("match-*.jsonl")
    replayed = storage.replay_file(path)
    assert sum(t["touches"] for t in replayed["turns"]) == sum(lasers.values())
    assert sum(t["outcome"] == "caught" for t in replayed["turns"]) == 2


@pytest.mark.heavy
def test_after_make_runs_demo_match_audits_json_shows_its_matches_and_touches(tmp_path, capsys):
    """`make run` on a machine without a screen: `cleptomano run` on the simulator, headless,
    plays the bundled demo match in real time (about 70 s); then the audits.  Real time under
    load may starve a pulse of the demo's bounce, so the counts are checked against what the
    recording itself says, not against the script."""
    rec = tmp_path / "rec"
    config = tmp_path / "rig.toml"
    config.write_text('[match]\nplayers = ["Ana", "Ben", "Caro"]\n[web]\nenabled = false\n')
    assert cli.main(["run", "--sim", "--headless", "--config", str(config), "--recordings",
                     str(rec), "--duration-s", "150"]) == 0
    capsys.readouterr()
    code, out, _ = run_audits(capsys, "--json", "--config", str(config), "--recordings",
                              str(rec))
    assert code == 0
    got = json.loads(out)
    assert got["matches"]["cleptomano"]["started"] == 1
    path, = rec.glob("match-*.jsonl")
    turns = storage.replay_file(path)["turns"]
    laser_touches = sum(c["touches"] for name, c in got["touches"].items()
                        if name.startswith("laser."))
    assert laser_touches >= sum(t["touches"] for t in turns) >= 1
    ended = [t for t in turns if t["outcome"] in ("caught", "escaped")]
    assert sum(v["caught"] + v["escaped"] for v in got["levels"].values()) == len(ended) >= 5


def test_the_text_and_the_csv_say_the_same(tmp_path, capsys):
    rec = demo_recordings(tmp_path)
    code, out, _ = run_audits(capsys, "--recordings", str(rec), "--csv", str(tmp_path / "a.csv"))
    assert code == 0
    assert "cleptomano           started 1, finished 1, abandoned 0, running 0" in out
    assert "laser.4      touches 1, voided 0, glitches 1, stuck 0" in out
    rows = list(csv.DictReader((tmp_path / "a.csv").open(encoding="utf-8")))
    assert {"section": "touches", "name": "laser.4", "count": "touches", "value": "1"} in rows
    assert {"section": "matches", "name": "cleptomano", "count": "finished", "value": "1"} in rows


# --- what each count is --------------------------------------------------------------------------

def counted(script):
    return audit(script.lines())


def test_a_glitch_an_undo_and_a_stuck_contact_are_counted_on_their_input():
    s = Script(PLAYERS, "normal")
    s.start(1.0)
    s.hand_in(2.0)
    s.input(3.0, "laser.2", 1)
    s.input(3.0002, "laser.2", 0)          # 0.2 ms: a glitch, no touch
    s.touch(4, 4.0)
    s._add({"t": 4.5, "undo": "touch", "by": "Ben"})
    s.input(5.0, "guard", 1)
    s.input(11.0, "guard", 0)              # held 6 s: caught, and a stuck period
    s.hand_out(12.0)
    a = counted(s)
    assert a["touches"]["laser.2"] == {"touches": 0, "voided": 0, "glitches": 1, "stuck": 0}
    assert a["touches"]["laser.4"] == {"touches": 1, "voided": 1, "glitches": 0, "stuck": 0}
    assert a["touches"]["guard"] == {"touches": 1, "voided": 0, "glitches": 0, "stuck": 1}
    assert a["levels"] == {"normal": {"caught": 1, "escaped": 0}}
    assert a["matches"] == {"started": 1, "finished": 0, "closed": False, "empty": False}


def test_a_recording_in_which_nobody_played_starts_no_match(tmp_path, capsys):
    s = Script(PLAYERS, "normal")
    s.end(3.0)
    s.write(tmp_path / "match-20261201-200000.jsonl")
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    got = json.loads(out)
    assert got["recordings"] == 1
    assert got["matches"]["cleptomano"]["started"] == 0


def test_a_match_closed_without_a_winner_is_abandoned_one_cut_off_is_running(tmp_path, capsys):
    for name, ended in (("match-20261201-200000.jsonl", True),
                        ("match-20261201-210000.jsonl", False)):
        s = Script(PLAYERS, "normal")
        s.start(1.0)
        s.hand_in(2.0)
        s.hand_out(3.0)
        s.exit(4.0)
        if ended:
            s.end(10.0)
        s.write(tmp_path / name)
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    got = json.loads(out)
    assert got["matches"]["cleptomano"] == {"started": 2, "finished": 0, "abandoned": 1,
                                            "running": 1}
    assert got["nights"] == {"2026-12-01": 2}


def test_since_leaves_out_the_nights_before(tmp_path, capsys):
    for day in ("20261130", "20261201"):
        demo_match().write(tmp_path / ("match-%s-200000.jsonl" % day))
    code, out, _ = run_audits(capsys, "--json", "--since", "2026-12-01", "--recordings",
                              str(tmp_path))
    got = json.loads(out)
    assert got["recordings"] == 1 and got["since"] == "2026-12-01"
    assert got["matches"]["cleptomano"]["started"] == 1


# --- bad input: one clear error, nothing else lost ---------------------------------------------------

@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "2026-1-1", "", "2026-02-30"])
def test_a_bad_date_is_one_error_naming_it_and_what_is_allowed(tmp_path, capsys, bad):
    code, out, err = run_audits(capsys, "--since", bad, "--recordings", str(tmp_path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "--since %r is not a date" % bad in err and "YYYY-MM-DD" in err


def test_a_missing_folder_is_named(tmp_path, capsys):
    code, _, err = run_audits(capsys, "--recordings", str(tmp_path / "nope"))
    assert code == 2 and "does not exist" in err and "nope" in err


@pytest.mark.parametrize("n", [0, 4, 1001])
def test_silent_turns_out_of_bounds_is_refused_with_the_range(tmp_path, capsys, n):
    code, _, err = run_audits(capsys, "--silent-turns", str(n), "--recordings", str(tmp_path))
    assert code == 2 and "from 5 to 1000" in err and "--silent-turns is %d" % n in err


def test_a_torn_line_and_a_hostile_file_lose_nothing_else(tmp_path, capsys):
    demo_match().write(tmp_path / "match-20261201-200000.jsonl")
    torn = tmp_path / "match-20261201-210000.jsonl"
    demo_match().write(torn)
    with torn.open("ab") as f:
        f.write(b'{"t": 80.0, "inpu')       # the power went mid-line
    (tmp_path / "match-20261201-220000.jsonl").write_bytes(b'{"recording": "cleptomano", '
                                                           b'"version": 1, "players": [1]}\n')
    code, out, err = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    assert code == 0
    got = json.loads(out)
    assert got["recordings"] == 2 and got["matches"]["cleptomano"]["started"] == 2
    assert got["touches"]["laser.4"]["touches"] == 2
    assert [bad["file"] for bad in got["unreadable"]] == ["match-20261201-220000.jsonl"]
    assert "the last line is torn" in err
    assert "left out of the audits: " in err and "match-20261201-220000.jsonl:1" in err


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(
    st.binary(max_size=80),
    st.dictionaries(st.sampled_from(["t", "input", "value", "undo", "by", "end", "loot",
                                     "device", "state"]),
                    st.one_of(st.integers(-5, 100), st.text(max_size=8), st.booleans(),
                              st.sampled_from(["hub", "tof", "lost", "back", "reinit",
                                               "laser.4", "touch"]),
                              st.none(), st.floats(allow_nan=True)), max_size=4)
    .map(lambda d: json.dumps(d).encode())), max_size=8))
def test_fuzz_whatever_a_file_holds_the_audits_name_it_or_count_it(tmp_path_factory, lines):
    """Any bytes after a good header: counted, or named among the unreadable; never a crash."""
    d = tmp_path_factory.mktemp("fuzz")
    header = json.dumps(Script(PLAYERS, "normal").header).encode()
    (d / "match-20261201-200000.jsonl").write_bytes(b"\n".join([header, *lines]) + b"\n")
    out = audits.audits(d)
    assert out["recordings"] + len(out["unreadable"]) == 1
    json.dumps(out)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=14), st.dates().map(date.isoformat)))
def test_fuzz_since_is_a_day_or_one_error_naming_it(text):
    from rig.core.errors import ConfigError
    try:
        day = audits.parse_since(text)
    except ConfigError as exc:
        assert str(exc).count("\n") == 0 and repr(text) in str(exc) and "YYYY-MM-DD" in str(exc)
    else:
        assert day.isoformat() == text


# --- sensor health -----------------------------------------------------------------------------------

def test_a_rod_disconnected_for_30_turns_is_flagged_by_name_with_its_fix(tmp_path, capsys):
    night(tmp_path / "match-20261201-200000.jsonl", 3, rod_4_in=(2,))
    for n in range(10):
        night(tmp_path / ("match-20261202-20%02d00.jsonl" % n), 3)
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    got = json.loads(out)
    assert got["health"] == [{"code": "rod_silent", "input": "laser.4", "count": 30,
                              "text": "rod 4 has not fired in 30 turns: check its wire"}]
    assert audits.health_lines(tmp_path) == ["rod 4 has not fired in 30 turns: check its wire"]
    # 29 turns: not yet; a lower setting flags it sooner.
    (tmp_path / "match-20261202-200900.jsonl").unlink()
    night(tmp_path / "match-20261202-200900.jsonl", 2)
    assert audits.health_lines(tmp_path) == []
    assert audits.health_lines(tmp_path, silent_turns=29) == [
        "rod 4 has not fired in 29 turns: check its wire"]


def test_the_running_rig_logs_the_health_once_and_holds_it_for_the_ready_screen(tmp_path,
                                                                                 caplog):
    from rig.shell.audits import HealthWatch
    night(tmp_path / "match-20261201-200000.jsonl", 3, rod_4_in=(2,))
    for n in range(10):
        night(tmp_path / ("match-20261202-20%02d00.jsonl" % n), 3)
    watch = HealthWatch(tmp_path, reinits=lambda: 1)
    with caplog.at_level("WARNING", logger="rig.shell.audits"):
        watch.check().join()
        watch.check().join()
    assert watch.warnings == (
        "rod 4 has not fired in 30 turns: check its wire",
        "the hand sensor needed re-initialising 1 time: check its I2C wires and its power")
    said = [r.getMessage() for r in caplog.records]
    assert said == ["sensor health: " + text for text in watch.warnings]    # once each


def test_a_contact_whose_glitch_rate_jumps_is_named():
    parts = []
    for day, glitches in (("2026-12-01", 1), ("2026-12-02", 9)):
        parts.append({"file": day, "game": "cleptomano", "day": day, "seen": {},
                      "cut_off": False, "audit": {
                          "matches": {"started": 1, "finished": 1, "closed": True,
                                      "empty": False},
                          "touches": {"laser.2": {"touches": 3, "voided": 0,
                                                  "glitches": glitches, "stuck": 0}},
                          "levels": {}, "last_t": {}, "restarts": 0, "end_t": 60.0,
                          "turns": [{"end_t": 1.0, "rods": [2], "fired": [2],
                                     "passed": True}] * 3}})
    warnings = core.health(core.total(parts))
    assert [w["code"] for w in warnings] == ["glitch_jump"]
    assert warnings[0]["text"].startswith("laser.2 glitched 9 times the last night")
    assert "check its contact and its wire" in warnings[0]["text"]


def test_a_hand_sensor_re_initialised_is_a_warning_with_its_fix():
    warnings = core.health(core.total([]), reinits=2)
    assert warnings == [{"code": "tof_reinit", "input": "tof", "count": 2,
                         "text": "the hand sensor needed re-initialising 2 times: check its I2C "
                                 "wires and its power"}]


# --- the device lines the running rig writes (the table's host) ----------------------------------

def test_a_hub_lost_and_back_on_a_simulated_rig_is_counted_by_the_audits(table, tmp_path, capsys):
    t = table()
    t.advance_to(0.5)
    t.relics.lose("unplugged")
    t.advance_to(0.6)
    t.relics.back("heartbeat")
    t.advance_to(0.7)
    lines = t.recorded()
    assert {"t": 0.5, "device": "hub", "state": "lost"} in lines
    assert {"t": 0.6, "device": "hub", "state": "back"} in lines
    lost = lines.index({"t": 0.5, "device": "hub", "state": "lost"})
    assert lines[lost - 1]["input"] == "relic.3.tilt"       # after the inputs the loss holds
    live, replayed = t.live_then_replay()
    assert replayed == live
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path / "rec"))
    assert code == 0
    assert json.loads(out)["devices"] == {"hub": {"lost": 1, "back": 1, "reinit": 0}}


def test_a_hand_sensor_re_initialised_on_a_simulated_rig_is_counted_by_the_audits(
        table, tmp_path, capsys):
    t = table()
    t.start_turn()
    t.tof.fail_next(2)                   # fewer than lost_after (3): re-initialised, not lost
    t.advance_to(4.0)
    reinits = [line for line in t.recorded() if "device" in line]
    assert reinits and all(line["device"] == "tof" and line["state"] == "reinit"
                           for line in reinits)
    assert not t.said("Fault")
    live, replayed = t.live_then_replay()
    assert replayed == live
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path / "rec"))
    assert code == 0
    assert json.loads(out)["devices"] == {"tof": {"lost": 0, "back": 0, "reinit": len(reinits)}}


def test_a_companion_game_writes_no_device_line():
    from rig.games import games
    others = [game for game in games() if game.name != "cleptomano"]
    assert others and all(game.device_change(1.0, "hub", "lost") is None for game in others)


# --- the kill sweep: audits after kill -9 at every fsync ---------------------------------------------

def test_audits_after_a_kill_at_every_fsync_of_the_demo_match_are_what_the_recording_says(
        tmp_path, capsys):
    """Every fsync of the demo match as the moment of a kill -9: the recording as it stood then
    (copied from the sync hook) audits to exactly the turns that had ended live by then, and
    to what its own replay says."""
    from sim.harness import Harness
    snapshots, holder = [], {}

    def at_sync(path):
        match = holder["table"].rig.referee.match
        ended = [x for x in match.turns if x.outcome in (rules.TurnOutcome.CAUGHT,
                                                         rules.TurnOutcome.ESCAPED)]
        snapshots.append((path.read_bytes(), ended))

    table = holder["table"] = Harness(recordings_dir=tmp_path / "live", players=PLAYERS,
                                      sync_hook=at_sync)
    table.start()
    table.play(demo_match().objects())
    table.stop()
    assert len(snapshots) == 19
    for n, (data, ended) in enumerate(snapshots):
        rec = tmp_path / ("cut-%d" % n)
        rec.mkdir()
        path = rec / "match-20260101-000000.jsonl"
        path.write_bytes(data)
        code, out, _ = run_audits(capsys, "--json", "--recordings", str(rec))
        assert code == 0
        got = json.loads(out)
        caught = sum(x.outcome is rules.TurnOutcome.CAUGHT for x in ended)
        levels = got["levels"].get("normal", {"caught": 0, "escaped": 0})
        assert levels == {"caught": caught, "escaped": len(ended) - caught}, "fsync %d" % n
        replayed = storage.replay_file(path)["turns"]
        assert sum(t["touches"] for t in replayed) <= sum(
            c["touches"] for name, c in got["touches"].items() if name.startswith("laser."))
        assert got["matches"]["cleptomano"]["started"] == (1 if replayed else 0)


@pytest.mark.heavy
def test_audits_after_a_real_sigkill_right_after_an_fsync_equal_the_replay(tmp_path, capsys):
    """The resume tests' kill (tests/test_resume.py): sim.crashplay plays a whole match in a
    child process that SIGKILLs itself right after its 7th fsync."""
    from sim.crashplay import match_spec
    spec_path = tmp_path / "match.json"
    spec_path.write_text(json.dumps(match_spec()))
    rec = tmp_path / "rec"
    env = dict(os.environ, CLEPTOMANO_KILL_AT_SYNC="7")
    child = subprocess.run([sys.executable, "-m", "sim.crashplay", str(rec), str(spec_path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           timeout=120)
    assert child.returncode == -signal.SIGKILL
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(rec))
    got = json.loads(out)
    path, = rec.glob("match-*.jsonl")
    replayed = storage.replay_file(path)
    ended = [t for t in replayed["turns"] if t["outcome"] in ("caught", "escaped")]
    assert sum(v["caught"] + v["escaped"] for v in got["levels"].values()) == len(ended)
    assert got["matches"]["cleptomano"]["running"] == 1


# --- the device lines (a recording addition: docs/contracts/cli.md) -----------------------------------

def with_devices(path, lines):
    s = demo_match()
    for obj in lines:
        s._add(obj)
    s.write(path)


def test_device_lines_are_counted_and_change_nothing_in_the_match(tmp_path, capsys):
    path = tmp_path / "match-20261201-200000.jsonl"
    with_devices(path, [{"t": 16.0, "device": "hub", "state": "lost"},
                        {"t": 17.5, "device": "hub", "state": "back"},
                        {"t": 18.0, "device": "tof", "state": "reinit"}])
    assert storage.replay_file(path) == storage.replay_file(
        demo_match().write(tmp_path / "plain.jsonl"))
    code, out, _ = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    got = json.loads(out)
    assert got["devices"] == {"hub": {"lost": 1, "back": 1, "reinit": 0},
                              "tof": {"lost": 0, "back": 0, "reinit": 1}}
    assert [w["text"] for w in got["health"]] == [
        "the relic hub was lost 1 time the last night (the relics' frames stopped): check its "
        "USB cable and its power",
        "the hand sensor needed re-initialising 1 time: check its I2C wires and its power"]


@pytest.mark.parametrize("obj, words", [
    ({"t": 16.0, "device": "buzzer", "state": "lost"}, "device 'buzzer' is not known"),
    ({"t": 16.0, "device": "hub", "state": "gone"}, "device hub state 'gone' is not known"),
    ({"t": 16.0, "device": "hub"}, "device hub state None is not known"),
    ({"t": 16.0, "device": "hub", "state": "lost", "by": "Ana"}, "by"),
])
def test_a_bad_device_line_is_named_with_what_is_allowed(tmp_path, capsys, obj, words):
    path = tmp_path / "match-20261201-200000.jsonl"
    with_devices(path, [obj])
    code, out, err = run_audits(capsys, "--json", "--recordings", str(tmp_path))
    assert code == 0
    got = json.loads(out)
    assert got["recordings"] == 0 and len(got["unreadable"]) == 1
    assert words in got["unreadable"][0]["error"]
