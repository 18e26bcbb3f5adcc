"""The set-up screen as a guard meets it: a new match picked from tonight's players, at a level
and with a first thief, typed on a keyboard or a numeric keypad; the ``new_match`` line that
records it; the laser layout checked before the first turn.

The daemon's tests drive the whole rig in virtual time (:class:`sim.harness.Harness`) with the
screen's own keys and frames (:class:`rig.display.face.KeyedDisplay`)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pygame = pytest.importorskip("pygame")

from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import recording, engine as rules
from rig.core.errors import RecordingError
from rig.games.cleptomano.rules.levels import PRESETS, make_level
from rig.games.cleptomano.rules.replay import replay_lines
from rig.display.face import KeyedDisplay
from rig.draw.kit import AMBER, GREEN
from rig.games.cleptomano.setup_samples import SAMPLES
from rig.games.cleptomano.rules.view import Scoreboard
from rig.games.cleptomano.rules.wiringcheck import CheckWiring
from rig.games.cleptomano.setup_flow import SetLanguage
from rig.shell.storage import replay_file
from rig.words import english
from sim.harness import Harness, Recording

BOARD = Scoreboard(players=("Ana", "Ben", "Caro"),
                   roster=("Ana", "Ben", "Caro", "Dora", "Eli", "Fede"))


class Keys(KeyedDisplay):
    """The screen's keys on a board, with what the set-up screen holds."""

    def __init__(self, board=BOARD):
        super().__init__()
        self.show(board)

    def commands(self, *keys):
        """Press ``keys``; the commands they made."""
        self.press(*keys)
        return self.poll_commands()

    @property
    def flow(self):
        return self.face.keys.flow

    def setup_view(self):
        return self.face.keys.setup_view()


def note(keys):
    """The set-up screen's note as the table reads it in English ("" when none)."""
    return english(keys.setup_view().note)


# --- The keys -------------------------------------------------------------------------------

def test_a_keyboard_sets_up_tonights_match_from_the_roster_and_a_new_name():
    m = Keys()
    m.press("s", "1", "2", "4")                   # drop Ben, add Dora
    m.write("zoe")
    m.press("return")                             # Zoe joins, capitalised
    assert m.flow.chosen == ["Ana", "Caro", "Dora", "Zoe"]
    commands = m.commands("return", "3",             # hard
                     "3",                          # Dora steals first
                     "return",                     # layout: not checked
                     "return")
    assert commands == [ev.NewMatch(0.0, ("Ana", "Caro", "Dora", "Zoe"), "hard",
                                    first_thief="Dora")]
    assert m.flow is None                          # the screen is back to the match


def test_a_numeric_keypad_alone_sets_up_a_custom_level():
    m = Keys()
    commands = m.commands("[.]", "[1]", "[3]", "[5]", "enter",    # + Eli, drop Caro
                     "[4]", "[4]", "[5]", "enter",              # custom: 45 s
                     "[5]", "[2]",                              # 5 lasers, narrow
                     "[2]",                                     # Ben steals first
                     "enter", "enter")
    assert commands == [ev.NewMatch(0.0, ("Ana", "Ben", "Eli"), "normal", 45.0, 5, "narrow",
                                    "Ben")]


def test_no_time_limit_and_a_solo_heist_skip_what_does_not_apply():
    m = Keys()
    commands = m.commands("s", "1", "2", "3", "return",      # only Ana: a solo heist
                     "4", "0", "return", "3", "1",         # custom: no limit, 3 lasers, wide
                     "return", "return")                   # no first-thief page
    assert commands == [ev.NewMatch(0.0, ("Ana",), "normal", None, 3, "wide", "Ana")]


def test_the_guards_other_keys_still_work_after_the_set_up_screen():
    m = Keys()
    m.press("s", "escape")
    assert m.flow is None
    assert m.commands("t", "2", "l", "1", "2", "return", "u") == [
        ev.Choose(0.0, "thief", "Ben"), ev.ConfirmLoot(0.0, 1, 2, "guard"),
        ev.UndoTouch(0.0, "guard")]


