"""Reading a package's imports from its source, for the tests that guard the arrows.

Every import statement counts, lazy ones (inside a function) included, and relative imports are
resolved against the importing module's package.  Nothing is imported or run: the files are
parsed with :mod:`ast`.  Used by tests/test_purity.py (the core stays pure) and
tests/test_imports.py (no circle, no arrow from the shell to a face, no private name imported
across files).
"""

import ast
import pathlib


def modules(folder, package):
    """Every module under ``folder`` (a :class:`pathlib.Path`), as (dotted name, path)."""
    found = []
    for path in sorted(pathlib.Path(folder).rglob("*.py")):
        parts = list(path.relative_to(folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.append((".".join([package] + parts), path))
    return found


def package_of(name, path):
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rsplit(".", 1)[0]


def _target(node, package):
    if not node.level:
        return node.module
    base = package.split(".")
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_names(path, package):
    """Every module a file imports, as (line, absolute dotted name); relative imports are
    resolved against ``package`` (the importing module's package).  ``from x import y`` with no
    module (``from . import y``) names ``x.y``; a call to ``import_module`` is reported as
    ``"<dynamic import>"``."""
    tree = ast.parse(pathlib.Path(path).read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _target(node, package)
            if node.module is None:
                found += [(node.lineno, target + "." + alias.name) for alias in node.names]
            else:
                found.append((node.lineno, target))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name == "import_module":
                found.append((node.lineno, "<dynamic import>"))
    return found


def imported_symbols(path, package):
    """Every ``from module import name`` in a file, as (line, absolute module, name)."""
    tree = ast.parse(pathlib.Path(path).read_text(encoding="utf-8"), filename=str(path))
    return [(node.lineno, _target(node, package), alias.name)
            for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
            for alias in node.names]


def import_graph(folder, package):
    """The module graph of a package: {module: {(line, module it imports)}}, only arrows to
    modules of the same package.  ``from pkg import name`` points at ``pkg.name`` when that is a
    module, else at ``pkg``; importing ``a.b.c`` also runs ``a`` and ``a.b`` but those arrows are
    left out (a package's ``__init__`` is where a circle through it would show)."""
    found = modules(folder, package)
    known = {name for name, _ in found}
    graph = {}
    for name, path in found:
        arrows = set()
        for line, target in imported_names(path, package_of(name, path)):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                arrows.add((line, target))
        graph[name] = arrows
    return graph


def find_cycle(graph):
    """One import circle of ``graph`` as a list of modules (the first repeated at the end), or
    ``None``.  Deterministic: modules are visited in sorted order."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {name: WHITE for name in graph}
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted({t for _, t in graph[start]})))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                colour[node] = BLACK
                stack.pop()
                path.pop()
            elif colour.get(child) == GREY:
                return path[path.index(child):] + [child]
            elif colour.get(child) == WHITE:
                colour[child] = GREY
                path.append(child)
                stack.append((child, iter(sorted({t for _, t in graph[child]}))))
    return None
