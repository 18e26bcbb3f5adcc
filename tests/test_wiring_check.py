"""The wiring check as a builder meets it: every input the rig reads, the hand sensor and the
relics included, judged one step at a time; on the rig's own screen from the set-up menu, where
the museum's inputs go to the check and not to the match.  (The CLI's runs are in
tests/test_cli.py.)"""

import pytest

pygame = pytest.importorskip("pygame")

from rig.games.cleptomano.rules.wiringcheck import WiringCheck, check_order, relic_step
from rig.display.face import KeyedDisplay
from rig.draw.kit import RED
from rig.games.cleptomano.setup_screen import LIVE
from rig.shell.config import load_config
from rig.shell.wiring import new_check
from rig.words import english
from sim.harness import Harness


def checked(hand=True, relics=True, timeout_s=30.0):
    check = new_check(load_config(None), hand, relics, timeout_s)
    check.begin(0.0, {})
    return check


# --- The pure check -------------------------------------------------------------------------

def test_the_steps_cover_every_input_the_rig_reads_in_the_builders_order():
    config = load_config(None)
    steps = check_order(config.pinmap.inputs, hand=True, relics=(1, 2, 3))
    assert steps[0] == "button" and steps[1:9] == ["laser.%d" % n for n in range(1, 9)]
    assert steps[9:] == ["guard"] + ["seat.%d" % n for n in range(4, 9)] + [
        "painting.1", "painting.2", "tof", "relic.1", "relic.2", "relic.3"]
    assert len(steps) == len(config.pinmap.inputs) + 4


def said(lines):
    """The check's lines (messages) as the builder's terminal prints them: in English."""
    return [english(line) for line in lines]


def test_nothing_is_judged_at_rest_before_its_first_reading():
    """The hand sensor and the relics report after the check begins: only inputs that have a
    reading (the pins) can be "not at rest" at the start."""
    check = new_check(load_config(None), True, True)
    assert said(check.begin(0.0, {"painting.1": 1, "seat.4": 1, "laser.4": 0})) == []
    check = new_check(load_config(None), True, True)
    assert said(check.begin(0.0, {"seat.4": 0, "tof": 120, "relic.2.tilt": 88.0})) == [
        "Not at rest: laser 4's seat reads 0 (expected 1)",
        "Not at rest: the hand sensor reads 120 mm (expected nothing closer than 400 mm)",
        "Not at rest: relic 2 is tilted 88 degrees (expected upright)"]


def test_the_hand_sensor_answers_when_a_hand_comes_over_the_door():
    check = WiringCheck(["tof", "relic.1"], {"tof": "I2C bus 1, 0x29", "relic.1": "hub"}, 400)
    check.begin(0.0, {})
    assert said(check.feed(1.0, "tof", 8190)) == [] and check.feed(1.1, "tof", 420) == []
    assert said(check.feed(1.2, "tof", 150)) == [
        "OK: the hand sensor answers on I2C bus 1, 0x29."]
    assert check.expected == "relic.1"


def test_a_relic_answers_when_laid_on_its_side_and_another_relic_is_a_mix_up():
    where = {relic_step(n): "hub %d" % n for n in (1, 2)}
    check = WiringCheck([relic_step(1), relic_step(2)], where)
    check.begin(0.0, {})
    assert said(check.feed(1.0, "relic.1.motion", 1)) == []       # lifted: not yet
    assert said(check.feed(1.1, "relic.2.tilt", 85.0)) == [
        "Wrong input: waiting for relic 1 (hub 1) but relic 2 (hub 2) changed. Check that "
        "its wire goes to hub 1, or that the two are not swapped."]
    assert said(check.feed(1.2, "relic.1.tilt", 64.0)) == ["OK: relic 1 answers on hub 1."]
    assert said(check.feed(1.3, "relic.1.tilt", 66.0)) == []      # still lying: no second answer


def test_an_arm_over_the_door_while_touching_a_rod_is_no_mix_up():
    check = checked()
    check.feed(0.5, "button", 1)
    assert said(check.feed(1.0, "tof", 150)) == []
    assert said(check.feed(1.1, "laser.1", 1)) == ["OK: laser 1 answers on GPIO4."]
    assert not check.wrong


def test_a_silent_step_is_skipped_at_its_deadline_or_by_the_guard():
    check = checked(timeout_s=30.0)
    assert check.deadline == 30.0
    assert said(check.expire(29.9)) == []
    assert said(check.expire(30.0)) == ["No answer from the start button within 30 s; skipped."]
    assert check.deadline == 60.0 and check.expected == "laser.1"
    assert said(check.skip(31.0)) == ["Skipped: laser 1."]
    assert english(check.summary()[1]) == (
        "No answer from: the start button, laser 1. Check each one's power, ground and "
        "signal wire.")


# --- On the rig's screen ------------------------------------------------------------------------

@pytest.fixture
def rig(tmp_path):
    screen = KeyedDisplay()
    table = Harness(display=screen, recordings_dir=tmp_path / "rec").start()
    table.advance(0.2)
    yield table, screen
    table.stop()


def test_the_check_runs_on_the_screen_from_the_set_up_menu(rig):
    t, screen = rig
    screen.press("s", "2")
    t.advance(0.2)
    wiring = screen.board.wiring
    assert english(wiring.prompt) == "1/21: press the start button (GPIO16)"
    assert [english(s.label) for s in wiring.steps][-4:] == ["hand", "relic 1", "relic 2",
                                                             "relic 3"]
    buzzes = t.buzzes()
    t.press()                                    # the start button: no turn starts
    assert t.turn is None
    assert screen.board.wiring.steps[0].state == "ok"
    assert t.buzzes() == buzzes + 1              # the table hears each wire that answers
    t.touch("laser.2")                           # laser 1 is asked: a mix-up
    t.hand_in().advance(0.2)                     # seen live, not a mix-up
    frame = screen.frame()
    cells = screen.board.wiring.steps
    assert [english(c.label) for c in cells if c.mixed] == ["laser 1", "laser 2"]
    assert [english(c.label) for c in cells if c.live] == ["hand"]
    assert len(pygame.mask.from_threshold(frame, RED, (20, 20, 20, 255))
               .connected_components(minimum=100)) >= 2
    assert pygame.mask.from_threshold(frame, LIVE, (10, 10, 10, 255)).count() > 1000
    assert t.said("Wiring check: Wrong input: waiting for laser 1 (GPIO4) but laser 2")
    screen.press("return")                       # the guard skips laser 1
    t.advance(0.2)
    assert english(screen.board.wiring.prompt).startswith("3/21: touch laser 2")
    screen.press("escape")                       # back to the match
    t.advance(0.2)
    assert screen.board.wiring is None and t.said("Wiring check: 1 of 21 inputs answered.")
    # What the check saw is the match's now: the hand over the door is recorded and refereed.
    assert t.recorded()[-1]["input"] == "tof" and t.value("tof") == 150
    t.hand_out().press()
    assert t.turn is not None


def test_the_check_waits_for_the_end_of_a_turn(rig):
    t, screen = rig
    t.start_turn()
    screen.press("s")
    assert "between turns" in english(screen.face.prompt)
    from rig.games.cleptomano.rules.wiringcheck import CheckWiring
    t.submit(CheckWiring(0.0, "start"))
    t.advance(0.2)
    assert screen.board.wiring is None
    assert "waits until Ana's turn has ended" in english(screen.board.message)