def test_set_up_waits_for_the_end_of_a_turn_and_a_turn_closes_it():
    m = Keys(Scoreboard(phase="turn", players=("Ana", "Ben")))
    assert m.commands("s") == [] and m.flow is None and "between turns" in english(m.face.prompt)
    m = Keys()
    m.press("s", "1")
    m.show(Scoreboard(phase="turn", players=("Ana", "Ben", "Caro")))   # START pressed
    assert m.setup_view() is None


@pytest.mark.parametrize("keys, words", [
    (["1", "2", "3", "return"], "Pick at least one player"),
    (["4", "5", "6", "7", "8", "9"], "8 players at most"),
    (["0", "3"], "No name 3 on this page"),
])
def test_the_players_page_says_why_it_refuses(keys, words):
    board = Scoreboard(players=("Ana", "Ben", "Caro"), roster=tuple(
        "Ana Ben Caro Dora Eli Fede Gus Hana Ivo Juan Kai".split()))
    m = Keys(board)
    m.press("s", "1", *keys)
    assert words in note(m)


def test_a_name_is_typed_up_to_24_characters_and_a_known_one_is_picked_not_doubled():
    m = Keys()
    m.press("s", "1")
    m.write("maximiliano de la fuente y")
    assert m.setup_view().field == "Maximiliano De La Fuente"
    assert "24 characters" in note(m)
    m.press("return")
    m.write("dora")
    m.press("return")
    assert m.flow.chosen == ["Ana", "Ben", "Caro", "Maximiliano De La Fuente", "Dora"]
    assert m.flow.roster.count("Dora") == 1
    m.write("ana")
    m.press("return")
    assert "Ana is already playing" in note(m)


def test_roster_pages_turn_with_0():
    names = tuple("Ana Ben Caro Dora Eli Fede Gus Hana Ivo Juan Kai".split())
    m = Keys(Scoreboard(players=("Ana",), roster=names))
    m.press("s", "1", "0")
    assert [c.label for c in m.setup_view().choices] == ["Juan", "Kai"]
    m.press("2", "0")
    assert m.flow.chosen == ["Ana", "Kai"]
    assert m.setup_view().choices[0].label == "Ana"


def test_the_layout_page_checks_the_guards_layout_before_the_first_turn():
    m = Keys()
    m.press("s", "1", "return", "1", "return")          # easy: 3 added lasers
    m.press("1", "5", "3", "8", "4", "2")               # 4: L-I R-II; 5: L-III table-R; 6: R-I L-II
    assert m.setup_view().layout.legal
    m.press("backspace", "5")                           # 6: R-I R-II
    assert tuple(map(english, m.setup_view().layout.problems)) == (
        "laser 6 rests on the right wall at both ends; a laser must span both walls or go "
        "from one wall to the table beside/under the other",)
    m.press("return")
    assert "Move the lasers" in note(m) and m.flow.page == "layout"
    m.press("backspace", "2", "return")
    assert m.flow.page == "confirm"
    assert "laser layout checked: legal" in map(english, m.setup_view().summary)


def test_the_layout_check_on_its_own_uses_the_matchs_lasers():
    m = Keys(Scoreboard(players=("Ana", "Ben"), lasers=3))
    m.press("s", "3", "1", "5", "3", "8", "4")
    m.press("return")
    assert "Laser 6 needs its second end" in note(m)
    m.press("5", "return")
    assert note(m).startswith("Move the lasers the list names")
    m.press("backspace", "2", "return")
    assert note(m) == "The layout is legal: 4: L-I R-II; 5: L-III table-R; 6: R-I L-II."
    # Back in the menu, a new match checks its own level's lasers, from an empty layout.
    m.press(*["escape"] * 7, "1", "return", "3", "2")       # hard: 5 lasers; Ben first
    assert m.flow.page == "layout" and m.setup_view().layout.lasers == 5
    assert m.setup_view().layout.ends == (None,) * 10


