"""Stop Thief! boards: the format, the validator (each rule broken names the space), the sample
town, the shell's file reader, and a fuzz of the parser (nothing escapes but BoardError)."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.errors import ConfigError
from rig.games.stop_thief.rules.board import (BoardError, board_from_dict, board_sha256,
                                             board_to_dict, parse_board, validate_board)
from rig.games.stop_thief.resources import read_board, sample_town, sample_town_text

from stop_thief_support import TINY_TEXT, tiny, tiny_dict


def problems_of(obj):
    with pytest.raises(BoardError) as info:
        board_from_dict(obj)
    return info.value.problems


def space(obj, key):
    return next(s for s in obj["space"] if s.get("number", s.get("id")) == key)


# --- The format ---------------------------------------------------------------------------------

def test_the_tiny_board_reads_as_the_thief_sees_it():
    board = tiny()
    assert board.numbers == (1, 2, 3, 4, 5, 6, 7, 8)
    assert board.crime_scenes == (1,)
    # The unnumbered circle c1 is skipped: 5 and 7 are next to each other for the thief.
    assert board.next_to[5] == (4, 7, 8)
    assert board.footprints[5] == (4, 8, "c1")
    assert board.space(4).kind == "door" and board.space(4).area is None
    assert board.space(2).area == "Shop" and board.space(8).area == "outside"


def test_toml_and_json_give_the_same_board():
    toml = """
name = "Tiny"
investigators_start = 8
money = [%s]
paths = [[1, 2, 3, 1], [2, 4, 3], [4, 5, "c1", 7, 6, 1], [5, 8, 7]]

