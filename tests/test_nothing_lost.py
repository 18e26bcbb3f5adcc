"""Nothing lost, nothing clobbered (issue 28), as a builder meets it through `cleptomano run`:
resume reads a recording before it touches it and never changes one it will not take up; one
rig a recordings folder (a second is refused with one line naming the first one's PID, and
never removes its open marker); a real rig's log holds no pairing code."""

import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rig import cli
from rig.shell import storage
from sim.broker import free_port

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 60.0


@pytest.fixture
def no_phones(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[web]\nenabled = false\n", "utf-8")
    return str(path)


def run_game(recordings, config, game="chest-heist", players="Ana"):
    return cli.main(["run", "--sim", "--headless", "--game", game, "--players", players,
                     "--recordings", str(recordings), "--duration-s", "0.3", "--config", config])


def a_recording(tmp_path, game, config):
    """A recording of ``game`` cut off by a crash (its open marker left), as the rig wrote it."""
    where = tmp_path / ("made-" + game)
    assert run_game(where, config, game, "Ana" if game == "chest-heist" else "Ana,Ben") == 0
    (path,) = where.glob("%s-*.jsonl" % game)
    return path


# --- Resume: the header first, and a refused file is left byte for byte --------------------------

def test_a_file_whose_header_names_another_game_is_never_cut(tmp_path, no_phones, caplog):
    """The reproducer: a chest heist recording's name, another game's header and a long last
    line without its end; the rig cut the "torn last line" (50 MB to 93 bytes) and then
    refused the file anyway.  Now it reads the header first and leaves the file as it is."""
    header = a_recording(tmp_path, "canine", no_phones).read_bytes().split(b"\n")[0] + b"\n"
    recordings = tmp_path / "rec"
    recordings.mkdir()
    odd = recordings / "chest-heist-20260101-120000.jsonl"
    content = header + b"x" * (3 * 2 ** 20)          # megabytes without a newline
    odd.write_bytes(content)
    storage.mark_open(odd)
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert run_game(recordings, no_phones) == 0
    assert odd.read_bytes() == content                 # not one byte changed
    assert re.search(r"cannot resume %s: its header names Canine Kleptomaniacs, not .+; it is "
                     r"left as it is" % re.escape(str(odd)), caplog.text), caplog.text
    assert "cut" not in caplog.text
    assert len(list(recordings.glob("chest-heist-*.jsonl"))) == 2    # a new game began


@pytest.mark.parametrize("tail", [b'{"t": 9.0, "x": [' + b"1," * 40000, b"\xff\xfe torn"])
def test_a_recording_it_refuses_keeps_its_torn_tail(tmp_path, no_phones, caplog, tail):
    """A recording of the right game that cannot be taken up (a bad line in it) is refused
    before anything is cut: its last line, torn or not, stays."""
    path = a_recording(tmp_path, "chest-heist", no_phones)
    recordings = path.parent
    lines = path.read_bytes().split(b"\n")
    content = lines[0] + b"\n" + b'{"t": 1.0, "no such command": 1}\n' + tail
    path.write_bytes(content)
    storage.mark_open(path)
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert run_game(recordings, no_phones) == 0
    assert path.read_bytes() == content
    assert "it is left as it is" in caplog.text and "cut its torn" not in caplog.text


@pytest.mark.parametrize("content", [
    b'{"cleptomano": "some other thing"}\n' + b"y" * 100000,
    (ROOT / "tests" / "recordings" / "three_player_match.jsonl").read_bytes()[:-200]
    + b'\n{"t": 99.0, "no such": 1}\n{"t": 1',
])
def test_a_match_file_it_cannot_read_is_left_as_it_is(tmp_path, caplog, content):
    """Cleptómano's own resume (as the rig starts on the real pins): a match-*.jsonl that
    does not replay keeps every byte, its torn last line too."""
    from rig.games.cleptomano.rules import levels
    from rig.shell.session import RecordingSession
    odd = tmp_path / "match-20260101-120000.jsonl"
    odd.write_bytes(content)
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert RecordingSession(tmp_path).resume(["Ana", "Ben", "Caro"],
                                                 levels.PRESETS["normal"]) is None
    assert odd.read_bytes() == content
    assert "cannot resume %s" % odd in caplog.text and "left as it is" in caplog.text


def test_another_match_with_a_torn_tail_is_not_cut_to_close_it(tmp_path, caplog):
    from rig.games.cleptomano.rules import levels
    from rig.shell.session import RecordingSession
    other = tmp_path / "match-20260101-120000.jsonl"
    content = (ROOT / "tests" / "recordings" / "three_player_match.jsonl").read_bytes()
    content = content[:content.rindex(b'{"t"', 0, len(content) - 2)] + b'{"t": 1'
    other.write_bytes(content)
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert RecordingSession(tmp_path).resume(["Dana", "Eli"],
                                                 levels.PRESETS["hard"]) is None
    assert other.read_bytes() == content
    assert "is another match (players or level differ); its last line has no end, so it is " \
           "left as it is" in caplog.text


def test_a_recording_it_takes_up_has_exactly_its_torn_tail_cut_and_says_so(tmp_path, no_phones,
                                                                           caplog):
    path = a_recording(tmp_path, "chest-heist", no_phones)
    whole = path.read_bytes()
    storage.mark_open(path)
    path.write_bytes(whole + b'{"t": 8.0, "ma')                 # the power went mid-line
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert run_game(path.parent, no_phones) == 0
    assert path.read_bytes().startswith(whole)
    said = "cut its torn last line: 14 bytes without their end, written as the rig stopped " \
           "(the file was %d bytes, now %d)" % (len(whole) + 14, len(whole))
    assert said in caplog.text, caplog.text


# --- One rig a recordings folder -----------------------------------------------------------------

def start_rig(recordings, config, log):
    return subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "run", "--sim", "--headless", "--game", "chest-heist",
         "--players", "Ana", "--recordings", str(recordings), "--duration-s", "120",
         "--config", config], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


