"""The recording contract (issue 3, "Recording and replay: the contract"), driven the way a user
meets it: a recording built line by line, re-refereed by ``rig.games.cleptomano.rules.replay``, and
the result JSON checked against the rulebook.

:class:`Script` is the tiny builder the other test modules share: each method writes the input
lines a real table would produce (a press is a 1 then a 0 on ``button``, a touch a pulse on a
``laser.N`` line ...).  Times are the recording's own decimal seconds; nothing here sleeps.
"""

import json
import pathlib

import pytest

from rig.core.errors import RecordingError
from rig.games.cleptomano.rules.recording import dumps, parse_header
from rig.games.cleptomano.rules.replay import replay_lines
from rig.shell.storage import Writer, replay_file
from sim.harness import INSIDE_MM, only_turn, solo
from sim.harness import Recording as Script

HERE = pathlib.Path(__file__).resolve().parents[2]     # tests/: its recordings
RECORDINGS = HERE / "recordings"

OUTSIDE_MM = 8190      # nothing in range


# --- the result's shape ------------------------------------------------------------------------

def test_result_has_exactly_the_contract_keys():
    s = Script()
    s.heist(1.0, paintings=2, relics=1, touches=1)
    result = s.replay()
    assert set(result) == {"players", "turns", "rounds", "round_wins", "tiebreak", "winner",
                           "title"}
    assert set(result["turns"][0]) == {"round", "thief", "guard", "outcome", "reason", "touches",
                                       "paintings", "relics", "broken", "fouls", "score",
                                       "duration_s"}
    json.dumps(result)      # it is JSON as it stands


def test_a_clean_turn_reads_as_the_contract_example():
    s = Script()
    end = s.heist(1.0, paintings=2, relics=1, touches=1)
    turn = only_turn(s.replay())
    assert turn == {"round": 1, "thief": "Ana", "guard": "Ben", "outcome": "escaped",
                    "reason": None, "touches": 1, "paintings": 2, "relics": 1, "broken": [],
                    "fouls": [], "score": 4, "duration_s": pytest.approx(end - 1.0)}


def test_before_any_line_the_museum_is_ready():
    s = Script()
    s.press(1.0)
    turn = only_turn(s.replay())
    assert turn["outcome"] == "unfinished"
    assert turn["score"] is None


# --- levels in the header -----------------------------------------------------------------------

@pytest.mark.parametrize("difficulty, limit_s", [("normal", 60.0), ("hard", 30.0)])
def test_preset_time_limits(difficulty, limit_s):
    s = Script(difficulty=difficulty)
    s.press(1.0)
    s.hand_in(2.0)
    s.end(200.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "time")
    assert turn["duration_s"] == pytest.approx(limit_s)


def test_easy_has_no_time_limit():
    s = Script(difficulty="easy")
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 3.0)
    s.hand_out(900.0)
    s.press(1000.0)
    turn = only_turn(s.replay())
    assert turn["outcome"] == "escaped"
    assert turn["score"] == 2


def test_header_overrides_the_time_limit():
    s = Script(difficulty="normal", timer_s=10)
    s.press(1.0)
    s.hand_in(2.0)
    s.end(100.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "time")
    assert turn["duration_s"] == pytest.approx(10.0)


def test_header_timer_null_means_no_limit():
    s = Script(difficulty="hard", timer_s=None)
    s.press(1.0)
    s.hand_in(2.0)
    s.hand_out(500.0)
    s.press(501.0)
    assert only_turn(s.replay())["outcome"] == "escaped"


@pytest.mark.parametrize("lasers, rod, counts", [
    (3, 6, True), (3, 7, False), (3, 8, False),
    (4, 7, True), (4, 8, False),
    (5, 8, True),
])
def test_header_lasers_decide_which_rods_are_in_play(lasers, rod, counts):
    s = Script(lasers=lasers)
    s.heist(1.0, paintings=1, touches=1, rods=(rod,))
    turn = only_turn(s.replay())
    assert turn["touches"] == (1 if counts else 0)
    assert turn["score"] == (1 if counts else 2)


# --- a turn ----------------------------------------------------------------------------------------

def test_start_press_while_not_ready_starts_nothing():
    s = Script(difficulty="hard")
    s.unseat(5, 0.5)
    s.press(1.0)
    s.end(5.0)
    assert s.replay()["turns"] == []


