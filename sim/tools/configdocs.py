"""The example config and the configuration reference, generated from the settings the rig
declares, so they can never disagree with it.

``python -m sim.tools.configdocs`` writes ``wiring/rig.example.toml`` (every key at its default,
each with its doc line: the file the installer copies to ``/etc/cleptomano/rig.toml``) and
``docs/configuration.md`` (one table a section: key, default, what is allowed) from the
sections of :func:`rig.shell.config.sections`: the shell's, and each game's from the
``settings`` part of its folder (:class:`rig.core.contract.Settings`, found through the
registry).  ``--check`` only compares and exits 1 when a committed file is stale (the test
suite runs it: tests/test_configdocs.py).

A key's value is written as its default in TOML, or as its declared ``example`` when the default
cannot be written (a path of the checkout, a value taken from the pin map, "the difficulty's").
"""

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path

from rig import games
from rig.shell import config

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "wiring" / "rig.example.toml"
REFERENCE = ROOT / "docs" / "configuration.md"
WIDTH = 100
COLUMN = 34            # where a key's comment begins in the example (as the hand-written one had it)

GENERATED = ("Generated from the settings the rig declares by `python -m sim.tools.configdocs`: "
             "edit the declarations (rig/shell/config.py, each game's settings.py) and re-run "
             "it, never this file.")


def toml(value, key=None):
    """``value`` as TOML text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[%s]" % ", ".join(toml(v) for v in value)
    raise ValueError("%s: %r cannot be written in TOML; declare the key's example"
                     % (key.name if key else "a value", value))


def value_text(key):
    """How the example writes ``key``'s value."""
    if key.example is not None:
        return key.example
    if key.default is None and key.kind == "file":
        return '""'
    return toml(key.default, key)


def _num(x):
    return str(x) if isinstance(x, int) else "%g" % x


def plain(doc):
    """A declaration's doc text without its reStructuredText marks."""
    return re.sub(r"``([^`]*)``", r"\1", doc or "").strip()


def key_doc(key):
    """A key's doc line, its range first for a number whose doc does not give it."""
    doc = plain(key.doc)
    if key.kind in ("number", "whole") and key.low is not None:
        low, high = _num(key.low), _num(key.high)
        if not (low in doc and high in doc):
            span = ("above %s, at most %s" if key.low_open else "%s-%s") % (low, high)
            doc = "%s%s: %s" % (span, " " + key.unit if key.unit else "", doc)
    return doc


def _games_by_section():
    """Section name -> the game whose ``settings`` part declares it."""
    found = {}
    for g in games.games():
        settings = games.part(g, "settings")
        if settings is not None:
            found[settings.SECTION.name] = g
    return found


def section_doc(section, game):
    if game is not None and section.before is None:
        return "--game %s%s" % (game.name, " (solo: the first player plays)" if game.solo
                                else "")
    return plain(section.doc)




def _with_comment(text, comment, mark=""):
    """``text`` (``key = value``, ``[section]``) with its comment beside it from
    :data:`COLUMN`, wrapped under it; every line after ``mark`` (``"# "``: commented out)."""
    text = mark + text
    if not comment:
        return [text]
    room = WIDTH - max(COLUMN, len(text) + 2) - 2
    parts = textwrap.wrap(comment, max(room, 30), break_on_hyphens=False)
    lines = ["%-*s# %s" % (COLUMN - 1, text, parts[0]) if len(text) < COLUMN - 1
             else "%s # %s" % (text, parts[0])]
    indent = (mark.rstrip() + " " * (COLUMN - 1))[:COLUMN - 1]
    lines += ["%s# %s" % (indent, more) for more in parts[1:]]
    return lines


def example():
    """The text of ``wiring/rig.example.toml``."""
    out = ["# Cleptómano rig configuration: an example with every key at its default.", "#"]
    out += ["# " + line for line in textwrap.wrap(GENERATED, WIDTH - 2)]
    out += ["#",
            "# Copy it to /etc/cleptomano/rig.toml (systemd) or anywhere (cleptomano run --config "
            "FILE)",
            "# and change what you need. Every key is optional; delete the ones you keep at the "
            "default.",
            "# The rig refuses to start on an unknown key, a wrong type or a value out of range, "
            "and",
            "# names the file, the key, what is allowed and the fix."]
    owners = _games_by_section()
    sections = config.sections()
    other_games = False
    for name in config.read_order():
        section = sections[name]
        game = owners.get(name)
        if game is not None and section.before is None and not other_games:
            other_games = True
            out += ["", "# --- The other games of the rig (cleptomano run --game NAME)"]
        mark = "# " if section.optional else ""      # off when absent: commented out
        out.append("")
        out += _with_comment("[%s]" % name, section_doc(section, game), mark)
        for key in section.keys:
            out += _with_comment("%s = %s" % (key.name, value_text(key)), key_doc(key), mark)
    return "\n".join(out) + "\n"


def _cell(text):
    return text.replace("|", "\\|")


def reference():
    """The text of ``docs/configuration.md``."""
    owners = _games_by_section()
    sections = config.sections()
    out = ["# Configuration reference", "",
           "The rig reads one TOML file, `/etc/cleptomano/rig.toml` under systemd (or the file "
           "given to `cleptomano run --config FILE`). Every key is optional: an absent key is "
           "its default. The rig refuses to start on an unknown section or key, a wrong type or "
           "a value out of range, with one line naming the file, the `section.key`, the value, "
           "what is allowed and the fix. The example with every key at its default is "
           "`wiring/rig.example.toml`.", "",
           "Each game's table is declared in its own folder (the `settings` part of "
           "`rig/games/<game>/`, found through the registry); the others are the rig's "
           "(`rig/shell/config.py`).", "",
           "_%s_" % GENERATED]
    for name in config.read_order():
        section = sections[name]
        game = owners.get(name)
        out += ["", "## [%s]" % name, ""]
        about = plain(section.doc)
        if game is not None:
            about = ("%s (%s, `--game %s`; declared in its folder's settings.py)"
                     % (about or "The game's settings", game.title, game.name))
        if section.optional:
            about += " Without this table the feature is off."
        if about.strip():
            out += [about.strip(), ""]
        out += ["| Key | Default | What it is |", "|---|---|---|"]
        for key in section.keys:
            default = "—"
            if key.default is not None and key.default_from is None and key.example is None:
                default = "`%s`" % toml(key.default, key)
            elif key.default is None and key.kind == "file":
                default = '`""`'
            out.append("| `%s` | %s | %s |" % (key.name, _cell(default), _cell(key_doc(key))))
    return "\n".join(out) + "\n"


def documents():
    return {EXAMPLE: example(), REFERENCE: reference()}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.configdocs", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true",
                   help="only compare; exit 1 when a committed file is not what it generates")
    args = p.parse_args(argv)
    stale = []
    for path, text in documents().items():
        current = path.read_text("utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, "utf-8")
            print("wrote %s" % path.relative_to(ROOT))
    if args.check and stale:
        print("stale: %s; run `python -m sim.tools.configdocs` and commit them"
              % ", ".join(str(p.relative_to(ROOT)) for p in stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
