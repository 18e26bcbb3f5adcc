"""The push channel: every phone watching gets the snapshot as it changes, and the calls.

Two kinds of message go down each WebSocket, as JSON text:

* ``{"type": "state", "state": {...}}`` -- the snapshot, exactly as ``GET /api/state`` answers
  it, sent on connecting and then whenever it changed, at most every ``period_s`` (10 a second:
  the page counts the seconds between two);
* ``{"type": "call", "t": 12.5, "text": "Laser 4 touched: 1 touch.", "severity": "info"}`` --
  each referee's call (severity ``info`` or ``warning``), in order, sent with the next push
  (before its snapshot), so a phone is woken at most 10 times a second however fast the table
  goes.

Both are said in each phone's language (its cookie's or its browser's,
:func:`rig.web.language.language_of`, when it connects): the referee's snapshot and calls hold
codes (:class:`rig.core.msg.Msg`), and each push says them once for each language the phones
watching read, not once per phone.

The referee thread only stores the newest snapshot and asks the server's loop to look
(:meth:`Live.changed`, a few microseconds, never blocking); the snapshot is turned into JSON
once, on the server's thread, for every phone.  A phone that reads slowly gets the newest
snapshot when it catches up, not a backlog, and at most :data:`MAX_CALLS_WAITING` calls.
"""

import asyncio
import json
import threading
import time
from collections import deque

from ..core.errors import RequestError
from ..words import DEFAULT
from .language import said, words_in

PUSH_PERIOD_S = 0.1
MAX_CALLS_WAITING = 64
MAX_CLIENTS = 32
MAX_CLIENTS_PER_ADDRESS = 4     # one device's watchers (rig.web.gate.client_key): a phone needs 1


class Client:
    """One WebSocket's waiting messages: the newest snapshot and the calls not yet sent, in the
    phone's language ``lang``."""

    def __init__(self, lang=DEFAULT, address=None):
        self.lang = lang
        self.address = address
        self.state = None
        self.calls = deque(maxlen=MAX_CALLS_WAITING)
        self.wake = asyncio.Event()
        self.sent = 0

    def offer_state(self, text):
        self.state = text
        self.wake.set()

    def offer_call(self, text):
        self.calls.append(text)
        self.wake.set()

    def take(self):
        """The messages to send now, in order: the calls, then the snapshot."""
        self.wake.clear()
        out = list(self.calls)
        self.calls.clear()
        if self.state is not None:
            out.append(self.state)
            self.state = None
        return out


