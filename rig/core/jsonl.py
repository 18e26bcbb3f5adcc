"""JSON Lines, the way every game's recording is one: each line one short JSON object, read and
written the same for every game (see README "Recordings").

* :func:`load_line` reads one line's JSON, bounded (:mod:`rig.core.bounded`);
* :func:`line_head` checks what every line after the header starts with, ``t`` and its kind;
* :func:`read_lines` / :class:`LineReader` read a whole recording through a game's own
  ``parse_header`` and ``parse_item``;
* :func:`dumps` writes one line; :func:`is_number` is a number the rig can compute with.

Pure: text in, values out; every error is a RecordingError naming the line.
"""

import json
import sys

from .bounded import MAX_DEPTH, load_json
from .errors import RecordingError

#: The longest line a recording may hold, in UTF-8 bytes: a header (a card table included) is a
#: few KB, any other line under 200 bytes.  Longer is not a recording (``replay /dev/zero``).
MAX_LINE_BYTES = 1 << 20
#: The deepest a line's arrays and objects may nest: a recording's go at most 6 deep (a card
#: table).  Deeper JSON would exhaust the parser's recursion (100,000 nested ``[]`` fit a line).
MAX_NESTING = MAX_DEPTH

def _fail(message, line):
    raise RecordingError(message, line=line)


def is_number(value):
    """A number the rig can compute with: not a bool, not NaN or infinity, and not an integer
    too big for a float (JSON allows 10**309, no clock does)."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and abs(value) <= sys.float_info.max)


def line_head(obj, line, last_t, expected):
    """What every line after the header (any game's recording) starts with: ``(t, kind, by)``.

    ``obj`` must be a JSON object whose ``t`` is seconds since the start, never before the line
    above's; with exactly one key of ``expected`` (kind -> the keys its line may hold) and no
    key its kind does not allow; ``by``, if there, the name of who sent it."""
    if not isinstance(obj, dict):
        _fail("a line must be a JSON object with \"t\", got %s" % type(obj).__name__, line)
    t = obj.get("t")
    if not is_number(t) or t < 0:
        _fail("t %r must be a number of seconds since the start, 0 or more" % (t,), line)
    if t < last_t:
        _fail("t %r goes back in time (the line before says %r); times never decrease"
              % (t, last_t), line)
    kinds = [k for k in expected if k in obj]
    if len(kinds) != 1:
        _fail("a line needs exactly one of %s; got keys %s" % (", ".join(expected), sorted(obj)),
              line)
    kind = kinds[0]
    extra = sorted(set(obj) - set(expected[kind]))
    if extra:
        _fail("key %r does not belong on a %s line; allowed: %s"
              % (extra[0], kind, ", ".join(sorted(expected[kind]))), line)
    by = obj.get("by")
    if by is not None and not isinstance(by, str):
        _fail("by %r must be the name of who sent it" % (by,), line)
    return float(t), kind, by


def load_line(text, line):
    """One line's JSON value, or RecordingError naming ``line``: a line too long or nested too
    deep is refused before it is parsed (:func:`rig.core.bounded.load_json`); a number of more
    digits than Python reads is named."""
    return load_json(text, lambda message: RecordingError(message, line=line),
                     "a recording line is one short JSON object, a few levels deep (is this a "
                     "recording?)", max_depth=MAX_NESTING, max_bytes=MAX_LINE_BYTES,
                     what="the line")


def read_lines(lines, parse_header, parse_item, path=None, stop=None):
    """The JSON Lines reading every game's recording shares: the first non-blank line through
    ``parse_header(obj, line)``, each later one through ``parse_item(obj, line, last_t)``
    (``last_t`` the line before's ``t``, which ``parse_item`` checks with :func:`line_head`), up
    to the first item ``stop`` accepts.  ``lines`` are the text between newlines (``"\n"``
    only: text may hold U+2028 or U+0085).  Returns ``(header, [(line,
    item), ...])``; a RecordingError names FILE:LINE."""
    reader = LineReader(parse_header, parse_item, path, stop)
    try:
        for text in lines:       # the lines' source may refuse one too (bytes not UTF-8)
            reader.feed(text)
            if reader.done:
                break
    except RecordingError as exc:
        raise RecordingError(exc.msg or exc.detail, path=path, line=exc.line) from None
    return reader.finish()


class LineReader:
    """:func:`read_lines` a line at a time, for a recording still being written (the
    tournament link follows the open match as its lines reach the disk): :meth:`feed` each
    line's text, read ``header`` and ``items`` as they come, :meth:`finish` at the end."""

    def __init__(self, parse_header, parse_item, path=None, stop=None):
        self.parse_header, self.parse_item = parse_header, parse_item
        self.path, self.stop = path, stop
        self.header, self.items, self.last_t = None, [], 0.0
        self.number = 0
        self.done = False            # the stop item was read: nothing after it counts

    def feed(self, text):
        """Read the next line; returns its item (None for the header or a blank line)."""
        self.number += 1
        if self.done or not text.strip():
            return None
        try:
            obj = load_line(text, self.number)
            if self.header is None:
                self.header = self.parse_header(obj, self.number)
                return None
            item = self.parse_item(obj, self.number, self.last_t)
        except RecordingError as exc:
            raise RecordingError(exc.msg or exc.detail, path=self.path, line=exc.line) from None
        self.last_t = obj["t"]
        self.items.append((self.number, item))
        self.done = self.stop is not None and bool(self.stop(item))
        return item

    def finish(self):
        """``(header, items)``; RecordingError when there was no header."""
        if self.header is None:
            raise RecordingError("the recording is empty; it must start with a header line",
                                 path=self.path, line=1)
        return self.header, self.items


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
