"""Difficulty levels: the rulebook's table, and custom levels checked against its ranges."""

import sys
from dataclasses import dataclass
from typing import Optional

from rig.core.errors import LevelError
from rig.core.msg import Msg
from rig.table.names import ADDED_LASERS, MAX_ADDED_LASERS, MIN_ADDED_LASERS, PRINTED_LASERS

CORRIDORS = ("wide", "narrow")
MIN_LASERS, MAX_LASERS = MIN_ADDED_LASERS, MAX_ADDED_LASERS
_UNSET = object()


def refusal(cls, english, message):
    """An error for two readers: ``english`` (its ``str()``) for the builder's config and CLI
    errors, as they always read, and ``message`` (its ``msg``) for a player, said in the
    reader's language (the set-up screen, a phone)."""
    error = cls(english)
    error.msg = message
    return error


@dataclass(frozen=True)
class Level:
    """A difficulty level.  ``timer_s`` None means no time limit; ``lasers`` counts the added rods
    (3-5) on top of the 3 printed ones."""
    name: str
    timer_s: Optional[float]
    lasers: int
    corridor: str

    @property
    def rods(self):
        """The laser numbers in play: printed 1-3 and added 4 .. 3 + lasers."""
        return PRINTED_LASERS + self.added_rods

    @property
    def added_rods(self):
        return ADDED_LASERS[:self.lasers]


PRESETS = {
    "easy": Level("easy", None, 3, "wide"),
    "normal": Level("normal", 60.0, 4, "wide"),
    "hard": Level("hard", 30.0, 5, "narrow"),
}


def make_level(difficulty="normal", *, timer_s=_UNSET, lasers=None, corridor=None):
    """Build a level from a preset name, overriding any of its three settings.

    ``timer_s`` may be a positive number of seconds or None for no limit.  Any override makes the
    level's name ``"custom"`` unless it equals the preset's own value.
    Raises :class:`LevelError` naming the bad value and the allowed range.
    """
    if not isinstance(difficulty, str) or difficulty not in PRESETS:
        raise refusal(LevelError, "difficulty %r is not a level; use one of %s (then override "
                      "timer_s, lasers or corridor for a custom level)"  # not words: builder's
                      % (difficulty, ", ".join(sorted(PRESETS))),
                      Msg("cleptomano.refuse.difficulty", difficulty=repr(difficulty)[:30]))
    base = PRESETS[difficulty]
    new_timer = base.timer_s
    if timer_s is not _UNSET:
        new_timer = check_timer(timer_s)
    new_lasers = base.lasers if lasers is None else check_lasers(lasers)
    new_corridor = base.corridor if corridor is None else check_corridor(corridor)
    level = Level(base.name, new_timer, new_lasers, new_corridor)
    if (new_timer, new_lasers, new_corridor) != (base.timer_s, base.lasers, base.corridor):
        level = Level("custom", new_timer, new_lasers, new_corridor)
    return level


def check_timer(timer_s):
    if timer_s is None:
        return None
    if isinstance(timer_s, bool) or not isinstance(timer_s, (int, float)):
        raise refusal(LevelError, "timer_s %r is not a number; give seconds above 0, or null "
                      "for no time limit" % (timer_s,),  # not words: the builder's (config)
                      Msg("cleptomano.refuse.timer", value=repr(timer_s)[:30]))
    if not 0 < timer_s <= sys.float_info.max:    # NaN, infinity, an integer beyond a float
        raise refusal(LevelError, "timer_s %r is out of range; give seconds above 0 (30 for "
                      "hard, 60 for normal), or null for no time limit"  # not words: builder's
                      % (timer_s,), Msg("cleptomano.refuse.timer", value=repr(timer_s)[:30]))
    return float(timer_s)


def check_lasers(lasers):
    if isinstance(lasers, bool) or not isinstance(lasers, int):
        raise refusal(LevelError, "lasers %r is not a whole number; the rulebook adds 3 to 5 "
                      "lasers" % (lasers,),  # not words: the builder's (config)
                      Msg("cleptomano.refuse.lasers", value=repr(lasers)[:30]))
    if not MIN_LASERS <= lasers <= MAX_LASERS:
        raise refusal(LevelError, "lasers %d is out of range; the rulebook adds 3 to 5 lasers "
                      "(3 easy, 4 normal, 5 hard)" % lasers,  # not words: the builder's (config)
                      Msg("cleptomano.refuse.lasers", value=str(lasers)))
    return lasers


def check_corridor(corridor):
    if corridor not in CORRIDORS:
        raise refusal(LevelError, "corridor %r is not allowed; use \"wide\" or "
                      "\"narrow\"" % (corridor,),  # not words: the builder's (config)
                      Msg("cleptomano.refuse.corridor", value=repr(corridor)[:30]))
    return corridor
