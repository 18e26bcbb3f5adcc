"""The games the rig plays: one registry, Cleptómano its first entry.

Each game is one folder, ``rig/games/<game>/``, whose package exposes ``GAME``: an object
answering :class:`rig.core.contract.Game`.  The folder holds everything of that game: its pure
``rules/``, its words, its screen, keys, sounds and sample screens, its part of the phone page,
its config section and its crash script (the parts, :data:`rig.core.contract.PARTS`).
:func:`packages` is the only list of games: the command line (``--game``), the game night,
``replay`` (by a recording's header), ``history``, the samples, the config and the phones' list
of games all read it.  It is, in order:

1. :data:`REGISTRY`, the games that come with the rig (Cleptómano first);
2. the games installed beside it: every entry point of the group ``cleptomano.games``
   (:data:`GROUP`; ``night-heist = "night_heist"`` in a game's own ``pyproject.toml`` names its
   package), by entry point name; a game of the list above is not listed twice;
3. the games :func:`register`-ed since (a test's own game).

Every game is checked when the registry first loads it (:mod:`rig.games.checks`): its
``GAME`` against the contract, its ``settings`` part, and (for a game installed or registered
from outside) every part its folder has; a built-in game's face parts are checked when a face
first loads them (:func:`part`).  A game that does not answer, or an entry point that cannot
be loaded, is one :class:`~rig.core.errors.ConfigError` naming it, what it lacks and the fix:
the rig does not start on a broken game rather than play a night without it unnoticed (the fix
says how to take it out: ``pip uninstall`` its distribution).

A game's words are in its folder's catalog, whose domain is the folder's name
(:func:`catalog_domain`): the registry hands :func:`catalog_domains` to :mod:`rig.words` when it
is imported, so the words, below the games, never import one.

The registry names packages and imports a game only when it is first asked for, so importing
it costs nothing; a game's package imports its rules and words, never a face (its screen, keys
and sounds are modules of the folder that only the faces load, through :func:`part`).
"""

from importlib import import_module, resources
from importlib.metadata import entry_points

from .. import words
from ..core.errors import ConfigError

#: The entry point group a game installed beside the rig declares itself in.
GROUP = "cleptomano.games"

#: The games, by package, in the order the night's list offers them.
REGISTRY = [
    "rig.games.cleptomano",
    "rig.games.stop_thief",
    "rig.games.stolen_paintings",
    "rig.games.chest_heist",
    "rig.games.canine",
]
#: The rig's own games (what :data:`REGISTRY` holds before anything is registered).
BUILT_IN = tuple(REGISTRY)


#: Entry point name -> package of the games found through :data:`GROUP` (None: not looked for
#: yet; :func:`rescan` looks again).
_installed = None
#: Packages whose GAME (and, for an outside game, parts) passed the check.
_checked = set()


def packages():
    """Every game's package, in registry order: the rig's own, the installed ones (entry
    points), the registered ones."""
    found = list(REGISTRY)
    for package in installed().values():
        if package not in found:
            found.append(package)
    return tuple(found)


def installed():
    """The games installed beside the rig: entry point name -> package, by name.  An entry
    point that names no package (``value`` ``pkg`` or ``pkg:GAME``) is one ConfigError."""
    global _installed
    if _installed is None:
        found = {}
        for entry in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            if entry.attr not in (None, "GAME"):
                raise ConfigError("entry point %s = %r names %r; it must name the game's "
                                  "package (%s = \"%s\") or its GAME; fix the pyproject.toml of "
                                  "%s, or pip uninstall it" % (
                                      entry.name, entry.value, entry.attr, entry.name,
                                      entry.module, _distribution(entry)), key=GROUP)
            found[entry.name] = entry.module
        _installed = found
    return dict(_installed)


def rescan():
    """Look for installed games again (after a ``pip install``, in a test)."""
    global _installed
    _installed = None


def _distribution(entry):
    dist = getattr(entry, "dist", None)
    name = getattr(dist, "name", None) or getattr(dist, "metadata", {}).get("Name") \
        if dist is not None else None
    return "its distribution %s" % name if name else "the distribution that declares it"


def _origin(package):
    """How ``package`` came to the registry, for a message about it."""
    for name, found in (_installed or {}).items():
        if found == package and package not in REGISTRY:
            return "installed as entry point %s of %s" % (name, GROUP)
    return None


def load(package):
    """The ``GAME`` of ``package``, checked the first time (:mod:`rig.games.checks`)."""
    from . import checks
    origin = _origin(package)
    try:
        module = import_module(package)
    except ImportError as exc:
        if origin is None:
            raise
        raise ConfigError("%s cannot be imported (%s: %s); reinstall it, or pip uninstall "
                          "it" % (package, type(exc).__name__, exc),
                          key="game %s, %s" % (package, origin)) from None
    game = getattr(module, "GAME", None)
    if package in _checked:
        return game
    try:
        checks.check_game(package, game)
        settings = part(game, "settings", check=False)
        if settings is not None:
            checks.check_part(package, game, "settings", settings)
        if package not in BUILT_IN:
            check_parts(game)
        for other in list(_checked):
            _check_unique(package, game, other)
    except ConfigError as exc:
        if origin is None:
            raise
        raise ConfigError(exc.detail, key="%s, %s" % (exc.key, origin)) from None
    _checked.add(package)
    return game


