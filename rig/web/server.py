"""The web server's thread: uvicorn on its own asyncio loop, on the configured addresses only.

The thread never touches the match: it reads the snapshots the referee leaves and puts
commands on the rig's inbox, so however busy the phones are, the referee's thread runs on
(``make bench --only web`` measures the buzzer with ten phones watching).

``bind`` is a list of this machine's addresses, or ``("local",)``: every loopback, link-local
and private address it has (:func:`local_addresses`), looked at again every ``rescan_s``
seconds, so a Pi whose Wi-Fi comes up after the rig starts is served on it too, and an address
that goes away is let go.  One uvicorn server listens on each address; no socket is ever bound
to the wildcard address, and a public address is never bound (the config refuses one too).
Starting and stopping are bounded.

Every server of one :class:`WebServer` serves through one :class:`rig.web.gate.Gate`: the caps
on connections per device and in all, the deadlines for slow and idle connections, the header
limit and the throttled log of refusals (:mod:`rig.web.gate`, README "The phones' server under
attack"); ``limits`` (a :class:`rig.web.gate.Limits`) sets them, the tests' small.
"""

import asyncio
import errno
import ipaddress
import logging
import socket
import threading
from typing import NamedTuple

import ifaddr
import uvicorn

from ..core.addresses import is_local, parse_address
from ..core.errors import HardwareError
from .gate import Gate, Limits, LogThrottle, protocols

log = logging.getLogger("cleptomano")

RESCAN_S = 10.0
MAX_WS_MESSAGE_BYTES = 4096
MAX_CONNECTIONS = Limits.max_connections
MAX_HEADER_BYTES = Limits.max_header_bytes
BACKLOG = 2048                # uvicorn's own default


def local_addresses():
    """This machine's loopback, link-local and private addresses, as ``(address, scope_id)``
    (the scope only for an IPv6 link-local address), from its network interfaces."""
    found = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, tuple):
                text, _, scope = ip.ip
                address = parse_address(text)
            else:
                address, scope = parse_address(ip.ip), 0
            if address is None or not is_local(address):
                continue
            found.add((address, scope if address.version == 6 and address.is_link_local
                       else 0))
    return found


def served_addresses(bind, addresses=None):
    """The ``(address, scope_id)`` pairs to serve for a ``[web] bind`` list: ``("local",)``
    asks ``addresses()`` (default :func:`local_addresses`); otherwise each given address,
    an IPv6 one's ``%zone`` (a number or an interface name) as its scope."""
    if tuple(bind) == ("local",):
        return (addresses or local_addresses)()
    wanted = set()
    for text in bind:
        address = parse_address(text.split("%")[0])
        scope = 0
        if "%" in text:
            zone = text.split("%", 1)[1]
            scope = int(zone) if zone.isdigit() else socket.if_nametoindex(zone)
        wanted.add((ipaddress.ip_address(address.compressed), scope))
    return wanted


def _listener(address, scope, port):
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind((address.compressed, port, 0, scope))
        else:
            sock.bind((address.compressed, port))
        # Listening from the moment the address is bound and shown (``bound``, the QR code):
        # a phone that connects while uvicorn still starts (seconds on a loaded Pi) waits in
        # the backlog instead of being refused.  uvicorn's own listen() later only sets the
        # backlog again.
        sock.listen(BACKLOG)
    except OSError:
        sock.close()
        raise
    return sock


class Who(NamedTuple):
    """Whose web server a :class:`WebServer` is, as its log lines and errors name it (issue 30:
    the leaderboard's port clash spoke of the phones' server and rig.toml)."""
    log: str                 # the log lines' prefix
    server: str              # the server, in a sentence
    fix: str                 # what to do when it can listen on no address
    without: str             # what goes on when it fails


PHONES = Who("phones", "the phones' web server",  # not words: the log's and the terminal's
             "check [web] bind and port in rig.toml",  # not words: the builder's
             "the rig referees on without it")  # not words: the log's


