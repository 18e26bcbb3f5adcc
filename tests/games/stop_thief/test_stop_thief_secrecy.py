"""The thief's position never leaks before its arrest: not in a view, a call or a replay answer.

Two proofs over many seeded games on the sample town:

* **nothing depends on it**: at every moment the thief is at large, moving it anywhere else
  (another space, another past) changes neither the public view, nor any player's view, nor the
  answer a replay of the recording so far gives;
* **nothing names it**: no call (the words the screen, the phones and the log show) names the
  thief's space or its room while it is at large (the clue words only say what kind of
  space it is).
"""

import json
import random
import re
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.gamekit import Sound
from rig.core.msg import Msg
from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.calls import words
from rig.games.stop_thief.rules.recording import result
from rig.games.stop_thief.rules.rules import new_game
from rig.games.stop_thief.rules.thief import Thief
from rig.games.stop_thief.rules.views import player_view, public_view
from rig.games.stop_thief.resources import sample_town
from rig.words import english

from stop_thief_support import ACTIONS, play

BOARD = sample_town()


def params(message):
    """Every parameter of ``message`` and of the messages nested in it: ``(name, value)``."""
    for name, value in message.params:
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, Msg):
                yield from params(v)
            else:
                yield name, v


def answers(game):
    """Everything the rig tells anyone about ``game``."""
    return ([public_view(game)] + [player_view(game, p) for p in game.players]
            + [result(game)])


def elsewhere(game, rng):
    """The same game with the thief at large moved somewhere else, with another past."""
    others = [n for n in game.board.numbers if n != game.case.thief.space]
    space, came_from = rng.choice(others), rng.choice(others)
    path = tuple(rng.choice(others) for _ in game.case.thief.path[:-1]) + (space,)
    return replace(game, case=replace(game.case, thief=Thief(space, came_from, path)))


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32), st.integers(2, 6))
def test_nothing_the_rig_answers_depends_on_where_the_thief_is(seed, players):
    rng = random.Random(seed)
    game = new_game(BOARD, ["P%d" % i for i in range(players)], seed)
    log = play(game, [rng.choice(ACTIONS) for _ in range(80)], pick_space=rng.choice)
    for state in [game] + [after for _, _, _, after in log]:
        if state.over:
            continue
        seen = answers(state)
        json.dumps(seen)                                   # JSON-ready, as the phones get it
        assert answers(elsewhere(state, rng)) == seen


@pytest.mark.parametrize("seed", range(30))
def test_no_call_names_the_thief_space_or_room_while_it_is_at_large(seed):
    rng = random.Random(seed)
    game = new_game(BOARD, ["Ana", "Ben", "Caro"], seed)
    log = play(game, [rng.choice(ACTIONS) for _ in range(150)], pick_space=rng.choice)
    checked = 0
    for _, _, effects, after in log:
        if after.over:
            continue
        space = after.board.space(after.case.thief.space)
        # The arrest names the caught thief's space; every other call is about the one at large.
        for said in [words(e) for e in effects if not isinstance(e, (ev.Arrested, Sound))]:
            text = english(said)
            assert not re.search(r"\bspace %d\b" % space.key, text)
            assert space.kind != "inside" or space.area not in text
            # In every language: no parameter of the call is the space or its room.
            found = list(params(said))
            assert ("space", str(space.key)) not in found, said
            assert space.kind != "inside" or not any(
                isinstance(v, str) and space.area in v for _, v in found), said
            checked += 1
    assert checked > 20
