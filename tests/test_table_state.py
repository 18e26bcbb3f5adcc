"""The table's state (issue 30): the evening's choices kept through game switches, restarts
and crashes, next to the recordings; a bad file never stops the rig.  Virtual clocks only."""

import json
import logging
import os

from hypothesis import given, settings, strategies as st

from rig.core.gamekit import SetLanguage
from rig.core.table_state import (Layout, Level, TableState, parse_state, to_json)
from rig.games import game as game_named
from rig.shell.config import load_config
from rig.shell.gamehost import GameHost
from rig.shell.session import RecordingSession
from rig.shell.table_state import FILE_NAME, TableMemory, save_atomically
from rig.web.night import Choice, parse_choice
from sim.clock import VirtualClock
from sim.gamehost import Speakers

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


# --- the pure part ----------------------------------------------------------------------------

def test_a_state_round_trips_through_its_json():
    state = TableState(language="es", voice=False, players=("Zoé", "Ben"),
                       level=Level("hard", 30.0), layout=Layout(5, "narrow"), game="stop-thief")
    again, problems = parse_state(to_json(state))
    assert problems == [] and again == state


def test_each_bad_field_is_one_clear_error_and_the_rest_is_kept():
    text = json.dumps({"version": 1, "language": "klingon", "voice": "loud",
                       "players": ["Ana", "ana"], "level": {"difficulty": "easy",
                                                            "timer_s": 99999},
                       "layout": {"lasers": 9, "corridor": "wide"}, "game": "Stop Thief!"})
    state, problems = parse_state(text, where="table.json")
    assert state == TableState()
    assert [p.key for p in problems] == ["language", "voice", "players", "level", "layout",
                                         "game"]
    first = str(problems[0])
    assert "table.json: language: 'klingon'" in first and "en, es, fr, ro" in first
    good, problems = parse_state(json.dumps({"version": 1, "language": "ro", "voice": 3}))
    assert good == TableState(language="ro") and [p.key for p in problems] == ["voice"]


def test_a_newer_rigs_file_gives_what_this_rig_knows():
    state, problems = parse_state(json.dumps({"version": 7, "language": "fr", "seats": [1]}))
    assert state == TableState(language="fr")
    assert len(problems) == 1 and "newer than this rig's 1" in str(problems[0])


def test_a_corrupt_file_gives_the_defaults_and_says_why():
    for text in (b"\xff\xfe", b'{"language": "es"', b"[1, 2]", b"x" * 100_000, b"[" * 5000):
        state, problems = parse_state(text)
        assert state == TableState() and len(problems) == 1


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
                       | st.text(max_size=12),
                       lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
FIELDISH = st.fixed_dictionaries({}, optional={
    k: JSONISH | st.sampled_from(["es", "ro", "hard", "narrow", "stop-thief"])
    for k in ("version", "language", "voice", "players", "level", "layout", "game")})


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=200), FIELDISH.map(lambda d: json.dumps(d)), st.text()))
def test_the_parser_never_raises_and_keeps_only_valid_choices(text):
    state, problems = parse_state(text)
    again, more = parse_state(to_json(state))     # what it kept is itself a valid state
    assert again == state and more == []
    assert all(str(p) and "\n" not in str(p) for p in problems)


# --- the I/O part ------------------------------------------------------------------------------

def test_a_choice_is_saved_atomically_and_read_after_a_restart(tmp_path):
    memory = TableMemory.load(tmp_path)
    memory.choose(language="es", players=("Zoe", "Yan"))
    assert sorted(p.name for p in tmp_path.iterdir()) == [FILE_NAME]   # no temp file left
    again = TableMemory.load(tmp_path)                                 # the rig restarted
    config = again.config(load_config())
    assert config.table.language == "es"
    assert config.match.players == ("Zoe", "Yan") and config.match.first_thief == "Zoe"
    assert again.sources()["language"] == "table" and again.sources()["voice"] == "rig.toml"


def test_a_hostile_file_is_named_in_the_log_and_the_defaults_used(tmp_path, caplog):
    (tmp_path / FILE_NAME).write_bytes(b'{"version": 1, "language": "es", "players": 5}')
    with caplog.at_level(logging.WARNING, logger="cleptomano"):
        memory = TableMemory.load(tmp_path)
    assert memory.state == TableState(language="es")
    assert str(tmp_path / FILE_NAME) in caplog.text and "players" in caplog.text
    assert memory.config(load_config()).match.players == load_config().match.players


def test_a_disk_that_refuses_the_file_does_not_stop_the_rig(tmp_path, caplog):
    memory = TableMemory.load(tmp_path / "missing" / "x")
    (tmp_path / "missing").write_text("a file where the folder should be")
    with caplog.at_level(logging.WARNING, logger="cleptomano"):
        assert memory.choose(language="fr").language == "fr"
    assert "cannot be written" in caplog.text


def test_save_atomically_replaces_the_whole_file(tmp_path):
    path = tmp_path / "t.json"
    save_atomically(path, "old")
    save_atomically(path, "new")
    assert path.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["t.json"]


# --- through the rig ---------------------------------------------------------------------------

