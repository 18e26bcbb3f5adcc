"""The guard's laser layout: a declaration of where each added laser rests, and its check.

Before a heist the guard places the added lasers (3, 4 or 5 of them, numbered 4 to 8; lasers
1-3 are printed on the board).  The rulebook ("Laser Beams") says:

* each laser rests on both walls, or has one end on a wall and the other on the table, touching
  the OTHER wall or lying beneath it (so it can cross beneath another laser);
* with 3/4/5 lasers in play exactly 1/2/2 ends rest on the table;
* no zone (I, II, III) of a wall ever holds more than 2 laser ends;
* the added lasers never touch each other.

:func:`validate_layout` checks a declaration against every rule it can and returns ALL the
problems at once, in words a guard understands, so one look fixes the whole layout.  Even
nonsense (unknown walls, duplicate numbers) comes back as messages, never as exceptions.

What a declaration cannot tell: whether two lasers touch each other.  That depends on heights
and angles on the real walls, so the guard still checks it by eye.  Relic areas (flashlight
length) are likewise left to the guard.

Model: an :class:`End` is either on a wall zone, ``End("left", "II")``, or on the table,
``End("right", TABLE)`` -- a table end records the wall it touches or lies beneath.  A
:class:`Laser` is a number and two ends, in any order.

Text notation (:func:`parse_layout`, :func:`format_layout`)::

    4: L-I R-II; 5: L-III table-R; 6: R-I L-II

Pure: no I/O, no clock.
"""

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, List, Optional

from rig.core.errors import RulesError
from rig.core.msg import Msg, N_, joined
from rig.games.cleptomano.rules.levels import check_lasers

WALLS = ("left", "right")
ZONES = ("I", "II", "III")
TABLE = "table"
FIRST_ADDED, LAST_ADDED = 4, 8                 # lasers 1-3 are printed on the board
MIN_LASERS, MAX_LASERS = 3, 5
TABLE_ENDS = {3: 1, 4: 2, 5: 2}                # added lasers -> ends resting on the table
MAX_ENDS_PER_ZONE = 2


@dataclass(frozen=True)
class End:
    """One end of a laser: ``zone`` is "I", "II" or "III" on ``wall``, or :data:`TABLE` for an end
    on the table touching (or lying beneath) ``wall``.

    Values are not checked here, so a bad declaration can still be built and reported in full by
    :func:`validate_layout`.
    """
    wall: str
    zone: str

    @property
    def on_table(self) -> bool:
        return self.zone == TABLE

    def __str__(self):
        side = {"left": "L", "right": "R"}.get(self.wall, str(self.wall))
        if self.on_table:
            return "table-%s" % side
        return "%s-%s" % (side, self.zone)


@dataclass(frozen=True)
class Laser:
    """An added laser: its number (4-8) and its two ends, in either order."""
    number: int
    end_a: End
    end_b: End

    @property
    def ends(self):
        return (self.end_a, self.end_b)


def _other(wall):
    return "right" if wall == "left" else "left"


def _plural(count, word):
    return "%d %s%s" % (count, word, "" if count == 1 else "s")


def _name(laser, index):
    """How a message names a laser: by its number when it has a usable one."""
    if isinstance(laser.number, int) and not isinstance(laser.number, bool):
        return Msg("cleptomano.layout.laser", laser=laser.number)
    return Msg("cleptomano.layout.item", number=repr(laser.number)[:20], item=index + 1)


def _commas(parts):
    """Laser names joined by commas, as one message (a tally, not a sentence's list)."""
    return joined(parts, N_("cleptomano.list.comma"))   # balanced: 250 names nest 8 deep


def _side(wall):
    return Msg(N_("cleptomano.layout.side.left") if wall == "left"
               else N_("cleptomano.layout.side.right"))


def _wall(wall):
    return Msg(N_("cleptomano.layout.wall.left") if wall == "left"
               else N_("cleptomano.layout.wall.right"))


def _check_number(laser, index, level_lasers):
    number = laser.number
    if isinstance(number, bool) or not isinstance(number, int):
        return [Msg("cleptomano.layout.bad_number", number=repr(number)[:20], item=index + 1,
                    first=FIRST_ADDED, last=LAST_ADDED)]
    if not FIRST_ADDED <= number <= LAST_ADDED:
        return [Msg("cleptomano.layout.not_added", laser=number, first=FIRST_ADDED,
                    last=LAST_ADDED)]
    if level_lasers is not None and number > FIRST_ADDED + level_lasers - 1:
        return [Msg("cleptomano.layout.not_in_play", laser=number, n=level_lasers,
                    first=FIRST_ADDED, last=FIRST_ADDED + level_lasers - 1)]
    return []


