"""Faults are named, never scored (issue 6): each fault driven through the simulated daemon.

The whole rig runs on the simulated table (mock pins, the fake VL53L0X, the fake relic feed) in
virtual time; the tests press, touch and break things the way a game night does and check what
the players would notice: the start refused and the reason on the display, the fault on the
screen and in the log, the score untouched, and the recording re-refereeing to the same result.
The configuration and command-line faults go through ``cleptomano`` itself (``rig.cli.main``).
"""

import json
from pathlib import Path

import pytest

from rig import cli
from rig.games.cleptomano.rules import engine as rules
from rig.games.cleptomano.rules import events as ev
from rig.shell import storage
from rig.shell.storage import replay_file
from rig.words import english
from sim.script import Script, demo_match
from sim.table import SimulatedTable

PLAYERS = ["Ana", "Ben", "Caro"]
INSIDE_MM = 150


# --- A contact already active when the rig arms ---------------------------------------------------

ARMED_CONTACTS = [
    ("laser.4", "laser 4 is touched (contact closed)"),
    ("laser.1", "laser 1 is touched (contact closed)"),
    ("guard", "the guard token is touched (contact closed)"),
]


@pytest.mark.parametrize("name,words", ARMED_CONTACTS, ids=[c[0] for c in ARMED_CONTACTS])
def test_a_contact_closed_when_the_rig_arms_blocks_the_start_and_is_named(table, name, words):
    t = table()
    t.museum.set(name, 1)                # closed from the moment the rig is armed
    t.settle()
    assert words in map(english, t.rig.scoreboard().ready_problems)
    t.advance_to(1.0).press()
    assert t.rig.referee.match.current is None           # the press started nothing
    board = t.rig.scoreboard()
    assert words in map(english, board.ready_problems) and words in english(board.message)
    assert t.said("The museum is not ready: " + words)
    # Fixed: the next press starts the turn, and the stuck contact cost the thief nothing.
    t.advance_to(2.0)
    t.museum.set(name, 0)
    t.advance_to(2.5).press()
    turn = t.rig.referee.match.current
    assert turn is not None and turn.touches == 0
    assert t.rig.scoreboard().ready_problems == ()


def test_a_contact_closed_between_turns_blocks_the_next_start(table):
    t = table()
    s = Script(PLAYERS)
    s.start(1.0)
    s.hand_in(2.0)
    s.lift_painting(1, 3.0)
    s.hand_out(4.0)
    s.exit(5.0)
    s.reset_museum(6.0)
    t.play(s.objects())
    assert len(t.rig.referee.match.turns) == 1
    t.advance_to(7.0)
    t.museum.set("laser.6", 1)           # a wire came loose while the museum was reset
    t.advance_to(8.0).press()
    assert t.rig.referee.match.current is None
    assert "laser 6 is touched (contact closed)" in map(english, t.rig.scoreboard().ready_problems)


def test_a_contact_closed_when_the_next_match_arms_blocks_its_first_start(table):
    t = table()
    t.play([o for o in demo_match().objects() if "end" not in o])
    assert t.rig.match_over
    t.advance_to(60.0)
    t.museum.set("laser.4", 1)
    t.advance_to(61.0).press()
    assert t.rig.referee.match.current is None
    assert "laser 4 is touched (contact closed)" in map(english, t.rig.scoreboard().ready_problems)


# --- A contact that stays closed during a turn ---------------------------------------------------

def test_a_stuck_contact_counts_once_is_reported_after_5_s_and_the_guard_voids_it(table):
    t = table()
    t.start_turn()
    t.advance_to(2.5)
    t.museum.set("painting.1", 0)
    t.advance_to(3.0)
    t.museum.set("laser.4", 1)           # a loose wire touching rod 4, and it stays there
    t.advance_to(7.9)
    assert t.rig.referee.match.current.touches == 1
    assert t.rig.scoreboard().faults == ()
    assert t.museum.outputs_state("buzzer") == 0          # one short buzz, not a siren
    t.advance_to(8.1)                    # 5 s closed: a sensor fault, not more touches
    faults = t.rig.scoreboard().faults
    assert any("laser 4 has been closed for 5 s" in english(f) for f in faults), faults
    assert t.said("Fault: laser 4 has been closed for 5 s")
    assert t.museum.outputs_state("led.fault") == 1
    t.advance_to(30.0)
    assert t.rig.referee.match.current.touches == 1
    # The guard rules it was the wire, not the thief.
    t.rig.submit(ev.UndoTouch(0.0, by="guard"))
    t.advance_to(30.5)
    assert t.rig.referee.match.current.touches == 0
    assert t.rig.scoreboard().touches == 0
    assert t.said("Last laser touch undone by Ben")
    t.museum.set("laser.4", 0)           # the wire is fixed
    t.advance_to(31.0)
    assert t.rig.scoreboard().faults == ()
    assert t.said("Cleared: laser 4 is released")
    assert t.museum.outputs_state("led.fault") == 0
    s = Script(PLAYERS)
    s.hand_out(32.0)
    s.exit(33.0)
    t.play(s.objects())
    assert {"undo": "touch", "by": "Ben"}.items() <= next(
        x for x in t.recorded() if "undo" in x).items()
    live, replayed = t.live_then_replay()
    turn = live["turns"][0]
    assert (turn["outcome"], turn["touches"], turn["paintings"], turn["score"]) == (
        "escaped", 0, 1, 2)
    assert replayed == live


