"""Canine Kleptomaniacs: the card table, the scorer, the dice, the game's end, the recording and
the screen, written from the rulebook (../shared/rulebook/canine-kleptomaniacs.md).

The scoring tests use a small card table of their own (:data:`CARDS`) whose numbers are easy to
add up; the example file's numbers are placeholders and only its format is tested.  Dice cases
find a seed whose first rolls are the faces the case needs (:func:`seed_rolling`), so each case
reads as the rolls it describes.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.core.errors import ConfigError, IllegalMove, RecordingError
from rig.core.gamekit import Sound
from rig.core.msg import from_json
from rig.games.canine import rules as ck
from rig.games.canine.rules import calls, cards, effects as fx, game as g, scoring
from rig.games.canine.rules.cards import (card_table_from_obj, card_table_to_obj,
                                         parse_card_table)
from rig.games.canine.rules.dice import die_face
from rig.games.canine.rules.recording import command_line, header, parse_lines, replay_lines
from rig.games.canine.rules.scoring import (HidingPlace as HP, Holdings, score_bounds,
                                           score_holdings)
from rig.games.canine.rules.views import player_view, public_view
from rig.words import Words, english, english_error, localize

EXAMPLE = Path(__file__).resolve().parents[3] / "rig/games/canine/rules/data/example_cards.toml"
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CARDS = """
action_cards = 10
hiding_places = 20

[[collectable]]
kind = "Slipper"
points = 2
count = 6

[[collectable]]
kind = "Bone"
points = 3
count = 4

[[collectable]]
kind = "Granny's Bloomers"
points = 5
count = 4

[[bedroom]]
name = "Bloomers x3"
points = 8
kind = "Granny's Bloomers"
shows = 3

[[bedroom]]
name = "Laundry Basket"
points = 4
wild = true

[[bedroom]]
name = "Wacky Earplugs"
points = 6

[[bedroom]]
name = "Ultimate Hiding Place"
hiding_place = true

[[doggy]]
name = "Rex"
targets = ["Slipper", "Bone"]
bonus_per_card = 2
power = "charm-offensive"

[[doggy]]
name = "Fido"
targets = ["Granny's Bloomers"]
bonus_at = [[2, 5], [4, 10]]

[[doggy]]
name = "Lady"
targets = ["Bone"]
bonus_per_card = 1
power = "puppy-eyes"