def test_the_menu_starts_the_wiring_check():
    m = Keys()
    assert m.commands("s", "2") == [CheckWiring(0.0, "start")]


_KEYS = st.sampled_from(["s", "[.]", "return", "enter", "escape", "backspace", "space", "0",
                         "1", "2", "3", "4", "5", "6", "7", "8", "9", "[4]", "a", "z", "t",
                         "l", "u", "f12", "-", ""])


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(_KEYS, max_size=60))
def test_any_keys_on_the_set_up_screen_make_only_commands_the_rules_accept(keys):
    m = Keys()
    for key in keys:
        for command in m.commands(key):
            if isinstance(command, ev.NewMatch):
                rules.check_new_match(command)       # raises for a match the rules refuse
            else:
                assert command == CheckWiring(0.0, "start") or not isinstance(
                    command, CheckWiring)
        view = m.setup_view()
        assert view is None or (view.title and view.keys)


# --- The recording's new_match line -----------------------------------------------------------

HEADER = '{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"]}'


def lines_with(*objects):
    return [HEADER] + [json.dumps(o) for o in objects]


def test_a_new_match_line_is_the_end_of_its_match():
    s = Recording(players=("Ana", "Ben"))
    s.press(1.0)
    s.hand_in(2.0)
    s.hand_out(3.0)
    s.press(4.0)
    s.line({"t": 5.0, "new_match": {"players": ["Caro"], "difficulty": "easy"}, "by": "Ana"})
    s.line({"t": 6.0, "input": "button", "value": 1})        # after the end: never read
    result = replay_lines(s.lines())
    assert [t["outcome"] for t in result["turns"]] == ["escaped"]
    assert result["players"] == ["Ana", "Ben"]


def test_a_new_match_during_a_turn_is_bad_input_naming_the_line():
    s = Recording(players=("Ana", "Ben"))
    s.press(1.0)
    s.line({"t": 5.0, "new_match": {"players": ["Caro", "Dora"]}})
    with pytest.raises(RecordingError) as info:
        replay_lines(s.lines(), "m.jsonl")
    assert str(info.value).startswith("m.jsonl:")
    assert "cannot be set up while Ana's turn runs" in english(info.value.msg)


@pytest.mark.parametrize("spec, words", [
    ({"players": ["Ana", "ana"]}, "is the same name as"),
    ({"players": []}, "1 to 8 names"),
    ({"players": ["P%d" % i for i in range(9)]}, "1 to 8 names"),
    ({"players": ["Ana"], "difficulty": "insane"}, "difficulty 'insane' is not a level"),
    ({"players": ["Ana"], "lasers": 6}, "lasers 6 is out of range"),
    ({"players": ["Ana"], "timer_s": 0}, "timer_s 0 is out of range"),
    ({"players": ["Ana", "Ben"], "first_thief": "Caro"}, "first_thief 'Caro' is not one of"),
    ({"players": ["Ana"], "guard": "Ben"}, "new_match key 'guard' is not known"),
    ({"difficulty": "easy"}, 'new_match must be {"players"'),
    ("Ana, Ben", 'new_match must be {"players"'),
])
def test_a_bad_new_match_line_names_the_line_and_the_fix(spec, words):
    with pytest.raises(RecordingError) as info:
        recording.parse_lines(lines_with({"t": 1.0, "new_match": spec}), "m.jsonl")
    assert str(info.value).startswith("m.jsonl:2: new_match")
    assert words in str(info.value)


def test_the_next_header_is_made_from_the_new_match_line():
    command = recording.parse_item({"t": 3.0, "new_match": {
        "players": ["Caro", "Ana"], "difficulty": "easy", "timer_s": 45, "first_thief": "Ana"},
        "by": "Ben"}, 2)
    header = recording.header_from(command)
    assert header.to_json() == {"recording": "cleptomano", "version": 1,
                                "players": ["Caro", "Ana"], "difficulty": "easy",
                                "timer_s": 45, "first_thief": "Ana"}
    assert header.level == make_level("easy", timer_s=45)
    assert recording.item_to_json(command) == {"t": 3.0, "new_match": {
        "players": ["Caro", "Ana"], "difficulty": "easy", "timer_s": 45,
        "first_thief": "Ana"}, "by": "Ben"}


