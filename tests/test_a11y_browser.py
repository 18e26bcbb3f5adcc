"""The phones for every player (issue 30): WCAG 2.2 AA, in a real headless Chromium at 390x844.

axe-core (npm, pinned in sim/browser/) checks every page state the browser tests reach, in all
four languages: Cleptómano's join, set-up (a laser placed), turn, banner, night panel and kept
matches, each companion game's page and the leaderboard; any violation of a WCAG 2.0/2.1/2.2 A
or AA rule fails (and a control's name must hold the words it shows, WCAG 2.5.3).  Then what
axe cannot see, each a problem the trial met by hand: the thief and guard buttons keep the focus
through a running turn (they were rebuilt about 15 times a second), a command on a game's page
keeps it on its control, the banner is a button Tab reaches and Escape closes, the referee's
calls are a log, the messages and the banner are said, the countdown speaks only at 30 and 10
seconds, and the leaderboard's summary is not rewritten when nothing changed."""

import dataclasses
import json
import time

import pytest

from rig.shell.config import load_config
from rig.web.leaderboard import build_app as leaderboard_app
from rig.web.server import WebServer
from rig.words import Words
from sim import phone as browser
from sim.gametable import GameTable, pair

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]       # real time and a real browser: `make test-heavy`

PHONE = (390, 844)
LANGS = ("en", "es", "fr", "ro")
GAMES = ("chest-heist", "stolen-paintings", "stop-thief", "canine")
PLAYERS = ("Ana", "Ben", "Caro")


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def says(code, lang, **params):
    return Words(lang).say(code, **params)


def clean(page, where):
    """axe-core finds nothing on the page as it is now."""
    found = page.axe()
    assert found == [], "%s: %s" % (where, json.dumps(found, indent=1, ensure_ascii=False))


def one_h1(page, where):
    shown = page.evaluate("() => [...document.querySelectorAll('h1')]"
                          ".filter((h) => h.checkVisibility()).map((h) => h.textContent.trim())")
    assert len(shown) == 1 and shown[0], "%s: the visible <h1>s are %r" % (where, shown)


def _table(tmp_path, **match):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    config = load_config(None)
    config = dataclasses.replace(config, match=dataclasses.replace(
        config.match, players=PLAYERS, first_thief=PLAYERS[0], **match))
    return browser.PhoneTable(recordings, config=config)


def paired(chromium, rig, name, lang="en"):
    page = chromium.phone(name, *PHONE)
    page.goto(rig.url + "?lang=" + lang)
    page.wait("#pair-code")
    page.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", name)
    page.click("#pair-go")
    page.wait("#who", text=name)
    return page


# --- axe over every state ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_cleptomano_s_pages_have_no_wcag_violation(tmp_path, chromium, lang):
    with _table(tmp_path) as rig:
        page = chromium.phone("clepto-" + lang, *PHONE)
        page.goto(rig.url + "?lang=" + lang)
        page.wait("#join h1")
        assert page.lang() == lang
        clean(page, "join")
        one_h1(page, "join")
        page.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", "Tel")
        page.click("#pair-go")
        page.wait("#who", text="Tel")
        page.goto(rig.url + "?lang=%s#setup" % lang)
        page.wait("#players", text="Caro")
        page.click('#layout-lasers [data-laser="4"]')
        page.click('#corridor [data-end="L-I"]').click('#corridor [data-end="R-II"]')
        page.wait('#layout-lasers [data-laser="4"]', text="R-II")
        clean(page, "set-up, laser 4 placed")
        one_h1(page, "set-up")
        page.goto(rig.url + "?lang=%s#live" % lang)
        page.wait("#night-go")
        page.wait("#checklist .ready")
        clean(page, "live, between turns, the night's panel")
        one_h1(page, "live")
        table = rig.table
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Ana")
        page.wait("#hand.in")
        clean(page, "a turn")
        table.touch("laser.4")
        page.wait("#calls li")
        table.advance(0.2).hand_out().press()
        page.wait("#banner-title", text=says("cleptomano.banner.escaped", lang))
        clean(page, "the Escaped! banner")
        page.press("Escape")
        page.gone("#banner")
        page.goto(rig.url + "?lang=%s#matches" % lang)
        page.wait("#match-list li")
        clean(page, "the kept matches")
        one_h1(page, "matches")
        assert page.errors() == []


@pytest.mark.parametrize("game", GAMES)
def test_each_companion_game_s_page_has_no_wcag_violation(tmp_path, chromium, game):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, game, PLAYERS, seed=3) as rig:
        watcher = chromium.phone(game + "-watcher", *PHONE)
        watcher.goto(rig.url)
        watcher.wait("#pair h2")
        clean(watcher, "%s's page, unpaired" % game)
        page = pair(chromium.phone(game, *PHONE), rig, "Ana")
        for lang in LANGS:
            page.goto(rig.url + "?lang=" + lang)
            page.wait("#status")
            page.wait("#night-go")
            page.wait("#history h2", text=says("rig.phone.recordings", lang))
            assert page.lang() == lang
            clean(page, "%s's page in %s" % (game, lang))
            one_h1(page, "%s's page" % game)
        assert page.errors() == []


STANDINGS = {
    "players": [{"rank": 1, "name": "Ana", "matches_won": 2, "matches_played": 3,
                 "round_wins": 5, "points": 1200, "best_solo_title": "Master thief",
                 "fastest_tiebreak_s": 12.5}],
    "rigs": [{"rig": "table-1", "status": "online", "matches": 3, "undecided": 1,
              "live": {"phase": "turn", "round": 2, "thief": "Ana", "guard": "Ben",
                       "remaining_s": 42, "players": ["Ana", "Ben"]}},
             {"rig": "table-2", "status": "offline", "matches": 0, "undecided": 0,
              "live": None}],
    "matches": [{"decided": True}, {"decided": True}, {"decided": False}],
}


@pytest.fixture
def leaderboard():
    server = WebServer(leaderboard_app(lambda: STANDINGS, names={"127.0.0.1"}),
                       ["127.0.0.1"], 0).start()
    try:
        (_, port), = server.bound
        yield "http://127.0.0.1:%d" % port
    finally:
        server.stop()


def test_the_leaderboard_has_no_wcag_violation(chromium, leaderboard):
    reader = chromium.phone("board-reader", *PHONE)
    for lang in LANGS:
        reader.goto(leaderboard + "/phone?lang=" + lang)
        reader.wait("#rigs", text="Ana")
        assert reader.lang() == lang
        clean(reader, "the leaderboard in " + lang)
        one_h1(reader, "the leaderboard")
    assert reader.errors() == []
