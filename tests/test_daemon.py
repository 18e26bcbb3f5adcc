"""The daemon end to end, driven by pin changes alone on simulated pins in virtual time."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rig.shell import storage
from rig.shell.faces import MemoryDisplay
from rig.games.cleptomano.rules.levels import make_level
from rig.words import english
from sim.script import Script, demo_match
from sim.table import SimulatedTable


def test_whole_match_by_pin_changes_gives_the_rulebook_result(table):
    t = table(players=["Ana", "Ben", "Caro"])
    t.play(demo_match().objects())
    result = t.rig.result()
    calls = [(x["thief"], x["outcome"], x["reason"], x["score"]) for x in result["turns"]]
    assert calls == [
        ("Ana", "escaped", None, 2),     # painting + relic - 1 bounced touch
        ("Ben", "caught", "guard", 0),
        ("Caro", "escaped", None, 4),    # two paintings
        ("Ana", "caught", "lasers", 0),  # third touch
        ("Ben", "escaped", None, 2),
        ("Caro", "escaped", None, 2),
    ]
    assert result["turns"][3]["broken"] == [1]
    assert result["rounds"][0]["winners"] == ["Caro"]
    assert result["rounds"][1]["winners"] == ["Ben", "Caro"]   # a tie: both win
    assert result["round_wins"] == {"Ana": 0, "Ben": 1, "Caro": 2}
    assert result["winner"] == "Caro"


def test_the_recording_replays_to_the_identical_result(table):
    t = table(players=["Ana", "Ben", "Caro"])
    t.play(demo_match().objects())
    live = t.rig.result()
    path = t.rig.recording_path
    t.stop()
    lines = path.read_text("utf-8").splitlines()
    assert json.loads(lines[0])["recording"] == "cleptomano"
    assert json.loads(lines[-1])["end"] is True
    assert storage.replay_file(path) == live


def test_a_touch_sounds_the_buzzer_at_once_and_counts_once(table):
    t = table().start_turn()
    t.advance_to(3.0).set("laser.4", 1)                 # first edge
    assert t.lamp("buzzer") == 1                         # no debounce delay
    t.set("laser.4", 0).advance(0.002)                   # bounce: released 2 ms, closed again
    t.set("laser.4", 1).advance(0.048).set("laser.4", 0)
    t.advance_to(3.5)
    # Heard on the first edge; the zero-length first pulse withdraws it, the bounce's next
    # closure sounds it again, and it ends 120 ms later: one short buzz.
    assert t.output_history("buzzer") == [(3.0, 1), (3.0, 0), (3.002, 1), (3.122, 0)]
    assert t.turn.touches == 1


def test_a_glitch_is_not_a_touch(table):
    t = table().start_turn()
    t.advance_to(3.0).touch("laser.5", hold_s=0.0005)    # 0.5 ms: noise
    t.advance_to(3.2)
    assert t.turn.touches == 0
    assert t.output_history("buzzer") == [(3.0, 1), (3.0005, 0)]   # withdrawn at once


def test_start_while_not_ready_starts_nothing_and_says_why(table):
    t = table()
    t.advance_to(0.5).set("seat.5", 0)                   # rod 5 lifted out of its seat
    t.advance_to(1.0).press(hold_s=0.2)
    assert t.turn is None
    assert t.said("laser 5 is not seated")
    assert "laser 5 is not seated" in map(english, t.board.ready_problems)


def test_inputs_out_of_play_are_ignored(table):
    t = table(level=make_level("normal")).start_turn()   # 4 added lasers: rods 4-7
    t.advance_to(3.0).touch("laser.8")
    t.advance_to(4.0).set("seat.8", 0).advance(1.0).set("seat.8", 1)
    assert t.turn is not None and t.turn.touches == 0


def test_caught_sounds_the_caught_pattern(table):
    t = table().start_turn()
    t.advance_to(3.0).touch("guard", hold_s=0.1)
    t.advance_to(6.0)
    assert t.buzzes() == 3      # three long buzzes: caught
    assert t.result()["turns"][0]["reason"] == "guard"


def test_stop_joins_every_thread_within_its_bound(tmp_path):
    t = SimulatedTable(recordings_dir=tmp_path).start()
    assert t.stop(timeout_s=3.0)
    assert all(not th.is_alive() for th in t.rig.threads)


turns_strategy = st.lists(
    st.fixed_dictionaries({
        "touches": st.integers(0, 3),
        "paintings": st.integers(0, 2),
        "relics": st.integers(0, 2),
        "guard": st.booleans(),
        "stay_s": st.sampled_from([3.0, 8.0, 61.0]),
    }), min_size=1, max_size=4)


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(turns=turns_strategy)
def test_record_then_replay_gives_the_identical_result(tmp_path_factory, turns):
    s = Script(["Ana", "Ben", "Caro"])
    t = 1.0
    for turn in turns:
        s.start(t)
        s.hand_in(t + 1.0)
        at = t + 1.5
        for i in range(turn["touches"]):
            s.touch(4 + i, at, bounce=[(0.0003, 0.001)])
            at += 0.5
        for n in range(1, turn["paintings"] + 1):
            s.lift_painting(n, at)
            at += 0.5
        for n in range(1, turn["relics"] + 1):
            s.take_relic(n, at, carry_s=0.3)
            at += 0.5
        if turn["guard"]:
            s.touch_guard(at)
            at += 0.3
        s.hand_out(t + 1.0 + max(turn["stay_s"], at - t))
        end = t + 2.0 + max(turn["stay_s"], at - t)
        s.exit(end)
        s.reset_museum(end + 0.5)
        t = end + 2.0
    s.end(t)
    table = SimulatedTable(recordings_dir=tmp_path_factory.mktemp("rec")).start()
    try:
        table.play(s.objects())
        live = table.rig.result()
        path = table.rig.recording_path
    finally:
        table.stop()
    assert storage.replay_file(path) == live
    for x in live["turns"]:
        assert x["score"] is None or 0 <= x["score"] <= 7


def test_the_ready_lamp_follows_the_museum_without_a_display(table):
    t = table()
    t.advance_to(0.5)
    assert t.museum.outputs_state("led.ready") == 1
    t.museum.set("seat.5", 0)                  # rod 5 lifted out of its seat
    t.advance_to(1.0)
    assert t.museum.outputs_state("led.ready") == 0
    t.museum.set("seat.5", 1)
    t.advance_to(1.5)
    assert t.museum.outputs_state("led.ready") == 1
    s = Script(["Ana", "Ben", "Caro"])
    s.start(2.0)
    t.play(s.objects())
    assert t.museum.outputs_state("led.ready") == 0      # a turn runs
    assert t.museum.outputs_state("led.turn") == 1


class FlakyDisplay(MemoryDisplay):
    """A display whose first frames fail, as a broken screen driver might."""

    def __init__(self, failures=3):
        super().__init__()
        self.failures = failures

    def show(self, board):
        if self.failures:
            self.failures -= 1
            raise RuntimeError("the screen went away")
        super().show(board)


def test_a_failing_display_does_not_stop_the_referee(table):
    display = FlakyDisplay()
    t = table(display=display).start_turn()
    t.advance_to(3.0).touch("laser.4")
    assert t.rig.alive()
    assert t.turn.touches == 1
    assert display.shows > 0


def test_a_failing_disk_is_a_named_fault_and_refereeing_goes_on(table):
    t = table().start_turn()
    writer = t.rig.session.writer
    real_write = writer.write

    def full(item):
        raise OSError(28, "No space left on device")

    writer.write = full
    t.advance_to(3.0).touch("laser.4")
    assert t.turn.touches == 1          # the touch still counts
    assert any("Recording failed" in english(f) for f in t.board.faults)
    assert t.lamp("led.fault") == 1
    writer.write = real_write
    t.advance_to(4.0).hand_out()
    assert not any("Recording failed" in english(f) for f in t.board.faults)
