"""The soak (issue 6): 200 turns of random but legal play with injected faults, through the
whole threaded daemon on the simulated table, every recording replayed against the live result.
`make soak` plays the long version (seeds 1-10, 3,000 turns each) outside `make test`.

See :mod:`sim.tools.soak` for what is played and checked.  The soak also watches for known ways a
match could go wrong without breaking a score (``anomalies``: a bouncing exit press opening a
new match, a new match ignoring the museum's state, a late correction or an undo leaving the
match in the wrong state); each has its own test here or in tests/test_faults.py, and the soak
must see none.
"""

import json

import pytest

from rig.shell.storage import replay_file
from sim.tools import soak
from sim.script import demo_match
from sim.table import SimulatedTable

SEED = 1
TURNS = 200          # ~36 matches, every kind of fault at least 5 times (seed 1)


# The soak's own run and its replays take half a minute of real time: `make test-heavy` (and
# .ci/run) runs the tests that use it; `make test` keeps the soak's checks of itself.
@pytest.fixture(scope="module")
def soaked(tmp_path_factory):
    directory = tmp_path_factory.mktemp("soak")
    return soak.run_soak(TURNS, SEED, directory), directory


@pytest.mark.heavy
def test_two_hundred_turns_with_faults_run_clean(soaked):
    summary, _ = soaked
    print(json.dumps(summary, indent=2))        # the figures, with pytest -s
    assert summary["problems"] == [] and summary["ok"]
    assert summary["turns"] == TURNS
    assert summary["matches"] >= 25
    faults = summary["faults"]
    for kind in ("stuck_contact", "stuck_contact_at_start", "hub_lost", "tof_errors",
                 "tof_unplugged", "restart"):
        assert faults.get(kind, 0) >= 5, (kind, faults)
    counts = summary["counts"]
    for kind in ("escaped", "caught:lasers", "caught:guard", "caught:displaced", "caught:time",
                 "loot_confirmations", "undos", "choices", "refused_choices", "refused_starts"):
        assert counts.get(kind, 0) >= 3, (kind, counts)
    assert summary["anomalies"] == {}
    # ~10 s on a quiet 2-core machine; the bound only catches a soak that crawls (a worker
    # starved or spinning), not a loaded machine: a stuck thread fails the settle bound first.
    assert summary["real_s"] < 180


@pytest.mark.heavy
def test_every_recording_of_the_soak_replays_within_the_rules(soaked):
    summary, directory = soaked
    files = sorted(directory.glob("match-*.jsonl"))
    assert len(files) == summary["matches"]
    for path in files:
        result = replay_file(path)
        assert soak.check_result(result, path.name) == []
        assert path.read_text("utf-8").rstrip().endswith('"end": true}')   # all closed


@pytest.mark.heavy
def test_the_soak_is_deterministic(tmp_path):
    one = soak.run_soak(60, 7, tmp_path / "one")
    two = soak.run_soak(60, 7, tmp_path / "two")
    for summary in (one, two):
        summary.pop("real_s")
    assert one == two and one["ok"]


def test_the_soak_command_prints_a_json_summary(capsys):
    assert soak.main(["--turns", "15", "--seed", "3"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["ok"] and summary["turns"] == 15 and summary["seed"] == 3


def test_the_soak_notices_a_recording_that_replays_differently(tmp_path):
    run = soak.Soak(40, 2, tmp_path)
    assert run.run()["ok"]
    path = max(run.live, key=lambda p: len(run.live[p]["turns"]))
    lines = path.read_text("utf-8").splitlines()
    lines = [x for x in lines if '"input": "painting.' not in x]   # the stands lose their wires
    path.write_text("\n".join(lines) + "\n", "utf-8")
    run.problems.clear()
    run.verify()
    assert any("replays to another result" in p for p in run.problems), run.problems


def test_the_bounds_check_catches_impossible_scores():
    turn = {"round": 1, "thief": "Ana", "guard": "Ben", "outcome": "escaped", "reason": None,
            "touches": 0, "paintings": 2, "relics": 3, "broken": [], "fouls": [], "score": 7,
            "duration_s": 5.0}
    result = {"players": ["Ana", "Ben"], "turns": [turn], "rounds": [], "round_wins": {},
              "tiebreak": None, "winner": None, "title": None}
    assert soak.check_result(result, "r") == []
    for bad in ({"score": 8}, {"outcome": "caught", "reason": "guard"}, {"score": None},
                {"outcome": "unfinished"}, {"touches": 4}, {"thief": "Dora"}):
        assert soak.check_result(dict(result, turns=[dict(turn, **bad)]), "r"), bad


# --- Found by the soak ----------------------------------------------------------------------------

def test_a_bouncing_exit_press_that_ends_the_match_starts_nothing_more(tmp_path):
    table = SimulatedTable(recordings_dir=tmp_path).start()
    try:
        table.play([o for o in demo_match().objects() if o.get("t", 0) < 57.0])
        path = table.rig.recording_path
        for at, value in ((57.0, 1), (57.003, 0), (57.01, 1), (57.15, 0)):   # one bouncy press
            table.advance_to(at)
            table.museum.set("button", value)
        table.advance_to(58.0)
        assert table.rig.recording_path == path
        assert table.rig.result()["winner"] == "Caro"
        assert table.rig.referee.match.current is None
    finally:
        table.stop()
