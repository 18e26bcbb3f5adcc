"""A game checked against the contract when it registers (:mod:`rig.core.contract`).

As pluggy checks each hook implementation of a plugin against its hook's spec when the plugin
is registered (its arguments must be ones the spec declares, else one ``PluginValidationError``
naming the plugin and the hook), the registry checks a game when it first loads it: ``GAME``
against :class:`rig.core.contract.Game` and each part of its folder against its interface
(:data:`rig.core.contract.PARTS`).  Every name the contract declares must be there, of its
kind (a text, a whole number, a flag, a tuple, a class), and every method callable with the
arguments the platform passes.  What is wrong is gathered, then said in one
:class:`~rig.core.errors.ConfigError`: the game, each thing it lacks, and the fix.

Reads modules and signatures, nothing else (no file, no clock).
"""

import collections.abc
import inspect
import re
import typing

from ..core import contract
from ..core.errors import ConfigError

#: A command-line name: it is also a URL path segment (``/games/phone/NAME.js``) and a file
#: prefix.
NAME = re.compile(r"[a-z][a-z0-9-]{0,39}\Z")
#: Where the contract is written down for a builder.
DOCS = "docs/contract29.md"


def declared(protocol):
    """``(attributes, methods)`` a contract class declares: attribute name -> its annotation,
    method name -> its parameters after ``self`` (``inspect.Parameter`` values)."""
    attributes, methods = {}, {}
    for klass in reversed(protocol.__mro__):
        if klass is object or klass is typing.Protocol or klass.__module__ != contract.__name__:
            continue
        attributes.update(vars(klass).get("__annotations__", {}))
        for name, value in vars(klass).items():
            if inspect.isfunction(value) and not name.startswith("_"):
                methods[name] = tuple(inspect.signature(value).parameters.values())[1:]
    return attributes, methods


def _kind(annotation):
    """What a value of ``annotation`` is, in words, and a test for it."""
    origin = typing.get_origin(annotation) or annotation
    if origin is bool:
        return "true or false", lambda v: isinstance(v, bool)
    if origin is int:
        return "a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool)
    if origin is str:
        return "a text", lambda v: isinstance(v, str)
    if origin is tuple:
        return "a tuple", lambda v: isinstance(v, tuple)
    if origin is dict:
        return "a dict", lambda v: isinstance(v, dict)
    if origin is type:
        return "a class", lambda v: isinstance(v, type)
    if origin is collections.abc.Callable:
        return "a function", callable
    return "a value", lambda v: True


def _signature(params):
    """``(state, command)``: how a method is declared (its parameters after ``self``)."""
    return "(%s)" % ", ".join(p.name if p.default is inspect.Parameter.empty
                              else "%s=%r" % (p.name, p.default) for p in params)


