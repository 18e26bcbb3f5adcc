"""The phones never cut a word (issue 30), in a real headless Chromium at 390x844: with the
longest real name of each language at the table (and the pseudo-locale's words, 40 % longer),
no name nor word of Cleptómano's pages breaks inside (``Am/élie`` beside the hand badge, ``LA
LOCUL EI`` on three lines), no text overflows its box, and no placeholder is cut ("Nombre de un
jugac…"); the chest heist's dice buttons show the faces rolled, not the places 1 to 5."""

import dataclasses

import pytest

from rig.shell.config import load_config
from rig.words import Words
from sim import phone as browser
from sim.gametable import GameTable, pair, tap
from sim.tools.gameshots import command

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]       # real time and a real browser: `make test-heavy`

PHONE = (390, 844)
#: The longest first name a table of each language is likely to bring (accents included); the
#: pseudo-locale's table brings all of them.
LONGEST = {"es": "Maximiliano", "fr": "Marie-Éléonore", "ro": "Constantina",
           "pseudo": "Bartholomew"}
#: Names the trial saw broken ("Am/élie", "Jos/é"), at the same table.
SHORT = ("Amélie", "José")


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def _table(tmp_path, lang):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    config = load_config(None)
    players = (LONGEST[lang],) + SHORT
    config = dataclasses.replace(config, match=dataclasses.replace(
        config.match, players=players, first_thief=players[0]))
    return browser.PhoneTable(recordings, config=config)


def whole(page, where, selector="body"):
    """No word cut inside, no text out of its box, no placeholder cut."""
    cut = page.cut_words(selector)
    assert cut == [], "%s: words cut inside: %r" % (where, cut)
    found = page.overflowing(selector)
    assert found == [], "%s: text overflows its box: %r" % (where, found)


@pytest.mark.parametrize("lang", ["es", "fr", "ro", "pseudo"])
def test_no_name_nor_word_is_cut_on_cleptomano_s_pages(tmp_path, chromium, lang):
    with _table(tmp_path, lang) as rig:
        page = chromium.phone("fit-" + lang, *PHONE)
        page.goto(rig.url + "?lang=" + lang)
        page.wait("#join h1")
        whole(page, "join")
        page.click("#watch")
        table = rig.table
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        page.wait("#thief", text=LONGEST[lang])
        page.wait("#hand.in")
        whole(page, "a turn, the hand in beside the thief's name")
        # Each piece's state in at most two lines ("LA LOCUL EI" took three).
        for piece in page.boxes("#pieces .state"):
            assert piece["height"] <= 2.5 * 0.7 * 18 * 1.35, (lang, piece)
        page.goto(rig.url + "?lang=" + lang)
        page.wait("#pair-code")
        page.fill("#pair-code", rig.screen.phones.code).fill("#pair-name", "Tel")
        page.click("#pair-go")
        page.wait("#who", text="Tel")
        page.goto(rig.url + "?lang=%s#setup" % lang)
        page.wait("#players", text=LONGEST[lang])
        whole(page, "set-up")
        assert page.errors() == []


@pytest.mark.parametrize("lang", ["en", "pseudo"])
def test_the_chest_heist_s_dice_buttons_show_the_faces_rolled(tmp_path, chromium, lang):
    """The buttons read as the dice on the table and the screen ("the 5"), not their places
    1 to 5; a die chosen is its place sent, a used die not offered; the page cuts no word."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "chest-heist", ("Amélie",), seed=2024) as rig:
        ana = pair(chromium.phone("dice-" + lang, *PHONE), rig, "Amélie")
        if lang != "en":
            ana.goto(rig.url + "?lang=" + lang)
        command(rig.host, {"roll": True})
        buttons = '#controls [data-toggles="dice"] button'
        ana.wait(buttons)
        faces = [d["value"] for d in rig.memory.board.view["dice"]]
        assert faces == [2, 4, 3, 6, 1]                  # seed 2024's first roll
        assert ana.texts(buttons) == [str(f) for f in faces]
        six = buttons + '[data-place="4"]'
        ana.click(six).wait(six + '[aria-pressed="true"]')
        tap(ana, (1,), '#controls [data-toggles="skimmers"]')
        ana.click('#controls button:text-is("%s")' % Words(lang).say("chest_heist.phone.charge"))
        ana.wait("#board .skimmers .chip", text=str(faces[3]))
        assert ana.enabled(buttons + '[data-place="4"]') is False       # the 6 is used
        whole(ana, "the chest heist's turn", "header, main")
        ana.screenshot(tmp_path / "dice.png")
        assert ana.errors() == []


@pytest.mark.parametrize("game", ["stolen-paintings", "stop-thief", "canine"])
@pytest.mark.parametrize("lang", ["es", "pseudo"])
def test_no_name_nor_word_is_cut_on_a_companion_game_s_page(tmp_path, chromium, game, lang):
    """The games page of each game played by a table with the language's longest name: its
    status, board and controls, the night's panel, the recordings."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    players = (LONGEST[lang],) + SHORT
    with GameTable(recordings, game, players, seed=3) as rig:
        page = pair(chromium.phone("%s-%s" % (game, lang), *PHONE), rig, "Amélie")
        page.goto(rig.url + "?lang=" + lang)
        page.wait("#status")
        page.wait("#night-go")
        whole(page, "%s's page" % game, "header, main")
        assert page.errors() == []
