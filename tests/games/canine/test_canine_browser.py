"""A whole Canine Kleptomaniacs game from three phones' pages in a real headless Chromium
(issue 17).

The game host runs on the real clock with its web face on 127.0.0.1, with the example card
table the rig ships, as ``cleptomano run --game canine --players Ana,Ben,Caro --headless`` runs
it; each player pairs a phone with the code the rig's screen shows and plays from the games
page alone: the doggy cards, the dice of the four action cards that call for the die (the Key
to the Master's Bedroom with discarded cards, the Rancid Badger Poo, the Squirrel, the Charm
Offensive), each outcome on every phone, the end tracker to the game's end, then every hand
entered to be scored, one Hiding Place refused with the reason and corrected.  The scores and
winner on every page are the host's, and the recording on disk replays to them.

The seed is the rig's own (fresh each run), so the dice differ every time: the test presses
"Roll the die" on the phone whose roll the page says it is until the page shows the outcome.
"""

import re

import pytest

from rig.shell.storage import replay_file
from rig.words import english
from sim import phone as browser
from sim.gametable import GameTable, pair

# Real clock and chromium: `make test-heavy` (and .ci/run); skipped without chromium or node.
pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]

PLAYERS = ("Ana", "Ben", "Caro")
DOGGIES = {"Ana": ("Doggy A", False), "Ben": ("Doggy B", True), "Caro": ("Doggy C", False)}
ROLL = '#controls button:text-is("Roll the die")'
# Whose roll the page says it is: "Squirrel: Ben's roll; ..." or "Key ...: Ana rolls for ...".
WHOSE = re.compile(r"^[^:]+: (\w+)(?:'s roll| rolls)")


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def press(phone, label):
    phone.click('#controls button:text-is("%s")' % label)
    return phone


def play(phones, player, card, **fields):
    """``player`` plays the action ``card`` (its name as the page shows it) from their page,
    choosing ``fields`` (select label -> option, or input label -> text); the page then says
    whose roll it is."""
    phone = phones[player]
    phone.select('#controls select[aria-label="card"]', card)
    for label, value in fields.items():
        if label == "discards":
            phone.fill('#controls input[aria-label="discards"]', value)
        elif label == "power":
            phone.click('#controls input[aria-label="power"]')
        else:
            phone.select('#controls select[aria-label="%s"]' % label, value)
    press(phone, "Play the card")
    return phone.wait("#board .call", text=card + ":")


def roll_out(phones, card, rolls):
    """Roll the die on the phone whose roll the page says it is until the call is decided;
    ``rolls`` is the game's count so far.  The outcome (the same on every page) and the count."""
    any_phone = phones[PLAYERS[0]]
    any_phone.wait("#board .call", text=card + ":")      # not the last call's outcome
    while not any_phone.texts("#board .outcome"):
        words = any_phone.wait("#board .call", text=card + ":")
        roller = WHOSE.match(words)[1]
        phones[roller].wait("#status", text="%s: %s's roll" % (card, roller))
        phones[roller].click(ROLL)
        rolls += 1
        any_phone.wait("#board .caption", text="Roll %d: %s rolled " % (rolls, roller))
    outcome = any_phone.texts("#board .outcome")[0]
    for phone in phones.values():
        phone.wait("#board .outcome", text=outcome)
        phone.gone(ROLL)                                # nobody is asked to roll now
    return outcome, rolls


def hide(phone, *cards):
    for card in cards:
        phone.select('#controls select[aria-label="card to hide"]', card)
        press(phone, "Hide it")


def lay_face_up(phone, card):
    phone.select('#controls select[aria-label="face-up card"]', card)
    press(phone, "Lay it face up")


