"""The deadbands of the relic hub link and of the hand sensor drop only readings that no decision
depends on (issue 12, finding 10).

Generated matches: the world in segments (a hand over the door far, near the threshold or in; a
relic upright, leaning right at 30 or 60 degrees, lying, moving or falling; start presses and
touches), read as the rig reads it: the hand sensor every 20 ms, the hub's heartbeat every 50 ms,
both noisy.  Each match is recorded twice, once with every reading and once with what the rig
forwards (:func:`rig.table.tof.should_report`, :class:`rig.table.hub.InputTracker`), and both
recordings are re-refereed: the replay results and every decision on the way are the same.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig.games.cleptomano.rules import events as ev
from rig.table import protocol as p
from rig.games.cleptomano.rules import recording, engine as rules
from rig.core.errors import RigError
from rig.table.names import NOTHING_IN_RANGE_MM, RELICS
from rig.games.cleptomano.rules.referee import Referee
from rig.games.cleptomano.rules.replay import result
from rig.table.hub import InputTracker
from rig.table.tof import should_report
from sim.tools import recsize

POLL_S = 0.02
HEARTBEAT_S = 0.05
THRESHOLD_MM = 400
PLAYERS = ("Ana", "Ben", "Caro")

SEGMENT = st.fixed_dictionaries({
    "duration_s": st.floats(0.1, 2.5),
    "hand_mm": st.sampled_from([NOTHING_IN_RANGE_MM, 1200, 402, 398, 150]),
    "relic": st.sampled_from(RELICS),
    "tilt_deg": st.sampled_from([0.0, 29.9, 30.0, 30.1, 45.0, 59.9, 60.0, 60.1, 90.0]),
    "moving": st.booleans(),
    "falls": st.booleans(),
    "press": st.booleans(),
    "touch": st.booleans(),
})


class World:
    """A generated match, read as the rig reads it; every reading in ``readings`` and what the
    rig forwards of it in ``forwarded``, as (t, order, name, value)."""

    def __init__(self, segments, seed):
        rng = random.Random(seed)
        self.pins, self.readings, self.forwarded = [], [], []
        self._order = 0
        self._falls_read = {n: 0 for n in RELICS}
        tracker = InputTracker()
        tracker.connected()
        tilt = {n: 0.0 for n in RELICS}
        moving = {n: False for n in RELICS}
        falls = {n: 0 for n in RELICS}
        last_mm, next_poll, next_beat, seq = None, POLL_S, HEARTBEAT_S, 0
        t = 0.0
        at_rest = dict(segments[0], duration_s=0.5, press=False, touch=False, falls=False,
                       hand_mm=NOTHING_IN_RANGE_MM, tilt_deg=0.0, moving=False)
        for seg in [at_rest] + segments:   # the link hears the hub before anything happens
            relic = seg["relic"]
            tilt[relic], moving[relic] = seg["tilt_deg"], seg["moving"]
            if seg["press"]:
                self._pin(t, "button", 1)
                self._pin(t + 0.15, "button", 0)
            if seg["touch"]:
                self._pin(t + 0.05, "laser.4", 1)
                self._pin(t + 0.11, "laser.4", 0)
            if seg["falls"]:
                falls[relic] += 1
            end = t + seg["duration_s"]
            while min(next_poll, next_beat) < end:
                if next_poll <= next_beat:
                    at, next_poll = next_poll, next_poll + POLL_S
                    mm = seg["hand_mm"]
                    if mm < NOTHING_IN_RANGE_MM:
                        mm = max(0, int(round(rng.gauss(mm, max(3.0, 0.03 * mm)))))
                    self._read(at, "tof", mm)
                    if should_report(last_mm, mm, THRESHOLD_MM):
                        last_mm = mm
                        self._forward(at, "tof", mm)
                    continue
                at, next_beat = next_beat, next_beat + HEARTBEAT_S
                statuses = [p.RelicStatus(n, round(max(0.0, rng.gauss(tilt[n], 0.15)), 2),
                                          moving[n], falls[n]) for n in RELICS]
                for status in statuses:   # every reading: falls, motion, tilt, as the tracker
                    self._read_relic(at, status)
                seq += 1
                for name, value in tracker.feed(p.Heartbeat(seq, int(at * 1000), statuses)):
                    self._forward(at, name, value)
            t = end
        self.end_t = round(t + 1.0, 6)

    def _next(self):
        self._order += 1
        return self._order

    def _pin(self, t, name, value):
        self.pins.append((round(t, 6), self._next(), name, value))

    def _read(self, t, name, value):
        self.readings.append((round(t, 6), self._next(), name, value))

    def _forward(self, t, name, value):
        self.forwarded.append((round(t, 6), self._next(), name, value))

    def _read_relic(self, t, status):
        n = status.relic
        for _ in range(status.falls - self._falls_read[n]):
            self._read(t, "relic.%d.freefall" % n, 1)
            self._read(t, "relic.%d.freefall" % n, 0)
        self._falls_read[n] = status.falls
        self._read(t, "relic.%d.motion" % n, 1 if status.moving else 0)
        self._read(t, "relic.%d.tilt" % n, round(status.tilt_deg, 1))

    def recording(self, inputs):
        header = recording.Header(PLAYERS, "normal")
        items = [ev.InputChange(t, name, value)
                 for t, _, name, value in sorted(self.pins + inputs)]
        items.append(ev.End(self.end_t))
        lines = [recording.dumps(header.to_json())]
        lines += [recording.dumps(recording.item_to_json(item)) for item in items]
        return lines


def decisions(lines):
    """The replay result and every event the detector handed the rules, on the way.  A start
    refused because the entrance is blocked names the blocking distance; the decision is which
    problems there were, so the distance is left out."""
    header, items = recording.parse_lines(lines)
    seen = []

    class Watching(Referee):
        def _apply(self, outputs, effects):
            for out in outputs:
                if isinstance(out, ev.ButtonPress):
                    out = (out.t, tuple((q.trouble, q.number) for q in out.problems))
                seen.append(out)
            return super()._apply(outputs, effects)

    referee = Watching(rules.new_match(header.players, header.level), header.settings)
    for _, item in items:
        referee.feed(item)
    return result(referee.finish(items[-1][1].t)), seen


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(SEGMENT, min_size=4, max_size=12), st.integers(0, 2 ** 32 - 1))
def test_the_forwarded_readings_give_every_decision_that_all_the_readings_give(segments, seed):
    world = World(segments, seed)
    everything = decisions(world.recording(world.readings))
    forwarded = decisions(world.recording(world.forwarded))
    assert forwarded[0] == everything[0]          # the replay results
    assert forwarded[1] == everything[1]          # and every decision on the way
    assert len(world.forwarded) <= len(world.readings)


def test_a_noisy_hand_sensor_beyond_the_door_writes_nothing_and_play_stays_small():
    # On the simulated table (sim.tools.recsize); the figures for a day are in the README.
    for scenario in ("hand_sensor_ghosts", "hand_sensor_sees_a_surface_at_1200_mm"):
        assert recsize.idle(scenario, seconds=5.0)["bytes"] == 0   # 0.8 and 2 KB/s before
    turn = recsize.play(turns=1)
    assert turn["turns"] == 1
    assert turn["bytes_per_hour"] < 1000000                        # 1.7 MB an hour before


def test_the_recording_size_tool_names_bad_arguments(capsys):
    with pytest.raises(RigError, match="turns=7; allowed: a whole number from 1 to 6"):
        recsize.play(turns=7)
    with pytest.raises(SystemExit):
        recsize.main(["--turns", "0"])
    assert "turns=0; allowed" in capsys.readouterr().err
