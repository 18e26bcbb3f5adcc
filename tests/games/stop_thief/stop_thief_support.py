"""Shared by the Stop Thief! tests: a tiny hand-made board, generated boards, seeded play.

``TINY`` is small enough to follow by hand::

    Shop (one room):   1* --- 2 --- 3 --- 1      (* crime scene)
                       |      |     |
                   window 6  door 4 (joins 2 and 3 to the street)
                       |      |
    outside:           7 --- 5 ... c1 ... 7,  8 (subway) joins 5 and 7

Generated boards (:func:`random_board`) are random towns that pass the validator: a ring of streets,
rooms that are rings of inside spaces, doors and windows joining each room to the street or to
another room, footprint steps split by unnumbered circles, random numbers and crime scenes.
"""

import json
import random

from hypothesis import strategies as st

from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.board import board_from_dict, parse_board
from rig.core.errors import IllegalMove
from rig.games.stop_thief.rules.rules import step

CARDS = [{"name": "Thief %d" % i, "reward": 1000 + 500 * i} for i in range(1, 13)]
MONEY = [{"players": n, "start": 3000, "retire": 15000} for n in (1, 2, 3, 4, 5, 6)]


def tiny_dict():
    return {
        "name": "Tiny",
        "investigators_start": 8,
        "money": [dict(m) for m in MONEY],
        "space": [
            {"number": 1, "kind": "inside", "building": "Shop", "at": [0, 0], "crime": True},
            {"number": 2, "kind": "inside", "building": "Shop", "at": [2, 0]},
            {"number": 3, "kind": "inside", "building": "Shop", "at": [1, 1]},
            {"number": 4, "kind": "door", "at": [2, 2]},
            {"number": 5, "kind": "outside", "at": [2, 4]},
            {"number": 6, "kind": "window", "at": [0, 2]},
            {"number": 7, "kind": "outside", "at": [0, 4]},
            {"number": 8, "kind": "subway", "at": [1, 6], "label": "Tiny station"},
            {"id": "c1", "kind": "circle", "at": [1, 4]},
        ],
        "paths": [[1, 2, 3, 1], [2, 4, 3], [4, 5, "c1", 7, 6, 1], [5, 8, 7]],
        "thief": [dict(c) for c in CARDS],
    }


TINY_TEXT = json.dumps(tiny_dict())


def tiny():
    return parse_board(TINY_TEXT, "json")


# --- Generated boards ---------------------------------------------------------------------------

def random_board(rng):
    """A random valid board (as a Board), built from the random generator ``rng``."""
    spaces, steps = [], []
    where = iter((x, y) for y in range(40) for x in range(40))

    def add(kind, **extra):
        key = len(spaces)
        spaces.append(dict(kind=kind, at=list(next(where)), **extra))
        return key

    streets = [add(rng.choice(["outside", "outside", "subway"])) for _ in range(rng.randint(3, 7))]
    steps += list(zip(streets, streets[1:] + streets[:1]))
    rooms = []
    for r in range(rng.randint(1, 4)):
        ring = [add("inside", building="B%d" % r, room="r") for _ in range(rng.randint(3, 4))]
        steps += list(zip(ring, ring[1:] + ring[:1]))
        rooms.append(ring)
    for r, ring in enumerate(rooms):
        for n in range(rng.randint(1, 2)):
            # The first way out leads to the streets or an earlier room: every room is reachable.
            reachable = [streets] + (rooms[:r] if n == 0 else rooms[:r] + rooms[r + 1:])
            far = rng.choice(reachable)
            passage = add(rng.choice(["door", "window"]))
            inner = rng.sample(ring, rng.randint(1, 2))
            outer = rng.sample(far, rng.randint(1, 2))
            steps += [(passage, k) for k in inner + outer]
    for k in rng.sample(range(len(spaces)), rng.randint(1, 4)):
        spaces[k]["crime"] = True
    keys = rng.sample(range(1, len(spaces) + 1), len(spaces))
    # Split some footprint steps with chains of unnumbered circles.
    chains = []
    for a, b in steps:
        chain = [keys[a]]
        for _ in range(rng.choice([0, 0, 1, 2])):
            keys.append("c%d" % len(spaces))
            spaces.append(dict(kind="circle", at=list(next(where))))
            chain.append(keys[-1])
        chains.append(chain + [keys[b]])
    entries = [dict(space, **({"id": key} if isinstance(key, str) else {"number": key}))
               for key, space in zip(keys, spaces)]
    retire = rng.randint(3001, 30000)
    return board_from_dict({
        "name": "Generated", "space": entries, "paths": chains,
        "thief": [{"name": "T%d" % i, "reward": rng.randint(1, 6000)} for i in range(12)],
        "money": [{"players": n, "start": 3000, "retire": retire} for n in range(1, 7)]})


def boards():
    """Random valid boards, one for each seed hypothesis draws."""
    return st.builds(lambda seed: random_board(random.Random(seed)), st.integers(0, 2 ** 32))


# --- Seeded play --------------------------------------------------------------------------------

ACTIONS = ("clue", "clue", "clue", "replay", "end", "wrong", "right", "guess", "bad")


def command_for(game, action, t, pick_space):
    """A command for ``action`` at ``t``; ``pick_space`` chooses a space for a guess."""
    if action == "clue":
        return ev.GetClue(t)
    if action == "replay":
        return ev.ReplayClue(t)
    if action == "end":
        return ev.EndTurn(t)
    if action == "right":
        return ev.Arrest(t, game.case.thief.space, game.player)
    if action == "wrong":
        others = [n for n in game.board.numbers if n != game.case.thief.space]
        return ev.Arrest(t, pick_space(others), game.player)
    if action == "guess":
        return ev.Arrest(t, pick_space(list(game.board.numbers)))
    return ev.Arrest(t, pick_space([0, -3, 10 ** 6]), "nobody")


def play(game, actions, pick_space=lambda xs: xs[0]):
    """Apply ``actions`` (names from :data:`ACTIONS`) in turn, skipping the refused ones.

    Returns ``[(game_before, command, effects, game_after)]`` for the commands taken."""
    log = []
    for i, action in enumerate(actions):
        if game.over:
            break
        command = command_for(game, action, float(i), pick_space)
        try:
            after, effects = step(game, command)
        except IllegalMove:
            continue
        log.append((game, command, effects, after))
        game = after
    return log
