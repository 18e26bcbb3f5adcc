"""The rig's one exception tree.

Every message names the offending value, what is allowed, and how to fix it, so a builder at a
game night can act on it without reading the code.  Callers catch :class:`RigError` to handle
anything the rig raises on purpose.  Every error is also the built-in type it means (as
gpiozero's ``exc.py`` does), so code that knows nothing of the rig still handles it: a bad value
is a :class:`ValueError`, a device that fails is an :class:`OSError`.

The tree::

    RigError
    +-- RulesError (ValueError)        a value or a choice the rulebook does not allow
    |   +-- LevelError, InvalidChoice, LootError, IllegalMove
    +-- ConfigError (ValueError)       a config or pin-map file that cannot be used
    +-- RecordingError (ValueError)    a recording line that is not valid
    +-- RequestError (ValueError)      a phone's request the web face refuses (its HTTP status)
    +-- PayloadError (ValueError)      a tournament message from the broker that is not valid
    +-- HardwareError (OSError)        a device that cannot be opened or read
    |   +-- SensorError, HubError
    +-- DisplayError (RuntimeError)    the score display could not be opened or drawn

:class:`rig.table.protocol.ProtocolError` (a relic-hub frame that cannot be decoded) is defined in
the protocol module itself, which the Pico runs too: one class statement, a ``ValueError`` on
both ends and a :class:`RigError` on the Pi.

Every message is one line, whatever text it quotes: a line break or control character from a
file (a name holding U+2028, a TOML key holding a newline) is shown escaped, as Python writes
it, so ``cleptomano: FILE:LINE: what is wrong`` stays one line on a terminal and in the log.
"""

from .msg import Msg
from .text import one_line


class RigError(Exception):
    """Base of every error the rig raises on purpose; its message is always one line.

    An error a player may read (a refused move, a refused request from a phone) is raised with a
    :class:`rig.core.msg.Msg`, a code and its parameters, not a sentence: ``msg`` holds it and the
    faces say it in each reader's language (:func:`rig.words.Words.error`).  ``str()`` of such an
    error is the message's language-neutral form (the code and its parameters), as a log keeps it.
    """

    def __init__(self, *args):
        super().__init__(*args)
        first = args[0] if args else None
        self.msg = first if isinstance(first, Msg) else None

    def __str__(self):
        return one_line(super().__str__())


# --- The rules -------------------------------------------------------------------------------

class RulesError(RigError, ValueError):
    """A value or a choice that the rulebook does not allow."""


class LevelError(RulesError):
    """A difficulty level outside the rulebook's ranges (time limit, lasers, corridor)."""


class InvalidChoice(RulesError):
    """A choice at the rig's controls that the rules forbid (unknown player, wrong turn...).

    The match state is never changed by a rejected choice.
    """


class LootError(RulesError):
    """A haul confirmation that cannot be applied (no turn awaits one, negative counts...)."""


class IllegalMove(RulesError):
    """A move in one of the rig's other games that its rulebook forbids (the state is never
    changed by a refused move)."""


# --- Input files ------------------------------------------------------------------------------

class ConfigError(RigError, ValueError):
    """A configuration or pin-map file that cannot be used.

    Carries the file and the key so the message can point at the exact line to fix.
    """

    def __init__(self, message, *, path=None, key=None):
        self.path = path
        self.key = key
        where = ""
        if path is not None and key is not None:
            where = "%s: %s: " % (path, key)
        elif path is not None:
            where = "%s: " % (path,)
        elif key is not None:
            where = "%s: " % (key,)
        self.where = where
        super().__init__(where + str(message))
        self.detail = one_line(str(message))
        # A game's own check refusing a setting: its code, said by the terminal in English.
        self.msg = message if isinstance(message, Msg) else None


class RecordingError(RigError, ValueError):
    """A recording line that is not valid; names FILE:LINE and what is wrong."""

    def __init__(self, message, *, path=None, line=None):
        self.path = path
        self.line = line
        self.detail = one_line(str(message))
        where = ""
        if path is not None and line is not None:
            where = "%s:%d: " % (path, line)
        elif path is not None:
            where = "%s: " % (path,)
        elif line is not None:
            where = "line %d: " % (line,)
        self.where = where
        super().__init__(where + str(message))
        # A move the rules refused, found in a recording: its code, said by the terminal.
        self.msg = message if isinstance(message, Msg) else None


class RequestError(RigError, ValueError):
    """A request to the rig's web face that it refuses: a malformed body, a wrong pairing
    code, no paired session, a foreign origin.  ``status`` is the HTTP status that says so
    (400 malformed, 401 not paired, 403 foreign origin, 409 refused, 413 too big, 429 locked
    out); the message says what was wrong and what to send instead."""

    def __init__(self, message, status=400):
        super().__init__(message)
        self.status = status
        self.detail = one_line(str(message))


class PayloadError(RigError, ValueError):
    """A message from the tournament's MQTT broker that is not one of the contract's
    (:mod:`rig.games.cleptomano.rules.tournament`): the leaderboard logs it, skips it and goes on."""


# --- Hardware and links -----------------------------------------------------------------------

class HardwareError(RigError, OSError):
    """A device that cannot be opened or read."""


class SensorError(HardwareError):
    """The hand sensor (VL53L0X) failed or stopped answering."""


class HubError(HardwareError):
    """The relic hub's serial link failed."""


class DisplayError(RigError, RuntimeError):
    """The score display could not be opened or drawn."""
