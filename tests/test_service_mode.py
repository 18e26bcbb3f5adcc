"""The builder's service mode (issue 31), through the simulator on a virtual clock: the switch
test walks every input of the example pin map (each lit in turn, the buzzer pin's history showing
the beeps, nothing recorded as play); opening is refused during a turn; the start button held
5 s opens it and 4.9 s does not; a sensitivity change is applied, saved in table.json, survives a
restart and goes back to the factory value; bad values are refused with one clear error."""

import json
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rig.core import service as core
from rig.core.errors import RigError
from rig.core.table_state import parse_state
from rig.games.cleptomano.rules.recording import Header, parse_header
from rig.shell.service import attach_service
from rig.shell.table_state import FILE_NAME, TableMemory
from rig.table.debounce import ButtonHold, DetectSettings
from rig.table.names import REST, relic
from rig.words import english
from sim.harness import Harness


def _table(tmp_path, config=None, memory=None, **kwargs):
    t = Harness(config, recordings_dir=tmp_path, **kwargs).start()
    desk = attach_service(t.rig, t.config, memory)
    return t, desk


def _key(t, *keys):
    for key in keys:
        t.submit(core.ServiceKey(0.0, key))
        t.advance(0.01)


def _play(t):
    """The recording's lines of play (device lines left out)."""
    return [line for line in t.recorded() if "device" not in line]


def _row(desk, t, name):
    board, _ = desk.frame(t.clock.now())
    return {row.name: row for row in board.rows}[name]


# --- the switch test -------------------------------------------------------------------------------

def test_a_switch_test_walk_lights_every_input_of_the_pin_map_and_beeps_each_rod(tmp_path):
    t, desk = _table(tmp_path)
    try:
        before = _play(t)
        t.rig.open_service("Ana")
        t.advance(0.1)
        assert desk.is_open and desk.desk.by == "Ana"
        _key(t, "enter")                       # the menu's first entry: the switch test
        assert desk.desk.page == "switch-test"
        pins = list(t.config.pinmap.inputs)
        assert desk.inputs[:len(pins)] == tuple(pins)
        assert {"tof", "hub", relic(2, "tilt"), relic(3, "motion")} <= set(desk.inputs)
        assert _row(desk, t, "hub").value == core.Msg("rig.service.link_up")
        assert _row(desk, t, "tof").value == "8190 mm"
        beeps_before = t.buzzes()
        rods = 0
        for name in pins:
            rest = REST[name]
            t.set(name, 1 - rest)
            t.advance(0.05)
            row = _row(desk, t, name)
            away = core.STATE_WORDS[name.split(".")[0]][1 - rest]
            assert row.value == core.Msg(away) and english(row.value).isupper(), name
            assert row.since != "-", name
            if name.startswith("laser."):
                rods += 1
                assert desk.desk.lit == name and row.lit, name
                assert t.buzzes() - beeps_before == rods, name
            t.set(name, rest)
            t.advance(0.3)                     # the beep's pattern ends
        ons = [on for _, on in t.output_history("buzzer")]
        assert ons.count(1) - beeps_before >= rods == 8
        t.tof.range = 312
        t.advance(0.1)
        assert _row(desk, t, "tof").value == "312 mm"
        t.relic(2, "tilt", 72.5)
        t.relic(3, "motion", 1)
        t.advance(0.05)
        assert _row(desk, t, relic(2, "tilt")).value == "72.5°"
        assert _row(desk, t, relic(3, "motion")).value == core.Msg("rig.service.state.moving")
        t.relics.lose()
        t.advance(0.05)
        assert _row(desk, t, "hub").value == core.Msg("rig.service.link_down")
        t.relics.back()
        t.relic(2, "tilt", 0.0)
        t.relic(3, "motion", 0)
        t.tof.range = REST["tof"]
        t.advance(0.1)
        assert _play(t) == before     # nothing recorded as play while it is open (the hub's
        # loss and return are device lines, kept for the audits)
        _key(t, "back", "back")                # the menu, then out
        assert not desk.is_open
        t.advance(0.1)
        assert t.match.current is None and t.rig.result()["turns"] == []
        assert t.rig.scoreboard().phase != "turn"
    finally:
        t.stop()


