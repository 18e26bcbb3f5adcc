"""Stop Thief!'s rulebook, rule by rule, on the tiny board of ``stop_thief_support``.

The thief's movement is checked over the whole range of draws (which spaces a thief can reach
from where, never how a draw maps to a space); turns, arrests, payments and the end of the game
are checked by commands, the way the table sends them.
"""

import re
from dataclasses import replace

import pytest

from rig.core.errors import IllegalMove, RulesError
from rig.core.msg import from_json
from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules import thief as th
from rig.games.stop_thief.rules.board import BoardError, board_from_dict
from rig.core.gamekit import Sound
from rig.games.stop_thief.rules.rules import SOUND_OF_CLUE, new_game, refusal, step
from rig.games.stop_thief.rules.thief import Settings, Thief, make_settings, move
from rig.games.stop_thief.rules.views import player_view, public_view
from rig.words import english, english_error

from stop_thief_support import tiny, tiny_dict

DRAWS = [i / 2000 for i in range(2000)]


def outcomes(thief, settings=Settings(), board=None):
    """Every (space, clue) the thief can make in one move, over the whole range of draws."""
    board = board or tiny()
    return {(t.space, clue) for t, clue in (move(board, thief, u, settings) for u in DRAWS)}


def game_at(space, came_from=None, players=("Ana", "Ben"), seed=1, settings=Settings(),
            board=None, **changes):
    """A new game on the tiny board whose first player is Ana, with the thief put on ``space``."""
    game = new_game(board or tiny(), players, seed, settings)
    case = replace(game.case, thief=Thief(space, came_from, (space,)))
    return replace(game, case=case, turn=0, **changes)


def effects_of(game, *commands):
    out = []
    for command in commands:
        game, effects = step(game, command)
        out += effects
    return game, out


# --- The thief's movement --------------------------------------------------------------------

@pytest.mark.parametrize("at, came_from, reachable", [
    # "moves from one numbered space to the next numbered space ... skipping the circles"
    (5, 4, {(5, "stayed"), (7, "outside"), (8, "outside")}),
    # "sometimes stays"; from the crime scene at the start it may go anywhere next to it
    (1, None, {(1, "stayed"), (2, "inside"), (3, "inside"), (6, "window")}),
    # "will not return to the space it has just moved from"
    (1, 2, {(1, "stayed"), (3, "inside"), (6, "window")}),
    (2, 1, {(2, "stayed"), (3, "inside"), (4, "door")}),
    # "entering a door or window, it goes through it to the next room or outdoor space on its
    # next move": never back into the room, never a stay in the doorway
    (4, 2, {(5, "outside")}),
    (4, 5, {(2, "inside"), (3, "inside")}),
    (6, 1, {(7, "outside")}),
    (6, 7, {(1, "crime")}),
    # "moving onto a crime scene is another crime": the alarm
    (3, 2, {(3, "stayed"), (1, "crime"), (4, "door")}),
])
def test_where_the_thief_can_go(at, came_from, reachable):
    assert outcomes(Thief(at, came_from, (at,))) == reachable


def test_a_stay_does_not_let_the_thief_turn_back():
    board, thief = tiny(), Thief(2, 1, (1, 2))
    stayed, clue = move(board, thief, 0.0)
    assert clue == "stayed" and stayed.space == 2 and stayed.came_from == 1
    assert (1, "inside") not in outcomes(stayed) and (1, "crime") not in outcomes(stayed)


@pytest.mark.parametrize("loudspeaker, clue", [(False, "outside"), (True, "subway")])
def test_a_subway_space_sounds_like_the_street_in_the_standard_game(loudspeaker, clue):
    settings = Settings(subway_loudspeaker=loudspeaker)
    assert (8, clue) in outcomes(Thief(5, 4, (5,)), settings)
    # ... and it is walked like any street: the thief never rides to another station.
    assert {s for s, _ in outcomes(Thief(8, 5, (8,)), settings)} == {8, 7}


@pytest.mark.parametrize("stay_chance", [0.0, 0.15, 0.5])
def test_how_often_the_thief_stays_is_a_setting(stay_chance):
    board, thief = tiny(), Thief(5, 4, (5,))
    stays = sum(move(board, thief, u, Settings(stay_chance=stay_chance))[1] == "stayed"
                for u in DRAWS)
    assert stays / len(DRAWS) == pytest.approx(stay_chance, abs=0.001)


def test_the_crime_scene_weight_draws_the_thief_to_crime_scenes():
    board, thief = tiny(), Thief(3, 2, (3,))            # moves: 1 (crime scene) or 4
    for weight, share in ((1.0, 0.5), (3.0, 0.75)):
        settings = Settings(stay_chance=0.0, crime_scene_weight=weight)
        crimes = sum(move(board, thief, u, settings)[1] == "crime" for u in DRAWS)
        assert crimes / len(DRAWS) == pytest.approx(share, abs=0.001)


