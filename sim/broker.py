"""A Mosquitto of the tests' own: Debian's real broker on 127.0.0.1, on a free port, with the
shipped configuration (``systemd/mosquitto/``: no anonymous clients, the password file, the
ACL), started, restarted and stopped by the test.

Only what cannot be the same on a test machine is changed: the listeners' ports (free ones; the
TLS listener on 127.0.0.1 rather than every interface, and left out when the test gives no
certificates), where the password file and the retained messages live (the test's folder), the log
(a file there) and, run as root, the user the broker keeps (Debian's would drop to
``mosquitto``, who cannot read the test's folder).  The password file is made by the shipped
``make-users.sh`` for every user the shipped ACL names.
"""

import atexit
import functools
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[1] / "systemd" / "mosquitto"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0


def available():
    """Why no broker can be run here (None: it can)."""
    for tool in ("mosquitto", "mosquitto_passwd"):
        if shutil.which(tool) is None and not os.path.exists("/usr/sbin/" + tool):
            return "%s is not installed (apt-get install mosquitto; .ci/run does)" % tool
    return None


def _tool(name):
    return shutil.which(name) or "/usr/sbin/" + name


_PICK = random.SystemRandom()     # not the tests' seeded random: two suites side by side


def _ephemeral_low(path="/proc/sys/net/ipv4/ip_local_port_range"):
    """The lowest port the kernel gives outgoing connections (32768 when it cannot tell)."""
    try:
        return int(Path(path).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port(host="127.0.0.1"):
    """A TCP port free on ``host`` now, for a server the test starts a moment later (a broker,
    a rig in its own process).  Picked at random below the kernel's ephemeral range: a port
    the kernel picked (bind to port 0) may be taken by any outgoing connection of the machine
    before the server binds it, and a loaded machine running two suites side by side makes
    thousands (issue 27); at random, two suites side by side rarely pick the same one."""
    low = _ephemeral_low()
    if low > 12000:
        for _ in range(200):
            port = _PICK.randrange(10000, low)
            with socket.socket() as s:
                try:
                    s.bind((host, port))
                except OSError:
                    continue
                return port
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Users:
    """Every user an ACL names, with a password: ``passwd`` the broker's password file,
    ``passwords`` user -> password, ``files`` the folder of one ``NAME.password`` file each."""
    passwd: Path
    passwords: dict
    files: Path


def make_users(acl, directory, ca=None):
    """Run the shipped ``make-users.sh`` for ``acl`` into ``directory`` (``ca``: the CA
    certificate it hands out; None: none, and its warning that there is none is kept quiet)."""
    directory = Path(directory)
    done = subprocess.run(
        ["bash", str(SHIPPED / "make-users.sh"), str(acl), str(directory / "passwd"),
         str(directory / "passwords"), str(ca if ca is not None else directory / "no-ca.crt")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60,
        env=dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin"))
    if done.returncode != 0:
        raise RuntimeError("make-users.sh failed (%d): %s"
                           % (done.returncode, done.stderr.decode("utf-8", "replace").strip()))
    return Users(directory / "passwd",
                 {p.name[:-len(".password")]: p.read_text().strip()
                  for p in (directory / "passwords").glob("*.password")},
                 directory / "passwords")


@functools.cache
def shipped_users():
    """The shipped ACL's users, made once per process (mosquitto_passwd hashes slowly on
    purpose: twenty-one users take a second or two), removed when the process ends."""
    directory = tempfile.mkdtemp(prefix="cleptomano-users-")
    atexit.register(shutil.rmtree, directory, True)
    return make_users(SHIPPED / "cleptomano.acl", directory)


@dataclass(frozen=True)
class Certificates:
    """A test CA (``ca``, what a rig's ``ca_file`` names) and the broker's key and certificate
    it signed, for 127.0.0.1."""
    ca: Path
    cert: Path
    key: Path


def make_certificates(directory):
    """A fresh CA and a broker certificate for 127.0.0.1, in ``directory``: the shipped
    ``make-certs.sh`` (openssl), as the install step runs it."""
    d = Path(directory)
    subprocess.run(["bash", str(SHIPPED / "make-certs.sh"), str(d), "127.0.0.1"], check=True,
                   timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return Certificates(d / "ca.crt", d / "broker.crt", d / "broker.key")


class Broker:
    """One broker in ``directory`` with the shipped ACL (or ``acl``) and its ``users``
    (default: :func:`shipped_users`); ``passwords`` maps every ACL user to its password, and
    ``password_file(user)`` is the file a rig's config names.  ``tls``: :class:`Certificates`,
    the broker then has the shipped TLS listener too (on 127.0.0.1, port ``tls_port``) and
    ``url`` is ``mqtts://``; without it the shipped TLS listener is left out (it needs
    certificates) and only the shipped plain listener is there.  The plain listener keeps the
    shipped address, 127.0.0.1 (on ``port``): whatever else is on loopback (127.0.0.2) is
    refused, as another host is.  ``memory_limit``: the broker's whole memory, smaller than
    the shipped for a test that fills it (None: the shipped)."""

    def __init__(self, directory, port=None, acl=None, users=None, tls=None,
                 memory_limit=None):
        self.tls = tls
        self.memory_limit = memory_limit
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.tls_port = free_port() if tls is not None else None
        self.acl = Path(acl) if acl is not None else SHIPPED / "cleptomano.acl"
        self.proc = None
        self.starts = 0
        if users is None:
            users = shipped_users() if acl is None else make_users(self.acl, self.dir)
        self.users = users
        self.passwords = users.passwords
        self.conf = self.dir / "mosquitto.conf"
        self.conf.write_text(self._config(), encoding="utf-8")

    @property
    def url(self):
        if self.tls is not None:
            return "mqtts://127.0.0.1:%d" % self.tls_port
        return self.plain_url

    @property
    def plain_url(self):
        return "mqtt://127.0.0.1:%d" % self.port

    def password_file(self, user):
        return self.users.files / ("%s.password" % user)

    def _config(self):
        """The shipped configuration with this machine's paths and port."""
        lines = []
        tls = self.tls
        for line in (SHIPPED / "cleptomano.conf").read_text(encoding="utf-8").splitlines():
            words = line.split()
            word = words[0] if words else ""
            if word == "listener" and len(words) == 3:          # the plain one, loopback only
                line = "listener %d %s" % (self.port, words[2])
            elif word == "listener":                            # the TLS one, every interface
                if tls is None:
                    continue
                line = "listener %d 127.0.0.1" % self.tls_port
            elif word in ("cafile", "certfile", "keyfile", "tls_version"):
                if tls is None:
                    continue
                path = {"cafile": tls.ca, "certfile": tls.cert, "keyfile": tls.key}.get(word)
                if path is not None:
                    line = "%s %s" % (word, path)
            elif word == "password_file":
                line = "password_file %s" % self.users.passwd
            elif word == "acl_file":
                line = "acl_file %s" % self.acl
            elif word == "memory_limit" and self.memory_limit is not None:
                line = "memory_limit %d" % self.memory_limit
            lines.append(line)
        lines += ["persistence true", "persistence_location %s/" % self.dir,
                  "log_dest file %s" % (self.dir / "mosquitto.log"),
                  "log_type error", "log_type warning", "log_type notice",
                  "user %s" % pwd.getpwuid(os.getuid()).pw_name]
        return "\n".join(lines) + "\n"

    def start(self):
        """Start it; returns once it accepts connections (bounded)."""
        self.proc = subprocess.Popen([_tool("mosquitto"), "-c", str(self.conf)],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        self.starts += 1
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("mosquitto exited with status %d; see %s"
                                   % (self.proc.returncode, self.dir / "mosquitto.log"))
            try:
                for port in (self.port, self.tls_port):
                    if port is not None:
                        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError("mosquitto did not listen on port %d within %g s"
                           % (self.port, START_TIMEOUT_S))

    def stop(self):
        """Stop it as systemd does (SIGTERM: it saves the retained messages first)."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(STOP_TIMEOUT_S)

    def restart(self, down_s=0.0):
        self.stop()
        if down_s:
            time.sleep(down_s)
        return self.start()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
