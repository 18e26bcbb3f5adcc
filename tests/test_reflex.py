"""The touch-to-buzzer reflex declared at the table (rig/table/reflex.py): what the table feels.

The buzzer pin's own history (gpiozero's MockPin ``states``, the lgpio stand-in's writes) says
what a player hears: a touch on a rod in play during a turn buzzes from the pin's callback,
before the referee has even taken the edge; nothing else does; and every buzz ends, whether
the rules keep it or not.  No timing is asserted: the referee is held still instead.
"""

import threading

import pytest

from rig.games.cleptomano.parts import PARTS
from rig.games.cleptomano.rules.levels import make_level
from rig.shell.build import table_parts
from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.shell.inbox import Reading, Stage
from rig.table.outputs import Buzzer
from rig.table.parts import NONE, Part, TableParts
from rig.table.pins import Inputs, Outputs
from rig.table.reflex import Reflex, ReflexRule
from sim.clock import VirtualClock
from sim.pins import Museum, VirtualFactory
from sim.realpins import contact_edges, play, simulated_pi

CONFIG = load_config(None)
PINMAP = CONFIG.pinmap
WAIT_S = 30.0        # generous: a loaded machine


class HeldReferee:
    """A tracer that holds the referee thread when it takes a reading of ``name``, until
    :meth:`release`: the rules cannot have heard of that edge while it is held."""

    def __init__(self, name):
        self.name = name
        self.taken = threading.Event()
        self._go = threading.Event()

    def __call__(self, stage, item):
        if stage is Stage.TAKEN and type(item) is Reading and item.name == self.name \
                and not self._go.is_set():
            self.taken.set()
            self._go.wait(WAIT_S)

    def release(self):
        self._go.set()


# --- at the table, no host ----------------------------------------------------------------------

@pytest.fixture
def mock_table():
    clock = VirtualClock()
    factory = VirtualFactory(clock)
    reflex = Reflex(PARTS.reflex)
    seen = []
    outputs = Outputs(PINMAP, factory, reflex=reflex).open()
    museum = Museum(factory, PINMAP)
    inputs = Inputs(PINMAP, factory, clock, lambda t, name, value: seen.append(
        (name, value, museum.outputs_state("buzzer"))), reflex=reflex)
    museum.rest()
    seen.clear()
    try:
        yield reflex, museum, outputs, seen
    finally:
        inputs.close()
        outputs.close()
        factory.reset()


def test_an_armed_rods_touch_sounds_the_buzzer_before_its_edge_is_handed_on(mock_table):
    reflex, museum, outputs, seen = mock_table
    reflex.arm({"laser.4", "laser.5"})
    museum.set("laser.4", 1)
    # The callback saw the buzzer already on when it handed the edge on.
    assert seen == [("laser.4", 1, 1)]
    assert museum.outputs_state("buzzer") == 1
    museum.set("laser.4", 0)                      # a release sounds nothing of its own
    assert seen[-1] == ("laser.4", 0, 1)


def test_a_disarmed_reflex_an_unarmed_rod_and_the_guard_sound_nothing(mock_table):
    reflex, museum, outputs, seen = mock_table
    museum.set("laser.4", 1)                      # not armed: no turn
    reflex.arm({"laser.5", "guard"})              # the guard is no input of the rule
    assert reflex.armed == {"laser.5"}
    museum.set("laser.6", 1)
    museum.set("guard", 1)
    assert [buzz for _, _, buzz in seen] == [0, 0, 0]
    assert museum.outputs_state("buzzer") == 0


def test_the_buzzer_settles_a_reflex_buzz_the_rules_did_not_keep(mock_table):
    reflex, museum, outputs, seen = mock_table
    buzzer = Buzzer(outputs.buzzer, reflex=reflex)
    reflex.arm({"laser.4"})
    museum.set("laser.4", 1)
    assert museum.outputs_state("buzzer") == 1
    buzzer.settle()                               # the rules kept nothing: withdrawn
    assert museum.outputs_state("buzzer") == 0
    museum.set("laser.4", 0)
    museum.set("laser.4", 1)
    buzzer.play("touch", 10.0)                    # the rules kept this one: their pattern runs
    buzzer.settle()
    assert museum.outputs_state("buzzer") == 1
    buzzer.fire(10.2)
    assert museum.outputs_state("buzzer") == 0