def test_a_chattering_loose_wire_is_still_one_touch(table):
    t = table()
    t.start_turn()
    at = 3.0
    for _ in range(40):                  # closes for 200 ms, opens for 50 ms, for 10 s
        t.advance_to(at)
        t.museum.set("laser.5", 1)
        t.advance_to(at + 0.2)
        t.museum.set("laser.5", 0)
        at += 0.25
    t.advance_to(at + 0.5)
    assert t.rig.referee.match.current.touches == 1
    assert t.rig.referee.match.current is not None        # not caught by 3 "touches"


# --- The hand sensor fails ------------------------------------------------------------------------

def test_a_few_i2c_errors_are_retried_without_a_fault(table):
    t = table()
    t.start_turn()
    opens = t.tof.opens
    t.tof.fail_next(2)                   # fewer than lost_after (3) in a row
    t.advance_to(4.0)
    assert t.tof.opens > opens           # re-initialised after the errors
    assert t.rig.scoreboard().faults == ()
    assert not t.said("Fault")
    assert t.rig.referee.detector.hand_inside            # still sees the hand
    t.tof.range = 8190
    t.advance_to(5.0)
    assert not t.rig.referee.detector.hand_inside


SENSOR_FAULTS = {
    "unplugged": lambda tof: tof.unplug(),
    "i2c errors": lambda tof: tof.fail_next(5),
    "timeouts": lambda tof: tof.fail_next(5, RuntimeError("Timeout waiting for VL53L0X!")),
}


@pytest.mark.parametrize("kind", sorted(SENSOR_FAULTS))
def test_a_lost_hand_sensor_falls_back_to_the_exit_button_and_clears(table, kind):
    t = table()
    t.start_turn()
    t.advance_to(3.0)
    t.museum.set("painting.1", 0)
    assert t.rig.referee.detector.hand_inside
    SENSOR_FAULTS[kind](t.tof)           # the sensor dies with the hand "inside"
    t.advance_to(5.0)
    faults = t.rig.scoreboard().faults
    assert any(f.startswith("Hand sensor lost: exit button only") for f in faults), faults
    assert t.said("Fault: Hand sensor lost: exit button only")
    lost, line = t.recorded()[-2:]       # the input the loss holds, then the device line
    assert {"input": "tof", "value": 8190}.items() <= lost.items()
    assert line == {"t": lost["t"], "device": "tof", "state": "lost"}
    t.advance_to(5.5).press()                        # the exit button alone ends the turn
    assert t.rig.referee.match.current is None
    assert t.rig.referee.match.turns[-1].outcome is rules.TurnOutcome.ESCAPED
    t.tof.plug()
    t.tof.range = 8190
    t.advance_to(9.0)                    # backs off at most 2 s between tries
    assert t.rig.scoreboard().faults == ()
    assert t.said("Cleared: hand sensor answers again")
    t.tof.range = INSIDE_MM
    t.advance_to(9.5)
    assert t.rig.referee.detector.hand_inside            # read again after recovery
    live, replayed = t.live_then_replay()
    assert live["turns"][0]["outcome"] == "escaped" and live["turns"][0]["score"] == 2
    assert replayed == live


# --- The relic hub disappears ---------------------------------------------------------------------