class WebServer:
    """Serves ``app`` on ``bind`` at ``port`` (0: a free port, the tests'); ``on_loop(loop)``
    is told the server's loop before it serves, ``on_close()`` is called on the loop before it
    stops (the push channel closes its sockets), ``on_bound(bound)`` whenever the addresses
    served change (the QR code follows them); ``limits`` what one device may hold
    (:class:`rig.web.gate.Limits`).  The refusals are logged through the app's throttle
    (``app.refusals``, :class:`rig.web.app.Guard`'s), so the app's and the server's share one."""

    def __init__(self, app, bind, port, *, on_loop=None, on_close=None, on_bound=None,
                 addresses=local_addresses, rescan_s=RESCAN_S, limits=None, who=PHONES):
        self.app = app
        self.who = who               # whose server the log lines and errors name (a Who)
        self.auto = tuple(bind) == ("local",)
        self.bind = () if self.auto else tuple(bind)
        self.port = port
        self.on_loop = on_loop
        self.on_close = on_close
        self.on_bound = on_bound
        self._addresses = addresses
        self.rescan_s = rescan_s
        limits = limits if limits is not None else Limits()
        throttle = getattr(app, "refusals", None)
        if isinstance(throttle, LogThrottle):
            throttle.every_s = limits.log_every_s
        else:
            throttle = LogThrottle(every_s=limits.log_every_s)
        self.gate = Gate(limits, throttle)
        self.loop = None
        self.servers = {}            # (address, scope) -> (uvicorn.Server, task, port)
        self.problems = {}           # address -> why it is not served
        self._leaving = set()        # the tasks of addresses let go of, still closing
        self._thread = None
        self._ready = threading.Event()
        self._stop = None

    # --- any thread -------------------------------------------------------------------------------
    def start(self, timeout_s=5.0):
        """Start serving; returns once every address is bound (or refused: see ``problems``),
        within ``timeout_s``.  Raises HardwareError when no address could be served."""
        self._thread = threading.Thread(target=self._run, name="cleptomano-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout_s):
            self.stop(timeout_s)
            raise HardwareError("%s did not start within %g s" % (self.who.server, timeout_s))
        if not self.servers:
            self.stop(timeout_s)
            raise HardwareError("%s could not listen on any address (%s); %s" % (
                self.who.server, "; ".join("%s: %s" % kv for kv in self.problems.items())
                if self.problems else "none found", self.who.fix))
        return self

    def stop(self, timeout_s=3.0):
        """Close every phone's socket and stop serving, within ``timeout_s``; True when the
        thread ended."""
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout_s)
            return not self._thread.is_alive()
        return True

    @property
    def bound(self):
        """``(address, port)`` of every address served now."""
        return [(key[0], entry[2]) for key, entry in list(self.servers.items())]

    # --- the server's thread -------------------------------------------------------------------------
    def _run(self):
        loop = asyncio.new_event_loop()
        self.loop = loop
        try:
            loop.run_until_complete(self._main())
        except Exception:
            log.exception("%s failed; %s", self.who.server, self.who.without)
        finally:
            self._ready.set()
            loop.close()

    async def _main(self):
        self._stop = asyncio.Event()
        if self.on_loop is not None:
            self.on_loop(asyncio.get_running_loop())
        await self._follow()
        self._ready.set()
        tick = min(self.rescan_s, self.gate.limits.log_every_s)
        waited = 0.0
        while not self._stop.is_set():
            try:
                await asyncio.wait_for(self._stop.wait(), tick)
            except asyncio.TimeoutError:
                self.gate.throttle.flush()          # the refusals held back are counted
                waited += tick
                if self.auto and waited >= self.rescan_s:
                    waited = 0.0
                    await self._follow()
        self.gate.throttle.flush(final=True)
        if self.on_close is not None:
            self.on_close()
        for server, _, _ in self.servers.values():
            server.should_exit = True
        tasks = [task for _, task, _ in self.servers.values()] + list(self._leaving)
        if tasks:
            await asyncio.wait(tasks, timeout=2.0)

    def _wanted(self):
        return served_addresses(self.bind if not self.auto else ("local",), self._addresses)

    async def _follow(self):
        """Serve every wanted address not served yet; let go of those no longer there."""
        try:
            wanted = self._wanted()
        except OSError as exc:
            log.warning("%s: cannot list this machine's addresses (%s)", self.who.log, exc)
            return
        self._leaving = {task for task in self._leaving if not task.done()}
        before = set(self.servers)
        for key in set(self.servers) - wanted:
            server, task, _ = self.servers.pop(key)
            server.should_exit = True
            self._leaving.add(task)             # awaited when the server stops
            log.info("%s: %s is gone; no longer served", self.who.log, key[0])
        for key in sorted(wanted - set(self.servers), key=str):
            await self._serve(*key)
        if set(self.servers) != before and self.on_bound is not None:
            self.on_bound(self.bound)

    async def _serve(self, address, scope):
        try:
            sock = _listener(address, scope, self.port)
        except OSError as exc:
            why = ("port %d is taken by another program" % self.port   # not words: the log's
                   if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc))
            if self.problems.get(str(address)) != why:
                log.warning("%s: cannot listen on %s (%s)", self.who.log, address, why)
            self.problems[str(address)] = why
            return
        self.problems.pop(str(address), None)
        limits = self.gate.limits
        http, ws = protocols(self.gate)
        config = uvicorn.Config(
            self.app, lifespan="off", log_config=None, access_log=False, server_header=False,
            proxy_headers=False, ws_max_size=MAX_WS_MESSAGE_BYTES, ws_per_message_deflate=False,
            http=http, ws=ws, timeout_graceful_shutdown=1, timeout_keep_alive=limits.request_s,
            ws_ping_interval=limits.ws_ping_s, ws_ping_timeout=limits.ws_ping_s,
            h11_max_incomplete_event_size=limits.max_header_bytes)
        server = uvicorn.Server(config)
        task = asyncio.ensure_future(server.serve(sockets=[sock]))
        self.servers[(address, scope)] = (server, task, sock.getsockname()[1])
        for _ in range(100):                     # up to 1 s for it to listen
            if server.started or task.done():
                break
            await asyncio.sleep(0.01)