def test_the_defaults_are_the_stated_ones():
    assert Settings() == Settings(stay_chance=0.15, crime_scene_weight=1.0,
                                  crime_wave_on_stay=False, subway_loudspeaker=False)
    assert make_settings() == Settings()


@pytest.mark.parametrize("values, words", [
    (dict(stay_chance=1.0), "setting stay_chance 1.0 is out of range; give a number from 0 to "
                            "0.9 (default 0.15)"),
    (dict(stay_chance="0.1"), "setting stay_chance '0.1' is out of range"),
    (dict(crime_scene_weight=0), "setting crime_scene_weight 0 is out of range"),
    (dict(crime_wave_on_stay="yes"), "setting crime_wave_on_stay 'yes' must be true or false "
                                     "(default false)"),
    (dict(speed=2), "setting 'speed' is not known"),
])
def test_bad_settings_are_one_clear_error(values, words):
    with pytest.raises(RulesError, match=re.escape(words)):
        make_settings(**values)


def test_chance_is_a_pure_function_of_seed_and_draw():
    assert th.chance(7, 3) == th.chance(7, 3)
    assert th.chance(7, 3) != th.chance(7, 4) != th.chance(8, 3)
    assert all(0.0 <= th.chance(s, n) < 1.0 for s in range(5) for n in range(50))


# --- Setting up -------------------------------------------------------------------------------

def test_setup_follows_the_rulebook():
    game = new_game(tiny(), ["Ana", "Ben", "Caro"], seed=4)
    view = public_view(game)
    assert [p["money"] for p in view["players"]] == [3000, 3000, 3000]     # "$3,000 each"
    assert view["deck"] == 11                       # "shuffle the deck... reveal the top card"
    assert view["thief"]["number"] == 1 and view["thief"]["at_large"]
    assert game.case.thief.space in game.board.crime_scenes   # "starts on the crime scene"
    assert view["turn"] in game.players and view["clues"] == [] and view["retire"] == 15000
    assert english(from_json(view["message"])).startswith("A crime! Thief 1, ")


def test_the_seed_decides_the_deck_the_first_player_and_the_thief():
    games = [new_game(tiny(), ["Ana", "Ben", "Caro"], seed) for seed in range(30)]
    assert new_game(tiny(), ["Ana", "Ben", "Caro"], 5) == games[5]
    assert {g.player for g in games} == {"Ana", "Ben", "Caro"}
    assert len({g.deck for g in games}) == 30
    assert all(sorted(g.deck + (g.case.card,)) == list(range(12)) for g in games)


@pytest.mark.parametrize("players, seed, words", [
    (["Ana"] * 2, 1, "'Ana' is the same name as 'Ana'"),
    (["Ana", ""], 1, "an empty name names nobody"),
    (["Ana", "x" * 30], 1, "24 characters or fewer"),
    ([], 1, "0 players cannot play on Tiny; it has money for 1, 2, 3, 4, 5, and 6 players"),
    (["P%d" % i for i in range(7)], 1, "7 players cannot play on Tiny"),
    ("Ana", 1, "players 'Ana' must be a list of names"),
    (["Ana", "Ben"], -1, "seed -1 must be a whole number from 0 to"),
    (["Ana", "Ben"], True, "seed True must be a whole number"),
    (["Ana", "Ben"], "7", "seed '7' must be a whole number"),
])
def test_a_game_that_cannot_start_is_one_clear_error(players, seed, words):
    with pytest.raises(RulesError) as info:
        new_game(tiny(), players, seed)
    assert words in english_error(info.value)


def test_a_board_that_cannot_be_played_cannot_start_a_game():
    board = board_from_dict(tiny_dict())
    broken = replace(board, thieves=board.thieves[:5])
    with pytest.raises(BoardError, match="the thief deck has 5 cards"):
        new_game(broken, ["Ana", "Ben"], 1)


# --- A turn ------------------------------------------------------------------------------------

def test_a_turn_is_clue_then_arrest_then_the_next_player():
    game = game_at(5, came_from=4)
    game, effects = step(game, ev.GetClue(1.0, "Ana"))
    assert [type(e) for e in effects] == [ev.ClueGiven, Sound]     # the clue, then its sound
    assert effects[1] == Sound(1.0, SOUND_OF_CLUE[effects[0].kind])
    assert public_view(game)["clues"][0]["by"] == "Ana" and public_view(game)["turn"] == "Ana"
    game, effects = step(game, ev.EndTurn(2.0, "Ana"))
    assert effects == [ev.TurnBegan(2.0, "Ben")]


