"""The score sheet file: the grid's boxes, each chest's row or column and its diamonds.

The rulebook does not print the grid, so the rig plays without it; a player who supplies the
sheet of their copy lets the rig also tick boxes, open chests and count diamonds.  The file is
JSON (UTF-8)::

    {"rows": [["3", "P", "x2:6", "#", "11", "I"],
              ["I", "5", "12", "P", "#", "2"],
              ...],
     "chests": {"A": {"row": 1, "diamonds": 2},
                "B": {"column": 4, "diamonds": 1},
                ...}}

* ``rows``: the grid, top row first, 1 to 12 rows of 1 to 12 boxes, every row as long as the
  first.  A box is written as :mod:`.boxes` says (``"7"`` or 7, ``"P"``, ``"I"``, ``"x2"``,
  ``"x2:6"``, ``"#"`` for black).  Box ids count from the top left: ``r1c1``, ``r1c2``...
* ``chests``: exactly the twelve chests ``"A"`` to ``"L"``, each with ``"row"`` or ``"column"``
  (counted from 1) and ``"diamonds"`` (0 to 20, what opening it wins).  No two chests share a
  line, and each line has a box to tick (black boxes count as ticked).

Errors name the box or the chest (:class:`~rig.core.errors.ConfigError` with ``key``).  Pure:
:func:`parse_sheet` takes the file's text; the shell reads the file.
"""

from dataclasses import dataclass
from typing import Tuple

from rig.core.bounded import load_json
from rig.core.errors import ConfigError, RulesError
from rig.core.gamekit import is_whole
from .boxes import BLACK, SPEC_HELP, Box, parse_box

CHESTS = "ABCDEFGHIJKL"
LARGEST_GRID = 12
MOST_DIAMONDS = 20
#: A sheet file is a few KB (a 12 by 12 grid and its chests); beyond this is not one.
MAX_SHEET_BYTES = 1 << 20
LINES = ("row", "column")


@dataclass(frozen=True)
class Chest:
    letter: str
    line: str          # "row" or "column"
    index: int         # from 1
    diamonds: int

    @property
    def where(self):
        return "%s %d" % (self.line, self.index)


@dataclass(frozen=True)
class Sheet:
    rows: Tuple[Tuple[Box, ...], ...]
    chests: Tuple[Chest, ...]            # A to L

    @property
    def size(self):
        return len(self.rows), len(self.rows[0])

    def ids(self):
        """Every box id, row by row."""
        h, w = self.size
        return tuple(box_id(r, c) for r in range(1, h + 1) for c in range(1, w + 1))

    def box(self, ident):
        """The box called ``ident`` ("r2c3"), or None."""
        where = _position(ident)
        if where is None:
            return None
        r, c = where
        h, w = self.size
        return self.rows[r - 1][c - 1] if 1 <= r <= h and 1 <= c <= w else None

    def line_ids(self, chest):
        h, w = self.size
        if chest.line == "row":
            return tuple(box_id(chest.index, c) for c in range(1, w + 1))
        return tuple(box_id(r, chest.index) for r in range(1, h + 1))

    def chests_through(self, ident):
        """The chests whose line holds the box ``ident``."""
        r, c = _position(ident)
        return tuple(x for x in self.chests
                     if (x.line, x.index) in (("row", r), ("column", c)))

    def complete(self, chest, ticked):
        """Is every box of the chest's line ticked (or black)?"""
        return all(i in ticked or self.box(i).kind == BLACK for i in self.line_ids(chest))

    @property
    def diamonds(self):
        return sum(x.diamonds for x in self.chests)


def box_id(row, column):
    return "r%dc%d" % (row, column)


def _position(ident):
    if not isinstance(ident, str) or not ident.startswith("r") or "c" not in ident:
        return None
    row, _, column = ident[1:].partition("c")
    if not (row.isascii() and row.isdigit() and column.isascii() and column.isdigit()):
        return None
    where = int(row), int(column)
    return where if box_id(*where) == ident else None      # one spelling a box: r2c3