def _check_ends(laser, name):
    """Messages about each end's own values; returns (messages, usable) where ``usable`` says
    whether both ends have a known wall and zone, so the shape checks can run."""
    problems = []
    usable = True
    for label, end in (("first", laser.end_a), ("second", laser.end_b)):
        if not isinstance(end, End):
            problems.append(  # a programmer's error, in English
                "laser %s: its %s end %r is not an End; build it with End(wall, zone), e.g. "
                "End(\"left\", \"II\") or End(\"right\", TABLE)"  # not words: a programmer's
                % (laser.number, label, end))
            usable = False
            continue
        if end.wall not in WALLS:
            problems.append(Msg("cleptomano.layout.bad_wall", laser=name,
                                wall=repr(end.wall)[:20]))
            usable = False
        if end.zone != TABLE and end.zone not in ZONES:
            problems.append(Msg("cleptomano.layout.bad_zone", laser=name,
                                zone=repr(end.zone)[:20],
                                where=_wall(end.wall) if end.wall in WALLS
                                else Msg("cleptomano.layout.wall.any")))
            usable = False
    return problems, usable


def _check_shape(laser, name):
    """The 'rests on both walls, or one wall and the table by the other wall' rule."""
    a, b = laser.end_a, laser.end_b
    if a.on_table and b.on_table:
        return [Msg("cleptomano.layout.both_on_table", laser=name)]
    if not a.on_table and not b.on_table:
        if a.wall == b.wall:
            return [Msg("cleptomano.layout.one_wall", laser=name, wall=_wall(a.wall))]
        return []
    wall_end, table_end = (b, a) if a.on_table else (a, b)
    if wall_end.wall == table_end.wall:
        return [Msg("cleptomano.layout.table_same_wall", laser=name, wall=_wall(wall_end.wall),
                    other=_side(_other(wall_end.wall)))]
    return []


def validate_layout(lasers: Iterable[Laser], level_lasers: Optional[int] = None) -> List[Msg]:
    """Every rule the declared ``lasers`` break, as messages for the guard (codes, said in each
    reader's language: :class:`rig.core.msg.Msg`); empty means legal.

    ``level_lasers`` (3-5), when given, is how many lasers the level adds: the layout must declare
    exactly that many, numbered 4 up to 3 + level_lasers.  Without it, any count of 3 to 5 with
    numbers 4 to 8 is accepted.

    Never raises for a bad declaration; raises :class:`~rig.core.errors.LevelError` only for a
    ``level_lasers`` outside 3-5, since that is the level's mistake, not the guard's.
    """
    if level_lasers is not None:
        level_lasers = check_lasers(level_lasers)
    if isinstance(lasers, str):
        return ["the layout is text (%r); turn it into lasers with "
                "parse_layout() first" % (lasers,)]  # not words: a programmer's error
    lasers = list(lasers)
    problems = []

    count = len(lasers)
    if not MIN_LASERS <= count <= MAX_LASERS:
        problems.append(Msg("cleptomano.layout.count", n=count, least=MIN_LASERS,
                            most=MAX_LASERS))
    if level_lasers is not None and count != level_lasers:
        problems.append(Msg("cleptomano.layout.level_count", n=level_lasers, declared=count))

    zone_ends = Counter()          # (wall, zone) -> ends
    zone_lasers = {}               # (wall, zone) -> laser names, for the message
    table_ends = []                # laser names, one per table end
    numbers = Counter()
    for index, laser in enumerate(lasers):
        if not isinstance(laser, Laser):
            problems.append("item %d of the layout is not a Laser (%r); build it with "
                            "Laser(number, end_a, end_b) or parse_layout()"  # not words
                            % (index + 1, laser))  # not words: a programmer's error
            continue
        name = _name(laser, index)
        problems.extend(_check_number(laser, index, level_lasers))
        if isinstance(laser.number, int) and not isinstance(laser.number, bool):
            numbers[laser.number] += 1
        end_problems, usable = _check_ends(laser, name)
        problems.extend(end_problems)
        if usable:
            problems.extend(_check_shape(laser, name))
        for end in laser.ends:
            if not isinstance(end, End):
                continue
            if end.on_table:
                table_ends.append(name)
            elif end.wall in WALLS and end.zone in ZONES:
                key = (end.wall, end.zone)
                zone_ends[key] += 1
                zone_lasers.setdefault(key, []).append(name)

    for number, times in sorted(numbers.items()):
        if times > 1:
            problems.append(Msg("cleptomano.layout.twice", laser=number, n=times))

    for wall in WALLS:
        for zone in ZONES:
            held = zone_ends[(wall, zone)]
            if held > MAX_ENDS_PER_ZONE:
                problems.append(Msg(N_("cleptomano.layout.zone_full.left") if wall == "left"
                                    else N_("cleptomano.layout.zone_full.right"), zone=zone,
                                    n=held, most=MAX_ENDS_PER_ZONE,
                                    lasers=_commas(zone_lasers[(wall, zone)])))

    if count in TABLE_ENDS and len(table_ends) != TABLE_ENDS[count]:
        needed = TABLE_ENDS[count]
        if len(table_ends) > needed:
            fix = Msg("cleptomano.layout.fix.lift")
        elif table_ends:
            fix = Msg("cleptomano.layout.fix.another")
        else:
            fix = Msg("cleptomano.layout.fix.rest")
        if table_ends:
            problems.append(Msg("cleptomano.layout.table_ends_named", lasers_n=count,
                                n=needed, has=len(table_ends), named=_commas(table_ends),
                                fix=fix))
        else:
            problems.append(Msg("cleptomano.layout.table_ends", lasers_n=count, n=needed,
                                has=0, fix=fix))
    return problems