class Live:
    """The phones watching, fed from the referee's snapshots (``state()`` makes the JSON-ready
    snapshot of the newest one; it runs on the server's loop)."""

    def __init__(self, state, period_s=PUSH_PERIOD_S, max_clients=MAX_CLIENTS,
                 clock=time.monotonic, max_per_address=MAX_CLIENTS_PER_ADDRESS):
        self._state = state
        self.period_s = period_s
        self.max_clients = max_clients
        self.max_per_address = max_per_address
        self._clock = clock
        self.clients = set()
        self.loop = None
        self.closing = False
        self._scheduled = False
        self._calls = deque(maxlen=MAX_CALLS_WAITING)
        self._calls_lock = threading.Lock()
        self._last_text = {}       # language -> the state message pushed last in it
        self._last_push = None
        self.pushed = 0            # snapshots pushed (each to every phone)

    # --- any thread -----------------------------------------------------------------------------
    def changed(self):
        """A new snapshot is there (the referee thread): have the loop look, once."""
        loop = self.loop
        if loop is None or self._scheduled:
            return
        self._scheduled = True
        try:
            loop.call_soon_threadsafe(self._flush)
        except RuntimeError:       # the loop closed while the rig stops
            self._scheduled = False

    def call(self, t, text, severity):
        """A referee's call (the referee thread): ``text`` a :class:`~rig.core.msg.Msg` (or
        words already said), said for each phone when it is pushed."""
        with self._calls_lock:
            self._calls.append((round(t, 3), text, str(severity)))
        self.changed()

    @staticmethod
    def call_message(call, lang):
        """The ``call`` message of ``call`` (``(t, text, severity)``) in ``lang``."""
        t, text, severity = call
        return json.dumps({"type": "call", "t": t, "text": said(text, words_in(lang)),
                           "severity": severity}, ensure_ascii=False)

    # --- the server's loop ------------------------------------------------------------------------
    def attach(self, loop):
        self.loop = loop

    def snapshot(self):
        """The newest snapshot, JSON-ready but for its codes (None before the first)."""
        try:
            return self._state()
        except RequestError:
            return None

    @staticmethod
    def state_message(state, lang):
        """The ``state`` message of ``state`` (a :meth:`snapshot`) in ``lang``."""
        if state is None:
            return None
        return json.dumps({"type": "state", "state": said(state, words_in(lang))},
                          ensure_ascii=False)

    def _flush(self):
        self._scheduled = False     # first: a snapshot stored from now on schedules again
        now = self._clock()
        if self._last_push is not None and now - self._last_push < self.period_s:
            if not self._scheduled:
                self._scheduled = True
                self.loop.call_later(self.period_s - (now - self._last_push), self._flush)
            return
        with self._calls_lock:
            calls = list(self._calls)
            self._calls.clear()
        if not self.clients:
            return
        by_lang = {}
        for client in self.clients:
            by_lang.setdefault(getattr(client, "lang", DEFAULT), []).append(client)
        for call in calls:
            for lang, clients in by_lang.items():
                message = self.call_message(call, lang)
                for client in clients:
                    client.offer_call(message)
        state = self.snapshot()
        fresh = False
        for lang, clients in by_lang.items():
            text = self.state_message(state, lang)
            if text is None or text == self._last_text.get(lang):
                continue
            fresh = True
            self._last_text[lang] = text
            for client in clients:
                client.offer_state(text)
        for lang in set(self._last_text) - set(by_lang):     # nobody reads it any more
            del self._last_text[lang]
        if fresh:
            self.pushed += 1
        if fresh or calls:
            self._last_push = now

    def join(self, lang=DEFAULT, address=None):
        """A phone reading ``lang`` connects from ``address`` (its device,
        :func:`rig.web.gate.client_key`; None: not counted apart) on the loop serving it, which
        the channel then pushes on: its client, already holding the snapshot; None when too
        many phones watch, or too many from that device (:meth:`refusal` says which)."""
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
        if self.refusal(address) is not None:
            return None
        client = Client(lang, address)
        text = self.state_message(self.snapshot(), lang)
        if text is not None:
            client.offer_state(text)
        self.clients.add(client)
        return client

    def refusal(self, address=None):
        """Why a phone from ``address`` may not watch now, as ``(kind, words for the log)``,
        or None."""
        if self.closing:
            return ("stopping", "the rig stops")                        # not words: the log's
        if len(self.clients) >= self.max_clients:
            return ("all", "%d phones watch, the most" % len(self.clients))  # not words: log
        if address is not None and sum(c.address == address for c in self.clients) \
                >= self.max_per_address:
            return ("one device",                                        # not words: the log's
                    "it watches %d times already, the most for one device"  # not words: log
                    % self.max_per_address)
        return None

    def leave(self, client):
        self.clients.discard(client)

    def farewell(self, msg):
        """The rig stops (not a switch between games; the server's loop): each phone is told,
        ``{"type": "stopped", "text": ...}`` with ``msg`` in its language, its socket then
        closed as :meth:`close` closes it (issue 30: the phones froze on the countdown)."""
        for client in list(self.clients):
            client.offer_call(json.dumps({"type": "stopped",
                                          "text": said(msg, words_in(client.lang))},
                                         ensure_ascii=False))
        self.close()

    def close(self):
        """The server stops: every phone's socket is closed."""
        self.closing = True
        for client in self.clients:
            client.wake.set()