def test_get_a_clue_again_ends_the_turn_and_gives_the_next_player_theirs():
    game, _ = step(game_at(5, came_from=4), ev.GetClue(1.0))
    game, effects = step(game, ev.GetClue(2.0))
    assert [type(e) for e in effects] == [ev.TurnBegan, ev.ClueGiven, Sound]
    assert effects[1].by == "Ben" and effects[1].number == 2
    game, effects = step(game, ev.GetClue(3.0, "Ana"))            # Ben's turn is over too
    assert effects[1].by == "Ana"


def test_replay_plays_the_same_clue_and_moves_nothing():
    game, first = step(game_at(5, came_from=4), ev.GetClue(1.0))
    again, effects = step(game, ev.ReplayClue(2.0, "Ben"))     # anyone may ask for it
    assert effects == [ev.ClueGiven(2.0, first[0].kind, 1, "Ana", replay=True),
                       Sound(2.0, SOUND_OF_CLUE[first[0].kind])]     # heard again too
    assert again.case == game.case and again.draws == game.draws and again.turn == game.turn


# --- Arrests and payments -----------------------------------------------------------------------

@pytest.mark.parametrize("money, fine, left", [(3000, 1000, 2000), (400, 400, 0), (0, 0, 0)])
def test_a_wrong_arrest_pays_the_bank_1000_never_below_zero(money, fine, left):
    game, _ = step(game_at(5, came_from=4, money=(money, 3000)), ev.GetClue(1.0))
    wrong = next(n for n in game.board.numbers if n != game.case.thief.space)
    game, effects = step(game, ev.Arrest(2.0, wrong, "Ana"))
    assert effects == [ev.WrongArrest(2.0, "Ana", wrong, fine), ev.TurnBegan(2.0, "Ben")]
    assert public_view(game)["players"][0]["money"] == left
    assert public_view(game)["thief"]["at_large"] and public_view(game)["arrest"] is None


def test_a_right_arrest_pays_the_reward_and_the_crime_wave_and_a_new_thief_appears():
    game = game_at(3, came_from=2, settings=Settings(stay_chance=0.0, crime_scene_weight=10.0))
    reward = game.card().reward
    seed = next(s for s in range(100) if step(replace(game, seed=s), ev.GetClue(0))[0]
                .case.thief.space == 1)
    game, effects = step(replace(game, seed=seed), ev.GetClue(1.0))
    assert [type(e) for e in effects] == [ev.ClueGiven, ev.CrimeWave, Sound]
    assert effects[2] == Sound(1.0, "alarm")                     # a crime scene clue
    assert effects[0].kind == "crime" and effects[1] == ev.CrimeWave(1.0, 1000, reward + 1000)
    game, effects = step(game, ev.Arrest(2.0, 1, "Ana"))
    arrested = effects[0]
    assert (arrested.by, arrested.space, arrested.reward, arrested.crime_wave, arrested.paid) \
        == ("Ana", 1, reward, 1000, reward + 1000)
    assert [type(e) for e in effects[1:]] == [ev.NewThief, ev.TurnBegan, Sound]
    assert effects[-1] == Sound(2.0, "alarm")   # a new crime
    assert effects[-2].player == "Ben"          # "the player to your left starts the next round"
    view = public_view(game)
    assert view["players"][0]["money"] == 3000 + reward + 1000
    assert view["thief"]["number"] == 2 and view["deck"] == 10 and view["clues"] == []
    assert view["arrest"]["path"] == [3, 1] and view["arrest"]["by"] == "Ana"
    assert view["caught"] == [{"number": 1, "name": arrested.name, "by": "Ana",
                               "paid": reward + 1000, "space": 1}]
    assert game.case.thief.space in game.board.crime_scenes
    # The caught thief's path stays on screen until the next clue.
    game, _ = step(game, ev.GetClue(3.0))
    assert public_view(game)["arrest"] is None


@pytest.mark.parametrize("on_stay, wave", [(False, 0), (True, 1000)])
def test_staying_on_a_crime_scene_robs_it_again_only_if_set(on_stay, wave):
    game = game_at(1, came_from=2, settings=Settings(stay_chance=0.9, crime_wave_on_stay=on_stay))
    seed = next(s for s in range(100)
                if step(replace(game, seed=s), ev.GetClue(0))[1][0].kind == "stayed")
    game, effects = step(replace(game, seed=seed), ev.GetClue(1.0))
    assert game.case.crime_wave == wave
    assert any(isinstance(e, ev.CrimeWave) for e in effects) == bool(wave)


def test_the_first_to_the_cash_to_retire_wins_at_once():
    game, _ = step(game_at(5, came_from=4, money=(14000, 3000)), ev.GetClue(1.0))
    game, effects = step(game, ev.Arrest(2.0, game.case.thief.space, "Ana"))
    assert isinstance(effects[-1], ev.Retired) and effects[-1].player == "Ana"
    view = public_view(game)
    assert view["winner"] == "Ana" and view["turn"] is None and view["arrest"]["by"] == "Ana"
    assert "retires to a sunny Caribbean beach: Ana wins!" in english(from_json(view["message"]))
    for command in (ev.GetClue(3.0), ev.ReplayClue(3.0), ev.EndTurn(3.0), ev.Arrest(3.0, 5)):
        with pytest.raises(IllegalMove) as info:
            step(game, command)
        assert english_error(info.value) == "the game is over: Ana retired; start a new game"


