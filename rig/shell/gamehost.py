"""The game host as it was first built: :func:`GameHost`, the constructor of a companion game's
host, kept for the simulator, the tests and the games installed beside the rig that name it.

There is one host class, :class:`rig.shell.host.Host`, for every game; a game that reads none of
the table's inputs is played on it at human pace:

* commands arrive on an :class:`~rig.shell.inbox.Inbox` from any thread (the keys through the
  display, the phones), stamped with the host's clock; the game's own rules decide;
* every accepted command is written to the recording, flushed and fsynced **before** the host
  acts on it (:class:`~rig.shell.session.RecordingSession`, the same writer Cleptómano's
  recordings use); the header holds the seed, drawn from :mod:`secrets`.  A disk that refuses
  the line refuses the command (:data:`~rig.shell.host.FULL_DISK`): nothing is acted on that
  the recording does not hold, and the command given again once there is space is taken;
* a game cut off by a crash is taken up again at the next start (``resume``): the newest
  recording of the game, when it had no clean end (no end line, or its open marker left
  beside it, :func:`rig.shell.session.cut_off`) and its game is not over, is replayed through
  the game's own ``step`` (a torn last line cut first), appended to, and the game's clock goes
  on from its last line's ``t``: nothing elapses while the rig is down;
* a refused command changes nothing: its reason goes on the screen and into the log;
* the museum's start button, when the game has one (``button``), gives the game's primary
  command: its pin callback only puts the stamped edge on the inbox (``button_edge``); the
  host's thread debounces the edges on their stamps as a match does
  (:class:`~rig.table.debounce.StartButton`) and submits the command when a press is certain;
* a timer the game has (Stolen Paintings' exhibition) is stepped as a ``Tick`` when the clock
  reaches it; Ticks are not recorded, since a replay ends the countdown at its deadline too;
* the display gets a :class:`~rig.core.gamekit.GameScreen` after every change and a few
  times a second (a countdown moves); the sounds a step calls for travel in it, numbered.
"""

from .host import GAME_DISPLAY_PERIOD_S as DISPLAY_PERIOD_S, Host  # noqa: F401 (old home)

MESSAGE_S = 6.0


def GameHost(game, players, *, clock, session, settings=None, display=None, seed=None,
             key_help=(), phones=None, button=None, detect=None, resume=True, language="en"):
    """The :class:`~rig.shell.host.Host` of ``game`` (a game of :mod:`rig.games`) for
    ``players``, with ``settings`` its config table (None: every default) and the rest as
    :class:`~rig.shell.host.Host` takes them."""
    return Host(game, players, clock=clock, session=session, settings=settings,
                display=display, seed=seed, key_help=key_help, phones=phones, button=button,
                detect=detect, resume=resume, language=language)
