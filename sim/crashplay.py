"""Play a match turn by turn on a simulated table, resuming after a crash (for the kill tests).

    python -m sim.crashplay RECORDINGS_DIR MATCH.json

``CLEPTOMANO_KILL_AT_SYNC=N`` in the environment kills it right after the recording's N-th fsync.

``MATCH.json`` is ``{"players": [...], "turns": [[line, ...], ...]}``: each turn a list of
recording lines whose ``t`` counts from the turn's own start.  The table resumes the newest unfinished recording in
RECORDINGS_DIR (as the daemon does after a crash), counts the turns already played, and plays
the rest, one turn every ``GAP_S`` seconds of virtual time.  It prints ``line N`` after each line
it performs, so a test can kill it at a chosen moment, and ``done`` at the end.
"""

import json
import os
import signal
import sys

from rig.games.cleptomano.rules import engine as rules

from .script import Script
from .table import SimulatedTable

GAP_S = 100.0
PLAYERS = ["Ana", "Ben", "Caro"]
KILL_AT_SYNC = "CLEPTOMANO_KILL_AT_SYNC"


def _kill_at_sync(count):
    """The sync hook: print ``sync N`` after the recording's N-th fsync, and with
    ``CLEPTOMANO_KILL_AT_SYNC=N`` kill this process right there (SIGKILL, as a power cut
    would stop it: everything fsynced is on disk, nothing else is promised)."""
    seen = [0]

    def hook(path):
        seen[0] += 1
        print("sync %d" % seen[0], flush=True)
        if count is not None and seen[0] >= int(count):
            os.kill(os.getpid(), signal.SIGKILL)
    return hook


def turn_block(kind):
    """One turn's lines, times from the turn's start (the start press at 0)."""
    s = Script(PLAYERS)
    s.start(0.0)
    s.hand_in(1.0)
    if kind == "painting":
        s.touch(4, 2.0, bounce=[(0.0004, 0.002)])
        s.lift_painting(1, 3.0)
        s.hand_out(4.0)
        s.exit(5.0)
    elif kind == "two":
        s.lift_painting(1, 2.0)
        s.hand_out(3.0)
        s.hand_in(3.5)
        s.lift_painting(2, 4.0)
        s.take_relic(1, 4.5, carry_s=0.5)
        s.hand_out(5.5)
        s.exit(6.0)
    elif kind == "guard":
        s.touch_guard(2.0)
        s.hand_out(3.0)
    elif kind == "lasers":
        for i, rod in enumerate((1, 5, 2)):
            s.touch(rod, 2.0 + i)
        s.hand_out(5.5)
    s.reset_museum(8.0)
    return s.objects()[1:]


def match_spec():
    """The kill tests' match: three players, nine turns of every kind."""
    kinds = ["two", "guard", "painting", "lasers", "painting", "two", "two", "guard", "painting"]
    return {"players": PLAYERS, "turns": [turn_block(k) for k in kinds]}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    directory, match_path = argv[0], argv[1]
    with open(match_path, encoding="utf-8") as f:
        spec = json.load(f)
    blocks = spec["turns"]
    table = SimulatedTable(recordings_dir=directory, players=spec["players"], resume=True,
                           sync_hook=_kill_at_sync(os.environ.get(KILL_AT_SYNC)))
    table.start()
    match = table.rig.referee.match
    done = len(rules.played_turns(match)) + len(match.attempts)
    base = table.rig.referee.t + 1.0
    count = 0
    for index, block in enumerate(blocks[done:]):
        if rules.is_over(table.rig.referee.match):
            break
        start = base + index * GAP_S
        for obj in block:
            obj = dict(obj, t=round(start + obj["t"], 6))
            table.advance_to(obj["t"])
            table.apply(obj)
            table.settle()
            count += 1
            print("line %d" % count, flush=True)
    table.advance_to(table.rig.referee.t + GAP_S)
    table.stop()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
