"""From raw inputs to what the referee sees: touch episodes, displaced rods, the hand, broken
relics, readiness, rods out of play, and the thresholds exactly at their edges.

Thresholds (issue 3): releases shorter than 100 ms merge pulses into one touch; pulses shorter
than 1 ms are noise; a seat open for 250 ms means a displaced rod; a tilt of 60 degrees or more
held 300 ms while the hand is inside breaks a relic; "shorter than" is strict and deadlines due at
t fire before the lines at t.  Recording times are decimal seconds, so the edge cases are written
the way a recording writes them.
"""

import pytest

from rig.games.cleptomano.rules import calls
from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import engine as rules
from rig.games.cleptomano.rules.detect import Detector
from rig.games.cleptomano.rules.levels import make_level
from rig.games.cleptomano.rules.referee import Referee
from rig.words import english

from sim.harness import Recording as Script
from sim.harness import only_turn

NORMAL = make_level("normal")      # rods 1-7
HARD = make_level("hard")          # rods 1-8


def detect(changes, level=NORMAL, until=None):
    """Feeds ``(t, name, value)`` changes to a Detector the way the referee does (deadlines due
    at or before t first) and returns its game events (feedback and faults left out)."""
    d = Detector(level)
    out = []
    last = 0.0
    for t, name, value in changes:
        out += d.fire(t)
        out += d.feed(ev.InputChange(t, name, value))
        last = t
    out += d.fire(last + 10.0 if until is None else until)
    return [e for e in out if not isinstance(e, (ev.Feedback, ev.Fault))]


def pulses(name, spans):
    """Contact pulses ``[(on, off), ...]`` on input ``name`` as changes."""
    out = []
    for on, off in spans:
        out += [(on, name, 1), (off, name, 0)]
    return out


def touches(events):
    return [(e.t, e.laser) for e in events if isinstance(e, ev.LaserTouch)]


def boundary(value):
    """A parametrize case at a start time where binary floats of decimal recording times land
    on either side of an exact limit unless the code works on the microsecond grid."""
    return pytest.param(value, id=str(value))


# --- touch episodes ---------------------------------------------------------------------------


def test_a_clean_touch_is_one_touch_stamped_with_its_first_edge():
    assert touches(detect(pulses("laser.4", [(3.0, 3.2)]))) == [(3.0, 4)]


def test_bounces_shorter_than_100ms_merge_into_one_touch():
    spans = [(3.0, 3.01), (3.02, 3.05), (3.149, 3.2), (3.29, 3.4)]    # releases 10, 99, 90 ms
    assert touches(detect(pulses("laser.5", spans))) == [(3.0, 5)]


@pytest.mark.parametrize("start", [
    boundary(3.0),
    boundary(10.0),
    boundary(5.1),
])
def test_a_release_of_exactly_100ms_starts_a_new_touch(start):
    a = start
    spans = [(a, round(a + 0.05, 3)), (round(a + 0.15, 3), round(a + 0.2, 3))]
    assert len(touches(detect(pulses("laser.4", spans)))) == 2


def test_a_release_just_under_100ms_merges():
    spans = [(3.0, 3.05), (3.1499, 3.2)]
    assert len(touches(detect(pulses("laser.4", spans)))) == 1


@pytest.mark.parametrize("length_s", [0.0009, 0.0005, 0.0])
def test_pulses_shorter_than_1ms_are_noise(length_s):
    assert touches(detect(pulses("laser.4", [(3.0, 3.0 + length_s)]))) == []


@pytest.mark.parametrize("start", [
    boundary(3.0),
    boundary(10.5),
    boundary(4.03),
])
def test_a_pulse_of_exactly_1ms_counts(start):
    spans = [(start, round(start + 0.001, 3))]
    assert touches(detect(pulses("laser.4", spans))) == [(start, 4)]


def test_noise_then_a_real_touch_counts_once():
    spans = [(3.0, 3.0004), (3.5, 3.6), (3.65, 3.7)]
    assert len(touches(detect(pulses("laser.4", spans)))) == 1


def test_two_rods_at_once_are_two_touches():
    changes = [(3.0, "laser.4", 1), (3.0, "laser.6", 1), (3.1, "laser.4", 0),
               (3.1, "laser.6", 0)]
    assert sorted(touches(detect(changes))) == [(3.0, 4), (3.0, 6)]


