"""Nothing lost, nothing doubled in any game: each companion game's scripted game is killed with
SIGKILL right after every fsync of its recording in turn (a power cut there), resumed by the
next start and played to the end; its recording replays (``cleptomano replay``) to exactly the
result of the game never interrupted.  One child process a game, forking each kill
(:func:`sim.gamecrash.sweep`): about 11 s for the four games on an idle machine."""

import json
import subprocess
import sys

import pytest

from sim.gamecrash import GAMES


@pytest.mark.heavy
@pytest.mark.parametrize("name", GAMES)
def test_killed_after_every_fsync_the_game_resumes_and_ends_as_if_never_interrupted(
        name, tmp_path):
    done = subprocess.run([sys.executable, "-m", "sim.gamecrash", "--sweep", str(tmp_path),
                           name], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["ok"] and not summary["lost"]
    assert summary["kills"] == summary["fsyncs"] >= 10     # the header and every command
