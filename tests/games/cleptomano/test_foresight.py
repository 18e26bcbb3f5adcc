"""A turn's end worked out ahead of time (Referee.foresee): the rig's host asks for it shortly
before a time limit so the end buzz waits only for the tick line.  Whatever is foreseen, the
referee ends up with the very match and effects it would have reached without it."""

from hypothesis import given, settings, strategies as st

from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules.replay import new_referee
from sim.script import Script


def timed_match(touches_at, exits_at):
    """Two thieves, 4-second turns: touches and exits at the given offsets into each turn."""
    s = Script(["Ana", "Ben"], "hard", timer_s=4)
    t = 1.0
    for turn in range(4):
        s.press(t)
        s.hand_in(t + 0.5)
        for k, at in enumerate(touches_at[turn % len(touches_at)]):
            s.touch(4 + k % 2, t + at)
        exit_at = exits_at[turn % len(exits_at)]
        if exit_at is not None:
            s.hand_out(t + exit_at - 0.2)
            s.press(t + exit_at)
        t += 7.0
    s.end(t)
    return s.lines()


def run(lines, foresee_before):
    header, items = recording.parse_lines(lines)
    ref = new_referee(header)
    effects = []
    for _, item in items:
        if foresee_before:
            ref.foresee()
        effects += ref.feed(item)
        if foresee_before:
            ref.foresee()
    return ref.match, effects


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from([0.7, 1.5, 3.9, 3.99, 4.0, 4.2]), max_size=3),
                min_size=1, max_size=4),
       st.lists(st.sampled_from([None, 2.0, 3.99, 4.0, 4.5]), min_size=1, max_size=4))
def test_a_foreseen_end_is_the_end_worked_out_when_due(touches_at, exits_at):
    lines = timed_match(touches_at, exits_at)
    assert run(lines, True) == run(lines, False)


def test_foresight_is_used_when_nothing_came_between():
    lines = timed_match([[]], [None])
    header, items = recording.parse_lines(lines)
    ref = new_referee(header)
    for _, item in items:
        if ref.match.current is not None:
            break
        ref.feed(item)
    due = ref.to_foresee()
    assert due is not None
    ref.foresee()
    assert ref.to_foresee() is None            # worked out, nothing left to foresee
    before = ref.match
    effects = ref.advance(due)
    assert ref.match is not before and ref.match.current is None
    assert any(type(e).__name__ == "TurnEnded" for e in effects)
