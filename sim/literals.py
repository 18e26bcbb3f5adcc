"""The player-facing literal scanner: words a player would read that are written in the code
instead of coming from a catalog (README "Languages").  tests/test_catalogs.py fails on any.

What it reads: the modules that make what players see and hear (every game's folder but its
rules' data and recordings, the display, the web face, the phones' pages); what it flags: a string
constant, outside docstrings, that reads as words a player sees:

* Python: a constant with two words or more ("Get a clue", "%s's turn"), or any constant with a
  letter passed straight to a drawing call of the display kit (``put_text(s, "BROKEN", ...)``);
  not in a log call, an exception for the builder (ConfigError, TypeError, ValueError,
  KeyError, AssertionError, RuntimeError, NotImplementedError, DisplayError, CatalogError,
  HardwareError), a format of numbers alone, nor a ``Msg``/``say`` code;
* JavaScript and HTML: a string, template or text between tags with two words or more, or ending
  with ``!``, ``?``, ``:`` or ``…``.

A line that holds words on purpose (a CSS class list, a command's name, a font, a proper noun)
says so with ``not words`` in a comment on that line, with the reason.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = "not words"

#: Two or more words: letters, then a space or an apostrophe, then letters.
_WORDS = re.compile(r"[A-Za-zÀ-ÿ]{2,}[ '’][A-Za-zÀ-ÿ%{]|[A-Za-zÀ-ÿ]{2,}[!?…]")
_KIT_DRAW = {"put_text", "put_big", "wrap_lines", "put_name", "render_text", "fit_size",
             "ellipsize", "short_name"}
_BUILDER_ERRORS = {"ConfigError", "TypeError", "ValueError", "KeyError", "AssertionError",
                   "RuntimeError", "NotImplementedError", "DisplayError", "CatalogError",
                   "HardwareError", "OSError", "RecordingError", "SensorError", "HubError",
                   "ProtocolError", "PayloadError", "AttributeError", "LookupError",
                   "IndexError", "fail", "SystemExit", "ArgumentTypeError", "error"}
_LOG = {"debug", "info", "warning", "error", "exception", "critical", "log", "print",
        "announce", "_log", "_status", "emit", "send"}


def python_files():
    """The Python modules whose words a player meets."""
    out = []
    for path in sorted((ROOT / "rig" / "games").glob("*/**/*.py")):
        rel = path.relative_to(ROOT / "rig" / "games")
        parts = rel.parts
        if "data" in parts or parts[-1] in ("recording.py", "__init__.py", "resources.py",
                                            "settings.py", "example.py"):
            continue
        out.append(path)
    out += sorted((ROOT / "rig" / "draw").glob("*.py"))
    out += sorted((ROOT / "rig" / "display").glob("*.py"))
    out += [ROOT / "rig" / "core" / "phones.py"]
    out += sorted((ROOT / "rig" / "web").glob("*.py"))
    return out


def page_files():
    """The phones' pages and scripts."""
    out = sorted((ROOT / "rig" / "games").glob("*/phone.js"))
    static = ROOT / "rig" / "web" / "static"
    out += sorted(static.glob("**/*.js")) + sorted(static.glob("**/*.html"))
    return out


def _docstrings(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _call_name(node):
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def _exempt_ids(tree):
    """Constants inside a log call, a builder's error, a Msg or a comparison."""
    exempt = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in _LOG or name in _BUILDER_ERRORS or name in ("Msg", "msg", "say", "N_"):
                for sub in ast.walk(node):
                    exempt.add(id(sub))
        elif isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc
            if isinstance(exc, ast.Call) and _call_name(exc) in _BUILDER_ERRORS:
                for sub in ast.walk(exc):
                    exempt.add(id(sub))
        elif isinstance(node, ast.Compare):
            for sub in ast.walk(node):
                exempt.add(id(sub))
        elif isinstance(node, ast.Assert):
            for sub in ast.walk(node):
                exempt.add(id(sub))
    return exempt


def _kit_args(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) in _KIT_DRAW:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(id(arg))
    return found


def scan_python(path):
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, str(path))
    docs, exempt, kit = _docstrings(tree), _exempt_ids(tree), _kit_args(tree)
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        if id(node) in docs or id(node) in exempt:
            continue
        text = node.value
        if text in ("left", "right", "center", "centre"):      # an alignment, not words
            continue
        flagged = bool(_WORDS.search(text)) or (id(node) in kit and re.search("[A-Za-z]", text))
        if not flagged:
            continue
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        end = lines[getattr(node, "end_lineno", node.lineno) - 1]
        if MARK in line or MARK in end:
            continue
        out.append((path, node.lineno, text))
    return out


_JS_STRING = re.compile(r"""(?P<q>["'`])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
_HTML_TEXT = re.compile(r">([^<>]+)<")


def scan_page(path):
    out = []
    html = path.suffix == ".html"
    in_block_comment = False
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if MARK in line:
            continue
        stripped = line.strip()
        if in_block_comment or stripped.startswith("/*") or stripped.startswith("<!--"):
            in_block_comment = not ("*/" in line or "-->" in line)
            continue
        if stripped.startswith("//") or stripped.startswith("*"):
            continue
        code = line.split(" // ")[0]
        texts = []
        if html:
            texts += [m.group(1) for m in _HTML_TEXT.finditer(code)]
            texts += [m.group(1) for m in re.finditer(
                r'(?:title|placeholder|aria-label|alt|content)="([^"]*)"', code)]
        else:
            texts += [m.group("s") for m in _JS_STRING.finditer(code)]
        for text in texts:
            if text == "use strict":            # a script's directive
                continue
            plain = re.sub(r"\$\{[^}]*\}", "", text).strip()
            if _WORDS.search(plain) or re.search(r"[A-Za-z]{2,}[!?:…]$", plain):
                out.append((path, n, text))
    return out


def scan():
    """Every player-facing literal found: ``[(path, line, text), ...]``."""
    found = []
    for path in python_files():
        found += scan_python(path)
    for path in page_files():
        found += scan_page(path)
    return found


if __name__ == "__main__":
    for path, line, text in scan():
        print("%s:%d: %r" % (path.relative_to(ROOT), line, text))
