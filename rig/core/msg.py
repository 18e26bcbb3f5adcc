"""Codes, not sentences: what the rules (and every face) say, before it has a language.

The rules never write a sentence a player reads.  They emit a :class:`Msg`: a code and its
parameters.  The code names one entry of a message catalog (``rig/games/<game>/locale`` for a
game's words, ``rig/locale`` for the rig's own), and the shell renders it in the table's language
or in each phone's (:mod:`rig.words`), with the plural form that language needs.

A code is dotted, lower case, and starts with its catalog's domain, the game's registry name or
``rig``: ``rig.host.refused``, ``rig.web.no_such_phone``.  A parameter is a string, a
whole number (shown with the language's digit grouping), a :class:`Msg` (rendered in the same
language), or a tuple of those (a list, joined the language's way: "Ana, Ben y Carla").  A
message whose words depend on a count takes it as the parameter ``n``: its catalog entry has the
language's plural forms and ``n`` picks one.

A :class:`Msg` is a value: equal when code and parameters are, hashable, and written to JSON as
``{"code": ..., "params": {...}}`` (:meth:`Msg.as_json`, :func:`from_json`), so a snapshot can
carry it to a face in another process.  Its ``str()`` is language-neutral (the code and the
parameters), for a log line that must not depend on who is at the table.

:func:`N_` marks a code written where no :class:`Msg` is built yet (a table of codes), so the
catalog tools still find it.
"""

import re
from typing import Any, Dict, Tuple

__all__ = ["Msg", "msg", "N_", "from_json", "is_msg_json", "CODE", "domain_of", "joined",
           "MAX_DEPTH"]

#: What a code looks like: a domain and at least one more dotted part, lower case.
CODE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")

#: How deep messages (and their tuples) may nest in one another.  Hashing, comparing, saying
#: and writing a message recurse through it, so a chain as long as what a phone sends (a layout
#: of 250 entries, each named in one list) would exhaust the stack: a long list is joined as a
#: balanced tree instead (:func:`joined`), 2 ** 32 parts deep enough.
MAX_DEPTH = 32


def N_(code: str) -> str:
    """Mark ``code`` for the catalog tools (it is returned unchanged)."""
    return code


def _depth(value):
    if isinstance(value, Msg):
        return value._depth
    if isinstance(value, tuple):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _check_param(name, value, depth=0):
    if depth > MAX_DEPTH:
        raise ValueError("message parameter %s nests lists deeper than %d levels"
                         % (name, MAX_DEPTH))
    if isinstance(value, bool):
        raise TypeError("message parameter %s=%r: a bool has no words; pass a Msg or a code"
                        % (name, value))
    if isinstance(value, (str, int, Msg)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("message parameter %s=%r is not a finite number" % (name, value))
        return value
    if isinstance(value, (tuple, list)):
        return tuple(_check_param(name, v, depth + 1) for v in value)
    raise TypeError("message parameter %s=%r: allowed are str, int, float, Msg or a tuple of "
                    "them" % (name, value))


class Msg:
    """A code and its parameters: one thing to say, in no language yet."""

    __slots__ = ("code", "params", "_depth")

    def __init__(self, code: str, /, **params: Any):
        if not isinstance(code, str) or not CODE.match(code):
            raise ValueError("message code %r is not a dotted lower-case code "
                             "(domain.part[.part...]), e.g. 'rig.host.refused'" % (code,))
        object.__setattr__(self, "code", code)
        checked = tuple(sorted((k, _check_param(k, v)) for k, v in params.items()))
        depth = 1 + max((_depth(v) for _, v in checked), default=0)
        if depth > MAX_DEPTH:
            raise ValueError("message %s nests messages %d deep, more than %d: join a long list "
                             "with joined() (a balanced tree), not a chain"
                             % (code, depth, MAX_DEPTH))
        object.__setattr__(self, "params", checked)
        object.__setattr__(self, "_depth", depth)

    def __setattr__(self, name, value):
        raise AttributeError("a Msg is a value and cannot be changed")

    def __reduce__(self):               # pickled to the display process: rebuilt, checked again
        return (_rebuild, (self.code, self.params))

    @property
    def domain(self) -> str:
        return domain_of(self.code)

    def get(self, name, default=None):
        for k, v in self.params:
            if k == name:
                return v
        return default

    def kwargs(self) -> Dict[str, Any]:
        return dict(self.params)

    def __eq__(self, other):
        return isinstance(other, Msg) and (self.code, self.params) == (other.code, other.params)

    def __hash__(self):
        return hash((self.code, self.params))

    def __repr__(self):
        inner = "".join(", %s=%r" % kv for kv in self.params)
        return "Msg(%r%s)" % (self.code, inner)

    def __str__(self):
        if not self.params:
            return self.code
        return "%s(%s)" % (self.code, ", ".join("%s=%s" % (k, _neutral(v))
                                               for k, v in self.params))

    def codes(self):
        """Every code this message uses, its own and its parameters' (for the catalog tests)."""
        yield self.code
        for _, v in self.params:
            yield from _codes_in(v)

    def as_json(self) -> Dict[str, Any]:
        return {"code": self.code, "params": {k: _to_json(v) for k, v in self.params}}


def _rebuild(code, params):
    return Msg(code, **dict(params))


def _codes_in(value):
    if isinstance(value, Msg):
        yield from value.codes()
    elif isinstance(value, tuple):
        for v in value:
            yield from _codes_in(v)


def _neutral(value):
    if isinstance(value, tuple):
        return "[%s]" % ", ".join(_neutral(v) for v in value)
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _to_json(value):
    if isinstance(value, Msg):
        return value.as_json()
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def is_msg_json(obj) -> bool:
    """Whether ``obj`` is a :class:`Msg` as :meth:`Msg.as_json` writes it."""
    return (isinstance(obj, dict) and set(obj) == {"code", "params"}
            and isinstance(obj["code"], str) and isinstance(obj["params"], dict))


def _from_json(value, depth):
    if depth > MAX_DEPTH:
        raise ValueError("a message nested deeper than %d levels" % MAX_DEPTH)
    if is_msg_json(value):
        return from_json(value, depth + 1)
    if isinstance(value, list):
        return tuple(_from_json(v, depth + 1) for v in value)
    return value


def from_json(obj, depth=0) -> "Msg":
    """The :class:`Msg` :meth:`Msg.as_json` wrote (ValueError or TypeError for anything else)."""
    if not is_msg_json(obj):
        raise ValueError("not a message: %r (expected {'code': ..., 'params': {...}})" % (obj,))
    return Msg(obj["code"], **{str(k): _from_json(v, depth) for k, v in obj["params"].items()})


def joined(parts, code):
    """``parts`` (messages, or words) joined by ``code``, a catalog entry ``{first}SEP{rest}``
    that reads the same however it is grouped (a comma, a semicolon, a space), as one message;
    None for no part, the part itself for one.  Grouped as a balanced tree, so a list of any
    length nests only as deep as its length's logarithm (:data:`MAX_DEPTH`)."""
    parts = tuple(parts)
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    half = len(parts) // 2 if len(parts) > 3 else 1      # up to three read first, then the rest
    return Msg(code, first=joined(parts[:half], code), rest=joined(parts[half:], code))


def msg(code: str, /, **params: Any) -> Msg:
    """Shorthand for :class:`Msg` (``msg("rig.web.full", most=8)``)."""
    return Msg(code, **params)


def domain_of(code: str) -> str:
    """The catalog a code belongs to: its first dotted part."""
    return code.split(".", 1)[0]


def params_of(message: Msg) -> Tuple[Tuple[str, Any], ...]:
    return message.params