@pytest.mark.heavy
def test_a_second_rig_on_the_same_folder_is_refused_and_clobbers_nothing(tmp_path, no_phones):
    recordings = tmp_path / "rec"
    with open(tmp_path / "first.log", "wb") as log:
        first = start_rig(recordings, no_phones, log)
    try:
        deadline = time.monotonic() + DEADLINE_S
        while not list(recordings.glob("chest-heist-*.jsonl.open")):
            assert first.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "first.log").read_text()
            time.sleep(0.1)
        (marker,) = recordings.glob("*.open")
        (path,) = recordings.glob("chest-heist-*.jsonl")
        before = path.read_bytes()
        table = recordings / "table.json"           # the table's choices, the first rig's
        table_before = table.read_bytes() if table.exists() else None
        second = subprocess.run(
            [sys.executable, "-m", "rig.cli", "run", "--sim", "--headless", "--recordings",
             str(recordings), "--duration-s", "1", "--config", no_phones],
            cwd=ROOT, capture_output=True, text=True, timeout=DEADLINE_S)
        assert second.returncode == 2, second.stderr
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in second.stderr, second.stderr
        assert "another rig, PID %d, already uses the recordings folder %s" % (
            first.pid, recordings) in lines[0]
        assert marker.exists() and path.read_bytes() == before     # the game runs on, untouched
        assert sorted(p.name for p in recordings.iterdir()) == sorted(
            [path.name, marker.name, "rig.lock"] + ([table.name] if table_before else []))
        assert (table.read_bytes() if table.exists() else None) == table_before
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=DEADLINE_S) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)
    assert not marker.exists()                                      # its own clean stop
    # The folder is free again once the first rig has gone (a crash frees it just the same).
    assert run_game(recordings, no_phones) == 0


def test_a_rig_killed_with_sigkill_leaves_no_stale_lock(tmp_path):
    recordings = tmp_path / "rec"
    child = subprocess.Popen([sys.executable, "-c", (
        "import sys, time; from rig.shell.storage import FolderLock; "
        "FolderLock(sys.argv[1]).acquire(); print('held', flush=True); time.sleep(60)"),
        str(recordings)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        with pytest.raises(Exception, match="PID %d" % child.pid):
            storage.FolderLock(recordings).acquire()
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=DEADLINE_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=10)
        child.stdout.close()
    lock = storage.FolderLock(recordings).acquire()
    assert (recordings / "rig.lock").read_text() == "%d\n" % os.getpid()
    lock.release()
    assert (recordings / "rig.lock").read_text() == ""


# --- A real rig's log holds no pairing code --------------------------------------------------------

@pytest.mark.parametrize("backend, logged", [("--real", False), ("--sim", True)])
def test_a_headless_companion_game_logs_the_pairing_code_only_in_the_simulator(
        backend, logged, tmp_path, caplog, monkeypatch):
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nbind = ["127.0.0.1"]\nport = %d\n' % free_port(), "utf-8")
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert cli.main(["run", "--game", "chest-heist", backend, "--headless", "--players",
                         "Ana", "--duration-s", "1.5", "--recordings", str(tmp_path / "rec"),
                         "--config", str(config)]) == 0
    assert "Phones: open http://127.0.0.1:" in caplog.text        # the phones were served
    assert ("pairing code" in caplog.text.replace("the pairing code is on the rig's screen",
                                                  "")) == logged, caplog.text
