"""A Mosquitto of the tests' own: Debian's real broker on 127.0.0.1, on a free port, with the
shipped configuration (``systemd/mosquitto/``: no anonymous clients, the password file, the
ACL), started, restarted and stopped by the test.

Only what cannot be the same on a test machine is changed: the listener (127.0.0.1 and a free
port), where the password file and the retained messages live (the test's folder), the log
(a file there) and, run as root, the user the broker keeps (Debian's would drop to
``mosquitto``, who cannot read the test's folder).  The password file is made by the shipped
``make-users.sh`` for every user the shipped ACL names.
"""

import atexit
import functools
import os
import pwd
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Users:
    """Every user an ACL names, with a password: ``passwd`` the broker's password file,
    ``passwords`` user -> password, ``files`` the folder of one ``NAME.password`` file each."""
    passwd: Path
    passwords: dict
    files: Path


def make_users(acl, directory):
    """Run the shipped ``make-users.sh`` for ``acl`` into ``directory``."""
    directory = Path(directory)
    subprocess.run(["bash", str(SHIPPED / "make-users.sh"), str(acl), str(directory / "passwd"),
                    str(directory / "passwords")],
                   check=True, stdout=subprocess.DEVNULL, timeout=60,
                   env=dict(os.environ, PATH=os.environ.get("PATH", "") + ":/usr/sbin"))
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
    """A fresh CA and a broker certificate for 127.0.0.1 (openssl), in ``directory``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)

    def openssl(*args):
        subprocess.run(["openssl"] + list(args), check=True, timeout=60,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
            "/CN=cleptomano test CA", "-keyout", str(d / "ca.key"), "-out", str(d / "ca.crt"))
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", str(d / "broker.key"), "-out", str(d / "broker.csr"))
    (d / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n", encoding="ascii")
    openssl("x509", "-req", "-in", str(d / "broker.csr"), "-CA", str(d / "ca.crt"),
            "-CAkey", str(d / "ca.key"), "-CAcreateserial", "-days", "2",
            "-extfile", str(d / "san.ext"), "-out", str(d / "broker.crt"))
    return Certificates(d / "ca.crt", d / "broker.crt", d / "broker.key")


class Broker:
    """One broker in ``directory`` with the shipped ACL (or ``acl``) and its ``users``
    (default: :func:`shipped_users`); ``passwords`` maps every ACL user to its password, and
    ``password_file(user)`` is the file a rig's config names.  ``tls``: :class:`Certificates`,
    the broker then speaks MQTT over TLS only (``mqtts://``), as the shipped configuration's
    commented TLS listener does."""

    def __init__(self, directory, port=None, acl=None, users=None, tls=None):
        self.tls = tls
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
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
        return "%s://127.0.0.1:%d" % ("mqtts" if self.tls else "mqtt", self.port)

    def password_file(self, user):
        return self.users.files / ("%s.password" % user)

    def _config(self):
        """The shipped configuration with this machine's paths and port."""
        lines = []
        for line in (SHIPPED / "cleptomano.conf").read_text(encoding="utf-8").splitlines():
            word = line.split(" ", 1)[0]
            if word == "listener":
                line = "listener %d 127.0.0.1" % self.port
                if self.tls is not None:
                    line += "\ncafile %s\ncertfile %s\nkeyfile %s" % (
                        self.tls.ca, self.tls.cert, self.tls.key)
            elif word == "password_file":
                line = "password_file %s" % self.users.passwd
            elif word == "acl_file":
                line = "acl_file %s" % self.acl
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
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
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
