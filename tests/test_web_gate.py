"""The gate's per-device cap never closes a connection a browser is using (issue 30).

After a game switch or a restart every phone's page loads anew at once: many connections from
the same address in a moment, more than one device may hold when several phones share an
address (the game night's browser phones all come from 127.0.0.1).  A connection over the cap
takes the place of an idle one; one whose request already waits in the kernel, not yet read by
a busy loop, is not idle: closing it left that page waiting.  Here the server's loop is stepped
by hand, so "not yet read" is certain, not a race; nothing waits on a clock.
"""

import asyncio
import socket

import uvicorn
from uvicorn.server import ServerState

from rig.web.gate import Gate, Limits, LogThrottle, protocols

REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


async def _hello(scope, receive, send):
    if scope["path"] == "/hang":                        # an answer that never comes
        await asyncio.Event().wait()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"hello"})


class Stepped:
    """A uvicorn server behind a :class:`Gate` of ``limits``, on a loop that runs only when
    :meth:`step` runs it."""

    def __init__(self, limits):
        self.loop = asyncio.new_event_loop()
        self.gate = Gate(limits, LogThrottle())
        http, ws = protocols(self.gate)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        config = uvicorn.Config(_hello, lifespan="off", log_config=None, access_log=False,
                                http=http, ws=ws, timeout_keep_alive=limits.request_s)
        config.load()
        state = ServerState()
        self.server = self.step(self.loop.create_server(
            lambda: config.http_protocol_class(config=config, server_state=state, app_state={},
                                               _loop=self.loop), sock=self.listener))

    def step(self, awaitable=None, turns=20):
        """Run ``awaitable`` (or ``turns`` turns of the loop) and return what it gives."""
        if awaitable is None:
            awaitable = self._turns(turns)
        return self.loop.run_until_complete(awaitable)

    @staticmethod
    async def _turns(turns):
        for _ in range(turns):
            await asyncio.sleep(0)

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        sock.setblocking(False)
        return sock

    def answer(self, sock, turns=200):
        """What the server sent ``sock`` (b"" when it closed it without a word; None when it
        neither answered nor closed it in ``turns`` turns of the loop)."""
        said = b""
        for _ in range(turns):
            self.step(turns=1)
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except ConnectionResetError:
                return said
            if not chunk:
                return said
            said += chunk
            if said.endswith(b"hello"):
                return said
        return said or None

    def close(self):
        self.server.close()
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        self.step(turns=50)
        self.loop.close()


def test_a_request_waiting_unread_is_never_let_go_for_a_new_connection():
    served = Stepped(Limits(per_client=2, max_connections=8))
    try:
        # The loop is not running: three connections wait to be accepted, the first one's
        # request already in the kernel.  The loop then takes all three in one turn: the
        # third is over the device's two.
        asking = served.connect()
        asking.sendall(REQUEST)
        fresh = served.connect()
        third = served.connect()
        served.step()
        # The first one's request is answered; the connection let go is the fresh one that
        # had sent nothing.
        assert served.answer(asking).startswith(b"HTTP/1.1 200 ")
        assert served.answer(fresh) == b""
        third.sendall(REQUEST)
        assert served.answer(third).startswith(b"HTTP/1.1 200 ")
        for sock in (asking, fresh, third):
            sock.close()
    finally:
        served.close()


def test_a_kept_alive_connection_goes_before_a_fresh_one():
    """A browser sends again on a new connection a request its kept-alive one lost; a fresh
    connection was opened for a request on its way."""
    served = Stepped(Limits(per_client=2, max_connections=8))
    try:
        fresh = served.connect()                                   # the older, silent yet
        served.step()
        kept = served.connect()
        kept.sendall(REQUEST)
        assert served.answer(kept).startswith(b"HTTP/1.1 200 ")   # kept alive, idle now
        third = served.connect()
        served.step()
        assert served.answer(kept) == b""                          # the kept-alive one went
        fresh.sendall(REQUEST)
        third.sendall(REQUEST)
        assert served.answer(fresh).startswith(b"HTTP/1.1 200 ")
        assert served.answer(third).startswith(b"HTTP/1.1 200 ")
        for sock in (kept, fresh, third):
            sock.close()
    finally:
        served.close()


def test_a_connection_over_the_cap_waits_for_a_place_and_is_served():
    """All the device's connections busy: the next one waits, unread, and is let in as soon as
    one of them answered and went idle; one more than the device may have waiting is closed."""
    served = Stepped(Limits(per_client=2, max_connections=8))
    try:
        busy = [served.connect() for _ in range(2)]
        for sock in busy:                                   # half a request each: busy
            sock.sendall(REQUEST[:10])
        served.step()
        waiting = [served.connect() for _ in range(2)]
        for sock in waiting:
            sock.sendall(REQUEST)
        refused = served.connect()
        served.step()
        assert served.answer(refused) == b""                # a third waiting: closed
        assert served.gate.open["127.0.0.1"] == 2
        assert served.answer(waiting[0], turns=20) is None  # waits: not served, not closed
        busy[0].sendall(REQUEST[10:])                       # one answered, then idle: let go
        assert served.answer(busy[0]).startswith(b"HTTP/1.1 200 ")
        assert served.answer(waiting[0]).startswith(b"HTTP/1.1 200 ")
        busy[1].close()                                     # one ends: the other one's turn
        assert served.answer(waiting[1]).startswith(b"HTTP/1.1 200 ")
        assert served.gate.open["127.0.0.1"] <= 2
        for sock in busy + waiting + [refused]:
            sock.close()
    finally:
        served.close()


def test_a_connection_that_waited_its_whole_deadline_is_closed():
    served = Stepped(Limits(per_client=1, max_connections=8, request_s=0.05))
    try:
        busy = served.connect()
        busy.sendall(REQUEST.replace(b"/", b"/hang", 1))    # its answer holds the one place
        served.step()
        waiting = served.connect()
        served.step()
        assert served.answer(waiting, turns=5) is None
        served.step(asyncio.sleep(0.2))                     # past its deadline (loop time)
        assert served.answer(waiting) == b""                # closed without a word
        assert served.gate.open["127.0.0.1"] <= 1
        busy.close()
        waiting.close()
    finally:
        served.close()