[[doggy]]
name = "Tramp"
targets = ["Slipper"]
bonus_per_card = 1
"""
TABLE = parse_card_table(CARDS)
PLAYERS = ("Ana", "Ben", "Caro", "Dan")


def refused(words, fn, *args, **kwargs):
    """``fn`` raises IllegalMove whose message, said in English, contains every one of
    ``words``."""
    with pytest.raises(IllegalMove) as info:
        fn(*args, **kwargs)
    said = english_error(info.value)
    for word in words:
        assert word in said, (word, said)
    return info.value


# === The card table ==============================================================================

def test_the_example_table_parses_and_says_its_numbers_are_placeholders():
    text = EXAMPLE.read_text(encoding="utf-8")
    table = parse_card_table(text)
    assert table.placeholder is True
    assert "EVERY NUMBER IN THIS FILE IS A PLACEHOLDER" in text
    assert {"Slipper", "Grotty Balls", "Basic Socks", "Granny's Bloomers"} <= set(table.kinds)
    assert {"Laundry Basket", "Ultimate Hiding Place", "Wacky Earplugs",
            "Granny's False Teeth"} <= set(table.bedroom_cards)
    assert table.kinds["Granny's Bloomers"].points == 5       # the rulebook's one hint
    assert {d.power for d in table.doggies} <= set(cards.POWERS)


def test_the_package_ships_the_example_table():
    from importlib import resources
    text = resources.files("rig.games.canine.rules").joinpath(
        "data/example_cards.toml").read_text("utf-8")
    assert parse_card_table(text).placeholder


def test_a_table_round_trips_through_json_as_the_recording_header_holds_it():
    for table in (TABLE, parse_card_table(EXAMPLE.read_text(encoding="utf-8"))):
        text = json.dumps(card_table_to_obj(table))
        assert parse_card_table(text) == table
        assert card_table_from_obj(json.loads(text)) == table


def test_doggy_bonus_per_card_and_by_steps():
    assert TABLE.doggy_cards["Rex"].bonus(5) == 10
    fido = TABLE.doggy_cards["Fido"]
    assert [fido.bonus(n) for n in range(6)] == [0, 0, 5, 5, 10, 10]


def _table_with(section, index, **changes):
    obj = card_table_to_obj(TABLE)
    entry = dict(obj[section][index]) if section in obj else None
    if entry is None:
        obj.update(changes)
        return obj
    for key, value in changes.items():
        if value is _DROP:
            entry.pop(key, None)
        else:
            entry[key] = value
    obj[section] = obj[section][:index] + [entry] + obj[section][index + 1:]
    return obj


_DROP = object()


@pytest.mark.parametrize("obj, words", [
    (_table_with("collectable", 0, points=-1), ["collectable 'Slipper'", "points -1",
                                                 "0 to 1000"]),
    (_table_with("collectable", 0, points=True), ["points True"]),
    (_table_with("collectable", 1, count=0), ["collectable 'Bone'", "how many Bone"]),
    (_table_with("collectable", 1, kind="Slipper"), ["'Slipper' is used twice"]),
    (_table_with("collectable", 0, colour="red"), ["key 'colour' is not known"]),
    (_table_with("collectable", 0, kind=cards.PAW), ["special card", "who holds it"]),
    (_table_with("bedroom", 0, kind="Teacup"), ["bedroom 'Bloomers x3'", "'Teacup'",
                                                "not a Collectable"]),
    (_table_with("bedroom", 0, shows=_DROP), ["shows is missing", "x3"]),
    (_table_with("bedroom", 1, kind="Slipper", shows=2), ["kind and wild are exclusive"]),
    (_table_with("bedroom", 3, points=5), ["Ultimate Hiding Place'", "remove points"]),
    (_table_with("bedroom", 2, shows=2), ["shows needs a kind"]),
    (_table_with("bedroom", 2, name="Slipper"), ["'Slipper' is used twice"]),
    (_table_with("doggy", 0, targets=["Teacup"]), ["doggy 'Rex'", "target 'Teacup'"]),
    (_table_with("doggy", 0, targets=[]), ["targets []", "bottom left"]),
    (_table_with("doggy", 0, targets=["Bone", "Bone"]), ["repeat a kind"]),
    (_table_with("doggy", 0, bonus_at=[[2, 5]]), ["exactly one of bonus_per_card"]),
    (_table_with("doggy", 1, bonus_at=_DROP), ["doggy 'Fido'", "exactly one of"]),
    (_table_with("doggy", 1, bonus_at=[[4, 10], [2, 5]]), ["does not follow [4, 10]"]),
    (_table_with("doggy", 1, bonus_at=[[2, 10], [4, 5]]), ["points never falling"]),
    (_table_with("doggy", 0, power="flying"), ["power 'flying'", "charm-offensive"]),
    (_table_with("doggy", 0, name=""), ["name '' must be the name printed on the card"]),
    (_table_with("x", 0, action_cards=0), ["action_cards 0", "Action cards"]),
    (_table_with("x", 0, die_faces=4), ["die_faces 4", "six"]),
    (_table_with("x", 0, placeholder="yes"), ["placeholder 'yes'", "true or false"]),
    (_table_with("x", 0, collectable=[]), ["lists no collectable"]),
    (_table_with("x", 0, cards=3), ["key 'cards' is not known"]),
    ([1, 2], ["must be a table of keys"]),
])
def test_a_bad_card_table_is_refused_naming_the_card_and_the_fix(obj, words):
    with pytest.raises(ConfigError) as info:
        card_table_from_obj(obj)
    for word in words:
        assert word in str(info.value), (word, str(info.value))


@pytest.mark.parametrize("text, words", [
    ("placeholder = \n", ["not TOML", "example_cards.toml"]),
    ("{\"collectable\": ", ["not JSON"]),
    ("", ["lists no collectable"]),
])
def test_card_table_text_that_does_not_parse_is_refused(text, words):
    with pytest.raises(ConfigError) as info:
        parse_card_table(text)
    for word in words:
        assert word in str(info.value)


@FAST
@given(st.text(max_size=200))
def test_fuzz_the_card_table_parser_on_any_text(text):
    try:
        assert isinstance(parse_card_table(text), cards.CardTable)
    except ConfigError:
        pass


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@FAST
@given(st.sampled_from(["collectable", "bedroom", "doggy"]), st.integers(0, 3),
       st.sampled_from(["kind", "name", "points", "count", "shows", "wild", "hiding_place",
                        "targets", "bonus_per_card", "bonus_at", "power", "extra"]),
       _json_values)
def test_fuzz_the_card_table_parser_on_mutated_tables(section, index, key, value):
    obj = card_table_to_obj(TABLE)
    entry = dict(obj[section][index % len(obj[section])])
    entry[key] = value
    obj[section][index % len(obj[section])] = entry
    try:
        table = card_table_from_obj(json.loads(json.dumps(obj)))
    except ConfigError:
        return
    assert card_table_from_obj(card_table_to_obj(table)) == table


# === The scorer ==================================================================================

def totals(holdings, doggy=None, rule="off", table=TABLE):
    score = score_holdings(table, holdings, doggy, rule)
    return score.total, [line.points for line in score.lines]


@pytest.mark.parametrize("what, holdings, doggy, rule, total, points", [
    ("a set of two", Holdings((HP(("Slipper", "Slipper")),)), None, "off", 4, [4]),
    ("a set of three", Holdings((HP(("Bone",) * 3),)), None, "off", 9, [9]),
    ("two hiding places", Holdings((HP(("Bone",) * 2), HP(("Slipper",) * 2))), None, "off",
     10, [6, 4]),
    ("an empty hiding place scores nothing", Holdings((HP(()),)), None, "off", 0, [0]),
    ("Laundry Basket: two of the place's kind",
     Holdings((HP(("Slipper", "Laundry Basket")),)), None, "off", 6, [6]),
    ("Laundry Basket alone, standing for Bones",
     Holdings((HP(("Laundry Basket",), wild_as="Bone"),)), None, "off", 6, [6]),
    ("Master's Bedroom set: x3 counts as 3 x 5", Holdings((HP(("Bloomers x3",)),)), None, "off",
     15, [15]),
    ("Master's Bedroom set with a matching card", Holdings(
        (HP(("Bloomers x3", "Granny's Bloomers")),)), None, "off", 20, [20]),
    ("Ultimate Hiding Place doubles", Holdings((HP(("Bone",) * 2, ultimate=True),)), None,
     "off", 12, [12]),
    ("Ultimate with a Bedroom set and the Basket", Holdings(
        (HP(("Bloomers x3", "Laundry Basket"), ultimate=True),)), None, "off", 50, [50]),
    ("face-up Master's Bedroom cards at face value", Holdings(
        face_up=("Wacky Earplugs", "Bloomers x3", "Laundry Basket")), None, "off", 18,
     [6, 8, 4]),
    ("doggy bonus per target Collectable", Holdings(
        (HP(("Slipper",) * 3), HP(("Bone",) * 2), HP(("Granny's Bloomers",) * 2))), "Rex", "off",
     6 + 6 + 10 + 10, [6, 6, 10, 10]),
    ("doggy steps count a Bedroom set as what it shows", Holdings(
        (HP(("Bloomers x3", "Granny's Bloomers")),)), "Fido", "off", 30, [20, 10]),
    ("doggy counts the Laundry Basket as two", Holdings(
        (HP(("Bone", "Laundry Basket")),)), "Lady", "off", 12, [9, 3]),
    ("a doggy with no target hidden", Holdings((HP(("Bone",) * 2),)), "Fido", "off", 6, [6, 0]),
    ("Ultimate Paw of Pilferage: +30", Holdings(paw=True), None, "off", 30, [30]),
    ("Poo Pizza: -30", Holdings(poo_pizza=True), None, "off", -30, [-30]),
    ("Poo Pizza with a set", Holdings((HP(("Bone",) * 2),), poo_pizza=True), None, "off", -24,
     [6, -30]),
    ("optional rule off: all six Slippers score once", Holdings(
        (HP(("Slipper",) * 3), HP(("Slipper",) * 3), HP(("Bone",) * 2))), None, "off", 18,
     [6, 6, 6]),
    ("optional rule, all hidden cards doubled", Holdings(
        (HP(("Slipper",) * 3), HP(("Slipper",) * 3), HP(("Bone",) * 2))), None, "all-hidden",
     36, [6, 6, 6, 18]),
    ("optional rule, only the completed kind doubled", Holdings(
        (HP(("Slipper",) * 3), HP(("Slipper",) * 3), HP(("Bone",) * 2))), None, "that-kind",
     30, [6, 6, 6, 12]),
    ("optional rule counts Collectables cards, not a Bedroom set", Holdings(
        (HP(("Bloomers x3", "Granny's Bloomers", "Granny's Bloomers", "Granny's Bloomers")),)),
     None, "all-hidden", 30, [30]),
    ("optional rule on top of the Ultimate", Holdings(
        (HP(("Bone",) * 4, ultimate=True),)), None, "that-kind", 48, [24, 24]),
    ("optional rule without a completed kind", Holdings((HP(("Bone",) * 3),)), None,
     "all-hidden", 9, [9]),
])
def test_scoring_from_the_rulebook(what, holdings, doggy, rule, total, points):
    assert totals(holdings, doggy, rule) == (total, points), what


def test_each_line_says_what_it_counts():
    score = score_holdings(TABLE, Holdings(
        (HP(("Slipper", "Slipper", "Laundry Basket"), ultimate=True), HP(())),
        ("Wacky Earplugs",), paw=True, poo_pizza=True), "Rex", "all-hidden")
    assert [english(calls.line_words(line)) for line in score.lines] == [
        "Hiding place 1 (Ultimate): 2 Slipper and Laundry Basket: 4 x 2 x 2 = 16",
        "Hiding place 2: empty: 0",
        "Wacky Earplugs face up: 6",
        "Rex: 4 target Collectables: +8",
        "Ultimate Paw of Pilferage: +30",
        "Poo Pizza: -30",
    ]
    done = score_holdings(TABLE, Holdings((HP(("Bone",) * 4),)), None, "that-kind")
    assert english(calls.line_words(done.lines[-1])) == \
        "All of a kind (Bone): hidden Bone doubled: +12"


@pytest.mark.parametrize("holdings, words", [
    (Holdings((HP(("Slipper", "Bone")),)), ["Hiding place 1 mixes Bone and Slipper",
                                            "ONE kind"]),
    (Holdings((HP(("Bone", "Bone")), HP(("Slipper",)))), ["Hiding place 2 holds a single "
                                                          "Slipper", "TWO OR MORE"]),
    (Holdings((HP(("Bloomers x3", "Slipper", "Slipper")),)), ["mixes Granny's Bloomers and "
                                                              "Slipper"]),
    (Holdings((HP(("Laundry Basket",)),)), ["only the Laundry Basket", "which kind"]),
    (Holdings((HP(("Bone", "Bone"), wild_as="Bone"),)), ["no Laundry Basket is on it"]),
    (Holdings((HP(("Laundry Basket", "Bone"), wild_as="Slipper"),)), ["mixes Bone and "
                                                                      "Slipper"]),
    (Holdings((HP(("Laundry Basket",), wild_as="Teacup"),)), ["cannot stand for Teacup"]),
    (Holdings((HP(("Bone", "Bone", cards.PAW)),)), ["Ultimate Paw of Pilferage is held, not "
                                                    "hidden"]),
    (Holdings((HP((cards.POO_PIZZA, "Bone", "Bone")),)), ["Poo Pizza is held"]),
    (Holdings((HP(("Wacky Earplugs", "Bone", "Bone")),)), ["Wacky Earplugs", "shows no "
                                                           "Collectables", "face up"]),
    (Holdings((HP(("Ultimate Hiding Place", "Bone", "Bone")),)), ["is a Hiding Place, not a "
                                                                  "card to hide"]),
    (Holdings((HP(("Teacup", "Teacup")),)), ["Teacup on Hiding place 1 is not a card",
                                             "Slipper, Bone"]),
    (Holdings(face_up=("Bone",)), ["Bone is a Collectable", "hide it"]),
    (Holdings(face_up=("Ultimate Hiding Place",)), ["scores what is hidden on it"]),
    (Holdings(face_up=(cards.PAW,)), ["held, not laid face up"]),
    (Holdings(face_up=("Teacup",)), ["Teacup is not a Master's Bedroom card"]),
    (Holdings((HP(("Slipper",) * 4), HP(("Slipper",) * 3))), ["7 Slipper cards are counted",
                                                              "says 6 exist"]),
    (Holdings((HP(("Bone",) * 2, ultimate=True), HP(("Slipper",) * 2, ultimate=True))),
     ["2 Ultimate Hiding Place cards", "1 exist"]),
    (Holdings(face_up=("Wacky Earplugs", "Wacky Earplugs")), ["2 Wacky Earplugs cards"]),
    (Holdings(tuple(HP(()) for _ in range(21))), ["21 Hiding Place cards", "20 exist"]),
])
def test_an_illegal_table_area_is_refused_with_the_reason(holdings, words):
    refused(words, score_holdings, TABLE, holdings)


def test_an_unknown_doggy_or_setting_is_refused():
    refused(["Doggy Snoopy is not in the card table", "Rex"], score_holdings, TABLE,
            Holdings(), "Snoopy")
    refused(["optional rule 'sometimes'", "all-hidden"], score_holdings, TABLE, Holdings(),
            None, "sometimes")


@pytest.mark.parametrize("obj, words", [
    ([], ["cannot read ({hiding_places, face_up, paw, poo_pizza})"]),
    ({"hand": []}, ["cannot read ('hand')"]),
    ({"hiding_places": {}}, ["cannot read (hiding_places)"]),
    ({"hiding_places": [{"cards": "Bone"}]}, ["cannot read (hiding_places[1].cards)"]),
    ({"hiding_places": [{"cards": [], "secret": 1}]}, ["cannot read (hiding_places[1])"]),
    ({"hiding_places": [{"cards": [], "wild_as": 3}]}, ["(hiding_places[1].wild_as)"]),
    ({"paw": "yes"}, ["cannot read (paw)", "reload the page"]),
    ({"face_up": [1]}, ["cannot read (face_up)"]),
])
def test_bad_json_from_a_phone_is_refused_naming_the_field(obj, words):
    refused(words, scoring.holdings_from_json, obj)


def test_holdings_json_round_trips():
    h = Holdings((HP(("Bone", "Laundry Basket"), True, "Bone"), HP(())), ("Wacky Earplugs",),
                 True, False)
    assert scoring.holdings_from_json(json.loads(json.dumps(scoring.holdings_to_json(h)))) == h


# --- properties: a table and legal areas, generated ------------------------------------------------

@st.composite
def tables(draw):
    """A card table: 1-5 kinds, some Bedroom sets, maybe a Basket and an Ultimate, doggies."""
    n = draw(st.integers(1, 5))
    kinds = ["Kind %d" % i for i in range(n)]
    obj = {"action_cards": draw(st.integers(1, 50)), "collectable": [
        {"kind": k, "points": draw(st.integers(0, 12)), "count": draw(st.integers(1, 8))}
        for k in kinds]}
    bedroom = []
    for i in range(draw(st.integers(0, 3))):
        bedroom.append({"name": "Set %d" % i, "points": draw(st.integers(0, 15)),
                        "count": draw(st.integers(1, 2)), "kind": draw(st.sampled_from(kinds)),
                        "shows": draw(st.integers(1, 4))})
    if draw(st.booleans()):
        bedroom.append({"name": "Basket", "points": draw(st.integers(0, 9)), "wild": True,
                        "count": draw(st.integers(1, 2))})
    if draw(st.booleans()):
        bedroom.append({"name": "Ultimate", "hiding_place": True})
    bedroom.append({"name": "Plain", "points": draw(st.integers(0, 9))})
    obj["bedroom"] = bedroom
    doggies = []
    for i in range(draw(st.integers(0, 3))):
        dog = {"name": "Dog %d" % i,
               "targets": draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3,
                                        unique=True))}
        if draw(st.booleans()):
            dog["bonus_per_card"] = draw(st.integers(0, 5))
        else:
            dog["bonus_at"] = [[2, 3], [5, 8], [9, 20]]
        doggies.append(dog)
    obj["doggy"] = doggies
    return card_table_from_obj(obj)


def _supply(table):
    left = {c.kind: c.count for c in table.collectables}
    left.update((c.name, c.count) for c in table.bedroom)
    return left


@st.composite
def legal_place(draw, table, left, ultimate_left):
    """One legal hiding place drawn from what is ``left`` (updated), or None."""
    kind = draw(st.sampled_from(sorted(table.kinds)))
    cards_ = ["%s" % kind] * draw(st.integers(0, left[kind]))
    for card in table.bedroom:
        if (card.kind == kind or card.wild) and left[card.name] and draw(st.booleans()):
            cards_.append(card.name)
    counted = sum(1 for c in cards_ if c == kind) + sum(
        table.bedroom_cards[c].shows or (2 if table.bedroom_cards[c].wild else 0)
        for c in cards_ if c != kind)
    if counted < 2:
        return None
    for c in cards_:
        left[c] -= 1
    wilds = [c for c in cards_ if c in table.bedroom_cards and table.bedroom_cards[c].wild]
    only_wild = len(wilds) == len(cards_)
    wild_as = kind if wilds and (only_wild or draw(st.booleans())) else None
    ultimate = ultimate_left[0] > 0 and draw(st.booleans())
    ultimate_left[0] -= ultimate
    return HP(tuple(draw(st.permutations(cards_))), ultimate, wild_as)


@st.composite
def table_and_area(draw):
    table = draw(tables())
    left = _supply(table)
    ultimate_left = [sum(c.count for c in table.bedroom if c.hiding_place)]
    places = []
    for _ in range(draw(st.integers(0, 4))):
        place = draw(legal_place(table, left, ultimate_left))
        if place is not None:
            places.append(place)
    face_up = [c.name for c in table.bedroom
               if not c.hiding_place and left[c.name] and draw(st.booleans())]
    for name in face_up:
        left[name] -= 1
    doggy = draw(st.sampled_from([None] + [d.name for d in table.doggies]))
    holdings = Holdings(tuple(places), tuple(face_up), draw(st.booleans()), draw(st.booleans()))
    return table, holdings, doggy, left, ultimate_left, draw(st.sampled_from(
        scoring.OPTIONAL_RULES))


@FAST
@given(table_and_area())
def test_property_a_score_stays_within_the_bounds_the_card_table_allows(case):
    table, holdings, doggy, _, _, rule = case
    low, high = score_bounds(table, rule)
    assert low <= score_holdings(table, holdings, doggy, rule).total <= high


@FAST
@given(table_and_area())
def test_property_every_card_is_counted_on_exactly_one_line(case):
    table, holdings, doggy, _, _, rule = case
    score = score_holdings(table, holdings, doggy, rule)
    counted = sorted(c for line in score.lines for c in line.cards)
    shown = [c for p in holdings.hiding_places for c in p.cards] + list(holdings.face_up)
    shown += [cards.PAW] * holdings.paw + [cards.POO_PIZZA] * holdings.poo_pizza
    assert counted == sorted(shown)
    assert score.total == sum(line.points for line in score.lines)


@FAST
@given(table_and_area(), st.data())
def test_property_adding_a_legal_set_never_lowers_a_score(case, data):
    table, holdings, doggy, left, ultimate_left, rule = case
    place = data.draw(legal_place(table, left, ultimate_left))
    if place is None:
        return
    before = score_holdings(table, holdings, doggy, rule).total
    more = Holdings(holdings.hiding_places + (place,), holdings.face_up, holdings.paw,
                    holdings.poo_pizza)
    assert score_holdings(table, more, doggy, rule).total >= before


# === The dice ====================================================================================

def seed_rolling(*faces, start=0):
    """The first seed whose first rolls are ``faces`` (so a case reads as its rolls)."""
    for seed in range(start, start + 200000):
        if all(die_face(seed, n) == face for n, face in enumerate(faces)):
            return seed
    raise AssertionError("no seed rolls %r" % (faces,))


def test_the_nth_roll_is_a_pure_function_of_seed_and_n():
    rolls = [die_face(7, n) for n in range(600)]
    assert rolls == [die_face(7, n) for n in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert 60 < rolls.count(6) < 140
    assert [die_face(8, n) for n in range(20)] != rolls[:20]
    assert {die_face(1, n, 20) for n in range(400)} == set(range(1, 21))


def play(faces, *commands, players=PLAYERS, doggies=(), **settings):
    """A game whose dice roll ``faces`` first, stepped through ``commands``; returns the game
    and every effect."""
    game = g.new_game(players, TABLE, seed=seed_rolling(*faces), **settings)
    for p, d in doggies:
        game, _ = g.step(game, g.ChooseDoggy(0.0, p, d))
    return play_on(game, *commands)


def play_on(game, *commands):
    out = []
    for command in commands:
        game, effects = g.step(game, command)
        out += effects
    return game, out


def roll(n, by=None):
    return [g.Roll(1.0 + i, by) for i in range(n)]


def decided(effects):
    return [e.call for e in effects if isinstance(e, fx.CallDecided)]


@pytest.mark.parametrize("parity, discards, faces, won, rolled", [
    ("odd", 0, [3], True, 1),
    ("odd", 0, [4], False, 1),
    ("even", 0, [6], True, 1),
    ("even", 2, [1, 3, 5], False, 3),
    ("even", 2, [1, 2], True, 2),
    ("odd", 1, [5], True, 1),
])
def test_key_to_the_masters_bedroom(parity, discards, faces, won, rolled):
    game, effects = play(faces, g.PlayCard(0.0, "Ben", "key", parity=parity, discards=discards),
                         *roll(rolled, "Ben"))
    call, = decided(effects)
    assert (call.won, len(call.rolls), call.tries) == (won, rolled, 1 + discards)
    assert [f for _, f in call.rolls] == faces[:rolled]
    assert game.call is None
    refused(["Nothing calls for the die"], g.step, game, g.Roll(9.0, "Ben"))


@pytest.mark.parametrize("by, face, holder", [
    ("Caro", 1, "Dan"), ("Caro", 2, "Ana"), ("Caro", 3, "Ben"), ("Caro", 4, "Caro"),
    ("Dan", 6, "Ben"),
    ("Ana", 2, "Caro"),
])
def test_rancid_badger_poo_passes_that_many_players_clockwise(by, face, holder):
    _, effects = play([face], g.PlayCard(0.0, by, "badger"), *roll(1, by))
    call, = decided(effects)
    assert call.holder == holder
    assert "to %s, who discards 2 Collectables" % holder in english(calls.outcome_words(call))


def test_squirrel_everyone_rolls_in_turn_clockwise_until_the_first_six():
    game, effects = play([2, 3, 5, 1, 6], g.PlayCard(0.0, "Ben", "squirrel"))
    order = []
    for i in range(5):
        order.append(game.call.whose_roll)
        game, effects = g.step(game, g.Roll(1.0 + i, order[-1]))
    assert order == ["Ben", "Caro", "Dan", "Ana", "Ben"]
    call, = decided(effects)
    assert call.winner == "Ben"
    assert english(calls.outcome_words(call)) == ("Ben rolled the first six: Ben picks up 5 "
                                                  "cards from the Collectables pile.")


def test_squirrel_refuses_a_roll_out_of_turn():
    game, _ = play([2], g.PlayCard(0.0, "Ben", "squirrel"))
    before = game
    refused(["It is Ben's roll for the Squirrel, not Caro's"], g.step, game, g.Roll(1.0, "Caro"))
    assert game == before


@pytest.mark.parametrize("faces, power, won, tries", [
    ([1, 2, 3], False, False, 3),
    ([5, 6], False, True, 3),
    ([6], False, True, 3),
    ([1, 2, 3, 4, 6], True, True, 5),
    ([1, 2, 3, 4, 5], True, False, 5),
])
def test_charm_offensive_three_tries_for_a_six_five_with_the_doggy_power(faces, power, won,
                                                                         tries):
    game, effects = play(faces, g.PlayCard(0.0, "Ana", "charm", thief="Ben", power=power),
                         *roll(len(faces), "Ana"), doggies=[("Ana", "Rex")])
    call, = decided(effects)
    assert (call.won, call.tries, len(call.rolls)) == (won, tries, len(faces))
    words = english(calls.outcome_words(call))
    assert ("Ben's steal is prevented" in words) == won
    assert ("Ben's steal goes ahead" in words) == (not won)


@pytest.mark.parametrize("command, doggies, words", [
    (g.PlayCard(0.0, "Ana", "charm", thief="Ana"), (), ["cannot charm themselves"]),
    (g.PlayCard(0.0, "Ana", "charm", thief="Zed"), (), ["who is trying to steal: Zed is not a "
                                                        "player"]),
    (g.PlayCard(0.0, "Ana", "charm", thief="Ben", power=True), (), ["has not told the rig their"
                                                                    " doggy"]),
    (g.PlayCard(0.0, "Ana", "charm", thief="Ben", power=True), (("Ana", "Lady"),),
     ["Lady has no Charm Offensive power"]),
    (g.PlayCard(0.0, "Ana", "key"), (), ["odd or an even number", "not None"]),
    (g.PlayCard(0.0, "Ana", "key", parity="odd", discards=-1), (), ["Cards discarded (-1)"]),
    (g.PlayCard(0.0, "Ana", "key", parity="odd", discards=99), (), ["0 to 14"]),
    (g.PlayCard(0.0, "Ana", "squirrel", parity="odd"), (), ["belong to the Key"]),
    (g.PlayCard(0.0, "Ana", "badger", thief="Ben"), (), ["belong to the Charm Offensive"]),
    (g.PlayCard(0.0, "Ana", "fluffy-rumble"), (), ["does not call for the die", "Squirrel"]),
    (g.PlayCard(0.0, "Zed", "squirrel"), (), ["Zed is not a player", "Ana, Ben"]),
    (g.Roll(0.0, "Ana"), (), ["Nothing calls for the die", "play the action card first"]),
])
def test_an_action_card_the_rig_cannot_roll_for_is_refused(command, doggies, words):
    game, _ = play([1], doggies=doggies)
    refused(words, g.step, game, command)


def test_one_call_at_a_time_and_no_draw_while_the_die_is_out():
    game, _ = play([2], g.PlayCard(0.0, "Ben", "squirrel"))
    for command in (g.PlayCard(1.0, "Ana", "key", parity="odd"), g.DrawAction(1.0, "Ana")):
        refused(["Wait: the Squirrel is being carried out", "Ben's roll"], g.step, game,
                command)


def test_no_die_is_used_twice_and_each_roll_is_the_seeds():
    game, effects = play([1, 2, 3], g.PlayCard(0.0, "Ana", "squirrel"))
    while game.call is not None:
        game, more = g.step(game, g.Roll(1.0))
        effects += more
    game, more = play_on(game, g.PlayCard(2.0, "Ana", "key", parity="odd", discards=3),
                         g.Roll(3.0))
    numbers = [e.number for e in effects + more if isinstance(e, fx.Rolled)]
    assert numbers == list(range(len(game.rolls)))
    assert [f for _, _, f in game.rolls] == [die_face(game.seed, n) for n in numbers]


def test_a_recorded_face_that_is_not_the_seeds_is_refused():
    game, _ = play([4], g.PlayCard(0.0, "Ana", "badger"))
    refused(["roll 0 is recorded as 5, which is not what the header's seed rolls"], g.step,
            game, g.Roll(1.0, "Ana", 5))
    with pytest.raises(IllegalMove) as refusal:     # never the face the seed rolls (issue 28)
        g.step(game, g.Roll(1.0, "Ana", 5))
    assert "4" not in str(refusal.value) and str(game.seed) not in str(refusal.value)
    assert g.step(game, g.Roll(1.0, "Ana", 4))[0].calls[0].holder == "Ana"


# === The game's end ==============================================================================

def test_the_action_pile_counts_down_to_the_end():
    game = g.new_game(PLAYERS, TABLE)
    assert game.left == game.first_pile == 10 + 2 * 4   # the Hiding Places dealt in
    for i in range(game.left - 1):
        game, effects = g.step(game, g.DrawAction(float(i), "Ana"))
    assert effects == [fx.ActionDrawn(float(i), "Ana", 1, 1)]
    game, effects = g.step(game, g.DrawAction(20.0))
    assert [type(e) for e in effects] == [fx.ActionDrawn, fx.PileRanOut, fx.GameOver]
    assert game.over == "action"
    refused(["game is over (the Action pile ran out)"], g.step, game, g.DrawAction(21.0))
    refused(["game is over"], g.step, game, g.DeckEmpty(21.0, None, "collectables"))


def test_the_table_may_say_the_action_pile_is_empty_and_it_wins():
    game, effects = g.step(g.new_game(PLAYERS, TABLE), g.DeckEmpty(5.0, "Ben", "action"))
    assert game.over == "action" and game.left == 0
    assert english(calls.words(effects[0])) == "The Action pile has run out: the game is over."


def test_the_collectables_pile_running_out_ends_only_the_longer_games_second_pile():
    game, effects = g.step(g.new_game(PLAYERS, TABLE), g.DeckEmpty(1.0, None, "collectables"))
    assert game.over is None and effects[0].then == "play-on"
    longer = g.new_game(PLAYERS, TABLE, longer_game=True)
    longer, _ = g.step(longer, g.DeckEmpty(1.0, None, "collectables"))
    assert longer.over is None
    longer, effects = g.step(longer, g.DeckEmpty(2.0, None, "action"))
    assert effects == [fx.PileRanOut(2.0, "action", "reshuffle", 10 + 4)]
    assert (longer.pile, longer.left, longer.over) == (2, 14, None)
    assert "add one more Hiding Place per player: 14 cards" in english(calls.words(effects[0]))
    over, _ = g.step(longer, g.DeckEmpty(3.0, None, "collectables"))
    assert over.over == "collectables"
    for i in range(14):
        longer, effects = g.step(longer, g.DrawAction(4.0 + i))
    assert longer.over == "action" and isinstance(effects[-1], fx.GameOver)


@pytest.mark.parametrize("players, settings, words", [
    (("Ana",), {}, ["1 player cannot play", "2 to 10"]),
    (("Ana", "Ana"), {}, ["the same name as"]),
    (("Ana", ""), {}, ["empty"]),
    (("Ana", "ANA"), {}, ["the same name as"]),
    (tuple("ABCDEF"), {"longer_game": True}, ["SINGLE ROUND", "at most 5"]),
    (PLAYERS, {"seed": -1}, ["seed -1"]),
    (PLAYERS, {"optional_rule": "yes"}, ["optional rule 'yes'"]),
    (PLAYERS, {"action_pile": 0}, ["action_pile 0"]),
    (PLAYERS, {"longer_game": 1}, ["longer_game 1"]),
])
def test_a_game_that_cannot_be_set_up_is_refused(players, settings, words):
    refused(words, g.new_game, players, TABLE, **settings)


def test_more_than_five_players_play_a_single_round_with_every_hiding_place_dealt():
    game = g.new_game(tuple("ABCDEFGHIJ"), TABLE)
    assert game.first_pile == 10
    few = card_table_from_obj(dict(card_table_to_obj(TABLE), hiding_places=14))
    refused(["5 players need 15 Hiding Places (3 each) but the card table has 14"],
            g.new_game, tuple("ABCDE"), few)
    assert g.new_game(tuple("ABCD"), few).first_pile == 18


def test_scores_are_entered_only_after_the_end():
    game, _ = play([1], doggies=[("Ana", "Rex")])
    refused(["entered when the game has ended", "18 Action cards are left"], g.step, game,
            g.Reveal(1.0, "Ana", Holdings()))


def test_the_last_card_drawn_can_still_be_rolled_for_until_the_scoring_begins():
    game, _ = play([3], g.DeckEmpty(1.0, None, "action"), g.PlayCard(2.0, "Ana", "badger"),
                   doggies=[("Ana", "Rex"), ("Ben", "Fido")])
    refused(["Wait: the Rancid Badger Poo is being carried out"], g.step, game,
            g.Reveal(3.0, "Ana", Holdings()))
    game, _ = g.step(game, g.Roll(3.0))
    game, _ = g.step(game, g.Reveal(4.0, "Ana", Holdings()))
    refused(["scoring has begun"], g.step, game, g.PlayCard(5.0, "Ben", "squirrel"))


# === Doggies, entries and the final scores =========================================================

def ended(**settings):
    game = g.new_game(PLAYERS, TABLE, **settings)
    for p, d in zip(PLAYERS, ("Rex", "Fido", "Lady", "Tramp")):
        game, _ = g.step(game, g.ChooseDoggy(0.0, p, d))
    game, _ = g.step(game, g.DeckEmpty(1.0, None, "action"))
    return game


def test_doggy_cards_are_one_of_a_kind_and_needed_to_be_scored():
    game = g.new_game(PLAYERS, TABLE)
    up, _ = g.step(game, g.ChooseDoggy(0.0, "Ana", "Rex", True))
    refused(["Ana took Rex already"], g.step, up, g.ChooseDoggy(0.0, "Ben", "Rex"))
    assert "Rex" not in player_view(up, "Ben")["choices"]["doggies"]
    # A card face down is Ana's secret: no refusal, no list of choices tells that it is taken
    # (issue 28: a phone that tried each doggy in turn read hers).
    game, _ = g.step(game, g.ChooseDoggy(0.0, "Ana", "Rex"))
    assert "Rex" in player_view(game, "Ben")["choices"]["doggies"]
    assert g.step(game, g.ChooseDoggy(0.0, "Ben", "Rex"))[0].doggy_of("Ben") == "Rex"
    refused(["Doggy Snoopy is not in the card table"], g.step, game,
            g.ChooseDoggy(0.0, "Ben", "Snoopy"))
    game, _ = g.step(game, g.ChooseDoggy(0.5, "Ana", "Fido"))     # a correction
    assert game.doggy_of("Ana") == "Fido"
    game, _ = g.step(game, g.DeckEmpty(1.0, None, "action"))
    refused(["Ben has not told the rig their doggy card"], g.step, game,
            g.Reveal(2.0, "Ben", Holdings()))


def test_cards_are_counted_once_across_the_players():
    game = ended()
    game, _ = g.step(game, g.Reveal(2.0, "Ana", Holdings((HP(("Slipper",) * 4),), paw=True)))
    before = game
    refused(["8 Slipper cards are counted (Ana 4 and Ben 4)", "6 exist"], g.step, game,
            g.Reveal(3.0, "Ben", Holdings((HP(("Slipper",) * 4),))))
    refused(["Ana and Caro all say they hold the Ultimate Paw of Pilferage"], g.step, game,
            g.Reveal(3.0, "Caro", Holdings(paw=True)))
    refused(["Hiding place 1 holds a single Bone"], g.step, game,
            g.Reveal(3.0, "Caro", Holdings((HP(("Bone",)),))))
    assert game == before


def test_final_scores_once_everyone_is_in_and_a_correction_rescores():
    game = ended()
    entries = {"Ana": Holdings((HP(("Slipper",) * 3),), paw=True),           # 6 + 6 + 30
               "Ben": Holdings((HP(("Bloomers x3",)),)),                     # 15 + 5
               "Caro": Holdings((HP(("Bone",) * 3),), poo_pizza=True),       # 9 + 3 - 30
               "Dan": Holdings((HP(("Slipper",) * 2),), ("Wacky Earplugs",))}  # 4 + 6 + 2
    for i, (p, h) in enumerate(entries.items()):
        game, effects = g.step(game, g.Reveal(2.0 + i, p, h))
    final, fanfare = effects[-2:]                     # the rules decide the fanfare too
    assert fanfare == Sound(5.0, "fanfare")
    assert final == fx.FinalScores(5.0, (("Ana", 42), ("Ben", 20), ("Dan", 12), ("Caro", -18)),
                                   ("Ana",))
    assert english(calls.words(final)) == \
        "Final scores: Ana 42, Ben 20, Dan 12, Caro -18. Ana wins!"
    game, effects = g.step(game, g.Reveal(9.0, "Ben", Holdings(
        (HP(("Bloomers x3", "Granny's Bloomers", "Laundry Basket")),))))   # 30 + 10 = 40
    assert effects[0] == fx.Revealed(9.0, "Ben", True)
    assert effects[1].standings[:2] == (("Ana", 42), ("Ben", 40))
    assert not any(isinstance(e, Sound) for e in effects)     # a correction: no fanfare again


def test_a_tie_is_shared_the_rulebook_breaks_none():
    game = ended()
    for i, p in enumerate(PLAYERS):
        game, effects = g.step(game, g.Reveal(2.0 + i, p, Holdings()))
    assert g.winners(game) == PLAYERS
    assert effects[-2].winners == PLAYERS
    assert "share the win with" in english(calls.words(effects[-2]))


def test_time_never_runs_backwards_and_a_bad_time_is_refused():
    game = g.new_game(PLAYERS, TABLE)
    game, _ = g.step(game, g.DrawAction(5.0))
    game, _ = g.step(game, g.DrawAction(3.0))
    assert game.t == 5.0
    refused(["t -1 must be seconds"], g.step, game, g.DrawAction(-1))
    refused(["is not a Canine Kleptomaniacs command"], g.step, game, "draw")


# === What the screen and the phones show ==========================================================

def test_the_screen_shows_no_secret():
    game = g.new_game(PLAYERS, TABLE)
    game, _ = g.step(game, g.ChooseDoggy(0.0, "Ana", "Rex"))
    game, _ = g.step(game, g.ChooseDoggy(0.0, "Ben", "Fido", face_up=True))
    view = public_view(game)
    assert view["doggies"][:2] == [{"player": "Ana", "chosen": True, "doggy": None},
                                   {"player": "Ben", "chosen": True, "doggy": "Fido"}]
    assert "Rex" not in json.dumps(view)
    game = ended()
    game, _ = g.step(game, g.Reveal(2.0, "Ana", Holdings(poo_pizza=True)))
    view = public_view(game)
    assert view["phase"] == "scoring" and view["scores"] is None
    assert "poo" not in json.dumps(view).lower()
    assert view["revealed"] == ["Ana"]


def test_a_phone_shows_its_players_own_doggy_entry_and_score():
    game = ended()
    game, _ = g.step(game, g.Reveal(2.0, "Ana", Holdings((HP(("Bone",) * 2),), poo_pizza=True)))
    mine = player_view(game, "Ana")
    assert mine["doggy"]["name"] == "Rex" and mine["doggy"]["power"] == "charm-offensive"
    assert mine["score"]["total"] == 6 + 4 - 30
    assert [english(from_json(line["words"])) for line in mine["score"]["lines"]] == [
        "Hiding place 1: 2 Bone: 2 x 3 = 6", "Rex: 2 target Collectables: +4", "Poo Pizza: -30"]
    assert player_view(game, "Ben")["score"] is None
    assert "Bloomers x3" in mine["choices"]["bedroom"]
    assert "Ultimate Hiding Place" not in mine["choices"]["bedroom"]
    # The cards that stand for a kind (a place holding one alone must say which), and the
    # action cards' names for the page to show.
    assert mine["choices"]["wild"] == [c.name for c in TABLE.bedroom if c.wild]
    assert localize(mine["choices"]["card_names"], Words("en"))["badger"] == "Rancid Badger Poo"
    assert localize(mine["choices"]["names"], Words("es"))["Laundry Basket"] == "Cesto de la Ropa"
    assert mine["choices"]["names"]["Rex"] == "Rex"      # the owner's own name, as typed
    refused(["Zed is not a player"], player_view, game, "Zed")


def test_each_phone_offers_what_its_player_may_do_now():
    game = g.new_game(PLAYERS, TABLE, seed=seed_rolling(2))
    assert player_view(game, "Ana")["actions"] == ["choose-doggy", "deck-empty", "draw", "play"]
    game, _ = g.step(game, g.PlayCard(0.0, "Ben", "squirrel"))
    assert player_view(game, "Ben")["actions"] == ["choose-doggy", "deck-empty", "roll"]
    assert player_view(game, "Ben")["your_roll"] and not player_view(game, "Ana")["your_roll"]
    game, _ = g.step(game, g.Roll(1.0))
    assert player_view(game, "Caro")["actions"][-1] == "roll"
    assert player_view(ended(), "Dan")["actions"] == ["choose-doggy", "play", "reveal"]


def test_the_screen_shows_the_die_whose_roll_and_the_end_tracker():
    game, _ = play([2, 3], g.DrawAction(0.0), g.PlayCard(0.0, "Ben", "squirrel"), *roll(2))
    view = public_view(game)
    assert view["dice"]["whose_roll"] == "Dan"
    assert view["dice"]["rolls"] == [{"player": "Ben", "face": 2}, {"player": "Caro", "face": 3}]
    assert english(from_json(view["dice"]["words"])) == \
        "Squirrel: Dan's roll; the first six picks up 5 Collectables."
    assert view["last_roll"] == {"number": 1, "player": "Caro", "card": "squirrel", "face": 3}
    assert localize(view["end"], Words("en")) == {
        "pile": 1, "piles": 1, "left": 17, "size": 18, "over": None,
        "ends": "the game ends when it runs out"}
    json.dumps(view)


# === The recording ===============================================================================

def whole_game():
    """A seeded game of four played by commands, recorded line by line as a host would."""
    game = g.new_game(PLAYERS, TABLE, seed=20240601, optional_rule="that-kind")
    lines = [json.dumps(header(game))]

    def do(command):
        nonlocal game
        game, effects = g.step(game, command)
        lines.append(json.dumps(command_line(command, effects)))

    def roll_out(t):
        while game.call is not None:
            do(g.Roll(t, game.call.whose_roll))

    for p, d in zip(PLAYERS, ("Rex", "Fido", "Lady", "Tramp")):
        do(g.ChooseDoggy(0.5, p, d, p == "Ben"))
    do(g.DrawAction(1.0, "Ana"))
    do(g.PlayCard(1.5, "Ana", "squirrel"))
    roll_out(2.0)
    do(g.DrawAction(10.0, "Ben"))
    do(g.PlayCard(10.5, "Ben", "key", "even", 2))
    roll_out(11.0)
    do(g.DrawAction(12.0, "Caro"))
    do(g.PlayCard(12.5, "Caro", "badger"))
    roll_out(13.0)
    do(g.PlayCard(14.0, "Ana", "charm", thief="Dan", power=True))
    roll_out(15.0)
    do(g.DeckEmpty(20.0, None, "collectables"))
    do(g.DeckEmpty(30.0, "Dan", "action"))
    do(g.Reveal(40.0, "Ana", Holdings((HP(("Slipper",) * 3), HP(("Bone",) * 4)), paw=True)))
    do(g.Reveal(41.0, "Ben", Holdings((HP(("Bloomers x3", "Laundry Basket"), True),))))
    do(g.Reveal(42.0, "Caro", Holdings((HP(("Slipper",) * 3),), poo_pizza=True)))
    do(g.Reveal(43.0, "Dan", Holdings(face_up=("Wacky Earplugs",))))
    return game, lines


def test_a_whole_seeded_game_replays_to_the_same_result():
    game, lines = whole_game()
    assert g.is_final(game)
    out = replay_lines(lines)
    assert out == ck.result(game)
    assert json.loads(json.dumps(out)) == out
    assert out["final"] and out["winners"] == ["Ana"]
    assert out["scores"]["Ana"]["total"] == 6 + 12 + 12 + 2 * 7 + 30
    assert [c["card"] for c in out["calls"]] == ["squirrel", "key", "badger", "charm"]
    assert [r["number"] for r in out["rolls"]] == list(range(len(out["rolls"])))
    assert all(json.loads(x)["roll"] == r["face"] for x, r in
               zip([x for x in lines if '"roll"' in x], out["rolls"]))
    assert replay_lines(lines) == out


def test_a_recording_that_stops_mid_game_reports_what_happened_so_far():
    _, lines = whole_game()
    played = next(i for i, x in enumerate(lines) if '"play"' in x)
    out = replay_lines(lines[:played + 1])
    assert out["final"] is False and out["winners"] == [] and out["scores"] == {}
    assert out["open_call"]["card"] == "squirrel" and out["open_call"]["rolls"] == []
    assert out["end"] == {"pile": 1, "left": 17, "over": None}


def _lines(*items):
    base = {"recording": "canine-kleptomaniacs", "version": 1, "players": ["Ana", "Ben"],
            "seed": seed_rolling(3), "cards": card_table_to_obj(TABLE)}
    return [json.dumps(base)] + [x if isinstance(x, str) else json.dumps(x) for x in items]


@pytest.mark.parametrize("lines, line, words", [
    ([], 1, ["the recording is empty"]),
    (["not json"], 1, ["not JSON"]),
    ([json.dumps({"recording": "cleptomano"})], 1, ["the first line must be the header"]),
    (_lines()[:1] + ["{}"], 2, ["t None must be a number"]),
    ([_lines()[0].replace('"version": 1', '"version": 2')], 1, ["version 2 is not supported"]),
    ([_lines()[0].replace('"seed"', '"colour": 1, "seed"')], 1, ["header key 'colour'"]),
    ([_lines()[0].replace('"points": 2', '"points": -2')], 1, ["header cards", "Slipper",
                                                              "points -2"]),
    ([_lines()[0].replace('["Ana", "Ben"]', '["Ana"]')], 1, ["1 player cannot play"]),
    (_lines({"t": 1, "draw": "action"}, {"t": 0.5, "draw": "action"}), 3, ["goes back in time"]),
    (_lines({"t": 1, "draw": "action", "roll": 3}), 2, ["exactly one of"]),
    (_lines({"t": 1, "draw": "collectables"}), 2, ["draw 'collectables' is not known"]),
    (_lines({"t": 1, "roll": 3}), 2, ["Nothing calls for the die"]),
    (_lines({"t": 1, "by": "Ana", "play": "badger"}, {"t": 2, "roll": 4}), 3,
     ["recorded as 4, which is not what the header's seed rolls"]),
    (_lines({"t": 1, "by": "Ana", "play": "badger"}, {"t": 2, "roll": "3"}), 3,
     ["roll '3' must be the face"]),
    (_lines({"t": 1, "by": "Ana", "play": "badger", "thief": "Ben"}), 2,
     ["belong to the Charm Offensive"]),
    (_lines({"t": 1, "by": "Ana", "draw": "action", "parity": "odd"}), 2,
     ["key 'parity' does not belong on a draw line"]),
    (_lines({"t": 1, "by": 3, "draw": "action"}), 2, ["by 3 must be the name of who sent it"]),
    (_lines({"t": 1, "empty": "action"}, {"t": 2, "by": "Ana", "reveal": {"hand": 1}}), 3,
     ["Your phone sent Hiding Places the rig cannot read ('hand')"]),
    (_lines({"t": 1, "by": "Ana", "doggy": "Rex"}, {"t": 2, "empty": "action"},
            {"t": 3, "by": "Ana", "reveal": {"hiding_places": [{"cards": ["Bone"]}]}}), 4,
     ["Hiding place 1 holds a single Bone"]),
    (_lines({"t": 1, "by": "Ana", "doggy": 7}), 2, ["doggy 7 must be a name"]),
    (_lines({"t": 1, "by": "Ana", "doggy": "Rex", "face_up": "yes"}), 2, ["face_up must be true or false, not yes"]),
    (_lines([1]), 2, ["must be a JSON object"]),
])
def test_a_bad_recording_line_is_one_error_naming_the_line(lines, line, words):
    with pytest.raises(RecordingError) as info:
        replay_lines(lines, path="night.jsonl")
    assert info.value.line == line
    said = english_error(info.value)              # what the builder's terminal says
    assert said.startswith("night.jsonl:%d: " % line)
    for word in words:
        assert word in said, (word, said)


@FAST
@given(st.data())
def test_fuzz_the_replay_on_mutated_recordings(data):
    _, lines = whole_game_lines()
    index = data.draw(st.integers(1, len(lines) - 1))
    obj = json.loads(lines[index])
    key = data.draw(st.sampled_from(sorted(obj) + ["by", "extra"]))
    obj[key] = data.draw(_json_values)
    mutated = lines[:index] + [json.dumps(obj)] + lines[index + 1:]
    try:
        out = replay_lines(mutated)
    except RecordingError as exc:
        assert exc.line is not None
        return
    assert json.loads(json.dumps(out)) == out


_WHOLE = []


def whole_game_lines():
    if not _WHOLE:
        _WHOLE.append(whole_game())
    return _WHOLE[0]


def test_command_line_needs_the_rolls_face():
    with pytest.raises(ValueError):
        command_line(g.Roll(1.0))
    start, items = parse_lines(whole_game_lines()[1])
    assert start.seed == 20240601 and start.optional_rule == "that-kind"
    assert all(command_line(c) for _, c in items)    # every parsed command writes back


# === The screen and the dice sound =================================================================

pygame = pytest.importorskip("pygame")
from rig.draw.kit import AMBER, GOLD                      # noqa: E402
from rig.games.canine import samples                         # noqa: E402
from rig.games.canine import screen                          # noqa: E402
from rig.games.canine.sounds import synthesize_roll          # noqa: E402

SIZES = ((800, 480), (1920, 1080))


def frame(state, size):
    surface = pygame.Surface(size)
    screen.draw(surface, public_view(samples.sample_game(state)))
    return surface


def count(surface, box, colour, tol=12):
    sub = surface.subsurface(pygame.Rect(box).clip(surface.get_rect()))
    return pygame.mask.from_threshold(sub, colour, (tol, tol, tol, 255)).count()


@pytest.mark.parametrize("size", SIZES)
def test_the_die_shows_its_face_in_pips(size):
    r = screen.regions(size)
    x, y, w, h = r["dice"]
    die = (x, y + int(h * 0.2), int(w * 0.45), int(h * 0.5))
    # The Key sample rolled 6 then 1: one pip on the big die, the 6 among the small ones.
    key, charm = frame("key", size), frame("charm", size)
    assert count(key, die, screen.PIP) < count(charm, die, screen.PIP)   # 1 pip < 4 pips
    assert count(key, die, screen.IVORY) > 0.05 * die[2] * die[3]


@pytest.mark.parametrize("size", SIZES)
def test_the_placeholder_table_is_marked_on_screen(size):
    header = screen.regions(size)["header"]
    assert count(frame("start", size), header, AMBER) > 0.02 * header[2] * header[3]
    view = dict(public_view(samples.sample_game("start")), placeholder=False)
    surface = pygame.Surface(size)
    screen.draw(surface, view)
    assert count(surface, header, AMBER) == 0


@pytest.mark.parametrize("size", SIZES)
def test_the_final_table_marks_the_winner_in_gold(size):
    x, y, w, h = screen.regions(size)["table"]
    total = (x + int(w * 0.86), y, int(w * 0.14), h)
    surface = frame("final", size)
    assert count(surface, total, GOLD) > 0.01 * total[2] * total[3]
    assert count(surface, total, GOLD) < 0.3 * total[2] * total[3]    # one row, not all


def test_every_sample_renders_at_both_sizes_and_saves_a_png(tmp_path):
    for state in samples.STATES:
        for size in SIZES:
            surface = frame(state, size)
            assert len({surface.get_at((x, y))[:3] for x in range(0, size[0], 37)
                        for y in range(0, size[1], 23)}) > 4, state
    out = samples.screenshot("final", tmp_path / "final.png", (1920, 1080))
    assert pygame.image.load(out).get_size() == (1920, 1080)


def test_an_unknown_sample_names_the_known_ones():
    from rig.core.errors import DisplayError
    with pytest.raises(DisplayError, match="squirrel"):
        samples.sample_game("poodle")


@settings(max_examples=20, deadline=None)
@given(st.dictionaries(st.sampled_from(["phase", "dice", "end", "doggies", "scores", "winners",
                                        "placeholder", "revealed", "settings", "players"]),
                       _json_values, max_size=6),
       st.sampled_from([(160, 96), (800, 480)]))
def test_the_screen_never_raises_on_an_odd_view(view, size):
    screen.draw(pygame.Surface(size), view)


def test_the_dice_sound_is_a_short_rattle():
    pcm = synthesize_roll(22050)
    assert 0.4 < len(pcm) / 22050 < 1.0
    assert max(abs(v) for v in pcm) > 20000
    assert synthesize_roll(22050) == pcm
    with pytest.raises(ValueError, match="sample rate"):
        synthesize_roll(100)


def test_the_dice_sound_plays_on_each_new_roll_and_the_fanfare_at_the_final():
    def sounds(effects):
        return [e.name for e in effects if isinstance(e, Sound)]
    game, _ = play([2, 3], g.PlayCard(0.0, "Ben", "squirrel"))
    game, effects = g.step(game, g.Roll(1.0))
    assert sounds(effects) == ["dice"] and effects[-1] == Sound(1.0, "dice")
    assert all(calls.words(e) is None for e in effects if isinstance(e, Sound))
    game, effects = g.step(game, g.Roll(2.0))
    assert sounds(effects) == ["dice"]
    scoring = samples.sample_game("scoring")
    last_but_one, last = samples._reveal("Bruno", "Diego")
    game, effects = g.step(scoring, last_but_one)
    assert sounds(effects) == []                      # a score is in, not yet every one
    game, effects = g.step(game, last)
    assert sounds(effects) == ["fanfare"] and public_view(game)["phase"] == "final"


# === In the players' languages ===================================================================

def test_a_scoring_call_is_said_in_spanish_and_romanian_with_the_right_plural_forms():
    score = score_holdings(TABLE, Holdings((HP(("Slipper",) * 2),)), "Tramp")
    doggy = calls.line_words(score.lines[-1])          # Tramp: 2 target Collectables: +2
    assert english(doggy) == "Tramp: 2 target Collectables: +2"
    assert Words("es").text(doggy) == "Tramp: 2 Coleccionables objetivo: +2"
    assert Words("ro").text(doggy) == "Tramp: 2 Colecționabile țintă: +2"
    line = scoring.ScoreLine("doggy", 1, doggy="Tramp", collectables=1)
    assert Words("es").text(calls.line_words(line)) == "Tramp: 1 Coleccionable objetivo: +1"
    assert Words("ro").text(calls.line_words(line)) == "Tramp: 1 Colecționabil țintă: +1"
    line = scoring.ScoreLine("doggy", 20, doggy="Tramp", collectables=20)
    assert Words("ro").text(calls.line_words(line)) == "Tramp: 20 de Colecționabile țintă: +20"
    # The Action pile's count: Romanian's three forms (1, 2-19, 20 and more).
    said = [Words("ro").text(calls.words(fx.ActionDrawn(0.0, "Ana", 1, n))) for n in (1, 3, 21)]
    assert said == ["Carte de Acțiune trasă: a mai rămas 1 carte în pachetul de Acțiune.",
                    "Carte de Acțiune trasă: au mai rămas 3 cărți în pachetul de Acțiune.",
                    "Carte de Acțiune trasă: au mai rămas 21 de cărți în pachetul de Acțiune."]
    assert Words("es").text(calls.words(fx.ActionDrawn(0.0, "Ana", 1, 1))) == \
        "Carta de Acción robada: queda 1 carta en el mazo de Acción."


def test_the_final_scores_and_a_refusal_are_said_in_every_language_with_the_card_names():
    final = calls.words(fx.FinalScores(5.0, (("Ana", 42), ("Ben", 42)), ("Ana", "Ben")))
    assert Words("es").text(final) == \
        "Puntuación final: Ana 42, Ben 42. Ana y Ben comparten la victoria con 42."
    assert Words("fr").text(final) == \
        "Scores finaux : Ana 42, Ben 42. Ana et Ben se partagent la victoire avec 42."
    with pytest.raises(IllegalMove) as info:
        score_holdings(TABLE, Holdings((HP(("Bone", "Bone", cards.PAW)),)))
    assert Words("es").error(info.value).startswith("La carta Pata Suprema del Saqueo se tiene")
    assert Words("ro").error(info.value).startswith("Cartea Laba Supremă a Șterpelitului")
    # A name the owner typed is said as typed; the rulebook's are the language's.
    assert Words("fr").text(cards.card_name("Laundry Basket")) == "Panier à Linge"
    assert cards.card_name("Teacup") == "Teacup"
    assert Words("ro").text(cards.card_name("Doggy C")) == "Cățelul C"


@pytest.mark.parametrize("lang", ["pseudo", "es", "fr", "ro"])
def test_the_sample_screens_draw_in_every_language_with_no_word_left_in_english(lang):
    pygame = pytest.importorskip("pygame")
    from rig.draw import kit
    from rig.games.canine import samples
    before = kit.use_words(lang)
    try:
        for name in samples.SHOTS:
            draw, thing = samples.shot(name)
            kit.clips()                                 # forget what earlier tests drew
            surface = pygame.Surface((800, 480))
            draw(surface, thing)
            # every text drawn from a catalog: nothing cut (ellipsized) but a player's name
            cut = [text for why, text in kit.clips() if why == "cut"]
            assert set(cut) <= {"Bruno", "Carla"}, (name, cut)
    finally:
        kit.use_words(before)


def _fits_of(lang, view):
    """Every text the kit fitted drawing ``view`` at 800x480 in ``lang``: [(text, size,
    narrowed), ...] (narrowed: its box's width set the size)."""
    from rig.draw import kit
    before = kit.use_words(lang)
    try:
        kit.fits()
        screen.draw(pygame.Surface((800, 480)), view)
        return [(text, size, narrowed) for text, size, _, narrowed in kit.fits()]
    finally:
        kit.use_words(before)


def test_a_longer_translation_takes_two_lines_and_keeps_one_fit_a_text():
    # The pseudo-locale's title, pill, card name and end tracker are 40 % longer than the
    # English: each takes two lines (or more room) rather than shrink below the floor, and the
    # kit still records one fit a text, so the languages test pairs each with its English.
    from rig.draw.kit import legible_size
    floor = legible_size(480)
    for state in ("key", "longer", "scoring"):
        view = public_view(samples.sample_game(state))
        english, pseudo = _fits_of("en", view), _fits_of("pseudo", view)
        assert len(english) == len(pseudo), state
        for (en_text, en_size, _), (text, size, narrowed) in zip(english, pseudo):
            assert not narrowed or size >= min(floor, en_size), (state, en_text, text, size)


def test_a_long_end_tracker_heading_grows_the_tracker_into_the_players_panel():
    view = public_view(samples.sample_game("longer"))
    from rig.draw import kit
    r = screen.regions((800, 480))
    surface = pygame.Surface((800, 480))
    before = kit.use_words("en")
    try:
        assert screen._end_extra(surface, view, r["end"]) == 0
        kit.use_words("pseudo")
        assert screen._end_extra(surface, view, r["end"]) > 0
    finally:
        kit.use_words(before)


# === Issue 30: what the rulebook puts in play ======================================================

def _two_player_end(longer_game=False):
    game = g.new_game(("Ana", "Ben"), TABLE, longer_game=longer_game)
    for p, d in (("Ana", "Rex"), ("Ben", "Fido")):
        game, _ = g.step(game, g.ChooseDoggy(0.0, p, d))
    for pile in range(2 if longer_game else 1):
        game, _ = g.step(game, g.DeckEmpty(1.0 + pile, None, "action"))
    assert game.over == "action"
    return game


@pytest.mark.parametrize("longer_game, each", [(False, 3), (True, 4)])
def test_only_the_hiding_places_the_rulebook_puts_in_play_are_scored(longer_game, each):
    """"Deal ONE Hiding Place face up in everyone's playing area. Insert TWO more Hiding Places
    per player into the Action deck", ONE more per player in the longer game: 6 for two
    players, 8 in the longer game (issue 30: the rig capped only at the card table's 20)."""
    game = _two_player_end(longer_game)
    assert g.hiding_places_in_play(game) == (2 * each, each)
    game, _ = g.step(game, g.Reveal(5.0, "Ana", Holdings((HP(()),) * each)))
    before = game
    refused(["%d Hiding Places are entered (Ana %d and Ben %d)" % (2 * each + 1, each, each + 1),
             "this game has %d in play (%d a player)" % (2 * each, each)],
            g.step, game, g.Reveal(6.0, "Ben", Holdings((HP(()),) * (each + 1))))
    # Hiding Places are traded: one player may hold more than their share, not the table.
    game, _ = g.step(game, g.Reveal(6.0, "Ben", Holdings((HP(()),) * (each - 1))))
    game, _ = g.step(game, g.Reveal(7.0, "Ana", Holdings((HP(()),) * (each + 1))))
    assert g.is_final(game) and before != game


def test_a_single_round_deals_the_box_evenly():
    """More than 5 players: the 20 Hiding Places dealt evenly ("More Than 5 Players?")."""
    players = tuple("P%d" % i for i in range(6))
    game = g.new_game(players, TABLE)
    assert g.hiding_places_in_play(game) == (18, 3)


def test_a_doggy_is_taken_once_at_set_up():
    """"Each player takes (blind) ONE doggy character card" at set-up: a correction while the
    table sets up, never again once play began, nor after the final scores, face down or up
    (issue 30: a doggy taken again after the scores changed the winner)."""
    game = g.new_game(PLAYERS, TABLE)
    game, _ = g.step(game, g.ChooseDoggy(0.0, "Ana", "Rex"))
    game, _ = g.step(game, g.ChooseDoggy(0.5, "Ana", "Fido"))          # set-up: a correction
    game, _ = g.step(game, g.DrawAction(1.0, "Ana"))
    refused(["Ana took Fido at set-up", "taken once"], g.step, game,
            g.ChooseDoggy(2.0, "Ana", "Rex"))
    refused(["Ana took Fido at set-up"], g.step, game, g.ChooseDoggy(2.0, "Ana", "Fido", True))
    game, _ = g.step(game, g.ChooseDoggy(2.0, "Ana", "Fido"))     # the same again: nothing new
    assert game.doggies == (("Ana", "Fido", False),)
    # A player who never told the rig may still say which card they took.
    for p, d in (("Ben", "Lady"), ("Caro", "Tramp"), ("Dan", "Rex")):
        game, _ = g.step(game, g.ChooseDoggy(3.0, p, d))
    game, _ = g.step(game, g.DeckEmpty(4.0, None, "action"))
    for i, p in enumerate(PLAYERS):
        game, _ = g.step(game, g.Reveal(5.0 + i, p, Holdings()))
    assert g.is_final(game)
    for doggy, face_up in (("Fido", False), ("Fido", True), ("Rex", True)):
        refused(["Dan took Rex at set-up"], g.step, game,
                g.ChooseDoggy(9.0, "Dan", doggy, face_up))
