"""Pairing phones with the rig, and their sessions: "paired with the rig and nobody else's".

Anyone on the table's network may watch; to command, a phone sends the 6-digit code shown on
the rig's screen and a name (shown on the screen, and recorded as ``"by"`` on each of its
commands), and gets a session: a random token in an HttpOnly, SameSite=Strict cookie.

* The code is new at every rig start and every new match: a code seen
  during the last match pairs no more.
* Five wrong codes from one device lock that device out of pairing for 60 s (a correct code
  during its lock-out is refused too).  Only that device: the others, the table's phones, pair
  on with the code on the screen, which stays (one hostile device on the venue's Wi-Fi cannot
  lock the table out, nor make the code change under the players' fingers).  A device is its
  address (:func:`rig.web.gate.client_key`); the rig keeps count of at most
  :data:`MAX_DEVICES` of them.
* :meth:`Pairing.revoke` (the guard's key) ends every session and draws a new code.
* One seat, one phone: a phone sits at the seat of the player its name names ("Ana",
  "ana’s phone"); while one holds a seat, no other phone is paired at it (the code the whole
  table sees is not enough to read or act as Ana).  It is free again once that phone unpairs,
  or the guard's key unpairs every phone.

Thread-safe (the web server's thread pairs, the referee thread reads :meth:`Pairing.view` for
the screen); every method holds the lock for a few dictionary operations only, never for I/O,
so the referee never waits on a phone.  Time and randomness are injected (``now`` in seconds,
``randbelow``, ``token``): the tests lock it out and let it go without sleeping.
"""

import logging
import math
import secrets
import threading
import time
from dataclasses import dataclass

from ..core.addresses import best_url
from ..core.errors import RequestError, RulesError
from ..core.msg import Msg
from ..core.phones import PhonesView
from ..core.names import check_name, seat_key

log = logging.getLogger("cleptomano")

CODE_DIGITS = 6
MAX_WRONG_CODES = 5
LOCK_S = 60.0
MAX_PHONES = 8
SESSION_BYTES = 32
MAX_DEVICES = 1024          # devices whose wrong codes are counted at once (the oldest let go)


@dataclass(frozen=True)
class Session:
    """A paired phone: its token (the cookie's value) and its name."""
    token: str
    name: str


def quoted(value, most=40):
    """``value`` as a refusal quotes it: its Python form, at most ``most`` characters."""
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def check_phone_name(name):
    """A phone's name as it goes on the screen and into the recording's ``"by"``: a name by
    the one rule of :mod:`rig.core.names` (a player's name follows the same rule).  Returns it
    as the rig keeps it (NFC, stripped), or raises RequestError (400) naming it."""
    try:
        return check_name(name)
    except RulesError as exc:
        raise RequestError(exc.msg, 400) from None


