"""A game is checked when it registers (rig/games/checks.py against rig/core/contract.py), and
games are found through the entry point group ``cleptomano.games`` too (docs/contract29.md).

What a builder notices: a game of their own that lacks part of the contract is refused with one
line naming the game, everything it lacks and the fix, and the registry is left as it was; a
game installed beside the rig (an entry point) is listed after the rig's own, Cleptómano
first; an installed game that cannot be loaded is one line naming its entry point and how to
take it out."""

import textwrap
from importlib.metadata import EntryPoint

import pytest

from rig import games as registry
from rig.core import contract
from rig.core.errors import ConfigError
from rig.games import checks

BUILT_IN = ("cleptomano", "stop-thief", "stolen-paintings", "chest-heist", "canine")

WHOLE = '''
from rig.games.chest_heist import GAME as CHEST


class Mine(type(CHEST)):
    name = prefix = recording = "%(name)s"
    section = ""
    title = "Mine"
%(body)s

GAME = Mine()
'''


@pytest.fixture
def make(tmp_path, monkeypatch):
    """Make a game package of the test's own: ``make(body, name=..., **parts)`` writes its
    ``game.py`` (a renamed chest heist whose class body is ``body``) and parts; its package."""
    made = []
    monkeypatch.syspath_prepend(str(tmp_path))

    def package(body="", name="mine", **parts):
        package = "mine_%d_%s" % (len(made), tmp_path.name.replace("-", "_"))
        folder = tmp_path / package
        folder.mkdir()
        (folder / "__init__.py").write_text("from .game import GAME\n", "utf-8")
        (folder / "game.py").write_text(WHOLE % {"name": name, "body": textwrap.indent(
            textwrap.dedent(body), "    ")}, "utf-8")
        for part, text in parts.items():
            (folder / part.replace("_js", ".js")).with_suffix(
                ".js" if part.endswith("_js") else ".py").write_text(textwrap.dedent(text),
                                                                     "utf-8")
        made.append(package)
        return package

    yield package
    for package in made:
        registry.unregister(package)
    assert registry.names() == BUILT_IN


def test_every_game_of_the_rig_answers_the_contract_with_every_part():
    for g in registry.games():
        parts = registry.check_parts(g)
        assert checks.game_lacks(g) == [], g.name
        assert isinstance(g, contract.Game)
    assert set(registry.check_parts(registry.game("stop-thief"))) == {
        "screen", "keys", "sounds", "samples", "settings", "crash"}


def test_the_contract_declares_every_name_the_platform_reads():
    attributes, methods = checks.declared(contract.Game)
    assert {"name", "title", "title_msg", "recording", "prefix", "section", "streams_replay", "solo", "hides",
            "secret_commands", "shows_calls", "seed_bound", "min_players", "max_players",
            "example"} <= set(attributes)
    assert {"new_game", "step", "command_from_json", "parse_command", "board", "choices",
            "map_json", "restore", "replay", "view", "player_view", "secrets"} <= set(methods)
    assert set(contract.PARTS) == {"screen", "keys", "sounds", "samples", "settings", "crash",
                                   "commands", "tournament"}


def test_a_game_without_a_name_is_one_error_naming_it_what_it_lacks_and_the_fix(make):
    game_py = "name = None"
    package = make(game_py)
    with pytest.raises(ConfigError) as caught:
        registry.register(package)
    message = str(caught.value)
    assert message.startswith("game %s: its GAME (Mine) does not answer the rig's contract: "
                              "it lacks name as a text (it is None); " % package)
    assert "add them to its class" in message and "docs/contract29.md" in message
    assert "\n" not in message
    assert package not in registry.packages() and registry.names() == BUILT_IN


def test_every_lack_is_said_at_once_and_a_wrong_signature_by_what_it_takes(make):
    package = make('''
        title = 7
        max_players = 0

        def step(self, state):
            return state, ()
        ''')
    with pytest.raises(ConfigError) as caught:
        registry.register(package)
    message = str(caught.value)
    assert "title as a text (it is 7)" in message
    assert "step(state, command) taking what the rig passes (it takes (state))" in message
    assert "1 <= min_players <= max_players (they are 1 and 0)" in message


def test_a_part_that_lacks_its_interface_is_named_with_the_fix(make):
    package = make(samples='''
        SHOTS = ("mine-won",)
        ''')
    with pytest.raises(ConfigError, match=r"^game %s: its part samples.py does not answer the "
                       r"rig's contract: it lacks shot\(name\); add them to %s.samples, or "
                       r"remove the module" % (package, package)):
        registry.register(package)
    package = make(name="mine-two", phone_js="// nothing registered\n")
    with pytest.raises(ConfigError, match=r"its phone.js does not answer the rig's contract: "
                                          r"it lacks window.GamePhones"):
        registry.register(package)


