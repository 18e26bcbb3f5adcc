"""Issue 30's pairing flow end to end, in a real headless Chromium (docs/games/phones.md).

A solo chest heist on the rig (its web face on 127.0.0.1); Ana's phone opens the QR code's
address (it carries the code) and taps her seat; another phone types the code as the screen
shows it, with its space, finds Ana's seat taken and watches: the seat is offered, no error;
Ana leaves and the watching phone takes her seat and plays; the rig restarts (the same port,
the pairings kept in its recordings folder): the phone is told at once and its first tap plays.
"""


import pytest

from rig.core.phones import pair_link, spaced
from rig.web.pairing import Pairing
from sim import phone as browser
from sim.gametable import GameTable
from sim.broker import free_port

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]

ROLL = '#controls button:text-is("Roll")'


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def test_a_seat_by_the_qr_by_the_spaced_code_left_taken_and_kept_across_a_restart(
        tmp_path, chromium):
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    store = recordings / "phones.json"
    port = free_port()
    with GameTable(recordings, "chest-heist", ("Ana",), port=port,
                   pairing=Pairing(store=store)) as rig:
        # Ana scans the QR: its address carries the code; she taps her seat.
        link = pair_link(rig.memory.board.phones)
        assert link.endswith("?pair=" + rig.code)
        ana = chromium.phone("pair30-ana", 390, 844)
        ana.goto(link)
        ana.wait('#pair-seats [data-seat="Ana"]')
        ana.click('#pair-seats [data-seat="Ana"]')
        ana.gone("#pair")
        ana.wait(ROLL + ":enabled")
        ana.wait("#leave", text="Leave")

        # Caro types the code as the screen shows it ("123 456"): Ana's seat is taken, so
        # she watches, and sees no error.
        caro = chromium.phone("pair30-caro", 390, 844)
        caro.goto(rig.url)
        caro.wait("#pair h2", text="Play from this phone")
        caro.wait('#pair-seats [data-seat="Ana"]', text="Ana (taken)")
        assert not caro.enabled('#pair-seats [data-seat="Ana"]')
        caro.fill("#pair-code", spaced(rig.code)).fill("#pair-name", "Caro")
        caro.click('#pair button[type="submit"]')
        caro.gone("#pair")
        caro.wait("#reseat", text="You are watching")
        assert caro.texts("#error") == [""]

        # Ana leaves; Caro takes the seat with one tap and plays.
        ana.click("#leave")
        ana.wait("#pair h2", text="Play from this phone")
        ana.gone("#leave")
        caro.click('#reseat-seats [data-seat="Ana"]')
        caro.gone("#reseat")
        caro.wait(ROLL + ":enabled")
        assert caro.texts("#error") == [""]
        assert rig.web.pairing.view().phones == ("Ana",)

    # The rig restarts on the same port, its pairings kept: the phone is told at once, and
    # its first tap plays (it was lost with an error).
    with GameTable(recordings, "chest-heist", ("Ana",), port=port,
                   pairing=Pairing(store=store)) as again:
        caro.wait("#notice", text="You are still Ana", timeout_s=30)
        caro.wait(ROLL + ":enabled", timeout_s=20)
        caro.click(ROLL)
        caro.wait("#board .big:not(:empty)")
        assert caro.texts("#error") == [""]
        assert again.web.pairing.view().phones == ("Ana",)
        assert caro.errors() == [] and ana.errors() == []
