"""A stand-in for systemd's notification socket: a bound AF_UNIX datagram socket that reads the
``sd_notify`` messages the rig sends, each as its fields.  Shared by tests/test_systemd.py and
tests/test_night.py (tests never import each other)."""

import socket

#: How long a read waits for a message before it fails (the tests never wait longer).
TIMEOUT_S = 2.0


class Listener:
    """A bound datagram socket playing systemd; recv() returns the fields of one message."""

    def __init__(self, address, timeout_s=TIMEOUT_S):
        self.timeout_s = timeout_s
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(timeout_s)

    def recv(self):
        return self.sock.recv(4096).decode("utf-8").split("\n")

    def pending(self):
        """Every message already waiting, without blocking."""
        messages = []
        self.sock.setblocking(False)
        try:
            while True:
                messages.append(self.sock.recv(4096).decode("utf-8").split("\n"))
        except BlockingIOError:
            return messages
        finally:
            self.sock.settimeout(self.timeout_s)
