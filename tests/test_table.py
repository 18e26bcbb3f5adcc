"""The table below the games (rig/table/): its pure parts agree with the game that used to hold
them, and a game reaches the hardware only through the parts it declares."""

from hypothesis import given, settings, strategies as st

from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules.detect import Detector
from rig.games.cleptomano.rules.levels import PRESETS
from rig.table import names
from rig.table.debounce import DetectSettings, StartButton

FAST = settings(max_examples=150, deadline=None)

#: Gaps between a button's edges, in microseconds: chatter, glitches, merges and real presses.
GAPS = st.lists(st.integers(min_value=1, max_value=400_000), min_size=1, max_size=40)


def detector_presses(edges, detect):
    """The presses Cleptómano's detector finds on the button, as the times they began."""
    d = Detector(PRESETS["normal"], detect)
    found = []
    for t, value in edges:
        found += [e.t for e in d.fire(t) if isinstance(e, ev.ButtonPress)]
        d.feed(ev.InputChange(t, names.BUTTON, value))
    found += [e.t for e in d.fire(edges[-1][0] + 10) if isinstance(e, ev.ButtonPress)]
    return found


def button_presses(edges, detect):
    button = StartButton(detect)
    found = []
    for t, value in edges:
        found += button.edge(t, value)
    return found + button.fire(edges[-1][0] + 10)


@FAST
@given(GAPS, st.sampled_from([DetectSettings(), DetectSettings(merge_window_s=0.3, glitch_s=0.004),
                              DetectSettings(merge_window_s=0.0, glitch_s=0.0)]))
def test_the_start_button_alone_presses_as_cleptomanos_detector_does(gaps, detect):
    t, edges = 0.0, []
    for i, gap in enumerate(gaps):
        t = round(t + gap / 1e6, 6)
        edges.append((t, 1 - i % 2))
    assert button_presses(edges, detect) == detector_presses(edges, detect)


def test_a_glitch_is_no_press_and_a_bounce_one():
    button = StartButton()
    assert button.edge(1.0, 1) == [] and button.edge(1.0004, 0) == []
    assert button.fire(2.0) == []
    presses = [p for t, v in ((3.0, 1), (3.05, 0), (3.08, 1), (3.2, 0)) for p in button.edge(t, v)]
    assert presses + button.fire(3.5) == [3.0]
