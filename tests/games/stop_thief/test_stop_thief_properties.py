"""Stop Thief! invariants over generated boards and seeded games (hypothesis).

Whatever the town, the seed, the settings and what the table presses: the thief only stands on
numbered spaces, only moves along footprint paths (circles skipped), never goes straight back,
goes through every door and window it enters, and the money adds up (rewards, crime waves,
fines never below $0).  Adjacency is worked out here from the board's paths, not taken from
the code under test.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.board import PASSAGES
from rig.games.stop_thief.rules.rules import CRIME_WAVE_BONUS, WRONG_ARREST_FINE, new_game
from rig.games.stop_thief.rules.thief import Settings

from stop_thief_support import ACTIONS, boards, play

PROPS = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SETTINGS = st.builds(Settings, stay_chance=st.sampled_from([0.0, 0.15, 0.5, 0.9]),
                     crime_scene_weight=st.sampled_from([0.1, 1.0, 10.0]),
                     crime_wave_on_stay=st.booleans(), subway_loudspeaker=st.booleans())


def footprint_neighbours(board, number):
    """Numbered spaces one thief move away, found by walking the board's paths here."""
    steps = {}
    for a, b in board.paths:
        steps.setdefault(a, set()).add(b)
        steps.setdefault(b, set()).add(a)
    numbered = {s.key for s in board.spaces if s.kind != "circle"}
    found, seen, todo = set(), {number}, list(steps.get(number, ()))
    while todo:
        k = todo.pop()
        if k in seen:
            continue
        seen.add(k)
        if k in numbered:
            found.add(k)
        else:
            todo.extend(steps.get(k, ()))
    return found


def area(board, number):
    s = board.space(number)
    return "outside" if s.kind in ("outside", "subway") else (s.building, s.room)


@st.composite
def games(draw):
    board = draw(boards())
    players = draw(st.integers(1, 6))
    game = new_game(board, ["P%d" % i for i in range(players)], draw(st.integers(0, 2 ** 40)),
                    draw(SETTINGS))
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    actions = [rng.choice(ACTIONS) for _ in range(rng.randint(1, 150))]
    return game, play(game, actions, pick_space=rng.choice)


def every_case(game, log):
    """Every thief of the game, each in its last known state."""
    cases = {game.case.number: game.case}
    for _, _, _, after in log:
        for case in after.caught + (after.case,):
            cases[case.number] = case
    return [cases[n] for n in sorted(cases)]


@PROPS
@given(games())
def test_the_thief_walks_by_the_rules_and_every_clue_tells_the_truth(played):
    game, log = played
    board, settings = game.board, game.settings
    cases = every_case(game, log)
    for case in cases:
        path = case.thief.path
        assert path[0] in board.crime_scenes
        assert all(n in board.numbers for n in path)
        assert len(path) == len(case.clues) + 1
        for here, there in zip(path, path[1:]):
            if here == there:
                assert board.space(here).kind not in PASSAGES     # never waits in a doorway
            else:
                assert there in footprint_neighbours(board, here)
        walk = [n for i, n in enumerate(path) if i == 0 or path[i - 1] != n]
        for before, here, after in zip(walk, walk[1:], walk[2:]):
            assert after != before                                # never straight back
            if board.space(here).kind in PASSAGES:
                assert area(board, after) != area(board, before)  # through, into another area
        for clue, here, there in zip(case.clues, path, path[1:]):
            space = board.space(there)
            if here == there:
                expected = "stayed"
            elif space.crime:
                expected = "crime"
            elif space.kind == "subway":
                expected = "subway" if settings.subway_loudspeaker else "outside"
            else:
                expected = space.kind
            assert clue.kind == expected


@PROPS
@given(games())
def test_the_money_adds_up_and_turns_go_round_the_table(played):
    game, log = played
    start = game.money[0]
    for before, command, effects, after in log:
        assert all(m >= 0 for m in after.money)
        i = before.turn
        change = [a - b for a, b in zip(after.money, before.money)]
        if isinstance(command, ev.Arrest) and command.space == before.case.thief.space:
            case = before.case
            waves = sum(1 for c in case.clues if c.kind == "crime")
            if before.settings.crime_wave_on_stay:
                path = case.thief.path
                waves += sum(1 for c, a, b in zip(case.clues, path, path[1:])
                             if c.kind == "stayed" and before.board.space(b).crime)
            assert case.crime_wave == CRIME_WAVE_BONUS * waves
            paid = before.board.thieves[case.card].reward + case.crime_wave
            assert change == [paid if j == i else 0 for j in range(len(change))]
            assert (after.winner is not None) == (after.money[i] >= after.retire)
        elif isinstance(command, ev.Arrest):
            fine = min(WRONG_ARREST_FINE, before.money[i])
            assert change == [-fine if j == i else 0 for j in range(len(change))]
        else:
            assert change == [0] * len(change)
        # The turn passes to the next player in the list, and an arrest always ends the turn.
        began = [e.player for e in effects if isinstance(e, ev.TurnBegan)]
        if began:
            assert began == [before.players[(i + 1) % len(before.players)]]
        if isinstance(command, ev.Arrest) and not after.over:
            assert began and not after.clued
    if log:
        final = log[-1][3]
        assert sum(final.money) == start * len(final.players) + sum(a.paid for a in final.attempts)
        assert final.winner is None or final.money_of(final.winner) >= final.retire
