"""The guard's laser layout: every rule of the rulebook's "Laser Beams", every message, the
text notation, and a property check against an independent reading of the rules."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from rig.core.errors import LevelError, RulesError
from rig.games.cleptomano.rules.layout import (End, Laser, TABLE, format_layout, parse_layout, validate_layout)
from rig.words import english

L, R = "left", "right"



def said(problems):
    """The rule breaks as the guard reads them in English."""
    return [english(p) for p in problems]

def lay(text):
    return parse_layout(text)


# --- Legal layouts ----------------------------------------------------------------------------

LEGAL = [
    # (notation, level_lasers)
    ("4: L-I R-II; 5: L-III table-R; 6: R-I L-II", None),
    ("4: L-I R-II; 5: L-III table-R; 6: R-I L-II", 3),
    ("4: R-II table-L; 5: L-I R-I; 6: L-III R-III", 3),
    ("4: R-II L-I; 5: table-R L-III; 6: L-II R-I", 3),              # ends in either order
    ("6: R-I L-II; 4: L-I R-II; 5: L-III table-R", 3),              # lasers in any order
    ("4: L-I R-I; 5: L-II table-R; 6: R-III table-L; 7: L-III R-II", 4),
    ("4: L-I R-I; 5: L-I table-R; 6: R-II table-L; 7: L-II R-III; 8: L-III R-II", 5),
    ("4: L-I R-I; 5: L-I R-I; 6: L-II table-R", None),              # exactly 2 ends per zone
    ("4: L-I R-II; 7: L-III table-R; 8: R-I L-II", None),           # any numbers 4-8 unleveled
]


@pytest.mark.parametrize("text, level_lasers", LEGAL)
def test_legal_layouts_have_no_problems(text, level_lasers):
    assert validate_layout(lay(text), level_lasers) == []


# --- Each rule, each message --------------------------------------------------------------------

VIOLATIONS = [
    pytest.param(
        "4: L-II R-I; 5: L-II R-III; 6: L-II table-R", None,
        ["zone II of the left wall holds 3 laser ends; at most 2 (laser 4, laser 5, laser 6); "
         "move an end to another zone"],
        id="zone-overfull-left"),
    pytest.param(
        "4: L-I R-III; 5: L-II R-III; 6: table-L R-III; 7: R-III L-II; 8: L-I table-R", 5,
        ["zone III of the right wall holds 4 laser ends; at most 2 (laser 4, laser 5, laser 6, "
         "laser 7); move an end to another zone"],
        id="zone-overfull-right"),
    pytest.param(
        "4: L-I R-I; 5: L-II table-R; 6: R-II L-III; 7: L-II R-III; 8: L-III R-II", 5,
        ["5 lasers need 2 ends on the table; this layout has 1 (laser 5); rest another end on "
         "the table by the other wall"],
        id="too-few-table-ends-5"),
    pytest.param(
        "4: L-I R-I; 5: L-II R-II; 6: L-III R-III", 3,
        ["3 lasers need 1 end on the table; this layout has 0; rest an end on the table by the "
         "other wall"],
        id="no-table-end-3"),
    pytest.param(
        "4: L-I R-I; 5: L-II table-R; 6: R-III table-L", 3,
        ["3 lasers need 1 end on the table; this layout has 2 (laser 5, laser 6); lift an end "
         "from the table onto a wall"],
        id="too-many-table-ends-3"),
    pytest.param(
        "4: L-I table-R; 5: L-II table-R; 6: R-III table-L; 7: L-III R-II", 4,
        ["4 lasers need 2 ends on the table; this layout has 3 (laser 4, laser 5, laser 6); "
         "lift an end from the table onto a wall"],
        id="too-many-table-ends-4"),
    pytest.param(
        "4: L-I R-I; 5: L-II R-II; 6: L-III R-III; 7: L-I table-R", 4,
        ["4 lasers need 2 ends on the table; this layout has 1 (laser 7); rest another end on "
         "the table by the other wall"],
        id="too-few-table-ends-4"),
    pytest.param(
        "4: L-I R-I; 5: table-L table-R; 6: R-II L-II", 3,
        ["laser 5 has both ends on the table; each laser needs at least one end on a wall",
         "3 lasers need 1 end on the table; this layout has 2 (laser 5, laser 5); lift an end "
         "from the table onto a wall"],
        id="both-ends-on-table"),
    pytest.param(
        "4: L-I L-III; 5: L-II table-R; 6: R-I R-II", 3,
        ["laser 4 rests on the left wall at both ends; a laser must span both walls or go from "
         "one wall to the table beside/under the other",
         "laser 6 rests on the right wall at both ends; a laser must span both walls or go from "
         "one wall to the table beside/under the other"],
        id="same-wall-both-ends"),
    pytest.param(
        "4: L-I R-II; 5: L-III table-L; 6: R-I L-II", 3,
        ["laser 5 goes from the left wall to the table by the left wall; its table end must "
         "touch or lie beneath the other wall (the right)"],
        id="table-end-by-same-wall-left"),
    pytest.param(
        "4: L-I R-II; 5: table-R R-III; 6: R-I L-II", 3,
        ["laser 5 goes from the right wall to the table by the right wall; its table end must "
         "touch or lie beneath the other wall (the left)"],
        id="table-end-by-same-wall-right"),
    pytest.param(
        "4: L-I R-II; 5: L-III table-R; 6: R-I L-II; 7: L-I R-I; 8: L-II R-III; 4: L-III R-II",
        None,
        ["the layout has 6 added lasers; a level adds 3 to 5 (3 easy, 4 normal, 5 hard)",
         "laser 4 is declared 2 times; declare each added laser once"],
        id="six-lasers"),
    pytest.param(
        "4: L-I R-II; 5: L-III table-R", None,
        ["the layout has 2 added lasers; a level adds 3 to 5 (3 easy, 4 normal, 5 hard)"],
        id="two-lasers"),
    pytest.param(
        "5: L-III table-R", None,
        ["the layout has 1 added laser; a level adds 3 to 5 (3 easy, 4 normal, 5 hard)"],
        id="one-laser"),
    pytest.param(
        "", 4,
        ["the layout has 0 added lasers; a level adds 3 to 5 (3 easy, 4 normal, 5 hard)",
         "the level adds 4 lasers; the layout declares 0"],
        id="no-lasers"),
    pytest.param(
        "4: L-I R-II; 5: L-III table-R; 6: R-I L-II", 4,
        ["the level adds 4 lasers; the layout declares 3"],
        id="level-count-mismatch"),
    pytest.param(
        "4: L-I R-II; 5: L-III table-R; 7: R-I L-II", 3,
        ["laser 7 is not in play; the level adds 3 lasers, numbered 4 to 6"],
        id="number-beyond-level"),
    pytest.param(
        "4: L-I R-II; 4: L-III table-R; 6: R-I L-II", None,
        ["laser 4 is declared 2 times; declare each added laser once"],
        id="duplicate-number"),
    pytest.param(
        "3: L-I R-II; 5: L-III table-R; 9: R-I L-II", None,
        ["laser 3 is not an added laser; added lasers are numbered 4 to 8 (1 to 3 are printed "
         "on the board)",
         "laser 9 is not an added laser; added lasers are numbered 4 to 8 (1 to 3 are printed "
         "on the board)"],
        id="numbers-outside-4-to-8"),
]


@pytest.mark.parametrize("text, level_lasers, expected", VIOLATIONS)
def test_each_rule_is_reported_in_words(text, level_lasers, expected):
    assert said(validate_layout(lay(text), level_lasers)) == expected


def test_brief_example_messages_appear_verbatim():
    """The short forms agreed with the lead stay recognisable at the start of each message."""
    messages = [m for _, _, expected in (p.values for p in VIOLATIONS) for m in expected]
    for prefix in [
        "zone II of the left wall holds 3 laser ends; at most 2",
        "5 lasers need 2 ends on the table; this layout has 1",
        "laser 5 has both ends on the table; each laser needs at least one end on a wall",
        "laser 4 rests on the left wall at both ends; a laser must span both walls or go from "
        "one wall to the table beside/under the other",
        "the layout has 6 added lasers; a level adds 3 to 5",
        "the level adds 4 lasers; the layout declares 3",
    ]:
        assert any(m.startswith(prefix) for m in messages), prefix


def test_every_problem_is_reported_at_once():
    layout = lay("4: L-II R-II; 5: L-II table-R; 6: L-II L-I; 7: table-L table-R; "
                 "9: L-I table-L; 4: L-I R-III")
    problems = said(validate_layout(layout, 4))
    assert problems == [
        "the layout has 6 added lasers; a level adds 3 to 5 (3 easy, 4 normal, 5 hard)",
        "the level adds 4 lasers; the layout declares 6",
        "laser 6 rests on the left wall at both ends; a laser must span both walls or go from "
        "one wall to the table beside/under the other",
        "laser 7 has both ends on the table; each laser needs at least one end on a wall",
        "laser 9 is not an added laser; added lasers are numbered 4 to 8 (1 to 3 are printed "
        "on the board)",
        "laser 9 goes from the left wall to the table by the left wall; its table end must "
        "touch or lie beneath the other wall (the right)",
        "laser 4 is declared 2 times; declare each added laser once",
        "zone I of the left wall holds 3 laser ends; at most 2 (laser 6, laser 9, laser 4); "
        "move an end to another zone",
        "zone II of the left wall holds 3 laser ends; at most 2 (laser 4, laser 5, laser 6); "
        "move an end to another zone",
    ]


# --- Declarations built in code: bad values become messages, not exceptions ------------------

GOOD = [Laser(4, End(L, "I"), End(R, "II")), Laser(5, End(L, "III"), End(R, TABLE))]


@pytest.mark.parametrize("extra, expected", [
    pytest.param(Laser(6, End("top", "I"), End(L, "II")),
                 ['laser 6 has an end on wall \'top\'; walls are "left" and "right"'],
                 id="unknown-wall"),
    pytest.param(Laser(6, End(R, "IV"), End(L, "II")),
                 ["laser 6 has an end in zone 'IV' of the right wall; zones are I, II and III, "
                  "or 'table' for an end on the table"],
                 id="unknown-zone"),
    pytest.param(Laser(6, End("Left", "2"), End(R, "II")),
                 ["laser 6 has an end on wall 'Left'; walls are \"left\" and \"right\"",
                  "laser 6 has an end in zone '2' of a wall; zones are I, II and III, or 'table' "
                  "for an end on the table"],
                 id="unknown-wall-and-zone"),
    pytest.param(Laser(6, "L-I", End(R, "II")),
                 ["laser 6: its first end 'L-I' is not an End; build it with End(wall, zone), "
                  "e.g. End(\"left\", \"II\") or End(\"right\", TABLE)"],
                 id="end-not-an-End"),
    pytest.param("6: R-I L-II",
                 ["item 3 of the layout is not a Laser ('6: R-I L-II'); build it with "
                  "Laser(number, end_a, end_b) or parse_layout()"],
                 id="item-not-a-Laser"),
    pytest.param(Laser("6", End(R, "I"), End(L, "II")),
                 ["laser number '6' (item 3) is not a whole number; added lasers are numbered "
                  "4 to 8"],
                 id="number-is-text"),
    pytest.param(Laser(True, End(R, "I"), End(L, "II")),
                 ["laser number True (item 3) is not a whole number; added lasers are numbered "
                  "4 to 8"],
                 id="number-is-bool"),
])
def test_bad_values_are_messages_not_exceptions(extra, expected):
    assert said(validate_layout(GOOD + [extra])) == expected


def test_a_text_layout_is_pointed_to_parse_layout():
    assert validate_layout("4: L-I R-II") == [
        "the layout is text ('4: L-I R-II'); turn it into lasers with parse_layout() first"]


@pytest.mark.parametrize("level_lasers", [2, 6, 0, "4", True])
def test_a_bad_level_count_is_the_levels_error(level_lasers):
    with pytest.raises(LevelError) as info:
        validate_layout(lay("4: L-I R-II; 5: L-III table-R; 6: R-I L-II"), level_lasers)
    assert repr(level_lasers) in str(info.value) or str(level_lasers) in str(info.value)
    assert "3 to 5" in str(info.value)


def test_validate_accepts_any_iterable():
    layout = lay("4: L-I R-II; 5: L-III table-R; 6: R-I L-II")
    assert validate_layout(iter(layout), 3) == []
    assert validate_layout(tuple(layout), 3) == []


# --- Text notation ----------------------------------------------------------------------------

BRIEF_LAYOUT = [
    Laser(4, End(L, "I"), End(R, "II")),
    Laser(5, End(L, "III"), End(R, TABLE)),
    Laser(6, End(R, "I"), End(L, "II")),
]


@pytest.mark.parametrize("text", [
    "4: L-I R-II; 5: L-III table-R; 6: R-I L-II",
    "4:L-I R-II;5:L-III table-R;6:R-I L-II;",
    "4: left-I right-II\n5: left-III table-right\n6: right-I left-II\n",
    "4: l-i r-ii; 5: L-iii TABLE-r; 6 : R-1 L-2",
    "  4:  L-1   R-2 ;; 5: L-3 T-R ; 6: R-I L-II  ",
])
def test_parse_accepts_the_notation_and_its_friendly_variants(text):
    assert parse_layout(text) == BRIEF_LAYOUT


@pytest.mark.parametrize("text", ["", "   ", " ; ;\n"])
def test_parse_of_nothing_is_no_lasers(text):
    assert parse_layout(text) == []


@pytest.mark.parametrize("text, bad_token, expected_form", [
    ("4 L-I R-II", "'4 L-I R-II'", "NUMBER: END END"),
    ("x: L-I R-II", "'x'", "NUMBER: END END"),
    ("-4: L-I R-II", "'-4'", "NUMBER: END END"),
    ("4.0: L-I R-II", "'4.0'", "NUMBER: END END"),
    (": L-I R-II", "''", "NUMBER: END END"),
    ("4: L-I", "1 end ('L-I')", "exactly two ends"),
    ("4: L-I R-II R-III", "3 ends ('L-I R-II R-III')", "exactly two ends"),
    ("4:", "0 ends ('')", "exactly two ends"),
    ("4: L-IV R-II", "'L-IV'", "WALL-ZONE (L-I, R-III...) or table-WALL (table-L, table-R)"),
    ("4: L-table R-II", "'L-table'", "table-WALL"),
    ("4: table-X R-II", "'table-X'", "table-WALL"),
    ("4: L-I LII", "'LII'", "WALL-ZONE"),
    ("4: top-I R-II", "'top-I'", "WALL-ZONE"),
])
def test_parse_errors_name_the_token_and_the_form(text, bad_token, expected_form):
    with pytest.raises(RulesError) as info:
        parse_layout(text)
    message = str(info.value)
    assert bad_token in message
    assert expected_form in message


def test_parse_reports_every_syntax_error_at_once():
    with pytest.raises(RulesError) as info:
        parse_layout("4: L-IV R-II; x: L-I R-I; 6: R-I L-II")
    message = str(info.value)
    assert message.startswith("the layout has 2 syntax errors:")
    assert "'L-IV'" in message and "'x'" in message


@pytest.mark.parametrize("text", [None, 4, ["4: L-I R-II"]])
def test_parse_refuses_what_is_not_text(text):
    with pytest.raises(RulesError) as info:
        parse_layout(text)
    assert repr(text) in str(info.value)


def test_parse_leaves_the_rules_to_validate():
    layout = parse_layout("9: L-I L-II")
    assert layout == [Laser(9, End(L, "I"), End(L, "II"))]
    assert len(validate_layout(layout)) == 3   # count, number, same wall


def test_format_writes_the_compact_notation():
    assert format_layout(BRIEF_LAYOUT) == "4: L-I R-II; 5: L-III table-R; 6: R-I L-II"
    assert str(End(L, TABLE)) == "table-L"
    assert End(R, TABLE).on_table and not End(R, "I").on_table


# --- Properties against an independent reading of the rules --------------------------------------

def rulebook_legal(lasers, level_lasers):
    """The rules read afresh, written without looking at rig.games.cleptomano.rules.layout's structure."""
    count = len(lasers)
    if count not in (3, 4, 5) or (level_lasers is not None and count != level_lasers):
        return False
    numbers = [laser.number for laser in lasers]
    allowed = range(4, 9) if level_lasers is None else range(4, 4 + level_lasers)
    if any(type(n) is not int or n not in allowed for n in numbers):
        return False
    if len(set(numbers)) != count:
        return False
    on_table, zones = 0, Counter()
    for laser in lasers:
        ends = [laser.end_a, laser.end_b]
        if any(e.wall not in (L, R) or e.zone not in ("I", "II", "III", TABLE) for e in ends):
            return False
        table = [e for e in ends if e.zone == TABLE]
        wall = [e for e in ends if e.zone != TABLE]
        if len(table) == 2:
            return False
        if len(table) == 1 and table[0].wall == wall[0].wall:
            return False
        if len(table) == 0 and wall[0].wall == wall[1].wall:
            return False
        on_table += len(table)
        zones.update((e.wall, e.zone) for e in wall)
    return on_table == {3: 1, 4: 2, 5: 2}[count] and max(zones.values(), default=0) <= 2


