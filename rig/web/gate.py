"""The phones' server against one hostile device (README "The phones' server under attack").

The venue's Wi-Fi is hostile: any device on it can open connections to the rig, hold them, send
a request a byte at a time, send headers of any size, open WebSockets.  uvicorn alone bounds
none of that the way the rig needs (its ``limit_concurrency`` answers 503 to every phone once
64 idle sockets are open, and it arms no timer before a request's head is in), so the rig
serves with its own two protocol classes, uvicorn's h11 and websockets ones with a gate in
front (:class:`GuardedH11Protocol`, :class:`GuardedWSProtocol`):

* **Connections per device.**  One address (:func:`client_key`) holds at most :attr:`Limits.per_client` connections, HTTP and WebSocket together, and
  all devices together :attr:`Limits.max_connections`.  A connection over either takes the
  place of an idle one of that device (or of the device holding the most), else it is closed
  as soon as it is made.  One device holding all it may leaves the others room.
* **Slow or idle.**  A request's head and body must be in within :attr:`Limits.request_s` of
  the connection opening or of the previous answer, however the bytes trickle in (a slowloris
  sends a byte every few seconds: every byte does not restart the clock); a connection that
  sends nothing in that time is closed too.  A client that stops reading an answer for
  :attr:`Limits.request_s` is closed.  A WebSocket is pinged every :attr:`Limits.ws_ping_s` and
  closed when it does not answer within as long.
* **Headers.**  A request whose head (request line and headers) is over
  :attr:`Limits.max_header_bytes` is answered ``431`` and closed, however it arrives.
* **The log.**  Every kind of refusal is logged, one line per kind at most every
  :attr:`Limits.log_every_s` (:class:`LogThrottle`), and the lines not written are counted on the
  next one, so a flood writes a few lines, not megabytes.  uvicorn's own warnings and errors go
  through the same throttle.

Per-device limits the app keeps itself: the WebSockets one device may watch with
(:data:`rig.web.live.MAX_CLIENTS_PER_ADDRESS`) and the pairing lock-out
(:class:`rig.web.pairing.Pairing`), both keyed by :func:`client_key` too.

Everything runs on the server's loop; time is the loop's own for the timers (the tests use
small limits) and an injected clock for the throttle.  The two classes extend uvicorn 0.54's
own (pinned in pyproject.toml): a new uvicorn is checked against tests/test_hostile_network.py,
which runs them on the real server.
"""

import fcntl
import ipaddress
import logging
import re
import struct
import termios
import time
from collections import Counter
from dataclasses import dataclass

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("cleptomano")

#: The end of a request's head, as h11 finds it (a blank line, its CR optional).
_HEAD_END = re.compile(b"\n\r?\n")
_TOO_BIG = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s")
_MAX_KINDS = 64                 # distinct kinds of log line the throttle keeps a count for


@dataclass(frozen=True)
class Limits:
    """What one server allows (the defaults are the rig's; the tests make the times small)."""
    max_connections: int = 64           # all devices together, HTTP and WebSockets
    per_client: int = 16                # one device (its address)
    request_s: float = 10.0             # a whole request's head and body; idle; a stalled reader
    max_header_bytes: int = 16 * 1024   # the request line and headers
    ws_ping_s: float = 20.0             # a WebSocket pinged this often, closed if no answer
    log_every_s: float = 10.0           # one log line per kind of refusal at most this often

    def __post_init__(self):
        if not 1 <= self.per_client < self.max_connections:
            raise ValueError("per_client %r must be 1 to max_connections - 1 (%r)"
                             % (self.per_client, self.max_connections))
        for name in ("request_s", "ws_ping_s", "log_every_s"):
            value = getattr(self, name)
            if not 0 < value < 3600:
                raise ValueError("%s %r must be over 0 and under 3600 s" % (name, value))