def test_inputs_changed_during_the_switch_test_are_recorded_when_it_closes(tmp_path):
    t, desk = _table(tmp_path)
    try:
        t.rig.open_service("screen")
        t.advance(0.05)
        t.set("painting.1", 0)                 # lifted and left off while the mode is open
        t.advance(0.05)
        assert t.value("painting.1") == 1      # the referee has not heard it yet
        _key(t, "back")
        t.advance(0.05)
        assert t.value("painting.1") == 0      # the table is where it is now
        assert {"t": t.recorded()[-1]["t"], "input": "painting.1", "value": 0} \
            == t.recorded()[-1]
    finally:
        t.stop()


# --- opening ---------------------------------------------------------------------------------------

def test_opening_is_refused_during_a_turn_from_a_phone_and_from_the_screen(tmp_path):
    t, desk = _table(tmp_path)
    try:
        t.start_turn()
        with pytest.raises(RigError) as refused:
            t.rig.open_service("Ana")
        assert refused.value.msg == core.Msg("rig.service.not_in_turn")
        assert "between turns" in str(refused.value)
        t.advance(0.05)
        assert t.rig.scoreboard().message == core.Msg("rig.service.not_in_turn")
        t.submit(core.OpenService(0.0, "screen"))      # F12 three times at the screen
        t.advance(0.05)
        assert not desk.is_open
        assert t.rig.scoreboard().message == core.Msg("rig.service.not_in_turn")
        assert t.turn is not None                       # the turn goes on
    finally:
        t.stop()


def test_a_host_without_a_service_mode_says_so(tmp_path):
    t = Harness(recordings_dir=tmp_path).start()
    try:
        with pytest.raises(RigError) as refused:
            t.rig.open_service("Ana")
        assert refused.value.msg == core.Msg("rig.service.none")
    finally:
        t.stop()


@pytest.mark.parametrize("held_s, opens", [(5.0, True), (4.9, False)])
@pytest.mark.parametrize("edge_delay_s", [0.0, 0.05])
def test_the_start_button_held_5_s_opens_it_and_4_9_s_does_not(tmp_path, held_s, opens,
                                                               edge_delay_s):
    t, desk = _table(tmp_path, edge_delay_s=edge_delay_s)
    try:
        t.advance_to(1.0)
        t.set("seat.4", 0)          # a rod out of its seat: a press starts no turn
        t.advance(0.5)
        t.set("button", 1)
        t.advance(held_s)
        t.set("button", 0)
        t.advance(0.5)
        assert desk.is_open is opens
        assert t.turn is None
        if opens:
            assert desk.desk.by == "button"
    finally:
        t.stop()


def test_the_hold_is_judged_on_the_edges_stamps():
    hold = ButtonHold(5.0)
    assert hold.edge(10.0, 1) is False and hold.next_deadline() == 15.0
    assert hold.fire(14.999999) is False
    assert hold.edge(14.9, 0) is False and hold.next_deadline() is None   # 4.9 s: nothing
    hold.edge(20.0, 1)
    assert hold.fire(25.0) is True and hold.fire(26.0) is False           # once per hold
    assert hold.edge(30.0, 0) is False
    with pytest.raises(ValueError, match="seconds above 0"):
        ButtonHold(0)


# --- sensitivity ---------------------------------------------------------------------------------

