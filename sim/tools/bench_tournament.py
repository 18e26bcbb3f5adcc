"""``make bench --only tournament`` (issue 15): the tournament at full size, and what its link
costs a rig.

* **buzzer** -- touch-to-buzzer p99 through the whole daemon with the tournament link on (a real
  Mosquitto with the shipped configuration, the rig publishing its status, live snapshots and
  matches) beside the same rig without it; and the rig's CPU during those touches, with and
  without: the link's extra CPU.  Goal: p99 within 1.2x.
* **tournament** -- :data:`RIGS` rigs (:class:`sim.tournament.LightRig`: the rig's recording
  session and link) each play :data:`MATCHES_PER_RIG` of the soak's matches, on fresh soak
  seeds, while the broker is restarted twice and one rig is killed mid-match; then the
  leaderboard's standings are compared with those rebuilt from every rig's recordings (lost and
  counted twice), and the delay from each match's close to the leaderboard is reported (p50,
  p99, max; those closed while the broker was down or reconnecting apart).
"""

import json
import logging
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from rig.games.cleptomano.rules import standings as sd
from rig.games.cleptomano.rules import tournament as tm
from rig.links.feed import Feed, records_from

from .. import broker as sim_broker
from ..tournament import LightRig, library, soak_matches
from .percentiles import percentile

RIGS = 20
MATCHES_PER_RIG = 10
SOAK_TURNS = 60                  # per fresh soak seed: about ten matches
RECONNECT_S = 2.0                # a match closed this soon after a restart waited for it
PAUSE_S = 1.5                    # between two matches at a table: the rigs' pace
LATENCY_GOAL = 1.2
FOLLOW_TIMEOUT_S = 120.0


def tournament(rigs=RIGS, per_rig=MATCHES_PER_RIG, seeds=4, quick=False, pause_s=PAUSE_S,
               progress=print):
    """``seeds`` fresh soak runs add their matches to the library's; ``quick``: shorter ones;
    ``pause_s`` the longest pause between two matches at a table (each a random share).
    The leaderboard follows in a process of its own (:func:`follow`), as it runs on a machine
    of its own: the rigs' threads here do not slow it."""
    with tempfile.TemporaryDirectory(prefix="cleptomano-tournament-") as tmp:
        tmp = Path(tmp)
        progress("tournament: soak matches on %d fresh seeds" % seeds)
        matches = list(library())
        for seed in range(101, 101 + seeds):
            matches += soak_matches(seed, SOAK_TURNS if not quick else 20, tmp / "soak" / str(seed))
        broker = sim_broker.Broker(tmp / "broker").start()
        total = rigs * per_rig
        leaderboard = subprocess.Popen(
            [sys.executable, "-m", "sim.tools.bench_tournament", json.dumps(
                {"broker_url": broker.url, "password": broker.passwords["leaderboard"],
                 "expect": total, "timeout_s": FOLLOW_TIMEOUT_S})],
            stdout=subprocess.PIPE, text=True)
        leaderboard.stdout.readline()                    # "following": connected
        players = [LightRig("table-%d" % n, tmp / "rigs" / ("table-%d" % n), broker.url,
                            broker.passwords["table-%d" % n]).start()
                   for n in range(1, rigs + 1)]
        done, restarts = [], []
        killed = (min(7, rigs), per_rig // 2)       # that rig's match killed mid-match

        def play(rig, n):
            rng = random.Random(n)
            for k in range(per_rig):
                time.sleep(rng.uniform(0, pause_s))
                rig.play(rng.choice(matches), kill_at=40 if (n, k) == killed else None)
                done.append(rig.rig_id)

        progress("tournament: %d rigs x %d matches, the broker restarted twice" % (rigs, per_rig))
        started = time.monotonic()
        threads = [threading.Thread(target=play, args=(rig, n), daemon=True)
                   for n, rig in enumerate(players, 1)]
        for thread in threads:
            thread.start()
        for share in (1, 2):
            while len(done) < total * share // 3:
                time.sleep(0.05)
            down = time.monotonic()
            broker.restart()
            restarts.append((down, time.monotonic()))
        for thread in threads:
            thread.join()
        played_s = time.monotonic() - started
        rebuilt = sd.standings(records_from([rig.dir for rig in players]))
        followed = json.loads(leaderboard.stdout.readline() or "{}")
        leaderboard.wait(FOLLOW_TIMEOUT_S)
        for rig in players:
            rig.stop()
        broker.stop()
    closed = {(rig.rig_id, match_id): t for rig in players for match_id, t in rig.closed_at.items()}
    arrived = {(rig, match_id): t for rig, match_id, t in followed.get("arrived", ())}
    delays = {key: arrived[key] - t for key, t in closed.items() if key in arrived}
    near = {key for key, t in closed.items()
            if any(down - 1.0 <= t <= up + RECONNECT_S for down, up in restarts)}
    standings = followed.get("standings", {"players": None, "matches": []})
    keys = [(m["rig"], m["match"]) for m in standings["matches"]]
    return {
        "rigs": rigs, "matches_per_rig": per_rig, "matches_handled": len(closed),
        "fresh_soak_seeds": seeds, "broker_restarts": len(restarts), "rigs_killed_mid_match": 1,
        "played_s": round(played_s, 1), "pause_between_matches_s": [0, pause_s],
        "lost": len(set(closed) - set(keys)), "counted_twice": len(keys) - len(set(keys)),
        "standings_equal_recordings": (standings["players"], standings["matches"]) == (
            rebuilt["players"], rebuilt["matches"]),
        "skipped_messages": followed.get("skipped"),
        "close_to_leaderboard_ms": _ms(delays.values()),
        "close_to_leaderboard_steady_ms": _ms(d for k, d in delays.items() if k not in near),
        "closed_near_a_restart": len(near),
    }


def follow(broker_url, password, expect, timeout_s):
    """The leaderboard's process: prints ``following`` once connected, then, when ``expect``
    closed matches are in (or after ``timeout_s``), one JSON line: when each closed match
    arrived (``time.monotonic()``, the same clock in every process), the standings and the
    messages skipped."""
    arrived = {}
    feed = Feed(tm.parse_broker(broker_url), password=password)

    def on_change():
        now = time.monotonic()
        for record in feed.records():
            if record.closed and record.key not in arrived:
                arrived[record.key] = now
    feed.on_change = on_change
    feed.start()
    feed.connected.wait(10)
    print("following", flush=True)
    deadline = time.monotonic() + timeout_s
    while len(arrived) < expect and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)                       # anything counted twice would be in by now
    print(json.dumps({"arrived": [[rig, m, t] for (rig, m), t in arrived.items()],
                      "standings": feed.standings(), "skipped": feed.skipped}), flush=True)
    feed.stop()


def _ms(values):
    values = sorted(values)
    if not values:
        return None
    return {"n": len(values), "p50": round(1000 * percentile(values, 50), 1),
            "p99": round(1000 * percentile(values, 99), 1), "max": round(1000 * values[-1], 1)}


def broker_for_latency(directory):
    """A broker for the latency children: ``(broker, tournament kwargs for table-1)``."""
    broker = sim_broker.Broker(directory).start()
    return broker, {"broker_url": broker.url, "rig_id": "table-1",
                    "password": broker.passwords["table-1"]}


if __name__ == "__main__":
    logging.disable(logging.WARNING)
    follow(**json.loads(sys.argv[1]))