_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 100) |
                     st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
                     lambda inner: st.lists(inner, max_size=9) |
                     st.dictionaries(st.text(max_size=12), inner, max_size=6), max_leaves=25)
_specs = st.fixed_dictionaries({}, optional={
    "players": st.lists(st.text(max_size=30), max_size=10) | _json,
    "difficulty": st.sampled_from(["easy", "normal", "hard"]) | _json,
    "timer_s": st.none() | st.floats(-10, 200) | _json,
    "lasers": st.integers(0, 7) | _json,
    "corridor": st.sampled_from(["wide", "narrow"]) | _json,
    "first_thief": st.text(max_size=5) | _json}) | _json


@settings(max_examples=150, deadline=None)
@given(spec=_specs, by=st.none() | st.text(max_size=8))
def test_any_new_match_line_parses_or_is_one_clear_error(spec, by):
    obj = {"t": 1.0, "new_match": spec}
    if by is not None:
        obj["by"] = by
    try:
        command = recording.parse_item(obj, 2)
    except RecordingError as exc:
        assert exc.line == 2 and str(exc).startswith("line 2: new_match")
        return
    again = recording.parse_item(json.loads(json.dumps(recording.item_to_json(command))), 2)
    assert again == command
    assert recording.header_from(command).level == recording.parse_header(
        recording.header_from(command).to_json()).level


# --- The whole rig: keys in, recordings out --------------------------------------------------------

@pytest.fixture
def keyed(tmp_path):
    tables = []

    def make(**kwargs):
        display = KeyedDisplay()
        kwargs.setdefault("recordings_dir", tmp_path / "rec")
        table = Harness(display=display, **kwargs).start()
        tables.append(table)
        table.advance(0.2)
        return table, display

    yield make
    for table in tables:
        table.stop()


def recordings(directory):
    return sorted(directory.glob("match-*.jsonl"))


