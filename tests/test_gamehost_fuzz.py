"""Fuzzed outside input to the companion games (hypothesis, derandomized, a few seconds): any
key presses at the rig and any JSON a phone sends.  Each is a command the game takes, or one
refusal with its reason; nothing raises, nothing half-happens."""

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.errors import RecordingError, RulesError
from rig.core.gamekit import GameScreen
from rig.core.msg import Msg
from rig.display.game_keys import mode_for
from rig.games import game as game_named
from rig.games import at_table, games

GAMES = tuple(g.name for g in games() if not at_table(g))    # the games the game host hosts

KEYS = list("abcdefghijklmnopqrstuvwxyz0123456789:") + [
    "space", "return", "enter", "escape", "backspace", "tab", "[+]", "[-]", "[*]", "[/]", "[.]",
    "[1]", "[5]", "f1", "left"]
PLAYERS = {"stop-thief": ("Ana", "Ben"), "stolen-paintings": ("Ana", "Ben", "Caro"),
           "chest-heist": ("Ana",), "canine": ("Ana", "Ben", "Caro")}
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(keys=st.lists(st.sampled_from(KEYS), max_size=60))
def test_any_key_presses_give_commands_the_game_takes_or_refuses(game, keys):
    adapter = game_named(game)
    state = adapter.new_game(PLAYERS[game], 7)
    mode = mode_for(game)
    t = 0.0
    for key in keys:
        mode.observe(GameScreen(game, adapter.view(state, t), players=PLAYERS[game],
                                choices=adapter.choices(state)))
        command, prompt = mode.feed(key, key if len(key) == 1 else None)
        assert prompt is None or isinstance(prompt, (str, Msg))    # a code, said by the face
        if command is None:
            continue
        t += 1.0
        try:
            state, _ = adapter.step(state, replace(command, t=t))
        except RulesError as exc:
            assert str(exc)                       # refused, with a reason; state unchanged


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 99) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
WORDS = {"stop-thief": ["clue", "replay", "arrest", "end_turn", "heard", "paid", "end"],
         "stolen-paintings": ["start", "steal", "mark"],
         "chest-heist": ["roll", "reroll", "rolled", "mark", "dice", "skimmers", "charge",
                         "end_turn", "diamonds"],
         "canine": ["doggy", "face_up", "draw", "empty", "play", "parity", "discards", "thief",
                    "power", "roll", "reveal"]}


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_any_phone_body_is_a_command_or_one_clear_error(game, data):
    adapter = game_named(game)
    body = data.draw(st.dictionaries(st.sampled_from(WORDS[game] + ["t", "by", "x"]), JSON,
                                     max_size=3))
    try:
        command = adapter.command_from_json(body)
    except RecordingError as exc:
        assert exc.detail and "\n" not in exc.detail
        return
    state = adapter.new_game(PLAYERS[game], 7)
    try:
        adapter.step(state, replace(command, t=1.0, by=PLAYERS[game][0]))
    except RulesError as exc:
        assert str(exc)
    json.dumps(adapter.view(state, 1.0))
