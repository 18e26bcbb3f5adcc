"""Stop Thief! recordings: a whole game on the sample town recorded and replayed to the same
result, a golden recording that must keep replaying the same, bad lines named, and a fuzz.

The golden (``tests/golden/stop_thief/``) is a whole game played by :func:`table_game`; after a
deliberate change of the rules or of the chance function, regenerate it with::

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_stop_thief_recording.py
"""

import copy
import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.words import english_error
from rig.core.errors import RecordingError, RigError
from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.recording import (dumps, end_json, header_json, item_json,
                                                 replay_lines, result)
from rig.games.stop_thief.rules.rules import new_game, step
from rig.games.stop_thief.rules.thief import Settings
from rig.games.stop_thief.resources import sample_town

BOARD = sample_town()
GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "stop_thief"


def table_game(seed, players=("Ana", "Ben", "Caro"), settings=Settings(), turns=None):
    """A game on the sample town as a table might play it, to the end (or ``turns`` turns):
    each turn a clue, sometimes a replay, then a good arrest, a wrong one next to the thief,
    an end of turn, or nothing (the next clue ends the turn).  Returns ``(game, lines)``."""
    rng = random.Random(seed)
    game = new_game(BOARD, players, seed, settings)
    lines = [dumps(header_json(game))]
    t = 0.0

    def send(command):
        nonlocal game
        game, effects = step(game, command)
        lines.append(dumps(item_json(command, effects)))

    played = 0
    while not game.over and played != turns:
        played += 1
        t = round(t + rng.uniform(5, 40), 3)
        send(ev.GetClue(t, None if game.clued else rng.choice([None, game.player])))
        if rng.random() < 0.1:
            send(ev.ReplayClue(t + 1, rng.choice(game.players)))
        choice, here = rng.random(), game.case.thief.space
        if choice < 0.2:
            send(ev.Arrest(t + 2, here, game.player))
        elif choice < 0.45:
            send(ev.Arrest(t + 2, rng.choice(game.board.next_to[here])))
        elif choice < 0.7:
            send(ev.EndTurn(t + 2, game.player))
    lines.append(dumps(end_json(t + 3)))
    return game, lines


# --- A whole game, replayed ---------------------------------------------------------------------

@pytest.mark.parametrize("seed, players", [(0, 2), (1, 3), (2, 4), (3, 6)])
def test_a_whole_game_replays_to_the_same_result(seed, players):
    game, lines = table_game(seed, tuple("ABCDEF"[:players]))
    replayed = replay_lines(lines)
    assert replayed == result(game)
    assert replayed["winner"] is not None and replayed["turn"] is None
    assert replayed["money"][replayed["winner"]] >= game.retire
    assert sum(replayed["money"].values()) == 3000 * players + sum(
        a["paid"] for a in replayed["arrests"])
    assert [t["caught_by"] for t in replayed["thieves"]] == [
        a["by"] for a in replayed["arrests"] if a["right"]]


def test_settings_travel_in_the_header():
    odd = Settings(stay_chance=0.5, crime_scene_weight=4.0, crime_wave_on_stay=True,
                   subway_loudspeaker=True)
    game, lines = table_game(5, settings=odd)
    assert json.loads(lines[0])["settings"] == {"stay_chance": 0.5, "crime_scene_weight": 4.0,
                                                "crime_wave_on_stay": True,
                                                "subway_loudspeaker": True}
    assert replay_lines(lines) == result(game)


def test_an_unfinished_recording_replays_with_the_thief_still_at_large():
    game, lines = table_game(8, turns=3)
    replayed = replay_lines(lines[:-1])                    # no end line: the rig was stopped
    assert replayed == result(game)
    at_large = replayed["thieves"][-1]
    assert at_large["caught_by"] is None and "path" not in at_large
    assert replayed["winner"] is None and replayed["turn"] == game.player


def test_the_golden_game_replays_the_same():
    lines_path, result_path = GOLDEN / "port-pilfer.jsonl", GOLDEN / "port-pilfer.json"
    if os.environ.get("UPDATE_GOLDEN"):
        game, lines = table_game(2026)
        GOLDEN.mkdir(parents=True, exist_ok=True)
        lines_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        result_path.write_text(json.dumps(result(game), indent=2) + "\n", encoding="utf-8")
    lines = lines_path.read_text(encoding="utf-8").splitlines()
    # Self-contained: the recording carries its board, so editing the sample town later
    # changes nothing here.
    assert replay_lines(lines) == json.loads(result_path.read_text(encoding="utf-8"))


# --- Bad lines: one RecordingError naming the line ------------------------------------------

def _lines():
    return table_game(11, turns=4)[1]


def _edit_header(**changes):
    def edit(lines):
        header = json.loads(lines[0])
        header.update(changes)
        lines[0] = json.dumps({k: v for k, v in header.items() if v is not ...})
    return edit


