"""The companion games played whole from the phone page, in a real headless Chromium (issue 17).

The game host runs on the real clock with its web face (:class:`rig.web.games.GameWebFace`) on
127.0.0.1 (a free port), as ``cleptomano run --game chest-heist --players Ana --headless`` runs
it; Debian's chromium, driven by sim/phone.py, opens the games page the rig serves at /games/,
pairs with the code the rig's screen shows and plays the solo chest heist without a sheet
from the page alone: 12 turns of a roll then the end of the turn, then the diamonds counted.
The page shows each roll and the final score and title; the recording on disk replays to the
result the page showed.  Then Stolen Paintings, one phone a player, played whole from the pages.
"""

import re

import pytest

from rig.shell.config import StolenPaintingsConfig
from rig.shell.storage import replay_file
from rig.words import Words
from sim import phone as browser
from sim.gametable import GameTable, pair, tap

EN = Words("en")           # the page of a browser that asks for no language

# Exactly as test_phone_e2e.py: skipped without chromium or node.
pytestmark = pytest.mark.skipif(browser.cannot_exist() is not None,
                                reason=str(browser.cannot_exist()))

TURNS = 12
DIAMONDS = 14


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def dice_shown(text):
    """The dice on the page's board ("3  5  ·1  2  6": a used die marked ·) as numbers."""
    return [int(d.lstrip("·")) for d in text.split()]


@pytest.mark.heavy      # a whole game in real time: `make test-heavy` (and .ci/run)
def test_a_whole_solo_chest_heist_from_the_phone_page(tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "chest-heist", ("Ana",)) as rig:
        assert rig.url.startswith("http://127.0.0.1:")
        ana = chromium.phone("ana", 390, 844)
        ana.goto(rig.url)
        ana.wait("#title", text="The chest heist")
        assert ana.title() == "The chest heist"
        ana.wait("#pair h2", text="Play from this phone")
        ana.fill("#pair-code", rig.code).fill("#pair-name", "Ana")
        ana.click('#pair button[type="submit"]')
        ana.gone("#pair")
        roll, end = '#controls button:text-is("Roll")', \
            '#controls button:text-is("End the turn")'

        shown = []
        for turn in range(1, TURNS + 1):
            assert ana.wait("#status", text="Turn %d of %d" % (turn, TURNS)).startswith(
                "Turn %d of %d; locks next: " % (turn, TURNS))
            ana.wait(roll + ":enabled")
            assert not ana.enabled(end)                   # a roll first
            ana.click(roll)
            shown.append(dice_shown(ana.wait("#board .big:not(:empty)")))
            assert len(shown[-1]) == 5 and all(1 <= d <= 6 for d in shown[-1])
            ana.wait(end + ":enabled")
            assert not ana.enabled(roll)                  # one roll a turn
            ana.click(end)
            ana.gone("#board .big:not(:empty)")           # the dice leave the board

        # After the last turn's locks the diamonds are counted, on the page.
        ana.wait('#controls input#diamonds')
        # The page says what is asked now (it said "locks next: null" before the fix).
        assert ana.wait("#status") == "Game over: count the diamonds won"
        assert ana.wait("#message", text="the game is over").startswith("Chest L is locked")
        assert not ana.enabled(roll) and not ana.enabled(end)
        ana.fill('#controls input#diamonds', str(DIAMONDS))
        ana.click('#controls button:text-is("Diamonds won")')
        status = ana.wait("#status", text="Score ")
        assert ana.texts("#error") == [""]
        words = re.fullmatch(r"Score (\d+): (.+)", status)
        assert words, status
        score, english = int(words[1]), words[2]       # the title in the page's language
        result = rig.host.result()
        assert (score, english) == (result["score"], result["title"]["en"])
        assert score >= DIAMONDS                          # and 1 a skimmer never used
        assert ana.errors() == []
        path = rig.host.recording_path

    # The recording on disk replays to what the page showed: every roll, the score, the title.
    replayed = replay_file(path)
    assert replayed == result
    assert [t["rolls"] for t in replayed["turns"]] == [[dice] for dice in shown]
    assert replayed["score"] == score
    assert replayed["title"]["en"] == english


EXHIBITION_S = 5.0                   # the shortest the game allows
PAINTERS = ("Ana", "Ben", "Caro")
STOLEN = {"Ana": [2, 6], "Ben": [1, 4, 8], "Caro": [3]}
MARKS = {"Ana": [2, 6], "Ben": [1, 2], "Caro": [3, 4]}


@pytest.mark.heavy
def test_a_whole_stolen_paintings_game_from_the_phone_pages(tmp_path, chromium):
    """One phone a player (Ben's paired as "Ben's phone"): in each round the thief starts the
    exhibition and enters the stolen places, the detectives their marks, all on the page."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "stolen-paintings", PAINTERS, stolen_paintings=
                   StolenPaintingsConfig(exhibition_s=EXHIBITION_S)) as rig:
        phones = {p: pair(chromium.phone("sp-" + p), rig, p if p != "Ben" else "Ben's phone")
                  for p in PAINTERS}
        for number, thief in enumerate(PAINTERS, 1):
            detectives = [p for p in PAINTERS if p != thief]
            for p, phone in phones.items():
                phone.wait("#status", text="Round %d of 3: %s is the thief" % (number, thief))
                phone.wait("#controls p", text="You are %s" % (
                    "the thief" if p == thief else "a detective"))
            phones[thief].click('#controls button:text-is("Start the exhibition")')
            countdown = int(phones[detectives[0]].wait("#board .big"))
            assert 1 <= countdown <= EXHIBITION_S
            for phone in phones.values():
                phone.wait("#board .big", text="Detectives, close your eyes",
                           timeout_s=EXHIBITION_S + 5)
            assert phones[detectives[0]].texts('#controls button:text-is("Send my marks")') \
                == []                                        # a detective waits for the thief
            tap(phones[thief], STOLEN[thief])
            phones[thief].click('#controls button:text-is("Send (this is final)")')
            phones[thief].wait("#controls p",
                               text="you stole: " + ", ".join(map(str, STOLEN[thief])))
            for d in detectives:
                phones[d].wait("#board p", text="Still marking: ")
                tap(phones[d], MARKS[d])
                phones[d].click('#controls button:text-is("Send my marks")')
            for phone in phones.values():
                phone.wait("#board p", text=EN.say(
                    "stolen_paintings.phone.reveal_head", round=number, thief=thief,
                    n=len(STOLEN[thief]), paintings=", ".join(map(str, STOLEN[thief]))))
        result = rig.host.result()
        winners = result["winners"]
        said = EN.say("stolen_paintings.phone.winners", n=len(winners),
                      winners=", ".join(winners))
        status = phones["Ana"].wait("#status", text=said)
        assert status == said
        for phone in phones.values():                    # nothing more to send: the after-game
            phone.wait("#after h2", text="The game is over")
            assert phone.wait("#outcome").startswith("winner")
            phone.gone("#controls")
        totals = phones["Caro"].texts("#board .totals li")
        assert totals == [EN.say("stolen_paintings.phone.total", player=p, n=abs(n), points=n)
                          for p, n in result["totals"].items()]
        assert all(phone.errors() == [] for phone in phones.values())
        path = rig.host.recording_path

    replayed = replay_file(path)
    assert replayed == result
    assert [r["stolen"] for r in replayed["rounds"]] == [STOLEN[p] for p in PAINTERS]
    assert replayed["winners"] == winners
    # 15 s of it are the three exhibitions; the rest is the page (about 11 s here).
