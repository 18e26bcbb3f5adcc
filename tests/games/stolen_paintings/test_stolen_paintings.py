"""Stolen Paintings, from its rulebook (../shared/rulebook/stolen-paintings.md) and the issue:
every player thief once, the exhibition countdown, the secret swap and ballots, the scoring
table, the tiebreak, the recording; refusals name the reason and change nothing.

Expected values come from the rulebook's text, never from the code.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.errors import IllegalMove, RecordingError, RulesError
from rig.core.gamekit import Sound
from rig.core.msg import Msg
from rig.games.stolen_paintings.rules import (Mark, Start, Steal, Tick, new_game,
                                             next_deadline, player_view, public_view,
                                             recording, replay_lines, result, step)
from rig.games.stolen_paintings.rules import call as call_code
from rig.games.stolen_paintings.rules import effects as fx
from rig.games.stolen_paintings.rules.scoring import detective_points, thief_points
from rig.words import Words, english, english_error

FEW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = ("Ana", "Ben", "Caro")


def call(effect):
    """An effect's words as the log and an English table say them (None for a sound)."""
    found = call_code(effect)
    assert found is None or isinstance(found, Msg)
    return None if found is None else english(found)


class Table:
    """Plays a game by commands, keeping every command and effect (for replay and words)."""

    def __init__(self, players=PLAYERS, **settings):
        self.game = new_game(players, **settings)
        self.commands, self.effects, self.t = [], [], 0.0

    def send(self, command):
        self.game, effects = step(self.game, command)
        self.commands.append(command)
        self.effects += effects
        self.t = command.t
        return effects

    def round(self, stolen, marks):
        """One whole round: start, the countdown runs out, the swap, every detective's marks
        (``marks``: detective -> paintings, in the order given)."""
        thief = self.game.current.thief
        self.send(Start(self.t + 1, thief))
        self.send(Steal(next_deadline(self.game) + 5, thief, tuple(stolen)))
        for who, paintings in marks.items():
            self.send(Mark(self.t + 2, who, tuple(paintings)))
        return self

    def lines(self):
        return recording.write_lines(new_game(self.game.players, **_settings(self.game)),
                                     self.commands)


def _settings(game):
    s = game.settings
    return dict(exhibition_s=s.exhibition_s, max_marks=s.max_marks,
                wrong_mark_cost=s.wrong_mark_cost)


def refused(game, command, *words):
    """``command`` is refused with a message holding ``words``; the game is unchanged."""
    before = game
    with pytest.raises(IllegalMove) as info:
        step(game, command)
    said = english_error(info.value)
    if "time" not in said:              # the clock's refusal is the shared kit's (rig.core)
        assert info.value.msg.code.startswith("stolen_paintings."), said
    for w in words:
        assert w in said, said
    assert game == before
    return said


# ============================================================================================
# Scoring, line by line from the rulebook
# ============================================================================================

@pytest.mark.parametrize("stolen, marks, points", [
    # 1, 3 or 6 points for 1, 2 or 3 stolen paintings identified ...
    ({1, 2, 3}, {1}, 1),
    ({1, 2, 3}, {1, 2}, 3),
    ({1, 2, 3}, {1, 2, 3}, 6 + 3),        # ... plus 3 for identifying all the stolen
    ({4, 8}, {4}, 1),
    ({4, 8}, {4, 8}, 3 + 3),
    ({4, 8}, {4, 8, 1}, 3 + 3),            # a wrong mark costs nothing by default
    ({6}, {6}, 1 + 3),                     # one stolen and found: all of them
    ({6}, {6, 7, 8}, 1 + 3),
    ({6}, {5}, 0),
    ({2, 5, 7}, {1, 3, 4}, 0),
    ({2, 5, 7}, {2, 3, 4}, 1),
])
def test_detective_points_follow_the_rulebook(stolen, marks, points):
    assert detective_points(marks, stolen) == points


