"""The glossary (docs/glossary.md) holds: each term's chosen word is what the catalogs use for it,
in every language; no catalog uses a word the glossary sets aside; every proper name the catalog
lint accepts is listed there."""

import re
from pathlib import Path

import pytest

from rig.catalogs import LANGS
from sim import catalog_lint as lint

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


def _table(heading):
    """The rows of the Markdown table under ``## heading``: lists of cells, header left out."""
    text = GLOSSARY.read_text("utf-8")
    section = text.split("## " + heading + "\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows]
    return [row for row in cells[2:]]               # past the header and its --- line


@pytest.fixture(scope="module")
def entries():
    found = {}
    for lang, code, text in lint.entries():
        found.setdefault((lang, code), []).append(text)
    return found


TERMS = _table("Terms")


def test_the_glossary_has_its_terms():
    terms = {row[0].split(" (")[0] for row in TERMS}
    for must in ("the rig", "guard", "thief", "haul", "skimmer", "laser", "relic", "painting",
                 "match", "turn", "seat", "round", "player", "phone"):
        assert must in terms, must


@pytest.mark.parametrize("row", TERMS, ids=[row[0] for row in TERMS])
def test_each_terms_word_is_the_catalogs(row, entries):
    term, words, code = row[0], dict(zip(LANGS, row[1:5])), row[5]
    for lang, word in words.items():
        said = entries.get((lang, code))
        assert said, "%s: %s has no %s entry" % (term, code, lang)
        assert any(word.lower() in text.lower() for text in said), (
            "%s: the glossary's %s word %r is not in %s: %r" % (term, lang, word, code, said))


def test_no_catalog_uses_a_word_set_aside(entries):
    found = []
    for lang, word, _why in _table("Words not used"):
        # A file's name is not the word ("rig.toml" is not "rig").
        pattern = re.compile(r"(?<![\w-])%s(?![\w-]|\.\w)" % re.escape(word), re.I)
        for (entry_lang, code), texts in entries.items():
            if entry_lang != lang:                  # es_AR keeps its own words (angosto)
                continue
            found += ["%s %s: %r uses %r" % (lang, code, text, word)
                      for text in texts if pattern.search(lint.plain(text))]
    assert found == [], "\n".join(found)


def test_every_proper_name_the_lint_accepts_is_in_the_glossary():
    listed = " ".join(row[0] for row in _table("Proper names"))
    missing = [name for name in lint.PROPER_NAMES if name not in listed]
    assert missing == []