def sheet_from_json(obj, path=None):
    """The :class:`Sheet` the JSON value ``obj`` describes, or ConfigError naming the box."""
    if not isinstance(obj, dict) or set(obj) != {"rows", "chests"}:
        got = sorted(obj) if isinstance(obj, dict) else type(obj).__name__
        raise ConfigError('a sheet is {"rows": [[box, ...], ...], "chests": {"A": {"row": 1, '
                          '"diamonds": 2}, ...}}; got %s' % (got,), path=path)
    rows = obj["rows"]
    if not isinstance(rows, list) or not 1 <= len(rows) <= LARGEST_GRID:
        raise ConfigError("rows must be a list of 1 to %d rows of boxes" % LARGEST_GRID,
                          key="rows", path=path)
    width = None
    grid = []
    for r, row in enumerate(rows, 1):
        if not isinstance(row, list) or not 1 <= len(row) <= LARGEST_GRID:
            raise ConfigError("row %d must be a list of 1 to %d boxes" % (r, LARGEST_GRID),
                              key="rows", path=path)
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ConfigError("row %d has %d boxes and row 1 has %d; every row is as long as "
                              "the first" % (r, len(row), width), key="rows", path=path)
        boxes = []
        for c, spec in enumerate(row, 1):
            try:
                boxes.append(parse_box(spec, black=True))
            except RulesError:
                given = str(spec) if isinstance(spec, int) and not isinstance(spec, bool) \
                    else spec
                raise ConfigError("box %r is not a box; write %s" % (given, SPEC_HELP),
                                  path=path, key=box_id(r, c)) from None
        grid.append(tuple(boxes))
    sheet = Sheet(tuple(grid), ())
    return Sheet(sheet.rows, _chests(obj["chests"], sheet, path))


def _chests(obj, sheet, path):
    if not isinstance(obj, dict) or sorted(obj) != list(CHESTS):
        got = ", ".join(sorted(map(str, obj))) if isinstance(obj, dict) else repr(obj)
        raise ConfigError("chests must name exactly the twelve chests A to L; got %s"
                          % (got or "none"), key="chests", path=path)
    h, w = sheet.size
    chests, used = [], {}
    for letter in CHESTS:
        spec, key = obj[letter], "chests.%s" % letter
        lines = [k for k in LINES if isinstance(spec, dict) and k in spec]
        if not isinstance(spec, dict) or len(lines) != 1 or set(spec) != {lines[0], "diamonds"}:
            raise ConfigError('chest %s must be {"row": N, "diamonds": N} or {"column": N, '
                              '"diamonds": N}' % letter, key=key, path=path)
        line = lines[0]
        index, diamonds = spec[line], spec["diamonds"]
        top = h if line == "row" else w
        if not is_whole(index, 1, top):
            raise ConfigError("chest %s's %s %r is not in the grid; the grid has %d %ss"
                              % (letter, line, index, top, line), key=key, path=path)
        if not is_whole(diamonds, 0, MOST_DIAMONDS):
            raise ConfigError("chest %s's diamonds %r must be a whole number from 0 to %d"
                              % (letter, diamonds, MOST_DIAMONDS), key=key, path=path)
        chest = Chest(letter, line, index, diamonds)
        if (line, index) in used:
            raise ConfigError("chests %s and %s both open with %s; each chest has its own line"
                              % (used[(line, index)], letter, chest.where), key=key, path=path)
        if sheet.complete(chest, frozenset()):
            raise ConfigError("chest %s's %s has only black boxes; give it a box to tick"
                              % (letter, chest.where), key=key, path=path)
        used[(line, index)] = letter
        chests.append(chest)
    return tuple(chests)


def parse_sheet(text, path=None):
    """The sheet in the file text ``text`` (``path`` names the file in errors)."""
    obj = load_json(text, lambda message: ConfigError(message, path=path),
                    "a sheet file is one JSON object",  # not words: for the builder
                    max_bytes=MAX_SHEET_BYTES, what="the sheet file")  # not words: for the builder
    return sheet_from_json(obj, path)


def sheet_to_json(sheet):
    """The JSON value of ``sheet`` (what :func:`sheet_from_json` reads back)."""
    return {"rows": [[b.label for b in row] for row in sheet.rows],
            "chests": {x.letter: {x.line: x.index, "diamonds": x.diamonds}
                       for x in sheet.chests}}