def test_start_press_after_fixing_the_problem_starts_the_turn_then():
    s = Script(difficulty="hard")
    s.unseat(5, 0.5, dur=2.0)        # seated again at 2.5
    s.press(1.0)                     # refused
    s.press(3.0)                     # starts
    s.hand_in(4.0)
    s.take_painting(1, 5.0)
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["outcome"] == "escaped"
    assert turn["duration_s"] == pytest.approx(4.0)


@pytest.mark.parametrize("touches, score", [(0, 2), (1, 1), (2, 0)])
def test_each_touch_costs_a_point(touches, score):
    s = Script()
    s.heist(1.0, paintings=1, touches=touches)
    turn = only_turn(s.replay())
    assert (turn["touches"], turn["score"], turn["outcome"]) == (touches, score, "escaped")


def test_touches_on_two_rods_at_once_are_two_touches():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_painting(2, 2.7)
    s.set(4.0, "laser.4", 1)
    s.set(4.0, "laser.5", 1)
    s.set(4.2, "laser.4", 0)
    s.set(4.2, "laser.5", 0)
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["touches"] == 2
    assert turn["score"] == 2


def test_third_touch_is_caught_lasers():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.touch(4, 3.0)
    s.touch(5, 4.0)
    s.touch(1, 5.0)
    s.touch(6, 6.0)      # after the end of the turn: not counted
    s.hand_out(7.0)
    s.press(8.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "lasers")
    assert turn["touches"] == 3
    assert (turn["paintings"], turn["relics"], turn["score"]) == (0, 0, 0)
    assert turn["duration_s"] == pytest.approx(4.0)


def test_bouncing_contact_is_one_touch():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    # one touch that chatters: pulses separated by releases shorter than 100 ms
    for k, (on, off) in enumerate([(3.0, 3.02), (3.05, 3.06), (3.12, 3.2), (3.25, 3.3)]):
        s.set(on, "laser.4", 1)
        s.set(off, "laser.4", 0)
    s.hand_out(5.0)
    s.press(6.0)
    turn = only_turn(s.replay())
    assert turn["touches"] == 1
    assert turn["score"] == 1


def test_guard_touch_is_caught_guard():
    s = Script()
    end = s.caught_by_guard(1.0, paintings=2)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["score"]) == ("caught", "guard", 0)
    assert (turn["paintings"], turn["relics"]) == (0, 0)
    assert turn["duration_s"] == pytest.approx(end - 1.0)


def test_displaced_rod_is_caught_displaced():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.unseat(4, 3.0, dur=1.0)
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["score"]) == ("caught", "displaced", 0)
    assert turn["duration_s"] == pytest.approx(2.25)


def test_seat_open_shorter_than_250ms_is_not_displaced():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.unseat(4, 3.0, dur=0.249)
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["score"]) == ("escaped", 2)


def test_time_out_inside_is_caught_time():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(70.0)
    s.press(71.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["score"]) == ("caught", "time", 0)
    assert turn["duration_s"] == pytest.approx(60.0)


def test_time_out_outside_ends_the_turn_escaped():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(30.0)
    s.touch(4, 62.0)     # after the end of the turn: not counted
    s.end(70.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["score"]) == ("escaped", None, 2)
    assert turn["duration_s"] == pytest.approx(60.0)


def test_exit_press_inside_is_ignored():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.press(5.0)           # still inside: ignored
    s.take_painting(2, 6.0)
    s.hand_out(7.0)
    s.press(8.0)
    turn = only_turn(s.replay())
    assert turn["outcome"] == "escaped"
    assert turn["paintings"] == 2
    assert turn["duration_s"] == pytest.approx(7.0)


def test_exit_press_outside_ends_the_turn():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(3.0)
    s.press(4.0)
    s.hand_in(5.0)          # after the turn: nothing of this counts
    s.take_painting(2, 5.5)
    s.guard(6.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["paintings"], turn["score"]) == ("escaped", 1, 2)
    assert turn["duration_s"] == pytest.approx(3.0)


def test_fall_while_inside_breaks_the_relic():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_relic(1, 3.0, carry=0.2)
    s.take_relic(2, 3.5, carry=0.2)
    s.fall(2, 3.6)
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["broken"] == [2]
    assert (turn["paintings"], turn["relics"], turn["score"]) == (1, 1, 3)


