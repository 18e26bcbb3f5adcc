"""Issue 31's sensor health on the ready screen: the health watch's findings (a rod silent for
30 turns, a relic whose frames stopped...) shown on Cleptómano's ready page between turns, named
with the fix in the table's language, never during a turn."""

import json

import pytest

from rig.core import audits as core
from rig.display.face import KeyedDisplay
from rig.shell import audits
from rig.shell.audits import HealthWatch
from rig.words import Words, english
from sim.harness import Harness
from sim.script import demo_match, rod_night as night


def silent_rod_4(folder):
    """Eleven recordings: rod 4 fired in the first night's last turn, then not in 30 turns."""
    night(folder / "match-20261201-200000.jsonl", 3, rod_4_in=(2,))
    for n in range(10):
        night(folder / ("match-20261202-20%02d00.jsonl" % n), 3)


def with_devices(path, lines):
    s = demo_match()
    for obj in lines:
        s._add(obj)
    s.write(path)


def test_a_relic_whose_frames_stopped_is_named_not_the_hub(tmp_path):
    path = tmp_path / "match-20261201-200000.jsonl"
    with_devices(path, [{"t": 16.0, "device": "hub", "state": "lost"},
                        {"t": 16.0, "device": "relic.2", "state": "lost"},
                        {"t": 17.5, "device": "relic.2", "state": "back"},
                        {"t": 17.5, "device": "hub", "state": "back"}])
    got = audits.audits(tmp_path)
    assert got["devices"]["relic.2"] == {"lost": 1, "back": 1, "reinit": 0}
    assert got["health"] == [{
        "code": "relic_silent", "input": "relic.2", "count": 1,
        "text": "relic.2 stopped answering 1 time the last night (its frames stopped): check "
                "its sensor's cable to the hub"}]
    assert english(audits.said(got["health"][0])) == (
        "relic 2 stopped answering 1 time the last night: check its sensor's cable to the hub")


def test_a_hub_lost_for_itself_is_still_named_beside_a_relic(tmp_path):
    parts = [{"file": "x", "game": "cleptomano", "day": "2026-12-01", "seen": {}, "cut_off": False,
              "audit": {"matches": {"empty": False, "started": 1, "finished": 1, "closed": True},
                        "touches": {}, "levels": {}, "restarts": 0, "end_t": 1.0, "turns": [],
                        "devices": {"hub": {"lost": 3, "back": 3, "reinit": 0},
                                    "relic.1": {"lost": 1, "back": 1, "reinit": 0}}}}]
    codes = [(w["code"], w["count"]) for w in core.health(core.total(parts))]
    assert codes == [("relic_silent", 1), ("hub_lost", 2)]


def test_each_finding_is_said_in_every_language_with_its_fix():
    findings = [{"code": "rod_silent", "input": "laser.4", "count": 30},
                {"code": "glitch_jump", "input": "laser.6", "count": 12},
                {"code": "hub_lost", "input": "hub", "count": 2},
                {"code": "tof_reinit", "input": "tof", "count": 1},
                {"code": "relic_silent", "input": "relic.3", "count": 4}]
    for lang in ("en", "es", "fr", "ro"):
        words = Words(lang)
        for finding in findings:
            text = words.text(audits.said(finding))
            assert str(finding["count"]) in text or lang == "ro", (lang, text)
            assert not text.startswith("rig.health"), text       # a catalog entry, not a code
    assert Words("es").text(audits.said(findings[0])) == (
        "el láser 4 no se activó en 30 turnos: revisa su cable")


@pytest.fixture
def table(tmp_path):
    made = []

    def make(folder):
        screen = KeyedDisplay()
        t = Harness(display=screen, recordings_dir=folder).start()
        made.append(t)
        return t, screen

    yield make
    for t in made:
        t.stop()


def test_a_rod_disconnected_for_30_turns_is_shown_by_name_on_the_ready_screen(table, tmp_path):
    folder = tmp_path / "rec"
    folder.mkdir()
    silent_rod_4(folder)
    t, screen = table(folder)
    t.rig.health = HealthWatch(folder)
    t.rig.health.check_now()
    t.advance(0.3)
    assert screen.board.phase == "between"
    assert [english(m) for m in screen.board.health] == [
        "rod 4 has not fired in 30 turns: check its wire"]
    drawn = _texts(screen)
    assert "Check the rig" in drawn
    assert any(line.startswith("rod 4 has not fired in 30") for line in drawn)
    # In the table's language.
    t.rig.language = "fr"
    t.advance(0.3)
    drawn = _texts(screen)
    assert "À vérifier sur le boîtier" in drawn
    assert any(line.startswith("le laser 4 ne s'est pas déclenché") for line in drawn)
    # Never during a turn: the screen shows the turn alone.
    t.start_turn()
    assert screen.board.phase == "turn" and screen.board.health == ()
    assert not any("rod 4" in line for line in _texts(screen))
    # ... and the phones' JSON carries it between turns only, as codes.
    assert json.loads(json.dumps(t.rig.adapter.phone_json(screen.board)))["health"] == []


def _texts(screen):
    """Every text the screen's frame draws now (the kit's texts, as rendered)."""
    from rig.draw import kit
    drawn, real = [], kit.render_text
    before = kit.use_words("en")

    def recording(text, size, colour):
        drawn.append(text)
        return real(text, size, colour)

    kit.render_text = recording
    try:
        screen.frame()
    finally:
        kit.render_text = real
        kit.use_words(before if before is not None else "en")
    return drawn



def test_a_relic_whose_frames_stop_on_a_simulated_rig_is_recorded_and_flagged(tmp_path):
    """What the hub's link tells (``on_relic``: rig.table.sources.HubSource) becomes the
    recording's device line, which the audits count and the health names."""
    t = Harness(recordings_dir=tmp_path / "rec").start()
    try:
        t.start_turn()                      # a night's match: a turn played
        t.advance_to(2.5)
        t.relics.intake.device("relic.2", "lost")
        t.advance_to(2.6)
        t.relics.intake.device("relic.2", "back")
        t.advance_to(2.7)
        lines = t.recorded()
        assert {"t": 2.5, "device": "relic.2", "state": "lost"} in lines
        assert {"t": 2.6, "device": "relic.2", "state": "back"} in lines
        live, replayed = t.live_then_replay()
        assert live == replayed
    finally:
        t.stop()
    got = audits.audits(tmp_path / "rec")
    assert got["devices"] == {"relic.2": {"lost": 1, "back": 1, "reinit": 0}}
    assert [w["code"] for w in got["health"]] == ["relic_silent"]