def test_a_sensitivity_change_is_applied_saved_survives_a_restart_and_goes_back(tmp_path,
                                                                                 caplog):
    memory = TableMemory.load(tmp_path)
    t, desk = _table(tmp_path, memory=memory)
    try:
        t.rig.open_service("Ana")
        t.advance(0.05)
        _key(t, "down", "down", "enter")                # the menu's third entry
        assert desk.desk.page == "sensitivity"
        rows = desk.desk.rows()
        _key(t, *["down"] * rows.index("merge.laser.4"))
        with caplog.at_level(logging.INFO, logger="cleptomano"):
            _key(t, "preset")                           # normal -> forgiving
        assert "Service mode: merge.laser.4 100 ms -> 200 ms by Ana (factory 100 ms)" \
            in caplog.text
        row = _row(desk, t, "laser.4")
        assert row.value == core.Msg("rig.service.preset.forgiving", value="200 ms")
        assert row.factory == "100 ms" and row.changed
        saved = json.loads((tmp_path / FILE_NAME).read_text("utf-8"))
        assert saved["tuning"] == {"merge.laser.4": 0.2}
        assert t.rig.settings.merge_window("laser.4") == 0.2       # the next match's
        assert t.rig.settings.merge_window("laser.5") == 0.1
        _key(t, "back", "back")
    finally:
        t.stop()
    # The rig restarts: the table's state puts the setting back, the match header keeps it.
    again = TableMemory.load(tmp_path)
    config = again.config(t.config)
    t2, desk2 = _table(tmp_path / "2", config=config, memory=again)
    try:
        assert desk2.tuning == (("merge.laser.4", 0.2),)
        header = json.loads(t2.rig.recording_path.read_text("utf-8").split("\n")[0])
        assert header["detect"]["merge_by_contact"] == {"laser.4": 0.2}
        # Applied: two touches of rod 4 150 ms apart are one touch; of rod 5, two.
        t2.start_turn()
        t2.touch("laser.4")
        t2.advance(0.15)
        t2.touch("laser.4")
        t2.advance(0.3)
        assert t2.turn.touches == 1
        t2.touch("laser.5")
        t2.advance(0.15)
        assert t2.turn.touches == 2
        t2.touch("laser.5")                     # a third touch: the thief is caught
        t2.advance(0.3)
        assert t2.turn is None
        assert t2.match.turns[-1].touches == 3     # rod 4 once, rod 5 twice
    finally:
        t2.stop()
    # Back to the factory value: the change is gone from table.json.
    t3, desk3 = _table(tmp_path / "3", memory=again)
    try:
        desk3.reset("merge.laser.4", by="Ben")
        assert desk3.tuning == ()
        assert "tuning" not in json.loads((tmp_path / FILE_NAME).read_text("utf-8"))
        assert t3.rig.settings.merge_window("laser.4") == 0.1
    finally:
        t3.stop()


def test_the_tilt_threshold_of_one_relic_decides_its_fall():
    from rig.games.cleptomano.rules import events as ev
    from rig.games.cleptomano.rules.detect import Detector
    from rig.games.cleptomano.rules.levels import PRESETS
    settings = DetectSettings(tipped_by_relic=((2, 45.0),))
    falls = {}
    for n in (1, 2):
        d = Detector(PRESETS["normal"], settings)
        out = d.feed(ev.InputChange(1.0, "tof", 150))
        out += d.feed(ev.InputChange(2.0, relic(n, "tilt"), 50.0))
        out += d.fire(3.0)
        falls[n] = any(isinstance(e, ev.RelicBroken) for e in out)
    assert falls == {1: False, 2: True}      # 50 degrees: relic 2's threshold, not relic 1's


def test_the_header_keeps_per_part_settings_and_refuses_bad_ones():
    settings = DetectSettings(merge_by_contact=(("laser.4", 0.2),), tipped_by_relic=((2, 45.0),))
    written = Header(("Ana", "Ben"), "normal", settings=settings).to_json()
    assert written["detect"]["merge_by_contact"] == {"laser.4": 0.2}
    assert written["detect"]["tipped_by_relic"] == {"2": 45.0}
    assert parse_header(json.loads(json.dumps(written))).settings == settings
    for bad in ({"merge_by_contact": {"laser.9": 0.2}}, {"tipped_by_relic": {"4": 45}},
                {"tipped_by_relic": {"2": -1}}, {"merge_by_contact": [1]}):
        with pytest.raises(RigError, match="detect"):
            parse_header(dict(written, detect=bad))


