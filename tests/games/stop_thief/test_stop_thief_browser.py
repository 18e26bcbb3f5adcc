"""A whole Stop Thief! game played from the phones' pages in a real headless Chromium (issue 16).

The game host runs on the real clock with its web face on 127.0.0.1, as ``cleptomano run --game
stop-thief --players Ana,Ben,Caro --headless`` runs it, on the shipped sample town (Port
Pilfer).  One phone a player: the rig takes a command only from the player whose turn it is (a
phone plays as the name it was paired with; README "Phones"), so each player pairs their own
phone with the code the rig's screen shows.  Every command goes through a page's buttons: the
clues, a replay, the ends of turns, Caro's wrong arrests (down to $0, never below), Ana's right
ones (the reward and the crime wave, the next thief card, the caught thief's path drawn on the
map), until Ana has the cash to retire and every page shows her the winner.  Before each
arrest, no page's text and nothing the rig sent any page holds the hidden thief's position.
The recording on disk replays to the result the pages showed.

The test is the player who guesses well: it reads where the thief is from the in-process game
host (``rig.host.game``), never from a page.  A whole game, in `make test-heavy`: 16 s on this
2-core machine at a load of 7, up to 45 s at a load of 12.
"""

import json
import re

import pytest

from rig.games.stop_thief.rules.calls import clue_sound, clue_words
from rig.games.stop_thief.rules.thief import Settings
from rig.shell.config import StopThiefConfig
from rig.shell.storage import replay_file
from rig.words import english
from sim import phone as browser
from sim.gametable import GameTable, pair

pytestmark = pytest.mark.skipif(browser.cannot_exist() is not None,
                                reason=str(browser.cannot_exist()))

PLAYERS = ("Ana", "Ben", "Caro")
# The game's own settings keep it short: the thief never stays put and is drawn to crime
# scenes, so the crime wave comes early.  With this seed Ana (who arrests once the thief has
# made three clues, or at once after a crime wave) retires after 13 turns; Caro always
# arrests on the wrong space, Ben always ends his turn.
SEED = 100
SETTINGS = Settings(stay_chance=0.0, crime_scene_weight=10.0)
MAX_TURNS = 30

CLUE, REPLAY, END = ('#controls button:text-is("%s")' % w
                     for w in ("Get a clue", "Replay the clue", "End the turn"))
ARREST = '#controls button:text-is("Arrest on this space")'
SPACE = '#controls input[aria-label="space number"]'


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def dollars(amount):
    return "$" + format(amount, ",")


def positions(obj, caught=()):
    """Every space number the JSON ``obj`` places a thief on (a ``space``, ``came_from`` or
    ``path`` key), outside the entries about the caught thieves numbered ``caught``."""
    found = []
    if isinstance(obj, dict):
        if obj.get("number") in caught and ("by" in obj or "path" in obj):
            return found                          # a caught thief: public since its arrest
        for key, value in obj.items():
            if key in ("space", "came_from") and isinstance(value, int):
                found.append(value)
            elif key == "path" and isinstance(value, list):
                found.extend(value)
            else:
                found.extend(positions(value, caught))
    elif isinstance(obj, list):
        for value in obj:
            found.extend(positions(value, caught))
    return found


# What the pages say of spaces that are not the thief's (a wrong guess) or of a caught thief.
SAID_OPENLY = re.compile(r"(not on|was on) space \d+")
SHOWN = "#status, #message, #board > ul, #board > p, #board ol.clues, #controls"


def assert_hidden(phones, rig):
    """No page shows, and nothing the rig sent a page holds, a space where the thief at large
    stands or has stood (the map of the printed board aside: it lists every space)."""
    game = rig.host.game
    secret = set(game.case.thief.path)
    caught = tuple(c.number for c in game.caught)
    checked = 0
    for phone in phones.values():
        for text in phone.received():
            if not text.strip():
                continue
            message = json.loads(text)
            if isinstance(message, dict) and "paths" in message:
                continue                              # GET /api/game/board
            assert not set(positions(message, caught)) & secret, message
            checked += 1
            assert "seed" not in text            # nor what the thief moves by
            for space in secret:
                assert not re.search(r"\bon space %d\b" % space, SAID_OPENLY.sub("", text))
        shown = SAID_OPENLY.sub("", " ".join(phone.texts(SHOWN)))
        for space in secret:
            assert not re.search(r"\b(space|on) %d\b" % space, shown), (space, shown)
    return checked


def wait_money(phone, money, player):
    """Wait until the page's list shows ``player``'s money as ``money`` has it."""
    phone.wait("#board > ul li", text="%s: %s" % (player, dollars(money[player])))


def money_shown(phone):
    """Every player's money as the page's list shows it: {"Ana": 3000, ...}."""
    out = {}
    for line in phone.texts("#board > ul li"):
        name, amount = line.lstrip("▶ ").split(": $")
        out[name] = int(amount.replace(",", ""))
    return out


def fits(phone):
    """The page fits the phone: nothing scrolls sideways, every control is a touch target of
    at least 44 px."""
    width = phone.width()
    assert width["page"] <= width["screen"], width
    controls = phone.boxes("#controls button, #controls input")
    assert controls and all(b["height"] >= 44 and b["width"] >= 44 for b in controls), controls


