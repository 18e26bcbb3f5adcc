"""The games' phone page as a player reads it, in a real headless Chromium: the chest heist's
board before and during a turn (no empty row where the dice go, the skimmers said for what
they are, a live hint of what the turn asks and which chest locks, a visible label on every
entry box), its after-game (the result and how the next game starts, never "You are
watching") and the recordings of this game and the earlier ones, each with its replay result
and a download of the file as it is on disk; and Stolen Paintings' countdown, ballots and
reveal on a phone and a tablet without a sideways scroll or a target too small for a thumb.

The rig runs as ``cleptomano run --game ... --headless`` runs it (sim/gametable.py: the real
host on the real clock, its web face on 127.0.0.1).  Waits are on the page's conditions, with
the generous deadlines of sim/phone.py; each test takes about 10 to 20 s.
"""


import pytest

from rig.shell.config import StolenPaintingsConfig
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.shell.session import RecordingSession
from rig.words import Words
from sim import phone as browser
from sim.clock import VirtualClock
from sim.gametable import GameTable, pair, tap
from sim.tools.gameshots import command

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]       # real time and a real browser: `make test-heavy`

PHONE, TABLET = (390, 844), (820, 1180)
EN = Words("en")             # the page of a browser that asks for no language
TARGETS = "button, input, a.download"
MIN_TARGET_PX = 44            # as the Cleptómano page's (tests/test_phone_e2e.py)


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def earlier_game(recordings):
    """Last night's game of Stolen Paintings, its recording left in ``recordings`` (hosted on
    a virtual clock, stopped after the first round had begun)."""
    clock = VirtualClock()
    host = GameHost(game_named("stolen-paintings"), ("Ana", "Ben", "Caro"), clock=clock,
                    session=RecordingSession(recordings, lambda: 1767268800.0, clock=clock))
    host.start()
    host.stop()
    return host.recording_path


def reads_well(page, where):
    """No sideways scroll, and every button, entry box and link big enough for a thumb."""
    drawn = page.width()
    assert drawn["page"] <= drawn["screen"], "%s scrolls sideways: %r" % (where, drawn)
    small = [box for box in page.boxes(TARGETS)
             if min(box["width"], box["height"]) < MIN_TARGET_PX]
    assert small == [], "%s: targets under %d px: %r" % (where, MIN_TARGET_PX, small)


