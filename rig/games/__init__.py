"""The games the rig plays: one registry, Cleptómano its first entry.

Each game is one folder, ``rig/games/<game>/``, whose package exposes ``GAME``: an object
answering :class:`rig.core.contract.Game`.  The folder holds everything of that game: its pure
``rules/``, its words, its screen, keys, sounds and sample screens, its part of the phone page
and its config section.  :data:`REGISTRY` below is the only list of games: the command line
(``--game``), the game night, ``replay`` (by a recording's header), ``history``, the samples
and the phones' list of games all read it.  Adding a game is its folder, one line here and its
README section (README "Adding a game").

The registry names packages and imports a game only when it is first asked for, so importing
it costs nothing; a game's package imports its rules and words, never a face (its screen, keys
and sounds are modules of the folder that only the faces load, through :func:`part`).
"""

from importlib import import_module, resources

from ..core.errors import ConfigError

#: The games, by package, in the order the night's list offers them.
REGISTRY = [
    "rig.games.cleptomano",
    "rig.games.stop_thief",
    "rig.games.stolen_paintings",
    "rig.games.chest_heist",
    "rig.games.canine",
]


def games():
    """Every registered game's ``GAME``, in registry order."""
    return tuple(import_module(package).GAME for package in REGISTRY)


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


def part(g, name):
    """The module ``name`` of game ``g``'s folder (``"screen"``, ``"keys"``, ``"sounds"``,
    ``"samples"``...), or None when the game has no such part."""
    module = "%s.%s" % (package_of(g), name)
    try:
        return import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None


def data(g, name):
    """The file ``name`` of game ``g``'s folder (its ``phone.js``...), read as text, or None
    when the game has none."""
    found = resources.files(package_of(g)).joinpath(name)
    return found.read_text("utf-8") if found.is_file() else None


def register(package):
    """Add the game whose package is ``package`` (a test's own game, a game of one's own
    installed beside the rig) at the end of the registry; :func:`unregister` takes it out."""
    if package not in REGISTRY:
        import_module(package).GAME     # fails here, not at the first listing
        REGISTRY.append(package)


def unregister(package):
    if package in REGISTRY and package != REGISTRY[0]:
        REGISTRY.remove(package)
