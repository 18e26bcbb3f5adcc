"""Talk to systemd: readiness, status and the watchdog, with the standard library only.

The rig runs as a ``Type=notify`` service with ``WatchdogSec=``. systemd hands the daemon a
datagram socket in ``NOTIFY_SOCKET``; one short text message per call says "ready", "here is my
status" or "still alive". We speak that protocol directly (it is a single ``sendto``) rather than
depend on python-systemd, which would need a compiler on the Pi.

Two rules shape this module:

* Outside systemd (a laptop, the tests, ``cleptomano run`` in a terminal) there is no
  ``NOTIFY_SOCKET`` and every call is a silent no-op, so the daemon never asks "am I a service?".
* Telling systemd is never worth crashing the referee: a failed send is logged once and the
  game goes on. (If the watchdog pings stop getting through, systemd restarts us anyway, which is
  the right outcome.)

:class:`Watchdog` turns named liveness checks ("referee loop alive", "input threads alive") into
``WATCHDOG=1`` pings: it pings only while every check passes, so a hung loop or a dead input
thread gets the service restarted instead of leaving a frozen rig at a game night.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping

from ..table.threads import stop_and_join

log = logging.getLogger(__name__)

__all__ = ["Notifier", "Watchdog", "watchdog_interval_s"]


def watchdog_interval_s(environ: Mapping[str, str] | None = None,
                        pid: int | None = None) -> float | None:
    """The watchdog timeout systemd set for this process, in seconds, or None.

    Reads ``WATCHDOG_USEC`` (and ``WATCHDOG_PID``, which, when present, must name this process:
    a child that inherited the variables is not the one being watched). Returns the full
    timeout; ping at half of it (:class:`Watchdog` does). A missing, malformed or non-positive
    value means "no watchdog" and returns None.
    """
    env = os.environ if environ is None else environ
    raw_usec = env.get("WATCHDOG_USEC")
    if raw_usec is None:
        return None
    raw_pid = env.get("WATCHDOG_PID")
    if raw_pid is not None:
        try:
            watched_pid = int(raw_pid)
        except ValueError:
            log.warning("WATCHDOG_PID=%r is not a process id; ignoring the watchdog", raw_pid)
            return None
        if watched_pid != (os.getpid() if pid is None else pid):
            return None
    try:
        usec = int(raw_usec)
    except ValueError:
        log.warning("WATCHDOG_USEC=%r is not a whole number of microseconds; "
                    "ignoring the watchdog", raw_usec)
        return None
    if usec <= 0:
        return None
    return usec / 1_000_000


def _socket_address(raw: str) -> str | None:
    """The address to ``sendto`` for a NOTIFY_SOCKET value; None when unsupported.

    ``@name`` is a Linux abstract-namespace socket (leading NUL byte); ``/path`` a socket file.
    """
    if len(raw) > 1 and raw[0] == "@":
        return "\0" + raw[1:]
    if len(raw) > 1 and raw[0] == "/":
        return raw
    return None


class Notifier:
    """Sends sd_notify messages to systemd; a no-op when not run by systemd.

    ``address`` overrides ``NOTIFY_SOCKET`` (tests pass a socket in tmp_path); ``environ``
    replaces ``os.environ`` for both the socket and the watchdog variables. With
    ``unset_environment=True`` the variables are removed from ``os.environ`` so child processes
    (the display, say) do not inherit them.

    Safe to call from several threads. Never raises on a failed send.
    """

    def __init__(self, address: str | None = None, *,
                 environ: Mapping[str, str] | None = None,
                 unset_environment: bool = False) -> None:
        self._environ = dict(os.environ if environ is None else environ)
        raw = address if address is not None else self._environ.get("NOTIFY_SOCKET")
        self._lock = threading.Lock()
        self._warned = False
        self._socket: socket.socket | None = None
        self._address: str | None = None
        if raw:
            self._address = _socket_address(raw)
            if self._address is None:
                log.warning("NOTIFY_SOCKET=%r is neither an abstract name (@...) nor a socket "
                            "path (/...); systemd will not hear from the rig", raw)
            else:
                try:
                    self._socket = socket.socket(socket.AF_UNIX,
                                                 socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                except OSError as exc:
                    log.warning("cannot open a socket to tell systemd (%s); "
                                "notifications are off", exc)
                    self._address = None
        if unset_environment:
            for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
                os.environ.pop(name, None)

    @property
    def enabled(self) -> bool:
        """True when messages go to systemd (NOTIFY_SOCKET was set and usable)."""
        return self._socket is not None

    def notify(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields as one message; True if systemd's socket took it."""
        if self._socket is None or self._address is None:
            return False
        message = "\n".join(fields).encode("utf-8", "replace")
        with self._lock:
            try:
                self._socket.sendto(message, self._address)
            except OSError as exc:
                if not self._warned:
                    self._warned = True
                    log.warning("cannot reach systemd at NOTIFY_SOCKET (%s); the rig keeps "
                                "running, but systemd may restart it for missing pings", exc)
                return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup is done: systemd marks the service active (and may start its watchers)."""
        fields = ["READY=1"]
        if status is not None:
            fields.append("STATUS=" + _one_line(status))
        return self.notify(*fields)

    def status(self, text: str) -> bool:
        """A one-line status shown by ``systemctl status cleptomano``."""
        return self.notify("STATUS=" + _one_line(text))

    def watchdog_ping(self) -> bool:
        """Tell systemd the service is alive (resets the WatchdogSec= timer)."""
        return self.notify("WATCHDOG=1")

    def stopping(self) -> bool:
        """The service is shutting down on purpose; systemd will not count it as a crash."""
        return self.notify("STOPPING=1")

    def reloading(self) -> bool:
        """The service is re-reading its configuration; call :meth:`ready` when done.

        Carries MONOTONIC_USEC, which newer systemd (``Type=notify-reload``) requires; the
        protocol wants the kernel's CLOCK_MONOTONIC itself, not the rig's (injectable) clock.
        """
        usec = time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000
        return self.notify("RELOADING=1", "MONOTONIC_USEC=%d" % usec)

    def watchdog_interval_s(self) -> float | None:
        """The WatchdogSec= timeout in seconds, or None; see :func:`watchdog_interval_s`."""
        return watchdog_interval_s(self._environ)

    def close(self) -> None:
        """Close the socket; later calls become no-ops."""
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None

    def __enter__(self) -> "Notifier":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _one_line(text: str) -> str:
    # A newline would start a new KEY=value field in the message.
    return " ".join(str(text).splitlines())


class Watchdog:
    """Pings ``WATCHDOG=1`` at half the watchdog interval while every registered check passes.

    Register checks with :meth:`add_check` (a name and a callable returning bool; a check that
    raises counts as failing). :meth:`start` runs the pings on an owned thread; :meth:`stop`
    ends it with a bounded join. :meth:`tick` does one round by hand (tests drive it directly).

    ``interval_s`` defaults to the notifier's :meth:`Notifier.watchdog_interval_s`; when there
    is no watchdog, :meth:`start` does nothing. ``wait(timeout_s) -> bool`` replaces the pause
    between rounds; it returns True to stop (the default waits on the stop event), so tests can
    run the thread without sleeping. With no checks registered every round pings.
    """

    def __init__(self, notifier: Notifier, interval_s: float | None = None, *,
                 wait: Callable[[float], bool] | None = None,
                 name: str = "cleptomano-watchdog") -> None:
        self._notifier = notifier
        self._interval_s = notifier.watchdog_interval_s() if interval_s is None else interval_s
        if self._interval_s is not None and not self._interval_s > 0:
            raise ValueError("Watchdog interval_s=%r: must be a positive number of seconds "
                             "(or None to read WATCHDOG_USEC)" % (self._interval_s,))
        self._stop = threading.Event()
        self._wait = wait if wait is not None else self._stop.wait
        self._name = name
        self._checks: dict[str, Callable[[], bool]] = {}
        self._checks_lock = threading.Lock()
        self._failing: tuple[str, ...] = ()
        self._thread: threading.Thread | None = None

    @property
    def ping_interval_s(self) -> float | None:
        """Seconds between pings (half the watchdog timeout), or None without a watchdog."""
        return None if self._interval_s is None else self._interval_s / 2

    def add_check(self, name: str, check: Callable[[], bool]) -> None:
        """Register a liveness check; pings stop while it returns False (or raises)."""
        if not callable(check):
            raise TypeError("Watchdog check %r: %r is not callable; pass a function "
                            "returning True while that part of the rig is alive" % (name, check))
        with self._checks_lock:
            if name in self._checks:
                raise ValueError("Watchdog check %r is already registered; give each check "
                                 "its own name" % (name,))
            self._checks[name] = check

    def remove_check(self, name: str) -> None:
        """Forget a check (a part of the rig that was shut down on purpose)."""
        with self._checks_lock:
            self._checks.pop(name, None)

    def failing_checks(self) -> list[str]:
        """Names of the checks that fail right now, in registration order."""
        with self._checks_lock:
            checks = list(self._checks.items())
        failing = []
        for name, check in checks:
            try:
                alive = bool(check())
            except Exception:  # a broken check must not kill the watchdog thread
                log.exception("watchdog check %r raised; counting it as failing", name)
                alive = False
            if not alive:
                failing.append(name)
        return failing

    def tick(self) -> bool:
        """One round: run every check and ping if all pass. Returns True if it pinged."""
        failing = tuple(self.failing_checks())
        if failing != self._failing:
            if failing:
                log.warning("withholding the systemd watchdog ping: %s failing; systemd "
                            "restarts the rig if this lasts", ", ".join(failing))
            else:
                log.info("all watchdog checks pass again; pinging systemd")
            self._failing = failing
        if failing:
            return False
        self._notifier.watchdog_ping()
        return True

    def _run(self) -> None:
        assert self.ping_interval_s is not None
        while not self._stop.is_set():
            self.tick()
            if self._wait(self.ping_interval_s):
                break

    def start(self) -> bool:
        """Start pinging on an owned thread; False (and nothing started) without a watchdog."""
        if self.ping_interval_s is None:
            log.debug("no systemd watchdog (WATCHDOG_USEC unset); not pinging")
            return False
        if self._thread is not None and self._thread.is_alive():
            return True
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        return True

    def stop(self, timeout_s: float = 2.0) -> bool:
        """Stop the thread, waiting at most ``timeout_s``; True if it has ended."""
        thread, self._thread = self._thread, None
        return stop_and_join(self._stop, thread, timeout_s, "the watchdog thread")

    def __enter__(self) -> "Watchdog":
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
