"""The game night from the phones, in a real headless Chromium: ``cleptomano run`` (its own
process, simulated and headless, its phones' server on 127.0.0.1) hosts a chest heist; two
phones pair on the games page; from Ana's phone the rig is refused a switch while the game is
in progress, then ends it and switches to Stolen Paintings, and both pages follow by
themselves; then to Cleptómano, and both pages go to its page; from there Ben's phone
switches the rig back to a chest heist, his own, and both pages follow again.  The recordings replay, the
games ended from the phone as unfinished ones."""

import pytest

from rig.shell.storage import replay_file
from sim import phone as browser
from sim.nightrig import DEADLINE_S, Rig, choose

pytestmark = pytest.mark.skipif(browser.cannot_exist() is not None,
                                reason=str(browser.cannot_exist()))

@pytest.mark.heavy      # a real process and real browsers in real time: `make test-heavy`
def test_a_phone_switches_the_rig_from_game_to_game_and_every_page_follows(tmp_path):
    rig = Rig(tmp_path, "--game", "chest-heist", "--players", "Ana")
    try:
        with browser.Browser() as chromium:
            ana = chromium.phone("ana")
            ben = chromium.phone("ben")
            code = rig.code()
            for phone, name in ((ana, "Ana"), (ben, "Ben")):
                phone.goto(rig.url + "games/")
                phone.wait("#title", text="The chest heist", timeout_s=DEADLINE_S)
                phone.wait("#pair h2", text="Play from this phone")
                phone.fill("#pair-code", code).fill("#pair-name", name)
                phone.click('#pair button[type="submit"]')
                phone.gone("#pair")
                phone.wait("#night h2", text="Play another game")
            # Ben is paired but plays no chest heist: his page may still choose the next game.
            ana.click('#controls button:text-is("Roll")')
            ana.wait("#night-end-row")                  # the game is in progress
            choose(ana, "Stolen Paintings", "Ana, Ben, Caro")
            assert "The chest heist is in progress" in ana.wait("#night-error", text="progress")
            choose(ana, "Stolen Paintings", "Ana, Ben, Caro", end=True)
            for phone in (ana, ben):                    # both pages follow by themselves
                phone.wait("#title", text="Stolen Paintings", timeout_s=DEADLINE_S)
                phone.gone("#pair")                     # still paired
            ben.wait("#controls", timeout_s=DEADLINE_S)     # and now Ben plays
            # The recent players: the table just chosen is one tap away.
            assert "Ana, Ben, Caro" in ana.texts("#night-recent button")
            choose(ana, "Cleptómano", end=True)
            for phone in (ana, ben):                    # both go to Cleptómano's page
                phone.wait("#who", text=phone.name.capitalize(), timeout_s=DEADLINE_S)
                assert phone.title() != "Stolen Paintings"
            # Between matches, Cleptómano's page offers the next game too; no game to end.
            ben.goto(rig.url + "#live").wait("#night h2", text="Play another game")
            # The match's players: the table's, as the phone chose them for Stolen Paintings
            # (issue 30: the night went back to rig.toml's "Ana, Ben" before).
            assert "Ana, Ben, Caro" in ben.texts("#night-recent button")
            ben.gone("#night-end-row")
            choose(ben, "The chest heist", "Ben")
            for phone in (ana, ben):
                phone.wait("#title", text="The chest heist", timeout_s=DEADLINE_S)
            ben.wait("#controls", timeout_s=DEADLINE_S)     # the solo game is Ben's now
        assert rig.stop() == 0
    finally:
        rig.stop()
    chest, again = sorted(rig.recordings.glob("chest-heist-*.jsonl"))
    paintings, = rig.recordings.glob("stolen-paintings-*.jsonl")
    match, = rig.recordings.glob("match-*.jsonl")
    assert replay_file(chest)["over"] is False
    assert replay_file(again)["player"] == "Ben"
    assert replay_file(paintings)["players"] == ["Ana", "Ben", "Caro"]
    assert replay_file(match)["players"] == ["Ana", "Ben", "Caro"]     # the table's (issue 30)
    log = rig.log.read_text("utf-8")
    assert "Game night: Ana chose stolen-paintings for Ana, Ben, Caro (ending the game in " \
           "progress)" in log and "Game night: Ana chose cleptomano" in log \
        and "Game night: Ben chose chest-heist for Ben" in log
