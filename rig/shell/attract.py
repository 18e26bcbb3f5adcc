"""The attract screen on a running rig: the host's part of it (issue 31).

:class:`AttractWatch` is what a host (:class:`rig.shell.host.Host`) keeps: it is told of every
item the host takes (:meth:`AttractWatch.took`: a touch, a command, a phone's :class:`Wake`) and
of each frame (:meth:`AttractWatch.frame`); the decision itself is :mod:`rig.core.attract`'s,
on the host's clock.  When the screen is to show it, or to stop, the faces that have one are
told through ``attract(view)`` (the rig's screen: :mod:`rig.display.window`; None: it ends).

What it shows is read once in a while on a thread of its own, never on the host's: each
registered game's title and how-to-play (its ``howto``: codes of its catalog) and the last
night's standings, from the recordings as ``cleptomano history`` reads them (each game's
``outcome``: who won).
"""

import logging
import threading

from ..core import attract as core
from ..core.attract import Wake
from ..core.errors import RigError
from ..table.names import Aspect

log = logging.getLogger(__name__)

#: The most how-to-play lines a game shows.
HOWTO_LINES = 4
#: The newest recordings read for the last night's standings (a night is a few dozen).
NEWEST = 60


def game_cards():
    """``(title, lines)`` of every registered game: its title (a code where it has one) and its
    how-to-play (its ``howto`` codes, at most :data:`HOWTO_LINES`)."""
    from ..core.msg import Msg
    from ..games import games, title_words
    return tuple((title_words(g), tuple(Msg(code) for code in
                                        tuple(getattr(g, "howto", ()))[:HOWTO_LINES]))
                 for g in games())


def last_night(directory, newest=NEWEST):
    """``(day, rows)``: the newest day the recordings in ``directory`` hold and its standings
    (:func:`rig.core.attract.tally` of every game's outcome that day); ``(None, ())`` without
    any.  A recording that cannot be read is left out."""
    from ..core.errors import RecordingError
    from .audits import recordings
    from .storage import replay_file
    found = [r for r in recordings(directory, newest=newest) if r[2] is not None]
    if not found:
        return None, ()
    day = found[-1][2]
    outcomes = []
    for path, game, when, _ in found:
        if when != day:
            continue
        try:
            outcomes.append(game.outcome(replay_file(path)))
        except (RecordingError, OSError, ValueError) as exc:
            log.info("attract screen: %s left out of the standings (%s)", path.name, exc)
    return day, core.tally(outcomes)


class AttractWatch:
    """The attract screen of one host: ``idle_s`` (``[table] attract_after_s``; 0: never),
    ``recordings`` the folder the standings are read from (None: no standings), ``phones`` a
    callable giving the phones' view now (None: no join card)."""

    def __init__(self, idle_s=core.IDLE_S[0], recordings=None, phones=None, now=0.0):
        self.idle = core.Idle(core.check_idle_s(idle_s), last=now)
        self.recordings = recordings
        self.phones = phones
        self.shown = None               # the AttractView the faces were told of
        self._games = None
        self._night = (None, ())
        self._reading = None
        self._lock = threading.Lock()

    # --- what the host tells it ---------------------------------------------------------------
    def took(self, item, now):
        """The host took ``item`` (off its inbox) at ``now``: a touch, a key's or a phone's
        command wakes the screen.  True when the item was the screen's :class:`Wake` (nothing
        else to do with it)."""
        command = getattr(item, "command", None)
        if command is not None:
            self.idle = core.seen(self.idle, now)
            return type(command) is Wake
        name = getattr(item, "name", None)
        if isinstance(name, str) and not name.endswith("." + Aspect.TILT):
            # a contact, a seat, a stand, the hand sensor, a relic moved: someone is there (a
            # relic's tilt alone drifts with the table's vibration: not a touch)
            self.idle = core.seen(self.idle, now)
        return False

    def frame(self, display, snapshot, now, language="en"):
        """At each frame: judge the idle time, and tell ``display`` (its ``attract``, if it has
        one) when the attract screen starts or stops."""
        self.idle = core.judge(self.idle, now, core.busy(snapshot))
        if self.idle.shown:
            if self.shown is None:
                self._read_soon()
            wanted = self._view(language)
        else:
            wanted = None
        if wanted != self.shown:
            if (wanted is None) != (self.shown is None):
                log.info("attract screen %s", "shown: nobody played for %d s"
                         % self.idle.idle_s if wanted is not None else "woken")
            self.shown = wanted
            tell = getattr(display, "attract", None)
            if tell is not None:
                tell(wanted)
        return wanted

    # --- what it shows ------------------------------------------------------------------------
    def _view(self, language):
        phones = self.phones() if self.phones is not None else None
        with self._lock:
            games, (day, rows) = self._games, self._night
        if games is None:
            games = game_cards()
            self._games = games
        return core.view(core.cards(games, rows, day, phones), phones, language)

    def _read_soon(self):
        """Read the last night's standings on a thread (one at a time)."""
        if self.recordings is None:
            return
        if self._reading is not None and self._reading.is_alive():
            return
        self._reading = threading.Thread(target=self.read_now, name="attract-standings",
                                         daemon=True)
        self._reading.start()

    def read_now(self):
        """Read the standings now, on this thread (tests; the thread's body)."""
        try:
            night = last_night(self.recordings)
        except (OSError, RigError) as exc:
            log.warning("attract screen: the standings were not read (%s)", exc)
            return
        with self._lock:
            self._night = night

    def join(self, timeout_s=10.0):
        if self._reading is not None:
            self._reading.join(timeout_s)
