"""The documentation: README.md is the front door (at most 300 lines), the rest a MkDocs site in
docs/ (mkdocs.yml).  The site builds with ``mkdocs build --strict`` (a broken link or anchor, a
nav entry without its page, a page in no nav entry all fail it), and every relative link of
README.md and of the pages leads to a file of this repository (issue 30: no link to a folder a
clone does not have)."""

import re
import subprocess
import sys
from pathlib import Path

from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
FRONT_DOOR_LINES = 300

FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE_SPAN = re.compile(r"(`+).+?\1", re.S)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"<(?:img|a)\s[^>]*?(?:src|href)=\"([^\"]+)\"", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.M)


def pages():
    """Every Markdown page of the site, the ones docs/wiring and docs/firmware link in too."""
    return sorted(p for p in DOCS.rglob("*.md") if p.is_file())


def links(text):
    """The link targets of a Markdown text, code blocks and code spans left out."""
    text = CODE_SPAN.sub("", FENCE.sub("", text))
    return [m.group(1) for m in LINK.finditer(text)] + [m.group(1) for m in HTML_LINK.finditer(text)]


def anchors(path):
    """The ids the headings of a Markdown file get (Python-Markdown's toc, as MkDocs uses)."""
    text = FENCE.sub("", path.read_text("utf-8"))
    return {slugify(re.sub(r"[`*]", "", m.group(2)), "-") for m in HEADING.finditer(text)}


def broken(source, root=ROOT):
    """The relative links of one Markdown file that lead nowhere, or outside ``root``."""
    bad = []
    for target in links(source.read_text("utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue                                  # http:, https:, mailto: are not files
        path, _, anchor = target.partition("#")
        dest = (source.parent / path).resolve() if path else source.resolve()
        if not dest.is_relative_to(root.resolve()):
            bad.append("%s: leaves the repository" % target)
        elif not dest.exists():
            bad.append("%s: no such file" % target)
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append("%s: no heading makes #%s" % (target, anchor))
    return bad


def test_the_readme_is_a_front_door_of_at_most_300_lines():
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= FRONT_DOOR_LINES, (
        "README.md has %d lines; it is the front door (at most %d): put the rest in a page of "
        "docs/ and link to it" % (len(lines), FRONT_DOOR_LINES))


def test_every_relative_link_of_the_readme_and_the_pages_leads_to_a_file_of_the_repository():
    bad = {str(p.relative_to(ROOT)): broken(p) for p in [README, *pages()]}
    bad = {name: found for name, found in bad.items() if found}
    assert not bad, "broken links: %s" % bad


def test_the_readme_links_to_the_site_and_shows_its_pictures():
    targets = links(README.read_text("utf-8"))
    assert any(t.startswith("docs/") and t.endswith(".md") for t in targets)
    assert sum(t.startswith("docs/screenshots/") for t in targets) >= 3


def test_the_link_check_finds_a_broken_link_an_anchor_and_a_way_out(tmp_path):
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "index.md").write_text("# Home\n\n## The first heading\n", "utf-8")
    probe = repo / "docs" / "probe.md"
    probe.write_text("# Probe\n\n[a](no-such-page.md) [b](index.md#no-such-heading) "
                     "[c](../../shared/rulebook/cleptomano.md) [d](index.md#the-first-heading) "
                     "`[e](not-a-link.md)` [f](https://example.org/x.md) [g](#probe) "
                     "<img src=\"no-such.png\" width=\"20\">\n", "utf-8")
    found = broken(probe, root=repo)
    assert [f.split(":")[1].strip() for f in found] == [
        "no such file", "no heading makes #no-such-heading", "leaves the repository",
        "no such file"]


def test_the_site_builds_with_strict(tmp_path):
    """``mkdocs build --strict``, as ``make docs`` runs it: about a second."""
    try:
        import mkdocs  # noqa: F401
    except ImportError:
        raise AssertionError("mkdocs is not installed in this venv: `make venv` installs the "
                             "test extra of pyproject.toml, which holds it")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                          "--config-file", str(ROOT / "mkdocs.yml"),
                          "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "index.html").is_file()