@pytest.mark.heavy      # a whole game in real time: `make test-heavy` (and .ci/run)
def test_a_whole_stop_thief_game_from_the_phone_pages(tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    shots_dir = tmp_path / "shots"         # the test's own: another run beside it has its own
    with GameTable(recordings, "stop-thief", PLAYERS, seed=SEED,
                   stop_thief=StopThiefConfig(settings=SETTINGS)) as rig:
        phones = {p: pair(chromium.phone("st-" + p, keep_received=True), rig, p) for p in PLAYERS}
        host = rig.host
        for phone in phones.values():
            phone.wait("#title", text="Stop Thief!")
            phone.wait("#board .thief", text="Thief 1: ")
        checked = assert_hidden(phones, rig)

        turns, replayed, shots = 0, False, []
        fines, catches = [], []
        while host.game.winner is None:
            turns += 1
            assert turns <= MAX_TURNS
            player = host.game.player
            assert turns == 1 or player == following      # the turn goes round the table
            me = phones[player]
            for phone in phones.values():
                phone.wait("#status", text="%s's turn" % player)
            following = PLAYERS[(PLAYERS.index(player) + 1) % len(PLAYERS)]
            phones[following].wait(CLUE + ":disabled")  # a clue for the player only
            me.wait(CLUE + ":enabled")
            me.wait(ARREST + ":disabled")             # a clue first
            assert not me.enabled(END)
            clues = len(host.game.case.clues)
            me.click(CLUE)
            item = "#board ol.clues li:nth-child(%d)" % (clues + 1)
            me.wait(item)
            clue = host.game.case.clues[-1]
            words = "%s (%s)" % (english(clue_words(clue.kind)), player)
            me.wait(item + ' svg.icon[aria-label="%s"]' % english(clue_sound(clue.kind)),
                    state="attached")
            assert me.wait(item).strip() == words       # the clue's icon, then its words
            if not replayed and player != "Caro":     # anyone may replay; nothing moves
                phones["Caro"].click(REPLAY)
                phones["Caro"].wait("#message", text="Clue %d again: %s" % (
                    clues + 1, english(clue_sound(clue.kind))))
                assert host.game.case.clues[-1] == clue and len(host.game.case.clues) == \
                    clues + 1
                replayed = True
            if not shots and clues >= 1:
                shots.append(me.screenshot(shots_dir / "during.png", full=True))
            case, before = host.game.case, dict(zip(host.game.players, host.game.money))
            thief_at = case.thief.space                 # the test peeks; the table cannot
            if player != "Ben":
                checked += assert_hidden(phones, rig)   # before each arrest
            if player == "Caro":
                wrong = next(n for n in host.game.board.numbers if n != thief_at)
                me.wait(ARREST + ":enabled")
                me.fill(SPACE, str(wrong)).click(ARREST)
                fine = min(1000, before[player])
                message = me.wait("#message", text="Wrong! The thief is not on space %d" % wrong)
                assert ("pays the bank %s" % dollars(fine) if fine else "has no money to pay") \
                    in message
                fines.append(fine)
            elif player == "Ana" and (case.crime_wave or len(case.clues) >= 3):
                card = host.game.card()
                me.wait(ARREST + ":enabled")
                me.fill(SPACE, str(thief_at)).click(ARREST)
                paid = card.reward + case.crime_wave
                arrest = me.wait("#board .arrest p", text="Arrested! Thief %d, %s, on space %d"
                                 % (case.number, card.name, thief_at))
                assert arrest.endswith(" by Ana: %s%s" % (dollars(paid), " (%s reward + %s "
                                       "crime wave)" % (dollars(card.reward), dollars(
                                           case.crime_wave)) if case.crime_wave else ""))
                path = list(host.game.caught[-1].thief.path)
                for phone in phones.values():           # the whole path, on every page
                    assert phone.wait("#board .arrest .path") == "Its path: " + " → ".join(
                        map(str, path))
                    phone.wait("#board svg.town .walk")
                    labels = [int(t) for t in phone.texts("#board svg.town .num")]
                    assert sorted(labels) == sorted(set(path))
                if not host.game.over:                  # the next thief card, revealed
                    nxt = host.game.card()
                    me.wait("#board .thief", text="Thief %d: %s, reward %s" % (
                        case.number + 1, nxt.name, dollars(nxt.reward)))
                catches.append((case.number, paid, case.crime_wave))
                if len(catches) == 1:
                    shots.append(me.screenshot(shots_dir / "arrest.png", full=True))
                    fits(me)
            else:
                me.wait(END + ":enabled")
                me.click(END)
                me.wait("#status", text="%s's turn" % following)   # the rig has taken it
            after = dict(zip(host.game.players, host.game.money))
            if after != before:                         # the money, as the rig keeps it
                for phone in phones.values():
                    wait_money(phone, after, player)
            assert money_shown(me) == after
            assert min(after.values()) >= 0
            assert me.texts("#error") == [""]           # nothing was refused

        winner = host.game.winner
        assert winner == "Ana" and turns == 13
        for phone in phones.values():
            status = phone.wait("#status", text=" retires: the winner!")
            assert status == "%s retires: the winner!" % winner
            assert not phone.enabled(CLUE) and not phone.enabled(ARREST)
        assert phones["Ben"].wait("#message", text="retires").endswith("%s wins!" % winner)
        shots.append(phones["Ben"].screenshot(shots_dir / "winner.png", full=True))
        assert 0 in fines and fines.count(1000) == 3       # $3,000 down to $0, never below
        assert any(wave for _, _, wave in catches)
        assert checked > 50                   # the rig's answers and pushes, all looked at
        result = host.result()
        shown = money_shown(phones["Caro"])
        assert shown == result["money"]
        assert all(phone.errors() == [] for phone in phones.values())
        path = host.recording_path

    replayed = replay_file(path)
    assert replayed == result
    assert replayed["winner"] == status[:-len(" retires: the winner!")]
    assert replayed["money"] == shown
    assert all(shot.stat().st_size > 0 for shot in shots)
    # About 450 browser steps: 16 s at a load of 7 on 2 cores, 31 s at 9.5, 44 s at 12.
