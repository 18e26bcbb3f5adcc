"""Issue 31's host phone in a real headless Chromium (390x844): the rig on the simulated table in
real time with its phones' server, the demo match's recording in its folder.  Ana's phone pairs;
the table makes it host at the screen (F7, then 1, typed with Cleptómano's own keys); her page
shows the link under the bar, and the audits page draws the demo match: the matches of its night
and each rod's touches, the numbers beside; the CSV downloads and is the command line's; the
page passes axe-core (WCAG 2.2 A/AA) in every language; Ben's phone, not host, is told so and
reads nothing.  One picture per language of two goes to ``$CLEPTOMANO_SHOTS`` if set
(docs/screenshots/host-audits-<lang>.png, docs/games/phones.md)."""

import dataclasses
import json
import os
import shutil

import pytest

from rig.games.cleptomano.keys import KeyMapper
from rig.shell import audits as shell_audits
from rig.shell.config import load_config
from rig.shell.service import attach_service
from rig.words import Words
from sim import phone as browser
from sim.script import demo_match

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]       # real time and a real browser: `make test-heavy`

PLAYERS = ("Ana", "Ben", "Caro")
LANGS = ("en", "es", "fr", "ro")
SHOTS = ("en", "es")


def says(code, lang, **params):
    return Words(lang).say(code, **params)


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def _table(tmp_path):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    demo_match().write(recordings / "match-20261201-200000.jsonl")
    config = load_config(None)
    config = dataclasses.replace(config, match=dataclasses.replace(
        config.match, players=PLAYERS, first_thief=PLAYERS[0]))
    return browser.PhoneTable(recordings, config=config)


def host_at_the_screen(rig, number):
    """The table types F7, then ``number``, at the rig's keys."""
    keys = KeyMapper(None, PLAYERS)
    keys.observe(rig.screen)
    keys.feed("f7")
    command, _ = keys.feed(str(number))
    assert command is not None
    rig.memory.type(command)


def test_the_host_phones_audits_page_in_every_language(tmp_path, chromium):
    with _table(tmp_path) as rig:
        desk = attach_service(rig.table.rig, rig.config)    # as the night does (rig.cli._serve)
        ana = rig.paired(chromium, "Ana", "en", "ana")
        ben = rig.paired(chromium, "Ben", "es", "ben")
        host_at_the_screen(rig, 1)
        # The phones are told which phone is host: Ana's gets the link, Ben's the name.
        ana.wait("#host-link", text=says("rig.phone.host_link", "en"))
        ben.wait("#host-line", text=says("rig.phone.table_host", "es", name="Ana"))
        assert rig.screen.phones.host == "Ana"
        for page in (ana, ben):
            found = page.axe()
            assert found == [], "the game's page: %s" % json.dumps(found, ensure_ascii=False)
        expected = shell_audits.audits(rig.web.recordings_dir)
        for lang in LANGS:
            ana.goto(rig.url.rstrip("/") + "/audits/?lang=" + lang)
            ana.wait("#nights-chart")
            assert ana.lang() == lang
            # The demo match: its night's one match, each rod's touches drawn and in numbers.
            assert ana.texts("#nights-chart text")[:2] == ["1", "12-01"]
            drawn = ana.evaluate("() => [...document.querySelectorAll('#corridor-chart g')]"
                                 ".map((g) => g.dataset.rod)")
            assert drawn == ["laser.%d" % n for n in range(1, 8)]
            rows = ana.evaluate("() => [...document.querySelectorAll("
                                "'#corridor-h ~ table tbody tr')].map((tr) => "
                                "[...tr.children].map((c) => c.textContent))")
            assert rows == [[str(n)] + [str(expected["touches"]["laser.%d" % n][k])
                                        for k in ("touches", "voided", "glitches", "stuck")]
                            for n in range(1, 8)]
            assert ana.texts("#matches-h")[0] == says("rig.audits.matches_heading", lang)
            found = ana.axe()
            assert found == [], "%s: %s" % (lang, json.dumps(found, indent=1,
                                                              ensure_ascii=False))
            assert ana.overflowing() == [], ana.overflowing()
            wide = ana.width()
            assert wide["page"] <= wide["screen"], "%s: the page scrolls sideways" % lang
            if lang in SHOTS:
                out = tmp_path / ("host-audits-%s.png" % lang)
                ana.screenshot(out, full=True)
                folder = os.environ.get("CLEPTOMANO_SHOTS")
                if folder:
                    shutil.copyfile(out, os.path.join(folder, out.name))
        # The CSV downloads, the command line's own.
        saved = tmp_path / "audits.csv"
        suggested = ana.download("#csv", saved)
        assert suggested == "audits-all.csv"
        assert saved.read_text("utf-8") == shell_audits.to_csv(expected)
        # A choice of nights: from the demo's night on (the CSV link follows it).
        ana.select("#since", says("rig.audits.from_night", "ro", night="2026-12-01"))
        ana.wait('#csv[href="/api/audits.csv?since=2026-12-01"]')
        assert ana.evaluate("() => location.search") == "?since=2026-12-01"
        # Service mode: the host phone's button opens it at the rig's screen, for Ana.
        ana.click("#service")
        ana.wait("#service-note", text=says("rig.audits.service_opened", "ro"))
        assert desk.is_open and desk.desk.by == "Ana"
        # Ben's phone is not host: the page says so and draws nothing.
        ben.goto(rig.url.rstrip("/") + "/audits/?lang=es")
        ben.wait("#state.error", text=says("rig.web.not_the_host", "es", name="Ben",
                                           host="Ana"))
        assert ben.texts("#corridor-chart") == []
        for page in (ana, ben):
            assert page.errors() == [], page.errors()