@pytest.mark.parametrize("stolen, marks, cost, points", [
    ({1, 2, 3}, set(range(1, 9)), 2, 6 + 3 - 5 * 2),     # marking all 8 loses points ...
    ({1, 2}, set(range(1, 9)), 2, 3 + 3 - 6 * 2),
    ({1}, set(range(1, 9)), 2, 1 + 3 - 7 * 2),          # ... whatever was stolen
    ({1, 2, 3}, {1, 2, 3, 4}, 2, 9 - 2),
    ({1, 2, 3}, {1, 2, 3}, 2, 9),
])
def test_the_penalty_reading_charges_each_wrong_mark(stolen, marks, cost, points):
    assert detective_points(marks, stolen, cost) == points


@pytest.mark.parametrize("stolen, ballots, points", [
    ({2, 5, 7}, [{2}, {5}], 1),             # 1 point per stolen painting no detective found
    ({2, 5, 7}, [{1}, {3}], 3),
    ({2, 5, 7}, [{2, 5, 7}, set()], 0),
    ({4}, [{1, 2, 3}, {5, 6, 7}], 1),
    ({4, 6}, [{4}, {4}], 1),                # found by two detectives: still one painting
])
def test_thief_points_follow_the_rulebook(stolen, ballots, points):
    assert thief_points(stolen, ballots) == points


def test_a_round_scores_every_player_and_the_words_say_so():
    table = Table().round({2, 5}, {"Ben": {2, 7}, "Caro": {2, 5}})
    assert result(table.game)["rounds"][0]["points"] == {"Ana": 0, "Ben": 1, "Caro": 6}
    reveal = [e for e in table.effects if isinstance(e, fx.Revealed)][0]
    assert call(reveal) == ("Round 1: Ana stole paintings 2 and 5. Ben found 2 (1 point) and "
                            "Caro found 2 and 5, all of them (6 points). Ana, the thief: "
                            "0 points.")


# ============================================================================================
# The game: every player is thief once, in turn; the end and the tiebreak
# ============================================================================================

def test_every_player_is_thief_once_in_list_order_and_the_game_then_ends():
    table = Table(("Ana", "Ben", "Caro", "Dani"))
    thieves = []
    for _ in range(4):
        thieves.append(table.game.current.thief)
        detectives = [p for p in table.game.players if p != thieves[-1]]
        table.round({1}, {d: {2} for d in detectives})
    assert thieves == ["Ana", "Ben", "Caro", "Dani"]
    assert table.game.over and public_view(table.game)["phase"] == "over"
    refused(table.game, Start(table.t + 1, "Ana"), "game is over")


@pytest.mark.parametrize("rounds, totals, as_thief, winners, decided_by", [
    # Ana steals 3 nobody finds; Ben and Caro find little: Ana's highest total wins.
    ([({1, 2, 3}, {"Ben": {4}, "Caro": {5}}),
      ({4}, {"Ana": {1}, "Caro": {1}}),
      ({5}, {"Ana": {1}, "Ben": {1}})],
     {"Ana": 3, "Ben": 1, "Caro": 1}, {"Ana": 3, "Ben": 1, "Caro": 1}, ["Ana"], "total"),
    # Ana and Ben tie on 4; Ben scored 1 as thief and Ana 0: Ben wins the tie.
    ([({1}, {"Ben": {1}, "Caro": {2}}),          # Ana 0, Ben 4, Caro 0
      ({2}, {"Ana": {2}, "Caro": {3}}),          # Ana 4, Ben 0 (found), Caro 0
      ({3, 4}, {"Ana": {1}, "Ben": {1}})],       # Caro 2 as thief
     {"Ana": 4, "Ben": 4, "Caro": 2}, {"Ana": 0, "Ben": 0, "Caro": 2}, ["Ana", "Ben"],
     "shared"),
    ([({1}, {"Ben": {1}, "Caro": {2}}),          # Ana 0 as thief, Ben 4
      ({2}, {"Ana": {2}, "Caro": {2}}),          # Ben 0 as thief, Ana 4, Caro 4
      ({3}, {"Ana": {4}, "Ben": {5}})],          # Caro 1 as thief
     {"Ana": 4, "Ben": 4, "Caro": 5}, {"Ana": 0, "Ben": 0, "Caro": 1}, ["Caro"], "total"),
    # Ana and Ben tie on 5; Ana kept 1 painting as thief, Ben none: Ana wins the tie.
    ([({1, 2}, {"Ben": {1}, "Caro": {3}}),       # Ana 1 as thief, Ben 1
      ({2}, {"Ana": {3}, "Caro": {2}}),          # Ben 0 as thief, Caro 4
      ({3}, {"Ana": {3}, "Ben": {3}})],          # Caro 0 as thief, Ana 4, Ben 4
     {"Ana": 5, "Ben": 5, "Caro": 4}, {"Ana": 1, "Ben": 0, "Caro": 0}, ["Ana"], "thief"),
    ([({1, 2}, {"Ben": {1}, "Caro": {3}}),       # Ana 1 as thief, Ben 1
      ({2, 3}, {"Ana": {4}, "Caro": {2}}),       # Ben 1 as thief, Caro 1
      ({5}, {"Ana": {5}, "Ben": {6}})],          # Caro 0 as thief, Ana 4
     {"Ana": 5, "Ben": 2, "Caro": 1}, {"Ana": 1, "Ben": 1, "Caro": 0}, ["Ana"], "total"),
])
def test_highest_total_wins(rounds, totals, as_thief, winners, decided_by):
    table = Table()
    for stolen, marks in rounds:
        table.round(stolen, marks)
    out = result(table.game)
    assert (out["totals"], out["thief_scores"]) == (totals, as_thief)
    assert (out["winners"], out["decided_by"]) == (winners, decided_by)