# --- bad values -------------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, allowed", [
    ("merge.laser.4", 1.5, "0 to 1 seconds"),
    ("merge.laser.4", -0.1, "0 to 1 seconds"),
    ("merge.laser.4", True, "0 to 1 seconds"),
    ("tilt.relic.2", 20, "30 to 85 degrees"),
    ("tilt.relic.2", float("nan"), "30 to 85 degrees"),
    ("volume.master", 2, "0.0 (silent) to 1.0"),
    ("voice", "yes", "true (on) or false (off)"),
    ("voice.es", "es-MX", "es-419 or es"),
])
def test_a_bad_value_is_refused_with_one_clear_error_and_nothing_changes(tmp_path, key, value,
                                                                         allowed):
    memory = TableMemory.load(tmp_path)
    t, desk = _table(tmp_path, memory=memory)
    try:
        with pytest.raises(core.ServiceError) as refused:
            desk.set(key, value, by="Ana")
        text = str(refused.value)
        assert key in text and allowed in text and "\n" not in text
        assert refused.value.msg.code == "rig.service.refused"
        assert desk.tuning == () and not (tmp_path / FILE_NAME).exists()
    finally:
        t.stop()


def test_an_unknown_setting_or_key_is_refused():
    with pytest.raises(core.ServiceError, match="merge.laser.1 to merge.laser.8"):
        core.check_value("merge.laser.9", 0.1)
    desk = core.open_desk("Ana", ("button",), core.factory_values(0.1, (4,), (1,), {}))
    with pytest.raises(core.ServiceError, match="not a service key"):
        core.press(desk, "jump")


def test_a_bad_tuning_in_table_json_is_dropped_and_the_rest_kept():
    state, problems = parse_state(json.dumps({"version": 1, "language": "es",
                                              "tuning": {"merge.laser.4": 7}}))
    assert state.language == "es" and state.tuning is None
    assert len(problems) == 1 and "merge.laser.4 = 7" in str(problems[0])


# --- the pure state machine --------------------------------------------------------------------------

def test_presets_cycle_and_the_factory_value_clears_the_change():
    desk = core.open_desk("Ana", (), core.factory_values(0.1, (4,), (2,), {}))
    desk, _ = core.press(desk, "down")
    desk, _ = core.press(desk, "down")
    desk, _ = core.press(desk, "enter")
    assert desk.page == "sensitivity" and desk.rows() == ("merge.laser.4", "tilt.relic.2")
    said = []
    for _ in range(4):
        desk, effects = core.press(desk, "preset")
        said.append(core.preset_of("merge", desk.value("merge.laser.4")))
    assert said == ["forgiving", "strict", "normal", "forgiving"]
    desk, effects = core.press(desk, "factory")
    assert effects == [core.Change("merge.laser.4", 0.2, 0.1)] and desk.tuning == ()
    desk, effects = core.press(desk, "more")
    assert effects == [core.Change("merge.laser.4", 0.1, 0.11)]
    assert core.preset_of("merge", 0.11) == core.CUSTOM
    desk, _ = core.press(desk, "down")
    for _ in range(20):
        desk, _ = core.press(desk, "more")
    assert desk.value("tilt.relic.2") == core.TILT_HIGH_DEG          # held at the bound
    desk, effects = core.press(desk, "back")
    assert desk.page == "menu" and effects == []
    assert core.press(desk, "back")[1] == [core.Leave()]


def test_the_sound_page_tests_each_setting():
    desk = core.open_desk("Ana", (), core.factory_values(0.1, (), (), {}))
    desk, _ = core.press(desk, "down")
    desk, _ = core.press(desk, "enter")
    assert desk.page == "sound"
    tests = []
    for _ in core.SOUND_KEYS:
        tests += core.press(desk, "test")[1]
        desk, _ = core.press(desk, "down")
    assert tests == [core.Test(k) for k in core.SOUND_KEYS]
    assert core.sound_levels({"volume.master": 0.5}) == (0.4, 0.5, True, "es-419")


def test_the_screen_opens_it_with_f12_three_times_in_a_row():
    from rig.display.face import Face
    face = Face()
    assert face.key("f12")[0] is None and face.key("f12")[0] is None
    assert face.key("f12")[0] == core.OpenService(0.0, "screen")
    face.key("f12")
    face.key("f12")
    face.key("t")                           # another key in between: the count starts again
    assert face.key("f12")[0] is None
    from rig.display.service import shot
    _, board = shot("service")
    face.show(board)
    assert face.key("[8]")[0] == core.ServiceKey(0.0, "up")
    assert face.key("escape")[0] == core.ServiceKey(0.0, "back")
    assert face.key("x")[0] is None


