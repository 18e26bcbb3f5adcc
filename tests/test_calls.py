"""The referee's words: every call of every kept recording, worded by
rig.games.cleptomano.rules.calls.

``tests/golden/calls/NAME.txt`` lists, for ``tests/recordings/**/NAME.jsonl`` re-refereed line by
line, each call's log line (with its severity) and each banner it puts on the screen, as the rig
says them at the table.  The words are made in one module; this pins them.
"""

from pathlib import Path

import pytest

from rig.games.cleptomano.rules import calls, engine as rules
from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules.referee import Referee
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


def _turn(**kw):
    return rules.Turn(round=1, thief="Ana", guard="Ben", start_t=1.0, end_t=8.0,
                      outcome=rules.TurnOutcome.ESCAPED, **kw)


@pytest.mark.parametrize("turn, words", [
    (_turn(paintings_off=frozenset({1}), paintings_lifted=frozenset({1}), confirmed=(2, 0)),
     "painting 2 never left its stand: 1 painting counted"),
    (_turn(paintings_lifted=frozenset({1}), confirmed=(2, 0)),
     "painting 2 never left its stand and painting 1 was back on its stand when the turn "
     "ended: 0 paintings counted"),
    (_turn(paintings_lifted=frozenset({1, 2}), confirmed=(1, 0)),
     "paintings 1 and 2 were back on their stands when the turn ended: 0 paintings counted"),
    (_turn(broken=(1, 3), confirmed=(0, 3)), "relics 1 and 3 broke: 1 relic counted"),
    (_turn(paintings_off=frozenset({1}), confirmed=(1, 0)), None),     # as the sensors saw it
    (_turn(paintings_off=frozenset({1})), None),                        # not confirmed
])
def test_a_haul_cut_down_to_the_sensors_says_why(turn, words):
    assert calls.haul_cut_words(turn) == words


def test_the_guard_stealing_and_a_stuck_contact_are_worded_for_the_table():
    started = ev.TurnStarted(1.0, "Ben", "Ben", ev.NextKind.ROUND, 2, 60.0)
    assert calls.say(started) == ("Round 2: Ben, this round's guard, steals (60 s).", calls.INFO)
    assert calls.guard_note("Ben", "Ben") == " (own turn)" and calls.guard_note("Ana", "Ben") == ""
    assert calls.problem_text(ev.Problem(ev.Trouble.LASER_STUCK, 4, 5.0)) == (
        "laser 4 is stuck closed (over 5 s): check its wiring")
    assert calls.problem_text(ev.Problem(ev.Trouble.BUTTON_STUCK, None, 5.0)) == (
        "the start button is stuck closed (over 5 s): check its wiring")
