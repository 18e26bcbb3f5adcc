"""The arrows between rig's modules: no circle, no arrow from the shell to a face, no private
name borrowed from another file.

Read from the source (every import statement, lazy ones inside functions included, relative
ones resolved) by :mod:`sim.imports`, so a new module is covered the day it is added.  A face is
what draws or sounds: ``rig.display``, ``rig.web`` and a game folder's face modules
(``rig/games/<game>/screen.py``, ``keys.py``, ``samples.py``, ``sounds.py``, ``townmap.py``,
``icons.py``; Cleptómano's ``setup_screen.py``, ``setup_flow.py``, ``setup_samples.py``).  The
shell runs the devices and the clock and hands snapshots to the faces; it
never reaches into one.
"""

import pathlib

from sim.imports import (find_cycle, import_graph, imported_names, imported_symbols, modules,
                         package_of)

ROOT = pathlib.Path(__file__).resolve().parent.parent
RIG = ROOT / "rig"
TESTS = ROOT / "tests"

#: A game folder's modules that draw, sound or read keys (its face), by file name.
GAME_FACE_PARTS = {"screen", "keys", "samples", "sounds", "townmap", "icons", "setup_screen",
                   "setup_flow", "setup_samples"}


def is_face(module):
    """Is ``module`` (a dotted name) part of a face?"""
    parts = module.split(".")
    if parts[:2] in (["rig", "display"], ["rig", "web"]):
        return True
    return parts[:2] == ["rig", "games"] and len(parts) >= 4 and parts[3] in GAME_FACE_PARTS


def shell_to_face_arrows(graph):
    """Every arrow from a rig.shell module to a face, in words."""
    return ["%s:%d imports %s" % (name, line, target)
            for name, arrows in sorted(graph.items()) if name.startswith("rig.shell")
            for line, target in sorted(arrows) if is_face(target)]


def private_imports(folder, package, root):
    """Every ``from module import _name`` that borrows a private name from another file."""
    found = []
    for name, path in modules(folder, package):
        for line, module, symbol in imported_symbols(path, package_of(name, path)):
            if symbol.startswith("_") and not symbol.startswith("__") and module != name:
                found.append("%s:%d imports %s from %s"
                             % (path.relative_to(root), line, symbol, module))
    return found


def test_no_import_circle_in_rig():
    cycle = find_cycle(import_graph(RIG, "rig"))
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_no_shell_module_imports_a_face():
    # rig/shell/games.py (the adapters, which import the Stop Thief! and Canine sound modules)
    # is deleted by the host-loop work; until then its arrows are the known ones.
    known = {"rig.shell.games"}
    graph = import_graph(RIG, "rig")
    arrows = shell_to_face_arrows({name: arrows for name, arrows in graph.items()
                                   if name not in known})
    assert arrows == []


def test_no_private_name_is_imported_across_files():
    assert private_imports(RIG, "rig", ROOT) == []


def imports_of_test_modules(folder, root):
    """Every import of a test module (test_*.py, conftest.py) by a module of ``folder``, which
    is importable as ``test_x`` (pytest puts the folder on the path) or as ``tests.test_x``; a
    helper module there (tests/games/stop_thief/stop_thief_support.py) is not a test module."""
    found = modules(folder, "tests")
    own = {name for name, path in found if path.name.startswith("test_")
           or path.name == "conftest.py"}
    own |= {name.split(".", 1)[1] for name in own} | {name.rsplit(".", 1)[1] for name in own}
    return ["%s:%d imports %s" % (path.relative_to(root), line, target)
            for name, path in found
            for line, target in imported_names(path, package_of(name, path))
            if target in own or target.split(".")[0] in own]


def test_no_test_module_imports_another():
    """Shared test helpers live in sim/ or tests/conftest.py fixtures, never in a test module."""
    assert imports_of_test_modules(TESTS, ROOT) == []


# The checks themselves, on a tiny package written for the purpose.

def _write(folder, files):
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_cycle_check_names_the_modules_of_a_circle_lazy_imports_included(tmp_path):
    _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from .b import thing\n",
        "b.py": "def f():\n    from . import c\n",
        "c.py": "from pkg.a import other\n",
        "d.py": "from . import a\n",
    })
    cycle = find_cycle(import_graph(tmp_path / "pkg", "pkg"))
    assert cycle == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def test_the_cycle_check_passes_a_tree(tmp_path):
    _write(tmp_path / "pkg", {"__init__.py": "", "a.py": "from . import b\n", "b.py": ""})
    assert find_cycle(import_graph(tmp_path / "pkg", "pkg")) is None


def test_the_face_check_catches_the_shell_reaching_into_a_face():
    graph = {"rig.shell.host": {(3, "rig.display.kit"), (4, "rig.games.cleptomano.rules.view")},
             "rig.shell.cfg": {(9, "rig.games.canine.sounds"), (10, "rig.games.canine.rules")},
             "rig.display.kit": {(1, "rig.shell.faces")}}
    assert shell_to_face_arrows(graph) == ["rig.shell.cfg:9 imports rig.games.canine.sounds",
                                           "rig.shell.host:3 imports rig.display.kit"]


def test_the_private_name_check_catches_a_borrowed_underscore_name(tmp_path):
    _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "_pg = 1\ndef f():\n    from .a import _pg\n",
        "b.py": "def g():\n    from .a import _pg, public\n",
        "c.py": "from __future__ import annotations\n",
    })
    assert private_imports(tmp_path / "pkg", "pkg", tmp_path) == [
        "pkg/b.py:2 imports _pg from pkg.a"]


def test_the_test_module_check_catches_one_test_importing_another(tmp_path):
    _write(tmp_path / "tests", {
        "conftest.py": "from sim.harness import Harness\n",
        "helper_support.py": "X = 1\n",
        "test_a.py": "from test_b import shared\nfrom helper_support import X\n",
        "test_b.py": "def f():\n    import tests.test_a\n",
    })
    assert imports_of_test_modules(tmp_path / "tests", tmp_path) == [
        "tests/test_a.py:1 imports test_b", "tests/test_b.py:2 imports tests.test_a"]


#: What the table (rig/table/) sits below: it turns the world into timestamped inputs and
#: effects into the world, and knows no game, host, face or link.
ABOVE_THE_TABLE = ("rig.games", "rig.shell", "rig.web", "rig.display", "rig.links", "rig.cli",
                   "rig.words", "rig.catalogs")


def table_arrows_up(graph):
    """Every arrow from a rig.table module to a layer above it, in words."""
    return ["%s:%d imports %s" % (name, line, target)
            for name, arrows in sorted(graph.items()) if name.startswith("rig.table")
            for line, target in sorted(arrows)
            if any(target == up or target.startswith(up + ".") for up in ABOVE_THE_TABLE)]


def test_the_table_imports_nothing_above_it():
    graph = import_graph(RIG, "rig")
    assert any(name.startswith("rig.table.") for name in graph)
    assert table_arrows_up(graph) == []


def test_the_table_check_catches_an_arrow_up():
    graph = {"rig.table.pins": {(3, "rig.games.cleptomano.rules.calls"), (4, "rig.core.errors")},
             "rig.table.sources": {(9, "rig.shell.inbox")}, "rig.shell.host": {(1, "rig.web")}}
    assert table_arrows_up(graph) == ["rig.table.pins:3 imports rig.games.cleptomano.rules.calls",
                                      "rig.table.sources:9 imports rig.shell.inbox"]
