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
from rig.core.errors import InvalidChoice
from rig.core.msg import Msg
from rig.games.cleptomano.rules.levels import PRESETS
from rig.games.cleptomano.rules.titles import criminal_title
from rig.games.cleptomano.rules.view import shouted
from rig.shell.storage import read
from rig.words import Words, english

HERE = Path(__file__).resolve().parents[2]     # tests/: its recordings and goldens
CASES = sorted((HERE / "recordings").rglob("*.jsonl"))
GOLDEN = HERE / "golden" / "calls"


def spoken(path, lang="en"):
    """What the table hears and sees while ``path`` is refereed (in English: the log's words;
    each call is a message, said here as the screen says it)."""
    say = Words(lang).text
    header, items = read(path)
    ref = Referee(rules.new_match(header.players, header.level, header.first_thief),
                  header.settings)
    lines = []
    for _, item in items:
        for effect in ref.feed(item):
            words = calls.say(effect)
            if isinstance(effect, ev.Refused):
                lines.append("%.6f refused %s %s" % (effect.t, effect.code,
                                                     say(calls.refusal_text(effect))))
            elif isinstance(effect, ev.Fault):
                lines.append("%.6f fault %s %s %s" % (effect.t, effect.source, effect.active,
                                                      say(calls.fault_text(effect))))
            elif words is not None:
                lines.append("%.6f say %s %s" % (effect.t, words[1], say(words[0])))
            shown = calls.banner(effect)
            if shown is not None:
                lines.append("%.6f banner %s | %s | %s" % (
                    effect.t, shown.kind, shouted(shown.kind, say(shown.title)),
                    " / ".join(say(line) for line in shown.lines)))
        if isinstance(item, ev.End):
            break
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_call_is_worded_as_the_table_hears_it(path):
    assert spoken(path) == (GOLDEN / (path.stem + ".txt")).read_text(encoding="utf-8")


def test_refusals_and_problems_read_as_one_sentence():
    problems = (ev.Problem(ev.Trouble.NOT_SEATED, 5), ev.Problem(ev.Trouble.ENTRANCE_BLOCKED,
                                                                 None, 120))
    assert english(calls.refusal_text(ev.Refused(1.0, ev.Refusal.NOT_READY, problems))) == (
        "The museum is not ready: laser 5 is not seated; the entrance is not clear (hand "
        "sensor reads 120 mm).")
    assert english(calls.refusal_text(ev.Refused(1.0, ev.Refusal.CHOICE, error="ben already "
                                                 "played round 1; choose one of Ana"))) == (
        "Ben already played round 1; choose one of Ana.")
    assert calls.say(ev.Refused(1.0, ev.Refusal.MATCH_OVER)) is None


def test_a_refused_choice_is_said_in_the_readers_language():
    match = rules.new_match(("Ana", "Ben"), PRESETS["normal"])
    with pytest.raises(InvalidChoice) as caught:
        rules.step(match, ev.Choose(1.0, ev.Role.THIEF, "Ana"))
        rules.step(match, ev.UndoTouch(1.0))
    assert caught.value.msg is not None and caught.value.msg.code.startswith("cleptomano.")
    refused = ev.Refused(1.0, ev.Refusal.CHOICE, error=Msg(
        "cleptomano.refuse.already_played", player="Ben", round=1, choices=("Ana", "Caro")))
    assert english(calls.refusal_text(refused)) == (
        "Ben already played round 1; choose one of Ana and Caro.")
    assert Words("es").text(calls.refusal_text(refused)) == (
        "Ben ya jugó la ronda 1; elige entre Ana y Caro.")


def test_a_dropped_event_is_logged_not_swallowed():
    text, severity = calls.say(ev.Dropped(2.0, ev.GuardTouch(2.0), "no turn runs"))
    assert severity is calls.WARNING
    assert "GuardTouch" in english(text) and "no turn runs" in english(text)


