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
from sim.standings import STANDINGS

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
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Ben")
        table.touch("guard")
        page.wait("#banner-title", text=says("cleptomano.banner.caught", lang))
        clean(page, "the Caught! banner")
        table.hand_out()
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Caro")
        table.advance(0.2).hand_out().press()
        page.wait("#rounds td.won")
        page.wait("#banner")
        page.click("#banner")
        clean(page, "between rounds: the round table, the haul, the guard's commands")
        # An unpaired phone watching the live match.
        watcher = chromium.phone("clepto-watch-" + lang, *PHONE)
        watcher.goto(rig.url + "?lang=" + lang)
        watcher.click("#watch")
        watcher.wait("#rounds td.won")
        clean(watcher, "watching")
        one_h1(watcher, "watching")
        page.goto(rig.url + "?lang=%s#matches" % lang)
        page.wait("#match-list li")
        page.click("#match-list .show-replay")
        page.wait("#match-list .replay h3")
        clean(page, "the kept matches, a replay open")
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
        if game == "chest-heist":            # its turn's dice, skimmers and boxes
            page.click('#controls button.go')
            page.wait('#controls [data-toggles="dice"] button')
            clean(page, "the chest heist's roll")
        assert page.errors() == []


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


def test_the_games_pages_red_words_read_well(tmp_path, chromium):
    """The games page's refusal in red (a wrong code) is at least 4.5:1 on its card (it was
    4.38:1)."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "chest-heist", PLAYERS, seed=3) as rig:
        page = chromium.phone("wrong-code", *PHONE)
        page.goto(rig.url)
        page.wait("#pair h2")
        wrong = "000000" if rig.code != "000000" else "111111"
        page.fill("#pair-code", wrong).fill("#pair-name", "Ana")
        page.click('#pair button[type="submit"]')
        page.wait("#pair-error", text="code")
        clean(page, "the games page, a wrong code in red")


# --- what axe cannot see --------------------------------------------------------------------

WATCH = """(arg) => new Promise((resolve) => {
  // The countdown runs on for arg.ticks seconds; meanwhile, every node put in or taken out of
  // arg.selector is counted.
  const el = document.querySelector(arg.selector);
  let changed = 0;
  const seen = new MutationObserver((records) => {
    for (const r of records) changed += r.addedNodes.length + r.removedNodes.length;
  });
  seen.observe(el, { childList: true, subtree: true, characterData: true });
  const clock = document.querySelector(arg.clock);
  let ticks = 0;
  let last = clock.textContent;
  const timer = setInterval(() => {
    if (clock.textContent !== last) { last = clock.textContent; ticks += 1; }
    if (ticks >= arg.ticks) { clearInterval(timer); seen.disconnect(); resolve(changed); }
  }, 50);
})"""


def test_a_thief_button_keeps_the_focus_through_a_running_turn(tmp_path, chromium):
    """The thief and guard buttons were rebuilt at every push (about 15 a second): a focused
    one lost its focus within 1.5 s.  Now they are built when the players change, and only
    then."""
    with _table(tmp_path) as rig:
        page = rig.paired(chromium, "Guard", phone="guard-focus")
        # Chosen by the keyboard: the rig takes it, the button says so, the focus stays.
        page.focus("#choose-thief [data-player='Ben']").press("Enter")
        page.wait("#choose-thief [data-player='Ben'][aria-pressed='true']")
        assert page.focused()["player"] == "Ben"
        page.focus("#choose-thief [data-player='Ana']").press("Enter")
        page.wait("#choose-thief [data-player='Ana'][aria-pressed='true']")
        assert page.focused()["player"] == "Ana"
        table = rig.table
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Ana")
        page.focus("#choose-thief [data-player='Ben']")
        changed = page.evaluate(WATCH, {"selector": "#commands", "clock": "#countdown", "ticks": 3})
        assert changed == 0, "the guard's commands were rebuilt %d times in 3 s" % changed
        focus = page.focused()
        assert focus is not None and focus["player"] == "Ben" and focus["connected"], focus
        assert page.errors() == []


def test_a_command_on_a_games_page_keeps_the_focus_on_its_controls(tmp_path, chromium):
    """Every command on the games page rebuilt its controls and sent the focus back to the top
    of the page; now it stays on the control (or, when that one is spent, the next)."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "chest-heist", ("Ana",), seed=2024) as rig:
        ana = pair(chromium.phone("focus-games", *PHONE), rig, "Ana")
        roll = '#controls button:text-is("%s")' % says("chest_heist.phone.roll", "en")
        ana.wait(roll)
        ana.focus(roll).press("Enter")
        ana.wait('#controls [data-toggles="dice"] button')
        focus = ana.focused()
        assert focus is not None and focus["tag"] == "button" and focus["connected"], focus
        inside = ana.evaluate("() => document.getElementById('controls').contains(document.activeElement)")
        assert inside, focus
        assert ana.errors() == []


