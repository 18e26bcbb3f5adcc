"""The soak: many turns of random but legal play on the simulated table, with faults injected.

    python -m sim.tools.soak --turns 1000 --seed 1 [--dir DIR] [--poll-interval-s 0.1]

prints a JSON summary on stdout and exits 0 when every check passed, 1 otherwise.

The real daemon (:class:`rig.shell.daemon.Rig`, every thread) runs on :class:`sim.table.SimulatedTable`
in virtual time.  A seeded random player presses, touches (with contact bounce), lifts paintings,
carries, knocks over and drops relics, touches the guard, displaces rods, waits for the time
limit, makes the guard's choices, haul counts and undos -- all legal by the rules, checked against
the pure engine (:func:`rig.games.cleptomano.rules.engine.step`) before they are made.  Faults are
injected on the way: contacts stuck closed (during a turn and when a turn is armed), the relic hub
unplugged, the hand sensor raising I2C errors or unplugged, and daemon crashes (``table.crash()``,
then a new table resuming from the same recordings directory).  When a match ends the next start
press opens a new match, or the table is replaced with other players and another level.

Checks: no exception and no error logged by the rig's threads, every thread alive until each
stop, every score within the rules' bounds, every completed turn surviving a crash, and every
recording replaying (:func:`rig.shell.storage.replay_file`) to exactly the result the live rig reported
when it closed that match.  Deviations from the spec that do not break these checks (known rig
bugs, each with a test in tests/test_faults.py or tests/test_soak.py) are counted as
``anomalies``; a healthy rig shows none.

Speed: virtual time costs real time only at wake-ups, and the hand sensor's poller wakes every
``poll_interval_s``.  The soak polls every 0.1 s instead of the rig's default 0.02 s: 1,000
turns (about 6,000 s of play) take about 7 s instead of 18 s.  The player waits for the poller
after every hand move, so nothing else changes.
"""

import argparse
import dataclasses
import json
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import engine as rules
from rig.shell.config import load_config
from rig.table.names import NOTHING_IN_RANGE_MM
from rig.core.errors import RigError, RulesError
from rig.games.cleptomano.rules.levels import make_level
from rig.games.cleptomano.rules.replay import result as result_json
from rig.shell.storage import replay_file
from rig.words import english

from ..table import SimulatedTable

SOAK_POLL_INTERVAL_S = 0.1
INSIDE_MM = 150
PLAYER_POOL = ("Ana", "Ben", "Caro", "Dani", "Eli")
MAX_SCORE = 7                    # 2 paintings x 2 + 3 relics
MAX_PROBLEMS = 25                # kept in the summary; the count is always exact

# Weights of what the thief does next, and of the faults injected.
ACTIONS = {"touch": 4.0, "glitch": 0.6, "touch_out_of_play": 0.4, "lift": 3.0, "return": 0.3,
           "take_relic": 2.0, "knock_over": 0.6, "drop_relic": 0.4, "carry_out": 1.5,
           "wait": 1.0, "seat_wobble": 0.4, "guard": 0.4, "displace": 0.35, "undo": 0.2}
FAULTS = {"stuck": 3.0, "tof_errors": 3.0, "tof_unplug": 2.0, "hub_lost": 2.0, "crash": 1.2}
FAULT_PER_STEP = 0.06
FAULT_BETWEEN_TURNS = 0.08
STUCK_AT_START = 0.03


def soak_config(poll_interval_s=SOAK_POLL_INTERVAL_S):
    """The default configuration with the soak's hand-sensor poll interval."""
    config = load_config(None)
    return dataclasses.replace(
        config, tof=dataclasses.replace(config.tof, poll_interval_s=poll_interval_s))


