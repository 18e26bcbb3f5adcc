"""``python -m sim.tools.recsize``: how fast a recording grows, idle and in play (issue 12).

Every scenario runs the whole rig on the simulated table in virtual time and measures the bytes
its recording file gains.  The relic hub's firmware (``firmware/relichub``) is stepped along the
table's clock, its frames read through the rig's own Decoder and InputTracker
(:class:`SteppedHubFeed`: the hub link without its thread and port); the hand sensor is the
rig's own poller reading :class:`sim.fake_tof.NoisyVL53L0X`.  Deterministic: the same figures
on any machine.  The figures:

* idle (bytes per day): everything at rest; a relic leaning right at 30 or at 60 degrees with a
  noisy accelerometer; a hand sensor that sees ghosts while nothing is in range, or a surface
  beyond the door;
* play (bytes per hour): turns of 40 s, one after the other: start, the hand in (moving, over a
  noisy sensor), a painting lifted, a relic carried and set down, a touch, out, exit, the haul
  confirmed.

Prints one JSON object; ``--seconds`` sets how much virtual time each idle scenario measures.
"""

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path

from rig.games.cleptomano.rules import events as ev
from rig.core.errors import RigError
from rig.table.names import NOTHING_IN_RANGE_MM
from rig.table.protocol import Decoder
from rig.table.hub import InputTracker

from ..fake_tof import NoisyVL53L0X
from ..relichub import VirtualRelicHub
from ..harness import Harness

DAY_S = 86400
HOUR_S = 3600
STEP_S = 0.05            # the hub is stepped (and read) every heartbeat period
WARM_UP_S = 5.0          # calibration, the first heartbeats: not counted
TURN_S = 40.0
NOISY_G = 0.005          # accelerometer noise of a relic in the idle scenarios (sim default 0.002)


class SteppedHubFeed:
    """A relic source for the simulated table: a :class:`sim.relichub.VirtualRelicHub` whose
    firmware is stepped to the table's time by :meth:`step_to`, its frames turned into relic
    inputs by the rig's own Decoder and InputTracker.  The frames are taken where the firmware
    writes them (its ``write``), not from the pty: a pty on a loaded machine drops bytes, and
    these figures must not depend on the machine."""

    running = True

    def __init__(self, hub, clock):
        self.hub = hub
        self.clock = clock
        self.intake = None
        self.decoder = Decoder()
        self.tracker = InputTracker()
        self._written = []
        self._t0 = None

    def start(self, intake):
        self.intake = intake
        self.hub.hub.write = self._written.append
        self._t0 = self.clock.now() - self.hub.now_ms / 1000.0
        self.tracker.connected()

    def step_to(self, t_abs):
        """Run the hub's firmware up to ``t_abs`` (the table's clock) and hand on its inputs,
        each frame's after the rig has done with the last one's: as live, where frames come
        50 ms apart, the referee has taken each tilt before the next (none is coalesced)."""
        self.hub.step_ms(round((t_abs - self._t0) * 1000.0) - self.hub.now_ms)
        data = b"".join(self._written)
        del self._written[:]
        for frame in self.decoder.feed(data):
            for name, value in self.tracker.feed(frame):
                self.intake.input(name, value, t_abs)
            self.clock.settle()

    def stop(self, timeout_s=1.0):
        return True


class Scene:
    """One table, its stepped hub and its noisy hand sensor, in a temporary folder."""

    def __init__(self, tmp, seed, noise_g=NOISY_G, tof=None):
        dev = Path(tmp) / "dev"
        dev.mkdir()
        self.hub = VirtualRelicHub(dev, seed=seed, noise_g=noise_g)
        self.tof = tof if tof is not None else NoisyVL53L0X(seed=seed)
        self.table = None
        self.feed = None
        self._tmp = Path(tmp)

    def __enter__(self):
        from ..clock import VirtualClock
        clock = VirtualClock()
        self.feed = SteppedHubFeed(self.hub, clock)
        self.table = Harness(clock=clock, recordings_dir=self._tmp / "rec", relics=self.feed,
                             tof=self.tof).start()
        return self

    def __exit__(self, *exc):
        self.table.stop()
        self.hub.close()

    @property
    def now(self):
        return self.table.clock.now() - self.table.start_s

    def run_to(self, t, each_step=None):
        """Step hub and table together to ``t`` seconds after the start."""
        while self.now < t - 1e-9:
            if each_step is not None:
                each_step(self.now)
            self.table.advance_to(min(t, self.now + STEP_S))
            self.feed.step_to(self.table.clock.now())

    def size(self):
        return self.table.rig.recording_path.stat().st_size

    def lines(self):
        return len(self.table.rig.recording_path.read_text("utf-8").split("\n")) - 1


