"""The registry is the only list of games, and every game answers the one contract.

``rig.games`` lists the five games in the night's order, each once by its name, its
recordings' header and its files' prefix; each package's ``GAME`` answers
:class:`rig.core.contract.Game`; an unknown name is one error naming the choices; a game
registered from outside the rig (a package of this test's own) is listed, and ``cleptomano
replay`` and ``history`` read its recordings as they read the rig's own.  How each game ended is
said in today's words: ``tests/golden/history`` holds real recordings of every game and what
``cleptomano history`` printed for them before the games answered the contract."""

import json
import textwrap
from dataclasses import replace
from pathlib import Path
import typing

import pytest

from rig import cli
from rig import games as registry
from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import recording
from rig.core.contract import Game, Outcome
from rig.core.errors import ConfigError, IllegalMove
from rig.core.gamekit import Sound
from rig.shell.session import cut_off
from rig.shell.storage import replay_file
from rig.words import english, english_error

HERE = Path(__file__).resolve().parent
HISTORY = HERE / "golden" / "history"

ORDER = ("cleptomano", "stop-thief", "stolen-paintings", "chest-heist", "canine")
#: What the contract asks of a game: its methods (its attributes are its annotations).
METHODS = tuple(name for name, value in vars(Game).items()
                if callable(value) and not name.startswith("_"))


def test_the_registry_lists_the_five_games_in_order_each_once():
    listed = registry.games()
    assert registry.names() == ORDER
    for attribute in ("name", "recording", "prefix", "title"):
        values = [getattr(g, attribute) for g in listed]
        assert len(set(values)) == len(values), attribute
    assert [g.prefix for g in listed] == ["match", "stop-thief", "stolen-paintings",
                                          "chest-heist", "canine"]
    assert [registry.at_table(g) for g in listed] == [True, False, False, False, False]
    assert listed[0].title == "Cleptómano" and listed[0].recording == "cleptomano"


@pytest.mark.parametrize("name", ORDER)
def test_each_game_answers_the_contract(name):
    g = registry.game(name)
    assert isinstance(g, Game)
    assert {"new_game", "step", "replay", "outcome", "outcome_words"} <= set(METHODS)
    for method in METHODS:
        assert callable(getattr(g, method)), method
    for attribute, kind in Game.__annotations__.items():
        if type(None) in typing.get_args(kind):
            continue                                # Optional: None is its declared default
        assert getattr(g, attribute) is not None, attribute
    assert 1 <= g.min_players <= g.max_players and g.seed_bound >= 1
    assert g.section and g.example
    assert registry.by_recording(g.recording) is g
    assert registry.part(g, "no-such-part") is None


def test_an_unknown_game_is_one_error_naming_the_choices():
    with pytest.raises(ConfigError) as caught:
        registry.game("nope")
    message = str(caught.value)
    assert "'nope'" in message and all(name in message for name in ORDER)
    assert registry.by_recording("nope") is None


@pytest.mark.parametrize("name", ORDER[1:])
def test_a_hosted_game_starts_from_its_settings_and_its_sounds_are_effects(name):
    """The game host's games: a first state from the players alone (every default), a view
    that is JSON, and a player who is not playing refused by the game's own words."""
    g = registry.game(name)
    players = ("Ana", "Ben", "Caro")[:1 if g.solo else max(g.min_players, 2)]
    state = g.new_game(players, 7, None)
    assert g.header(state)["recording"] == g.recording
    json.dumps(g.view(state, 0.0))
    assert g.over(state) is False
    outcome = g.outcome(g.result(state))
    assert isinstance(outcome, Outcome) and outcome.over is False
    assert english(g.outcome_words(outcome)).strip()     # a code (or text), said in English
    assert g.words(Sound(0.0, "dice")) is None          # a sound says nothing


def test_the_games_say_how_each_recording_ended_in_todays_words():
    golden = (HISTORY / "history.txt").read_text("utf-8").splitlines()
    assert cli.history_lines(HISTORY) == golden
    for line in golden:
        path = HISTORY / line.split("  ", 1)[0]
        g = registry.by_recording(json.loads(path.read_text("utf-8").splitlines()[0])
                                  ["recording"])
        assert path.name.startswith(g.prefix + "-")
        result = replay_file(path)
        outcome = g.outcome(result)
        if not outcome.over and not cut_off(g, path):   # its end line, or no open marker:
            outcome = replace(outcome, over=True)       # the game has ended (issue 30)
        assert line.endswith(english(g.outcome_words(outcome))), line   # the log's words
        assert ", ".join(g.players_in(result)) in line


