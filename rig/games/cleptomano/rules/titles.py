"""The solo heist's criminal title: the rulebook's three tables, assembled into one phrase.

A solo heist ends with a title built from three parts (rulebook, "Solo Heist"):

1. a rank from the number of added lasers and the timer column (no limit, 60", 30");
2. a phrase from the points scored (1-2, 3-4, 5-6, 7);
3. a word from the corridor width (wide, narrow).

The rulebook's only worked example, 60", 5 lasers, 4 points and a wide corridor, reads
"Specialist in high-risk robberies", so the parts are assembled as
``"<rank> in <corridor word> <points phrase>"``.  (The rulebook lists the corridor part as
"...of high risk." / "...impossible."; the example shows how it reads in English, and we follow it.)

A custom time limit falls into the column of the nearest printed limit it does not exceed:
up to 30 s is the 30" column, up to 60 s the 60" column, anything longer (or no limit) the
infinity column.  So a harder-than-printed limit never earns a lesser rank.

Pure: no I/O, no clock.
"""

from typing import Optional

from rig.core.errors import RulesError
from rig.core.msg import Msg, N_
from .levels import check_corridor, check_lasers, check_timer

# The timer columns of the first table, hardest last.
NO_LIMIT, LIMIT_60, LIMIT_30 = "no limit", '60"', '30"'  # not words: the columns' keys
TIMER_COLUMNS = (NO_LIMIT, LIMIT_60, LIMIT_30)

# 1st part: lasers x timer column -> rank.
RANKS = {
    3: {NO_LIMIT: "Amateur", LIMIT_60: "Mastery", LIMIT_30: "Professional"},
    4: {NO_LIMIT: "Mastery", LIMIT_60: "Professional", LIMIT_30: "Specialist"},
    5: {NO_LIMIT: "Professional", LIMIT_60: "Specialist", LIMIT_30: "Legend"},
}

# 2nd part: points -> phrase.  0 points earns no title.
POINT_PHRASES = {
    1: "petty thefts", 2: "petty thefts",  # not words: the replay output's (catalog: below)
    3: "robberies", 4: "robberies",
    5: "heists", 6: "heists",
    7: "master strokes",  # not words: the replay output's title (catalog: below)
}
MAX_POINTS = 7  # 2 paintings x 2 points + 3 relics x 1 point

# 3rd part: corridor -> word.
CORRIDOR_WORDS = {"wide": "high-risk", "narrow": "impossible"}


def timer_column(timer_s: Optional[float]) -> str:
    """The first table's column for a time limit: ``'30"'`` up to 30 s, ``'60"'`` up to 60 s,
    ``"no limit"`` beyond 60 s or for None.

    Raises :class:`~rig.core.errors.LevelError` for a limit that is not a positive number of seconds.
    """
    timer_s = check_timer(timer_s)
    if timer_s is None or timer_s > 60:
        return NO_LIMIT
    if timer_s > 30:
        return LIMIT_60
    return LIMIT_30


def check_points(points: int) -> int:
    """Return ``points`` if a solo heist can score it (0 to 7), else raise RulesError."""
    if isinstance(points, bool) or not isinstance(points, int):
        raise RulesError("points %r is not a whole number; a solo heist scores 0 to %d "
                         "(2 per painting, 1 per relic, minus 1 per laser touched)"  # not words
                         % (points, MAX_POINTS))
    if not 0 <= points <= MAX_POINTS:
        raise RulesError("points %d is out of range; a solo heist scores 0 to %d (2 per "
                         "painting, 1 per relic, minus 1 per laser touched)"  # not words
                         % (points, MAX_POINTS))
    return points


def criminal_title(timer_s: Optional[float], lasers: int, points: int,
                   corridor: str) -> Optional[str]:
    """The criminal title a solo heist earns, or None when it scored 0 points.

    ``timer_s`` is the level's time limit in seconds (None for no limit), ``lasers`` the added
    lasers (3-5), ``points`` the heist's score (0-7), ``corridor`` "wide" or "narrow".
    Every argument is checked even when the score is 0, so a bad level is never hidden.

    >>> criminal_title(60, 5, 4, "wide")
    'Specialist in high-risk robberies'

    Raises :class:`~rig.core.errors.LevelError` for a bad time limit, laser count or corridor and
    :class:`~rig.core.errors.RulesError` for points outside 0-7; each message names the value and the
    allowed range.
    """
    column = timer_column(timer_s)
    lasers = check_lasers(lasers)
    corridor = check_corridor(corridor)
    points = check_points(points)
    if points == 0:
        return None
    return "%s in %s %s" % (  # not words: the replay output's title (catalog: title_msg)
        RANKS[lasers][column], CORRIDOR_WORDS[corridor], POINT_PHRASES[points])


# --- The title in the table's words ---------------------------------------------------------------
# The replay output (a public contract) keeps the English title; the screen, the phones and the
# history say it from the catalog: the rank is a word, and each points phrase with each corridor
# word is one entry holding {rank} (so every language orders and agrees its own words).
_RANK_CODES = {
    "Amateur": N_("cleptomano.title.rank.amateur"),
    "Mastery": N_("cleptomano.title.rank.mastery"),
    "Professional": N_("cleptomano.title.rank.professional"),
    "Specialist": N_("cleptomano.title.rank.specialist"),
    "Legend": N_("cleptomano.title.rank.legend"),
}
_PHRASE_CODES = {
    ("petty thefts", "wide"): N_("cleptomano.title.petty_thefts.wide"),  # not words: keys of the t
    ("petty thefts", "narrow"): N_("cleptomano.title.petty_thefts.narrow"),  # not words: keys of t
    ("robberies", "wide"): N_("cleptomano.title.robberies.wide"),
    ("robberies", "narrow"): N_("cleptomano.title.robberies.narrow"),
    ("heists", "wide"): N_("cleptomano.title.heists.wide"),
    ("heists", "narrow"): N_("cleptomano.title.heists.narrow"),
    ("master strokes", "wide"): N_("cleptomano.title.master_strokes.wide"),  # not words: keys of t
    ("master strokes", "narrow"): N_("cleptomano.title.master_strokes.narrow"),  # not words
}
_TITLES = {"%s in %s %s" % (rank, CORRIDOR_WORDS[corridor], phrase):  # not words: a key
           Msg(code, rank=Msg(_RANK_CODES[rank]))
           for rank in _RANK_CODES for (phrase, corridor), code in _PHRASE_CODES.items()}


def title_msg(title: Optional[str]) -> Optional[Msg]:
    """The criminal title :func:`criminal_title` made, as a message (each language says it its
    own way: "Especialista en robos de alto riesgo"); None for None.

    >>> title_msg("Specialist in high-risk robberies").code
    'cleptomano.title.robberies.wide'
    """
    if title is None:
        return None
    found = _TITLES.get(title)
    return found if found is not None else Msg("cleptomano.title.other", title=str(title))
