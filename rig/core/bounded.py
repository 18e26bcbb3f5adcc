"""Text from outside the rig, parsed with bounds (pure): JSON and TOML that never raise anything
but the reader's own error.

Python's ``json`` and ``tomllib`` recurse into nested arrays and objects: 20,000 ``[`` in a
recording line, a phone's body or a board file exhaust the stack and raise RecursionError (a
traceback, not a message).  ``tomllib`` also keeps every prefix of a dotted key (100,000 parts
take minutes and gigabytes).  So every reader of outside input parses it here: the text is
measured first, by linear scans that never recurse, and refused (too long, too deep, too many
dots) before the parser sees it.

Each reader answers in its own error type: it hands :func:`load_json` / :func:`load_toml` a
``fail(message)`` that makes its error (a RecordingError naming FILE:LINE, a ConfigError
naming the file and key, a RequestError that is a 400, a PayloadError...), and ``fix``, the
words that say what to do.  Every message names the value found, the bound and the fix.

The bounds: our own formats nest at most 6 deep (a recording header with its card table; a
board file's space with its point; a tournament message carrying a standings row), see
``tests/test_bounded_input.py``, which measures every sample.  :data:`MAX_DEPTH` (32) leaves
five times that; Python's parsers manage about 900.
"""

import json
import re
import sys
import tomllib

from .text import nesting

#: The deepest outside JSON or TOML may nest arrays and objects (tables).
MAX_DEPTH = 32
#: The most dots one TOML line may hold outside its strings (a key has a handful).
MAX_TOML_DOTS_PER_LINE = 64

#: A JSON string (its brackets are text; one left open runs to the end: JSON refuses it anyway)
#: or a bracket, captured.  The unrolled form scans each character once.
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)|([][{}])', re.S)
#: TOML's strings and comments: the brackets and dots in them are text.
TOML_TEXT = re.compile("|".join((
    r'"""(?:[^\\]|\\[\s\S])*?"""',     # a multi-line basic string
    r"'''[\s\S]*?'''",                # a multi-line literal string
    r'"(?:[^"\\\n]|\\.)*"',            # a basic string
    r"'[^'\n]*'",                      # a literal string
    r"#[^\n]*")))                      # a comment


def json_depth(text):
    """How deep the arrays and objects of JSON ``text`` nest (brackets in strings are text; a
    stray closer counts as nothing).  Linear in the text, never recursive."""
    if "[" not in text and "{" not in text:
        return 0
    deepest = depth = 0
    for bracket in _JSON_TOKENS.findall(text):
        if bracket in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif bracket:
            depth = max(0, depth - 1)
    return deepest


def utf8_size(text):
    """The UTF-8 bytes of ``text`` (a lone surrogate, which no file holds, as three)."""
    return len(text.encode("utf-8", "surrogatepass"))


def load_json(text, fail, fix, *, max_depth=MAX_DEPTH, max_bytes=None, what="the text",
              nests="arrays or objects nest", syntax="not JSON (%s)"):
    """The JSON value of ``text``; else ``fail(message)`` is raised, the message one sentence
    of what is wrong then ``fix``: longer than ``max_bytes`` UTF-8 bytes (None: no bound; the
    reader bounded what it read), nested deeper than ``max_depth`` (checked before the parser
    recurses), not JSON (``syntax`` with the parser's words), or a number of more digits than
    Python reads.  Nothing else escapes: no RecursionError, no other ValueError."""
    if max_bytes is not None and len(text) > max_bytes // 4 and utf8_size(text) > max_bytes:
        raise fail("%s is longer than %d bytes (%d); %s" % (what, max_bytes, utf8_size(text),
                                                             fix))
    if text.count("[") + text.count("{") > max_depth:
        found = json_depth(text)
        if found > max_depth:
            raise fail("%s more than %d deep (%d levels); %s" % (nests, max_depth, found, fix))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = " at line %d column %d" % (exc.lineno, exc.colno) if "\n" in text.strip() \
            else ""
        raise fail("%s; %s" % (syntax % (exc.msg + where), fix)) from None
    except ValueError:      # the only other one: an integer beyond Python's digit limit
        raise fail("a number has more than %d digits; %s" % (sys.get_int_max_str_digits(),
                                                              fix)) from None


def toml_bare(text):
    """TOML ``text`` with its strings and comments blanked (``""``), its lines kept."""
    return TOML_TEXT.sub(lambda m: '""' + "\n" * m.group().count("\n"), text)


def toml_shape(text, max_depth=MAX_DEPTH, max_dots=MAX_TOML_DOTS_PER_LINE):
    """What makes TOML ``text`` too dotted or too deep for ``tomllib`` to parse safely, as
    ``(line, "dots" or "depth", words)`` (``words`` say what was found and the bound, the reader
    adds its fix); None when its shape is fine.  Strings and comments are text."""
    depth = 0
    for number, line in enumerate(toml_bare(text).split("\n"), 1):
        dots = line.count(".")
        if dots > max_dots:
            return number, "dots", "more than %d dots outside strings (%d)" % (max_dots, dots)
        deepest, depth = nesting(line, depth)
        if deepest > max_depth:
            return number, "depth", "arrays or tables nest more than %d deep (%d levels)" % (
                max_depth, deepest)
    return None


def load_toml(text, fail, fix, *, max_depth=MAX_DEPTH, max_bytes=None, what="the text",
              syntax="not TOML (%s)"):
    """The TOML document in ``text`` (a dict); else ``fail(message)`` is raised, as
    :func:`load_json` does: too long, too deep or too dotted (line N), not TOML, or a number of
    more digits than Python reads."""
    if max_bytes is not None and len(text) > max_bytes // 4 and utf8_size(text) > max_bytes:
        raise fail("%s is longer than %d bytes (%d); %s" % (what, max_bytes, utf8_size(text),
                                                             fix))
    shape = toml_shape(text, max_depth)
    if shape is not None:
        raise fail("line %d: %s; %s" % (shape[0], shape[2], fix))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise fail("%s; %s" % (syntax % exc, fix)) from None
    except ValueError:
        raise fail("a number has more than %d digits; %s" % (sys.get_int_max_str_digits(),
                                                              fix)) from None
