"""The companion games on the running rig: each played whole through the game host with key
presses only (keys -> the display's key mode -> the host's inbox -> the game -> the recording),
on the virtual clock, never sleeping.

What is asserted is what the table notices: the screen the display draws (its view, its message
strip, a rendered frame), the sounds the display plays (cued from the snapshots exactly as the
render loop cues them), the recording, and ``cleptomano replay`` of that recording printing the
live result.
"""

import json
import os
import random
from dataclasses import replace

import pytest

from rig.cli import main
from rig.display.game_keys import key_help
from rig.shell.config import ChestHeistConfig, StolenPaintingsConfig
from rig.words import Words, english, localize
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.session import RecordingSession
from sim.clock import VirtualClock
from sim.frames import strip_shown
from sim.gamehost import Speakers

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


class Table:
    """One game hosted on the virtual clock and played at its keys."""

    def __init__(self, directory, game, players, seed=7, config=None):
        self.clock = VirtualClock()
        self.display = Speakers()
        self.host = GameHost(game_named(game), players, settings=config, clock=self.clock,
                             session=RecordingSession(directory, clock=self.clock),
                             display=self.display, seed=seed, key_help=key_help(game))
        self.host.start()
        self.clock.advance(0.2)

    def press(self, *keys, wait_s=0.5):
        for key in keys:
            self.display.press(*key) if isinstance(key, tuple) else self.display.press(key)
        self.clock.advance(wait_s)
        return self

    def type(self, text):
        """Keys that type ``text`` (one press a character, with the character typed)."""
        for char in text:
            command, _ = self.display.face.key(char, char)
            if command is not None:
                self.display.type(command)
        return self

    @property
    def screen(self):
        return self.display.board

    @property
    def view(self):
        return self.screen.view

    def lines(self):
        return [json.loads(x) for x in self.host.recording_path.read_text("utf-8").splitlines()]

    def stop(self, clean=True):
        self.host.stop(clean=clean)
        return self.host.recording_path


def replayed(path, capsys, warnings=None):
    """What ``cleptomano replay FILE`` prints, as JSON (its warnings go into ``warnings``)."""
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    if warnings is not None:
        warnings.append(err)
    return json.loads(out)


def live(table):
    """The live result as ``cleptomano replay`` prints it: its codes said in English."""
    return json.loads(json.dumps(localize(table.host.result(), Words("en"))))


# --- Stop Thief! ------------------------------------------------------------------------------

def test_stop_thief_a_whole_game_at_the_keys_replays_to_the_same_result(tmp_path, capsys):
    table = Table(tmp_path, "stop-thief", ("Ana", "Ben"))
    game = table.host.game
    assert table.view["turn"] == game.player and table.view["winner"] is None
    table.press("c")
    assert table.view["clue_taken"] and len(table.view["clues"]) == 1
    first = table.display.heard[-1]
    table.press("r")                                  # replay: the same sound, nothing moves
    assert table.display.heard[-2:] == [first, first]
    wrong = next(n for n in game.board.numbers if n != table.host.game.case.thief.space)
    table.press("a", *str(wrong), "return")
    assert "$1,000" in english(table.view["message"])
    turns = 0
    while table.view["winner"] is None and turns < 60:
        turns += 1
        table.press("space")                          # the turn's clue (or the next player's)
        space = table.host.game.case.thief.space      # the test peeks; the table cannot
        table.press("[*]", *["[%s]" % d for d in str(space)], "enter")
    winner = table.view["winner"]
    assert winner is not None and table.view["turn"] is None
    said = english(table.view["message"])
    assert "ARRESTED" in said.upper() or "retire" in said
    heard = table.display.heard
    clues = [line for line in table.lines() if "clue" in line]
    assert len([s for s in heard if s != "alarm"]) >= len(clues) and "alarm" in heard
    frame = table.display.frame()
    assert frame.get_size() == (800, 480)
    path = table.stop()
    assert table.lines()[-1]["end"] is True
    assert replayed(path, capsys) == live(table) and live(table)["winner"] == winner