def _accepts(function, params):
    """Whether ``function`` (bound, or a module's) takes what the platform passes: the required
    arguments by position, the optional ones by position and by name."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return True                     # a builtin without a signature: it may well take them
    required = [None for p in params if p.default is inspect.Parameter.empty]
    try:
        signature.bind(*([None] * len(params)))
        signature.bind(*required, **{p.name: None for p in params
                                      if p.default is not inspect.Parameter.empty})
    except TypeError:
        return False
    return True


def lacks(thing, protocol, optional=()):
    """Everything ``thing`` (a GAME, or a part's module) lacks of ``protocol``, one phrase
    each (empty: it answers)."""
    attributes, methods = declared(protocol)
    found = []
    for name, annotation in attributes.items():
        if not hasattr(thing, name):
            if name not in optional:
                found.append("%s (%s)" % (name, _kind(annotation)[0]))
            continue
        what, fits = _kind(annotation)
        value = getattr(thing, name)
        if not fits(value):
            found.append("%s as %s (it is %r)" % (name, what, value))
    for name, params in methods.items():
        function = getattr(thing, name, None)
        if function is None:
            if name not in optional:
                found.append("%s%s" % (name, _signature(params)))
        elif not callable(function):
            found.append("%s%s as a function (it is %r)" % (name, _signature(params), function))
        elif not _accepts(function, params):
            try:
                has = str(inspect.signature(function))
            except (TypeError, ValueError):
                has = "other arguments"
            found.append("%s%s taking what the rig passes (it takes %s)"
                         % (name, _signature(params), has))
    return found


def game_lacks(game):
    """What ``game`` (a package's ``GAME``) lacks of :class:`rig.core.contract.Game`, with the
    values the contract bounds (a name the command line and the URLs can carry, a player count,
    a seed bound)."""
    found = lacks(game, contract.Game)
    name = getattr(game, "name", None)
    if isinstance(name, str) and not NAME.match(name):
        found.append("a name of 1-40 lowercase letters, digits and '-', a letter first "
                     "(it is %r)" % name)
    for key in ("title", "recording", "prefix"):
        value = getattr(game, key, None)
        if isinstance(value, str) and not value.strip():
            found.append("a %s that is not empty" % key)
    low, high = getattr(game, "min_players", None), getattr(game, "max_players", None)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) and \
            not 1 <= low <= high:
        found.append("1 <= min_players <= max_players (they are %r and %r)" % (low, high))
    bound = getattr(game, "seed_bound", None)
    if isinstance(bound, int) and not isinstance(bound, bool) and bound < 1:
        found.append("a seed_bound of at least 1 (it is %r)" % bound)
    commands = getattr(game, "secret_commands", ())
    if isinstance(commands, tuple) and not all(isinstance(c, type) for c in commands):
        found.append("secret_commands as a tuple of command classes (it is %r)" % (commands,))
    return found


def part_lacks(game, name, module):
    """What the part ``name`` (a module of ``game``'s folder) lacks of its interface."""
    found = lacks(module, contract.PARTS[name], contract.OPTIONAL.get(name, ()))
    if name == "settings" and not found:
        section = getattr(module.SECTION, "name", None)
        if section != getattr(game, "section", None):
            found.append("SECTION named as GAME.section (%r; the section is named %r)"
                         % (getattr(game, "section", None), section))
    if name == "samples" and not found and not all(isinstance(s, str) for s in module.SHOTS):
        found.append("SHOTS as names (texts)")
    return found


def phone_lacks(game, text):
    """What a game's ``phone.js`` lacks (see :data:`rig.core.contract.PHONE_JS`)."""
    found = ["%s (it registers the game's part of the page there)" % n
             for n in contract.PHONE_JS_NAMES if n not in text]
    name = re.escape(str(getattr(game, "name", "")))
    registered = re.compile(r"GamePhones\b[^\n]*?(?:\[\s*[\"']%s[\"']\s*\]|\.%s\b)"
                            % (name, name))
    if not found and not registered.search(text):
        found.append('window.GamePhones["%s"] (its part is registered under the game\'s name)'
                     % getattr(game, "name", ""))
    return found


def refuse(package, what, found, fix):
    """One ConfigError: game ``package``'s ``what`` does not answer; ``found`` what it lacks."""
    raise ConfigError("%s does not answer the rig's contract: it lacks %s; %s (%s)"
                      % (what, "; ".join(found), fix, DOCS), key="game %s" % package)


def check_game(package, game):
    """``game`` (the package's ``GAME``), or one ConfigError naming the package, all it lacks
    and the fix."""
    if game is None:
        refuse(package, "the package", ["GAME, the game object"],
               "give its __init__.py a GAME (an instance of a subclass of "
               "rig.games.base.GameBase)")
    found = game_lacks(game)
    if found:
        refuse(package, "its GAME (%s)" % type(game).__qualname__, found,
               "add them to its class (a subclass of rig.games.base.GameBase has the defaults "
               "of every optional one)")
    return game


def check_part(package, game, name, module):
    """The part ``name`` of ``package`` (its module ``module``), or one ConfigError."""
    found = part_lacks(game, name, module)
    if found:
        refuse(package, "its part %s.py" % name, found,
               "add them to %s.%s, or remove the module if the game has no %s"
               % (package, name, name))
    return module


def check_phone(package, game, text):
    found = phone_lacks(game, text)
    if found:
        refuse(package, "its %s" % contract.PHONE_JS, found,
               "register its part as the other games' phone.js do")
    return text