def test_closing_the_outputs_disarms_the_reflex(mock_table):
    reflex, museum, outputs, seen = mock_table
    reflex.arm({"laser.4"})
    outputs.close()
    museum.set("laser.4", 1)                      # no write to a closed device
    assert reflex.device is None and reflex.armed == frozenset()


# --- the whole rig (simulated pins, virtual time) ----------------------------------------------

def test_a_touch_in_a_turn_buzzes_while_the_referee_has_not_taken_it(table):
    held = HeldReferee("laser.4")
    t = table(trace=held).start_turn()
    t.advance_to(3.0)
    t.museum.set("laser.4", 1)                    # the pin alone: the referee is about to be held
    assert held.taken.wait(WAIT_S)
    assert t.lamp("buzzer") == 1                  # sounding, the rules not yet asked
    held.release()
    t.settle()
    t.advance(0.08).set("laser.4", 0).advance_to(3.5)
    assert t.output_history("buzzer") == [(3.0, 1), (3.12, 0)]      # the touch pattern's end
    assert t.turn.touches == 1


def test_no_reflex_buzz_outside_a_turn_or_on_a_rod_out_of_play(table):
    t = table(level=make_level("normal"))         # rods 4-7 in play
    t.advance_to(0.5).touch("laser.4")            # no turn yet
    t.start_turn(at=1.0)
    t.advance_to(3.0).touch("laser.8")            # out of play
    t.advance_to(3.5)
    assert t.output_history("buzzer") == []
    assert t.turn.touches == 0


def test_the_guards_touch_waits_for_the_rules(table):
    held = HeldReferee("guard")
    t = table(trace=held).start_turn()
    t.advance_to(3.0)
    t.museum.set("guard", 1)
    assert held.taken.wait(WAIT_S)
    assert t.lamp("buzzer") == 0                  # no reflex: the guard catches by the rules
    held.release()
    t.settle()
    t.advance(0.08).set("guard", 0).advance(0.2)
    assert t.output_history("buzzer")[0] == (3.001, 1)      # caught: certain after glitch_s


def test_a_noise_pulse_buzz_is_withdrawn(table):
    t = table().start_turn()
    t.advance_to(3.0).touch("laser.5", hold_s=0.0005)
    t.advance_to(3.5)
    assert t.output_history("buzzer") == [(3.0, 1), (3.0005, 0)]
    assert t.turn.touches == 0


def test_a_bounce_of_a_touch_already_counted_is_withdrawn_at_once(table):
    t = table().start_turn()
    t.advance_to(3.0).touch("laser.4", hold_s=0.3)           # counted; its buzz ends at 3.12
    t.advance(0.03).set("laser.4", 1)                         # 30 ms later: the same touch
    t.advance(0.05).set("laser.4", 0).advance_to(4.0)
    history = t.output_history("buzzer")
    assert history[:2] == [(3.0, 1), (3.12, 0)]
    assert history[2:] in ([], [(3.33, 1), (3.33, 0)])       # the reflex's, withdrawn at once
    assert t.lamp("buzzer") == 0
    assert t.turn.touches == 1


def test_the_third_touch_ends_the_turn_and_the_reflex_with_it(table):
    t = table().start_turn()
    for i, rod in enumerate(("laser.4", "laser.5", "laser.6")):
        t.advance_to(3.0 + i).touch(rod)
    assert t.turn is None                                    # caught
    assert t.rig.buzzer.reflex.armed == frozenset()
    t.advance_to(9.0)                                        # the caught pattern has ended
    before = t.buzzes()
    t.advance_to(10.0).touch("laser.4")
    t.advance_to(10.5)
    assert t.buzzes() == before                              # no turn: nothing sounds


