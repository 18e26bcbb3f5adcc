"""The shared effects: the closed set of things a game may ask the host to make happen.

A game's rules return effects of their own (Cleptómano's ``TurnEnded``, Stop Thief!'s clues...):
what happened, as data.  The host knows none of them.  A game turns its own effects into these
(:meth:`rig.core.contract.Game.table_effects`), and the host performs these and nothing else,
in the order given:

* :class:`Buzz` — the table's buzzer plays a pattern (a name), or stops (``pattern`` None);
* :class:`Lamp` — a status lamp (``"ready"``, ``"turn"``, ``"fault"``) on or off;
* :class:`Sound` — the screen's speakers play a named sound (a face's sound kit);
* :class:`Say` — a line for the log and the phones' list of calls (a code, said by each face in
  its reader's language);
* :class:`Banner` — a big moment on the screen for ``seconds``, queued behind the one shown
  (:mod:`rig.core.banner_queue`), or ``cut``: the banner queue gives way (a new turn starts);
* :class:`Message` — a short message on the screen for a few seconds (a refusal, a last call);
* :class:`Fault` — a fault (a stuck contact, a device, the recording) shown until cleared;
* :class:`Sync` — the recording is made durable now (a turn boundary, a penalty);
* :class:`NextGame` — this game is closed and the next one opens at ``t`` (a new recording).

Each is a frozen value carrying ``t`` (seconds since the game began).  Pure: stdlib only.
"""

from dataclasses import dataclass
from typing import Any, Optional

from .severity import INFO


@dataclass(frozen=True)
class Buzz:
    """The buzzer plays ``pattern`` (a name the table's buzzer knows: ``touch``, ``caught``,
    ``escaped``, ``refused``; an unknown one plays as ``touch``), or stops at once when
    ``pattern`` is None.  ``source`` the input whose touch the buzz answers ("" for none): the
    table's reflex may already have sounded it on the edge's arrival, and then it does not
    sound twice."""
    t: float
    pattern: Optional[str] = None
    source: str = ""


@dataclass(frozen=True)
class Lamp:
    """A status lamp (``ready``, ``turn``, ``fault``) on or off."""
    t: float
    name: str
    on: bool


@dataclass(frozen=True)
class Sound:
    """An effect: play the named sound (one of :data:`rig.display.sounds.SOUNDS`)."""
    t: float
    name: str


@dataclass(frozen=True)
class Say:
    """A line for the log and the phones' calls: ``text`` a code (:class:`rig.core.msg.Msg`),
    ``severity`` :data:`rig.core.severity.INFO` or ``WARNING``.  The host says a step's lines
    after what the table feels and sees (a turn's end buzz never waits for its line)."""
    t: float
    text: Any
    severity: str = INFO


@dataclass(frozen=True)
class Banner:
    """A big moment on the screen: ``shown`` (the game's banner value, which its screen
    draws) for ``seconds``, about the moment ``key`` (a newer banner about the same moment
    replaces it; one saying nothing new is not shown again).  ``cut``: no banner, the queue
    gives way instead (the one shown leaves, those waiting are dropped)."""
    t: float
    shown: Any = None
    key: Any = None
    seconds: float = 0.0
    cut: bool = False


@dataclass(frozen=True)
class Message:
    """``text`` (a code) on the screen for the host's ``MESSAGE_S``."""
    t: float
    text: Any


@dataclass(frozen=True)
class Fault:
    """A fault of ``source`` (``laser.4``, ``hub``, ``recording``...) begins (``active``) or
    clears: ``text`` what the screen shows while it lasts, ``said`` the log's line for the
    change (said only when the screen's list of faults changes)."""
    t: float
    source: str
    text: Any
    active: bool
    said: Optional[Say] = None


@dataclass(frozen=True)
class Sync:
    """Make the recording durable (fsync) now."""
    t: float


@dataclass(frozen=True)
class NextGame:
    """This game is over and the next opens at ``t``: the host closes the recording and opens
    the next.  ``setup`` the game's own value saying how (None: as the last one); ``pressed``
    the inputs the next game's first lines hold beyond the table's state (the start press that
    opened it)."""
    t: float
    setup: Any = None
    pressed: Any = None


#: Every shared effect: the host performs these and nothing else.
SHARED = (Buzz, Lamp, Sound, Say, Banner, Message, Fault, Sync, NextGame)