def test_a_tie_goes_to_the_higher_score_as_thief():
    table = Table()
    table.round({1, 2}, {"Ben": {1}, "Caro": {8}})      # Ana 1 as thief; Ben 1
    table.round({3}, {"Ana": {3}, "Caro": {4}})         # Ben 0 as thief; Ana 4
    table.round({5}, {"Ana": {6}, "Ben": {5}})          # Caro 0 as thief; Ben 4
    out = result(table.game)
    assert out["totals"] == {"Ana": 5, "Ben": 5, "Caro": 0}
    assert out["thief_scores"] == {"Ana": 1, "Ben": 0, "Caro": 0}
    assert (out["winners"], out["decided_by"]) == (["Ana"], "thief")
    over = [e for e in table.effects if isinstance(e, fx.GameOver)][0]
    assert call(over) == ("Ana wins the tie with the best score as thief! "
                          "Totals: Ana 5, Ben 5, Caro 0.")


def test_still_tied_the_tied_players_share_the_win():
    table = Table(("Ana", "Ben"))
    table.round({1}, {"Ben": {2}})                      # Ana 1 as thief
    table.round({3}, {"Ana": {4}})                      # Ben 1 as thief
    out = result(table.game)
    assert (out["totals"], out["winners"], out["decided_by"]) == (
        {"Ana": 1, "Ben": 1}, ["Ana", "Ben"], "shared")
    over = [e for e in table.effects if isinstance(e, fx.GameOver)][0]
    assert call(over).startswith("Ana and Ben share the win")


# ============================================================================================
# A round's sequence: the countdown, eyes closed, the swap, eyes open, the ballots
# ============================================================================================

def test_the_exhibition_countdown_ends_with_a_sound_and_closed_eyes():
    game = new_game(PLAYERS, exhibition_s=45)
    game, effects = step(game, Start(10.0, "Ana"))
    assert next_deadline(game) == 55.0
    assert public_view(game, now_t=30.0)["remaining_s"] == 25.0
    assert public_view(game, now_t=99.0)["remaining_s"] == 0.0
    game, effects = step(game, Tick(54.9))
    assert effects == () and public_view(game)["phase"] == "exhibition"
    game, effects = step(game, Tick(60.0))
    assert effects == (Sound(55.0, "gong"), fx.EyesClosed(55.0, 1, "Ana"))
    assert public_view(game)["phase"] == "swap" and next_deadline(game) is None
    assert call(effects[1]).startswith("Time! Detectives, close your eyes. Ana, swap 1 to 3")


def test_a_command_after_the_deadline_first_ends_the_exhibition():
    game, _ = step(new_game(PLAYERS, exhibition_s=30), Start(0.0, "Ana"))
    game, effects = step(game, Steal(30.0, "Ana", (3,)))     # due at 30 fires before it
    assert [type(e) for e in effects] == [Sound, fx.EyesClosed, fx.EyesOpened]
    assert public_view(game)["phase"] == "auction"


