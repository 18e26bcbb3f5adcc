"""The leaderboard's screenshots for the README (docs/screenshots/leaderboard*.png), taken in a
real browser: Debian's chromium, headless.

    python -m sim.tools.leaderboard_shot [--out DIR]

A real broker (sim/broker.py, the shipped configuration) and a small evening of play: four
tables each write a few of the soak's matches (:class:`sim.tournament.LightRig`; some players
typed their names differently at another table), and a fifth is a whole rig in the middle of a
turn, so its live board shows.  The leaderboard (``cleptomano leaderboard --broker``, the real
command) serves the page on 127.0.0.1, and chromium takes it at 1920x1080 (the venue's screen)
and 390x844 (a phone).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from rig.games.cleptomano.rules import recording
from sim import broker as sim_broker
from sim.tournament import LightRig, SimRig, library

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"leaderboard.png": (1920, 1080, "/"), "leaderboard-phone.png": (390, 844, "/phone")}
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
RENAMES = {"table-2": {"Ben": "ben", "Eli": "Fia"}, "table-3": {"Dani": "Gus", "Eli": "Hana"},
           "table-4": {"Caro": " Caro ", "Ben": "Ivo"}}
SOLO = Path(__file__).resolve().parents[2] / "tests" / "recordings" / "solo_rulebook_example.jsonl"


def browser():
    for name in BROWSERS:
        if shutil.which(name):
            return shutil.which(name)
    raise SystemExit("no chromium found (apt-get install chromium)")


def renamed(match, names):
    """``match`` with its players' names spelled as ``names`` says (header and choices)."""
    def swap(value):
        return names.get(value, value) if isinstance(value, str) else value
    out = []
    for obj in match:
        obj = dict(obj)
        if "players" in obj:
            obj["players"] = [swap(p) for p in obj["players"]]
        for key in ("player", "first_thief"):
            if key in obj:
                obj[key] = swap(obj[key])
        out.append(obj)
    return out


def tick(table, stop):
    """Keep the turn at the live table going in real time (its clock is virtual)."""
    while not stop.wait(0.1):
        table.clock.advance(0.1)


def shoot(url, path, width, height, profile):
    subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update",
                    "--no-first-run", "--hide-scrollbars", "--user-data-dir=%s" % profile,
                    "--window-size=%d,%d" % (width, height), "--virtual-time-budget=3000",
                    "--screenshot=%s" % path, url],
                   check=True, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="leaderboard-shot-"))
    broker = sim_broker.Broker(work / "broker").start()
    server = live = None
    stop = threading.Event()
    try:
        matches = library()
        solo = [json.loads(line) for line in SOLO.read_text(encoding="utf-8").splitlines()]
        for n in range(1, 5):
            rig = LightRig("table-%d" % n, work / ("table-%d" % n), broker.url,
                           broker.passwords["table-%d" % n]).start(10.0)
            for k in range(n + 1):
                rig.play(renamed(matches[(3 * n + k) % len(matches)],
                                 RENAMES.get(rig.rig_id, {})))
            if n == 3:
                rig.play(renamed(solo, {"Ana": "Hana"}))
            rig.stop()
        live = SimRig("table-5", work / "table-5", broker.url, broker.passwords["table-5"])
        match = matches[4]
        live.table = live._table(recording.parse_header(match[0]), resume=False).start()
        live.table.play(match[1:40])
        ticking = threading.Thread(target=tick, args=(live.table, stop), daemon=True)
        ticking.start()
        port = sim_broker.free_port()
        password = work / "leaderboard.password"
        password.write_text(broker.passwords["leaderboard"] + "\n")
        server = subprocess.Popen(
            [sys.executable, "-m", "rig.cli", "leaderboard", "--broker", broker.url,
             "--password-file", str(password), "--bind", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        base = "http://127.0.0.1:%d" % port
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(base + "/api/standings", timeout=2) as answer:
                    if b'"table-5"' in answer.read():
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the leaderboard did not serve the standings within 20 s")
            time.sleep(0.2)
        time.sleep(1.5)                  # every retained match and a live snapshot are in
        args.out.mkdir(parents=True, exist_ok=True)
        for name, (width, height, page) in SIZES.items():
            shoot(base + page, args.out / name, width, height, work / ("profile-" + name))
            print(args.out / name)
    finally:
        stop.set()
        if server is not None:
            server.terminate()
            server.wait(10)
        if live is not None and live.table is not None:
            live.table.stop()
        broker.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
