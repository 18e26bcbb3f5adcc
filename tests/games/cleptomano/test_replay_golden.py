"""`cleptomano replay` prints byte-identical JSON for every recording we keep.

``tests/golden/replay/NAME.json`` holds the exact bytes the replay command printed for
``tests/recordings/**/NAME.jsonl`` when the golden was made (the three-player and solo examples,
and eleven recordings of the soak, seed 3, with crashes, undos and tiebreaks).  A refactoring
that changes one byte of any of them fails here; a deliberate change of the contract regenerates
them with ``python -m sim.tools.goldens`` and says why in its commit.
"""

import io
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from rig import cli

HERE = Path(__file__).resolve().parents[2]     # tests/: its recordings and goldens
RECORDINGS = HERE / "recordings"
GOLDEN = HERE / "golden" / "replay"
CASES = sorted(RECORDINGS.rglob("*.jsonl"))


def replay_bytes(path):
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["replay", str(path)]) == 0
    return out.getvalue().encode("utf-8")


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_replay_output_is_byte_identical_to_its_golden(path):
    assert replay_bytes(path) == (GOLDEN / (path.stem + ".json")).read_bytes()


def test_every_golden_has_its_recording():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == [p.stem for p in CASES]
    assert len(CASES) >= 13
