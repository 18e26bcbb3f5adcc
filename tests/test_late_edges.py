"""Edges that reach the rig late (lgpio's thread delivers kernel events in bursts on a busy Pi)
are still refereed by their own timestamps: the whole daemon on the simulated table, its pins'
callbacks held back and delivered late (sim.pins.VirtualFactory.hold), in virtual time.

Each edge is stamped when it happened; the rig waits ``[pins] edge_delay_s`` and applies what
arrived in the order of the stamps, so a 0.3 ms glitch whose falling edge comes 5 ms late is
still a glitch (never a false penalty) while the buzzer sounded on its first edge at once."""

import pytest

EDGE_DELAY_S = 0.05


@pytest.fixture
def late(table):
    return table(edge_delay_s=EDGE_DELAY_S).start_turn()


def test_a_glitch_whose_falling_edge_arrives_late_is_still_a_glitch(late):
    t = late.advance_to(3.0)
    t.set("laser.4", 1)                              # delivered at once: the buzzer sounds
    assert t.lamp("buzzer") == 1
    t.factory.hold()
    t.advance(0.0003).set("laser.4", 0)              # 0.3 ms later, but held back...
    t.advance(0.005)                                 # ...5 ms, past the 1 ms confirmation
    t.factory.deliver()
    t.advance(0.2)
    assert t.turn.touches == 0                       # no false penalty
    # Withdrawn once the fall is applied in order, edge_delay_s after it happened.
    assert t.output_history("buzzer")[-2:] == [(3.0, 1), (3.0503, 0)]
    assert not any(line.get("input") == "laser.4" and line["t"] > 3.0003
                   for line in t.recorded())         # the fall is recorded at its own time


def test_a_touch_delivered_late_counts_once_at_its_first_edge(late):
    t = late.advance_to(3.0)
    t.factory.hold()
    t.touch("laser.5", hold_s=0.003)                 # a real 3 ms touch...
    t.advance(0.02)
    t.factory.deliver()                              # ...both edges 20 ms late
    t.advance(0.2)
    assert t.turn.touches == 1
    assert t.turn.touch_times == ((3.0, 5),)


def test_many_short_glitches_in_late_bursts_count_none_and_real_touches_count_all(late):
    t = late.advance_to(3.0)
    for i in range(10):
        t.set("laser.6", 1)
        t.factory.hold()
        t.advance(0.0003).set("laser.6", 0)
        t.advance(0.002 + 0.002 * i)                 # the fall 2-20 ms late
        t.factory.deliver()
        t.advance(0.2)
    assert t.turn.touches == 0
    for rod in (4, 5):
        t.factory.hold()
        t.touch("laser.%d" % rod, hold_s=0.003)
        t.advance(0.03)
        t.factory.deliver()
        t.advance(0.2)
    assert t.turn.touches == 2


def test_without_the_allowance_a_late_falling_edge_makes_a_false_penalty(table):
    # The hazard the allowance removes: applied as it arrives, the late fall comes after the
    # glitch's confirmation has fired.
    t = table(edge_delay_s=0.0).start_turn()
    t.advance_to(3.0).set("laser.4", 1)
    t.factory.hold()
    t.advance(0.0003).set("laser.4", 0)
    t.advance(0.005)
    t.factory.deliver()
    t.advance(0.2)
    assert t.turn.touches == 1


def test_an_exit_press_before_the_time_limit_delivered_after_it_still_escapes(table):
    from rig.games.cleptomano.rules.levels import make_level
    t = table(edge_delay_s=EDGE_DELAY_S, level=make_level("normal", timer_s=10.0))
    t.start_turn(at=1.0, hand_in_at=2.0)
    t.advance_to(5.0).hand_out()
    t.advance_to(10.995)
    t.factory.hold()
    t.touch("button", hold_s=0.01)                   # pressed at 10.995, the limit at 11.0
    t.advance(0.03)
    t.factory.deliver()
    t.advance(0.2)
    turn = t.match.turns[-1]
    assert (turn.outcome, turn.end_t) == ("escaped", 10.995)