def test_refusals_name_the_reason_and_change_nothing():
    game = new_game(PLAYERS, exhibition_s=30)
    refused(game, Start(1.0, "Ben"), "Ben is a detective", "Ana")
    refused(game, Start(1.0, "Zoe"), "Zoe is not a player", "Ana, Ben, and Caro")
    refused(game, Steal(1.0, "Ana", (1,)), "not over yet")
    refused(game, Mark(1.0, "Ben", (1,)), "once Ana has swapped")
    game, _ = step(game, Start(5.0))                          # the table may start it
    refused(game, Start(6.0, "Ana"), "already started")
    refused(game, Steal(20.0, "Ana", (1,)), "not over yet")
    refused(game, Steal(2.0, "Ana", (1,)), "before the game's last move")
    refused(game, Steal(40.0, "Ben", (1,)), "only the thief, Ana")
    refused(game, Steal(40.0, None, (1,)), "only the thief, Ana", "the table")
    refused(game, Steal(40.0, "Ana", ()), "0 chosen", "choose 1 to 3")
    refused(game, Steal(40.0, "Ana", (1, 2, 3, 4)), "4 chosen", "choose 1 to 3")
    refused(game, Steal(40.0, "Ana", (9,)), "9 is not one of 1 to 8")
    refused(game, Steal(40.0, "Ana", (2, 2)), "2 is given twice")
    refused(game, Steal(40.0, "Ana", "12"), "give a list of places")
    game, _ = step(game, Steal(40.0, "Ana", (1, 2)))
    refused(game, Steal(41.0, "Ana", (3,)), "already entered")
    refused(game, Mark(41.0, "Ana", (1,)), "Ana cannot mark", "thief")
    refused(game, Mark(41.0, None, (1,)), "the table cannot mark")
    refused(game, Mark(41.0, "Ben", (1, 2, 3, 4)), "4 chosen", "1 to 3")
    refused(game, Mark(41.0, "Ben", (5, 5)), "5 is given twice")
    refused(game, Mark(41.0, "Ben", (0,)), "0 is not one of 1 to 8")
    refused(game, Mark(41.0, "Ben", ()), "0 chosen")
    refused(game, Mark(41.0, "Ben", (True,)), "True is not one of 1 to 8")


def test_a_detective_may_change_their_marks_until_the_last_ballot_is_in():
    table = Table()
    table.send(Start(1.0, "Ana"))
    table.send(Steal(70.0, "Ana", (4, 6)))
    effects = table.send(Mark(71.0, "Ben", (1,)))
    assert effects == (fx.BallotIn(71.0, 1, "Ben", False, ("Caro",)),)
    assert call(effects[0]) == "Ben has marked; waiting for Caro."
    effects = table.send(Mark(72.0, "Ben", (4, 6)))
    assert call(effects[0]) == "Ben changed their marks; waiting for Caro."
    effects = table.send(Mark(73.0, "Caro", (6,)))
    assert isinstance(effects[-1], fx.Revealed)
    assert result(table.game)["rounds"][0]["marks"] == {"Ben": [4, 6], "Caro": [6]}
    assert result(table.game)["rounds"][0]["points"] == {"Ana": 0, "Ben": 6, "Caro": 1}
    refused(table.game, Mark(74.0, "Caro", (1,)), "once Ben has swapped")


