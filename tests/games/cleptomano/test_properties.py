"""Invariants of the referee over generated play (hypothesis).

* a finished turn scores 0..7, and a caught one scores 0 with no haul;
* a touch is never counted twice, however much its contact chatters (bounces shorter than
  100 ms, glitches shorter than 1 ms);
* a match played until someone has 2 round wins, tiebreak included, ends with exactly one winner;
* the engine never raises on game events, and replay never raises on valid input lines.

Generated times stay at least 1 microsecond away from the thresholds; the exact edges are
tested case by case in test_detect.py.
"""

import json

from hypothesis import HealthCheck, assume, given, settings, strategies as st
from hypothesis import event as note

from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import engine as rules
from rig.games.cleptomano.rules.detect import Detector
from rig.table.names import INPUT_NAMES
from rig.games.cleptomano.rules.levels import make_level
from rig.games.cleptomano.rules.replay import replay_lines

FAST = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
NAMES = ("Ana", "Ben", "Caro", "Dan")
LEVELS = st.sampled_from([make_level("easy"), make_level("normal"), make_level("hard"),
                          make_level("normal", timer_s=5.0, lasers=3)])


def check_turn(turn):
    if turn.outcome in (rules.TurnOutcome.UNFINISHED, rules.TurnOutcome.VOID, None):
        return
    assert 0 <= turn.score <= 7
    assert 0 <= turn.paintings <= 2 and 0 <= turn.relics <= 3
    assert turn.touches <= 3
    if turn.caught:
        assert (turn.score, turn.paintings, turn.relics) == (0, 0, 0)


# --- the engine on arbitrary game events ----------------------------------------------------------

game_event = st.one_of(
    st.tuples(st.just("press"), st.booleans()),
    st.tuples(st.just("in")), st.tuples(st.just("out")),
    st.tuples(st.just("touch"), st.integers(1, 8)),
    st.tuples(st.just("displaced"), st.integers(4, 8)),
    st.tuples(st.just("guard")),
    st.tuples(st.just("painting"), st.integers(1, 2), st.booleans()),
    st.tuples(st.just("relic"), st.integers(1, 3)),
    st.tuples(st.just("pose"), st.integers(1, 3), st.booleans(), st.booleans()),
    st.tuples(st.just("broken"), st.integers(1, 3), st.sampled_from(["fall", "tipped"])),
    st.tuples(st.just("tick")),
    st.tuples(st.just("loot"), st.integers(0, 2), st.integers(0, 3)),
)


def to_event(t, spec):
    kind = spec[0]
    if kind == "press":
        return ev.ButtonPress(t, () if spec[1] else ("laser 4 is not seated",))
    return {
        "in": lambda: ev.HandIn(t), "out": lambda: ev.HandOut(t),
        "touch": lambda: ev.LaserTouch(t, spec[1]), "displaced": lambda: ev.Displaced(t, spec[1]),
        "guard": lambda: ev.GuardTouch(t),
        "painting": lambda: ev.PaintingMoved(t, spec[1], spec[2]),
        "relic": lambda: ev.RelicMoved(t, spec[1]),
        "pose": lambda: ev.RelicPose(t, spec[1], spec[2], spec[3]),
        "broken": lambda: ev.RelicBroken(t, spec[1], spec[2]),
        "tick": lambda: ev.Tick(t),
        "loot": lambda: ev.ConfirmLoot(t, spec[1], spec[2]),
    }[kind]()


@FAST
@given(players=st.integers(1, 4), level=LEVELS,
       steps=st.lists(st.tuples(st.floats(0, 20, allow_nan=False), game_event), max_size=80))
def test_engine_never_raises_and_scores_stay_in_range(players, level, steps):
    match = rules.new_match(NAMES[:players], level)
    t = 0.0
    for dt, spec in steps:
        t += dt
        event = to_event(t, spec)
        if isinstance(event, ev.ConfirmLoot) and rules.open_haul(match) is None:
            continue        # a confirmation with nothing awaiting is a refused choice
        match, effects = rules.step(match, event)
        for turn in match.turns + match.attempts:
            check_turn(turn)
        assert all(isinstance(e, ev.Effect) for e in effects)
    finished = rules.unfinished(match, t)
    for turn in finished.turns + finished.attempts:
        check_turn(turn)
    if match.solo:
        assert rules.winner(match) is None and rules.rounds(match) == []
    else:
        assert rules.winner(match) in (None,) + NAMES[:players]


# --- replay on arbitrary valid input lines --------------------------------------------------------

def input_value(name):
    if name == "tof":
        return st.sampled_from([100, 399, 400, 8190])
    if name.endswith(".tilt"):
        return st.sampled_from([0, 29, 30, 59, 60, 90])
    return st.integers(0, 1)