def _edit_line(number, **changes):
    def edit(lines):
        obj = json.loads(lines[number - 1])
        obj.update(changes)
        lines[number - 1] = json.dumps({k: v for k, v in obj.items() if v is not ...})
    return edit


def _move_space(lines):
    header = json.loads(lines[0])
    header["board"]["space"][0]["at"] = [99, 99]
    lines[0] = json.dumps(header)


def _break_board(lines):
    header = json.loads(lines[0])
    header["board"]["paths"].append([5, 999])
    lines[0] = json.dumps(header)


@pytest.mark.parametrize("edit, line, words", [
    (lambda ls: ls.__setitem__(2, "{not json"), 3, "not JSON"),
    (lambda ls: ls.clear(), 1, "the recording is empty"),
    (_edit_header(recording="cleptomano"), 1, 'the first line must be the header '
                                              '{"recording": "stop-thief"'),
    (_edit_header(version=2), 1, "version 2 is not supported; this rig reads version 1"),
    (_edit_header(colour="red"), 1, "header key 'colour' is not known"),
    (_edit_header(board=...), 1, "the header has no board"),
    (_break_board, 1, "board: path 5 - 999: there is no space 999"),
    (_move_space, 1, "board_sha256 '"),
    (_edit_header(players=["Ana", "Ana"]), 1, "'Ana' is the same name as 'Ana'"),
    (_edit_header(players=["P%d" % i for i in range(7)]), 1, "7 players cannot play on Port "
                                                             "Pilfer"),
    (_edit_header(seed="x"), 1, "seed 'x' must be a whole number"),
    (_edit_header(settings={"stay_chance": 2}), 1, "setting stay_chance 2 is out of range"),
    (_edit_header(settings=[1]), 1, "settings [1] must be an object"),
    (_edit_line(2, t=-1), 2, "t -1 must be a number of seconds since the start"),
    (_edit_line(3, t=0.5), 3, "t 0.5 goes back in time"),
    (_edit_line(2, arrest=5), 2, "a line needs exactly one of clue, replay, arrest, end_turn, "
                                 "end"),
    (_edit_line(2, paid=5), 2, "key 'paid' does not belong on a clue line"),
    (_edit_line(2, clue=1), 2, "clue must be true, got 1"),
    (_edit_line(2, by=7), 2, "by 7 must be the name of who sent it"),
    (_edit_line(2, heard="sirens"), 2, "heard 'sirens' is not a clue; clues are crime, inside"),
    (_edit_line(2, clue=..., heard=..., arrest="12"), 2, "arrest '12' must be a space number"),
    (_edit_line(2, clue=..., heard=..., arrest=12, paid=True), 2, "paid True must be whole"),
    (lambda ls: ls.insert(1, json.dumps({"t": 0, "arrest": 12})), 2,
     "has not had this turn's clue yet"),
    (lambda ls: ls.insert(1, json.dumps({"t": 0, "clue": True, "by": "Zed"})), 2,
     "'Zed' is not a player of this game"),
])
def test_a_bad_line_is_one_error_naming_it(edit, line, words):
    lines = _lines()
    edit(lines)
    with pytest.raises(RecordingError) as info:
        replay_lines(lines, path="game.jsonl")
    said = english_error(info.value)                  # what the builder's terminal says
    assert words in said and said.startswith("game.jsonl:%d: " % line), said
    assert info.value.line == line


def test_a_recording_that_replays_differently_fails_where_it_parts():
    lines = _lines()
    number = next(i for i, text in enumerate(lines, 1) if '"heard"' in text and i > 3)
    obj = json.loads(lines[number - 1])
    obj["heard"] = "window" if obj["heard"] != "window" else "door"
    lines[number - 1] = json.dumps(obj)
    with pytest.raises(RecordingError, match="the recording says heard '") as info:
        replay_lines(lines)
    assert info.value.line == number


# --- Fuzz: whatever the lines, a result or a RecordingError -------------------------------------

VALUES = st.none() | st.booleans() | st.integers(-5, 80) | st.floats() | st.text(max_size=8) \
    | st.lists(st.integers(), max_size=2)
BASE = _lines()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mangled_recordings_replay_or_fail_with_a_recording_error(data):
    lines = copy.copy(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(1, len(lines) - 1))
        how = data.draw(st.sampled_from(["value", "drop", "swap", "text"]))
        if how == "drop":
            del lines[i]
        elif how == "swap":
            j = data.draw(st.integers(1, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == "text":
            lines[i] = data.draw(st.text(max_size=30))
        else:
            try:
                obj = json.loads(lines[i])
            except ValueError:
                continue
            if not isinstance(obj, dict):
                continue
            obj[data.draw(st.sampled_from(sorted(obj) + ["by", "arrest", "heard"]))] = \
                data.draw(VALUES)
            lines[i] = json.dumps(obj)
    try:
        replay_lines(lines)
    except RecordingError:
        pass
    except RigError as exc:                           # pragma: no cover - the failure to show
        raise AssertionError("a bad recording raised %r, not a RecordingError" % exc)