@pytest.mark.parametrize("name, words", [
    ("laser.5", "laser 5"), ("seat.4", "laser 4's seat"), ("guard", "the guard token"),
    ("button", "the start button"), ("tof", "the hand sensor"), ("painting.2", "painting 2"),
    ("relic.3.tilt", "relic 3"),
])
def test_every_input_has_a_builders_word(name, words):
    assert calls.describe(name) == words
    assert english(calls.part(name)) == words


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
    said = calls.haul_cut_words(turn)
    assert (None if said is None else english(said)) == words


def test_the_guard_stealing_and_a_stuck_contact_are_worded_for_the_table():
    started = ev.TurnStarted(1.0, "Ben", "Ben", ev.NextKind.ROUND, 2, 60.0)
    said, severity = calls.say(started)
    assert english(said) == "Round 2: Ben, this round's guard, steals (60 s)."
    assert severity is calls.INFO
    assert english(calls.guard_note("Ben", "Ben")) == "(own turn)"
    assert calls.guard_note("Ana", "Ben") is None
    assert english(calls.problem_text(ev.Problem(ev.Trouble.LASER_STUCK, 4, 5.0))) == (
        "laser 4 is stuck closed (over 5 s): check its wiring")
    assert english(calls.problem_text(ev.Problem(ev.Trouble.BUTTON_STUCK, None, 5.0))) == (
        "the start button is stuck closed (over 5 s): check its wiring")


def test_a_match_is_called_in_spanish():
    """The three-player example, as a table in Buenos Aires hears it."""
    said = spoken(HERE / "recordings" / "three_player_match.jsonl", "es")
    assert "say info Ronda 1: roba Ana, vigila Ben (60 s)." in said
    assert "say warning Láser 4 tocado (1 de 3, -1 punto)." in said
    assert "banner escaped | ¡ESCAPÓ! | 2 cuadros, 1 reliquia, 1 toque: 4 puntos" in said
    assert "banner caught | ¡ALTO AHÍ! | Caro tocó al guardia." in said
    assert "say warning La reliquia 2 se cayó: rota, ya no se puede robar." in said
    assert "banner round | RONDA 1 | Ganada por Ana." in said
    assert "banner match | ¡GANA ANA! | Rondas ganadas: Ana 2, Ben 0, Caro 1" in said
    assert "Round" not in said and "Escaped" not in said


@pytest.mark.parametrize("n, paintings", [
    (1, "1 tablou"), (2, "2 tablouri"), (20, "20 de tablouri"), (101, "101 tablouri"),
    (120, "120 de tablouri")])
def test_a_romanian_haul_takes_the_three_plural_forms(n, paintings):
    turn = rules.Turn(round=1, thief="Ana", guard="Ben", start_t=1.0, end_t=8.0,
                      outcome=rules.TurnOutcome.ESCAPED)
    haul = calls.haul_words(turn)
    assert Words("ro").text(haul) == "0 tablouri, 0 relicve, 0 atingeri: 0 puncte"
    assert Words("ro").text(calls.count_paintings(n)) == paintings
    words = Words("ro").text(Msg(haul.code, paintings=calls.count_paintings(n),
                                 relics=calls.count_relics(1), touches=calls.count_touches(2),
                                 points=calls.count_points(20)))
    assert words == "%s, 1 relicvă, 2 atingeri: 20 de puncte" % paintings


def test_the_solo_title_is_said_in_every_language():
    title = criminal_title(60, 5, 4, "wide")
    assert title == "Specialist in high-risk robberies"     # the replay output's words
    banner = calls.banner(ev.TitleEarned(9.0, title))
    assert english(banner.title) == title
    assert Words("es").text(banner.title) == "Especialista en robos de alto riesgo"
    assert Words("fr").text(banner.title) == "Spécialiste en vols à haut risque"
    assert Words("ro").text(banner.title) == "Specialist în jafuri cu risc ridicat"