def _check_unique(package, game, other):
    """A second game may not take the name, recording or file prefix of one loaded before."""
    if other == package or other not in packages():
        return
    known = import_module(other).GAME
    for key in ("name", "recording", "prefix"):
        if getattr(game, key) == getattr(known, key):
            raise ConfigError("its %s %r is %s's already; give it a %s of its own"
                              % (key, getattr(game, key), other, key),
                              key="game %s" % package)


def check_parts(game):
    """Every part of ``game``'s folder (and its ``phone.js``) against its interface, or one
    ConfigError; the parts it has, by name."""
    from ..core.contract import PARTS, PHONE_JS
    from . import checks
    package = package_of(game)
    found = {}
    for name in PARTS:
        module = part(game, name, check=False)
        if module is not None:
            found[name] = checks.check_part(package, game, name, module)
    text = data(game, PHONE_JS)
    if text is not None:
        checks.check_phone(package, game, text)
    return found


def games():
    """Every registered game's ``GAME``, in registry order."""
    return tuple(load(package) for package in packages())


def names():
    """Every registered game's command-line name, in registry order."""
    return tuple(g.name for g in games())


def game(name):
    """The game whose command-line name is ``name``, or ConfigError naming the choices."""
    for g in games():
        if g.name == name:
            return g
    raise ConfigError("game %r is not one the rig plays; choose one of %s"
                      % (name, ", ".join(names())), key="game")


def by_recording(kind):
    """The game whose recordings' header says ``"recording": kind``, or None."""
    for g in games():
        if g.recording == kind:
            return g
    return None


def at_table(g):
    """Whether game ``g`` is played at the table: it reads the table's inputs (its declared
    ``table_inputs``: Cleptómano's contacts, hand sensor and relics).  Such a game's recordings
    are listed as the museum's matches (``GET /api/matches``), ``GET /api/games`` says
    ``"museum": true`` of it, and ``history`` lists them without the game's title, as it
    always has; the host referees it at the pins' pace (:class:`rig.shell.host.Host`)."""
    return bool(g.table_inputs)


def table_parts(g):
    """What game ``g`` uses of the table: the ``PARTS`` of its folder's ``parts`` module
    (:mod:`rig.table.parts`); a game that declares none uses nothing of it."""
    from ..table.parts import NONE
    module = part(g, "parts")
    return getattr(module, "PARTS", NONE) if module is not None else NONE


def settings(g, config):
    """Game ``g``'s table of the rig config ``config`` (its ``section``), what its
    ``new_game`` takes; None (every default) without a config."""
    return None if config is None else getattr(config, g.section)


def title_words(g):
    """What a player reads for game ``g``'s name: its ``title_msg`` (a code, said in the reader's
    language: the name its rulebook gives it there), or its ``title`` where the name is a proper
    name, the same in every language (docs/glossary.md)."""
    said = getattr(g, "title_msg", None)
    return said if said is not None else g.title


def package_of(g):
    """The package of game ``g``'s folder (``"rig.games.stop_thief"``)."""
    return type(g).__module__.rsplit(".", 1)[0]


def catalog_domain(g):
    """Game ``g``'s catalog domain: its folder's name, the first part of its codes."""
    return package_of(g).rsplit(".", 1)[-1]


def catalog_domains():
    """Every registered game's catalog domain -> its package: what :mod:`rig.words` reads a
    game's code from (handed to it below, as this registry is imported)."""
    return {catalog_domain(g): package_of(g) for g in games()}


words.find_game_domains(catalog_domains)


def part(g, name, check=True):
    """The module ``name`` of game ``g``'s folder (``"screen"``, ``"keys"``, ``"sounds"``,
    ``"samples"``...: :data:`rig.core.contract.PARTS`), or None when the game has no such
    part; a declared part is checked against its interface the first time (one ConfigError
    naming the game, what the part lacks and the fix)."""
    module = "%s.%s" % (package_of(g), name)
    try:
        found = import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None
    if check and module not in _checked:
        from ..core.contract import PARTS
        from . import checks
        if name in PARTS:
            checks.check_part(package_of(g), g, name, found)
        _checked.add(module)
    return found


def tournament():
    """The ``tournament`` part of the first game of the registry that has one (Cleptómano's):
    what the tournament's link and leaderboard know of its matches (RigError when no game
    has one)."""
    for g in games():
        found = part(g, "tournament")
        if found is not None:
            return found
    raise ConfigError("no registered game has a tournament part; a tournament plays the "
                      "matches of a game whose folder has tournament.py", key="tournament")


def data(g, name):
    """The file ``name`` of game ``g``'s folder (its ``phone.js``...), read as text, or None
    when the game has none."""
    found = resources.files(package_of(g)).joinpath(name)
    return found.read_text("utf-8") if found.is_file() else None


def register(package):
    """Add the game whose package is ``package`` (a test's own game; a game installed beside
    the rig is found through its entry point instead) at the end of the registry, checked with
    all its parts now (one ConfigError naming what it lacks, and it is not added);
    :func:`unregister` takes it out."""
    if package not in packages():
        REGISTRY.append(package)
        try:
            check_parts(load(package))
        except BaseException:
            REGISTRY.remove(package)
            _forget(package)
            raise


def unregister(package):
    if package in REGISTRY and package != REGISTRY[0] and package not in BUILT_IN:
        REGISTRY.remove(package)
        _forget(package)


def _forget(package):
    """Check ``package`` again should it come back (a test's game, changed)."""
    for checked in [c for c in _checked if c == package or c.startswith(package + ".")]:
        _checked.discard(checked)