def check_result(result, where):
    """Every bound the rules put on a result; returns the violations in words."""
    bad = []
    players = set(result["players"])
    for i, turn in enumerate(result["turns"]):
        what = "%s turn %d (%s)" % (where, i + 1, turn["thief"])
        score, outcome = turn["score"], turn["outcome"]
        if outcome not in ("escaped", "caught", "unfinished"):
            bad.append("%s: outcome %r" % (what, outcome))
        if (score is None) != (outcome == "unfinished"):
            bad.append("%s: score %r for outcome %s" % (what, score, outcome))
        if score is not None and not 0 <= score <= MAX_SCORE:
            bad.append("%s: score %r outside 0..%d" % (what, score, MAX_SCORE))
        if outcome == "caught" and (score, turn["paintings"], turn["relics"]) != (0, 0, 0):
            bad.append("%s: caught but scored %r" % (what, score))
        if not (0 <= turn["touches"] <= rules.MAX_TOUCHES and 0 <= turn["paintings"] <= 2
                and 0 <= turn["relics"] <= 3 - len(turn["broken"])):
            bad.append("%s: counts out of range %r" % (what, turn))
        if turn["thief"] not in players:
            bad.append("%s: thief is not a player" % what)
    for r in result["rounds"]:
        if any(s is None or not 0 <= s <= MAX_SCORE for s in r["scores"].values()):
            bad.append("%s round %d: scores %r" % (where, r["round"], r["scores"]))
        if not r["winners"] or max(r["scores"].values()) != min(
                r["scores"][w] for w in r["winners"]):
            bad.append("%s round %d: winners %r" % (where, r["round"], r["winners"]))
    if result["winner"] is not None and result["winner"] not in players:
        bad.append("%s: winner %r is not a player" % (where, result["winner"]))
    return bad


def decided(result):
    """Whether a result is a finished match: a winner, or a solo heist's attempt made."""
    if len(result["players"]) == 1:
        return any(t["outcome"] != "unfinished" for t in result["turns"])
    return result["winner"] is not None