VALID_ENDS = [End(w, z) for w in (L, R) for z in ("I", "II", "III", TABLE)]
ALL_ENDS = [End(w, z) for w in (L, R, "top", "Left") for z in ("I", "II", "III", TABLE, "IV", 2)]


def lasers_from(ends, numbers):
    return st.builds(Laser, numbers, st.sampled_from(ends), st.sampled_from(ends))


SPANS = [(End(a, za), End(b, zb)) for a, b in ((L, R), (R, L))
         for za in ("I", "II", "III") for zb in ("I", "II", "III")]
TO_TABLE = [(End(a, z), End(b, TABLE)) for a, b in ((L, R), (R, L)) for z in ("I", "II", "III")]
TO_TABLE += [(t, w) for w, t in TO_TABLE]


@st.composite
def near_legal_layouts(draw):
    """Right shapes and the right number of table ends, so legal layouts turn up often; zone
    crowding, numbering, the level and one stray laser make the rest illegal."""
    count = draw(st.integers(3, 5))
    table = {3: 1, 4: 2, 5: 2}[count]
    shapes = ([draw(st.sampled_from(TO_TABLE)) for _ in range(table)]
              + [draw(st.sampled_from(SPANS)) for _ in range(count - table)])
    slip = draw(st.sampled_from(["none"] * 5 + ["anyhow", "same side", "both table"]))
    if slip != "none":                          # one laser placed against the rules, perhaps
        i = draw(st.integers(0, count - 1))
        a, b = shapes[i]
        if slip == "anyhow":
            shapes[i] = (draw(st.sampled_from(VALID_ENDS)), draw(st.sampled_from(VALID_ENDS)))
        elif slip == "same side":               # both ends by the same wall
            shapes[i] = (a, End(a.wall, b.zone))
        else:
            shapes[i] = (End(a.wall, TABLE), End(b.wall, TABLE))
    shapes = draw(st.permutations(shapes))
    numbering = draw(st.sampled_from(["level"] * 3 + ["4 to 9", "any"]))
    numbers = draw({
        "level": st.permutations(range(4, 4 + count)),
        "4 to 9": st.lists(st.integers(4, 9), min_size=count, max_size=count, unique=True),
        "any": st.lists(st.integers(2, 10), min_size=count, max_size=count),
    }[numbering])
    level_lasers = draw(st.sampled_from([None] * 3 + [count] * 3 + [3, 4, 5]))
    return [Laser(n, a, b) for n, (a, b) in zip(numbers, shapes)], level_lasers


