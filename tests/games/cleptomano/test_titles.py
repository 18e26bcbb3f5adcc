"""The solo heist's criminal title, checked against the rulebook's tables written out by hand."""

import itertools
import math

import pytest

from rig.core.errors import LevelError, RulesError
from rig.games.cleptomano.rules.titles import criminal_title, timer_column

# The rulebook's first table, copied by hand: lasers -> (no limit, 60", 30").
RULEBOOK_RANKS = {
    3: ("Amateur", "Mastery", "Professional"),
    4: ("Mastery", "Professional", "Specialist"),
    5: ("Professional", "Specialist", "Legend"),
}
# A time limit standing for each column, same order.
COLUMN_TIMERS = (None, 60, 30)
# Second table, point by point.
RULEBOOK_PHRASES = {
    1: "petty thefts", 2: "petty thefts",
    3: "robberies", 4: "robberies",
    5: "heists", 6: "heists",
    7: "master strokes",
}
# Third part, as the rulebook's example reads it.
RULEBOOK_CORRIDOR = {"wide": "high-risk", "narrow": "impossible"}


def _grid():
    for lasers, column, points, corridor in itertools.product(
            (3, 4, 5), range(3), (1, 3, 5, 7), ("wide", "narrow")):
        expected = "%s in %s %s" % (RULEBOOK_RANKS[lasers][column], RULEBOOK_CORRIDOR[corridor],
                                    RULEBOOK_PHRASES[points])
        yield pytest.param(COLUMN_TIMERS[column], lasers, points, corridor, expected,
                           id="%s-%dL-%dp-%s" % (COLUMN_TIMERS[column], lasers, points, corridor))


@pytest.mark.parametrize("timer_s, lasers, points, corridor, expected", list(_grid()))
def test_every_cell_of_the_title_grid(timer_s, lasers, points, corridor, expected):
    assert criminal_title(timer_s, lasers, points, corridor) == expected


def test_the_grid_has_72_cells():
    assert len(list(_grid())) == 3 * 3 * 4 * 2


def test_rulebook_example_reads_exactly():
    # 60", 5 lasers, 4 points and a wide corridor.
    assert criminal_title(60, 5, 4, "wide") == "Specialist in high-risk robberies"
    assert criminal_title(60, 5, 4, "narrow") == "Specialist in impossible robberies"


@pytest.mark.parametrize("timer_s, lasers, points, corridor, expected", [
    (None, 3, 1, "wide", "Amateur in high-risk petty thefts"),
    (30, 5, 7, "narrow", "Legend in impossible master strokes"),
    (60, 4, 6, "wide", "Professional in high-risk heists"),
    (None, 5, 2, "narrow", "Professional in impossible petty thefts"),
    (30, 3, 3, "wide", "Professional in high-risk robberies"),
])
def test_spelled_out_titles(timer_s, lasers, points, corridor, expected):
    assert criminal_title(timer_s, lasers, points, corridor) == expected


@pytest.mark.parametrize("points, phrase", sorted(RULEBOOK_PHRASES.items()))
def test_every_point_value_gets_its_phrase(points, phrase):
    assert criminal_title(60, 5, points, "wide") == "Specialist in high-risk " + phrase


@pytest.mark.parametrize("timer_s, column, rank_with_5_lasers", [
    (1, '30"', "Legend"),
    (29.9, '30"', "Legend"),
    (30, '30"', "Legend"),
    (30.0, '30"', "Legend"),
    (30.5, '60"', "Specialist"),
    (45, '60"', "Specialist"),
    (60, '60"', "Specialist"),
    (60.5, "no limit", "Professional"),
    (61, "no limit", "Professional"),
    (600, "no limit", "Professional"),
    (None, "no limit", "Professional"),
])
def test_time_limit_boundaries(timer_s, column, rank_with_5_lasers):
    assert timer_column(timer_s) == column
    assert criminal_title(timer_s, 5, 4, "wide") == rank_with_5_lasers + " in high-risk robberies"


@pytest.mark.parametrize("timer_s, lasers, corridor", list(itertools.product(
    COLUMN_TIMERS, (3, 4, 5), ("wide", "narrow"))))
def test_zero_points_earns_no_title(timer_s, lasers, corridor):
    assert criminal_title(timer_s, lasers, 0, corridor) is None


@pytest.mark.parametrize("points, shown", [
    (-1, "-1"), (8, "8"), (100, "100"), (2.5, "2.5"), ("3", "'3'"), (True, "True"), (None, "None"),
])
def test_points_outside_0_to_7_are_refused(points, shown):
    with pytest.raises(RulesError) as info:
        criminal_title(60, 5, points, "wide")
    message = str(info.value)
    assert "points %s" % shown in message
    assert "0 to 7" in message


@pytest.mark.parametrize("lasers, shown", [(2, "2"), (6, "6"), (0, "0"), ("4", "'4'"),
                                           (True, "True"), (4.0, "4.0")])
def test_lasers_outside_3_to_5_are_refused(lasers, shown):
    with pytest.raises(LevelError) as info:
        criminal_title(60, lasers, 4, "wide")
    message = str(info.value)
    assert "lasers %s" % shown in message
    assert "3 to 5" in message


@pytest.mark.parametrize("corridor", ["medium", "Wide", "", None, 1])
def test_unknown_corridor_is_refused(corridor):
    with pytest.raises(LevelError) as info:
        criminal_title(60, 5, 4, corridor)
    message = str(info.value)
    assert repr(corridor) in message
    assert '"wide" or "narrow"' in message


@pytest.mark.parametrize("timer_s", [0, -30, "60", math.nan, math.inf, True])
def test_bad_time_limit_is_refused(timer_s):
    with pytest.raises(LevelError) as info:
        criminal_title(timer_s, 5, 4, "wide")
    message = str(info.value)
    assert repr(timer_s) in message
    assert "above 0" in message


def test_bad_level_is_refused_even_with_zero_points():
    with pytest.raises(LevelError):
        criminal_title(60, 6, 0, "wide")
    with pytest.raises(LevelError):
        criminal_title(60, 5, 0, "medium")


def test_errors_are_rules_errors_so_one_except_catches_all():
    for args in [(60, 9, 4, "wide"), (60, 5, 9, "wide"), (0, 5, 4, "wide")]:
        with pytest.raises(RulesError):
            criminal_title(*args)