class _ErrorTrap(logging.Handler):
    """Catches errors the rig's threads log (an exception swallowed to keep the rig going)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record).splitlines()[0][:300])


class Soak:
    """One soak run.  ``run()`` returns the summary (a dict, JSON-ready)."""

    def __init__(self, turns=1000, seed=1, directory=None, poll_interval_s=SOAK_POLL_INTERVAL_S):
        self.target = turns
        self.seed = seed
        self.rng = random.Random(seed)
        self.poll_s = poll_interval_s
        self.config = soak_config(poll_interval_s)
        self.dir = Path(directory)
        self.table = None
        self.players = self.level = self.first = None
        self.turns = 0
        self.virtual_s = 0.0
        self.counts = Counter()
        self.faults = Counter()
        self.anomalies = Counter()
        self.problems = []
        self.problem_count = 0
        self.live = {}                 # recording path -> the live result when it was closed
        self.ended = set()             # recordings closed because the rig said the match was over
        self.snapshots = []            # (path, completed turns just before a crash)
        self._reset_model()

    # --- the museum as the player left it ---------------------------------------------------
    def _reset_model(self):
        self.hand = False
        self.off_stand = set()
        self.dirty_relics = set()
        self.closed = set()
        self.hub_lost = False
        self.tof_down = False

    @property
    def rig(self):
        return self.table.rig

    def match(self):
        return self.rig.referee.match

    def running(self):
        return self.match().current is not None

    def turn_token(self):
        """Which turn runs (None: none), so a turn that ends and another that starts are told
        apart."""
        turn = self.match().current
        if turn is None:
            return None
        return (self.rig.recording_path, turn.start_t, turn.thief, turn.tiebreak)

    def wait_until(self, predicate, limit_s, step_s=0.25):
        waited = 0.0
        while not predicate() and waited < limit_s:
            self.wait(step_s)
            waited += step_s
        return predicate()

    def fault_words(self):
        """The faults on the screen now, as the table reads them in English (the scoreboard
        holds their codes)."""
        return [english(f) for f in self.rig.scoreboard().faults]

    def has_fault(self, prefix):
        return any(f.startswith(prefix) for f in self.fault_words())

    def problem(self, text):
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append("turn %d: %s" % (self.turns, text))

    # --- time and inputs ------------------------------------------------------------------------
    def wait(self, seconds):
        self.table.clock.advance(seconds)
        self.virtual_s += seconds

    def pin(self, name, value):
        self.table.museum.set(name, value)
        self.table.settle()

    def pulse(self, name, on_s):
        self.pin(name, 1)
        self.wait(on_s)
        self.pin(name, 0)

    def hand_to(self, inside):
        self.table.tof.range = INSIDE_MM if inside else NOTHING_IN_RANGE_MM
        self.hand = inside
        self.wait(2 * self.poll_s + 0.05)   # the poller reads it

    def relic(self, name, value):
        if not self.hub_lost:
            self.table.relics.send(name, value)
            self.table.settle()

    def press(self):
        """The start/exit button, sometimes bouncing.  A press after the match is over opens
        a new match: the old one's live result is taken first."""
        was_over = self.rig.match_over
        if was_over:
            self.capture(ended=True)
        path, referee = self.rig.recording_path, self.rig.referee
        for _ in range(self.rng.choice((0, 0, 1, 2))):
            self.pulse("button", self.rng.uniform(0.0003, 0.004))
            self.wait(self.rng.uniform(0.001, 0.03))
        self.pulse("button", self.rng.uniform(0.08, 0.3))
        self.wait(0.15)
        if not was_over and self.rig.recording_path != path:
            # Known bug (tests/test_soak.py): the bounce of the exit press that ended the match
            # opened a new match (and maybe started its first turn).  The old match's live
            # result is its referee's, closed at that press.
            self.anomalies["a bouncing exit press opened a new match"] += 1
            self.live[path] = result_json(rules.unfinished(referee.match, referee.t))
            self.ended.add(path)

    # --- tables and matches -------------------------------------------------------------------
    def new_session(self):
        """Another group sits down: new players, another level, a new table."""
        rng = self.rng
        self.players = rng.sample(PLAYER_POOL, rng.choices((1, 2, 3, 4), (1, 3, 4, 2))[0])
        self.first = rng.choice(self.players)
        kind = rng.choice(("easy", "normal", "hard", "custom"))
        if kind == "custom":
            self.level = make_level("normal", timer_s=rng.choice((8.0, 12.0, 20.0)),
                                    lasers=rng.randint(3, 5),
                                    corridor=rng.choice(("wide", "narrow")))
        else:
            self.level = make_level(kind)
        self.counts["sessions"] += 1
        self.table = self._table()

    def _table(self):
        table = SimulatedTable(self.config, recordings_dir=self.dir, players=self.players,
                               level=self.level, first_thief=self.first, resume=True)
        table.start()
        self._reset_model()
        self.dirty_relics = {1, 2, 3}        # a restarted rig hears the relics' state again
        return table

    def capture(self, ended=False):
        path = self.rig.recording_path
        self.live[path] = self.rig.result()
        if ended:
            self.ended.add(path)

    def check_alive(self, when):
        if not self.rig.alive():
            self.problem("a thread of the rig (referee, sync or a sensor's) died %s" % when)

    def close_session(self):
        self.check_alive("before stop")
        self.capture()
        if not self.table.stop():
            self.problem("a clean stop left threads running")
        self.table = None

    def crash(self):
        """The Pi loses power; the service restarts it on the same recordings."""
        self.check_alive("before a crash")
        self.faults["restart"] += 1
        path = self.rig.recording_path
        done = [t for t in self.rig.result()["turns"] if t["outcome"] != "unfinished"]
        self.snapshots.append((path, done))
        if not self.table.crash():
            self.problem("a crash left threads running")
        self.table = self._table()
        if self.rig.recording_path != path:
            self.problem("the restart did not resume %s" % path.name)
        if self.running():
            self.problem("the interrupted turn was not declared void")
        if not any("Match resumed" in line for line in self.rig.log_lines):
            self.problem("the restart did not say the match resumed")
        self.reset_museum()                  # the guard sets the museum up again

    # --- commands at the guard's controls ---------------------------------------------------
    def legal(self, command):
        match = self.match()
        try:
            rules.step(match, dataclasses.replace(command, t=match.t))
        except RulesError:
            return False
        return True

    def command(self, command):
        """Submit a command; the rig must accept it exactly when the engine says it is legal."""
        legal = self.legal(command)
        before = self.rig.stats.refused
        self.rig.submit(command)
        self.table.settle()
        refused = self.rig.stats.refused - before
        if refused != (0 if legal else 1):
            self.problem("%r: the rig %s a command the rules %s" % (
                command, "refused" if refused else "took", "allow" if legal else "refuse"))
        return legal

    def maybe_choices(self):
        rng = self.rng
        if rules.next_turn(self.match()) is None:
            return
        for role, p in ((ev.Role.THIEF, 0.25), (ev.Role.GUARD, 0.2)):
            if rng.random() >= p:
                continue
            options = [ev.Choose(0.0, role, name) for name in self.players]
            legal = [c for c in options if self.legal(c)]
            if legal and rng.random() > 0.1:
                self.command(rng.choice(legal))
                self.counts["choices"] += 1
            else:
                if not self.command(rng.choice(options)):
                    self.counts["refused_choices"] += 1

    def maybe_undo(self, p):
        undo = ev.UndoTouch(0.0, by="guard")
        if self.rng.random() < p and self.legal(undo):
            self.command(undo)
            self.counts["undos"] += 1
            return True
        return False

    def maybe_loot(self, p):
        match = self.match()
        turn = rules.open_haul(match)
        if turn is None or self.rng.random() >= p:
            return
        paintings = max(0, min(2, turn.sensed_paintings + self.rng.choice((0, 0, 0, -1, 1))))
        relics = max(0, min(3, turn.sensed_relics + self.rng.choice((0, 0, 0, -1, 1))))
        self.command(ev.ConfirmLoot(0.0, paintings, relics, by=turn.guard))
        self.counts["loot_confirmations"] += 1

    # --- faults -------------------------------------------------------------------------------
    def inject(self, kind):
        rng = self.rng
        if kind == "stuck":
            rod = rng.choice(self.level.rods)
            name = "laser.%d" % rod
            running = self.running()
            before = self.match().current.touches if running else 0
            self.faults["stuck_contact"] += 1
            self.pin(name, 1)
            self.wait(rng.uniform(5.1, 8.0))
            if not any("laser %d has been closed" % rod in f for f in self.fault_words()):
                self.problem("laser %d closed for 5 s was not reported as a fault" % rod)
            if running and self.running():
                turn = self.match().current
                if turn.touches - before > 1:
                    self.problem("a stuck contact counted %d touches" % (turn.touches - before))
                if turn.touches > before and rng.random() < 0.7:
                    self.maybe_undo(1.0)
            self.pin(name, 0)
            self.wait(0.05)
            if any("laser %d has been closed" % rod in f for f in self.fault_words()):
                self.problem("laser %d's fault did not clear when released" % rod)
        elif kind == "tof_errors":
            self.faults["tof_errors"] += 1
            error = rng.choice((None, None, RuntimeError("Timeout waiting for VL53L0X!")))
            self.table.tof.fail_next(rng.randint(1, 6), error)
            self.wait(rng.uniform(0.1, 1.0))
        elif kind == "tof_unplug":
            if self.tof_down:
                return
            self.faults["tof_unplugged"] += 1
            self.table.tof.unplug()
            self.tof_down = True
            if not self.wait_until(lambda: self.has_fault("Hand sensor lost"), 3.0):
                self.problem("the unplugged hand sensor was not reported lost")
        elif kind == "hub_lost":
            if self.hub_lost:
                return
            self.faults["hub_lost"] += 1
            self.table.relics.lose(rng.choice(("unplugged", "heartbeat missed")))
            self.table.settle()
            self.hub_lost = True
            self.dirty_relics.clear()        # the rig now reads them upright and still
            if not self.has_fault("Relic hub lost"):
                self.problem("the lost relic hub was not reported")
        elif kind == "crash":
            self.crash()

    def repair(self):
        """Between turns, the guard sometimes fixes what is broken."""
        rng = self.rng
        if self.tof_down and rng.random() < 0.6:
            self.table.tof.plug()
            self.tof_down = False
            # The poller backs off at most 2 s a try; injected errors may still be queued.
            if not self.wait_until(lambda: not self.has_fault("Hand sensor lost"), 16.0):
                self.problem("the hand sensor fault did not clear after it was plugged in")
        if self.hub_lost and rng.random() < 0.5:
            self.table.relics.back("heartbeat")
            self.table.settle()
            self.hub_lost = False
            if self.has_fault("Relic hub lost"):
                self.problem("the relic hub fault did not clear when it came back")

    # --- a turn ---------------------------------------------------------------------------------
    def reset_museum(self):
        for name in sorted(self.closed):
            self.pin(name, 0)
        self.closed.clear()
        for rod in self.level.added_rods:
            self.pin("seat.%d" % rod, 1)
        if self.hand:
            self.hand_to(False)
        for n in sorted(self.off_stand):
            self.pin("painting.%d" % n, 1)
        self.off_stand.clear()
        for n in sorted(self.dirty_relics):
            self.relic("relic.%d.freefall" % n, 0)
            self.relic("relic.%d.motion" % n, 0)
            self.relic("relic.%d.tilt" % n, 0.0)
        self.dirty_relics.clear()
        self.wait(self.rng.uniform(0.3, 1.5))

    def start_turn(self):
        """Arm and press until a turn starts; returns False when the turn did not start."""
        rng = self.rng
        if self.running():
            return True                      # started by a bouncing press (counted there)
        if rng.random() < STUCK_AT_START:
            name = rng.choice(["laser.%d" % n for n in self.level.rods] + ["guard"])
            was_over = self.rig.match_over
            self.faults["stuck_contact_at_start"] += 1
            self.pin(name, 1)
            self.wait(rng.uniform(0.1, 6.0))
            self.press()
            self.pin(name, 0)
            if self.running():
                if was_over:
                    # Known bug (tests/test_faults.py): a new match ignores the museum's state.
                    self.anomalies["new match armed with a contact closed"] += 1
                    return True
                self.problem("a turn started with %s closed" % name)
                return True
            self.counts["refused_starts"] += 1
            self.wait(0.3)
        elif rng.random() < 0.04 and not self.rig.match_over:
            self.pin("painting.2", 0)        # the guard forgot to put painting 2 back
            self.press()
            self.pin("painting.2", 1)
            if self.running():
                self.problem("a turn started with painting 2 off its stand")
                return True
            self.counts["refused_starts"] += 1
            self.wait(0.3)
        was_over = self.rig.match_over
        self.press()
        if was_over and not self.running() and not self.rig.match_over:
            self.press()                     # the press after a match opens the next one only
        if not self.running() and rules.is_over(self.match()) and not self.rig.match_over:
            # Known bug (tests/test_faults.py): the guard's undo decided the match, the rig
            # never heard MatchOver and refuses every start press; only a restart helps.
            self.anomalies["rig stuck after an undo decided the match"] += 1
            self.ended.add(self.rig.recording_path)
            self.close_session()
            self.new_session()
            return False
        if not self.running():
            over = rules.next_turn(self.match()) is None
            self.problem("a start press on a ready museum started nothing (%s): %s" % (
                "match over" if over else "ready", self.rig.log_lines[-1]))
            return False
        return True

    def act(self, action):
        rng = self.rng
        level = self.level
        if action == "touch":
            name = "laser.%d" % rng.choice(level.rods)
            for _ in range(rng.choice((0, 0, 1, 2, 3))):
                self.pulse(name, rng.uniform(0.0002, 0.005))
                self.wait(rng.uniform(0.001, 0.06))
            self.pulse(name, rng.uniform(0.02, 0.4))
        elif action == "glitch":
            self.pulse("laser.%d" % rng.choice(level.rods), rng.uniform(0.0001, 0.0008))
        elif action == "touch_out_of_play":
            if level.lasers < 5:
                self.pulse("laser.8", rng.uniform(0.02, 0.3))
        elif action == "lift":
            on_stand = [n for n in (1, 2) if n not in self.off_stand]
            if on_stand:
                n = rng.choice(on_stand)
                self.pin("painting.%d" % n, 0)
                self.off_stand.add(n)
        elif action == "return":
            if self.off_stand:
                n = rng.choice(sorted(self.off_stand))
                self.pin("painting.%d" % n, 1)
                self.off_stand.discard(n)
        elif action in ("take_relic", "knock_over", "drop_relic"):
            at_rest = [n for n in (1, 2, 3) if n not in self.dirty_relics]
            if not at_rest or self.hub_lost:
                return
            n = rng.choice(at_rest)
            self.dirty_relics.add(n)
            prefix = "relic.%d." % n
            self.relic(prefix + "motion", 1)
            if action == "take_relic":
                self.relic(prefix + "tilt", rng.uniform(5.0, 25.0))
                self.wait(rng.uniform(0.2, 1.2))
                self.relic(prefix + "tilt", rng.choice((2.0, 8.0, 35.0)))
                self.wait(0.05)
                self.relic(prefix + "motion", 0)
            elif action == "knock_over":
                self.relic(prefix + "tilt", rng.uniform(60.0, 95.0))
                self.wait(rng.uniform(0.1, 0.8))
                self.relic(prefix + "motion", 0)
            else:
                self.relic(prefix + "freefall", 1)
                self.wait(0.05)
                self.relic(prefix + "freefall", 0)
                self.relic(prefix + "tilt", 90.0)
                self.relic(prefix + "motion", 0)
        elif action == "carry_out":
            self.hand_to(False)
            self.wait(rng.uniform(0.1, 1.0))
            self.hand_to(True)
        elif action == "wait":
            self.wait(rng.uniform(0.2, 2.0))
        elif action == "seat_wobble":            # lifted and put back within 250 ms
            name = "seat.%d" % rng.choice(level.added_rods)
            self.pin(name, 0)
            self.wait(rng.uniform(0.01, 0.2))
            self.pin(name, 1)
        elif action == "guard":
            self.pulse("guard", rng.uniform(0.02, 0.3))
        elif action == "displace":
            name = "seat.%d" % rng.choice(level.added_rods)
            self.pin(name, 0)
            self.wait(rng.uniform(0.3, 1.0))
            self.pin(name, 1)
        elif action == "undo":
            self.maybe_undo(1.0)

    def end_turn(self, token):
        """End a turn still running: out of time, or out of the museum and the exit button."""
        rng = self.rng
        timer = self.level.timer_s
        if timer is not None and rng.random() < 0.12:
            self.counts["waited_out_the_time"] += 1
            if rng.random() < 0.5:
                self.hand_to(False)
            remaining = self.rig.scoreboard().remaining_s or 0.0
            self.wait(remaining + 0.2)
        elif rng.random() < 0.1:
            self.press()                     # still inside: the exit is ignored
        for _ in range(15):
            if self.turn_token() != token:
                return
            self.hand_to(False)
            self.wait(rng.uniform(0.1, 0.8))
            self.press()
            if self.turn_token() == token:
                self.wait(1.0)               # the hand sensor may still be retrying
        self.problem("the turn would not end at the exit button")

    def play_turn(self):
        """One started turn; returns False when a crash interrupted it."""
        rng = self.rng
        self.turns += 1
        token = self.turn_token()
        self.hand_to(True)
        names, weights = zip(*ACTIONS.items())
        fault_names, fault_weights = zip(*FAULTS.items())
        for _ in range(rng.randint(1, 9)):
            if self.turn_token() != token:
                break
            self.act(rng.choices(names, weights)[0])
            if rng.random() < FAULT_PER_STEP:
                kind = rng.choices(fault_names, fault_weights)[0]
                self.inject(kind)
                if kind == "crash":
                    return False
        if self.turn_token() == token:
            self.end_turn(token)
        return True

    def after_turn(self):
        result = self.rig.result()
        if result["turns"] and not self.running():
            last = result["turns"][-1]
            self.counts[last["outcome"] + (":" + last["reason"] if last["reason"] else "")] += 1
        for text in check_result(result, "live"):
            self.problem(text)
        self.maybe_undo(0.06)
        self.maybe_loot(0.5)
        self.reset_museum()
        self.repair()

    def between_turns(self):
        rng = self.rng
        if self.rig.match_over:
            self.maybe_loot(0.15)            # a late count of the deciding turn's haul
            if rng.random() < 0.25:
                self.close_session()
                self.new_session()
                return
        if rng.random() < FAULT_BETWEEN_TURNS:
            self.inject(rng.choices(list(FAULTS), list(FAULTS.values()))[0])
        self.maybe_choices()

    # --- the run ----------------------------------------------------------------------------
    def run(self):
        trap = _ErrorTrap()
        loggers = [logging.getLogger(name) for name in ("cleptomano", "rig", "sim")]
        for logger in loggers:
            logger.addHandler(trap)
        started = time.perf_counter()
        try:
            self.new_session()
            stalls = 0
            while self.turns < self.target:
                self.between_turns()
                if self.start_turn():
                    stalls = 0
                else:
                    stalls += 1
                    self.reset_museum()
                    if stalls > 10:
                        self.problem("gave up: start presses keep failing")
                        break
                    continue
                if self.play_turn():
                    self.after_turn()
                self.check_alive("after a turn")
            self.close_session()
        finally:
            if self.table is not None:
                self.table.stop()
            for logger in loggers:
                logger.removeHandler(trap)
        real_s = time.perf_counter() - started
        for line in trap.records:
            self.problem("the rig logged an error: " + line)
        self.verify()
        return self.summary(real_s)

    def verify(self):
        """Every recording replays to what the rig reported, and no completed turn was lost."""
        files = sorted(self.dir.glob("match-*.jsonl"))
        replayed = {}
        for path in files:
            try:
                replayed[path] = result = replay_file(path)
            except RigError as exc:
                self.problem("%s does not replay: %s" % (path.name, exc))
                continue
            live = self.live.get(path)
            if live is None:
                self.problem("%s was never closed by the rig" % path.name)
            elif result != live:
                keys = [k for k in result if result[k] != live.get(k)]
                self.problem("%s replays to another result (%s)" % (path.name, ", ".join(keys)))
            for text in check_result(result, path.name):
                self.problem(text)
            if path in self.ended and not decided(result):
                # Known bug (tests/test_faults.py): a late correction undecided the match.
                self.anomalies["match closed undecided after a late correction"] += 1
            self.counts["matches_decided"] += decided(result)
        for path, done in self.snapshots:
            final = replayed.get(path, {}).get("turns", [])
            if final[:max(0, len(done) - 1)] != done[:-1]:
                self.problem("a completed turn of %s did not survive a crash" % path.name)
        self.counts["matches"] = len(files)

    def summary(self, real_s):
        return {
            "ok": self.problem_count == 0,
            "seed": self.seed,
            "turns": self.turns,
            "matches": self.counts.pop("matches", 0),
            "matches_decided": self.counts.pop("matches_decided", 0),
            "sessions": self.counts.pop("sessions", 0),
            "faults": dict(sorted(self.faults.items())),
            "faults_total": sum(self.faults.values()),
            "counts": dict(sorted(self.counts.items())),
            "anomalies": dict(sorted(self.anomalies.items())),
            "problems": self.problems,
            "problem_count": self.problem_count,
            "virtual_s": round(self.virtual_s, 1),
            "real_s": round(real_s, 2),
            "poll_interval_s": self.poll_s,
        }


def run_soak(turns=1000, seed=1, directory=None, poll_interval_s=SOAK_POLL_INTERVAL_S):
    """Run a soak; recordings go to ``directory`` (a temporary one, removed after, if None)."""
    if directory is not None:
        Path(directory).mkdir(parents=True, exist_ok=True)
        return Soak(turns, seed, directory, poll_interval_s).run()
    with tempfile.TemporaryDirectory(prefix="cleptomano-soak-") as tmp:
        return Soak(turns, seed, tmp, poll_interval_s).run()


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.soak", description=__doc__.split("\n")[0])
    p.add_argument("--turns", type=int, default=1000, help="turns to play (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--dir", help="keep the recordings here (default: a temporary directory)")
    p.add_argument("--poll-interval-s", type=float, default=SOAK_POLL_INTERVAL_S,
                   help="hand sensor poll interval (default %g; the rig's is 0.02)"
                        % SOAK_POLL_INTERVAL_S)
    args = p.parse_args(argv)
    if args.turns < 1:
        p.error("--turns %d: give 1 or more turns" % args.turns)
    summary = run_soak(args.turns, args.seed, args.dir, args.poll_interval_s)
    print(json.dumps(summary, indent=2))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