def client_key(host):
    """The device behind a client address: the address itself, an IPv6 one without its zone
    and an IPv4-mapped one as IPv4; the text as it is when it is no address (a test client).

    Not an IPv6 address's /64, as a server on the internet would group them: on the table's
    network every device shares the one /64, so one hostile device would lock out every phone
    that comes over IPv6.  A device that takes many addresses gets a share for each (the caps
    in all still hold: README "The phones' server under attack")."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return address.compressed
    return str(address)


class LogThrottle:
    """At most one log line per kind every ``every_s`` seconds of ``clock``; the lines held
    back are counted and said on that kind's next line, or by :meth:`flush`."""

    def __init__(self, logger=log, every_s=10.0, clock=time.monotonic):
        self.logger = logger
        self.every_s = every_s
        self._clock = clock
        self._kinds = {}            # kind -> [when its last line was written, lines held back]
        self.written = 0            # lines written (the tests count them)

    def log(self, kind, level, text, *args, exc_info=None):
        """Log ``text % args`` at ``level`` unless a line of ``kind`` was written less than
        ``every_s`` ago (then count it)."""
        now = self._clock()
        entry = self._kinds.get(kind)
        if entry is not None and now - entry[0] < self.every_s:
            entry[1] += 1
            return False
        held = entry[1] if entry is not None else 0
        if entry is None and len(self._kinds) >= _MAX_KINDS:
            self._forget(now)
            while len(self._kinds) >= _MAX_KINDS:       # the oldest let go (its count lost)
                del self._kinds[next(iter(self._kinds))]
        self._kinds[kind] = [now, 0]
        line = text % args if args else text
        if held:
            line = "%s (and %d more like it in the last %g s, not logged)" % (  # not words: log
                line, held, self.every_s)
        self.written += 1
        self.logger.log(level, "%s", line, exc_info=exc_info)
        return True

    def warning(self, kind, text, *args):
        return self.log(kind, logging.WARNING, text, *args)

    def flush(self, final=False):
        """Say how many lines of each kind were held back once its period is over (the
        server's thread calls it every few seconds), or all of them (``final``: the server
        stops)."""
        now = self._clock()
        for kind, entry in list(self._kinds.items()):
            if entry[1] and (final or now - entry[0] >= self.every_s):
                self.written += 1
                self.logger.warning("phones: %d more %s not logged in the last %g s",
                                    entry[1], kind, self.every_s)
                entry[0], entry[1] = now, 0
        self._forget(now)

    def _forget(self, now):
        for kind, entry in list(self._kinds.items()):
            if not entry[1] and now - entry[0] >= self.every_s:
                del self._kinds[kind]


class ThrottledLogger:
    """uvicorn's logger as its protocols use it, each of its messages (by its format) through
    the throttle: a flood of bad requests logs one "Invalid HTTP request" a period, and an
    exception's traceback at most once a period."""

    def __init__(self, logger, throttle):
        self._logger = logger
        self._throttle = throttle

    @property
    def level(self):
        return self._logger.getEffectiveLevel()

    def log(self, level, msg, *args, exc_info=None, **_):
        if self._logger.isEnabledFor(level):
            self._throttle.log("uvicorn: %s" % str(msg)[:60], level, "phones (uvicorn): " + msg,
                               *args, exc_info=exc_info)

    def debug(self, msg, *args, **kw):
        self.log(logging.DEBUG, msg, *args, **kw)

    def info(self, msg, *args, **kw):
        self.log(logging.INFO, msg, *args, **kw)

    def warning(self, msg, *args, **kw):
        self.log(logging.WARNING, msg, *args, **kw)

    def error(self, msg, *args, **kw):
        self.log(logging.ERROR, msg, *args, **kw)

    def exception(self, msg, *args, exc_info=True, **kw):
        self.log(logging.ERROR, msg, *args, exc_info=exc_info, **kw)


#: What :meth:`Gate.admit` answers for a connection that waits for a place (not refused).
WAITING = "waiting"