def test_when_every_thief_is_caught_the_deck_is_shuffled_again():
    board = board_from_dict(dict(tiny_dict(), money=[
        {"players": 2, "start": 0, "retire": 10 ** 6}]))
    game = new_game(board, ["Ana", "Ben"], 3)
    reshuffled = []
    for i in range(13):
        game, _ = step(game, ev.GetClue(float(i)))
        game, effects = step(game, ev.Arrest(float(i), game.case.thief.space))
        reshuffled += [e for e in effects if isinstance(e, ev.DeckReshuffled)]
    assert reshuffled == [ev.DeckReshuffled(11.0, 12)]
    assert len(game.caught) == 13 and len(game.deck) == 10 and game.case.number == 14
    assert sum(game.money) == sum(game.board.thieves[c.card].reward for c in game.caught)


# --- Illegal input: one clear error, nothing lost -------------------------------------------------

CLUED = [ev.GetClue(1.0, "Ana")]


@pytest.mark.parametrize("before, command, words", [
    ([], ev.Arrest(2.0, 5, "Ana"), "Ana has not had this turn's clue yet; a turn is: get a clue, "
                                   "play a card, then attempt an arrest"),
    ([], ev.EndTurn(2.0), "Ana has not had this turn's clue yet"),
    ([], ev.GetClue(2.0, "Ben"), "it is Ana's turn, not Ben's"),
    (CLUED, ev.Arrest(2.0, 5, "Ben"), "it is Ana's turn, not Ben's"),
    (CLUED, ev.EndTurn(2.0, "Ben"), "it is Ana's turn, not Ben's"),
    (CLUED, ev.GetClue(2.0, "Ana"), "Ana already has this turn's clue; replay it, attempt an "
                                    "arrest or end the turn (then Ben gets the next clue)"),
    (CLUED, ev.Arrest(2.0, "c1", "Ana"), "space 'c1' is not a numbered space of Tiny"),
    (CLUED, ev.Arrest(2.0, 0), "space 0 is not a numbered space of Tiny; give the number of "
                               "your space or an adjacent numbered one (1 to 8)"),
    (CLUED, ev.Arrest(2.0, 99), "space 99 is not a numbered space"),
    (CLUED, ev.Arrest(2.0, "5"), "space '5' is not a numbered space"),
    (CLUED, ev.Arrest(2.0, True), "space True is not a numbered space"),
    ([], ev.ReplayClue(2.0), "there is no clue to replay yet"),
    (CLUED, ev.ReplayClue(2.0, "Zed"), "'Zed' is not a player of this game; the players are "
                                       "Ana and Ben"),
    ([], ev.GetClue(2.0, "Zed"), "'Zed' is not a player"),
    ([], "clue please", "'clue please' is not a Stop Thief! command"),
])
def test_illegal_input_is_refused_with_its_reason_and_loses_nothing(before, command, words):
    game, _ = effects_of(game_at(5, came_from=4), *before)
    with pytest.raises(IllegalMove) as info:
        step(game, command)
    assert words in english_error(info.value)
    assert info.value.msg.code.startswith("stop_thief.refuse.")     # a code, said by each face
    assert refusal(game, command) == info.value.msg
    # Refused, it left no trace: the next command does what it would have done anyway.
    fresh, _ = effects_of(game_at(5, came_from=4), *before)
    assert game == fresh
    assert step(game, ev.GetClue(3.0)) == step(fresh, ev.GetClue(3.0))


def test_the_phone_knows_which_buttons_its_player_may_press():
    game = game_at(5, came_from=4)
    can = lambda g, p: player_view(g, p)["you"]["can"]
    assert can(game, "Ana") == {"clue": True, "replay": False, "arrest": False, "end_turn": False}
    assert can(game, "Ben") == {"clue": False, "replay": False, "arrest": False, "end_turn": False}
    game, _ = step(game, ev.GetClue(1.0))
    assert can(game, "Ana") == {"clue": False, "replay": True, "arrest": True, "end_turn": True}
    assert can(game, "Ben") == {"clue": True, "replay": True, "arrest": False, "end_turn": False}
    you = player_view(game, "Ana")["you"]
    assert (you["name"], you["money"], you["your_turn"]) == ("Ana", 3000, True)
    with pytest.raises(IllegalMove) as info:
        player_view(game, "Zed")
    assert english_error(info.value).startswith("'Zed' is not a player")