@pytest.mark.parametrize("kwargs, words", [
    (dict(players=("Ana",)), ["1 player given (Ana)", "2 to 8"]),
    (dict(players=tuple("ABCDEFGHI")), ["9 players given", "2 to 8"]),
    (dict(players=("Ana", "Ana")), ["the same name as"]),
    (dict(players=("Ana", "ANA")), ["the same name as"]),
    (dict(players=("Ana", " ")), ["an empty name"]),
    (dict(players="Ana"), ["must be a list"]),
    (dict(exhibition_s=0), ["exhibition_s 0", "5 to 600"]),
    (dict(exhibition_s=float("nan")), ["exhibition_s nan"]),
    (dict(exhibition_s="60"), ["exhibition_s '60'"]),
    (dict(max_marks=0), ["max_marks 0", "1 to 8"]),
    (dict(max_marks=9), ["max_marks 9"]),
    (dict(max_marks=8), ["max_marks 8 with wrong_mark_cost 0", "at most 3", "at least 2"]),
    (dict(max_marks=4, wrong_mark_cost=1), ["wrong_mark_cost 1", "at least 2"]),
    (dict(wrong_mark_cost=-1), ["wrong_mark_cost -1", "0 to 9"]),
])
def test_bad_settings_name_the_value_and_what_is_allowed(kwargs, words):
    kwargs.setdefault("players", PLAYERS)
    with pytest.raises(RulesError) as info:
        new_game(**kwargs)
    for w in words:
        assert w in str(info.value), str(info.value)


def test_the_penalty_reading_lets_a_detective_mark_more_than_three():
    table = Table(("Ana", "Ben"), max_marks=8, wrong_mark_cost=2)
    table.round({1, 2, 3}, {"Ben": set(range(1, 9))})
    assert result(table.game)["rounds"][0]["points"] == {"Ana": 0, "Ben": -1}


# ============================================================================================
# Secrets: the screen never shows the stolen paintings or a ballot before the reveal
# ============================================================================================

def test_public_view_is_the_same_whatever_was_stolen_and_marked_before_the_reveal():
    a, b = Table(), Table()
    for table, stolen, marks in ((a, (1,), (1, 2)), (b, (6, 7, 8), (3,))):
        table.send(Start(1.0, "Ana"))
        table.send(Steal(70.0, "Ana", stolen))
        table.send(Mark(71.0, "Ben", marks))
    assert public_view(a.game, 71.0) == public_view(b.game, 71.0)
    assert public_view(a.game)["marked"] == ["Ben"]
    assert public_view(a.game)["waiting"] == ["Caro"]
    text = json.dumps(public_view(b.game))
    assert "[6, 7, 8]" not in text and '"stolen"' not in text
    # Caro's phone shows neither Ana's entry nor Ben's marks; each phone its own secret only.
    assert player_view(a.game, "Caro") == player_view(b.game, "Caro")
    assert player_view(b.game, "Ana")["mine"] == [6, 7, 8]
    assert player_view(b.game, "Ben")["mine"] == [3]
    assert player_view(b.game, "Caro")["mine"] == []
    assert player_view(b.game, "Caro")["can"] == ["mark"]
    # The reveal shows it all.
    b.send(Mark(72.0, "Caro", (8,)))
    last = public_view(b.game)["last_round"]
    assert (last["stolen"], last["marks"]) == ([6, 7, 8], {"Ben": [3], "Caro": [8]})


def test_each_phone_offers_what_its_player_may_send():
    game = new_game(PLAYERS, exhibition_s=10)
    assert [player_view(game, p)["can"] for p in PLAYERS] == [["start"], [], []]
    game, _ = step(game, Start(0.0, "Ana"))
    assert [player_view(game, p)["can"] for p in PLAYERS] == [[], [], []]
    game, _ = step(game, Tick(10.0))
    assert [player_view(game, p)["role"] for p in PLAYERS] == ["thief", "detective",
                                                               "detective"]
    assert [player_view(game, p)["can"] for p in PLAYERS] == [["steal"], [], []]
    with pytest.raises(IllegalMove) as info:
        player_view(game, "Zoe")
    assert english_error(info.value).startswith("Zoe is not a player in this game")


# ============================================================================================
# Properties over generated games
# ============================================================================================

paintings = st.sets(st.integers(1, 8), min_size=1, max_size=3)


