"""The phones' pages in each phone's language, in a real headless Chromium (issue 22): the
page opens in its browser's language, the picker switches it (live: no reload, the pairing
kept) and the choice stays; and in the pseudo-locale (every word accented and 40 % longer) no
text of any page -- Cleptómano's tabs, a companion game's page, the game night's panel, the
leaderboard -- overflows its box on a 390x844 phone, nor does the page scroll sideways."""

import time

import pytest

from rig.web.leaderboard import build_app as leaderboard_app
from rig.web.server import WebServer
from rig.words import Words, pseudo
from sim import phone as browser
from sim.gametable import GameTable
from sim.standings import STANDINGS

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]       # real time and a real browser: `make test-heavy`

PHONE = (390, 844)
TABS = ("join", "live", "setup", "matches")


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


@pytest.fixture
def rig(tmp_path):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with browser.PhoneTable(recordings) as rig:
        yield rig


def says(code, lang, **params):
    return Words(lang).say(code, **params)


def fits(page, where, selector="body"):
    found = page.overflowing(selector)
    assert found == [], "%s: text overflows its box: %r" % (where, found)
    cut = page.cut_words(selector)          # no word broken inside, no placeholder cut (issue 30)
    assert cut == [], "%s: words cut inside: %r" % (where, cut)


def test_the_picker_switches_the_page_to_romanian_and_keeps_the_pairing(rig, chromium):
    ana = chromium.phone("ana", *PHONE, locale="es-AR")
    ana.goto(rig.url)
    ana.wait("#join h1", text=says("rig.phone.join", "es"))
    assert ana.lang() == "es"
    ana.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", "Ana")
    ana.click("#pair-go")
    ana.wait("#who", text="Ana")
    ana.wait("#checklist", text=says("rig.phone.museum_ready", "es"))
    ana.select(".language-picker", "Română")
    ana.wait('[data-tab="setup"]', text=says("rig.phone.tab_setup", "ro"))
    ana.wait("#checklist", text=says("rig.phone.museum_ready", "ro"))
    ana.wait("#commands h2", text=says("rig.phone.guard_commands", "ro"))
    assert ana.lang() == "ro"
    assert ana.wait("#who") == "Ana"                   # still paired: no page load, no cookie lost
    ana.click('[data-tab="setup"]')
    ana.wait("#level-words", text="lasere adăugate")   # a plural form of three
    # The choice stays: a new load of the page is Romanian at once.
    ana.goto(rig.url + "#live")
    ana.wait('[data-tab="matches"]', text=says("rig.phone.tab_matches", "ro"))
    assert ana.texts(".language-picker option:checked") == ["Română"]
    assert ana.errors() == []


def test_every_cleptomano_tab_fits_a_phone_in_the_pseudo_locale(rig, chromium):
    ben = chromium.phone("ben", *PHONE)
    ben.goto(rig.url + "?lang=pseudo")
    ben.wait("#join h1", text=pseudo("Join the rig"))
    fits(ben, "join")
    ben.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", "Ben's phone")
    ben.click("#pair-go")
    ben.wait("#commands h2", text=pseudo("Guard's commands"))
    ben.wait("#night-go", text=pseudo("Play it"))
    for tab in TABS[1:]:
        ben.goto(rig.url + "#" + tab)
        ben.wait("#" + tab)
        time.sleep(0.3)                    # the rig's answers drawn (the layout, the matches)
        fits(ben, tab)
    ben.goto(rig.url + "#setup")
    for end in ("L-I", "R-II"):            # a laser placed: the status line's longest words
        ben.click('#corridor [data-end="%s"]' % end)
    ben.wait("#layout-status", text=pseudo("lasers placed.")[:8])
    fits(ben, "the layout")
    assert ben.errors() == []


def test_a_games_page_fits_a_phone_in_the_pseudo_locale(tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "chest-heist", ("Ana",)) as rig:
        ana = chromium.phone("ana-games", *PHONE)
        ana.goto(rig.url + "?lang=pseudo")
        ana.wait("#pair h2", text=pseudo("Play from this phone"))
        assert ana.lang() == "en"          # the test language is English, accented
        fits(ana, "the games page, unpaired")
        ana.fill("#pair-code", rig.code).fill("#pair-name", "Ana")
        ana.click('#pair button[type="submit"]')
        ana.gone("#pair")
        ana.wait("#history h2", text=pseudo("Recordings"))
        ana.wait("#night-go", text=pseudo("Play it"))
        time.sleep(0.3)
        fits(ana, "the games page, paired", "header, #after, #night, #history, #error")
        ana.select(".language-picker", "Français")
        ana.wait("#history h2", text=says("rig.phone.recordings", "fr"))
        ana.wait("#night h2", text=says("rig.night.title", "fr"))
        assert ana.lang() == "fr"
        assert ana.errors() == []


def test_the_leaderboard_fits_a_phone_in_the_pseudo_locale_and_speaks_romanian(chromium):
    server = WebServer(leaderboard_app(lambda: STANDINGS, names={"127.0.0.1"}),
                       ["127.0.0.1"], 0).start()
    try:
        (_, port), = server.bound
        url = "http://127.0.0.1:%d/phone" % port
        reader = chromium.phone("reader", *PHONE, locale="ro-RO")
        reader.goto(url)
        reader.wait("#standings-title", text="Clasament")
        reader.wait("#summary", text="2 partide decise")
        reader.wait("#rigs", text="Runda 2: fură Ana, păzește Ben")
        reader.goto(url + "?lang=pseudo")
        reader.wait("#standings-title", text=pseudo("Standings"))
        reader.wait("#summary", text=pseudo("{n} matches decided").replace("{n}", "2")[:12])
        fits(reader, "the leaderboard")
        assert reader.errors() == []
    finally:
        server.stop()