raw_line = st.sampled_from(INPUT_NAMES).flatmap(
    lambda name: st.tuples(st.just(name), input_value(name)))


@FAST
@given(players=st.integers(1, 3),
       difficulty=st.sampled_from(["easy", "normal", "hard"]),
       lines=st.lists(st.tuples(st.integers(0, 400_000), raw_line), max_size=120))
def test_replay_never_raises_on_valid_inputs_and_scores_stay_in_range(players, difficulty,
                                                                       lines):
    header = {"recording": "cleptomano", "version": 1, "players": list(NAMES[:players]),
              "difficulty": difficulty}
    t_us = 0
    text = [json.dumps(header)]
    for dt_us, (name, value) in lines:
        t_us += dt_us
        text.append(json.dumps({"t": t_us / 1e6, "input": name, "value": value}))
    result = replay_lines(text)
    for turn in result["turns"]:
        if turn["outcome"] == "unfinished":
            assert turn["score"] is None
            continue
        assert 0 <= turn["score"] <= 7
        assert turn["touches"] <= 3
        if turn["outcome"] == "caught":
            assert (turn["score"], turn["paintings"], turn["relics"]) == (0, 0, 0)
            assert turn["reason"] in ("lasers", "displaced", "guard", "time")
        else:
            assert turn["reason"] is None
            assert turn["score"] == max(0, 2 * turn["paintings"] + turn["relics"]
                                        - turn["touches"])
    assert (result["title"] is None) or players == 1


# --- touches never counted twice ------------------------------------------------------------------

US = 1_000_000
MERGE_US, GLITCH_US = 100_000, 1_000

bounce = st.tuples(
    st.integers(2, MERGE_US - 1),                       # release gap, shorter than 100 ms
    st.one_of(st.none(), st.integers(1, GLITCH_US - 1)),    # a glitch inside that gap
    st.integers(GLITCH_US + 1, 50_000),                 # the next pulse (a real one)
)
train = st.tuples(
    st.integers(MERGE_US + 1, 2 * US),                  # quiet before the touch
    st.one_of(st.none(), st.integers(1, GLITCH_US - 1)),    # a lone glitch in that quiet
    st.integers(GLITCH_US + 1, 300_000),                # the first pulse
    st.lists(bounce, max_size=5),
)


def glitch_at(start, length):
    return [(start, 1), (start + length, 0)]


def build_trains(trains):
    """Returns (edges [(t_us, value)], first edges of the real touches)."""
    edges, firsts, t = [], [], 0
    for quiet, lone, first, bounces in trains:
        if lone is not None:
            # a lone glitch in the middle of the quiet, with >= 100 ms on both sides
            t += MERGE_US + 1
            edges += glitch_at(t, lone)
            t += lone
        t += quiet
        firsts.append(t)
        edges += glitch_at(t, first)
        t += first
        for gap, glitch, pulse in bounces:
            if glitch is not None and gap > glitch + 2:
                edges += glitch_at(t + 1, glitch)
            t += gap
            edges += glitch_at(t, pulse)
            t += pulse
    return edges, firsts


@FAST
@given(rod=st.integers(1, 7), trains=st.lists(train, min_size=0, max_size=8))
def test_each_real_touch_counts_exactly_once_however_it_bounces(rod, trains):
    edges, firsts = build_trains(trains)
    detector = Detector(make_level("normal"))
    name = "laser.%d" % rod
    out = []
    for t_us, value in edges:
        t = t_us / US
        out += detector.fire(t)
        out += detector.feed(ev.InputChange(t, name, value))
    out += detector.fire((edges[-1][0] / US if edges else 0) + 10)
    counted = [e.t for e in out if isinstance(e, ev.LaserTouch)]
    assert counted == [f / US for f in firsts]


@FAST
@given(trains=st.lists(train, min_size=0, max_size=3), paintings=st.integers(0, 2))
def test_touches_in_a_replayed_turn_count_once_each(trains, paintings):
    edges, firsts = build_trains(trains)
    offset = 3 * US                      # the turn starts at 1 s, the hand is in at 2 s
    assume(not edges or edges[-1][0] + offset < 55 * US)
    lines = [{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"],
              "difficulty": "normal"},
             {"t": 1.0, "input": "button", "value": 1}, {"t": 1.05, "input": "button", "value": 0},
             {"t": 2.0, "input": "tof", "value": 150}]
    for n in range(paintings):
        lines.append({"t": 2.5, "input": "painting.%d" % (n + 1), "value": 0})
    for t_us, value in edges:
        lines.append({"t": (t_us + offset) / US, "input": "laser.5", "value": value})
    lines += [{"t": 58.0, "input": "tof", "value": 8190},
              {"t": 59.0, "input": "button", "value": 1},
              {"t": 59.05, "input": "button", "value": 0}]
    result = replay_lines([json.dumps(x) for x in lines])
    turn = result["turns"][0]
    n = len(firsts)
    assert turn["touches"] == min(n, 3)
    if n >= 3:
        assert (turn["outcome"], turn["reason"], turn["score"]) == ("caught", "lasers", 0)
    else:
        assert (turn["outcome"], turn["score"]) == ("escaped", max(0, 2 * paintings - n))


