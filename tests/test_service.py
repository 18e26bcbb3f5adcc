"""The service loop as systemd sees it: READY once the rig runs, watchdog pings only while the
referee loop turns and the input threads live, STOPPING at the end."""

import os
import socket
import threading

import pytest

from rig.cli import serve
from rig.shell.systemd import Notifier
from sim.table import real_time_table

# Real time is measured here (the watchdog's pings):
# `make test` runs these alone, after its parallel pass.
pytestmark = pytest.mark.serial


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.05)
    yield sock, path
    sock.close()


def messages(sock):
    out = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except socket.timeout:
            return out


def test_watchdog_pings_only_while_the_referee_loop_turns(tmp_path, notify_socket):
    sock, path = notify_socket
    notifier = Notifier(environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "200000",
                                 "WATCHDOG_PID": str(os.getpid())})
    table = real_time_table(recordings_dir=tmp_path / "rec")
    table.start()
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(table.rig, stop, notifier), daemon=True)
    thread.start()
    try:
        stop.wait(0.6)
        healthy = messages(sock)
        assert healthy[0].startswith("READY=1")
        assert sum(m == "WATCHDOG=1" for m in healthy) >= 3
        # The referee thread hangs in the middle of an input: the loop stops turning.
        hang = threading.Event()
        feed = table.rig.referee.feed
        table.rig.referee.feed = lambda item: hang.wait(5.0) or feed(item)
        table.museum.set("laser.1", 1)
        stop.wait(0.3)          # pings already on their way may still arrive
        messages(sock)
        stop.wait(0.6)
        assert "WATCHDOG=1" not in messages(sock)   # systemd will restart the hung rig
        hang.set()
        table.rig.referee.feed = feed
        stop.wait(0.6)
        assert "WATCHDOG=1" in messages(sock)       # and it pings again once it turns
    finally:
        stop.set()
        thread.join(5.0)
        table.stop()
    assert messages(sock)[-1] == "STOPPING=1"