def test_cleptomano_answers_the_contract_over_the_core():
    g = registry.game("cleptomano")
    match = g.new_game(("Ana", "Ben"), 0, None)
    assert g.header(match) == {"recording": "cleptomano", "version": 1,
                               "players": ["Ana", "Ben"], "difficulty": "normal",
                               "first_thief": "Ana"}
    assert g.over(match) is False and g.deadline(match) is None
    after, effects = g.step(match, g.tick(1.0))
    assert after.t == 1.0 and isinstance(effects, list)
    assert g.line(ev.Tick(1.0), after, effects) is None     # it ended no turn: not written
    ended = (ev.TurnEnded(1.0),)                            # one that ends a turn is written
    assert g.line(ev.Tick(1.0), after, ended) == {"t": 1.0, "tick": True}
    assert g.end_line(2.5) == {"t": 2.5, "end": True}
    assert g.player_view(match, "Ana")["players"] == ["Ana", "Ben"]
    with pytest.raises(IllegalMove) as refused:
        g.player_view(match, "Zed")
    assert "Zed" in english_error(refused.value) and "not a player" in english_error(
        refused.value)                                  # what the phone reads, in English
    path = HERE / "recordings" / "three_player_match.jsonl"
    result = g.replay(path.read_text("utf-8").splitlines(), path)
    assert result == json.loads((HERE / "recordings" / "three_player_match.json")
                                .read_text("utf-8"))
    assert g.outcome(result).winners == ("Ana",) and g.players_in(result) == ("Ana", "Ben",
                                                                              "Caro")
    assert g.parse_command({"t": 3.0, "undo": "touch"}) == ev.UndoTouch(3.0)


# --- A game of one's own -------------------------------------------------------------------------

TALLY = '''
"""Tally: each player adds a number; the game is over at 10 (a test's own game)."""

import json
from dataclasses import dataclass

from rig.core import gamekit
from rig.core.contract import Outcome
from rig.games.base import GameBase


@dataclass(frozen=True)
class Add:
    t: float
    n: int = 1
    by: object = None


@dataclass(frozen=True)
class State:
    players: tuple
    total: int = 0


class Tally(GameBase):
    name = prefix = recording = "tally"
    title = "Tally"
    section = "tally"
    example = '{"add": 2}'

    def new_game(self, players, seed, settings=None):
        return State(tuple(players))

    def header(self, state):
        return {"recording": self.recording, "version": 1, "players": list(state.players)}

    def step(self, state, command):
        after = State(state.players, state.total + command.n)
        return after, []

    def line(self, command, state, effects):
        return {"t": command.t, "add": command.n}

    def view(self, state, now_t=None):
        return {"total": state.total}

    def player_view(self, state, player, now_t=None):
        return self.view(state)

    def words(self, effect):
        return None

    def over(self, state):
        return state.total >= 10

    def result(self, state):
        return {"players": list(state.players), "total": state.total,
                "over": self.over(state)}

    def outcome(self, result):
        return Outcome(result["over"], (), ((result["players"][0], result["total"]),),
                       "reached" if result["over"] else "counting")

    def outcome_words(self, outcome):
        return "total %d%s" % (outcome.scores[0][1], "" if outcome.over else " so far")

    def parse_command(self, obj):
        if not isinstance(obj.get("add"), int):
            gamekit.fail("an add line is {\\"t\\": T, \\"add\\": N}", 1)
        return Add(obj.get("t", 0.0), obj["add"])

    def replay(self, lines, path=None):
        lines = list(lines)
        header = json.loads(lines[0])
        state = self.new_game(header["players"], 0)
        for text in lines[1:]:
            state, _ = self.step(state, self.parse_command(json.loads(text)))
        return self.result(state)


GAME = Tally()
'''


@pytest.fixture
def tally(tmp_path, monkeypatch):
    """A package of the test's own, registered as a game and taken out afterwards."""
    package = "tally_%s" % tmp_path.name.replace("-", "_")
    root = tmp_path / "site"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(textwrap.dedent(TALLY), "utf-8")
    monkeypatch.syspath_prepend(str(root))
    registry.register(package)
    try:
        yield registry.game("tally")
    finally:
        registry.unregister(package)
    assert "tally" not in registry.names()


def test_a_registered_game_is_listed_and_its_recordings_replayed(tally, tmp_path, capsys):
    assert registry.names() == ORDER + ("tally",) and isinstance(tally, Game)
    assert registry.by_recording("tally") is tally
    folder = tmp_path / "recordings"
    folder.mkdir()
    path = folder / "tally-20261201-201500.jsonl"
    path.write_text("\n".join(recording.dumps(obj) for obj in (
        {"recording": "tally", "version": 1, "players": ["Ana"]},
        {"t": 1.0, "add": 4}, {"t": 2.0, "add": 7})) + "\n", "utf-8")
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"players": ["Ana"], "total": 11,
                                                   "over": True}
    assert cli.history_lines(folder) == [
        "tally-20261201-201500.jsonl  Tally: Ana  total 11"]


def test_the_first_game_cannot_be_unregistered():
    registry.unregister(registry.REGISTRY[0])
    assert registry.names() == ORDER