# --- a game declares its parts ------------------------------------------------------------------

def test_cleptomano_declares_the_whole_box_and_its_reflex_on_the_rods():
    assert PARTS.uses == frozenset(Part)
    assert PARTS.reflex.inputs == {"laser.%d" % n for n in range(1, 9)}
    assert PARTS.reflex.output == "buzzer" and PARTS.reflex.on_s == 0.12


def test_a_game_that_declares_nothing_opens_no_hardware():
    from rig.table.backend import game_button
    from rig.games import game
    clock = VirtualClock()
    factory = VirtualFactory(clock)
    try:
        assert table_parts(game("stop-thief")).uses == {Part.BUTTON}
        assert game_button(CONFIG, clock, lambda value, t: None, factory, parts=NONE) is None
        assert not factory.pins                   # not one pin claimed
        button = game_button(CONFIG, clock, lambda value, t: None, factory,
                             parts=TableParts({Part.BUTTON}))
        assert list(button.devices) == ["button"]
        button.close()
    finally:
        factory.reset()


def test_a_declaration_that_does_not_hold_together_is_one_clear_error():
    with pytest.raises(ValueError, match="unknown table parts lasers"):
        TableParts({"lasers"})
    with pytest.raises(ValueError, match="the reflex drives buzzer"):
        TableParts({Part.RODS}, ReflexRule(frozenset({"laser.1"})))
    with pytest.raises(ValueError, match="the reflex reads guard"):
        TableParts({Part.RODS, Part.BUZZER}, ReflexRule(frozenset({"guard"})))


# --- through gpiozero's real lgpio pin factory --------------------------------------------------

def test_the_reflex_writes_the_buzzer_line_before_the_edge_is_handed_on_through_lgpio():
    with simulated_pi() as kernel:
        from gpiozero.pins.lgpio import LGPIOFactory
        factory = LGPIOFactory()
        buzzer = PINMAP.outputs["buzzer"].pin
        reflex = Reflex(PARTS.reflex)
        seen = []
        outputs = Outputs(PINMAP, factory, reflex=reflex).open()
        inputs = Inputs(PINMAP, factory, MonotonicClock(), lambda t, name, value: seen.append(
            (name, value, kernel.level(buzzer))), names=("laser.1", "laser.2"), reflex=reflex)
        try:
            reflex.arm({"laser.1"})
            start = kernel_now_ns() - 5_000_000
            play(kernel, contact_edges(PINMAP, [("laser.1", start, 1_000_000),
                                                ("laser.2", start + 2_000_000, 1_000_000)]))
            kernel.deliver()
            assert seen == [("laser.1", 1, 1), ("laser.1", 0, 1), ("laser.2", 1, 1),
                            ("laser.2", 0, 1)]
            Buzzer(outputs.buzzer, reflex=reflex).settle()       # the rules kept nothing
            assert [level for _, level in kernel.writes(buzzer)] == [0, 1, 0]
        finally:
            inputs.close()
            outputs.close()
            factory.close()


def kernel_now_ns():
    import time
    return time.monotonic_ns()


def test_a_reflex_buzz_whose_edge_the_host_has_not_taken_yet_is_not_settled(mock_table):
    # The pin callback sounds the reflex between the host's batch and its settle: the edge is
    # still on its way to the rules, so the settle of the batch before leaves the buzz on
    # (no off-and-on blip on the pin); the batch that takes the edge settles it.
    reflex, museum, outputs, seen = mock_table
    buzzer = Buzzer(outputs.buzzer, reflex=reflex)
    reflex.arm({"laser.4"})
    museum.set("laser.4", 1)
    assert reflex.at is not None
    buzzer.settle(taken_t=reflex.at - 0.001)      # the batch before this edge
    assert museum.outputs_state("buzzer") == 1 and reflex.pending
    buzzer.play("touch", 10.0)                    # the rules keep it
    buzzer.settle(taken_t=reflex.at)              # the batch that took it
    assert museum.outputs_state("buzzer") == 1 and not reflex.pending
