"""The recording contract's fine points (issue 13): what the rig does at each edge case another
implementation must agree on, each pinned by replaying a recording written by hand.  The README's
contract states each one."""

import pytest

from rig.core.errors import RecordingError
from rig.words import english_error
from sim.harness import Recording, only_turn


def started(s):
    return s.replay()["turns"]


def test_a_button_press_shorter_than_1_ms_is_noise_and_starts_nothing():
    s = Recording()
    s.press(1.0, hold=0.0005)
    s.line({"t": 20.0, "end": True})
    assert started(s) == []


def test_button_presses_less_than_100_ms_apart_are_one_press():
    s = Recording()
    s.press(1.0, hold=0.02)
    s.press(1.05, hold=0.02)             # the same press: it does not end the turn it started
    s.line({"t": 20.0, "end": True})
    turn = only_turn(s.replay())
    assert turn["outcome"] == "unfinished"


def test_a_press_on_the_last_line_of_a_recording_starts_nothing():
    s = Recording()
    s.set(1.0, "button", 1)             # its 1 ms confirmation lies after the recording's end
    assert started(s) == []


def test_a_contact_closing_less_than_1_ms_before_the_end_is_no_touch():
    s = Recording()
    s.press(1.0)
    s.hand_in(2.0)
    s.set(5.0, "laser.4", 1)
    s.line({"t": 5.0005, "end": True})
    assert only_turn(s.replay())["touches"] == 0


def test_a_glitch_in_the_gap_after_a_touch_restarts_the_merge_window():
    # A touch, released at 3.05; a 0.3 ms glitch at 3.12; a contact at 3.19: 140 ms after the
    # touch's release but 70 ms after the glitch's, so the glitch joins them: one touch.
    s = Recording()
    s.press(1.0)
    s.hand_in(2.0)
    s.touch(4, 3.0, dur=0.05)
    s.touch(4, 3.12, dur=0.0003)
    s.touch(4, 3.19, dur=0.05)
    s.hand_out(6.0)
    s.press(7.0)
    assert only_turn(s.replay())["touches"] == 1


def test_a_touch_within_100_ms_after_a_lone_glitch_is_stamped_at_the_glitchs_first_edge():
    # The glitch alone counts nothing, but a contact within the merge window after it belongs
    # to its episode: the touch is counted from the glitch's first edge.
    from rig.games.cleptomano.rules.replay import referee
    from rig.games.cleptomano.rules.recording import parse_lines
    s = Recording()
    s.press(1.0)
    s.hand_in(2.0)
    s.touch(5, 3.0, dur=0.0003)
    s.touch(5, 3.05, dur=0.05)
    s.line({"t": 4.0, "end": True})
    ref, _ = referee(*parse_lines(s.lines()))
    assert ref.match.current.touch_times == ((3.0, 5),)


def test_a_loot_line_with_one_count_is_bad_input():
    s = Recording()
    s.heist(1.0, paintings=1)
    s.line({"t": 10.0, "loot": {"paintings": 1}})
    with pytest.raises(RecordingError, match='loot must be {"paintings": N, "relics": N}'):
        s.replay()


@pytest.mark.parametrize("line, allowed", [
    ({"t": 10.0, "loot": {"paintings": 1, "relics": 0}, "by": "Ben"}, True),
    ({"t": 10.0, "undo": "touch", "by": "Ben"}, True),
    ({"t": 10.0, "choose": "thief", "player": "Ben", "by": "Ben's phone"}, True),
    ({"t": 10.0, "input": "laser.4", "value": 1, "by": "Ben"}, False),
    ({"t": 10.0, "tick": True, "by": "Ben"}, False),
])
def test_by_goes_on_the_guards_commands_only(line, allowed):
    s = Recording()
    s.heist(1.0, paintings=1, touches=1)
    s.line(line)
    if allowed:
        s.replay()
    else:
        with pytest.raises(RecordingError, match="does not belong"):
            s.replay()


def test_an_undo_with_nothing_to_undo_is_bad_input_in_a_recording():
    s = Recording()
    s.heist(1.0, paintings=1)              # no touch
    s.line({"t": 10.0, "undo": "touch"})
    with pytest.raises(RecordingError, match="no_touch") as refused:
        s.replay()
    assert "no laser touch to undo" in english_error(refused.value)   # the builder's terminal


def _tiebreak_match():
    """Ana and Ben both win two rounds: a tiebreak between them."""
    s = Recording(players=("Ana", "Ben"))
    t = 1.0
    for _ in range(2):
        for paintings in (1, 1):
            t = s.heist(t, paintings=paintings) + 5.0
    return s, t


def test_an_attempt_without_a_painting_out_is_listed_and_counts_but_an_unfinished_one_decides_nothing():
    s, t = _tiebreak_match()
    s.press(t)                              # Ana's attempt: out without a painting
    s.hand_in(t + 1.0)
    s.hand_out(t + 2.0)
    s.press(t + 3.0)
    s.press(t + 10.0)                       # Ben's attempt: still running at the end
    s.hand_in(t + 11.0)
    s.line({"t": t + 12.0, "end": True})
    result = s.replay()
    ana, ben = result["tiebreak"]
    assert (ana["thief"], ana["time_s"], ana["caught"]) == ("Ana", None, False)
    assert (ben["thief"], ben["time_s"], ben["caught"]) == ("Ben", None, False)
    assert result["winner"] is None         # Ben's unfinished attempt decides nothing