def test_the_game_goes_on_without_the_relic_hub(table):
    t = table()
    t.relics.send("relic.2.motion", 1)   # a relic rocking when the hub dies
    t.relics.send("relic.3.tilt", 80.0)  # and one lying down
    t.settle()
    problems = tuple(map(english, t.rig.scoreboard().ready_problems))
    assert "relic 2 is moving" in problems and "relic 3 is lying down" in problems
    t.advance_to(0.5)
    t.relics.lose("unplugged")
    t.advance_to(0.6)
    faults = t.rig.scoreboard().faults
    assert any(f.startswith("Relic hub lost") for f in faults), faults
    assert t.said("Fault: Relic hub lost")
    assert t.rig.scoreboard().ready_problems == ()       # relics read upright and still
    lines = t.recorded()
    for n in (1, 2, 3):
        assert {"t": 0.5, "input": "relic.%d.motion" % n, "value": 0} in lines
        assert {"t": 0.5, "input": "relic.%d.tilt" % n, "value": 0.0} in lines
    s = Script(PLAYERS)                  # a whole turn without relic sensing
    s.start(1.0)
    s.hand_in(2.0)
    s.lift_painting(2, 3.0)
    s.hand_out(4.0)
    s.exit(5.0)
    t.play(s.objects())
    assert t.rig.referee.match.turns[-1].outcome is rules.TurnOutcome.ESCAPED
    t.advance_to(6.0)
    t.relics.back("heartbeat")
    t.advance_to(6.1)
    assert t.rig.scoreboard().faults == ()
    assert t.said("Relic hub back")
    live, replayed = t.live_then_replay()
    assert [(x["outcome"], x["paintings"], x["relics"], x["score"]) for x in live["turns"]] == [
        ("escaped", 1, 0, 2)]
    assert replayed == live


# --- A correction that changes whether the match is over ----------------------------------------

def test_a_haul_correction_that_undecides_the_match_lets_it_go_on(table):
    t = table()
    t.play([o for o in demo_match().objects() if "end" not in o])
    assert t.rig.result()["winner"] == "Caro"
    path = t.rig.recording_path
    t.advance_to(61.0)
    t.apply({"loot": {"paintings": 0, "relics": 0}, "by": "Ben"})   # Caro's last haul: nothing
    t.advance_to(62.0)
    assert t.rig.result()["winner"] is None                         # round 2 is Ben's alone now
    t.advance_to(63.0).press()
    assert t.rig.recording_path == path
    turn = t.rig.referee.match.current
    assert turn is not None and turn.round == 3


def two_tied_rounds():
    """Ana and Ben tie both rounds (2-2, then 1-1 with a touch each): a tiebreak is due."""
    s = Script(["Ana", "Ben"])
    for at, rod in ((1.0, None), (8.0, None), (15.0, 4), (22.0, 5)):
        s.start(at)
        s.hand_in(at + 1.0)
        if rod:
            s.touch(rod, at + 1.5)
        s.lift_painting(1, at + 2.0)
        s.hand_out(at + 3.0)
        s.exit(at + 4.0)
        s.reset_museum(at + 5.0)
    return s.objects()


def test_an_undo_that_decides_the_match_lets_the_next_match_start(table):
    t = table(players=["Ana", "Ben"])
    t.play(two_tied_rounds())
    assert t.rig.result()["round_wins"] == {"Ana": 2, "Ben": 2}     # a tiebreak is due
    path = t.rig.recording_path
    t.rig.submit(ev.UndoTouch(0.0, by="guard"))    # Ben's touch was a loose wire
    t.advance_to(28.0)
    assert t.rig.result()["winner"] == "Ben"
    t.advance_to(30.0).press()
    assert t.rig.recording_path != path            # the next match began
    assert t.rig.referee.match.current is None     # its first turn waits (issue 30)
    t.advance(1.0).press()
    assert t.rig.referee.match.current is not None


# --- A bad configuration file -------------------------------------------------------------------

PINMAP_NO_GUARD = "\n".join(
    line for line in (Path(__file__).resolve().parent.parent / "wiring" / "pinmap.toml")
    .read_text("utf-8").splitlines() if not line.startswith("guard ="))

BAD_CONFIGS = [
    # (what, rig.toml text, extra files, words naming the key, words saying what is allowed)
    ("unknown key", "[detect]\nmerge_windw_s = 0.1\n", {}, "detect.merge_windw_s",
     "allowed keys: merge_window_s"),
    ("unknown section", "[detekt]\nglitch_s = 0.001\n", {}, "detekt",
     "did you mean [detect]"),
    ("wrong type", '[tof]\npoll_interval_s = "fast"\n', {}, "tof.poll_interval_s",
     "give seconds from 0 to 1"),
    ("wrong type: list", '[match]\nplayers = "Ana"\n', {}, "match.players",
     "give a list of 1 to 8 names"),
    ("out of range", "[tof]\nlost_after = 0\n", {}, "tof.lost_after", "from 1 to 100"),
    ("out of range: stuck contact", "[detect]\nstuck_contact_s = 0.1\n", {},
     "detect.stuck_contact_s", "from 0.5 to 600"),
    ("bad level", "[match]\nlasers = 9\n", {}, "match.lasers", "3 to 5"),
    ("bad TOML syntax", "[detect]\nglitch_s = = 0.001\n", {}, "line 4",
     "TOML syntax error"),
    ("missing pin map", '[pins]\nmap = "gone.toml"\n', {}, "[pins] map",
     "copy wiring/pinmap.toml"),
    ("pin map lacks an input", '[pins]\nmap = "map.toml"\n', {"map.toml": PINMAP_NO_GUARD},
     "inputs.guard", "add guard = {"),
]


