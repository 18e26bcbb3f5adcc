"""Settings declared once: a :class:`Key` names one config key with its kind, bounds, unit,
default and doc line; a :class:`Section` groups keys under a TOML table and builds the
section's frozen value.  The rig config's sections (``rig.shell.config``) and each game's own
(``rig/games/<game>/settings.py``) are declared with it.

Pure: it validates values already parsed from TOML.  What needs the world (a path relative to
the config's folder, a file's text, the pin map) comes through the loader's :class:`Context`.
Every mistake is one :class:`~rig.core.errors.ConfigError` naming the ``section.key``, the value,
what is allowed and the default.
"""

import dataclasses
import difflib
import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from .errors import ConfigError, RulesError
from .text import control_character

KINDS = ("number", "whole", "boolean", "string", "choice", "path", "file", "custom", "checked")


def show(value):
    """A value as the user wrote it in TOML; an integer of hundreds of digits by its length
    (TOML's hexadecimal can spell one too long for Python to print in decimal)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 128:
        return "a number of about %d digits" % int(value.bit_length() * math.log10(2) + 1)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[%s]" % ", ".join(show(v) for v in value)
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s = %s" % (k, show(v)) for k, v in value.items())
    return str(value)


def show_hex(value):
    ok = isinstance(value, int) and not isinstance(value, bool)
    return "0x%02X" % value if ok and value >= 0 else show(value)


def _num(x):
    return ("%g" % x) if isinstance(x, float) else str(x)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Table:
    """One TOML table being read: checks keys against the allowed set, then each value."""

    def __init__(self, data, name, path, allowed=None, shape=None):
        self.name = name
        self.path = path
        if not isinstance(data, dict):
            shape = shape or "a [%s] section with key = value lines" % name
            raise self.error(None, "%s is not a table; write it as %s" % (show(data), shape))
        self.data = data
        for key in data if allowed is not None else ():
            if key not in allowed:
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                fix = ("did you mean %s? " % hint[0]) if hint else ""
                raise self.error(key, "unknown key %s in [%s]; %sallowed keys: %s; fix or "
                                      "remove it" % (show(key), name, fix, ", ".join(allowed)))

    def key(self, key):
        return "%s.%s" % (self.name, key) if key is not None else self.name

    def error(self, key, message):
        return ConfigError(message, path=self.path, key=self.key(key))

    def has(self, key):
        return key in self.data

    def number(self, key, default, low, high, *, unit="seconds", whole=False,
               low_open=False, zero_hint=""):
        """A number in [low, high] (or (low, high] with ``low_open``)."""
        value = self.data.get(key, default)
        span = ("above %s, at most %s" if low_open else "from %s to %s") % (_num(low), _num(high))
        allowed = "give %s%s %s (default %s)" % ("whole " if whole else "", unit, span,
                                                 _num(default))
        if not is_number(value) or (whole and not isinstance(value, int)):
            kind = "a whole number" if whole else "a number"
            raise self.error(key, "%s is not %s; %s" % (show(value), kind, allowed))
        too_low = value <= low if low_open else value < low
        if value != value or too_low or value > high:      # NaN is out of every range
            extra = (" (%s)" % zero_hint) if (value == 0 and zero_hint) else ""
            raise self.error(key, "%s is out of range%s; %s" % (show(value), extra, allowed))
        return value if whole else float(value)

    def boolean(self, key, default):
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, "%s is not true or false; write %s = true or %s = false "
                                  "(no quotes; default %s)"
                             % (show(value), key, key, show(default)))
        return value

    def string(self, key, default, *, allow_empty=False, what="a string"):
        value = self.data.get(key, default)
        if not isinstance(value, str):
            raise self.error(key, "%s is not %s; write it in \"quotes\" (default %s)"
                             % (show(value), what, show(default)))
        if not allow_empty and not value.strip():
            raise self.error(key, "%s is empty; give %s (default %s)"
                             % (show(value), what, show(default)))
        bad = control_character(value)
        if bad is not None:
            raise self.error(key, "%s holds %s; give %s on one line, without control "
                                  "characters" % (show(value), bad, what))
        return value

    def choice(self, key, default, choices):
        value = self.data.get(key, default)
        if value not in choices or not isinstance(value, str):
            raise self.error(key, "%s is not allowed; use one of %s (default %s)"
                             % (show(value), ", ".join(show(c) for c in choices),
                                show(default)))
        return value


class Context:
    """What a section may need beyond its own table, handed in by the loader: ``path(raw)``
    resolves a path as written (``~`` expanded, relative to the config's folder),
    ``read_text(path)`` reads a UTF-8 file (OSError or UnicodeDecodeError when it cannot),
    and ``pinmap`` is the pin map once read.  ``values`` holds the sections built so far,
    ``tables`` every section's checked :class:`Table` (a cross-section check names its key)."""

    def __init__(self, path, read_text, pinmap=None):
        self.path = path
        self.read_text = read_text
        self.pinmap = pinmap
        self.values = {}
        self.tables = {}

    def text(self, t, key, path):
        """The text of the file ``path`` given under ``key``, or one ConfigError naming it."""
        try:
            return self.read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise t.error(key, "%s cannot be read (%s); give the path of a UTF-8 text file"
                          % (path, getattr(exc, "strerror", None) or exc)) from None


@dataclass(frozen=True)
class Key:
    """One config key, declared once.

    ``kind`` is one of :data:`KINDS`: ``number`` (seconds or ``unit``, from ``low`` to ``high``;
    ``low_open`` excludes ``low``), ``whole`` (a whole number), ``boolean``, ``string`` (``what``
    it is; ``allow_empty``), ``choice`` (one of ``choices``), ``path`` (a path, relative to the
    config's folder), ``file`` (a file's path; ``""`` or absent: None, the packaged default; with
    ``parse(table, key, context, path)``: (path, what parse makes of the file)),
    ``custom`` (``parse(table, key, context)`` checks it) or ``checked`` (taken as written: the
    section's ``build`` hands it to the game's own validator).  ``default`` is the value when
    absent (``default_from(context)`` when it depends on another file), ``shown`` how messages
    print it when not as itself, ``example`` how the example config writes it when not as its
    default.  ``attr`` is the attribute of the section's value that holds it
    (None: not one of its own; the section's ``build`` uses it), defaulting to ``value_default``
    when that is not the TOML ``default`` itself (a path: the default as resolved)."""
    name: str
    kind: str
    default: Any = None
    doc: str = ""
    unit: str = "seconds"
    low: Any = None
    high: Any = None
    low_open: bool = False
    zero_hint: str = ""
    choices: Tuple[str, ...] = ()
    what: str = "a string"
    allow_empty: bool = False
    shown: Any = None
    default_from: Optional[Callable] = None
    parse: Optional[Callable] = None
    attr: Optional[str] = ""
    value_default: Any = NotImplemented
    #: How the example config writes this key's value, as TOML text, when not its default as
    #: TOML writes it (a default that is a path of the checkout, one taken from the pin map, a
    #: key whose default is "the difficulty's"): the example config and the configuration
    #: reference are generated from these declarations (``python -m sim.tools.configdocs``).
    example: Optional[str] = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError("key %s: kind %r is not one of %s" % (self.name, self.kind, KINDS))
        if self.attr == "":
            object.__setattr__(self, "attr", self.name)
        if self.value_default is NotImplemented:
            object.__setattr__(self, "value_default", self.default)

    def read(self, t, context):
        """This key's value in table ``t`` (its default when absent), or ConfigError."""
        default = self.default_from(context) if self.default_from else self.default
        kind = self.kind
        if kind in ("number", "whole"):
            return t.number(self.name, default, self.low, self.high, unit=self.unit,
                            whole=kind == "whole", low_open=self.low_open,
                            zero_hint=self.zero_hint)
        if kind == "boolean":
            return t.boolean(self.name, default)
        if kind == "string":
            return t.string(self.name, default, allow_empty=self.allow_empty, what=self.what)
        if kind == "choice":
            return t.choice(self.name, default, self.choices)
        if kind == "path":
            if not t.has(self.name):
                return context.path(default)
            shown = str(default) if self.shown is None else self.shown
            return context.path(t.string(self.name, shown, what=self.what))
        if kind == "file":
            raw = t.string(self.name, "", allow_empty=True, what=self.what).strip()
            path = context.path(raw) if raw else None
            if self.parse is None:
                return path
            return path, (None if path is None else self.parse(t, self, context, path))
        if kind == "custom":
            return self.parse(t, self, context)
        return t.data.get(self.name, default)


class Section:
    """A TOML table ``[name]`` of ``keys``, read into a frozen value.

    ``value`` is the value's class: its attributes are the keys' ``attr``; None builds one
    (:func:`value_class`, named ``class_name`` in ``module``).  ``build(values, table,
    context)``, when given, makes the value from the keys' values (a dict by name) instead: the
    place for cross-key checks and for a game's own validator.  ``optional``: an absent table
    gives None.  ``check(table, context)`` runs before any key is read (a game's validator over
    the whole table); ``read_order`` names the keys in the order they are read, when not the
    order declared (the order the messages list them in).

    A game's section sits after the shell's ``[storage]`` unless it names the shell's section
    it comes ``before`` (Cleptómano's ``[match]``: ``before="pins"``, first in the file, read
    first).  ``checks`` are ``(name, check(table, value, context))`` pairs: each runs right after
    the section ``name`` has been read (a check against what that one gives, e.g. the pin map
    ``[pins]`` reads), and may raise the table's error."""

    def __init__(self, name, keys, *, value=None, class_name=None, module=None, build=None,
                 check=None, read_order=None, optional=False, doc="", namespace=None,
                 before=None, checks=()):
        self.name = name
        self.keys = tuple(keys)
        self.names = tuple(k.name for k in self.keys)
        self.check = check
        self.read_order = tuple(read_order or self.names)
        if sorted(self.read_order) != sorted(self.names):
            raise ValueError("section %s: read_order %s is not its keys %s"
                             % (name, self.read_order, self.names))
        self.value = value or value_class(class_name, self.keys, module, doc, namespace)
        self.build = build
        self.optional = optional
        self.doc = doc
        self.before = before
        self.checks = tuple(checks)

    def key(self, name):
        return self.keys[self.names.index(name)]

    def default(self):
        """The value of an absent table."""
        return None if self.optional else self.value()

    def table(self, data, path):
        """The table ``data`` (the parsed TOML of this section), its keys checked."""
        return Table(data, self.name, path, self.names)

    def read(self, t, context):
        """The section's value from the checked table ``t``, or one ConfigError."""
        if self.check is not None:
            self.check(t, context)
        values = {name: self.key(name).read(t, context) for name in self.read_order}
        if self.build is not None:
            return self.build(values, t, context)
        return self.value(**{k.attr: values[k.name] for k in self.keys if k.attr})


def value_class(name, keys, module, doc="", namespace=None):
    """A frozen dataclass ``name`` of ``module`` (where it is found, so it pickles) with one
    attribute per key (its ``attr``), defaulting to the key's default; ``namespace`` adds
    properties and methods."""
    fields = [(k.attr, object, dataclasses.field(default=k.value_default)) for k in keys if k.attr]
    cls = dataclasses.make_dataclass(name, fields, frozen=True, namespace=namespace or {})
    cls.__doc__ = doc or cls.__doc__
    cls.__module__ = module
    return cls



def rules_checked(t, check, values):
    """``check(**values)`` (a game's own validator), its RulesError turned into a ConfigError
    naming the first key of table ``t`` its message names (else the table).  A whole number
    beyond any float (TOML spells one in a few hundred digits) is refused first: no game's
    setting can use one, and arithmetic on it would overflow in the validator."""
    for key, value in values.items():
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1023:
            raise t.error(key, "%s is out of range; give a number the rig can use"
                          % show(value))
    try:
        return check(**values)
    except RulesError as exc:
        key = next((k for k in t.data if str(k) in str(exc)), None)
        raise t.error(key, exc.msg if exc.msg is not None else str(exc)) from None


def parsed_file(t, key, path, parse):
    """``parse(...)``'s result for the file ``path`` given under ``key``; its ConfigError (a
    game's parser names what is wrong in the file) re-raised naming the key."""
    try:
        return parse()
    except ConfigError as exc:
        raise t.error(key, str(exc)) from None
