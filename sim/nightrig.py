"""``cleptomano run`` in its own process for the real-browser tests of a game night
(tests/test_night_browser.py, tests/test_game_night_browser.py): simulated and headless, its
phones' server on 127.0.0.1, its log read for the pairing code as a player without a screen
would read it."""

import re
import signal
import subprocess
import sys
import time

from .broker import free_port

DEADLINE_S = 30.0


#: The loopback addresses the night's rig listens on (see :meth:`Rig.url_for`).
ADDRESSES = tuple("127.0.0.%d" % n for n in range(1, 6))


class Rig:
    """``cleptomano run --sim --headless`` in its own process, its config and log in
    ``tmp_path``, its recordings in ``tmp_path / "rec"``; ``port`` (default: a free one) to
    start it again where the phones know it."""

    def __init__(self, tmp_path, *args, port=None):
        self.port = port if port is not None else free_port()
        config = tmp_path / "rig.toml"
        # Each phone of a test opens the rig at an address of its own (127.0.0.N, every one of
        # them this machine's).  The rig still sees every one of them come from 127.0.0.1 (the
        # kernel's source for any loopback address): one device to its gate, as several phones
        # behind one address would be, which the gate must serve (tests/test_web_gate.py).
        config.write_text('[match]\nplayers = ["Ana", "Ben"]\n[web]\nbind = [%s]\n'
                          'port = %d\n' % (", ".join('"%s"' % a for a in ADDRESSES), self.port),
                          "utf-8")
        self.recordings = tmp_path / "rec"
        self.log = tmp_path / "rig.log"
        self._out = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rig.cli", "run", "--sim", "--headless", "--config",
             str(config), "--recordings", str(self.recordings), "--duration-s", "120", *args],
            stdout=self._out, stderr=subprocess.STDOUT)
        self.url = "http://127.0.0.1:%d/" % self.port

    def url_for(self, n):
        """The rig's address as the ``n``-th phone (1-5) reaches it: 127.0.0.n."""
        return "http://%s:%d/" % (ADDRESSES[n - 1], self.port)

    def code(self):
        """The newest pairing code the rig logged."""
        end = time.monotonic() + DEADLINE_S
        while time.monotonic() < end:
            found = re.findall(r"pairing code (\d{3}) (\d{3})", self.log.read_text("utf-8"))
            if found:
                return "".join(found[-1])
            assert self.process.poll() is None, self.log.read_text("utf-8")
            time.sleep(0.1)
        raise AssertionError("no pairing code logged within %g s" % DEADLINE_S)

    def stop(self):
        """Ctrl-C: the night ends, within the deadline; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(DEADLINE_S)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(5)
            self._out.close()


def choose(phone, game, players=None, end=False):
    """Choose the night's next game on a phone's "Play another game" form, by its shown name."""
    phone.select("#night-game", game)
    if players is not None:
        phone.fill("#night-players", players)
    if end:
        phone.click("#night-end")
    phone.click("#night-go")
