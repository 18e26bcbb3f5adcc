"""Kill the rig right after every fsync of a whole match, and check that nothing is lost.

    python -m sim.tools.killsweep [--dir DIR]

The match is :func:`sim.crashplay.match_spec`'s nine turns (the kill tests' match).  One uninterrupted run counts its fsyncs (the
sync hook of ``sim.crashplay`` prints ``sync N``); then, for every N, a fresh run is killed with
SIGKILL right after its N-th fsync (``CLEPTOMANO_KILL_AT_SYNC=N``, injected from the sync hook:
no strace), resumed by a second run to the end, and its recording must replay to exactly the
uninterrupted result.  Prints one JSON summary; exit 0 when every kill lost nothing.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from rig.shell.storage import replay_file

from ..crashplay import match_spec


def _run(directory, spec, kill_at=None):
    env = dict(os.environ)
    env.pop("CLEPTOMANO_KILL_AT_SYNC", None)
    if kill_at is not None:
        env["CLEPTOMANO_KILL_AT_SYNC"] = str(kill_at)
    done = subprocess.run([sys.executable, "-m", "sim.crashplay", str(directory), str(spec)],
                          capture_output=True, text=True, env=env, timeout=120)
    syncs = sum(1 for line in done.stdout.splitlines() if line.startswith("sync "))
    return done.returncode, syncs


def _only(directory):
    files = sorted(Path(directory).glob("match-*.jsonl"))
    if len(files) != 1:
        raise SystemExit("expected one recording in %s, found %d" % (directory, len(files)))
    return files[0]


def sweep(workdir, spec_obj):
    workdir = Path(workdir)
    spec = workdir / "match.json"
    spec.write_text(json.dumps(spec_obj))
    code, total = _run(workdir / "whole", spec)
    if code != 0:
        raise SystemExit("the uninterrupted run failed (exit %d)" % code)
    expected = replay_file(_only(workdir / "whole"))
    lost = []
    for n in range(1, total + 1):
        rec = workdir / ("kill-%03d" % n)
        code, _ = _run(rec, spec, kill_at=n)
        if code != -signal.SIGKILL:
            lost.append({"sync": n, "problem": "not killed (exit %d)" % code})
            continue
        code, _ = _run(rec, spec)
        got = replay_file(_only(rec)) if code == 0 else None
        if got != expected:
            lost.append({"sync": n, "problem": "the resumed match ended differently"})
    return {"ok": not lost, "fsyncs": total, "kills": total, "lost": lost,
            "turns": len(expected["turns"]), "winner": expected["winner"]}


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.killsweep", description=__doc__)
    p.add_argument("--dir", help="keep the recordings here (default: a temporary directory)")
    args = p.parse_args(argv)
    if args.dir:
        Path(args.dir).mkdir(parents=True, exist_ok=True)
        result = sweep(args.dir, match_spec())
    else:
        with tempfile.TemporaryDirectory(prefix="cleptomano-kills-") as tmp:
            result = sweep(tmp, match_spec())
    print(json.dumps(result, indent=2))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