def test_fall_while_outside_does_not_break():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_relic(1, 3.0, carry=0.2)
    s.hand_out(4.0)
    s.fall(1, 4.5)           # dropped at the door, outside the museum
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["broken"] == []
    assert turn["relics"] == 1


@pytest.mark.parametrize("deg, hold_s, broken", [
    (60, 0.3, True), (90, 1.0, True), (60, 0.299, False), (59, 5.0, False),
])
def test_tipping_inside_breaks_after_300ms_at_60_degrees(deg, hold_s, broken):
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.tilt(3, 3.0, deg)
    s.tilt(3, 3.0 + hold_s, 0)      # set upright again
    s.hand_out(10.0)
    s.press(11.0)
    turn = only_turn(s.replay())
    assert turn["broken"] == ([3] if broken else [])


def test_broken_relics_never_count_even_if_confirmed():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_relic(1, 3.0, carry=0.2)
    s.fall(1, 3.1)
    s.take_relic(2, 4.0, carry=0.2)
    s.take_relic(3, 5.0, carry=0.2)
    s.hand_out(6.0)
    s.press(7.0)
    s.loot(8.0, 1, 3)
    turn = only_turn(s.replay())
    assert turn["broken"] == [1]
    assert turn["relics"] == 2       # 3 minus 1 broken
    assert turn["score"] == 4


@pytest.mark.parametrize("deg, counts", [(0, True), (29.9, True), (30, False), (45, False)])
def test_sensor_haul_counts_relics_upright_below_30_degrees(deg, counts):
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_relic(1, 3.0, carry=0.2)
    s.tilt(1, 3.5, deg)             # how it stands at the door
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["relics"] == (1 if counts else 0)


def test_sensor_haul_counts_only_relics_still_at_the_end():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_relic(1, 3.0, carry=0.2)
    s.set(3.5, "relic.2.motion", 1)     # still wobbling when the turn ends
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["relics"] == 1


def test_sensor_haul_counts_paintings_off_their_stands_at_the_end():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.take_painting(2, 3.0)
    s.return_painting(2, 3.5)       # put back before the end
    s.hand_out(6.0)
    s.press(7.0)
    turn = only_turn(s.replay())
    assert turn["paintings"] == 1


@pytest.mark.parametrize("confirmed, sensed, expected", [
    ((2, 1), (2, 1), (2, 1)),
    ((1, 0), (2, 1), (1, 0)),       # the guard saw less: the guard's count stands
    ((2, 3), (1, 1), (1, 3)),       # paintings clamped to those off their stands
    ((0, 3), (0, 0), (0, 3)),       # relics clamped to 3 minus broken (none broken here)
])
def test_loot_confirmation_is_clamped_to_the_sensors(confirmed, sensed, expected):
    s = Script()
    end = s.heist(1.0, paintings=sensed[0], relics=sensed[1])
    s.loot(end + 0.5, *confirmed)
    turn = only_turn(s.replay())
    assert (turn["paintings"], turn["relics"]) == expected
    assert turn["score"] == 2 * expected[0] + expected[1]


def test_score_never_below_zero():
    s = Script()
    s.heist(1.0, paintings=0, relics=1, touches=2)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["score"]) == ("escaped", 0)


def test_fouls_are_reported_and_not_punished():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_relic(1, 2.5, carry=0.2)     # a relic before any painting
    s.take_painting(1, 3.0)
    s.take_relic(3, 3.5, carry=0.2)     # relic 3 before relic 2
    s.hand_out(5.0)
    s.press(6.0)
    turn = only_turn(s.replay())
    assert len(turn["fouls"]) == 2
    assert all(isinstance(f, str) and f for f in turn["fouls"])
    assert (turn["relics"], turn["score"]) == (2, 4)


def test_no_fouls_when_the_order_is_kept():
    s = Script()
    s.heist(1.0, paintings=1, relics=3)
    turn = only_turn(s.replay())
    assert turn["fouls"] == []
    assert turn["score"] == 5


def test_rod_out_of_play_is_ignored():
    s = Script()                  # normal: 4 added lasers, rods 4-7
    s.set(0.5, "seat.8", 0)       # rod 8 not even there: does not block the start
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.touch(8, 3.0)
    s.touch(8, 3.5)
    s.touch(8, 4.0)
    s.hand_out(5.0)
    s.press(6.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["touches"], turn["score"]) == ("escaped", 0, 2)