[[space]]
number = 1
kind = "inside"
building = "Shop"
at = [0, 0]
crime = true
""" % ", ".join("{players = %d, start = 3000, retire = 15000}" % n for n in range(1, 7))
    rest = tiny_dict()
    for entry in rest["space"][1:]:
        toml += "\n[[space]]\n" + "\n".join("%s = %s" % (k, json.dumps(v))
                                             for k, v in entry.items()) + "\n"
    for card in rest["thief"]:
        toml += '\n[[thief]]\nname = "%s"\nreward = %d\n' % (card["name"], card["reward"])
    assert parse_board(toml, "toml") == parse_board(TINY_TEXT, "json")


def test_a_board_survives_its_canonical_form_and_keeps_its_fingerprint():
    board = sample_town()
    again = board_from_dict(json.loads(json.dumps(board_to_dict(board))))
    assert again == board
    assert board_sha256(again) == board_sha256(board)
    assert len(board_sha256(board)) == 64
    edited = board_to_dict(board)
    edited["thief"][0]["reward"] += 500
    assert board_sha256(board_from_dict(edited)) != board_sha256(board)


@pytest.mark.parametrize("text, fmt, words", [
    ("name = ", "toml", "not valid TOML"),
    ("{", "json", "not valid JSON"),
    ("[1, 2]", "json", "a board is a table of keys"),
    ("name = 'x'", "yaml", "format 'yaml' is not known"),
])
def test_text_that_is_not_a_board_is_one_clear_error(text, fmt, words):
    with pytest.raises(BoardError, match=words):
        parse_board(text, fmt)


# --- The validator: every rule the thief's movement needs ---------------------------------------

def _dup_number(obj):
    space(obj, 3)["number"] = 2


def _path_to_nowhere(obj):
    obj["paths"].append([5, 99])


def _path_to_itself(obj):
    obj["paths"].append([5, 5])


def _door_to_nothing(obj):
    obj["paths"] = [[1, 2, 3, 1], [2, 4, 3], [5, "c1", 7, 6, 1], [5, 8, 7], [4, 1]]


def _window_outside_only(obj):
    obj["paths"] = [[1, 2, 3, 1], [2, 4, 3], [4, 5, "c1", 7, 6], [5, 8, 7], [1, 7]]


def _door_next_to_window(obj):
    obj["paths"].append([4, "c1", 6])


def _unreachable(obj):
    obj["space"].append({"number": 9, "kind": "outside", "at": [9, 9]})
    obj["space"].append({"number": 10, "kind": "outside", "at": [9, 10]})
    obj["space"].append({"number": 11, "kind": "outside", "at": [9, 11]})
    obj["paths"].append([9, 10, 11, 9])


def _crime_circle(obj):
    space(obj, "c1")["crime"] = True


def _dead_end(obj):
    obj["space"].append({"number": 9, "kind": "outside", "at": [5, 5]})
    obj["paths"].append([8, 9])


def _no_crime(obj):
    del space(obj, 1)["crime"]


def _eleven_cards(obj):
    obj["thief"].pop()


def _retire_below_start(obj):
    obj["money"][2]["retire"] = 2000


def _money_twice(obj):
    obj["money"].append({"players": 2, "start": 1000, "retire": 9000})


def _start_not_subway(obj):
    obj["investigators_start"] = 5


def _same_place(obj):
    space(obj, 2)["at"] = [0, 0]


@pytest.mark.parametrize("break_it, expected", [
    (_dup_number, "space 2 (inside, room \"Shop\"): the number 2 is used twice; every space "
                  "needs its own"),
    (_path_to_nowhere, "path 5 - 99: there is no space 99; a path joins spaces listed under "
                       "[[space]]"),
    (_path_to_itself, "path 5 - 5: joins a space to itself"),
    (_door_to_nothing, "space 4 (door): joins room \"Shop\" to nothing else; a door joins a room "
                       "to another room or to the outside"),
    (_window_outside_only, "space 6 (window): joins the outside to nothing else; a window joins "
                           "a room to another room or to the outside"),
    (_door_next_to_window, "space 4 (door): is next to space 6 (window); a door joins two areas, "
                           "so put a room or street space between them"),
    (_unreachable, "space 9 (outside): cannot be reached from space 1; join it to the rest of "
                   "the board with a path"),
    (_crime_circle, "circle \"c1\": is a crime scene; crime scenes must be numbered spaces"),
    (_dead_end, "space 9 (outside): is a dead end (its only numbered neighbour is 8); the thief "
                "never goes straight back"),
    (_no_crime, "no space is a crime scene"),
    (_eleven_cards, "the thief deck has 11 cards; it must have 12"),
    (_retire_below_start, "money for 3 players: retire 2000 is not more than start 3000"),
    (_money_twice, "money for 2 players: is given twice"),
    (_start_not_subway, "investigators_start 5: is not a subway space"),
    (_same_place, "space 2 (inside, room \"Shop\"): is drawn at [0.0, 0.0] like space 1"),
])
def test_each_rule_broken_is_named_with_its_space(break_it, expected):
    obj = tiny_dict()
    break_it(obj)
    found = problems_of(obj)
    assert any(p.startswith(expected) for p in found), found


@pytest.mark.parametrize("edit, expected", [
    (lambda o: space(o, 2).update(kind="roof"), "space 2: kind 'roof' is not known; use one of "
                                                "inside, outside, door, window, subway, circle"),
    (lambda o: space(o, 2).update(colour="red"), "space 2: key 'colour' is not known"),
    (lambda o: space(o, 2).pop("building"), "space 2 (inside): needs the building it is in"),
    (lambda o: space(o, 5).update(building="Shop"), "space 5 (outside): only inside spaces have "
                                                    "a building or room"),
    (lambda o: space(o, 2).pop("at"), "space 2: at None must be [x, y]"),
    (lambda o: space(o, 2).update(at=[1, float("nan")]), "space 2: at [1, nan] must be [x, y]"),
    (lambda o: space(o, 2).update(number=0), "[[space]] entry 2: number 0 must be a whole "
                                             "number from 1 to 9999"),
    (lambda o: space(o, "c1").pop("id"), "[[space]] entry 9 (circle): needs an id"),
    (lambda o: space(o, "c1").update(number=12), "circle \"c1\": has a number (12)"),
    (lambda o: space(o, 2).update(crime="yes"), "space 2: crime 'yes' must be true or false"),
    (lambda o: o["paths"].append([5]), "paths entry 5 ([5]) must list 2 or more spaces"),
    (lambda o: o["thief"][3].update(reward=0), "thief card 4: reward 0 must be whole dollars"),
    (lambda o: o["money"][0].update(players=9), "money entry 1: players 9 must be a number of "
                                                "players from 1 to 6"),
    (lambda o: o.update(name=""), "name '' must be the board's name"),
    (lambda o: o.update(colour="red"), "the board: key 'colour' is not known"),
])
def test_each_wrongly_written_entry_is_named(edit, expected):
    obj = tiny_dict()
    edit(obj)
    found = problems_of(obj)
    assert any(p.startswith(expected) for p in found), found


def test_every_problem_is_reported_at_once():
    obj = tiny_dict()
    _no_crime(obj)
    _eleven_cards(obj)
    _path_to_nowhere(obj)
    with pytest.raises(BoardError) as info:
        board_from_dict(obj)
    assert len(info.value.problems) == 3
    assert str(info.value).startswith("3 problems: ")
    assert isinstance(info.value, ConfigError) and isinstance(info.value, ValueError)


def test_validate_board_is_empty_for_a_good_board():
    assert validate_board(tiny()) == []
    assert validate_board(sample_town()) == []


# --- The sample town ----------------------------------------------------------------------------

def test_the_sample_town_has_what_the_issue_asks_for():
    board = sample_town()
    kinds = [board.space(n).kind for n in board.numbers]
    buildings = {s.building for s in board.spaces if s.kind == "inside"}
    rooms = {s.area for s in board.spaces if s.kind == "inside"}
    assert board.name == "Port Pilfer"
    assert len(buildings) >= 4 and len(rooms) > len(buildings)     # some have several rooms
    assert kinds.count("door") >= 6 and kinds.count("window") >= 3
    assert kinds.count("subway") == 2 and kinds.count("outside") >= 10
    assert len(board.crime_scenes) >= 4
    assert any(s.kind == "circle" for s in board.spaces)
    assert len(board.thieves) == 12 and all(c.reward > 0 for c in board.thieves)
    assert sorted(row.players for row in board.money) == [2, 3, 4, 5, 6]
    assert {row.start for row in board.money} == {3000}            # the rulebook's $3,000
    assert board.space(board.investigators_start).kind == "subway"


def test_the_sample_town_is_packaged_with_the_rig():
    assert sample_town_text().startswith("# Port Pilfer")


def test_read_board_names_the_file(tmp_path):
    good = tmp_path / "town.json"
    good.write_text(TINY_TEXT, encoding="utf-8")
    assert read_board(good) == tiny()
    bad = tmp_path / "broken.toml"
    bad.write_text(sample_town_text().replace("crime = true", "crime = false"), encoding="utf-8")
    with pytest.raises(BoardError, match=r"broken\.toml: no space is a crime scene"):
        read_board(bad)
    with pytest.raises(ConfigError, match=r"town\.txt: a board file ends in \.toml or \.json"):
        read_board(tmp_path / "town.txt")
    with pytest.raises(ConfigError, match=r"missing\.toml: cannot read the board"):
        read_board(tmp_path / "missing.toml")


# --- Fuzz: whatever the text, one BoardError ----------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=True) |
    st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=12)

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=200), st.sampled_from(["toml", "json"]))
def test_random_text_is_a_board_or_a_board_error(text, fmt):
    try:
        parse_board(text, fmt)
    except BoardError:
        pass


@FUZZ
@given(st.data())
def test_a_mangled_board_is_a_board_or_a_board_error(data):
    obj = copy.deepcopy(tiny_dict())
    for _ in range(data.draw(st.integers(1, 4))):
        target = obj
        while isinstance(target, (dict, list)) and target and data.draw(st.booleans()):
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            key = data.draw(st.sampled_from(keys))
            if not isinstance(target[key], (dict, list)):
                break
            target = target[key]
        if isinstance(target, dict) and target:
            target[data.draw(st.sampled_from(sorted(target)))] = data.draw(JSON_VALUES)
        elif isinstance(target, list) and target:
            target[data.draw(st.integers(0, len(target) - 1))] = data.draw(JSON_VALUES)
    try:
        board_from_dict(obj)
    except BoardError:
        pass
