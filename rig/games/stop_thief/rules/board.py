"""A Stop Thief! board as data: the spaces, the footprint paths, the thief deck and the money.

The commercial board is not ours to ship, so the rig reads boards from text (TOML or JSON, the
same shape; see README "Stop Thief!"): the sample town in ``data/`` and any board an owner
types in.  :func:`parse_board` turns text into a :class:`Board` or raises one
:class:`BoardError` listing every problem; :func:`validate_board` returns, in words that name
the space, every way a board breaks what the thief's movement rules need (numbers unique, paths
only between existing spaces, doors and windows joining a room to another room or to the
outside, no dead ends, every numbered space reachable, crime scenes numbered).

Spaces are keyed by their number, or for the unnumbered circles (which only investigators
step on) by a short text ``id``.  Every space has a place ``at = [x, y]`` for drawing; rooms
and buildings are drawn around their spaces, so a board needs no other geometry.

Pure: text in, values out.  Reading the file is :mod:`rig.games.stop_thief.resources`'s.
"""

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, Optional, Tuple, Union

from rig.core.bounded import load_json, load_toml
from rig.core.errors import ConfigError
from rig.core.gamekit import is_number

KINDS = ("inside", "outside", "door", "window", "subway", "circle")
#: Kinds a thief passes through: it never stops in a doorway or a window frame.
PASSAGES = ("door", "window")
THIEF_CARDS = 12
MAX_PLAYERS = 6
MAX_MONEY = 10_000_000
MAX_COORD = 10_000
#: A board file is some tens of KB (a town of a few hundred spaces); beyond this is not one.
MAX_BOARD_BYTES = 1 << 20
OUTSIDE = "outside"

Key = Union[int, str]


class BoardError(ConfigError):
    """A board that cannot be played; ``problems`` lists every one, each naming its space."""

    def __init__(self, problems, *, path=None):
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            message = self.problems[0]
        else:
            message = "%d problems: %s" % (len(self.problems), "; ".join(self.problems))
        super().__init__(message, path=path)


@dataclass(frozen=True)
class Space:
    """One space of the board.  ``key`` is its number, or a circle's ``id``."""
    key: Key
    kind: str
    at: Tuple[float, float]
    building: Optional[str] = None
    room: Optional[str] = None
    crime: bool = False
    label: Optional[str] = None

    @property
    def numbered(self):
        return self.kind != "circle"

    @property
    def area(self):
        """Where the space is, for doors and windows: a room's name, ``"outside"`` (streets and
        subway stations), or None for a door, a window or a circle."""
        if self.kind == "inside":
            return room_name(self.building, self.room)
        if self.kind in ("outside", "subway"):
            return OUTSIDE
        return None

    @property
    def name(self):
        """How messages name the space: ``space 14 (door)``, ``circle "c3"``."""
        if not self.numbered:
            return 'circle "%s"' % self.key
        if self.kind == "inside":
            return 'space %s (inside, room "%s")' % (self.key, self.area)  # not words: board file
        return "space %s (%s)" % (self.key, self.kind)  # not words: a board file's error


def room_name(building, room):
    """A room's name in messages and on screen: ``Bank vault``; a one-room building's is its
    own name."""
    return building if not room else "%s %s" % (building, room)


@dataclass(frozen=True)
class ThiefCard:
    name: str
    reward: int


@dataclass(frozen=True)
class MoneyRow:
    """For one number of players: each player's starting money and the cash to retire."""
    players: int
    start: int
    retire: int


@dataclass(frozen=True)
class Label:
    """A name drawn on the map (a street, a district); decoration only."""
    text: str
    at: Tuple[float, float]