def test_the_guard_sets_up_a_new_match_and_it_is_recorded(keyed, tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    old = Recording(players=("Dora", "Eli"))
    (rec / "match-20240101-200000.jsonl").write_text("\n".join(old.lines()) + "\n")
    t, screen = keyed()
    assert screen.board.roster == ("Ana", "Ben", "Caro", "Dora", "Eli")
    first = t.rig.recording_path
    screen.press("s", "1", "2", "4")                  # Ben out, Dora in
    screen.write("Zoe")
    screen.press("return", "return", "3", "2", "return", "return")
    t.advance(0.3)
    assert t.said("New match set up: Ana, Caro, Dora, and Zoe; hard level")
    assert screen.board.players == ("Ana", "Caro", "Dora", "Zoe")
    assert screen.board.next_thief == "Caro"
    closing = [json.loads(line) for line in first.read_text().splitlines()[-2:]]
    assert closing[0]["new_match"] == {"players": ["Ana", "Caro", "Dora", "Zoe"],
                                       "difficulty": "hard", "first_thief": "Caro"}
    assert closing[1]["end"] is True and closing[1]["t"] == closing[0]["t"]
    header = json.loads(t.rig.recording_path.read_text().splitlines()[0])
    assert header == {"recording": "cleptomano", "version": 1,
                      "players": ["Ana", "Caro", "Dora", "Zoe"], "difficulty": "hard",
                      "first_thief": "Caro"}
    assert replay_file(first)["players"] == ["Ana", "Ben", "Caro"]
    # The new match plays at its level, and its recording replays to what the rig saw.
    t.start_turn(at=1.0)
    assert t.turn.thief == "Caro" and t.match.level == PRESETS["hard"]
    t.advance(31)
    live, replayed = t.live_then_replay()
    assert live == replayed and replayed["turns"][0]["outcome"] == "caught"


def test_a_new_match_is_refused_while_a_turn_runs(keyed):
    t, screen = keyed()
    t.start_turn()
    path = t.rig.recording_path
    t.submit(ev.NewMatch(0.0, ("Caro", "Dora")))
    t.advance(0.2)
    assert "cannot be set up while Ana's turn runs" in english(t.board.message)
    assert t.rig.recording_path == path and t.match.players == ("Ana", "Ben", "Caro")
    assert not [line for line in t.recorded() if "new_match" in line]


def test_a_set_up_match_survives_a_crash_and_the_next_match_keeps_its_settings(tmp_path):
    rec = tmp_path / "rec"
    screen = KeyedDisplay()
    t = Harness(display=screen, recordings_dir=rec).start()
    t.advance(0.2)
    screen.press("s", "1", "3", "return", "1", "return", "return", "return")  # Ana, Ben; easy
    t.advance(0.3)
    t.start_turn(at=2.0)
    t.crash()
    again = Harness(recordings_dir=rec, resume=True).start()
    try:
        assert again.match.players == ("Ana", "Ben") and again.match.level == PRESETS["easy"]
        assert again.said("Match resumed from")
        assert len(recordings(rec)) == 2
    finally:
        again.stop()


def test_the_match_after_a_set_up_one_keeps_its_settings(keyed):
    t, screen = keyed()
    screen.press("s", "1", "2", "3", "return", "3", "return", "return")   # Ana alone, hard
    t.advance(0.3)
    t.start_turn(at=1.0)
    t.hand_out().press()                       # out at once: the solo heist is over
    assert t.board.phase == "over"
    t.advance(1.0).press()                     # START again: the next match, same set-up
    t.advance(0.3)
    header = json.loads(t.rig.recording_path.read_text().splitlines()[0])
    assert (header["players"], header["difficulty"]) == (["Ana"], "hard")
    assert t.turn is None                      # its first turn waits for a press (issue 30)
    t.advance(1.0).press()
    assert t.turn is not None and t.turn.thief == "Ana"


def test_the_set_up_screen_and_its_keys_show_on_the_rigs_screen(keyed):
    t, screen = keyed()
    screen.press("s", "1", "2")
    frame = screen.frame()
    # One green badge per picked player (Ana 1, Caro 2), an amber key square per name.
    picked = pygame.mask.from_threshold(frame, GREEN, (30, 30, 30, 255))
    assert len(picked.connected_components(minimum=200)) == 2
    keys = pygame.mask.from_threshold(frame, AMBER, (20, 20, 20, 255))
    assert len(keys.connected_components(minimum=200)) == 3
    assert "Set-up" not in english(t.board.message)
    screen.press("escape", "escape")
    assert pygame.image.tobytes(screen.frame(), "RGB") != pygame.image.tobytes(frame, "RGB")


@pytest.mark.parametrize("state", sorted(SAMPLES))
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080), (480, 800)])
def test_every_set_up_sample_draws_at_every_size(state, size):
    draw, thing = SAMPLES[state]
    surface = pygame.Surface(size)
    draw(surface, thing)
    assert pygame.transform.average_color(surface)[:3] != (0, 0, 0)


# --- The screen's language -------------------------------------------------------------------

def test_the_set_up_menu_offers_each_language_in_its_own_name():
    m = Keys()
    m.press("s", "4")
    view = m.setup_view()
    assert [c.label for c in view.choices] == ["English", "Español", "Français", "Română",
                                               "Español (rioplatense)"]
    assert [c.current for c in view.choices] == [True, False, False, False, False]
    assert m.commands("3") == [SetLanguage(0.0, "fr")]
    assert m.flow.page == "menu" and m.flow.language == "fr"


