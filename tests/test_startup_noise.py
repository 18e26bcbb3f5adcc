"""Start-up noise (issue 13, finding 11): with the display enabled but no screen and no sound
card, ``cleptomano run`` prints the one line the README promises ("the rig keeps refereeing
headless"), one line for the missing sound, and nothing from the libraries under SDL
(libwayland's ``XDG_RUNTIME_DIR is invalid``, ALSA's eight ``ALSA lib`` lines)."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from rig.display import quiet

ROOT = Path(__file__).resolve().parent.parent
#: Every line ``cleptomano run --sim`` may print before and after the calls, without a screen.
START_UP = ("display: no screen could be opened (", "Simulator: ", "sound: no audio device (",
            "Playing the bundled demo match", "Result: ", "Recording: ",
            "Phones: open http://", "Phones: pairing code ")


def bare_environment():
    """The environment of a service or an SSH session: no desktop, no runtime directory, no
    SDL driver chosen."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER",
                        "SDL_AUDIODRIVER")}
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.mark.skipif(os.path.exists("/dev/dri"),
                    reason="a DRM device is present: the display could really open on it")
@pytest.mark.heavy      # a real process for seconds of real time: `make test-heavy`
def test_a_short_run_with_the_display_but_no_screen_prints_no_library_noise(tmp_path):
    code = "import sys; from rig.cli import main; sys.exit(main(sys.argv[1:]))"
    # The phones' server on a free port of its own: another program may hold 8080.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nbind = ["127.0.0.1"]\nport = %d\n' % port, "utf-8")
    run = subprocess.run([sys.executable, "-c", code, "run", "--sim", "--duration-s", "2",
                          "--config", str(config), "--recordings", str(tmp_path)],
                         env=bare_environment(),
                         capture_output=True, text=True, timeout=60, cwd=str(tmp_path))
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert not [line for line in lines if "XDG_RUNTIME_DIR" in line or "ALSA lib" in line]
    assert sum("the rig keeps refereeing headless" in line for line in lines) == 1
    calls = [line for line in lines if line.startswith("[")]
    others = [line for line in lines if not line.startswith("[")]
    # The rig's own last line ("Stopped; the recordings are closed in ...") is not noise.
    assert [line for line in others
            if not line.startswith(START_UP) and not line.startswith("Stopped")] == []
    # Each start-up line once; the pairing code may be told twice: when the first frame is
    # shown before the first match opens (a loaded machine), that match draws a new code.
    told = {prefix: sum(line.startswith(prefix) for line in others) for prefix in START_UP}
    assert told.pop("Phones: pairing code ") <= 2 and max(told.values()) <= 1, others
    assert any("New match" in line for line in calls)


def test_alsa_lines_are_kept_out_of_stderr_and_everything_else_comes_through(capfd):
    with quiet.alsa_chatter() as alsa:
        os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n")
        os.write(2, b"a real error from another thread\n")
        os.write(2, b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default\n")
    assert capfd.readouterr().err == "a real error from another thread\n"
    assert alsa == ["cannot find card '0'", "Unknown PCM default"]
    os.write(2, b"ALSA lib after the probe is not touched\n")
    assert capfd.readouterr().err == "ALSA lib after the probe is not touched\n"


def test_the_sound_warning_quotes_alsa_once_and_nothing_else_reaches_stderr():
    code = ("import logging, sys; logging.basicConfig(level=logging.INFO, stream=sys.stderr, "
            "format='%(message)s'); from rig.display.sounds import SoundBank; "
            "print(SoundBank().open())")
    env = dict(bare_environment(), SDL_AUDIODRIVER="alsa")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=60)
    lines = run.stderr.splitlines()
    if run.stdout.strip() == "True":
        pytest.skip("this machine has a sound card: ALSA has nothing to complain about")
    assert not [line for line in lines if line.startswith("ALSA lib")], lines
    assert len([line for line in lines if line.startswith("sound: no audio device")]) == 1


def test_a_private_runtime_directory_only_while_the_drivers_are_tried():
    env = {}
    with quiet.runtime_dir(env):
        private = env["XDG_RUNTIME_DIR"]
        assert os.path.isdir(private) and os.stat(private).st_mode & 0o777 == 0o700
    assert env == {} and not os.path.exists(private)
    env = {"XDG_RUNTIME_DIR": "relative"}            # what libwayland calls invalid
    with quiet.runtime_dir(env):
        assert env["XDG_RUNTIME_DIR"].startswith("/")
    assert env == {"XDG_RUNTIME_DIR": "relative"}
    for usable in ({"XDG_RUNTIME_DIR": "/run/user/1000"}, {"WAYLAND_DISPLAY": "/tmp/wl-0"}):
        env = dict(usable)
        with quiet.runtime_dir(env):
            assert env == usable                      # a desktop's own is left alone


def test_a_relic_hub_that_comes_up_is_no_news_but_one_that_comes_back_is(table):
    # Issue 13 #11: "Cleared: Relic hub back" was logged at every start, for a fault never
    # reported.
    t = table()
    t.relics.back("heartbeat")
    assert not t.said("Cleared")
    t.relics.lose("unplugged")
    t.advance(0.1)
    t.relics.back("heartbeat")
    t.advance(0.1)
    assert t.said("Fault: Relic hub lost") and t.said("Cleared: Relic hub back")