@dataclass(frozen=True)
class Board:
    name: str
    spaces: Tuple[Space, ...]
    paths: Tuple[Tuple[Key, Key], ...]          # footprint steps, either way
    thieves: Tuple[ThiefCard, ...]
    money: Tuple[MoneyRow, ...]
    investigators_start: Optional[int] = None
    labels: Tuple[Label, ...] = ()

    @cached_property
    def by_key(self) -> Dict[Key, Space]:
        return {s.key: s for s in self.spaces}

    @cached_property
    def numbers(self) -> Tuple[int, ...]:
        return tuple(sorted(s.key for s in self.spaces if s.numbered))

    @cached_property
    def crime_scenes(self) -> Tuple[int, ...]:
        return tuple(n for n in self.numbers if self.by_key[n].crime)

    @cached_property
    def footprints(self) -> Dict[Key, Tuple[Key, ...]]:
        """Each space's neighbours along one footprint step."""
        out = {s.key: set() for s in self.spaces}
        for a, b in self.paths:
            if a in out and b in out and a != b:
                out[a].add(b)
                out[b].add(a)
        return {k: tuple(sorted(v, key=_order)) for k, v in out.items()}

    @cached_property
    def next_to(self) -> Dict[int, Tuple[int, ...]]:
        """Each numbered space's numbered neighbours, the unnumbered circles skipped: where the
        thief can go in one move (and where an investigator may attempt an arrest)."""
        out = {}
        for n in self.numbers:
            found, seen, todo = set(), {n}, list(self.footprints[n])
            while todo:
                k = todo.pop()
                if k in seen:
                    continue
                seen.add(k)
                if self.by_key[k].numbered:
                    found.add(k)
                else:
                    todo.extend(self.footprints[k])
            out[n] = tuple(sorted(found))
        return out

    @cached_property
    def problems(self):
        """:func:`validate_board`'s answer, worked out once (games check their board)."""
        return tuple(validate_board(self))

    @cached_property
    def sha256(self):
        """The board's fingerprint (see :func:`board_sha256`), worked out once."""
        text = json.dumps(board_to_dict(self), sort_keys=True, separators=(",", ":"),
                          ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def space(self, number):
        return self.by_key[number]

    def money_for(self, players):
        """The :class:`MoneyRow` for ``players``, or None if the board has no row for it."""
        return next((row for row in self.money if row.players == players), None)


def _order(key):
    """Numbers first, in order, then circle ids: a stable order for mixed keys."""
    return (0, key, "") if isinstance(key, int) else (1, 0, key)


# --- Reading ----------------------------------------------------------------------------------

_TOP_KEYS = {"name", "money", "investigators_start", "space", "paths", "thief", "label"}
_SPACE_KEYS = {"number", "id", "kind", "at", "building", "room", "crime", "label"}


def parse_board(text, fmt="toml"):
    """A board from TOML or JSON text (``fmt`` "toml" or "json"), checked by
    :func:`validate_board`.  Raises :class:`BoardError` listing every problem."""
    if fmt not in ("toml", "json"):
        raise BoardError(['board format %r is not known; '
                          'use "toml" or "json"' % (fmt,)])  # not words: a board file's error
    if not isinstance(text, str):
        raise BoardError(["a board is text, got %s" % type(text).__name__])  # not words: board file
    load = load_toml if fmt == "toml" else load_json
    obj = load(text, lambda message: BoardError([message]), "check the line it names",  # not words
               max_bytes=MAX_BOARD_BYTES, what="the board",  # not words: a board file's error
               syntax="the board is not valid %s (%%s)" % fmt.upper())  # not words: board file
    return board_from_dict(obj)


def board_from_dict(obj):
    """A board from its parsed form (the TOML/JSON document as a dict); raises BoardError."""
    problems = []
    board = _read(obj, problems)
    if not problems:
        problems = validate_board(board)
    if problems:
        raise BoardError(problems)
    return board


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _text(x):
    return isinstance(x, str) and bool(x.strip()) and x.isprintable() and len(x) <= 60


def _unknown(where, obj, allowed, problems):
    for key in sorted(set(obj) - allowed, key=str):
        problems.append("%s: key %r is not known; allowed keys: %s"  # not words: board file
                        % (where, key, ", ".join(sorted(allowed))))


def _point(where, value, problems):
    if isinstance(value, list) and len(value) == 2 and all(is_number(v) for v in value) \
            and all(abs(v) <= MAX_COORD for v in value):
        return (float(value[0]), float(value[1]))
    problems.append("%s: at %r must be [x, y], two numbers from -%d to %d "
                    "(where it is drawn)" % (where, value, MAX_COORD, MAX_COORD))  # not words
    return None


def _read(obj, problems):
    """The board as written, or None; every structural problem goes to ``problems``."""
    if not isinstance(obj, dict):
        problems.append("a board is a table of keys (name, money, space, paths, thief), "
                        "got %s" % type(obj).__name__)  # not words: a board file's error
        return None
    _unknown("the board", obj, _TOP_KEYS, problems)  # not words: a board file's error
    name = obj.get("name")
    if not _text(name):
        problems.append("name %r must be the board's name, "
                        "1 to 60 printable characters" % (name,))  # not words: a board file's error
    spaces = _read_spaces(obj.get("space"), problems)
    paths = _read_paths(obj.get("paths"), problems)
    thieves = _read_thieves(obj.get("thief"), problems)
    money = _read_money(obj.get("money"), problems)
    labels = _read_labels(obj.get("label", []), problems)
    start = obj.get("investigators_start")
    if start is not None and not _is_int(start):
        problems.append("investigators_start %r must be the number of "
                        "a subway space" % (start,))  # not words: a board file's error
    if problems:
        return None
    return Board(name, spaces, paths, thieves, money, start, labels)


def _read_spaces(entries, problems):
    if not isinstance(entries, list) or not entries:
        problems.append("space must be a list of spaces ([[space]] tables), got %r"  # not words
                        % (type(entries).__name__,))
        return ()
    spaces = []
    for i, entry in enumerate(entries, 1):
        space = _read_space(i, entry, problems)
        if space is not None:
            spaces.append(space)
    return tuple(spaces)


def _read_space(i, entry, problems):
    where = "[[space]] entry %d" % i  # not words: a board file's error
    if not isinstance(entry, dict):
        problems.append("%s must be a table of keys, got %r" % (where, entry))  # not words
        return None
    before = len(problems)
    kind = entry.get("kind")
    number, ident = entry.get("number"), entry.get("id")
    if kind == "circle":
        if not (_text(ident) and ident.isidentifier()):
            problems.append('%s (circle): needs an id such as "c1" (letters, digits and _), '
                            "got %r; paths name circles by id" % (where, ident))  # not words
        else:
            where = 'circle "%s"' % ident
        if number is not None:
            problems.append("%s: has a number (%r); circles are unnumbered, "
                            "give it only an id" % (where, number))  # not words: board file
        key = ident
    else:
        if not _is_int(number) or not 1 <= number <= 9999:
            problems.append("%s: number %r must be a whole number from 1 to 9999"  # not words
                            % (where, number))
        else:
            where = "space %d" % number  # not words: a board file's error
        if ident is not None:
            problems.append("%s: has an id (%r); "
                            "only unnumbered circles have ids" % (where, ident))  # not words
        key = number
    if kind not in KINDS:
        problems.append("%s: kind %r is not known; "
                        "use one of %s" % (where, kind, ", ".join(KINDS)))  # not words: board file
    _unknown(where, entry, _SPACE_KEYS, problems)
    at = _point(where, entry.get("at"), problems)
    building, room = entry.get("building"), entry.get("room")
    if kind == "inside":
        if not _text(building):
            problems.append("%s (inside): needs the building it is in, "
                            "e.g. building = \"Bank\"" % where)  # not words: a board file's error
        if room is not None and not _text(room):
            problems.append("%s: room %r must be a name, e.g. \"vault\" (or leave it out for a "
                            "one-room building)" % (where, room))  # not words: a board file's error
    elif building is not None or room is not None:
        problems.append("%s (%s): only inside spaces have a building or room; a door or window "
                        "belongs to the rooms it joins" % (where, kind))  # not words: board file
    crime = entry.get("crime", False)
    if not isinstance(crime, bool):
        problems.append("%s: crime %r must be true or false" % (where, crime))  # not words
    label = entry.get("label")
    if label is not None and not _text(label):
        problems.append("%s: label %r must be "
                        "1 to 60 printable characters" % (where, label))  # not words: board file
    if len(problems) > before:
        return None
    return Space(key, kind, at, building, room or None, crime, label)


def _read_paths(entries, problems):
    if not isinstance(entries, list) or not entries:
        problems.append("paths must be a list of footprint paths, each a list of spaces such "
                        "as [1, \"c1\", 2], got %r" % (type(entries).__name__,))  # not words
        return ()
    steps = []
    for i, chain in enumerate(entries, 1):
        ok = isinstance(chain, list) and len(chain) >= 2 and all(
            _is_int(k) or isinstance(k, str) for k in chain)
        if not ok:
            problems.append("paths entry %d (%r) must list 2 or more spaces: numbers, and "
                            "circle ids in quotes" % (i, chain))  # not words: a board file's error
            continue
        steps.extend(zip(chain, chain[1:]))
    return tuple(steps)


def _tables(entries, what, keys, problems):
    """Each well-formed table of the list ``entries`` (``what`` names them: "thief card"), as
    ``(where, table)``; a missing list, a non-table and an unknown key go to ``problems``."""
    if not isinstance(entries, list) or not entries:
        problems.append("%s: give a list of tables with %s" % (what, ", ".join(keys)))  # not words
        return
    for i, entry in enumerate(entries, 1):
        where = "%s %d" % (what, i)
        if not isinstance(entry, dict):
            problems.append("%s must be a table with %s" % (where, ", ".join(keys)))  # not words
            continue
        _unknown(where, entry, set(keys), problems)
        yield where, entry


def _read_thieves(entries, problems):
    cards = []
    for where, entry in _tables(entries, "thief card", ("name", "reward"), problems):  # not words
        name, reward = entry.get("name"), entry.get("reward")
        if not _text(name):
            problems.append("%s: name %r must be "
                            "1 to 60 printable characters" % (where, name))  # not words: board file
        if not _is_int(reward) or not 1 <= reward <= MAX_MONEY:
            problems.append("%s: reward %r must be whole dollars from 1 to %d"  # not words
                            % (where, reward, MAX_MONEY))
        else:
            cards.append(ThiefCard(name, reward))
    return tuple(cards)


def _read_money(entries, problems):
    """For each number of players, the starting money and the cash to retire."""
    rows = []
    for where, entry in _tables(entries, "money entry", ("players", "start", "retire"),  # not words
                                problems):
        values = [entry.get(k) for k in ("players", "start", "retire")]
        if not _is_int(values[0]) or not 1 <= values[0] <= MAX_PLAYERS:
            problems.append("%s: players %r must be a number of players from 1 to %d"  # not words
                            % (where, values[0], MAX_PLAYERS))
            continue
        where = "money for %d players" % values[0]  # not words: a board file's error
        bad = [k for k, v in zip(("start", "retire"), values[1:])
               if not _is_int(v) or not 0 <= v <= MAX_MONEY]
        for k in bad:
            problems.append("%s: %s %r must be whole dollars from 0 to %d"  # not words: board file
                            % (where, k, entry.get(k), MAX_MONEY))
        if not bad:
            rows.append(MoneyRow(*values))
    return tuple(rows)


def _read_labels(entries, problems):
    """The names drawn on the map: optional, so an empty list is fine."""
    if entries == []:
        return ()
    labels = []
    for where, entry in _tables(entries, "label", ("text", "at"), problems):
        text = entry.get("text")
        if not _text(text):
            problems.append("%s: text %r must be "
                            "1 to 60 printable characters" % (where, text))  # not words: board file
        at = _point(where, entry.get("at"), problems)
        if _text(text) and at is not None:
            labels.append(Label(text, at))
    return tuple(labels)


# --- Validating what the movement rules need --------------------------------------------------

def validate_board(board):
    """Every reason ``board`` cannot be played, in words that name the space (empty if none)."""
    problems = []
    _check_keys(board, problems)
    known = board.by_key
    for a, b in board.paths:
        for k in (a, b):
            if k not in known:
                what = "space %d" % k if isinstance(k, int) else 'circle "%s"' % k  # not words
                problems.append("path %s - %s: there is no %s; a path joins spaces listed under "
                                "[[space]]" % (a, b, what))  # not words: a board file's error
        if a == b:
            problems.append("path %s - %s: joins a space to itself; a footprint step joins two "
                            "spaces" % (a, b))  # not words: a board file's error
    numbered = [known[n] for n in board.numbers]
    for space in numbered:
        _check_space(board, space, problems)
    _check_reachable(board, problems)
    if not board.crime_scenes:
        problems.append("no space is a crime scene; mark at least one numbered space "
                        "crime = true (every thief starts on one)")  # not words: board file
    for space in board.spaces:
        if space.crime and not space.numbered:
            problems.append("%s: is a crime scene; crime scenes must be numbered spaces (the "
                            "thief never stands on a circle)" % space.name)  # not words: board file
    _check_deck_and_money(board, problems)
    start = board.investigators_start
    if start is not None and (start not in known or known[start].kind != "subway"):
        problems.append("investigators_start %r: is not a subway space; the investigators "
                        "start on a labelled subway space" % (start,))  # not words: board file
    return problems


def _check_keys(board, problems):
    seen, places = set(), {}
    for space in board.spaces:
        if space.key in seen:
            what = "number" if space.numbered else "circle id"  # not words: a board file's error
            problems.append("%s: the %s %s is used twice; every space needs its own"  # not words
                            % (space.name, what, space.key))
        seen.add(space.key)
        if space.at in places and places[space.at] != space.key:
            problems.append("%s: is drawn at %s like %s; give each space its own place"  # not words
                            % (space.name, list(space.at), board.by_key[places[space.at]].name))
        places.setdefault(space.at, space.key)


def _check_space(board, space, problems):
    around = [board.by_key[n] for n in board.next_to[space.key]]
    if space.kind in PASSAGES:
        passages = [s for s in around if s.kind in PASSAGES]
        for other in passages:
            problems.append("%s: is next to %s; a %s joins two areas, so put a room or street "
                            "space between them"  # not words: a board file's error
                            % (space.name, other.name, space.kind))
        areas = sorted({s.area for s in around if s.area is not None})
        rooms = [a for a in areas if a != OUTSIDE]
        if not rooms or len(areas) < 2:
            joined = " and ".join('room "%s"' % a if a != OUTSIDE else "the outside"  # not words
                                  for a in areas) or "nothing"
            problems.append("%s: joins %s to nothing else; a %s joins a room to another room or "
                            "to the outside" % (space.name, joined, space.kind))  # not words
    elif len(around) < 2:
        only = ("its only numbered neighbour is %s"  # not words: a board file's error
                % around[0].key) if around else \
            "it has no numbered neighbour"  # not words: a board file's error
        problems.append("%s: is a dead end (%s); the thief never goes straight back, so give "
                        "it a path to a second numbered space" % (space.name, only))  # not words


def _check_reachable(board, problems):
    if not board.numbers:
        problems.append("the board has no numbered space; the thief moves between numbered "
                        "spaces")  # not words: a board file's error
        return
    first = board.crime_scenes[0] if board.crime_scenes else board.numbers[0]
    seen, todo = {first}, [first]
    while todo:
        for n in board.next_to[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    for n in board.numbers:
        if n not in seen:
            problems.append("%s: cannot be reached from space %d; join it to the rest of the "
                            "board with a path" % (board.by_key[n].name, first))  # not words


def _check_deck_and_money(board, problems):
    if len(board.thieves) != THIEF_CARDS:
        problems.append("the thief deck has %d cards; it must have %d, "
                        "each with its reward" % (len(board.thieves), THIEF_CARDS))  # not words
    counts = [row.players for row in board.money]
    for n in sorted(set(c for c in counts if counts.count(c) > 1)):
        problems.append("money for %d players: is given twice; "
                        "give each number of players once" % n)  # not words: a board file's error
    for row in board.money:
        if row.retire <= row.start:
            problems.append("money for %d players: retire %d is not more than start %d; the "
                            "cash to retire must be more than the starting money"  # not words
                            % (row.players, row.retire, row.start))


# --- Writing (the canonical form: recordings embed it) ---------------------------------------

def board_to_dict(board):
    """The board in the file's shape (paths as single steps); :func:`board_from_dict` reads it
    back to an equal board."""
    spaces = []
    for s in board.spaces:
        entry = {"number": s.key} if s.numbered else {"id": s.key}
        entry["kind"] = s.kind
        entry["at"] = [_plain(v) for v in s.at]
        for key in ("building", "room", "label"):
            if getattr(s, key) is not None:
                entry[key] = getattr(s, key)
        if s.crime:
            entry["crime"] = True
        spaces.append(entry)
    out = {"name": board.name,
           "money": [{"players": r.players, "start": r.start, "retire": r.retire}
                     for r in board.money],
           "space": spaces,
           "paths": [[a, b] for a, b in board.paths],
           "thief": [{"name": c.name, "reward": c.reward} for c in board.thieves]}
    if board.investigators_start is not None:
        out["investigators_start"] = board.investigators_start
    if board.labels:
        out["label"] = [{"text": lb.text, "at": [_plain(v) for v in lb.at]} for lb in board.labels]
    return out


def _plain(v):
    return int(v) if float(v).is_integer() else v


def board_sha256(board):
    """The board's fingerprint: sha256 of its canonical JSON (sorted keys, no spaces), so a
    recording names the exact board it was played on."""
    return board.sha256
