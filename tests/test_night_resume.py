"""The game night resumes the game that was running: ``cleptomano run`` without ``--game`` (as
systemd starts it again after a crash) takes up a companion game a crash cut off when its
recording is the newest; an explicit ``--game`` still wins.  Through :mod:`rig.cli`, headless,
in real time (a second or two a run)."""

import logging
import signal

import pytest

from rig import cli
from rig.shell import storage
from rig.shell.session import night_game
from sim.gamecrash import play


@pytest.fixture
def run(tmp_path, caplog):
    config = tmp_path / "rig.toml"
    config.write_text('[match]\nplayers = ["Ana", "Ben"]\n[web]\nenabled = false\n', "utf-8")
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    caplog.set_level(logging.INFO, logger="cleptomano")

    def go(rec, *more):
        return cli.main(["run", "--sim", "--headless", "--config", str(config),
                         "--recordings", str(rec), "--duration-s", "1.5"] + list(more))
    yield go
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def test_the_night_starts_with_the_game_a_crash_cut_off(run, tmp_path, caplog):
    rec = tmp_path / "rec"
    cut = play(rec, "stolen-paintings", upto=4, clean=False)
    before = storage.replay_file(cut.recording_path)
    assert run(rec) == 0
    assert "Stolen Paintings in %s was cut off; it is resumed" % cut.recording_path \
        in caplog.text
    assert "Game resumed from %s." % cut.recording_path in caplog.text
    assert sorted(p.name for p in rec.iterdir()) == sorted(
        [cut.recording_path.name, "rig.lock", "table.json"])   # no new game
    assert not storage.open_marker(cut.recording_path).exists()    # stopped cleanly this time
    assert storage.replay_file(cut.recording_path) == before        # nothing lost


def test_an_explicit_game_wins_over_the_game_cut_off(run, tmp_path, caplog):
    rec = tmp_path / "rec"
    cut = play(rec, "canine", upto=6, clean=False)
    assert run(rec, "--game", "cleptomano") == 0
    assert "was cut off" not in caplog.text
    assert list(rec.glob("match-*.jsonl"))
    assert storage.open_marker(cut.recording_path).exists()        # still there to resume


def test_the_night_resumes_a_companion_game_only_when_its_recording_is_the_newest(tmp_path):
    cut = play(tmp_path, "chest-heist", upto=5, clean=False)
    found = night_game(tmp_path)
    assert found.path == cut.recording_path and found.game.name == "chest-heist"
    newer = tmp_path / "match-29990101-000000.jsonl"      # Cleptómano played after it
    newer.write_text('{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"], '
                     '"difficulty": "normal"}\n', "utf-8")
    assert night_game(tmp_path) is None
    newer.unlink()
    play(tmp_path, "stop-thief", upto=3)                  # another game, ended cleanly
    assert night_game(tmp_path) is None
