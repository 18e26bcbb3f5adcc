"""The message catalogs' tools, with Babel: find every code, keep the four languages' ``.po``
files in step, check them, compile them.

    python -m rig.catalogs update [DOMAIN...]   # add new codes to each .po (empty), drop unused
    python -m rig.catalogs check     # every code has words in every language (exit 1 if not)
    python -m rig.catalogs compile   # .po -> .mo beside it (make venv/test; the wheel's build)

``make catalogs`` runs update and compile.  Codes are found by Babel's extractors in the rig's
Python (the first argument of ``Msg(...)``, ``msg(...)``, ``N_(...)`` and ``say(...)``), JavaScript
(``t(...)``, ``tn(...)`` and ``N_(...)`` in the phones' pages) and HTML (``data-t="code"``), through
the extraction methods below, which Babel runs.  A code's first part is its catalog's domain: ``rig`` for
``rig/locale``, a game's registry name for ``rig/games/<game>/locale``.

English is a catalog like the others (the code is never the English): a new code's words are
written in ``en.po`` first, then in ``es.po``, ``fr.po`` and ``ro.po``.  A message whose words
depend on a count (its parameter ``n``) is a plural entry (``msgid_plural``) with each language's
forms (Babel writes CLDR's ``Plural-Forms`` in the header: two in English, Spanish and French,
three in Romanian).

A regional variant (:data:`rig.words.VARIANTS`: ``es_AR``) has a catalog only where it says
something otherwise (``rig/games/cleptomano/locale/es_AR/``): its entries are checked as the
others' are, but it never needs every code (the rest is its base language's), and ``update``
only drops the entries no source uses any more.
"""

import os
import re
import string
import sys
import threading
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

ROOT = Path(__file__).resolve().parent            # rig/
LANGS = ("en", "es", "fr", "ro")
#: The regional variants' catalogs (partial; see the module's words).
VARIANT_LANGS = ("es_AR",)
METHODS = [("**/locale/**", "ignore"), ("**/__pycache__/**", "ignore"),
           ("**.py", "rig.catalogs:extract_python"), ("**.js", "rig.catalogs:extract_javascript"),
           ("**.html", "rig.catalogs:extract_html")]
KEYWORDS = {"Msg": None, "msg": None, "N_": None, "say": None, "t": None, "tn": None}


def po_files(root: Path = ROOT) -> List[Path]:
    return sorted(root.glob("**/locale/*/LC_MESSAGES/*.po"))


def compile_po(po: Path, mo: Path) -> None:
    """Compile one catalog (Babel), fuzzy entries left out as gettext leaves them."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with open(po, "rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
    mo.parent.mkdir(parents=True, exist_ok=True)
    # A name of its own: two processes compiling one catalog at once (test workers) never
    # write into each other's file; the rename is atomic.
    tmp = mo.with_name("%s.%d.%d.tmp" % (mo.name, os.getpid(), threading.get_ident()))
    with open(tmp, "wb") as f:
        write_mo(f, catalog)
    os.replace(tmp, mo)


def compile_all(root: Path = ROOT, out: Path = None) -> List[Path]:
    """Every ``.po`` under ``root`` compiled to ``.mo`` (beside it, or under ``out`` at the same
    relative place); returns the ``.mo`` paths."""
    written = []
    for po in po_files(root):
        mo = po.with_suffix(".mo") if out is None else out / po.relative_to(root).with_suffix(".mo")
        if out is None and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            written.append(mo)
            continue
        compile_po(po, mo)
        written.append(mo)
    return written


def extract_python(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the rig's Python: every call of a keyword (``Msg``,
    ``msg``, ``N_``, ``say``) whose first argument is a string (or a choice of strings,
    ``"a" if x else "b"``), wherever it is written (Babel's own
    Python extractor misses a call inside a list or a generator within another call's
    arguments: ``Msg("a", places=tuple(Msg("b", ...) for ...))``)."""
    import ast
    try:
        tree = ast.parse(fileobj.read())
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
            else None
        if name not in keywords:
            continue
        first = node.args[0]
        # A code, or a choice of codes written in place: Msg("a.b" if won else "a.c").
        choices = [first]
        while choices and isinstance(choices[-1], ast.IfExp):
            last = choices.pop()
            choices += [last.body, last.orelse]
        for arg in choices:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                yield node.lineno, name, arg.value, []