@FEW
@given(n=st.integers(2, 6), data=st.data())
def test_generated_games_score_within_bounds_and_end_when_everyone_was_thief(n, data):
    players = ("Ana", "Ben", "Caro", "Dani", "Eli", "Fay")[:n]
    penalty = data.draw(st.booleans())
    kwargs = dict(max_marks=8, wrong_mark_cost=data.draw(st.integers(2, 9))) if penalty else {}
    table = Table(players, **kwargs)
    marks = st.sets(st.integers(1, 8), min_size=1, max_size=8 if penalty else 3)
    for number in range(1, n + 1):
        assert not table.game.over and table.game.current.thief == players[number - 1]
        stolen = data.draw(paintings)
        table.round(stolen, {p: data.draw(marks) for p in players if p != players[number - 1]})
        r = result(table.game)["rounds"][-1]
        cost = table.game.settings.wrong_mark_cost
        for p, points in r["points"].items():
            if p == r["thief"]:
                assert 0 <= points <= len(stolen)
            else:
                found = r["identified"][p]
                assert len(found) == len(set(found)) and set(found) <= stolen   # once each
                assert -cost * 7 <= points <= 9
                if set(r["marks"][p]) == set(range(1, 9)):
                    assert points < 0           # marking all 8 is never a free win
    out = result(table.game)
    assert out["over"] and len(out["rounds"]) == n
    assert [r["thief"] for r in out["rounds"]] == list(players)
    best = max(out["totals"].values())
    assert out["winners"] and all(out["totals"][w] == best for w in out["winners"])


# ============================================================================================
# The recording: a whole game replays to the same result; bad lines name the line
# ============================================================================================

def whole_game():
    table = Table(("Ana", "Ben", "Caro", "Dani"), exhibition_s=20)
    table.round({2, 5}, {"Ben": {2, 7}, "Caro": {2, 5}, "Dani": {1}})
    table.send(Start(table.t + 3))                       # the table starts Ben's exhibition
    table.send(Tick(table.t + 25))
    table.send(Steal(table.t + 10, "Ben", (8,)))
    table.send(Mark(table.t + 1, "Dani", (8, 1)))
    table.send(Mark(table.t + 1, "Ana", (3,)))
    table.send(Mark(table.t + 1, "Dani", (7,)))          # Dani changes their mind
    table.send(Mark(table.t + 1, "Caro", (8,)))
    table.round({1, 3, 6}, {"Ana": {1, 3, 6}, "Ben": {6}, "Dani": {2}})
    table.round({4}, {"Ana": {5}, "Ben": {4}, "Caro": {3}})
    return table


def test_a_whole_game_replays_to_the_same_result():
    table = whole_game()
    lines = table.lines()
    assert json.loads(lines[0]) == {"recording": "stolen-paintings", "version": 1,
                                    "players": ["Ana", "Ben", "Caro", "Dani"],
                                    "exhibition_s": 20.0, "max_marks": 3, "wrong_mark_cost": 0}
    assert json.loads(lines[1]) == {"t": 1.0, "start": True, "by": "Ana"}
    assert all('"tick"' not in x for x in lines)
    out = replay_lines(lines)
    assert out == result(table.game)
    words = [call(e) for e in table.effects if not isinstance(e, Sound)]
    assert all(isinstance(w, str) and w for w in words)
    assert words[0] == ("Round 1: Ana is the thief. Detectives, memorise the 24 paintings until "
                        "the time runs out.")
    assert out["totals"] == {"Ana": 0 + 0 + 9 + 0, "Ben": 1 + 0 + 1 + 4,
                             "Caro": 6 + 4 + 0 + 0, "Dani": 0 + 0 + 0 + 0}
    assert out["winners"] == ["Caro"] and out["over"]


def test_a_recording_cut_short_reports_the_round_in_play():
    lines = whole_game().lines()[:4]
    out = replay_lines(lines)
    assert out["rounds"] == [] and not out["over"]
    assert out["unfinished"] == {"round": 1, "thief": "Ana", "phase": "auction"}


HEADER = {"recording": "stolen-paintings", "version": 1, "players": ["Ana", "Ben"]}