def test_a_second_game_may_not_take_a_name_already_played(make):
    package = make(name="canine")
    with pytest.raises(ConfigError, match=r"its name 'canine' is rig.games.canine's already; "
                                          r"give it a name of its own"):
        registry.register(package)


def test_an_installed_game_is_found_through_its_entry_point_after_the_rigs_own(
        make, monkeypatch):
    package = make(name="mine")
    found = [EntryPoint("mine", package, registry.GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: found if group ==
                        registry.GROUP else [])
    registry.rescan()
    try:
        assert registry.names() == BUILT_IN + ("mine",)
        assert registry.names()[0] == "cleptomano"
        assert registry.package_of(registry.game("mine")) == package
        # The rig's own game named by an entry point too is not listed twice.
        found.append(EntryPoint("canine", "rig.games.canine", registry.GROUP))
        registry.rescan()
        assert registry.names() == BUILT_IN + ("mine",)
    finally:
        monkeypatch.undo()
        registry.rescan()
    assert registry.names() == BUILT_IN


def test_a_broken_installed_game_is_one_error_saying_how_to_take_it_out(make, monkeypatch):
    package = make("name = None")
    monkeypatch.setattr(registry, "entry_points", lambda group: [
        EntryPoint("gone", "no_such_heist_package", registry.GROUP)])
    registry.rescan()
    try:
        with pytest.raises(ConfigError) as caught:
            registry.names()
        assert str(caught.value) == (
            "game no_such_heist_package, installed as entry point gone of cleptomano.games: "
            "no_such_heist_package cannot be imported (ModuleNotFoundError: No module named "
            "'no_such_heist_package'); reinstall it, or pip uninstall it")
        monkeypatch.setattr(registry, "entry_points", lambda group: [
            EntryPoint("nameless", package, registry.GROUP)])
        registry.rescan()
        with pytest.raises(ConfigError, match=r"^game %s, installed as entry point nameless of "
                                              r"cleptomano.games: its GAME \(Mine\) does not "
                                              r"answer the rig's contract: it lacks name as a "
                                              r"text \(it is None\)" % package):
            registry.names()
        monkeypatch.setattr(registry, "entry_points", lambda group: [
            EntryPoint("odd", "rig.games.canine:make_game", registry.GROUP)])
        registry.rescan()
        with pytest.raises(ConfigError, match=r"^cleptomano.games: entry point odd = "
                                              r"'rig.games.canine:make_game' names 'make_game'"):
            registry.names()
    finally:
        monkeypatch.undo()
        registry.rescan()
    assert registry.names() == BUILT_IN


def test_at_the_command_line_a_broken_installed_game_is_one_line_and_exit_status_2(
        monkeypatch, capsys, tmp_path):
    from rig import cli
    monkeypatch.setattr(registry, "entry_points", lambda group: [
        EntryPoint("gone", "no_such_heist_package", registry.GROUP)])
    registry.rescan()
    try:
        assert cli.main(["history", "--dir", str(tmp_path)]) == 2
    finally:
        monkeypatch.undo()
        registry.rescan()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "cleptomano: game no_such_heist_package, installed as entry point gone of "
        "cleptomano.games: no_such_heist_package cannot be imported")
    assert err.rstrip().endswith("reinstall it, or pip uninstall it")


def test_a_gamebase_subclass_that_names_nothing_is_told_each_thing_it_must_say(
        tmp_path, monkeypatch):
    """The builder's first draft: GameBase's defaults and a title, nothing else."""
    package = "draft_%s" % tmp_path.name.replace("-", "_")
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text(
        "from rig.games.base import GameBase\n"
        "class Draft(GameBase):\n"
        "    title = 'A draft'\n"
        "GAME = Draft()\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ConfigError) as caught:
        registry.register(package)
    message = str(caught.value)
    assert message.startswith("game %s: its GAME (Draft) does not answer" % package)
    for lack in ("a name of 1-40 lowercase letters, digits and '-', a letter first (it is '')",
                 "a recording that is not empty", "a prefix that is not empty",
                 "new_game(players, seed, settings=None)", "step(state, command)",
                 "replay(lines, path=None)"):
        assert lack in message, lack
    assert package not in registry.packages()