def _measure(scene, seconds, each_step=None):
    scene.run_to(WARM_UP_S)
    size0, lines0 = scene.size(), scene.lines()
    scene.run_to(WARM_UP_S + seconds, each_step)
    gained = scene.size() - size0
    return {"seconds": seconds, "bytes": gained, "lines": scene.lines() - lines0,
            "bytes_per_s": round(gained / seconds, 2),
            "hub_frames": scene.feed.decoder.counters()["frames"],
            "coalesced": scene.table.rig.inbox.coalesced}


IDLE = {
    "quiet": {},
    "relic_at_30_deg": {"lean_deg": 30.0},
    "relic_at_60_deg": {"lean_deg": 60.0},
    "hand_sensor_ghosts": {"tof": {"ghost_share": 0.2}},
    "hand_sensor_sees_a_surface_at_1200_mm": {"tof": {"range_mm": 1200}},
}


def idle(name, seconds=120.0, seed=1):
    """Bytes an idle table writes: one of the IDLE scenarios, scaled to a day."""
    spec = IDLE[name]
    with tempfile.TemporaryDirectory(prefix="cleptomano-recsize-") as tmp:
        tof = NoisyVL53L0X(seed=seed, **spec.get("tof", {}))
        with Scene(tmp, seed, tof=tof) as scene:
            if "lean_deg" in spec:
                scene.run_to(2.0)                       # upright first: the rest is captured
                scene.hub.tip(1, spec["lean_deg"], duration_ms=2000)
            out = _measure(scene, seconds)
    out["bytes_per_day"] = round(out["bytes_per_s"] * DAY_S)
    return out


def play(turns=6, seed=1):
    """Bytes the table writes in play (TURN_S-second turns), scaled to an hour.  Three players
    play two rounds in a match: at most 6 turns, so that one recording holds them all."""
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 6:
        raise RigError("turns=%r; allowed: a whole number from 1 to 6 (one match of three "
                       "players); fix --turns" % (turns,))
    with tempfile.TemporaryDirectory(prefix="cleptomano-recsize-") as tmp:
        with Scene(tmp, seed, noise_g=0.002) as scene:
            table, hub, tof = scene.table, scene.hub, scene.tof
            start = WARM_UP_S
            turn_plan = [
                (0.0, lambda: table.press()),
                (1.0, lambda: setattr(tof, "inside", True)),
                (3.0, lambda: table.lift(1)),
                (5.0, lambda: hub.lift(1)),
                (8.0, lambda: hub.set_down(1)),
                (10.0, lambda: table.touch("laser.4")),
                (15.0, lambda: setattr(tof, "inside", False)),
                (16.0, lambda: table.press()),
                (18.0, lambda: table.submit(ev.ConfirmLoot(0.0, 1, 1, "guard"))),
                (20.0, lambda: table.put_back(1)),
            ]
            tof.inside = False

            def hand(now):
                # A hand over the door moves: 150 mm +- 100 mm, once every 3 s.
                tof.range = (int(150 + 100 * math.sin(2 * math.pi * now / 3.0))
                             if tof.inside else NOTHING_IN_RANGE_MM)

            scene.run_to(start)
            size0, lines0 = scene.size(), scene.lines()
            for turn in range(turns):
                for at, gesture in turn_plan:
                    scene.run_to(start + turn * TURN_S + at, hand)
                    gesture()
            scene.run_to(start + turns * TURN_S, hand)
            seconds = turns * TURN_S
            result = table.rig.result()
            out = {"seconds": seconds, "turns": len(result["turns"]),
                   "bytes": scene.size() - size0, "lines": scene.lines() - lines0}
    out["bytes_per_s"] = round(out["bytes"] / seconds, 2)
    out["bytes_per_hour"] = round(out["bytes_per_s"] * HOUR_S)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim.tools.recsize",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0,
                        help="virtual seconds measured per idle scenario (default 120)")
    parser.add_argument("--turns", type=int, default=6,
                        help="turns of play measured, 1-6 (default 6: one whole match)")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error("--seconds %r; allowed: above 0 virtual seconds" % (args.seconds,))
    try:
        play_report = play(args.turns)
    except RigError as exc:
        parser.error(str(exc))
    report = {"idle": {name: idle(name, args.seconds) for name in IDLE},
              "play": play_report}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