@pytest.mark.parametrize("bad, line, words", [
    ('{"recording": "cleptomano", "version": 1}', 1, ['"recording": "stolen-paintings"']),
    (dict(HEADER, version=2), 1, ["version 2"]),
    (dict(HEADER, seed=3), 1, ["header key 'seed'"]),
    (dict(HEADER, players=["Ana"]), 1, ["2 to 8"]),
    (dict(HEADER, max_marks=8), 1, ["at least 2"]),
    ("not json", 2, ["not JSON"]),
    ([1, 2], 2, ["JSON object"]),
    ({"start": True}, 2, ["t None"]),
    ({"t": -1, "start": True}, 2, ["t -1"]),
    ({"t": 1, "start": True, "steal": [1]}, 2, ["exactly one of"]),
    ({"t": 1, "start": True, "colour": "red"}, 2, ["key 'colour'"]),
    ({"t": 1, "start": False}, 2, ["start must be true"]),
    ({"t": 1, "start": True, "by": 7}, 2, ["by 7"]),
    # A refusal in a recording is the builder's: in English, or in its language-neutral form.
    ({"t": 1, "start": True, "by": "Ben"}, 2, [("Ben is a detective",
                                                "thief_starts(by='Ben', thief='Ana')")]),
    ({"t": 1, "mark": [1], "by": "Ben"}, 2, [("once Ana has swapped",
                                               "mark_early(thief='Ana')")]),
    ({"t": 1, "steal": "12", "by": "Ana"}, 2, ["list of painting numbers"]),
])
def test_bad_recording_lines_are_one_error_naming_the_line(bad, line, words):
    lines = [json.dumps(HEADER)]
    bad = bad if isinstance(bad, str) else json.dumps(bad)
    lines = [bad] if line == 1 else lines + [bad]
    with pytest.raises(RecordingError) as info:
        replay_lines(lines, path="game.jsonl")
    message = str(info.value)
    assert message.startswith("game.jsonl:%d: " % line), message
    for w in words:
        assert any(alt in message for alt in (w if isinstance(w, tuple) else (w,))), message


def test_times_never_go_back_and_a_late_bad_line_names_itself():
    lines = whole_game().lines()
    lines.insert(5, json.dumps({"t": 0.5, "start": True}))
    with pytest.raises(RecordingError, match="^line 6: t 0.5 goes back in time"):
        replay_lines(lines)
    with pytest.raises(RecordingError, match="empty"):
        replay_lines(["", "  "])


line_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=4),
                        st.lists(st.integers(-1, 9), max_size=4))
fuzz_line = st.one_of(
    st.text(max_size=20),
    st.fixed_dictionaries({"t": st.one_of(st.floats(-1, 500), st.integers(-1, 500))},
                          optional={"start": line_values, "steal": line_values,
                                    "mark": line_values,
                                    "by": st.sampled_from(["Ana", "Ben", "Zoe", None, 3])})
    .map(json.dumps))


@FAST
@given(lines=st.lists(fuzz_line, max_size=12))
def test_replay_of_any_lines_gives_a_result_or_one_recording_error(lines):
    try:
        out = replay_lines([json.dumps(HEADER)] + lines)
    except RecordingError as exc:
        assert str(exc).startswith("line ")
    else:
        assert set(out) >= {"rounds", "totals", "winners"}


# ============================================================================================
# The screen (rendered headless at 800x480 and 1920x1080) and its sounds
# ============================================================================================


from rig.draw.kit import GOLD, RED                          # noqa: E402
from rig.games.stolen_paintings import screen                  # noqa: E402
from rig.games.stolen_paintings.samples import SAMPLES         # noqa: E402
from rig.draw.view_dict import box                          # noqa: E402

from sim.frames import SIZES, count, draw_frame                 # noqa: E402

SCREENS = [name for name in SAMPLES if name.startswith("paintings-")]


def frame(view, size):
    return draw_frame(screen.draw, view, size)