class Pairing:
    """The pairing code, the lock-out and the sessions of the phones paired now."""

    def __init__(self, url="", *, now=time.monotonic, randbelow=secrets.randbelow,
                 token=secrets.token_urlsafe, max_phones=MAX_PHONES):
        self.url = url
        self._now = now
        self._randbelow = randbelow
        self._token = token
        self.max_phones = max_phones
        self._lock = threading.Lock()
        self._sessions = {}            # token -> Session, in pairing order
        self._devices = {}             # device -> [wrong codes in a row, locked until or None]
        self._code = self._draw()

    def _draw(self):
        return "%0*d" % (CODE_DIGITS, self._randbelow(10 ** CODE_DIGITS))

    # --- what the rig does ---------------------------------------------------------------------
    def new_match(self):
        """A new match opens: a new code (the phones paired stay paired)."""
        with self._lock:
            self._code = self._draw()

    def revoke(self):
        """The guard's key: every phone is unpaired and a new code is drawn."""
        with self._lock:
            self._sessions.clear()
            self._code = self._draw()
            self._devices.clear()

    def view(self):
        """What the rig's screen shows (a :class:`~rig.core.phones.PhonesView`): the code,
        always (a lock-out holds one device, not the table)."""
        with self._lock:
            return PhonesView(self.url, self._code,
                              tuple(s.name for s in self._sessions.values()))

    def locked_out(self, device=None):
        """The seconds ``device`` stays locked out of pairing, or None."""
        with self._lock:
            return self._lock_left(device)

    def _lock_left(self, device):
        entry = self._devices.get(device)
        if entry is None or entry[1] is None:
            return None
        left = entry[1] - self._now()
        if left <= 0:
            del self._devices[device]
            return None
        return left

    def _wrong_code(self, device):
        """Count a wrong code from ``device``; the seconds it is now locked out for, or None."""
        entry = self._devices.pop(device, None) or [0, None]
        self._devices[device] = entry       # the newest last: the oldest is let go first
        if len(self._devices) > MAX_DEVICES:
            now = self._now()
            for other in [d for d, (_, until) in self._devices.items()
                          if until is None or until <= now][:len(self._devices) - MAX_DEVICES]:
                del self._devices[other]
            while len(self._devices) > MAX_DEVICES:
                del self._devices[next(iter(self._devices))]
        entry[0] += 1
        if entry[0] < MAX_WRONG_CODES:
            return None
        entry[0], entry[1] = 0, self._now() + LOCK_S
        return LOCK_S

    # --- what a phone does ---------------------------------------------------------------------
    def pair(self, code, name, device=None):
        """Pair a phone that sent ``code`` and ``name`` from ``device`` (its address,
        :func:`rig.web.gate.client_key`); returns its :class:`Session`.  Raises RequestError:
        400 for a malformed code or name, 429 while that device is locked out, 403 for a wrong
        code (the fifth in a row locks that device out), 409 for a seat another phone holds
        (one seat, one phone: a name that is the same name as a paired phone's, or names the
        same player, :func:`rig.core.names.seat_key`) or a table full of phones."""
        if not isinstance(code, str) or len(code) != CODE_DIGITS or not code.isascii() \
                or not code.isdigit():
            raise RequestError(Msg("rig.web.not_a_code", value=quoted(code), n=CODE_DIGITS))
        name = check_phone_name(name)
        with self._lock:
            left = self._lock_left(device)
            if left is not None:
                raise RequestError(Msg("rig.web.pairing_locked", seconds=math.ceil(left),
                                       n=MAX_WRONG_CODES), 429)
            if not secrets.compare_digest(code, self._code):
                if self._wrong_code(device) is not None:
                    raise RequestError(Msg("rig.web.wrong_code_locks", n=MAX_WRONG_CODES,
                                           seconds=LOCK_S), 429)
                raise RequestError(Msg("rig.web.wrong_code", wrong=self._devices[device][0],
                                       n=MAX_WRONG_CODES, seconds=LOCK_S), 403)
            seat = seat_key(name)
            for held in self._sessions.values():
                if seat_key(held.name) == seat:      # one seat, one phone
                    raise RequestError(Msg("rig.web.seat_taken", name=name,
                                           holder=held.name), 409)
            if len(self._sessions) >= self.max_phones:
                raise RequestError(Msg("rig.web.phones_full", n=self.max_phones), 409)
            self._devices.pop(device, None)
            session = Session(self._token(SESSION_BYTES), name)
            self._sessions[session.token] = session
            return session

    def session(self, token):
        """The paired phone whose cookie holds ``token``, or None."""
        if not token:
            return None
        with self._lock:
            return self._sessions.get(token)

    def unpair(self, token):
        """A phone unpairs itself; True when it was paired."""
        with self._lock:
            return self._sessions.pop(token, None) is not None


def told_bound(pairing, bound, port):
    """The addresses served changed (the server's thread): the screen's QR code and the log
    name the best one now (``port`` the configured one, while none is served)."""
    url = best_url([address for address, _ in bound], bound[0][1] if bound else port)
    if url != pairing.url:
        pairing.url = url
        log.info("Phones: open %s at the table (the pairing code is on the rig's screen).", url)
