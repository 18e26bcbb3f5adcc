"""The service loop as systemd sees it: READY once the rig runs, watchdog pings only while the
referee loop turns and the input threads live, STOPPING at the end."""

import os
import socket
import threading
import time

import pytest

from rig.cli import serve
from rig.shell.systemd import Notifier
from sim.table import real_time_table


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


def pings_within(sock, count, timeout_s):
    """Wait at most ``timeout_s`` of real time for ``count`` watchdog pings; the messages."""
    seen = []
    deadline = time.monotonic() + timeout_s
    while sum(m == "WATCHDOG=1" for m in seen) < count and time.monotonic() < deadline:
        seen += messages(sock)
    return seen


def silence_within(sock, quiet_s, timeout_s):
    """True once no ping has come for ``quiet_s`` (within ``timeout_s`` of real time)."""
    deadline = time.monotonic() + timeout_s
    last = time.monotonic()
    while time.monotonic() < deadline:
        if "WATCHDOG=1" in messages(sock):
            last = time.monotonic()
        elif time.monotonic() - last >= quiet_s:
            return True
    return False


# A watchdog of 1 s: a ping every 0.5 s while the referee loop has turned within 0.5 s (idle, it
# turns at least every 0.25 s).  The waits below are deadlines, not fixed sleeps, so a loaded
# machine makes the test slower, never wrong.
WATCHDOG_USEC = 1_000_000


def test_watchdog_pings_only_while_the_referee_loop_turns(tmp_path, notify_socket):
    sock, path = notify_socket
    notifier = Notifier(environ={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": str(WATCHDOG_USEC),
                                 "WATCHDOG_PID": str(os.getpid())})
    table = real_time_table(recordings_dir=tmp_path / "rec")
    table.start()
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(table.rig, stop, notifier), daemon=True)
    thread.start()
    hang = threading.Event()
    feed = table.rig.referee.feed
    try:
        healthy = pings_within(sock, 3, timeout_s=10.0)
        assert healthy[0].startswith("READY=1")
        assert sum(m == "WATCHDOG=1" for m in healthy) >= 3
        # The referee thread hangs in the middle of an input: the loop stops turning, and the
        # pings stop for longer than the watchdog's timeout (systemd restarts the hung rig).
        table.rig.referee.feed = lambda item: hang.wait(30.0) or feed(item)
        table.museum.set("laser.1", 1)
        assert silence_within(sock, quiet_s=1.5 * WATCHDOG_USEC / 1e6, timeout_s=10.0)
        hang.set()
        table.rig.referee.feed = feed
        assert "WATCHDOG=1" in pings_within(sock, 1, timeout_s=10.0)  # it pings again
    finally:
        hang.set()
        stop.set()
        thread.join(5.0)
        table.stop()
    assert messages(sock)[-1] == "STOPPING=1"