def test_a_whole_canine_game_from_three_phones_pages(tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with GameTable(recordings, "canine", PLAYERS) as rig:
        phones = {p: pair(chromium.phone("canine-" + p, 390, 844), rig, p) for p in PLAYERS}
        for player, phone in phones.items():
            assert phone.title() == "Canine Kleptomaniacs"
            assert phone.wait("#status") == "Playing"
            assert phone.wait("#board .end") == \
                "Action pile: 46 of 46 (the game ends when it runs out)"   # 40 + 2 a player
            assert phone.texts("#board .pill") == ["PLACEHOLDER CARD VALUES"]   # the example
            doggy, face_up = DOGGIES[player]
            phone.select('#controls select[aria-label="doggy"]', doggy)
            if face_up:
                phone.click('#controls label:has-text("face up") input')
            press(phone, "My doggy")
            phone.wait("#controls p", text="Your doggy: %s (face %s)" % (
                doggy, "up" if face_up else "down"))

        # A few Action cards drawn, each counted down on every page.
        for left, player in zip((45, 44, 43), PLAYERS):
            press(phones[player], "I drew an Action card")
            for phone in phones.values():
                phone.wait("#board .end", text="Action pile: %d of 46" % left)

        # The four cards that call for the die, each rolled from the pages.
        outcomes, rolls = [], 0
        assert play(phones, "Ana", "Key to the Master's Bedroom", **{
            "odd or even": "odd", "discards": "2"}).startswith(
            "Key to the Master's Bedroom: Ana rolls for an odd number (roll 1 of 3).")
        outcome, rolls = roll_out(phones, "Key to the Master's Bedroom", rolls)
        assert 1 <= rolls <= 3 and outcome.startswith("Ana rolled ")
        outcomes.append(outcome)
        play(phones, "Ben", "Rancid Badger Poo")
        outcome, rolls = roll_out(phones, "Rancid Badger Poo", rolls)
        assert re.fullmatch(r"Ben rolled \d: pass the Rancid Badger Poo \d players? clockwise "
                            r"to \w+, who discards 2 Collectables \(never the Poo Pizza\)\.",
                            outcome), outcome
        outcomes.append(outcome)
        play(phones, "Caro", "Squirrel")
        outcome, rolls = roll_out(phones, "Squirrel", rolls)
        assert re.fullmatch(r"(\w+) rolled the first six: \1 picks up 5 cards from the "
                            r"Collectables pile\.", outcome), outcome
        outcomes.append(outcome)
        assert play(phones, "Ana", "Charm Offensive", **{"who steals": "Ben", "power": True}) \
            .startswith("Charm Offensive: Ana rolls for a six to stop Ben (try 1 of 5).")
        outcome, rolls = roll_out(phones, "Charm Offensive", rolls)
        outcomes.append(outcome)

        # The Collectables run out (play goes on); three more draws, then the table says the
        # Action pile is empty (drawing all 46 from the pages would take half a minute more):
        # the game is over.
        press(phones["Caro"], "Collectables empty")
        phones["Ana"].wait("#message", text="The Collectables pile has run out; play goes on")
        for left in (42, 41, 40):
            drawer = phones[PLAYERS[left % 3]]
            press(drawer, "I drew an Action card")
            drawer.wait("#board .end", text="Action pile: %d of 46" % left)
        press(phones["Ben"], "Action pile empty")
        for phone in phones.values():
            phone.wait("#status", text="Game over: enter your Hiding Places")
            assert phone.wait("#board .end") == "Action pile: 0 of 46 (the game is over)"
            phone.gone('#controls button:text-is("I drew an Action card")')
            phone.gone('#controls button:text-is("Action pile empty")')
        phones["Ana"].wait("#message", text="Game over: everyone enters their Hiding Places "
                                             "on their phone to be scored.")

        # Each hand entered on its own phone.  Ana: three Slippers, two Bones on the Ultimate
        # Hiding Place, the Wacky Earplugs face up and the Paw.
        ana = phones["Ana"]
        hide(ana, "Slipper", "Slipper", "Slipper")
        press(ana, "Next place")
        hide(ana, "Bone", "Bone")
        press(ana, "Ultimate")
        lay_face_up(ana, "Wacky Earplugs")
        ana.click('#controls input[aria-label="paw"]')
        assert ana.texts("#controls .places li") == [
            "Place 1: Slipper, Slipper, Slipper Remove", "Place 2 (Ultimate): Bone, Bone Remove"]
        press(ana, "Send my Hiding Places")
        assert ana.wait("#controls .yours") == "Your score: 60"
        assert ana.texts("#controls .yours + ul li") == [
            "Hiding place 1: 3 Slipper: 3 x 2 = 6",
            "Hiding place 2 (Ultimate): 2 Bone: 2 x 3 x 2 = 12",
            "Wacky Earplugs face up: 6", "Doggy A: 3 target Collectables: +6",
            "Ultimate Paw of Pilferage: +30"]

        # Ben mixes two kinds on a place: refused with the reason, taken back and corrected;
        # then a lone Laundry Basket, refused until he says which kind it stands for.
        ben = phones["Ben"]
        hide(ben, "Gnashers", "Bone")
        press(ben, "Send my Hiding Places")
        assert ben.wait("#error", text="mixes") == (
            "Hiding place 1 mixes Bone and Gnashers; only ONE kind of Collectable may be hidden "
            "on a Hiding Place: move each kind to a Hiding Place of its own.")
        assert ben.texts("#controls .yours") == []          # nothing was scored
        press(ben, "Take back")
        hide(ben, "Gnashers")
        press(ben, "Next place")
        hide(ben, "Laundry Basket")
        ben.click('#controls input[aria-label="poo pizza"]')
        press(ben, "Send my Hiding Places")
        assert ben.wait("#error", text="Laundry Basket") == (
            "Hiding place 2 holds only the Laundry Basket; say which kind it stands for.")
        ben.select('#controls select[aria-label="place 2 Laundry Basket"]',
                   "as Gnashers")
        press(ben, "Send my Hiding Places")
        assert ben.wait("#controls .yours") == "Your score: -4"
        assert ben.texts("#error") == [""]
        assert ben.texts("#controls .yours + ul li") == [
            "Hiding place 1: 2 Gnashers: 2 x 4 = 8",
            "Hiding place 2: Laundry Basket: 2 x 4 = 8",
            "Doggy B: 4 target Collectables: +10", "Poo Pizza: -30"]

        # Caro: a Master's Bedroom card as a ready-made set with one more of its kind, a pair
        # of Grotty Balls, and Granny's False Teeth face up.
        caro = phones["Caro"]
        hide(caro, "Granny's Bloomers x3", "Granny's Bloomers")
        press(caro, "Next place")
        hide(caro, "Grotty Balls", "Grotty Balls")
        lay_face_up(caro, "Granny's False Teeth")
        press(caro, "Send my Hiding Places")
        # The last score in ends the game: the controls give way to the after-game, and
        # Caro's score is on the final table, with everyone's.
        caro.wait("#board .scores > li > strong", text="Caro: 48")
        caro.wait("#after #outcome", text="winner Ana")
        caro.gone("#controls")

        result = rig.host.result()
        assert result["final"] and result["winners"] == ["Ana"]
        assert result["standings"] == [["Ana", 60], ["Caro", 48], ["Ben", -4]]
        for phone in phones.values():
            assert phone.wait("#status", text="Winner: ") == "Winner: Ana"
            assert phone.texts("#board .scores > li > strong") == [
                "%s: %d%s" % (p, total, " (winner)" if p in result["winners"] else "")
                for p, total in result["standings"]]
        assert phones["Caro"].texts("#board .scores > li:first-child li") == [
            "Hiding place 1: 3 Slipper: 3 x 2 = 6",
            "Hiding place 2 (Ultimate): 2 Bone: 2 x 3 x 2 = 12",
            "Wacky Earplugs face up: 6", "Doggy A: 3 target Collectables: +6",
            "Ultimate Paw of Pilferage: +30"]
        assert [english(c["words"]) for c in result["calls"]] == outcomes
        assert len(result["rolls"]) == rolls
        squirrel = [r["player"] for r in result["rolls"] if r["card"] == "squirrel"]
        assert squirrel == [PLAYERS[(2 + i) % 3] for i in range(len(squirrel))]   # from Caro
        assert all(phone.errors() == [] for phone in phones.values())
        path = rig.host.recording_path

    # The recording on disk replays to the result every page showed, roll for roll.
    assert replay_file(path) == result
    # About 15 s here (2 cores, idle): most of it is the pages' round trips.