def test_the_guard_opens_it_at_the_screen_and_walks_its_pages(tmp_path):
    from rig.display.face import KeyedDisplay
    screen = KeyedDisplay()
    t, desk = _table(tmp_path, display=screen)
    try:
        screen.press("f12", "f12", "f12")
        t.advance(0.3)                               # the keys reach the rig at its next look
        assert desk.is_open and desk.desk.by == "screen"
        assert isinstance(screen.board, core.ServiceScreen) and screen.board.page == "menu"
        screen.press("return")
        t.advance(0.3)
        assert screen.board.page == "switch-test"
        t.touch("laser.6")
        t.advance(0.3)
        lit = [row.name for row in screen.board.rows if row.lit]
        assert lit == ["laser.6"]
        screen.frame()                               # the frame draws
        screen.press("escape", "escape")
        t.advance(0.3)
        assert not desk.is_open and not isinstance(screen.board, core.ServiceScreen)
    finally:
        t.stop()


def test_the_display_plays_each_test_once_at_the_levels_set():
    from rig.display.service import hear

    class Sounds:
        def __init__(self):
            self.played, self.volume = [], None

        def set_volume(self, volume):
            self.volume = volume

        def play(self, name):
            self.played.append(name)

    class Voice:
        volume = 1.0

        def __init__(self):
            self.said = []

        def speak(self, text):
            self.said.append(text)

    desk = core.open_desk("Ana", (), core.factory_values(0.1, (), (), {}),
                          tuning=(("volume.master", 0.5),))
    first = core.screen(desk, sounds=((1, "jingle"),))
    second = core.screen(desk, sounds=((1, "jingle"), (2, "buzz")),
                         spoken=((3, core.Msg("rig.service.spoken_test")),))
    sounds, voice = Sounds(), Voice()
    hear(None, first, sounds, voice, "es")       # a first screen replays nothing
    hear(first, second, sounds, voice, "es")
    hear(second, second, sounds, voice, "es")
    assert sounds.played == ["buzz"] and sounds.volume == 0.4 and voice.volume == 0.5
    assert voice.said == ["Esta es la voz del museo. Uno, dos, tres."]
    off = core.screen(core.changed(desk, "voice", False)[0])
    hear(second, off, sounds, voice, "es")
    assert voice.volume == 0.0                    # the voice off: silent at once


def test_a_companion_games_host_opens_it_on_the_held_button_and_takes_its_presses_back(
        tmp_path):
    from rig.display.game_keys import primary
    from rig.games import game as game_named
    from rig.shell.config import load_config
    from rig.shell.gamehost import GameHost
    from rig.shell.session import RecordingSession
    from sim.clock import VirtualClock
    clock = VirtualClock()
    host = GameHost(game_named("stolen-paintings"), ("Ana", "Ben"), clock=clock,
                    session=RecordingSession(tmp_path, clock=clock), seed=7,
                    button=primary("stolen-paintings"))
    desk = attach_service(host, load_config(None))
    host.start()
    try:
        assert desk.inputs == ("button",)
        clock.advance(0.2)
        host.button_edge(1)
        clock.advance(5.05)
        assert desk.is_open and desk.desk.by == "button"
        host.button_edge(0)
        clock.advance(0.1)
        assert dict(desk.desk.values)["button"] == 0
        host.submit(core.ServiceKey(0.0, "back"))       # Esc on the menu: it leaves
        clock.advance(0.1)
        assert not desk.is_open
    finally:
        host.stop()


def test_the_audits_page_draws_what_the_recordings_count(tmp_path):
    t, desk = _table(tmp_path)
    try:
        t.start_turn()
        for _ in range(3):                       # three touches of rod 4: caught
            t.touch("laser.4")
            t.advance(0.3)
        assert t.turn is None
        t.rig.open_service("Ana")
        t.advance(0.05)
        _key(t, "down", "down", "down", "enter")
        assert desk.desk.page == "audits"
        board, _ = desk.frame(t.clock.now())
        rods = {name: counts for name, *counts in board.audit.rods}
        assert rods["laser.4"][0] == 3 and rods["laser.5"][0] == 0
        assert board.audit.started == 1 and board.audit.recordings == 1
        assert len(board.audit.nights) == 1 and board.audit.nights[0][1] == 1
        assert _play(t) == _play(t)               # reading them records nothing
    finally:
        t.stop()


