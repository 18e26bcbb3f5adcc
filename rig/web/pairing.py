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
  table sees is not enough to read or act as Ana).  It is free again once that phone unpairs (its "Leave"),
  the screen's key unpairs that one seat, or the guard's key unpairs every phone.  The same
  device pairing again at its own seat (a lost cookie) takes it back: the old session ends
  (not on the loopback address, which a laptop's browsers share).
* A paired phone moves to another seat without the code (:meth:`Pairing.seat`, ``POST
  /api/seat``): after a game switch its player may not play on.
* The code may be typed as the screen shows it, with its space ("980 219").
* With a ``store`` (a file in the recordings folder) the sessions outlive a restart: the file
  holds each token's SHA-256, never the token, and each session lasts :data:`NIGHT_S` from its
  pairing (the end of the night), then it expires (docs/games/phones.md).
* The table's host (issue 31): one paired phone at most, made host at the screen's keys
  (:meth:`Pairing.make_host`); it alone reads the audits and opens service mode.  Kept in the
  store with the sessions (its session's key), it ends with its session: the phone leaving,
  unpaired from the screen, every phone unpaired, its pairing expired, or a lost cookie
  paired again (a new session: the table makes it host again).

Thread-safe (the web server's thread pairs, the referee thread reads :meth:`Pairing.view` for
the screen); every method holds the lock for a few dictionary operations only, never for I/O,
so the referee never waits on a phone.  Time and randomness are injected (``now`` in seconds,
``randbelow``, ``token``): the tests lock it out and let it go without sleeping.
"""

import hashlib
import json
import logging
import math
import os
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
NIGHT_S = 12 * 3600.0       # a pairing lasts the night: this long after it was made


@dataclass(frozen=True)
class Session:
    """A paired phone: its token (the cookie's value; None for one read back from the store,
    which keeps only its hash) and its name; ``device`` the address it paired from, ``until``
    the wall-clock time its pairing expires (None: never)."""
    token: object
    name: str
    device: object = None
    until: object = None


def token_key(token):
    """What the rig keeps of a session's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def plain_code(code):
    """A pairing code as typed: its spaces taken out ("980 219" -> "980219"); anything else
    as it is."""
    return "".join(code.split(" ")) if isinstance(code, str) else code


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


#: Addresses that are no one device: a laptop's browsers (and the tests' client) share them.
SHARED_DEVICES = {None, "?", "testclient", "127.0.0.1", "::1"}


def own_device(device):
    """Whether ``device`` is one phone's own address (a lost cookie may take its seat back)."""
    return device not in SHARED_DEVICES


class Pairing:
    """The pairing code, the lock-out and the sessions of the phones paired now."""

    def __init__(self, url="", *, now=time.monotonic, randbelow=secrets.randbelow,
                 token=secrets.token_urlsafe, max_phones=MAX_PHONES, store=None,
                 wall=time.time):
        self.url = url
        self._now = now
        self._randbelow = randbelow
        self._token = token
        self.max_phones = max_phones
        self._store = store
        self._wall = wall
        self.boot = secrets.token_hex(4)   # this run of the rig: a phone sees it restarted
        self._lock = threading.Lock()
        self._sessions = {}            # token_key(token) -> Session, in pairing order
        self._host = None              # the host phone's session key, or None
        self._devices = {}             # device -> [wrong codes in a row, locked until or None]
        self._code = self._draw()
        self._load()

    # --- the store: the sessions across a restart ---------------------------------------------
    def _load(self):
        if self._store is None:
            return
        try:
            with open(self._store, encoding="utf-8") as f:
                saved = json.load(f)
            entries = saved["phones"]
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("Phones: %s is unreadable (%s); every phone pairs again.", self._store,
                        exc)
            return
        now = self._wall()
        host = saved.get("host") if isinstance(saved, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            try:
                key, name, until = entry["key"], check_name(entry["name"]), float(entry["until"])
            except (KeyError, TypeError, ValueError, RulesError):
                continue
            if until > now and isinstance(key, str) and len(self._sessions) < self.max_phones:
                self._sessions[key] = Session(None, name, entry.get("device"), until)
        self._host = host if isinstance(host, str) and host in self._sessions else None

    def _save(self):
        """Write the sessions (the lock held: a small file, written once per pairing)."""
        if self._store is None:
            return
        entries = [{"key": key, "name": s.name, "device": s.device, "until": s.until}
                   for key, s in self._sessions.items()]
        tmp = "%s.tmp" % self._store
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"phones": entries, "host": self._host}, f)
            os.replace(tmp, self._store)
        except OSError as exc:
            log.warning("Phones: cannot keep the pairings in %s (%s); a restart unpairs "
                        "every phone.", self._store, exc)

    def _expire(self):
        now = self._wall()
        gone = [k for k, s in self._sessions.items() if s.until is not None and s.until <= now]
        for key in gone:
            del self._sessions[key]
        self._keep_host()
        return bool(gone)

    def _keep_host(self):
        """The host ends with its session (the lock held)."""
        if self._host is not None and self._host not in self._sessions:
            self._host = None

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
            self._host = None
            self._code = self._draw()
            self._devices.clear()
            self._save()

    def unpair_named(self, name):
        """The screen's key: unpair the phone paired as ``name`` (one seat; the others stay);
        whether there was one."""
        with self._lock:
            for key, session in list(self._sessions.items()):
                if session.name == name:
                    del self._sessions[key]
                    self._keep_host()
                    self._save()
                    return True
            return False

    def make_host(self, name):
        """The screen's key: the phone paired as ``name`` becomes the table's host (the one
        before it is host no more); ``name`` None: no phone is host.  Whether it was done (False:
        no phone is paired as ``name``)."""
        with self._lock:
            self._expire()
            if name is None:
                self._host = None
                self._save()
                return True
            for key, session in self._sessions.items():
                if session.name == name:
                    self._host = key
                    self._save()
                    return True
            return False

    def is_host(self, token):
        """Whether the phone whose cookie holds ``token`` is the table's host now."""
        if not token or not isinstance(token, str):
            return False
        key = token_key(token)
        with self._lock:
            session = self._sessions.get(key)
            return (session is not None and self._host == key
                    and (session.until is None or session.until > self._wall()))

    @property
    def host(self):
        """The host phone's name, or None."""
        with self._lock:
            self._expire()
            session = self._sessions.get(self._host) if self._host is not None else None
            return session.name if session is not None else None

    def view(self):
        """What the rig's screen shows (a :class:`~rig.core.phones.PhonesView`): the code,
        always (a lock-out holds one device, not the table)."""
        with self._lock:
            if self._expire():
                self._save()
            host = self._sessions.get(self._host) if self._host is not None else None
            return PhonesView(self.url, self._code,
                              tuple(s.name for s in self._sessions.values()),
                              host=host.name if host is not None else None)

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
        code = plain_code(code)
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
            self._expire()
            self._take_seat(name, device)
            if len(self._sessions) >= self.max_phones:
                raise RequestError(Msg("rig.web.phones_full", n=self.max_phones), 409)
            self._devices.pop(device, None)
            session = Session(self._token(SESSION_BYTES), name, device,
                              self._wall() + NIGHT_S)
            self._sessions[token_key(session.token)] = session
            self._save()
            return session

    def _take_seat(self, name, device, mine=None):
        """Make room at ``name``'s seat for a phone of ``device`` (``mine``: its own session's
        key): 409 when another device's phone holds it; the same device's older session (a
        lost cookie) is ended."""
        seat = seat_key(name)
        for key, held in list(self._sessions.items()):
            if key == mine or seat_key(held.name) != seat:
                continue
            if held.device == device and own_device(device) and mine is None:
                del self._sessions[key]             # the same phone, its cookie lost
                self._keep_host()
                continue
            raise RequestError(Msg("rig.web.seat_taken", name=name, holder=held.name), 409)

    def seat(self, token, name, device=None):
        """A paired phone takes the seat ``name`` names (or another name): the
        :class:`Session` it has now; 401 unpaired, 400 a malformed name, 409 a seat another
        phone holds."""
        name = check_phone_name(name)
        with self._lock:
            key = token_key(token) if token else None
            session = self._sessions.get(key) if key else None
            if session is None or (session.until is not None and session.until <= self._wall()):
                raise RequestError(Msg("rig.web.not_paired"), 401)
            self._take_seat(name, device, mine=key)
            session = Session(session.token or token, name, session.device, session.until)
            self._sessions[key] = session
            self._save()
            return session

    def session(self, token):
        """The paired phone whose cookie holds ``token``, or None."""
        if not token or not isinstance(token, str):
            return None
        with self._lock:
            session = self._sessions.get(token_key(token))
            if session is None:
                return None
            if session.until is not None and session.until <= self._wall():
                return None
            return session if session.token is not None else Session(
                token, session.name, session.device, session.until)

    def unpair(self, token):
        """A phone unpairs itself; True when it was paired."""
        if not token or not isinstance(token, str):
            return False
        with self._lock:
            gone = self._sessions.pop(token_key(token), None) is not None
            if gone:
                self._keep_host()
                self._save()
            return gone


def told_bound(pairing, bound, port):
    """The addresses served changed (the server's thread): the screen's QR code and the log
    name the best one now (``port`` the configured one, while none is served)."""
    url = best_url([address for address, _ in bound], bound[0][1] if bound else port)
    if url != pairing.url:
        pairing.url = url
        log.info("Phones: open %s at the table (the pairing code is on the rig's screen).", url)
