"""Text from a file a person wrote (a name, a path, a key), and the one line a message is.

A recording is read a line at a time and an error is shown as one line, so text that breaks a
line has no place in a value: control characters (U+0085 NEXT LINE among them) and the line and
paragraph separators, on which ``str.splitlines`` and many terminals break; nor a lone
surrogate, which no UTF-8 file can hold.
"""

import re
import unicodedata

_NOT_IN_A_LINE = {"Cc": "a control character", "Zl": "a line separator",
                  "Zp": "a paragraph separator", "Cs": "a lone surrogate"}


def control_character(text):
    """The first character of ``text`` that one line of text may not hold, described as
    ``"U+2028 (a line separator)"``; None when there is none."""
    for char in text:
        kind = _NOT_IN_A_LINE.get(unicodedata.category(char))
        if kind is not None:
            return "U+%04X (%s)" % (ord(char), kind)
    return None


def one_line(text):
    """``text`` with every character that is not printable (line and paragraph breaks, control
    characters, odd spaces) escaped as Python writes it: ``\\n``, ``\\x85``, ``\\u2028``."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


_BRACKETS = re.compile(r"[][{}]")


def nesting(text, depth=0):
    """How deep the brackets of ``text`` nest (its strings taken out first: theirs are text),
    starting ``depth`` deep: ``(deepest, depth at its end)``.  A stray closer counts as nothing.
    Checked before JSON or TOML is parsed: their parsers recurse, so 100,000 nested ``[`` would
    exhaust the stack."""
    deepest = depth
    for bracket in _BRACKETS.findall(text):
        depth = depth + 1 if bracket in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    return deepest, depth
