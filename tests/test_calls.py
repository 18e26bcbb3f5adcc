"""The referee's words: every call of every kept recording, worded by rig.core.calls.

``tests/golden/calls/NAME.txt`` lists, for ``tests/recordings/**/NAME.jsonl`` re-refereed line by
line, each call's log line (with its severity) and each banner it puts on the screen, as the rig
says them at the table.  The words are made in one module; this pins them.
"""

from pathlib import Path

import pytest

from rig.core import calls, rules
from rig.core import events as ev
from rig.core.referee import Referee
from rig.shell.storage import read

HERE = Path(__file__).resolve().parent
CASES = sorted((HERE / "recordings").rglob("*.jsonl"))
GOLDEN = HERE / "golden" / "calls"


def spoken(path):
    """What the table hears and sees while ``path`` is refereed."""
    header, items = read(path)
    ref = Referee(rules.new_match(header.players, header.level, header.first_thief),
                  header.settings)
    lines = []
    for _, item in items:
        for effect in ref.feed(item):
            words = calls.say(effect)
            if isinstance(effect, ev.Refused):
                lines.append("%.6f refused %s %s" % (effect.t, effect.code,
                                                     calls.refusal_text(effect)))
            elif isinstance(effect, ev.Fault):
                lines.append("%.6f fault %s %s %s" % (effect.t, effect.source, effect.active,
                                                      calls.fault_text(effect)))
            elif words is not None:
                lines.append("%.6f say %s %s" % (effect.t, words[1], words[0]))
            shown = calls.banner(effect)
            if shown is not None:
                lines.append("%.6f banner %s | %s | %s" % (effect.t, shown.kind, shown.title,
                                                            " / ".join(shown.lines)))
        if isinstance(item, ev.End):
            break
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_call_is_worded_as_the_table_hears_it(path):
    assert spoken(path) == (GOLDEN / (path.stem + ".txt")).read_text(encoding="utf-8")


def test_refusals_and_problems_read_as_one_sentence():
    problems = (ev.Problem(ev.Trouble.NOT_SEATED, 5), ev.Problem(ev.Trouble.ENTRANCE_BLOCKED,
                                                                 None, 120))
    assert calls.refusal_text(ev.Refused(1.0, ev.Refusal.NOT_READY, problems)) == (
        "The museum is not ready: laser 5 is not seated; the entrance is not clear (hand "
        "sensor reads 120 mm).")
    assert calls.refusal_text(ev.Refused(1.0, ev.Refusal.CHOICE, error="ben already played "
                                         "round 1; choose one of Ana")) == (
        "Ben already played round 1; choose one of Ana.")
    assert calls.say(ev.Refused(1.0, ev.Refusal.MATCH_OVER)) is None


def test_a_dropped_event_is_logged_not_swallowed():
    text, severity = calls.say(ev.Dropped(2.0, ev.GuardTouch(2.0), "no turn runs"))
    assert severity is calls.WARNING and "GuardTouch" in text and "no turn runs" in text


@pytest.mark.parametrize("name, words", [
    ("laser.5", "laser 5"), ("seat.4", "laser 4's seat"), ("guard", "the guard token"),
    ("button", "the start button"), ("tof", "the hand sensor"), ("painting.2", "painting 2"),
    ("relic.3.tilt", "relic 3"),
])
def test_every_input_has_a_builders_word(name, words):
    assert calls.describe(name) == words
