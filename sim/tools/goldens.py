"""Regenerate ``tests/golden/replay/``: the exact bytes `cleptomano replay` prints for every
recording under ``tests/recordings/``.

    python -m sim.tools.goldens          # rewrite the goldens (a deliberate contract change)
    python -m sim.tools.goldens --check  # exit 1 and name each recording whose output changed
"""

import argparse
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

from rig import cli

REPO = Path(__file__).resolve().parents[2]
RECORDINGS = REPO / "tests" / "recordings"
GOLDEN = REPO / "tests" / "golden" / "replay"


def replay_bytes(path):
    out = io.StringIO()
    with redirect_stdout(out):
        status = cli.main(["replay", str(path)])
    if status:
        raise SystemExit("%s: replay exited %d" % (path, status))
    return out.getvalue().encode("utf-8")


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.goldens", description=__doc__)
    p.add_argument("--check", action="store_true", help="compare, write nothing")
    args = p.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    changed = []
    for path in sorted(RECORDINGS.rglob("*.jsonl")):
        target = GOLDEN / (path.stem + ".json")
        data = replay_bytes(path)
        if not target.exists() or target.read_bytes() != data:
            changed.append(path.stem)
            if not args.check:
                target.write_bytes(data)
    for name in changed:
        print(("changed: " if args.check else "written: ") + name)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