def test_deadline_at_t_fires_before_the_line_at_t():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(61.0)            # leaves exactly when the time runs out: too late
    s.press(62.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "time")


def test_touch_at_the_deadline_is_after_the_turn():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(30.0)
    s.touch(4, 61.0)
    s.end(70.0)
    turn = only_turn(s.replay())
    assert (turn["touches"], turn["score"]) == (0, 2)


# --- choices and loot lines that are bad input -----------------------------------------------------

def test_loot_with_no_turn_awaiting_is_bad_input():
    s = Script()
    s.loot(0.5, 1, 0)
    with pytest.raises(RecordingError, match="line 2"):
        s.replay()


def test_loot_after_a_caught_turn_is_bad_input():
    s = Script()
    s.caught_by_guard(1.0, paintings=1)
    s.loot(8.0, 1, 0)
    with pytest.raises(RecordingError):
        s.replay()


def test_loot_during_a_running_turn_is_bad_input():
    s = Script()
    s.press(1.0)
    s.loot(3.0, 1, 0)
    with pytest.raises(RecordingError):
        s.replay()


def test_loot_after_the_next_turn_started_is_bad_input():
    s = Script()
    end = s.heist(1.0, paintings=1)
    s.press(end + 5.0)
    s.loot(end + 6.0, 1, 0)
    with pytest.raises(RecordingError):
        s.replay()


# --- recording end -------------------------------------------------------------------------------

def test_end_line_stops_the_recording():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.hand_out(3.0)
    s.press(4.0)
    s.end(5.0)
    s.press(6.0)             # after the end: never happened
    s.guard(7.0)
    result = s.replay()
    assert len(result["turns"]) == 1
    assert result["turns"][0]["score"] == 2


def test_running_turn_at_the_end_is_unfinished_and_no_deadline_after_it_fires():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)
    s.unseat(4, 10.0)               # would be displaced at 10.25 ...
    s.end(10.1)                     # ... but the recording ends first; the time limit too
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["score"]) == ("unfinished", None, None)


def test_recording_without_end_line_ends_at_its_last_line():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.take_painting(1, 2.5)   # last line; the time limit at 61 s never comes
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["score"]) == ("unfinished", None)


def test_deadline_exactly_at_the_end_fires():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.end(61.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "time")


def test_recording_stopping_mid_match_reports_what_happened_so_far():
    s = Script()
    t = s.heist(1.0, paintings=2)
    t = s.heist(t + 5, paintings=1)
    s.press(t + 5)
    s.hand_in(t + 6)
    result = s.replay()
    assert [x["thief"] for x in result["turns"]] == ["Ana", "Ben", "Caro"]
    assert [x["outcome"] for x in result["turns"]] == ["escaped", "escaped", "unfinished"]
    assert [x["score"] for x in result["turns"]] == [4, 2, None]
    assert result["rounds"] == []
    assert result["round_wins"] == {"Ana": 0, "Ben": 0, "Caro": 0}
    assert (result["tiebreak"], result["winner"], result["title"]) == (None, None, None)


# --- bad input ----------------------------------------------------------------------------------

HEADER = json.dumps({"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"],
                     "difficulty": "normal"})

BAD_INPUT = {
    "not json": ([HEADER, '{"t": 1.0, "input": "button", "value": 1}', "{t: 2"], 3, "JSON"),
    "unknown input": ([HEADER, '{"t": 1.0, "input": "laser.9", "value": 1}'], 2, "laser.9"),
    "time backwards": ([HEADER, '{"t": 2.0, "input": "button", "value": 1}',
                        '{"t": 1.5, "input": "button", "value": 0}'], 3, "1.5"),
    "invalid choice": ([HEADER, '{"t": 0.5, "choose": "thief", "player": "Zoe"}'], 2, "Zoe"),
    "bad value": ([HEADER, '{"t": 1.0, "input": "laser.4", "value": 7}'], 2, "7"),
    "bad tof value": ([HEADER, '{"t": 1.0, "input": "tof", "value": "near"}'], 2, "near"),
    "bad header": (['{"recording": "cleptomano", "version": 1, "players": ["Ana"], '
                    '"difficulty": "normal", "lasers": 9}'], 1, "9"),
    "unknown difficulty": (['{"recording": "cleptomano", "version": 1, "players": ["Ana"], '
                            '"difficulty": "insane"}'], 1, "insane"),
    "no header": (['{"t": 1.0, "input": "button", "value": 1}'], 1, "header"),
    "bad loot": ([HEADER, '{"t": 1.0, "loot": {"paintings": 5, "relics": 0}}'], 2, "5"),
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUT))
def test_bad_input_names_file_line_and_what_is_wrong(kind, tmp_path):
    lines, line, words = BAD_INPUT[kind]
    path = tmp_path / "match.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RecordingError) as info:
        replay_file(str(path))
    message = str(info.value)
    assert message.startswith("%s:%d:" % (path, line)), message
    assert words in message


