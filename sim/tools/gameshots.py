"""The README's pictures of the games' phone page (/games/), taken in a real browser.

``python -m sim.tools.gameshots`` (``make gameshots``) hosts the companion games in real time
with their web face on 127.0.0.1 (sim/gametable.py), opens the page in Debian's chromium
(through sim/phone.py) on a phone (390x844) and a tablet (820x1180) at once, pairs both and
writes ``docs/screenshots/games-MOMENT.png`` (the phone) and ``games-MOMENT-tablet.png``:

* ``paintings-exhibition``: a detective's page during the exhibition's countdown;
* ``paintings-reveal``: the round revealed (each ballot, what it found, the points);
* ``chest-turn``: the chest heist during a turn (a die used, a skimmer charged, the hint);
* ``chest-over``: the chest heist's after-game, with the recordings of the evening.

Stolen Paintings is played first, in the same recordings folder, so that the chest heist's
history lists both games.  About half a minute; re-run it after changing the page.
"""

import argparse
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from rig.shell.config import StolenPaintingsConfig

from ..gametable import GameTable, pair, tap
from ..phone import Browser

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DEVICES = {"phone": (390, 844), "tablet": (820, 1180)}
EXHIBITION_S = 8.0
ANSWER_TIMEOUT_S = 5.0


def command(host, obj):
    """Give the host one command as the first player's phone sends it (``{"roll": true}``...);
    waits (bounded) for it to be taken."""
    taken = threading.Event()
    answers = []
    item = host.adapter.command_from_json(obj)

    def reply(answer):
        answers.append(answer)
        taken.set()

    host.submit(replace(item, by=host.players[0]), reply)
    if not taken.wait(ANSWER_TIMEOUT_S) or not answers[0].accepted:
        raise RuntimeError("the rig did not take %r: %s" % (
            obj, answers[0].reason if answers else "no answer"))


def take(devices, out, moment):
    """Every device's screen now, from the top of the page, as
    ``out/games-MOMENT[-DEVICE].png``."""
    return [device.scroll("header").screenshot(out / ("games-%s%s.png" % (
        moment, "" if name == "phone" else "-" + name))) for name, device in devices.items()]


def paintings(browser, recordings, out):
    """One round of Stolen Paintings: Ana steals, Ben (the phone) and Caro (the tablet) mark."""
    with GameTable(recordings, "stolen-paintings", ("Ana", "Ben", "Caro"), stolen_paintings=
                   StolenPaintingsConfig(exhibition_s=EXHIBITION_S)) as rig:
        thief = pair(browser.phone("sp-ana"), rig, "Ana")
        devices = {name: pair(browser.phone("sp-" + name, *size, mobile=name == "phone"),
                              rig, player)
                   for (name, size), player in zip(DEVICES.items(), ("Ben", "Caro"))}
        thief.click('#controls button:text-is("Start the exhibition")')
        for device in devices.values():
            device.wait("#board .big")
        written = take(devices, out, "paintings-exhibition")
        thief.wait("#controls button:text-is(\"Send (this is final)\")",
                   timeout_s=EXHIBITION_S + 5)
        tap(thief, (2, 6))
        thief.click('#controls button:text-is("Send (this is final)")')
        for device, marks in zip(devices.values(), ((2, 5), (6,))):
            device.wait('#controls button:text-is("Send my marks")')
            tap(device, marks)
            device.click('#controls button:text-is("Send my marks")')
        for device in devices.values():
            device.wait("#board .reveal")
        return written + take(devices, out, "paintings-reveal")


def chest(browser, recordings, out):
    """A chest heist: a turn under way, then the game to its end and the after-game."""
    with GameTable(recordings, "chest-heist", ("Ana",)) as rig:
        # One seat, one phone: Ana plays from the phone; the tablet watches, unpaired.
        phone = pair(browser.phone("ch-phone", *DEVICES["phone"], mobile=True), rig, "Ana")
        tablet = browser.phone("ch-tablet", *DEVICES["tablet"], mobile=False)
        tablet.goto(rig.url)
        tablet.wait("#status", text="Turn 1")
        devices = {"phone": phone, "tablet": tablet}
        phone.click('#controls button:text-is("Roll")')
        tap(phone, (1,), '#controls [data-toggles="dice"]')
        tap(phone, (1,), '#controls [data-toggles="skimmers"]')
        phone.click('#controls button:text-is("Charge skimmer")')
        for device in devices.values():
            device.wait("#board .dice .used")
        written = take(devices, out, "chest-turn")
        command(rig.host, {"end_turn": True})
        for _ in range(11):
            command(rig.host, {"roll": True})
            command(rig.host, {"end_turn": True})
        command(rig.host, {"diamonds": 23})
        for device in devices.values():
            device.wait("#after h2", text="The game is over")
            device.wait("#recordings li .outcome", text="score ")
        return written + take(devices, out, "chest-over")


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.gameshots", description=__doc__)
    p.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default: %(default)s)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gameshots-") as folder, Browser() as browser:
        recordings = Path(folder)
        written = paintings(browser, recordings, args.out) + chest(browser, recordings, args.out)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