def test_a_held_contact_is_one_touch():
    assert len(touches(detect(pulses("laser.2", [(3.0, 20.0)])))) == 1


def test_guard_touch_is_one_event_per_episode():
    events = detect(pulses("guard", [(3.0, 3.02), (3.05, 3.1), (4.0, 4.1)]))
    assert [e.t for e in events if isinstance(e, ev.GuardTouch)] == [3.0, 4.0]


def test_rods_out_of_play_give_nothing():
    changes = pulses("laser.8", [(3.0, 3.2)]) + [(4.0, "seat.8", 0)]
    events = detect(changes, level=NORMAL)
    assert not [e for e in events if isinstance(e, (ev.LaserTouch, ev.Displaced))]
    events = detect(changes, level=HARD)
    assert touches(events) == [(3.0, 8)]
    assert [e.laser for e in events if isinstance(e, ev.Displaced)] == [8]


# --- displaced rods -----------------------------------------------------------------------------

@pytest.mark.parametrize("start", [
    boundary(3.0),
    boundary(3.81),
])
def test_seat_open_for_250ms_is_displaced(start):
    changes = [(start, "seat.4", 0), (round(start + 0.25, 3), "seat.4", 1)]
    displaced = [e for e in detect(changes) if isinstance(e, ev.Displaced)]
    assert [(e.laser, e.t) for e in displaced] == [(4, pytest.approx(start + 0.25))]


def test_seat_open_for_249ms_is_not_displaced():
    changes = [(3.0, "seat.4", 0), (3.249, "seat.4", 1)]
    assert not [e for e in detect(changes) if isinstance(e, ev.Displaced)]


# --- the hand -------------------------------------------------------------------------------------

@pytest.mark.parametrize("mm, inside", [(0, True), (399, True), (399.9, True), (400, False),
                                        (1200, False), (8190, False)])
def test_hand_is_inside_while_the_sensor_reads_below_400mm(mm, inside):
    events = detect([(2.0, "tof", mm)])
    assert [type(e) for e in events] == ([ev.HandIn] if inside else [])


def test_hand_reading_is_held_until_the_next_one():
    events = detect([(2.0, "tof", 100), (2.5, "tof", 200), (3.0, "tof", 300), (9.0, "tof", 8190)])
    assert [(type(e), e.t) for e in events] == [(ev.HandIn, 2.0), (ev.HandOut, 9.0)]


# --- relics ---------------------------------------------------------------------------------------

def relic_breaks(changes):
    return [(e.relic, e.cause) for e in detect(changes) if isinstance(e, ev.RelicBroken)]


def test_fall_while_inside_breaks():
    assert relic_breaks([(2.0, "tof", 100), (3.0, "relic.2.freefall", 1)]) == [(2, "fall")]


def test_fall_while_outside_does_not_break():
    assert relic_breaks([(2.0, "tof", 100), (2.5, "tof", 8190),
                         (3.0, "relic.2.freefall", 1)]) == []


@pytest.mark.parametrize("start", [
    boundary(3.0),
    boundary(3.72),
])
def test_tilt_60_held_300ms_inside_breaks(start):
    changes = [(2.0, "tof", 100), (start, "relic.1.tilt", 60), (round(start + 0.3, 3),
                                                               "relic.1.tilt", 0)]
    assert relic_breaks(changes) == [(1, "tipped")]


@pytest.mark.parametrize("deg, hold_s", [(60, 0.299), (59.9, 10.0), (45, 10.0)])
def test_short_or_shallow_tilt_does_not_break(deg, hold_s):
    changes = [(2.0, "tof", 100), (3.0, "relic.1.tilt", deg), (3.0 + hold_s, "relic.1.tilt", 0)]
    assert relic_breaks(changes) == []


def test_tilt_while_the_hand_is_outside_does_not_break():
    assert relic_breaks([(3.0, "relic.3.tilt", 90)]) == []


# --- readiness --------------------------------------------------------------------------------------

