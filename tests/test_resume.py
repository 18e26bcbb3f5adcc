"""Nothing lost: the daemon killed (SIGKILL) at random points resumes its match from the
recording, voids the interrupted turn, and ends with the result of an uninterrupted run."""

import json
import random
import signal
import subprocess
import sys

import pytest

from rig.shell import storage
from rig.shell.storage import is_finished
from sim.script import Script

PLAYERS = ["Ana", "Ben", "Caro"]


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
    kinds = ["two", "guard", "painting", "lasers", "painting", "two", "two", "guard", "painting"]
    return {"players": PLAYERS, "turns": [turn_block(k) for k in kinds]}


def run_child(directory, spec_path, kill_after=None):
    proc = subprocess.Popen([sys.executable, "-m", "sim.crashplay", str(directory),
                             str(spec_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    lines = 0
    try:
        for line in proc.stdout:
            if line.startswith("line"):
                lines += 1
                if kill_after is not None and lines >= kill_after:
                    proc.send_signal(signal.SIGKILL)
                    break
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        proc.stdout.close()
    return proc.returncode, lines


def only_recording(directory):
    files = sorted(directory.glob("match-*.jsonl"))
    assert len(files) == 1, files
    return files[0]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    directory = tmp_path_factory.mktemp("whole")
    spec_path = directory / "match.json"
    spec_path.write_text(json.dumps(match_spec()))
    code, _ = run_child(directory / "rec", spec_path)
    assert code == 0
    path = only_recording(directory / "rec")
    return storage.replay_file(path)


def test_an_uninterrupted_run_finishes_the_match(uninterrupted):
    assert uninterrupted["winner"] is not None
    assert len(uninterrupted["turns"]) == 9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_at_random_points_the_match_resumes_and_ends_the_same(tmp_path, seed,
                                                                      uninterrupted):
    rng = random.Random(seed)
    spec_path = tmp_path / "match.json"
    spec_path.write_text(json.dumps(match_spec()))
    rec = tmp_path / "rec"
    kills = 0
    for _ in range(3):
        code, lines = run_child(rec, spec_path, kill_after=rng.randint(3, 60))
        if code == 0:
            break
        assert code == -signal.SIGKILL
        kills += 1
        path = only_recording(rec)
        survived = storage.replay_file(path)
        # Every completed turn's score survives the kill.
        for before, after in zip(survived["turns"], uninterrupted["turns"]):
            if before["outcome"] != "unfinished":
                assert before == after
    code, _ = run_child(rec, spec_path)
    assert code == 0
    assert kills >= 1
    path = only_recording(rec)
    assert is_finished(path)
    text = path.read_text("utf-8")
    assert '"restart": true' in text
    assert storage.replay_file(path) == uninterrupted


def test_a_broken_recording_does_not_keep_the_rig_from_starting(tmp_path):
    from sim.table import SimulatedTable
    broken = tmp_path / "match-20260101-000000.jsonl"
    broken.write_text('{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben", '
                      '"Caro"], "difficulty": "normal"}\n[1, 2]\n')
    table = SimulatedTable(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    try:
        assert table.rig.recording_path != broken
        assert table.rig.referee.match.turns == ()
    finally:
        table.stop()
    assert broken.read_text().endswith("[1, 2]\n")     # left as it was: nothing lost


def test_a_match_that_had_ended_is_closed_not_resumed(tmp_path):
    from sim.script import demo_match
    from sim.table import SimulatedTable
    first = SimulatedTable(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    first.play(demo_match().objects())
    assert first.rig.match_over
    ended = first.rig.recording_path
    first.crash()                                        # power cut after the match
    second = SimulatedTable(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    try:
        assert second.rig.recording_path != ended
        assert not any("Match resumed" in line for line in second.rig.log_lines)
    finally:
        second.stop()
    assert is_finished(ended)
    assert storage.replay_file(ended)["winner"] == "Caro"