# --- a whole match ends with exactly one winner --------------------------------------------------

NORMAL = make_level("normal")


def regular_turn(t, plan):
    """Engine events for one regular turn from a drawn plan; returns (events, next t)."""
    kind, paintings, relics, touches = plan
    out = [ev.ButtonPress(t), ev.HandIn(t + 1)]
    for i in range(paintings):
        out.append(ev.PaintingMoved(t + 1.5 + 0.1 * i, i + 1, False))
    for i in range(relics):
        out.append(ev.RelicMoved(t + 2 + 0.1 * i, i + 1))
    for i in range(touches):
        out.append(ev.LaserTouch(t + 3 + 0.1 * i, 4 + i))
    if kind == "guard":
        out.append(ev.GuardTouch(t + 4))
    elif kind == "time":
        out.append(ev.Tick(t + 61))
    else:
        out += [ev.HandOut(t + 5), ev.ButtonPress(t + 6)]
    return out, t + 70


def tiebreak_attempt(t, plan):
    """Engine events for a tiebreak attempt: ``out_s`` None = no painting out (time runs out
    with the hand outside), "caught" = guard touch, else seconds to the painting out."""
    out_s, touches = plan
    out = [ev.ButtonPress(t), ev.HandIn(t + 0.5)]
    for i in range(touches):
        out.append(ev.LaserTouch(t + 0.6 + 0.1 * i, 4 + i))
    if out_s == "caught":
        out.append(ev.GuardTouch(t + 0.9))
    elif out_s is None:
        out += [ev.HandOut(t + 1.0), ev.Tick(t + 61)]
    else:
        out += [ev.PaintingMoved(t + 0.95, 1, False), ev.HandOut(t + out_s)]
    return out, t + 70


# small hauls, so that tied rounds (and so tiebreaks) come up often
regular_plan = st.tuples(st.sampled_from(["escaped", "escaped", "guard", "time"]),
                         st.integers(0, 1), st.integers(0, 1), st.integers(0, 2))
attempt_plan = st.tuples(st.sampled_from([None, "caught", 2.0, 3.0, 4.0]), st.integers(0, 2))


@FAST
@given(players=st.integers(2, 4), data=st.data())
def test_a_match_played_out_ends_with_exactly_one_winner(players, data):
    names = NAMES[:players]
    match = rules.new_match(names, NORMAL)
    t, series_seen = 1.0, 0
    for _ in range(200):
        nxt = rules.next_turn(match)
        if nxt is None:
            break
        wins = rules.round_wins(match)
        if not any(w >= 2 for w in wins.values()):
            assert rules.winner(match) is None
        if nxt.kind == "round":
            events, t = regular_turn(t, data.draw(regular_plan))
        else:
            series_seen = max(series_seen, nxt.series)
            if nxt.series > 4:
                # keep the test finite: the first contender still in wins this series
                still_in = rules.tiebreak(match).still_in
                plan = (1.0, 0) if nxt.thief == still_in[0] else ("caught", 0)
            else:
                plan = data.draw(attempt_plan)
            events, t = tiebreak_attempt(t, plan)
        before = len(match.turns) + len(match.attempts)
        for event in events:
            match, _ = rules.step(match, event)
        assert match.current is None
        assert len(match.turns) + len(match.attempts) == before + 1
    else:
        raise AssertionError("the match never ended")

    champion = rules.winner(match)
    wins = rules.round_wins(match)
    leaders = [p for p in names if wins[p] >= 2]
    assert champion in names
    assert champion in leaders
    assert rules.is_over(match)
    note("tiebreak series: %d" % series_seen)
    if len(leaders) == 1:
        assert not match.attempts
    else:
        # the winner had the one best adjusted time of the last series
        last = match.attempts[-len(rules.tiebreak(match).attempted):]
        best = min(a.adjusted_s for a in last if a.adjusted_s is not None)
        assert [a.thief for a in last if a.adjusted_s == best] == [champion]
    # nothing starts once the match is over
    after, effects = rules.step(match, ev.ButtonPress(t))
    assert after.current is None
    assert rules.winner(after) == champion
