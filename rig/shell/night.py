"""The game night: one ``cleptomano run`` that plays game after game, as the phones choose.

Each game on the rig is a *leg*: it runs until its own stop event is set.  A phone's choice
(:meth:`Night.choose`, the web server's thread) ends the leg and leaves the next game for the
main thread (:meth:`Night.take`), which stops the game cleanly and starts the next one.  A
signal (:meth:`Night.stop_all`) ends the leg and the night at once, whenever it comes: a leg
begun after it is over before it starts.
"""

import logging
import threading

from ..core.errors import RequestError
from ..core.msg import Msg

log = logging.getLogger("cleptomano")


class Night:
    """The night's stop, the leg running now and the game chosen next.  ``config`` is the
    rig's (the games' settings, for checking a choice's players); ``notifier`` tells systemd
    (:class:`rig.shell.systemd.Notifier`; None: nobody); ``until`` the monotonic time
    ``--duration-s`` ends the whole night at (None: never); ``phones`` the night's web server
    (a :class:`rig.web.night.Switchboard`, set once it serves; None: no phones)."""

    def __init__(self, config=None, notifier=None, until=None):
        self.config = config
        self.notifier = notifier
        self.until = until
        self.phones = None
        self.table = None           # the evening's choices (rig.shell.table_state.TableMemory)
        self.health = None          # the sensor health (rig.shell.audits.HealthWatch)
        self.legs = 0               # the games begun so far
        self.stopped = threading.Event()
        self._signalled = False     # set in the signal handler itself (no lock): signalled()
        self._lock = threading.Lock()
        self._leg = threading.Event()
        self._next = None           # (Choice, the phone that chose it)

    def leg(self):
        """A new leg's stop event (already set when the night is stopping)."""
        with self._lock:
            self._leg = threading.Event()
            self._next = None
            self.legs += 1
            if self.stopping():
                self._leg.set()
            return self._leg

    def signalled(self):
        """In the signal handler, before :meth:`stop_all` runs on its own thread: a plain flag
        (no lock, as a handler needs), so a leg the main thread begins next is over before it
        starts however late that thread runs."""
        self._signalled = True

    def stopping(self):
        """Whether the night is stopping (a signal came, or :meth:`stop_all` ran)."""
        return self._signalled or self.stopped.is_set()

    def stop_all(self):
        """SIGINT or SIGTERM: the leg and the night end (any thread, a signal handler)."""
        self.stopped.set()
        self._leg.set()

    def choose(self, choice, by):
        """A paired phone named ``by`` chose the next game: the leg ends.  RequestError (409)
        when another choice is already switching the rig."""
        with self._lock:
            if self._next is not None:
                raise RequestError(Msg("rig.night.already_chosen", by=self._next[1],
                                       game=_title(self._next[0].game)), 409)
            if self.stopped.is_set():
                raise RequestError(Msg("rig.night.stopping"), 409)
            self._next = (choice, by)
            self._leg.set()

    def switching(self, status):
        """Between two games: systemd's watchdog is fed once by hand (no game runs for it to
        check; the switch is bounded: a game stops within 3 s, starts within 5 s, a display
        opens within 10 s), its status says what comes, and the next game gets a new pairing
        code (the phones paired stay paired)."""
        log.info("Game night: %s", status)
        if self.notifier is not None:
            self.notifier.watchdog_ping()
            self.notifier.status(status)
        if self.phones is not None:
            self.phones.pairing.new_match()

    def take(self):
        """The main thread, once the leg is over: ``(choice, by)`` to play next, or None
        when the night ends (stopped, or nobody chose)."""
        with self._lock:
            return None if self.stopping() else self._next


def _title(name):
    """The game named ``name`` as its players read it (its title in their language)."""
    from ..core.errors import ConfigError
    from ..games import game, title_words
    try:
        return title_words(game(name))
    except ConfigError:         # a name the registry does not have: as it is
        return name