class Gate:
    """The connections open now, per device and in all, for every uvicorn server of one
    :class:`rig.web.server.WebServer` (one per address it listens on); and the refusals' log.

    A new connection over a limit first takes the place of an idle one (kept alive, waiting for
    a request, nothing of it received, not even unread in the kernel): the device's own oldest,
    kept-alive ones first, or when the server is full the oldest of the device holding the
    most.  A browser opens a new connection when its kept-alive one is closed, so a phone (or
    several on one laptop) is never refused for the connections it keeps idle; a device holding
    idle connections on purpose only recycles its own.  When the connections it would replace
    are all busy, a new HTTP connection waits, unread, for a place (issue 30: the pages of
    several phones behind one address, loading anew at once after a game switch, are more
    than one device may hold): it is let in as soon as one of its device's connections ends or
    goes idle, and closed if none does within :attr:`Limits.request_s`.  At most
    :attr:`Limits.per_client` connections of one device wait, and
    :attr:`Limits.max_connections` in all; one over that is closed as soon as it is made."""

    def __init__(self, limits=None, throttle=None):
        self.limits = limits if limits is not None else Limits()
        self.throttle = throttle if throttle is not None else LogThrottle(
            every_s=self.limits.log_every_s)
        self.open = Counter()       # client_key -> connections open
        self.total = 0
        self._held = {}             # client_key -> {protocol: None}, oldest first
        self._waiting = {}          # protocol -> client_key, the connections waiting, oldest first
        self._admitting = False     # admit() runs: a place it frees is its own connection's

    def admit(self, key, protocol=None):
        """Count a new connection of ``key`` (``protocol`` its protocol, when it may be let go
        while idle, or wait): True; :data:`WAITING` when over a limit with nothing idle to let
        go (``protocol.admitted()`` is called once it has its place; :meth:`withdraw` when it
        gives up); False (not counted, logged) when it may not wait either."""
        self._admitting = True
        try:
            if self.open[key] >= self.limits.per_client and not self._let_go(key):
                if self._may_wait(key, protocol):
                    return WAITING
                self.throttle.warning("refusals (too many connections from one device)",
                                      "phones: refused a connection from %s: it holds %d "
                                      "already, none idle, the most one device may", key,
                                      self.open[key])
                return False
            if self.total >= self.limits.max_connections \
                    and not self._let_go(max(self.open, key=self.open.get)):
                if self._may_wait(key, protocol):
                    return WAITING
                self.throttle.warning("refusals (server full)",
                                      "phones: refused a connection from %s: %d are open, none "
                                      "idle, the most the server takes", key, self.total)
                return False
        finally:
            self._admitting = False
        self._count(key, protocol)
        return True

    def _count(self, key, protocol):
        self.open[key] += 1
        self.total += 1
        if protocol is not None:
            self._held.setdefault(key, {})[protocol] = None

    def _may_wait(self, key, protocol):
        if protocol is None or len(self._waiting) >= self.limits.max_connections or \
                sum(1 for k in self._waiting.values() if k == key) >= self.limits.per_client:
            return False
        self._waiting[protocol] = key
        return True

    def withdraw(self, protocol):
        """A waiting connection gave up (closed, or waited too long)."""
        self._waiting.pop(protocol, None)

    def release(self, key, protocol=None, passing=False):
        """A connection of ``key`` ended (``passing``: it goes on as a WebSocket, which counts
        itself at once: its place is not given to a waiting one)."""
        self.total -= 1
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]
        held = self._held.get(key)
        if held is not None:
            held.pop(protocol, None)
            if not held:
                del self._held[key]
        if not passing:
            self._let_waiting_in()

    def went_idle(self, key):
        """A connection of ``key`` answered and waits for another request: if one of that
        device waits for a place, an idle one gives it up."""
        if not self._admitting and key in self._waiting.values():
            self._let_go(key)

    def _let_waiting_in(self):
        if self._admitting:
            return
        for protocol, key in list(self._waiting.items()):
            if self.total >= self.limits.max_connections:
                return
            if self.open[key] < self.limits.per_client and protocol in self._waiting:
                del self._waiting[protocol]
                self._count(key, protocol)
                protocol.admitted(key)

    def _let_go(self, key):
        """Close the oldest idle connection of ``key``; whether there was one.  A kept-alive
        one (it answered a request before) goes first: a browser sends a request it had meant
        for it again on a new connection.  A fresh one (nothing answered on it) only when
        none is: a browser opens a connection to send a request, and one whose request is on
        its way is not idle (issue 30: a phone's page, reloaded after a game switch, waited
        for a request whose connection this closed before reading it)."""
        held = list(self._held.get(key, ()))
        for kept in (True, False):
            for protocol in held:
                if protocol.kept_alive() == kept and protocol.idle():
                    self.throttle.warning("let go (an idle connection, for a new one)",
                                          "phones: closed an idle connection of %s to take a "
                                          "new one", key)
                    protocol.let_go()
                    return True
        return False