def test_the_audit_view_takes_only_counts():
    view = core.audit_view({"touches": {"laser.4": {"touches": 5, "voided": "x"}},
                            "nights": {"2026-12-01": 2, "2026-12-02": -1},
                            "matches": {"cleptomano": {"started": 2, "finished": 1}},
                            "recordings": 2}, rods=(4,))
    assert view.rods == (("laser.4", 5, 0, 0, 0),)
    assert view.nights == (("2026-12-01", 2), ("2026-12-02", 0))
    assert (view.started, view.finished, view.abandoned) == (2, 1, 0)


def test_the_service_screen_goes_to_the_rigs_screen_not_to_the_phones():
    from rig.shell.faces import Faces, MemoryDisplay

    class Phones(MemoryDisplay):
        shows_service = False

    screen, phones = MemoryDisplay(), Phones()
    faces = Faces(screen, phones)
    faces.show("a game's snapshot")
    desk = core.open_desk("Ana", (), core.factory_values(0.1, (), (), {}))
    faces.show(core.screen(desk))
    assert isinstance(screen.board, core.ServiceScreen)
    assert phones.board == "a game's snapshot"


def test_the_sound_settings_reach_the_config_at_the_next_start():
    from rig.shell.config import load_config
    from rig.shell.table_state import effects_volume, tuned_config
    config = load_config(None)
    tuning = core.check_tuning({"volume.master": 0.5, "volume.voice": 0.8, "voice": False,
                                "voice.es": "es", "tilt.relic.3": 75.0,
                                "merge.laser.2": config.detect.merge_window_s})
    tuned = tuned_config(config, tuning)
    assert (tuned.sound.voice, tuned.sound.voice_volume, tuned.sound.voice_es) == \
        (False, 0.4, "es")
    assert tuned.detect.tipped_from(3) == 75.0 and tuned.detect.tipped_from(1) == 60.0
    assert tuned.detect.merge_by_contact == ()      # the factory value: nothing per rod
    assert effects_volume(tuning) == 0.4 and effects_volume(()) == 0.8


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=12), inner, max_size=3), max_leaves=8)
_KEYS = st.sampled_from(("merge.laser.4", "tilt.relic.2", "volume.master", "voice", "voice.es",
                         "merge.laser.9", "laser.4", "")) | st.text(max_size=14)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(_KEYS, _JSON, max_size=4))
def test_any_tuning_from_a_file_is_kept_checked_or_refused_with_one_error(tuning):
    try:
        checked = core.check_tuning(tuning)
    except core.ServiceError as exc:
        assert "\n" not in str(exc) and exc.msg is not None
    else:
        assert core.check_tuning(checked) == checked
    state, problems = parse_state(json.dumps({"version": 1, "tuning": tuning}))
    assert (state.tuning is None) or problems == []


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(("merge_by_contact", "tipped_by_relic", "glitch_s")),
                       _JSON, max_size=3))
def test_any_detect_object_in_a_header_reads_or_is_refused_as_a_recording_error(detect):
    from rig.core.errors import RecordingError
    obj = {"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"],
           "difficulty": "normal", "detect": detect}
    try:
        header = parse_header(obj)
    except RecordingError:
        return
    assert isinstance(header.settings, DetectSettings)


def test_the_host_phones_button_opens_it_through_the_hosts_open_service(tmp_path):
    from rig.shell.config import load_config
    from rig.web.face import WebFace
    t, desk = _table(tmp_path / "recordings")
    face = WebFace(load_config(None).web, tmp_path / "recordings")
    face.rig = t.rig                             # as the night wires it (rig.cli._serve)
    try:
        face.open_service("Ana")                 # what POST /api/service calls, off the loop
        t.advance(0.05)
        assert desk.is_open and desk.desk.by == "Ana"
        _key(t, "back")
        t.start_turn()
        with pytest.raises(RigError) as refused:  # the page answers 409 with its words
            face.open_service("Ana")
        assert refused.value.msg == core.Msg("rig.service.not_in_turn")
    finally:
        t.stop()