READINESS = {
    "rod not seated": (HARD, [("seat.5", 0)], "laser 5 is not seated"),
    "added laser touched": (HARD, [("laser.5", 1)], "laser 5"),
    "printed laser touched": (NORMAL, [("laser.2", 1)], "laser 2"),
    "guard touched": (NORMAL, [("guard", 1)], "guard"),
    "painting off its stand": (NORMAL, [("painting.2", 0)], "painting 2"),
    "hand in the entrance": (NORMAL, [("tof", 250)], "250"),
    "relic lying down": (NORMAL, [("relic.3.tilt", 45)], "relic 3"),
    "relic moving": (NORMAL, [("relic.1.motion", 1)], "relic 1"),
}


def feed(referee, t, name, value):
    return referee.feed(ev.InputChange(t, name, value))


@pytest.mark.parametrize("case", sorted(READINESS))
def test_each_readiness_problem_blocks_the_start_and_is_named(case):
    level, problem, words = READINESS[case]
    referee = Referee(rules.new_match(("Ana", "Ben"), level))
    effects = []
    for name, value in problem:
        effects += feed(referee, 0.5, name, value)
    effects += feed(referee, 1.0, "button", 1)
    effects += feed(referee, 1.1, "button", 0)
    assert referee.match.current is None
    refusals = [english(calls.refusal_text(e)) for e in effects if isinstance(e, ev.Refused)]
    assert len(refusals) == 1 and words in refusals[0], refusals
    assert not [e for e in effects if isinstance(e, ev.TurnStarted)]


@pytest.mark.parametrize("case", sorted(READINESS))
def test_the_start_works_once_the_problem_is_fixed(case):
    level, problem, _ = READINESS[case]
    referee = Referee(rules.new_match(("Ana", "Ben"), level))
    for name, value in problem:
        feed(referee, 0.5, name, value)
    feed(referee, 1.0, "button", 1)
    feed(referee, 1.1, "button", 0)
    for name, value in problem:
        feed(referee, 2.0, name, {"tof": 8190}.get(name, 1 if name.startswith(
            ("seat", "painting")) else 0))
    feed(referee, 3.0, "button", 1)
    effects = feed(referee, 3.1, "button", 0)
    assert referee.match.current is not None
    assert referee.match.current.start_t == 3.0
    assert [e.thief for e in effects if isinstance(e, ev.TurnStarted)] == ["Ana"]


def test_a_rod_out_of_play_never_blocks_the_start():
    referee = Referee(rules.new_match(("Ana", "Ben"), NORMAL))
    feed(referee, 0.5, "seat.8", 0)
    feed(referee, 0.6, "laser.8", 1)
    feed(referee, 1.0, "button", 1)
    feed(referee, 1.1, "button", 0)
    assert referee.match.current is not None


def test_a_touch_sounds_on_its_first_edge():
    """Debouncing adds no delay: the buzzer hears about a touch at its first edge."""
    referee = Referee(rules.new_match(("Ana", "Ben"), NORMAL))
    feed(referee, 1.0, "button", 1)
    feed(referee, 1.1, "button", 0)
    feed(referee, 2.0, "tof", 100)
    effects = feed(referee, 3.0, "laser.4", 1)
    assert any(e.t == 3.0 and (isinstance(e, ev.Buzz) or (isinstance(e, ev.Feedback) and e.on))
               for e in effects), effects


# --- the clock: deadlines before lines at the same time ---------------------------------------

@pytest.mark.parametrize("start", [
    boundary(1.0),
    boundary(8.21),
])
def test_time_limit_fires_before_a_line_at_the_same_time(start):
    s = Script()
    s.press(start)
    s.hand_in(start + 1.0)
    s.hand_out(round(start + 60.0, 3))
    s.end(start + 70.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"]) == ("caught", "time")


def test_third_touch_just_before_the_time_limit_is_caught_lasers():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.touch(4, 10.0)
    s.touch(5, 20.0)
    s.touch(6, 60.9995, dur=0.05)
    s.end(70.0)
    turn = only_turn(s.replay())
    assert (turn["outcome"], turn["reason"], turn["touches"]) == ("caught", "lasers", 3)


def test_exit_press_just_before_the_time_limit_ends_the_turn_and_starts_nothing():
    s = Script()
    s.press(1.0)
    s.hand_in(2.0)
    s.hand_out(5.0)
    s.press(60.9995)
    s.end(70.0)
    result = s.replay()
    turn = only_turn(result)
    assert turn["outcome"] == "escaped"
    assert turn["duration_s"] == pytest.approx(59.9995)