def unread_bytes(transport):
    """The bytes the kernel holds for ``transport``'s socket that the loop has not read yet
    (0 when it cannot tell): on a busy loop a request may wait there a while."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return 0
    try:
        return struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.FIONREAD,
                                              b"\0\0\0\0"))[0]
    except (OSError, ValueError):
        return 0


def _host(protocol):
    return client_key(protocol.client[0] if protocol.client else None)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol behind the :class:`Gate`: the caps, the request deadline, the
    header limit, a stalled reader's deadline and the throttled log."""

    def __init__(self, *args, gate, **kwargs):
        super().__init__(*args, **kwargs)
        self.gate = gate
        self.logger = ThrottledLogger(self.logger, gate.throttle)
        self._key = None            # the device, once counted
        self._deadline = None       # the request's (or the stalled reader's) timer
        self._stalling = False      # the timer is the stalled reader's
        self._heard = 0             # bytes received since the deadline was armed
        self._upgraded = False
        self._refused = False       # answered 431: what else comes is read and dropped
        self._answered = 0          # answers sent on this connection
        self._waiting = False       # over the device's cap, waiting for a place (Gate)

    # --- the connection ----------------------------------------------------------------------
    def connection_made(self, transport):
        super().connection_made(transport)
        key = _host(self)
        verdict = self.gate.admit(key, self)
        if verdict is WAITING:          # unread until it has its place (Gate)
            self._waiting = True
            transport.pause_reading()
            self._deadline = self.loop.call_later(self.gate.limits.request_s, self._waited)
            return
        if not verdict:
            transport.abort()
            return
        self._key = key
        self._follow()

    def admitted(self, key):
        """The gate let this waiting connection in (it is counted as ``key``'s)."""
        self._waiting = False
        self._disarm()
        self._key = key
        if self.transport.is_closing():
            self._release()
            return
        self.transport.resume_reading()
        self._follow()

    def _waited(self):
        self._deadline = None
        self._waiting = False
        self.gate.withdraw(self)
        key = _host(self)
        self.gate.throttle.warning(
            "refusals (waited for a place too long)",
            "phones: closed a connection from %s: none of the %d it holds ended or went idle "
            "within %g s", key, self.gate.open[key], self.gate.limits.request_s)
        self.transport.abort()

    def idle(self):
        """Waiting for a request of which nothing has come, not even to the kernel's buffer
        the loop has yet to read (a kept-alive or a fresh connection): one the gate may let
        go for a new one."""
        return (self._key is not None and not self._upgraded and not self._refused
                and not self.transport.is_closing() and self.conn.their_state is h11.IDLE
                and self._heard == 0 and (self.cycle is None or self.cycle.response_complete)
                and unread_bytes(self.transport) == 0)

    def kept_alive(self):
        """Whether this connection answered a request before (a browser's kept-alive one)."""
        return self._answered > 0

    def let_go(self):
        """Close this idle connection now (it is no longer counted)."""
        self._release()
        self.transport.close()

    def connection_lost(self, exc):
        if self._waiting:
            self._waiting = False
            self.gate.withdraw(self)
        self._release()
        super().connection_lost(exc)

    def _release(self, passing=False):
        self._disarm()
        if self._key is not None:
            key, self._key = self._key, None
            self.gate.release(key, self, passing)

    def handle_websocket_upgrade(self, event):
        # The WebSocket protocol takes the connection over, and counts it itself (the same
        # device, at once: the count does not change, and no waiting one takes the place).
        self._upgraded = True
        self._release(passing=True)
        super().handle_websocket_upgrade(event)

    # --- the request's deadline -------------------------------------------------------------------
    def data_received(self, data):
        if self.transport.is_closing() or self._key is None or self._refused:
            return
        self._heard += len(data)
        if self.conn.their_state in (h11.IDLE, h11.DONE) and self._head_too_big(data):
            return self._refuse_head()
        super().data_received(data)

    def handle_events(self):
        super().handle_events()
        self._follow()

    def on_response_complete(self):
        super().on_response_complete()
        self._answered += 1
        self._follow()
        if self._key is not None:
            self.gate.went_idle(self._key)

    def _follow(self):
        """Armed while the next request is awaited or being received, off while the app
        answers (its own waits are bounded)."""
        if self._upgraded or self._key is None or self._refused \
                or self.transport.is_closing():
            return self._disarm()
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) \
                and not self.flow.write_paused:
            if self._deadline is None:
                self._arm(self._too_slow)
        elif not self.flow.write_paused:
            self._disarm()

    def _arm(self, then):
        self._heard = 0
        self._stalling = then == self._stalled
        self._deadline = self.loop.call_later(self.gate.limits.request_s, then)

    def _disarm(self):
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._stalling = False

    def _too_slow(self):
        self._deadline = None
        if self.transport.is_closing():
            return
        if not self._heard and self.conn.their_state is h11.IDLE:
            self.transport.close()      # idle (a browser's kept-alive socket): no word needed
            return
        self.gate.throttle.warning(
            "refusals (request too slow)",
            "phones: closed a connection from %s: its request was not all in within %g s",
            self._key, self.gate.limits.request_s)
        self.transport.abort()

    # --- a client that does not read ------------------------------------------------------------
    def pause_writing(self):
        super().pause_writing()
        if self._key is not None and not self.transport.is_closing():
            self._disarm()
            self._arm(self._stalled)

    def resume_writing(self):
        super().resume_writing()
        if self._stalling:
            self._disarm()
        self._follow()

    def _stalled(self):
        self._deadline = None
        self._stalling = False
        if not self.transport.is_closing():
            self.gate.throttle.warning(
                "refusals (reader stalled)",
                "phones: closed a connection from %s: it read nothing of its answer for %g s",
                self._key, self.gate.limits.request_s)
            self.transport.abort()

    # --- the header limit ------------------------------------------------------------------------
    def _head_too_big(self, data):
        """Whether the head awaited now (h11's buffer and ``data``) is over the limit."""
        most = self.gate.limits.max_header_bytes
        pending = self.conn.trailing_data[0] + data
        end = _HEAD_END.search(pending, 0, most + 3)
        return (end.end() if end is not None else len(pending)) > most

    def _refuse_head(self):
        most = self.gate.limits.max_header_bytes
        self.gate.throttle.warning(
            "refusals (headers too big)",
            "phones: refused a request from %s: its headers are over %d bytes", self._key, most)
        text = b"request headers over %d bytes; send at most %d" % (most, most)
        self.transport.write(_TOO_BIG % (len(text), text))
        # A lingering close: the answer goes, then what the client still sends is read and
        # dropped until it closes (or the deadline), so that its kernel does not reset the
        # connection before it read the answer.
        self._refused = True
        self._disarm()
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self._deadline = self.loop.call_later(self.gate.limits.request_s,
                                                  self.transport.abort)
        else:
            self.transport.close()


class GuardedWSProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted at the :class:`Gate` for as long as it is open,
    its log throttled."""

    def __init__(self, *args, gate, **kwargs):
        super().__init__(*args, **kwargs)
        self.gate = gate
        self.logger = ThrottledLogger(self.logger, gate.throttle)
        self._key = None

    def connection_made(self, transport):
        super().connection_made(transport)
        key = _host(self)
        if not self.gate.admit(key):
            transport.abort()
            return
        self._key = key

    def connection_lost(self, exc):
        if self._key is not None:
            self.gate.release(self._key)
            self._key = None
        super().connection_lost(exc)


def protocols(gate):
    """The ``http`` and ``ws`` protocol factories of a uvicorn Config that keeps ``gate``."""
    def http(**kwargs):
        return GuardedH11Protocol(gate=gate, **kwargs)

    def ws(**kwargs):
        return GuardedWSProtocol(gate=gate, **kwargs)

    return http, ws

