"""Nothing lost: the daemon killed (SIGKILL) at random points resumes its match from the
recording, voids the interrupted turn, and ends with the result of an uninterrupted run."""

import json
import os
import random
import signal
import subprocess
import sys

import pytest

from rig.shell import storage
from rig.shell.storage import is_finished
from sim.crashplay import match_spec

PLAYERS = ["Ana", "Ben", "Caro"]


def run_child(directory, spec_path, kill_after=None, kill_at_sync=None):
    env = dict(os.environ)
    if kill_at_sync is not None:
        env["CLEPTOMANO_KILL_AT_SYNC"] = str(kill_at_sync)
    proc = subprocess.Popen([sys.executable, "-m", "sim.crashplay", str(directory),
                             str(spec_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
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


# A whole match in a child process, and again killed and resumed: `make test-heavy` (and .ci/run).
@pytest.mark.heavy
def test_an_uninterrupted_run_finishes_the_match(uninterrupted):
    assert uninterrupted["winner"] is not None
    assert len(uninterrupted["turns"]) == 9


# Slow (a whole match per kill, in real time): `make soak` runs them, with the kill sweep after
# every fsync; `make test` keeps the SIGKILL right after an fsync below.
@pytest.mark.slow
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
    if code != 0:          # the last child was killed: one more run finishes the match
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


def test_a_crash_after_the_deciding_turn_resumes_the_match_so_the_haul_can_be_corrected(tmp_path):
    # Issue 12 #6: the deciding turn's haul may still be corrected until the next start, and a
    # correction can change the winner; a crash in between must not take that away.
    from rig.games.cleptomano.rules import events as ev
    from sim.script import demo_match
    from sim.harness import Harness
    first = Harness(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    first.play(demo_match().objects())
    assert first.rig.match_over and first.result()["winner"] == "Caro"
    decided = first.rig.recording_path
    first.crash()                                        # power cut after the match
    second = Harness(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    try:
        assert second.rig.recording_path == decided
        assert second.said("Match resumed")
        second.advance(1.0).submit(ev.ConfirmLoot(0.0, 0, 0, by="guard"))
        assert second.result()["winner"] is None        # Caro's last haul was empty after all
        assert not second.rig.match_over
    finally:
        second.stop()
    assert is_finished(decided)
    assert storage.replay_file(decided)["winner"] is None


def test_resume_chooses_the_unfinished_match_by_content_not_by_modification_time(tmp_path):
    # Issue 12 #5: with the clock set back, a finished match's file can be the newer one.
    import os
    from sim.harness import Harness
    first = Harness(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    first.start_turn().advance_to(3.0).touch("laser.4").advance_to(4.0).hand_out().press()
    unfinished = first.rig.recording_path
    first.crash()
    finished = tmp_path / "match-20200101-000000.jsonl"
    finished.write_text('{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben", '
                        '"Caro"], "difficulty": "normal"}\n{"t": 1.0, "end": true}\n')
    os.utime(unfinished, (1_000_000, 1_000_000))       # older, by the clock
    second = Harness(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    try:
        assert second.rig.recording_path == unfinished
        assert len(second.match.turns) == 1
    finally:
        second.stop()


def test_a_kill_right_after_any_fsync_of_a_whole_match_loses_no_completed_turn(tmp_path):
    """Every fsync of a whole match, each as the moment of a power cut: the recording as it
    stood then (copied from the sync hook) resumes with every turn that had ended before it."""
    from rig.games.cleptomano.rules import engine as rules
    from rig.games.cleptomano.rules.replay import turn_json
    from sim.harness import Harness
    from sim.script import demo_match
    snapshots = []
    holder = {}

    def at_sync(path):
        match = holder["table"].rig.referee.match
        ended = [turn_json(x) for x in match.turns if x.outcome is not rules.TurnOutcome.VOID]
        snapshots.append((path.read_bytes(), ended))

    table = holder["table"] = Harness(recordings_dir=tmp_path / "live", players=PLAYERS,
                                      sync_hook=at_sync)
    table.start()
    table.play(demo_match().objects())
    table.stop()
    assert len(snapshots) == 19       # the header, every turn start and end, every penalty
    for n, (data, ended) in enumerate(snapshots):
        rec = tmp_path / ("cut-%d" % n)
        rec.mkdir()
        (rec / "match-20260101-000000.jsonl").write_bytes(data)
        resumed = Harness(recordings_dir=rec, players=PLAYERS, resume=True).start()
        try:
            turns = [turn_json(x) for x in resumed.match.turns
                     if x.outcome is not rules.TurnOutcome.VOID]
        finally:
            resumed.stop()
        assert turns[:len(ended)] == ended, "fsync %d lost a completed turn" % (n + 1)


@pytest.mark.heavy
@pytest.mark.parametrize("sync", [7])
def test_killed_by_sigkill_right_after_an_fsync_the_match_resumes_and_ends_the_same(
        tmp_path, sync, uninterrupted):
    spec_path = tmp_path / "match.json"
    spec_path.write_text(json.dumps(match_spec()))
    rec = tmp_path / "rec"
    code, _ = run_child(rec, spec_path, kill_at_sync=sync)
    assert code == -signal.SIGKILL
    code, _ = run_child(rec, spec_path)
    assert code == 0
    assert storage.replay_file(only_recording(rec)) == uninterrupted


def test_a_named_pipe_among_the_recordings_never_blocks_the_start(tmp_path):
    import os
    from sim.harness import Harness
    os.mkfifo(tmp_path / "match-20260101-000000.jsonl")
    table = Harness(recordings_dir=tmp_path, players=PLAYERS, resume=True).start()
    try:
        assert table.rig.recording_path.name != "match-20260101-000000.jsonl"
    finally:
        table.stop()