@pytest.mark.parametrize("what,text,files,key,allowed", BAD_CONFIGS,
                         ids=[c[0] for c in BAD_CONFIGS])
def test_a_bad_config_exits_2_with_one_line_naming_file_key_and_what_is_allowed(
        tmp_path, capsys, what, text, files, key, allowed):
    recordings = tmp_path / "recordings"
    path = tmp_path / "rig.toml"
    path.write_text('[storage]\nrecordings_dir = "%s"\n%s' % (recordings, text), "utf-8")
    for name, content in files.items():
        (tmp_path / name).write_text(content, "utf-8")
    code = cli.main(["run", "--config", str(path), "--sim", "--headless", "--duration-s", "0"])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("cleptomano: "), err
    bad_file = tmp_path / "gone.toml" if what == "missing pin map" else \
        tmp_path / "map.toml" if files else path
    assert str(bad_file) in err
    assert key in err and allowed in err
    assert not recordings.exists()       # it never starts half-configured


def test_a_config_file_that_does_not_exist_exits_2(tmp_path, capsys):
    code = cli.main(["run", "--config", str(tmp_path / "nope.toml")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(tmp_path / "nope.toml") in err
    assert "rig.example.toml" in err


# --- cleptomano replay of a bad recording, cleptomano history -------------------------------------

HEADER = '{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"]}'
BAD_RECORDINGS = [
    ("not JSON", [HEADER, '{"t": 1.0, "input": "button", "value": 1}', "{t: 2"], 3,
     "not JSON"),
    ("unknown input", [HEADER, '{"t": 1.0, "input": "laser.9", "value": 1}'], 2,
     "'laser.9' is not known"),
    ("time backwards", [HEADER, '{"t": 2.0, "input": "button", "value": 1}',
                        '{"t": 1.0, "input": "button", "value": 0}'], 3, "goes back in time"),
    ("invalid choice", [HEADER, '{"t": 1.0, "choose": "thief", "player": "Dora"}'], 2,
     "Dora is not a player in this match"),
    ("loot with nothing to confirm", [HEADER, '{"t": 1.0, "loot": {"paintings": 1, '
                                              '"relics": 0}}'], 2,
     "No uncaught turn awaits the guard's count"),
]


@pytest.mark.parametrize("what,lines,line,words", BAD_RECORDINGS,
                         ids=[c[0] for c in BAD_RECORDINGS])
def test_replay_of_a_bad_recording_exits_2_naming_file_and_line(tmp_path, capsys, what, lines,
                                                                 line, words):
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    code = cli.main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "%s:%d: " % (path, line) in err and words in err


def test_history_lists_finished_matches_with_winner_and_scores(tmp_path, capsys):
    rec = tmp_path / "rec"
    t = SimulatedTable(recordings_dir=rec, players=PLAYERS).start()
    t.play(demo_match().objects())
    t.stop()
    solo = SimulatedTable(recordings_dir=rec, players=["Zoe"]).start()
    s = Script(["Zoe"])
    s.start(1.0)
    s.hand_in(2.0)
    s.lift_painting(1, 3.0)
    s.lift_painting(2, 4.0)
    s.hand_out(5.0)
    s.exit(6.0)
    solo.play(s.objects())
    solo.stop()
    code = cli.main(["history", "--dir", str(rec)])
    out, err = capsys.readouterr()
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    demo = next(x for x in lines if "Ana, Ben, Caro" in x)
    assert "winner Caro" in demo
    assert "wins: Ana 0, Ben 1, Caro 2" in demo
    assert "R1 Ana:2 Ben:0 Caro:4" in demo and "R2 Ana:0 Ben:2 Caro:2" in demo
    zoe = next(x for x in lines if "Zoe" in x)
    assert "solo" in zoe


def test_the_press_after_a_match_opens_the_next_and_its_first_turn_waits(table):
    """Issue 30: one press after the results (to see them, by habit) started the next match
    and its first turn at once, the thief's time running.  The press opens the next match
    (its words said, its recording begun); the first turn waits for a deliberate press."""
    t = table()
    t.play(demo_match().objects())
    assert t.rig.match_over
    first = t.rig.recording_path
    t.advance(2.0).press()
    assert t.rig.recording_path != first and not t.rig.match_over
    assert t.turn is None
    said = list(t.rig.log_lines)[-3:]
    assert any("New match" in line for line in said), said
    t.advance(2.0)
    assert t.turn is None                      # no press: nothing starts
    t.press()
    assert t.turn is not None and t.rig.recording_path != first
    assert storage.is_finished(first)