_JS_CALL = re.compile(r"""(?<![\w$.])(t|tn|N_)\(\s*(["'])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\2""")
_HTML_CODE = re.compile(r"""\sdata-t(?:-[a-z-]+)?=(["'])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\1""")


def extract_javascript(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the phones' scripts: every ``t("code", ...)``,
    ``tn("code", ...)`` and ``N_("code")`` whose first argument is a code, wherever it is
    written (Babel's own JavaScript extractor misses one inside another call's arguments:
    ``say($("link"), t("rig.phone.reconnecting"))``)."""
    text = fileobj.read().decode("utf-8")
    for m in _JS_CALL.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1), m.group(3), []


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel's extraction method for the phones' HTML: every ``data-t="code"`` (the element's
    text) and ``data-t-ATTRIBUTE="code"`` (an attribute's words), which dom.js fills."""
    text = fileobj.read().decode("utf-8")
    for m in _HTML_CODE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, "t", m.group(2), []


def extract(root: Path = ROOT) -> Dict[str, List[Tuple[str, int]]]:
    """Every code the sources under ``root`` use: ``{code: [(file, line), ...]}``."""
    from babel.messages.extract import extract_from_dir
    from .core.msg import CODE
    found: Dict[str, List[Tuple[str, int]]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(root), method_map=METHODS, keywords=KEYWORDS, strip_comment_tags=True):
        if isinstance(message, tuple):
            message = message[0]
        if isinstance(message, str) and CODE.match(message):
            found.setdefault(message, []).append((filename, lineno))
    return found


def extract_all(root: Path = ROOT) -> Dict[str, List[Tuple[str, int]]]:
    """Every code the rig's sources use, and every registered game's whose folder is outside
    the rig (a game registered from elsewhere brings its own catalogs)."""
    found = extract(root)
    for domain, locale in domain_dirs(root).items():
        folder = locale.parent
        if root not in folder.parents and folder != root:
            for code, where in extract(folder).items():
                found.setdefault(code, []).extend(where)
    return found


def domain_dirs(root: Path = ROOT) -> Dict[str, Path]:
    """Each catalog's domain and its ``locale`` folder: the rig's and every registered game's."""
    from . import games
    dirs = {"rig": ROOT / "locale"}
    for g in games.games():
        module = sys.modules[games.package_of(g)]
        dirs[games.catalog_domain(g)] = Path(module.__file__).resolve().parent / "locale"
    return dirs


def _read(po: Path, lang: str, domain: str):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po
    if po.exists():
        with open(po, "rb") as f:
            return read_po(f, locale=lang, domain=domain)
    catalog = Catalog(locale=lang, domain=domain, project="cleptomano-rig",
                      version="0.1.0", copyright_holder="the cleptomano-rig authors",
                      msgid_bugs_address="the project's issues",
                      header_comment="# The %s words of %s (README \"Languages\"): edit the msgstr\n"
                                     "# lines; `make catalogs` adds new codes." % (lang, domain))
    catalog.language_team = "cleptomano-rig"
    catalog.last_translator = "cleptomano-rig"
    return catalog


def _write(po: Path, catalog) -> None:
    from babel.messages.pofile import write_po
    po.parent.mkdir(parents=True, exist_ok=True)
    tmp = po.with_suffix(".po.tmp")
    with open(tmp, "wb") as f:
        write_po(f, catalog, width=100, sort_output=True, omit_header=False,
                 include_previous=False, no_location=True)
    os.replace(tmp, po)


def update(root: Path = ROOT, domains: Iterable[str] = None, extra_roots=()) -> Dict[str, int]:
    """Add every code the sources use to each language's ``.po`` of its domain (empty words, to
    be written), and drop the entries no source uses any more; returns how many codes each
    domain has."""
    used = extract_all(root)
    for other in extra_roots:
        used.update(extract(Path(other)))
    dirs = domain_dirs(root)
    counts = {}
    for domain, locale in dirs.items():
        if domains is not None and domain not in domains:
            continue
        codes = sorted(c for c in used if c.split(".", 1)[0] == domain)
        counts[domain] = len(codes)
        if not codes and not locale.exists():
            continue
        plural = set()
        for lang in LANGS:             # English first: its entries say which are plural
            po = locale / lang / "LC_MESSAGES" / (domain + ".po")
            catalog = _read(po, lang, domain)
            catalog.fuzzy = False          # the header: a fuzzy one is left out of the .mo
            if lang == "en":
                plural = {m.id[0] for m in catalog if isinstance(m.id, tuple)}
            for code in codes:
                if code not in catalog:
                    if code in plural:
                        catalog.add((code, code), ("",) * catalog.num_plurals)
                    else:
                        catalog.add(code, "")
            for message in list(catalog):
                if message.id and (message.id[0] if isinstance(message.id, tuple)
                                   else message.id) not in used:
                    catalog.delete(message.id)
            _write(po, catalog)
        for lang in VARIANT_LANGS:      # a variant's partial catalog: only drop what is unused
            po = locale / lang / "LC_MESSAGES" / (domain + ".po")
            if not po.exists():
                continue
            catalog = _read(po, lang, domain)
            for message in list(catalog):
                if message.id and (message.id[0] if isinstance(message.id, tuple)
                                   else message.id) not in used:
                    catalog.delete(message.id)
            _write(po, catalog)
    return counts


def fields(template: str) -> frozenset:
    """The ``{fields}`` a template names (ValueError for a broken one)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template)
                     if name is not None)


def problems(root: Path = ROOT, used: Dict[str, list] = None) -> List[str]:
    """Everything wrong with the catalogs, one line each: a code used and missing from a
    language, words left empty or fuzzy, a plural entry without every form, a translation whose
    fields differ from English's, an entry no source uses."""
    from babel.messages.pofile import read_po
    used = extract_all(root) if used is None else used
    out = []
    for domain, locale in domain_dirs(root).items():
        codes = {c for c in used if c.split(".", 1)[0] == domain}
        english = {}
        for lang in LANGS + VARIANT_LANGS:
            po = locale / lang / "LC_MESSAGES" / (domain + ".po")
            partial = lang in VARIANT_LANGS
            if partial and not po.exists():
                continue
            if not po.exists():
                if codes:
                    out.append("%s: missing (%d codes of %s have no %s words)"
                               % (po, len(codes), domain, lang))
                continue
            with open(po, "rb") as f:
                catalog = read_po(f, locale=lang, domain=domain)
            nplurals = catalog.num_plurals
            seen = set()
            for message in catalog:
                if not message.id:
                    continue
                code = message.id[0] if isinstance(message.id, tuple) else message.id
                seen.add(code)
                where = "%s: %s" % (po, code)
                if code not in used:
                    out.append("%s: no source uses this code (python -m rig.catalogs update "
                               "drops it)" % where)
                    continue
                if message.fuzzy:
                    out.append("%s: marked fuzzy; check the words and drop the flag" % where)
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                if isinstance(message.id, tuple) and len(strings) != nplurals:
                    out.append("%s: %d plural forms, %s needs %d" % (where, len(strings), lang,
                                                                      nplurals))
                if not all(s for s in strings):
                    out.append("%s: no %s words" % (where, lang))
                    continue
                try:
                    names = [fields(s) for s in strings]
                except ValueError as e:
                    out.append("%s: a broken {field} (%s)" % (where, e))
                    continue
                if lang == "en":
                    english[code] = (isinstance(message.id, tuple), names)
                elif code in english:
                    plural, en_names = english[code]
                    if plural != isinstance(message.id, tuple):
                        out.append("%s: %s in English, %s here" % (
                            where, "plural" if plural else "singular",
                            "plural" if isinstance(message.id, tuple) else "singular"))
                    allowed = frozenset().union(*en_names) | {"n"}
                    for got in names:
                        if not got <= allowed:
                            out.append("%s: fields %s not in English's %s" % (
                                where, sorted(got - allowed), sorted(allowed)))
            for code in sorted(codes - seen) if not partial else ():
                out.append("%s: %s has no %s entry (python -m rig.catalogs update adds it)"
                           % (po, code, lang))
    return out


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    what = argv[0] if argv else "check"
    if what == "compile":
        for mo in compile_all():
            pass
        print("compiled %d catalogs" % len(po_files()))
        return 0
    if what == "update":
        counts = update(domains=argv[1:] or None)
        print("; ".join("%s %d codes" % kv for kv in sorted(counts.items())))
        return 0
    if what == "check":
        found = problems()
        for line in found:
            print(line)
        print("%d problems" % len(found))
        return 1 if found else 0
    print("usage: python -m rig.catalogs update|check|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
