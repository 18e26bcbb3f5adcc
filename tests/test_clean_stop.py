"""A clean stop (issue 30): Ctrl-C in the terminal (SIGINT to the whole process group, the
display's process too) or systemd's SIGTERM says one "Stopped" line, no traceback from the
display's process nor "the rig keeps refereeing headless", and every phone watching is told
that the rig stopped and will be back (the page shows it instead of a frozen countdown).

``cleptomano run`` in its own process and session, its display in its own process on SDL's
dummy driver, a phone's push channel on a real WebSocket."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sim.broker import free_port

DEADLINE_S = 40.0


def watch(port):
    """A phone's push channel in Spanish, and its first snapshot, once the rig's first game
    serves (before, the server closes the channel with 1013: try again)."""
    end = time.monotonic() + DEADLINE_S
    while True:
        try:
            phone = connect("ws://127.0.0.1:%d/api/live?lang=es" % port, open_timeout=5)
        except OSError:
            phone = None
        if phone is not None:
            try:
                return phone, json.loads(phone.recv(timeout=DEADLINE_S))
            except ConnectionClosed:
                phone.close()
        if time.monotonic() > end:
            raise AssertionError("the rig's phones' server did not serve a game")
        time.sleep(0.2)


@pytest.mark.heavy      # a real rig process and its display's for seconds: `make test-heavy`
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_says_one_line_and_tells_the_phones(tmp_path, sig):
    port = free_port()
    config = tmp_path / "rig.toml"
    config.write_text('[display]\nfullscreen = false\nprocess = true\n[web]\n'
                      'bind = ["127.0.0.1"]\nport = %d\n' % port, "utf-8")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    process = subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "run", "--sim", "--config", str(config),
         "--recordings", str(tmp_path / "rec"), "--duration-s", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        phone, first = watch(port)
        with phone:
            assert first["type"] in ("state", "call")
            time.sleep(1.0)       # not a timing: the display's process well under way
            os.killpg(process.pid, sig)      # as the terminal's Ctrl-C, or systemd's stop
            told = None
            end = time.monotonic() + DEADLINE_S
            while told is None and time.monotonic() < end:
                message = json.loads(phone.recv(timeout=DEADLINE_S))
                if message["type"] == "stopped":
                    told = message["text"]
        assert told == "La consola se detuvo; volverá. Esta página se vuelve a conectar sola."
        out, _ = process.communicate(timeout=DEADLINE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    log = out.decode("utf-8", "replace")
    assert process.returncode == 0, log
    assert "Traceback" not in log and "KeyboardInterrupt" not in log, log
    assert "refereeing headless" not in log, log
    assert log.count("Stopped (Ctrl-C or SIGTERM)") == 1, log


@pytest.mark.heavy      # a real rig process and a real Chromium: `make test-heavy`
def test_the_phone_page_says_the_rig_stopped_instead_of_freezing(tmp_path):
    from sim import phone as browser
    why = browser.cannot_exist() or browser.missing()
    if why is not None:
        pytest.skip(str(why))
    port = free_port()
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nbind = ["127.0.0.1"]\nport = %d\n' % port, "utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "rig.cli", "run", "--sim", "--headless", "--config", str(config),
         "--recordings", str(tmp_path / "rec"), "--duration-s", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        phone, _ = watch(port)              # the rig serves its first game
        phone.close()
        with browser.Browser() as chromium:
            ana = chromium.phone("ana")
            ana.goto("http://127.0.0.1:%d/" % port)
            ana.wait("#link", text="live", timeout_s=DEADLINE_S)
            os.killpg(process.pid, signal.SIGINT)
            shown = ana.wait("#stopped", text="The rig stopped", timeout_s=DEADLINE_S)
            assert "it will be back" in shown
            assert ana.evaluate("() => document.getElementById('part').hidden") is True
        process.communicate(timeout=DEADLINE_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