def slots(size, row):
    """The top halves of the 8 paintings' slots in the row drawn in ``row``."""
    x, y, w, h = box(*size, *row)
    return [(x + i * (w // 8), y, w // 8, h // 2) for i in range(8)]


@pytest.mark.parametrize("size", SIZES)
def test_the_countdown_turns_red_in_its_last_ten_seconds(size):
    area = box(*size, *screen.COUNTDOWN)
    assert count(frame(SAMPLES["paintings-exhibition"][1], size), area, RED) == 0
    assert count(frame(SAMPLES["paintings-last10"][1], size), area, RED) > 0.03 * area[2] * area[3]


@pytest.mark.parametrize("size", SIZES)
def test_eyes_closed_darkens_the_screen(size):
    surface = frame(SAMPLES["paintings-swap"][1], size)
    assert count(surface, (0, 0) + size, screen.NIGHT, tol=3) > 0.7 * size[0] * size[1]


@pytest.mark.parametrize("size", SIZES)
def test_the_stolen_paintings_are_gold_only_at_the_reveal(size):
    auction = frame(SAMPLES["paintings-auction"][1], size)
    assert [count(auction, s, GOLD, tol=20) for s in slots(size, screen.AUCTION_ROW)] == [0] * 8
    reveal = frame(SAMPLES["paintings-reveal"][1], size)             # Ana stole 3, 6 and 8
    gold = [count(reveal, s, GOLD, tol=20) > 50 for s in slots(size, screen.REVEAL_ROW)]
    assert gold == [n in (3, 6, 8) for n in range(1, 9)]


def test_the_screen_draws_any_view_without_raising():
    for view in (None, {}, {"phase": "auction", "detectives": [None, 3], "marked": 7},
                 {"phase": "setup", "last_round": {"stolen": ["x"], "marks": {"a": [9]}},
                  "players": ["a"], "totals": {"a": "?"}},
                 {"phase": "over", "winners": [], "players": [1, 2]},
                 {"phase": "exhibition", "remaining_s": float("nan")},
                 {"phase": "auction", "detectives": list(range(999)), "players": ["x"] * 999}):
        frame(view, (320, 200))


def test_the_exhibition_ends_with_the_gong():
    from rig.display.sounds import SOUNDS
    game, _ = step(new_game(PLAYERS, exhibition_s=10), Start(0.0, "Ana"))
    _, effects = step(game, Tick(10.0))
    assert [e.name for e in effects if isinstance(e, Sound)] == ["gong"]
    assert "gong" in SOUNDS


junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 10 ** 6), st.floats(),
                 st.text(max_size=8),
                 st.lists(st.one_of(st.none(), st.integers(-2, 9), st.text(max_size=3)),
                          max_size=9),
                 st.dictionaries(st.text(max_size=6), st.one_of(st.integers(-3, 40),
                                                                st.lists(st.integers(0, 9))),
                                 max_size=4))


@FEW
@given(name=st.sampled_from(SCREENS), changes=st.dictionaries(
    st.sampled_from(["phase", "round", "rounds", "thief", "detectives", "marked", "players",
                     "last_round", "totals", "thief_scores", "winners", "decided_by",
                     "remaining_s", "settings"]), junk, max_size=4))
def test_a_damaged_view_still_draws(name, changes):
    frame(dict(SAMPLES[name][1], **changes), (400, 240))


# ============================================================================================
# Languages: the reveal in Romanian, with its three plural forms; no screen clips
# ============================================================================================

def test_a_reveal_is_said_in_romanian_with_its_three_plural_forms():
    reveal = fx.Revealed(70.0, 2, "Ana", (2, 5), (("Ben", (2, 7)), ("Caro", (2, 5))),
                         (("Ana", 20), ("Ben", 1), ("Caro", 2)))
    said = Words("ro").text(call_code(reveal))
    assert said == ("Runda 2: Ana a furat picturile 2 și 5. Ben a identificat 2 (1 punct) și "
                    "Caro a identificat 2 și 5, pe toate (2 puncte). Ana, hoțul: "
                    "20 de puncte.")
    one = fx.Revealed(70.0, 1, "Ana", (4,), (("Ben", ()),), (("Ana", 1), ("Ben", 0)))
    assert Words("ro").text(call_code(one)).startswith("Runda 1: Ana a furat pictura 4.")


def test_every_sample_screen_fits_in_every_language_and_the_pseudo_locale():
    from rig.draw import kit
    from rig.games.stolen_paintings import samples
    before = kit.words()
    try:
        for lang in ("pseudo", "en", "es", "fr", "ro"):
            kit.use_words(lang)
            for name in samples.SHOTS:
                draw, view = samples.shot(name)
                surface = kit.load_pygame().Surface((800, 480))
                kit.clips()
                draw(surface, view)
                assert kit.clips() == [], (lang, name)
    finally:
        kit.use_words(before)