def test_stop_thief_the_host_shows_and_says_nothing_that_depends_on_the_hidden_thief(tmp_path):
    """The leak test, at the host's outputs: at every moment of a game played at the keys,
    moving the thief at large elsewhere changes nothing the screen would show (view, map,
    message, sounds, key help), and no log line names the space it stands on."""
    from rig.games.stop_thief.rules.thief import Thief
    table = Table(tmp_path, "stop-thief", ("Ana", "Ben", "Caro"), seed=2 ** 40 + 1979)
    rng = random.Random(3)
    for _ in range(40):
        table.press(rng.choice(["c", "c", "r", "n", ("a", "4", "return")]))
        game = table.host.game
        if game.over or game.case.caught_by is not None:
            continue
        now = table.clock.now()
        shown = table.host.screen(now)
        others = [n for n in game.board.numbers if n != game.case.thief.space]
        table.host.game = replace(game, case=replace(game.case, thief=Thief(
            rng.choice(others), rng.choice(others), tuple(rng.choice(others)
                                                         for _ in game.case.thief.path))))
        assert table.host.screen(now) == shown
        table.host.game = game
        assert "seed" not in shown.view and str(game.seed) not in json.dumps(shown.view)
        space = game.case.thief.space
        for line in list(table.host.log_lines)[1:]:
            said = line.split("] ", 1)[1]
            if "arrested" not in said.lower() and "caught" not in said.lower():
                assert "space %d" % space not in said and "on %d" % space not in said
    table.stop()


# --- Stolen Paintings ---------------------------------------------------------------------------

def test_stolen_paintings_a_whole_game_at_the_keys_replays_to_the_same_result(tmp_path, capsys):
    players = ("Ana", "Ben", "Caro")
    table = Table(tmp_path, "stolen-paintings", players,
                  config=StolenPaintingsConfig(exhibition_s=5))
    stolen = {"Ana": (2, 6), "Ben": (1, 4, 8), "Caro": (3,)}
    marks = {"Ana": (2, 6), "Ben": (1, 2), "Caro": (3, 4)}
    for thief in players:
        assert table.view["phase"] == "setup" and table.view["thief"] == thief
        table.press("s")
        assert table.view["phase"] == "exhibition" and 4 <= table.view["remaining_s"] <= 5
        table.press(wait_s=5.0)                      # the countdown runs out by itself
        assert table.view["phase"] == "swap" and table.display.heard[-1] == "gong"
        assert "close your eyes" in english(table.screen.message).lower()
        table.press("t", *map(str, stolen[thief]))
        assert "%d" % stolen[thief][0] in english(table.display.face.prompt)
        table.press("return")
        assert table.view["phase"] == "auction"
        for place, detective in enumerate(players, 1):
            if detective == thief:
                continue
            table.press("m", str(place), *map(str, marks[detective]))
            prompt = english(table.display.face.prompt)
            assert "MARKS of %s" % detective in prompt and "%d chosen" % len(
                marks[detective]) in prompt and str(marks[detective]) not in prompt
            table.press("return")
        assert table.view["last_round"]["stolen"] == sorted(stolen[thief])
    assert table.view["phase"] == "over" and table.view["winners"]
    assert table.display.heard.count("gong") == 3 and table.display.heard[-1] == "fanfare"
    assert strip_shown(table.display.frame())       # the last call is on the strip
    path = table.stop()
    assert [line.get("by") for line in table.lines()[1:4]] == [None, "Ana", "Ben"]
    assert replayed(path, capsys) == live(table) and live(table)["over"] is True


# --- The chest heist ------------------------------------------------------------------------------

def test_chest_heist_a_whole_game_at_the_keys_replays_to_the_same_result(tmp_path, capsys):
    table = Table(tmp_path, "chest-heist", ("Ana",))
    for turn in range(1, 13):
        table.press("r")
        dice = [d["value"] for d in table.view["dice"]]
        assert table.view["phase"] == "play" and len(dice) == 5
        if turn == 2:
            table.press("e", "5", "return")          # reroll die 5
            assert table.view["rerolls_left"] == 2
        table.press("m", *str(dice[0]), "return", "1", "return", "return")   # box = die 1
        assert table.view["dice"][0]["used"], table.screen.message
        if turn in (3, 4):
            table.press("k", "1", "2", "return")     # charge skimmer 1 with die 2
        table.press("n")
        assert table.view["next_lock"] != "ABCDEFGHIJKL"[turn - 1] or turn == 12
    assert table.view["phase"] == "over" and table.view["score"] is None
    table.press("d", "1", "4", "return")
    # 14 diamonds and 3 unused skimmers (skimmer 1 was charged, never used: still unused)
    assert table.view["score"] == 14 + 3 and table.view["title"]["en"] == "The Cat Burglar"
    heard = table.display.heard
    assert heard.count("dice") == 13 and heard[-1] == "fanfare"
    path = table.stop()
    assert replayed(path, capsys) == live(table)