def test_the_banner_is_a_button_said_once_and_put_away_by_escape(tmp_path, chromium):
    """The Caught!/Escaped! banner was a clickable div: Tab never reached it, Escape did not
    close it, and a screen reader never heard it.  The referee's calls are a log (a new call
    is added, the others left alone), the museum's checks and the messages are statuses."""
    with _table(tmp_path) as rig:
        page = rig.paired(chromium, "Guard", phone="guard-banner")
        page.wait("#checklist .ready")
        roles = page.evaluate("""() => ({
          calls: document.getElementById('calls').closest('[role=log]') !== null,
          checks: document.getElementById('checklist').getAttribute('role'),
          message: document.getElementById('message').getAttribute('role'),
          countdown: document.getElementById('countdown').getAttribute('aria-live'),
          banner: document.getElementById('banner').tagName })""")
        assert roles == {"calls": True, "checks": "status", "message": "status",
                         "countdown": "off", "banner": "BUTTON"}
        table = rig.table
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Ana")
        table.touch("laser.4")
        page.wait("#calls li")
        table.touch("laser.5")
        page.wait("#calls li", text="Laser 5")
        assert page.evaluate("() => document.querySelectorAll('#calls li').length") >= 2
        table.advance(0.2).hand_out().press()
        escaped = says("cleptomano.banner.escaped", "en")
        page.wait("#banner-title", text=escaped)
        assert page.wait("#banner-said", state="attached", text=escaped)
        # Tab reaches it: it is the last control of the page, the first going backwards.
        page.focus("#live-title")
        page.press("Shift+Tab")
        page.press("Shift+Tab")
        reached = False
        for _ in range(40):
            page.press("Tab")
            focus = page.focused()
            if focus and focus["id"] == "banner":
                reached = True
                break
        assert reached, "Tab never reached the banner"
        page.press("Escape")
        page.gone("#banner")
        focus = page.focused()
        assert focus is not None and focus["id"] == "live-title", focus
        assert page.errors() == []


@pytest.mark.parametrize("timer_s, said", [(30, 30), (12, 10)])
def test_the_countdown_speaks_at_30_and_10_seconds_and_is_otherwise_silent(
        tmp_path, chromium, timer_s, said):
    """The digits are aria-live="off"; a status beside them says 30 and 10 seconds left, once
    each, and nothing between."""
    from rig.games.cleptomano.rules import levels
    level = dataclasses.replace(levels.PRESETS["hard"], timer_s=float(timer_s))
    with _table(tmp_path, level=level) as rig:
        page = rig.paired(chromium, "Guard", phone="guard-countdown-%d" % timer_s)
        table = rig.table
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text="Ana")
        words = says("rig.phone.seconds_left", "en", n=said)
        assert page.wait("#countdown-said", state="attached", text=words, timeout_s=30) == words
        changed = page.evaluate(WATCH, {"selector": "#countdown-said", "clock": "#countdown",
                                        "ticks": 2})
        assert changed == 0, "the countdown's status changed %d times in 2 s" % changed
        assert page.errors() == []


def test_the_leaderboard_s_summary_is_written_only_when_it_changes(chromium, leaderboard):
    """Its live summary was written again at every refresh (every second): a screen reader
    heard it again and again."""
    reader = chromium.phone("board-live", *PHONE)
    reader.goto(leaderboard + "/phone")
    reader.wait("#summary", text="2 matches decided")
    assert reader.evaluate("() => document.getElementById('summary').getAttribute('aria-live')") == "polite"
    changed = reader.evaluate(WATCH, {"selector": "#summary", "clock": "#updated", "ticks": 2})
    assert changed == 0, "the summary was written %d times with nothing new" % changed
