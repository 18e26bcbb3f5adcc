"""Starting the companion games from the command line, their config tables, and the display's
side of them (the render loop's keys and sounds for a GameScreen)."""

import json
import os
import threading
import time

import pytest

from rig.cli import main
from rig.core.errors import ConfigError
from rig.games.chest_heist import rules as ch
from rig.games.chest_heist.rules.example import EXAMPLE_SHEET
from rig.core.gamekit import GameScreen
from rig.display.game_screens import cues, extra_sounds
from rig.display.window import DisplayThread
from rig.shell.config import Config
from rig.games import game as game_named
from rig.games import at_table, games, settings

GAMES = tuple(g.name for g in games() if not at_table(g))    # the games the game host hosts

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def no_phones(tmp_path):
    """A rig config without the phone companion (no port is bound in these tests)."""
    path = tmp_path / "rig.toml"
    path.write_text("[web]\nenabled = false\n", "utf-8")
    return str(path)


@pytest.mark.parametrize("game", GAMES)
def test_run_game_headless_records_its_header_and_stops(game, tmp_path, capsys, no_phones):
    assert main(["run", "--game", game, "--headless", "--duration-s", "0.3", "--players",
                 "Ana,Ben", "--recordings", str(tmp_path), "--config", no_phones]) == 0
    files = sorted(tmp_path.glob("%s-*.jsonl" % game))
    assert len(files) == 1
    header = json.loads(files[0].read_text("utf-8").splitlines()[0])
    assert header["recording"] == game_named(game).recording
    assert "Press H at the screen for the keys" in capsys.readouterr().err
    assert main(["history", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert files[0].name in out and game_named(game).title in out


@pytest.mark.parametrize("argv, words", [
    (["--players", "Ana,Ben"], "--players names another game's players"),
    (["--game", "canine", "--players", "Ana,,Ben"], "has an empty name"),
    (["--game", "stolen-paintings", "--demo", "x.jsonl"], "--demo and --interactive"),
    (["--game", "stop-thief", "--players", "A,B,C,D,E,F,G"], "7 players"),
])
def test_bad_run_arguments_for_the_games_are_one_clear_error(argv, words, tmp_path, capsys,
                                                            no_phones):
    assert main(["run", "--headless", "--recordings", str(tmp_path), "--duration-s", "0.1",
                 "--config", no_phones] + argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


@pytest.mark.parametrize("state", ["stop-thief-arrest", "canine-final", "chests-over"])
def test_screenshot_renders_each_games_samples(state, tmp_path, capsys):
    out = tmp_path / ("%s.png" % state)
    assert main(["screenshot", state, str(out)]) == 0
    assert out.stat().st_size > 5000


def test_an_unknown_screenshot_names_the_games_states(tmp_path, capsys):
    assert main(["screenshot", "nope", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "stop-thief-winner" in err and "canine-dice" not in err and "canine-start" in err


# --- The config tables ------------------------------------------------------------------------

def config(data):
    return Config.from_dict(data, "rig.toml", pinmap=Config().pinmap or _pinmap())


def _pinmap():
    from rig.shell.config import load_pinmap
    return load_pinmap()


@pytest.mark.parametrize("data, key, words", [
    ({"stop_thief": {"stay_chance": 2}}, "stop_thief.stay_chance", "out of range"),
    ({"stop_thief": {"crime_wave_on_stay": "yes"}}, "stop_thief.crime_wave_on_stay",
     "true or false"),
    ({"stop_thief": {"board": "nowhere.toml"}}, "stop_thief.board", "cannot read"),
    ({"stop_thief": {"thief_speed": 1}}, "stop_thief.thief_speed", "unknown key"),
    ({"stolen_paintings": {"exhibition_s": 1}}, "stolen_paintings.exhibition_s", "5 to 600"),
    ({"stolen_paintings": {"max_marks": 8}}, "stolen_paintings.max_marks", "at least 2"),
    ({"chest_heist": {"sheet": "nowhere.json"}}, "chest_heist.sheet", "cannot be read"),
    ({"canine": {"optional_rule": "double"}}, "canine.optional_rule", "all-hidden"),
    ({"canine": {"longer_game": 1}}, "canine.longer_game", "true or false"),
    ({"canine": {"cards": "nowhere.toml"}}, "canine.cards", "cannot be read"),
])
def test_each_bad_game_setting_is_one_config_error_naming_its_key(data, key, words):
    with pytest.raises(ConfigError) as caught:
        config(data)
    message = str(caught.value)
    assert ("rig.toml: %s:" % key) in message and words in message


def test_good_game_tables_reach_the_games(tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(EXAMPLE_SHEET), "utf-8")
    cfg = config({"stop_thief": {"stay_chance": 0.3}, "stolen_paintings": {"exhibition_s": 30},
                  "chest_heist": {"sheet": str(sheet)}, "canine": {"longer_game": True}})
    def start(name, players):
        g = game_named(name)
        return g.new_game(players, 1, settings(g, cfg))
    assert start("stop-thief", ("A", "B")).settings.stay_chance == 0.3
    assert start("stolen-paintings", ("A", "B")).settings.exhibition_s == 30
    assert start("chest-heist", ("A",)).sheet is not None
    assert start("canine", ("A", "B")).longer_game is True


# --- The display's side -------------------------------------------------------------------------

def test_the_window_reads_a_games_keys_and_sends_its_commands():
    screen = GameScreen("chest-heist", game_named("chest-heist").view(
        ch.new_game(1, "Ana")), players=("Ana",))
    with DisplayThread(video_drivers=("dummy",), quiet=True, game="chest-heist") as d:
        assert d.wait_ready(30) == "dummy"
        d.show(screen)
        for key in ("e", "2", "4", "return", "r"):
            d.press(key)
        got, deadline = [], time.monotonic() + 30
        while len(got) < 2 and time.monotonic() < deadline:
            got += d.poll_commands()
            threading.Event().wait(0.01)
    assert got == [ch.Reroll(0.0, None, (2, 4)), ch.Roll(0.0)]


def test_sounds_are_cued_once_each_even_when_snapshots_are_missed():
    first = GameScreen("canine", {}, sounds=((1, "dice"),))
    later = GameScreen("canine", {}, sounds=((1, "dice"), (2, "dice"), (3, "fanfare")))
    assert cues(None, first) == []                       # a display that starts late
    assert cues(first, later) == ["dice", "fanfare"]     # the snapshot with 2 was missed
    assert cues(later, later) == []
    assert cues(GameScreen("stop-thief", {}), later) == []


def test_each_games_own_sounds_are_made_for_the_mixer():
    assert sorted(extra_sounds("stop-thief")) == sorted(
        ["alarm", "footsteps", "loudspeaker", "creaking door", "breaking glass",
         "street commotion", "hold music"])
    roll = extra_sounds("canine")["dice"](22050)
    assert len(roll) > 2205 and max(roll) > 10000
    assert extra_sounds("chest-heist") == {} == extra_sounds(None)
