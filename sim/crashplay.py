"""Play a match turn by turn on a simulated table, resuming after a crash (for the kill tests).

    python -m sim.crashplay RECORDINGS_DIR MATCH.json

``MATCH.json`` is ``{"players": [...], "turns": [[line, ...], ...]}``: each turn a list of
recording lines whose ``t`` counts from the turn's own start.  The table resumes the newest unfinished recording in
RECORDINGS_DIR (as the daemon does after a crash), counts the turns already played, and plays
the rest, one turn every ``GAP_S`` seconds of virtual time.  It prints ``line N`` after each line
it performs, so a test can kill it at a chosen moment, and ``done`` at the end.
"""

import json
import sys

from rig.core import rules

from .table import SimulatedTable

GAP_S = 100.0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    directory, match_path = argv[0], argv[1]
    with open(match_path, encoding="utf-8") as f:
        spec = json.load(f)
    blocks = spec["turns"]
    table = SimulatedTable(recordings_dir=directory, players=spec["players"], resume=True)
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