def test_the_language_chosen_at_set_up_changes_the_screens_words(keyed, monkeypatch):
    """Spanish chosen on the set-up screen: the snapshot carries it, the face speaks it (the
    words drawn change), the log stays English and the recording gets no line."""
    from rig.draw import kit
    t, screen = keyed()
    assert screen.board.language == "en"
    lines_before = t.rig.recording_path.read_text("utf-8")
    drawn = []
    real = kit.render_text
    monkeypatch.setattr(kit, "render_text",
                        lambda text, size, colour: drawn.append(text) or real(text, size, colour))
    screen.press("escape")
    screen.frame()
    assert "MUSEUM READY" in drawn and "MUSEO LISTO" not in drawn
    screen.press("s", "4", "2", "escape")          # Idioma: Español, then back to the match
    t.advance(0.3)
    assert screen.board.language == "es"
    drawn.clear()
    screen.frame()
    assert "MUSEO LISTO" in drawn and "MUSEUM READY" not in drawn
    assert "RONDAS" in drawn
    t.start_turn(at=1.0)
    t.advance(0.3)
    assert t.said("Round 1: Ana steals")              # the log: English, whatever the table
    assert t.rig.recording_path.read_text("utf-8").startswith(lines_before)
    assert "language" not in t.rig.recording_path.read_text("utf-8")
    kit.use_words("en")


def test_a_screenshot_is_taken_in_romanian(tmp_path, capsys):
    from rig import cli
    from rig.draw import kit
    out = tmp_path / "turn-ro.png"
    drawn = []
    real = kit.render_text
    kit.render_text = lambda text, size, colour: drawn.append(text) or real(text, size, colour)
    try:
        assert cli.main(["screenshot", "turn", str(out), "--lang", "ro"]) == 0
    finally:
        kit.render_text = real
    assert out.stat().st_size > 1000
    assert "PRADĂ" in drawn and "ATINGERI DE LASER" in drawn and "LOOT" not in drawn
    assert kit.words().lang == "en"        # the screen's language is put back after the shot


def test_a_match_is_set_up_in_romanian_at_the_keys(keyed, monkeypatch):
    """The table speaks Romanian (chosen at the set-up screen's menu): the guard sets up a new
    match at the keys (tonight's players, a name typed, the level, the first thief), every page
    drawn in Romanian, never in English; the match is recorded as in any language."""
    from rig.draw import kit
    from rig.words import Words, translations
    english, romanian = {}, Words("ro")
    for code in translations("cleptomano", "en")._catalog:
        if isinstance(code, str) and code.startswith("cleptomano.setup."):
            en = Words("en").template(code)
            if en and "{" not in en and en != romanian.template(code):
                english[code] = en
    assert len(english) > 10
    drawn = []
    real = kit.render_text
    monkeypatch.setattr(kit, "render_text",
                        lambda text, size, colour: drawn.append(text) or real(text, size, colour))
    t, screen = keyed()
    screen.press("s", "4", "4")                     # Limbă: Română
    t.advance(0.3)
    assert screen.board.language == "ro"
    seen = set()
    steps = [("1",), ("2",), ("Zoe",), ("return",), ("return",), ("3",), ("2",),
             ("return",), ("return",)]
    for keys in steps:
        if keys == ("Zoe",):
            screen.write("Zoe")
        else:
            screen.press(*keys)
        t.advance(0.3)
        drawn.clear()
        screen.frame()
        leaks = [text for text in drawn if text in english.values()]
        assert not leaks, (keys, leaks)
        seen.update(code for code in english if romanian.template(code) in drawn)
    assert len(seen) >= 4, seen                     # Romanian set-up words were drawn
    assert screen.board.players == ("Ana", "Caro", "Zoe")          # Ben out, Zoe typed in
    assert screen.board.next_thief == "Caro"
    assert t.said("New match set up: Ana, Caro, and Zoe; hard level")   # the log: English
    assert json.loads(t.rig.recording_path.read_text().splitlines()[0])["players"] == \
        ["Ana", "Caro", "Zoe"]
    kit.use_words("en")
