"""The thief's movement in the standard game, as a pure function of (board, thief, draw).

The rulebook's rules, as the rig applies them:

* the thief starts on a crime scene and only ever stands on numbered spaces: one move goes to a
  numbered neighbour along a footprint path, the unnumbered circles skipped;
* it never goes straight back to the space it came from on its last move (a stay is not a
  move, so it remembers that space through any stays);
* it sometimes stays where it is (``Settings.stay_chance``), except in a doorway or a window:
  entering a door or a window, its next move goes through, into a space of another area (the
  next room or the outside), never back into the area it left;
* a subway space is walked like any outside space (the thief never rides the subway) and, in
  the standard game, sounds like one.

Every move is one draw ``u`` in [0, 1) from :func:`chance`, a pure function of (seed, n), so a
replay of the same seed moves the same thief.  The board validator guarantees there is always a
legal move (no dead ends; every door and window joins two areas).
"""

import hashlib
from dataclasses import dataclass, fields
from typing import Optional, Tuple

from rig.core.errors import RulesError
from rig.core.gamekit import is_number
from .board import PASSAGES

#: The clue kinds, in the order the rulebook lists the sounds.
CLUES = ("crime", "inside", "subway", "door", "window", "outside", "stayed")
_KIND_CLUE = {"inside": "inside", "outside": "outside", "door": "door", "window": "window"}


@dataclass(frozen=True)
class Settings:
    """How the thief behaves; the defaults play the standard game.

    * ``stay_chance`` (0.15): how often the thief stays put when it may (0 to 0.9);
    * ``crime_scene_weight`` (1.0): how much likelier a neighbouring crime scene is than any
      other neighbour (1: no preference; 0.1 to 10);
    * ``crime_wave_on_stay`` (False): whether a thief that stays on a crime scene robs it again
      for another $1,000 (the rulebook says it "keeps robbing it" but pays the crime wave for
      moving onto one; False pays only for the alarm the table hears);
    * ``subway_loudspeaker`` (False): play the muffled loudspeaker for a subway space (the
      standard game plays the street commotion: thieves treat the subway as outside).
    """
    stay_chance: float = 0.15
    crime_scene_weight: float = 1.0
    crime_wave_on_stay: bool = False
    subway_loudspeaker: bool = False

    def to_json(self):
        return {f.name: getattr(self, f.name) for f in fields(self)}


_RANGES = {"stay_chance": (0.0, 0.9), "crime_scene_weight": (0.1, 10.0)}


def make_settings(**values):
    """Settings from keyword values, each checked; raises RulesError naming the value."""
    names = [f.name for f in fields(Settings)]
    for key, value in values.items():
        if key not in names:
            raise RulesError("setting %r is not known; the settings are %s"  # not words: config
                             % (key, ", ".join(names)))
        if key in _RANGES:
            lo, hi = _RANGES[key]
            if not is_number(value) or not lo <= value <= hi:
                raise RulesError("setting %s %r is out of range; give a number from %g to %g "
                                 "(default %g)"  # not words: a [stop_thief] config error
                                 % (key, value, lo, hi, getattr(Settings, key)))
        elif not isinstance(value, bool):
            raise RulesError("setting %s %r must be true or false (default %s)"  # not words
                             % (key, value, str(getattr(Settings, key)).lower()))
    return Settings(**{k: (float(v) if k in _RANGES else v) for k, v in values.items()})


@dataclass(frozen=True)
class Thief:
    """Where the thief is (secret until it is arrested).

    ``came_from`` is the space its last move left (None before its first move); ``path`` is
    every space it has stood on after each clue, starting with its crime scene (a stay repeats
    the space)."""
    space: int
    came_from: Optional[int] = None
    path: Tuple[int, ...] = ()


def start(space):
    return Thief(space=space, came_from=None, path=(space,))


def chance(seed, n):
    """The n-th draw of the game with ``seed``: a number in [0, 1), the same on every machine."""
    digest = hashlib.sha256(b"stop-thief:%d:%d" % (seed, n)).digest()
    return int.from_bytes(digest[:8], "big") / 2.0 ** 64


def pick(u, count):
    """A whole number in [0, count) from the draw ``u``."""
    return min(count - 1, int(u * count))


def can_stay(board, thief):
    return board.space(thief.space).kind not in PASSAGES


def moves(board, thief):
    """The spaces the thief may move to (never empty on a valid board)."""
    here = board.space(thief.space)
    out = [n for n in board.next_to[thief.space] if n != thief.came_from]
    if here.kind in PASSAGES and thief.came_from is not None:
        left = board.space(thief.came_from).area
        out = [n for n in out if board.space(n).area != left]
    return tuple(out)


def clue_of(board, space, settings):
    """The clue the thief makes by entering ``space``."""
    s = board.space(space)
    if s.crime:
        return "crime"
    if s.kind == "subway":
        return "subway" if settings.subway_loudspeaker else "outside"
    return _KIND_CLUE[s.kind]


def move(board, thief, u, settings=Settings()):
    """One move from the draw ``u`` in [0, 1): returns ``(thief, clue)``.

    The draw below ``stay_chance`` keeps the thief where it is (when it may stay); the rest of
    the range is shared among the legal moves, a crime scene weighing ``crime_scene_weight``."""
    if can_stay(board, thief) and u < settings.stay_chance:
        return Thief(thief.space, thief.came_from, thief.path + (thief.space,)), "stayed"
    if can_stay(board, thief):
        u = (u - settings.stay_chance) / (1.0 - settings.stay_chance)
    options = moves(board, thief)
    weights = [settings.crime_scene_weight if board.space(n).crime else 1.0 for n in options]
    target, total = u * sum(weights), 0.0
    chosen = options[-1]
    for n, w in zip(options, weights):
        total += w
        if target < total:
            chosen = n
            break
    return Thief(chosen, thief.space, thief.path + (chosen,)), clue_of(board, chosen, settings)