near_legal = near_legal_layouts()
# ...and anything that can be declared from tokens, legal or not.
wild = st.tuples(
    st.lists(lasers_from(ALL_ENDS, st.one_of(st.integers(0, 10), st.sampled_from(["5", True]))),
             max_size=7),
    st.sampled_from([None, 3, 4, 5]),
)


@settings(max_examples=600, deadline=None)
@given(st.one_of(near_legal, wild))
def test_validate_never_raises_and_is_empty_iff_legal(case):
    lasers, level_lasers = case
    problems = said(validate_layout(lasers, level_lasers))
    assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
    assert (problems == []) == rulebook_legal(lasers, level_lasers)


@settings(max_examples=150, deadline=None)
@given(near_legal)
def test_end_order_and_laser_order_do_not_change_the_verdict(case):
    lasers, level_lasers = case
    swapped = [Laser(laser.number, laser.end_b, laser.end_a) for laser in reversed(lasers)]
    assert (validate_layout(swapped, level_lasers) == []) == \
        (validate_layout(lasers, level_lasers) == [])


@settings(max_examples=150, deadline=None)
@given(near_legal)
def test_format_then_parse_gives_back_the_layout(case):
    lasers, _ = case
    assert parse_layout(format_layout(lasers)) == lasers


def test_every_three_laser_layout_agrees_with_the_rulebook():
    """All 36^3 ways to place lasers 4, 5, 6 (each an unordered pair of 8 possible ends)."""
    pairs = list(itertools.combinations_with_replacement(VALID_ENDS, 2))
    legal = 0
    for a, b, c in itertools.product(pairs, repeat=3):
        lasers = [Laser(4, *a), Laser(5, *b), Laser(6, *c)]
        verdict = validate_layout(lasers, 3) == []
        assert verdict == rulebook_legal(lasers, 3), format_layout(lasers)
        legal += verdict
    assert legal > 0