# --- Text notation -------------------------------------------------------------------------

_WALL_WORDS = {"l": "left", "left": "left", "r": "right", "right": "right"}
_ZONE_WORDS = {"i": "I", "ii": "II", "iii": "III", "1": "I", "2": "II", "3": "III"}
_TABLE_WORDS = ("table", "t")
_END_FORM = "WALL-ZONE (L-I, R-III...) or table-WALL (table-L, table-R)"  # not words
_ENTRY_FORM = "NUMBER: END END, e.g. \"5: L-III table-R\""  # not words: notation syntax


def _parse_end(token):
    """An End from "L-II", "right-III", "table-R"; None if the token is not one."""
    head, dash, tail = token.partition("-")
    if not dash:
        return None
    head, tail = head.lower(), tail.lower()
    if head in _TABLE_WORDS and tail in _WALL_WORDS:
        return End(_WALL_WORDS[tail], TABLE)
    if head in _WALL_WORDS and tail in _ZONE_WORDS:
        return End(_WALL_WORDS[head], _ZONE_WORDS[tail])
    return None


def parse_layout(text: str) -> List[Laser]:
    """Lasers from the compact notation ``"4: L-I R-II; 5: L-III table-R; 6: R-I L-II"``.

    Entries are separated by ";" or new lines; walls are L/R (or left/right), zones I/II/III
    (or 1/2/3), a table end is ``table-L`` / ``table-R`` (the wall it touches or lies beneath).
    Case does not matter.  Only the syntax is checked here; :func:`validate_layout` judges the
    rules (so "9: L-I L-II" parses and is then reported).

    Raises :class:`~rig.core.errors.RulesError` listing every bad entry, each naming the bad token
    and the expected form.
    """
    if not isinstance(text, str):
        raise RulesError("the layout %r is not text; write it like "  # not words: notation syntax
                         "\"4: L-I R-II; 5: L-III table-R; 6: R-I L-II\"" % (text,))
    lasers, problems = [], []
    entries = [e.strip() for e in text.replace("\n", ";").split(";")]
    for entry in (e for e in entries if e):
        number_text, colon, ends_text = entry.partition(":")
        number_text = number_text.strip()
        if not colon:
            problems.append("entry %r has no colon; write %s" % (entry, _ENTRY_FORM))  # not words
            continue
        if not re.fullmatch(r"[0-9]+", number_text):
            problems.append("%r in entry %r is not a laser number; write %s"  # not words
                            % (number_text, entry, _ENTRY_FORM))
            continue
        number = int(number_text)
        tokens = ends_text.split()
        if len(tokens) != 2:
            problems.append("laser %d lists %s (%r); write exactly two ends, each %s"  # not words
                            % (number, _plural(len(tokens), "end"), ends_text.strip(),
                               _END_FORM))
            continue
        ends = []
        for token in tokens:
            end = _parse_end(token)
            if end is None:
                problems.append("laser %d: %r is not a laser end; write %s"  # not words
                                % (number, token, _END_FORM))
            ends.append(end)
        if None not in ends:
            lasers.append(Laser(number, ends[0], ends[1]))
    if problems:
        if len(problems) == 1:
            raise RulesError(problems[0])
        raise RulesError("the layout has %d syntax errors: %s"  # not words: notation syntax
                         % (len(problems), "; ".join(problems)))
    return lasers


def format_layout(lasers: Iterable[Laser]) -> str:
    """The compact notation for ``lasers``; :func:`parse_layout` reads it back."""
    return "; ".join("%s: %s %s" % (laser.number, laser.end_a, laser.end_b) for laser in lasers)
