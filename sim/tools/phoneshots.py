"""The README's pictures of the phone companion, taken in a real browser.

``python -m sim.tools.phoneshots`` runs the rig on the simulated table in real time with its
web face on 127.0.0.1, opens the page in Debian's chromium (through sim/phone.py) on a phone
(390x844) and a tablet (820x1180) at once, pairs both, sets up a match on them, plays a round on
the simulated pins and writes ``docs/screenshots/phone-MOMENT.png`` (the phone) and
``phone-MOMENT-tablet.png`` for each moment: joining, the set-up with the laser layout drawing,
a turn live, the round table.  It takes about half a minute; re-run it after changing the page.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from rig.games.cleptomano.rules.layout import parse_layout

from ..phone import Browser, PhoneTable

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DEVICES = {"phone": (390, 844), "tablet": (820, 1180)}
PAIRED = {"phone": "Ben's phone", "tablet": "Caro's tablet"}
PLAYERS = ("Ana", "Ben", "Caro", "Dani")
LAYOUT = "4: L-I R-II; 5: L-III table-R; 6: R-I L-II; 7: R-III table-L"


def set_up(device):
    """On the set-up screen: tonight's players, the normal level, the first thief, the layout."""
    device.click('.tabs [data-tab="setup"]')
    device.wait("#players", text="Caro")
    device.fill("#player-name", "Dani").click('#add-player button[type="submit"]')
    device.click('#difficulty [data-difficulty="normal"]')
    device.click('#first-thief [data-player="Ben"]')
    for laser in parse_layout(LAYOUT):
        device.click('#layout-lasers [data-laser="%d"]' % laser.number)
        for end in laser.ends:
            device.click('#corridor [data-end="%s"]' % end)
    device.wait("#layout-status", text="Legal layout")


def take(devices, out, moment, scroll=None):
    """Every device's screen now, as ``out/phone-MOMENT[-DEVICE].png``; ``scroll``: an element to
    bring to the top of a phone's screen first (the tablet shows it anyway)."""
    written = []
    for name, device in devices.items():
        if scroll is not None and name == "phone":
            device.scroll(scroll)
        written.append(device.screenshot(out / ("phone-%s%s.png" % (
            moment, "" if name == "phone" else "-" + name))))
    return written


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.phoneshots", description=__doc__)
    p.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default: %(default)s)")
    args = p.parse_args(argv)
    written = []
    with tempfile.TemporaryDirectory(prefix="phoneshots-") as recordings, \
            PhoneTable(Path(recordings)) as rig, Browser() as browser:
        table = rig.table
        devices = {name: browser.phone(name, *size, mobile=name == "phone")
                   for name, size in DEVICES.items()}
        code = rig.screen.phones.code
        for name, device in devices.items():
            device.goto(rig.url)
            device.fill("#pair-code", code).fill("#pair-name", PAIRED[name])
        written += take(devices, args.out, "join")
        for device in devices.values():
            device.click("#pair-go").wait("#who", text="'s")
            set_up(device)
        written += take(devices, args.out, "setup", scroll="#layout-card")
        devices["phone"].click("#start-match").wait("#level", text="ROUND 1")
        devices["tablet"].click('.tabs [data-tab="live"]').wait("#level", text="ROUND 1")
        for device in devices.values():
            device.gone("#message", timeout_s=15)     # the set-up's words, shown for a while

        # Round 1, turn 1: Ben walks out with a painting, and touches a laser on the way.
        table.start_turn(at=table.now + 0.2, hand_in_at=table.now + 0.4)
        table.lift(2).touch("laser.5")
        table.relic(3, "tilt", 80.0)                       # knocked over: broken
        table.advance(1.6)
        for device in devices.values():
            device.wait("#pieces li.broken")
        written += take(devices, args.out, "turn")
        table.hand_out().press().put_back(2).relic(3, "tilt", 0.0)
        # The rest of the round (Ana, Caro, Dani steal in turn): a painting, caught by the
        # guard token, a painting and a relic.
        for gestures in (("painting",), ("guard",), ("painting", "relic")):
            table.start_turn(at=table.now + 0.3, hand_in_at=table.now + 0.5)
            if "painting" in gestures:
                table.lift(1)
            if "relic" in gestures:
                table.relic(1, "motion", 1).advance(0.2).relic(1, "motion", 0)
            if "guard" in gestures:
                table.touch("guard")
            table.hand_out()
            if "guard" not in gestures:
                table.press()
            table.put_back(1)
        for device in devices.values():
            device.wait("#rounds td.won")
            if device.texts("#banner:visible"):
                device.click("#banner")          # the round's banner, tapped away
        written += take(devices, args.out, "table", scroll="#table")
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