def test_the_screens_language_lasts_through_a_switch_and_a_restart(tmp_path):
    """Issue 30: the language chosen at the screen went back to English at every game switch
    and every restart."""
    memory = TableMemory.load(tmp_path)
    clock = VirtualClock()
    display = Speakers()
    host = GameHost(game_named("stop-thief"), ("Ana", "Ben"), clock=clock,
                    session=RecordingSession(tmp_path, clock=clock), display=display, seed=3)
    host.remember = memory.choose            # as rig.cli's _serve sets it
    host.start()
    clock.advance(0.2)
    display.type(SetLanguage(0.0, "es"))
    clock.advance(0.5)
    assert display.board.language == "es"
    host.stop()
    config = TableMemory.load(tmp_path).config(load_config())    # the next game, or a restart
    from rig.shell.build import build_game_host
    clock2 = VirtualClock()
    display2 = Speakers()
    again = build_game_host(config, "stop-thief", ("Ana", "Ben"), clock=clock2,
                            recordings_dir=tmp_path, display=display2, seed=4)
    again.start()
    clock2.advance(0.2)
    assert display2.board.language == "es"
    again.stop()


def test_a_phone_sets_up_cleptomanos_players_and_they_last(tmp_path):
    """Issue 30: the switch form hid the players for Cleptómano, and a switch back or a
    restart went back to rig.toml's "Ana, Ben, and Caro"."""
    assert parse_choice({"game": "cleptomano", "players": ["Zoé", "Yan"]}) == \
        Choice("cleptomano", ("Zoé", "Yan"))
    assert parse_choice({"game": "cleptomano"}) == Choice("cleptomano")
    memory = TableMemory.load(tmp_path)
    memory.choose(game="stop-thief", players=("Zoé", "Yan", "Xia"))   # a phone's choice
    memory.choose(game="cleptomano")                                   # back to Cleptómano
    config = TableMemory.load(tmp_path).config(load_config())
    assert config.match.players == ("Zoé", "Yan", "Xia")


def test_a_restart_starts_the_nights_game_again(tmp_path):
    from argparse import Namespace
    from rig.cli import _night_choice
    args = Namespace(demo=False, interactive=False)
    state = TableState(game="stop-thief", players=("Ana", "Ben"))
    assert _night_choice(state, load_config(), args) == Choice("stop-thief", ("Ana", "Ben"))
    assert _night_choice(TableState(game="cleptomano"), load_config(), args) is None
    assert _night_choice(TableState(game="no-such-game", players=("A", "B")), load_config(),
                         args) is None


def test_cleptomanos_set_up_lasts_through_a_restart_and_the_screen_says_where_from(tmp_path):
    """Issue 30: the players and level set up at the screen were lost on a restart (rig.toml's
    "Ana, Ben, and Caro" again); the set-up screen says where each choice comes from."""
    from rig.display.face import KeyedDisplay
    from rig.games.cleptomano.rules.levels import PRESETS
    from rig.words import english
    from sim.harness import Harness
    rec = tmp_path / "rec"
    memory = TableMemory.load(rec)
    screen = KeyedDisplay()
    t = Harness(display=screen, recordings_dir=rec)
    t.rig.remember, t.rig.table_sources = memory.choose, memory.sources   # as rig.cli's _serve
    t.start()
    try:
        t.advance(0.2)
        screen.press("s")
        said = [english(line) for line in screen.face.keys.setup_view().summary]
        assert said == ["Language: English (rig.toml's default)",
                        "Players: Ana, Ben, and Caro (rig.toml's default)",
                        "Level: normal (rig.toml's default)"]
        screen.press("4", "2")                                  # Español
        screen.press("1", "3", "return", "1", "return", "return", "return")  # Ana, Ben; easy
        t.advance(0.3)
    finally:
        t.stop()
    kept = TableMemory.load(rec)                                # the rig restarts
    assert kept.state.language == "es" and kept.state.players == ("Ana", "Ben")
    assert kept.state.level == Level("easy", PRESETS["easy"].timer_s)
    screen = KeyedDisplay()
    again = Harness(kept.config(load_config()), display=screen, recordings_dir=tmp_path / "new")
    again.rig.remember, again.rig.table_sources = kept.choose, kept.sources
    again.start()
    try:
        again.advance(0.2)
        assert again.match.players == ("Ana", "Ben") and again.match.level == PRESETS["easy"]
        assert screen.board.language == "es"
        screen.press("s")
        said = [english(line) for line in screen.face.keys.setup_view().summary]
        assert said[1] == "Players: Ana and Ben (chosen at this table)"
    finally:
        again.stop()


def test_a_restarted_rig_plays_the_nights_game_and_a_hostile_state_never_stops_it(
        tmp_path, caplog):
    """``cleptomano run`` as systemd starts it (no --game), twice in one recordings folder:
    the table's state names Stop Thief! and its players, so the rig starts it again; then a
    hostile state file is named in the log and Cleptómano starts with rig.toml's defaults."""
    import signal
    from rig import cli
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nenabled = false\n', "utf-8")
    rec = tmp_path / "rec"
    rec.mkdir()
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    caplog.set_level(logging.INFO, logger="cleptomano")

    def run():
        return cli.main(["run", "--sim", "--headless", "--config", str(config),
                         "--recordings", str(rec), "--duration-s", "0.3"])
    try:
        TableMemory.load(rec).choose(game="stop-thief", players=("Zoé", "Yan"), language="fr")
        assert run() == 0
        played, = rec.glob("stop-thief-*.jsonl")
        assert json.loads(played.read_text("utf-8").splitlines()[0])["players"] == ["Zoé", "Yan"]
        (rec / FILE_NAME).write_bytes(b'{"version": 1, "game": "../../etc", "language": 7}')
        caplog.clear()
        assert run() == 0
        assert str(rec / FILE_NAME) in caplog.text and "game" in caplog.text
        assert list(rec.glob("match-*.jsonl"))            # Cleptómano, as rig.toml says
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