# --- Canine Kleptomaniacs -------------------------------------------------------------------------

def test_canine_a_whole_game_at_the_keys_replays_to_the_same_result(tmp_path, capsys):
    table = Table(tmp_path, "canine", ("Ana", "Ben", "Caro"))
    table.press("o", "1", "1", "return")              # Ana: Doggy A, face down
    table.press("o", "2", "2", "u")                   # Ben: Doggy B, face up
    table.press("o", "3", "3", "return")
    assert [d["doggy"] and english(d["doggy"]) for d in table.view["doggies"]] == \
        [None, "Doggy B", None]
    table.press("d", "d", "d")
    left = table.view["end"]["left"]
    table.press("p", "1", "k", "o", "1")              # Ana plays the Key: odd, 1 discard
    for _ in range(3):
        if table.view["dice"]["decided"]:
            break
        table.press("r")
    assert table.view["dice"]["decided"]
    table.press("p", "2", "s")                        # the Squirrel: everyone rolls for a six
    for _ in range(60):
        if table.view["dice"]["decided"]:
            break
        table.press("space")
    assert table.view["dice"]["decided"] and table.view["dice"]["winner"]
    rolls = len(table.host.game.rolls)
    assert table.display.heard.count("dice") == rolls
    table.press("e", "a")                             # the table: the Action pile is empty
    assert table.view["phase"] == "scoring" and table.view["end"]["left"] <= left
    # Hiding Places: a = Slipper, b = Grotty Balls, c = Basic Socks (the card table's order)
    table.press("v", "1", "a", "a", "space", "b", "b", "1", "3", "return")
    table.press("v", "2", "c", "c", "c", "return")
    assert table.view["revealed"] == ["Ana", "Ben"] and table.view["scores"] is None
    table.press("v", "3", "b", "return")              # one card: refused, with the reason
    assert "Refused" in english(table.screen.message) and table.view["revealed"] == ["Ana", "Ben"]
    table.press("v", "3", "a", "a", "4", "return")
    assert table.view["phase"] == "final" and table.view["winners"], table.screen.message
    assert table.display.heard[-1] == "fanfare"
    scores = {s["player"]: s["total"] for s in table.view["scores"]}
    assert scores["Ana"] > scores["Caro"]             # Ana's Paw +30, Caro's Poo Pizza -30
    path = table.stop()
    assert replayed(path, capsys) == live(table)


# --- A crash, a refusal ----------------------------------------------------------------------------

SCRIPTS = {
    "stop-thief": (("Ana", "Ben"), ["c", "c", ("a", "1", "2", "return")], "r"),
    "stolen-paintings": (("Ana", "Ben"), ["s"], "t"),
    "chest-heist": (("Ana",), ["r", ("m", "2", "return", "2", "return", "return")], "d"),
    "canine": (("Ana", "Ben"), ["d", ("p", "1", "b")], "v"),
}
REFUSED = {"stop-thief": ["r"], "stolen-paintings": ["m", "2", "1", "return"],
           "chest-heist": ["e", "1", "return"], "canine": ["r", "r"]}


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_crash_mid_game_leaves_a_recording_that_replays(game, tmp_path, capsys):
    players, keys, _ = SCRIPTS[game]
    table = Table(tmp_path, game, players)
    for key in keys:
        table.press(key)
    before = live(table)
    written = table.host.recording_path.read_bytes()
    path = table.stop(clean=False)                   # as a crash leaves it: no end line
    assert path.read_bytes() == written
    assert replayed(path, capsys) == before
    with open(path, "ab") as f:                       # the power went mid-line
        f.write(b'{"t": 99.0, "cl')
    warnings = []
    assert replayed(path, capsys, warnings) == before
    assert "the last line is torn" in warnings[0]


@pytest.mark.parametrize("game", sorted(REFUSED))
def test_a_refused_key_shows_its_reason_and_changes_nothing(game, tmp_path):
    players = SCRIPTS[game][0]
    table = Table(tmp_path, game, players)
    view, lines = table.view, table.lines()
    table.press(*REFUSED[game])
    message = english(table.screen.message)
    assert message.startswith("Refused: ") and len(message) > 30
    assert table.screen.message.code == "rig.host.refused"
    assert table.view == view and table.lines() == lines
    assert strip_shown(table.display.frame())
    assert table.host.refused >= 1
    table.stop()