@pytest.mark.parametrize("kind", sorted(BAD_INPUT))
def test_bad_input_from_lines_names_the_line(kind):
    lines, line, words = BAD_INPUT[kind]
    with pytest.raises(RecordingError) as info:
        replay_lines(lines, path="match.jsonl")
    assert str(info.value).startswith("match.jsonl:%d:" % line)
    assert words in str(info.value)


def _written_by_the_rig(path, by):
    """A recording the rig's own writer made: a heist whose haul ``by`` confirmed (the writer
    writes text as it is, U+2028 and U+0085 included: JSON allows them raw)."""
    s = Script(players=("Ana", "Ben"))
    s.heist(1.0, paintings=1)
    header, *lines = s.objects()
    writer = Writer(path)
    for obj in [parse_header(header).to_json()] + lines + [
            {"t": 10.0, "loot": {"paintings": 1, "relics": 0}, "by": by}]:
        writer.write((dumps(obj) + "\n").encode("utf-8"))
    writer.close()
    return len(lines) + 2


@pytest.mark.parametrize("by", ["desk\u2028guard", "desk\u2029guard", "desk\x85guard"])
def test_a_recording_is_read_by_newlines_only(tmp_path, by):
    path = tmp_path / "match.jsonl"
    loot_line = _written_by_the_rig(path, by)
    assert len(path.read_text("utf-8").splitlines()) > loot_line    # what used to break it
    assert only_turn(replay_file(str(path)))["paintings"] == 1
    with open(path, "a", encoding="utf-8") as f:
        f.write('{"t": 11.0, "input": "laser.9", "value": 1}\n')
    with pytest.raises(RecordingError) as info:
        replay_file(str(path))
    assert str(info.value).startswith("%s:%d: input 'laser.9'" % (path, loot_line + 1))


# --- golden recordings ----------------------------------------------------------------------------

def _close(actual, expected):
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        return actual == pytest.approx(expected, abs=1e-6)
    if isinstance(expected, dict):
        return isinstance(actual, dict) and set(actual) == set(expected) and all(
            _close(actual[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(actual) == len(expected) and all(
            _close(a, e) for a, e in zip(actual, expected))
    return actual == expected and type(actual) is type(expected)


@pytest.mark.parametrize("name", sorted(p.stem for p in RECORDINGS.glob("*.jsonl")))
def test_golden_recording_replays_to_its_expected_result(name):
    expected = json.loads((RECORDINGS / (name + ".json")).read_text(encoding="utf-8"))
    actual = replay_file(str(RECORDINGS / (name + ".jsonl")))
    assert _close(actual, expected), json.dumps(actual, indent=1)


GOLDEN = ("three_player_match", "solo_rulebook_example")


def test_golden_recordings_are_present():
    """Fails loudly if the golden files did not make it into the checkout (e.g. ignored)."""
    for name in GOLDEN:
        assert (RECORDINGS / (name + ".jsonl")).is_file(), name
        assert (RECORDINGS / (name + ".json")).is_file(), name


def test_cleptomano_replay_prints_the_result_as_one_json_line(capsys):
    from rig import cli
    code = cli.main(["replay", str(RECORDINGS / "solo_rulebook_example.jsonl")])
    out, _ = capsys.readouterr()
    assert code == 0
    assert out.count("\n") == 1
    assert json.loads(out)["title"] == "Specialist in high-risk robberies"


# --- time is data ----------------------------------------------------------------------------------

def test_a_60s_turn_with_many_inputs_replays():
    """The hand sensor at 50 Hz and relic tilt reports for a whole turn (about 9,000 lines):
    refereed to the end.  What it costs is ``make bench --only replay``'s (``scaling``)."""
    from sim.tools.bench_scaling import long_turn_lines
    lines = long_turn_lines()
    assert len(lines) > 5000
    assert only_turn(replay_lines(lines))["outcome"] == "escaped"