def test_the_chest_heist_page_explains_the_turn_and_ends_on_its_result_and_recordings(
        tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    before = earlier_game(recordings)
    (recordings / "stop-thief-20251231-230000.jsonl").write_text("not json\n", "utf-8")
    with GameTable(recordings, "chest-heist", ("Ana",)) as rig:
        ana = pair(chromium.phone("heist-ana", *PHONE), rig, "Ana")
        ana.wait("#status", text="Turn 1 of 12")

        # Before the first roll: no row of space for dice, the hint says what comes.
        assert ana.texts("#board .big") == []
        assert ana.wait("#board .hint") == ("Roll the five dice; at the end of this turn chest "
                                            "A locks for good (no longer to be opened).")
        assert ana.wait("#board .skimmers").startswith(
            "Skimmers (charge one with dice, then use it once as an extra die): ")
        assert ana.texts("#board .skimmers .chip") == ["1: empty", "2: empty", "3: empty"]
        reads_well(ana, "the chest heist before the roll")

        ana.click('#controls button:text-is("Roll")')
        dice = [int(d) for d in ana.wait("#board .dice").split()]
        assert len(dice) == 5
        assert ana.wait("#board .hint", text="5 of 5 dice free").endswith(
            "Then end the turn: at the end of this turn chest A locks for good (no longer to "
            "be opened).")
        # Every entry box has a label on the screen, tied to it.
        assert ana.wait('label[for="box"]') == "Box to tick: its number, P, I or x2"
        ana.wait("#controls input#box")
        reads_well(ana, "the chest heist's turn")

        tap(ana, (1,), '#controls [data-toggles="dice"]')
        tap(ana, (1,), '#controls [data-toggles="skimmers"]')
        ana.click('#controls button:text-is("Charge skimmer")')
        assert ana.wait("#board .skimmers .chip", text="1: worth") == "1: worth %d" % dice[0]
        assert ana.wait("#board .dice .used") == "·%d" % dice[0]
        assert ana.wait("#board .hint", text="4 of 5 dice free")
        ana.click('#controls button:text-is("End the turn")')
        ana.wait("#status", text="Turn 2 of 12; locks next: B")
        assert ana.texts("#board .big") == []               # the dice left with the turn
        for _ in range(11):                                 # the rest at the rig's keys
            command(rig.host, {"roll": True})
            command(rig.host, {"end_turn": True})

        assert ana.wait('label[for="diamonds"]') == "Diamonds in the chests you opened"
        ana.wait("#board .hint", text="Chest L is locked: the game is over.")
        ana.fill("#controls input#diamonds", "14")
        ana.click('#controls button:text-is("Diamonds won")')

        # The after-game: the result, how the next game starts; nothing left to send.
        assert ana.wait("#after h2") == "The game is over"
        result = rig.host.result()
        outcome = EN.text(rig.host.adapter.outcome_words(rig.host.adapter.outcome(result)))
        assert outcome.startswith("score %d: " % result["score"])
        assert ana.wait("#outcome") == outcome
        assert ana.wait("#again") == EN.say("rig.phone.again_paired",
                                            panel=EN.say("rig.night.title"))
        assert ana.wait("#again").startswith(
            "To play again, or another game, choose it under \u201cPlay another game\u201d "
            "below: the rig switches to it and every phone follows.")
        ana.gone("#controls")
        assert "watching" not in " ".join(ana.texts("main"))

        # The recordings: this game's with its result, last night's, the one that is broken.
        tonight = rig.host.recording_path
        ana.wait("#recordings li .outcome", text="score ")
        items = ana.texts("#recordings li")
        assert len(items) == 3
        assert items[0].startswith("The chest heist · ") and " · this game" in items[0]
        assert "Ana" + outcome + "Download the recording" in items[0]
        assert items[1].startswith("Stolen Paintings · ")
        assert "Ana, Ben, Carounfinished (round 1) · Ana 0, Ben 0, Caro 0" in items[1]
        assert items[2].startswith("stop-thief-20251231-230000 · ")
        assert "the recording stop-thief-20251231-230000 cannot be replayed: " in items[2]
        for path in (tonight, before):
            saved = tmp_path / "saved" / path.name
            assert ana.download('#recordings li[data-recording="%s"] a.download' % path.stem,
                                saved) == path.name
            assert saved.read_bytes() == path.read_bytes()
        reads_well(ana, "the chest heist's after-game")
        assert ana.errors() == []


EXHIBITION_S = 5.0                   # the shortest the game allows


def test_stolen_paintings_countdown_ballots_and_reveal_read_well_on_a_phone_and_a_tablet(
        tmp_path, chromium):
    """One round: Ana steals from her phone; Ben (a phone) and Caro (a tablet) mark theirs."""
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "stolen-paintings", ("Ana", "Ben", "Caro"), stolen_paintings=
                   StolenPaintingsConfig(exhibition_s=EXHIBITION_S)) as rig:
        ana = pair(chromium.phone("sp2-ana", *PHONE), rig, "Ana")
        ben = pair(chromium.phone("sp2-ben", *PHONE), rig, "Ben")
        caro = pair(chromium.phone("sp2-caro", *TABLET, mobile=False), rig, "Caro")
        detectives = {"Ben": ben, "Caro": caro}
        assert ana.wait("#controls p") == "You are the thief"
        assert ana.wait("#controls .hint") == "Lay out the 24 paintings, then start the exhibition."
        assert ben.wait("#controls .hint") == "Ana lays out the paintings and starts the exhibition."

        ana.click('#controls button:text-is("Start the exhibition")')
        for name, page in detectives.items():
            assert 1 <= int(page.wait("#board .big")) <= EXHIBITION_S
            assert page.wait("#board .big + .hint") == "seconds left to memorise the paintings"
            page.wait("#controls .hint", text="Memorise the 24 paintings.")
            reads_well(page, "%s's exhibition" % name)

        ana.wait('#controls button:text-is("Send (this is final)")', timeout_s=EXHIBITION_S + 5)
        ben.wait("#controls .hint", text="Close your eyes while Ana steals.")
        tap(ana, (2, 6))
        reads_well(ana, "the thief's entry")
        ana.click('#controls button:text-is("Send (this is final)")')
        for name, marks in (("Ben", (2, 5)), ("Caro", (6,))):
            page = detectives[name]
            page.wait("#controls .hint", text="Open your eyes.")
            tap(page, marks)
            reads_well(page, "%s's ballot" % name)
            page.click('#controls button:text-is("Send my marks")')

        reveal = [EN.say("stolen_paintings.phone.reveal_thief", thief="Ana", n=0, points=0),
                  EN.say("stolen_paintings.phone.reveal_detective", detective="Ben",
                         marked="2, 5", found="2", n=1, points="+1"),
                  EN.say("stolen_paintings.phone.reveal_detective", detective="Caro",
                         marked="6", found="6", n=1, points="+1")]
        for name, page in (("Ana", ana), ("Ben", ben), ("Caro", caro)):
            page.wait("#board .reveal-head", text=EN.say(
                "stolen_paintings.phone.reveal_head", round=1, thief="Ana", n=2,
                paintings="2, 6"))
            assert page.texts("#board .reveal li") == reveal
            assert page.texts("#board .totals li") == ["Ana: 0 points", "Ben: 1 point",
                                                       "Caro: 1 point"]
            reads_well(page, "%s's reveal" % name)
            assert page.errors() == []
        ben.wait("#controls p", text="You are the thief")            # round 2: Ben steals
