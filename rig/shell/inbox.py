"""The referee thread's inbox: timestamped items from any thread, taken in order.

Producers (gpiozero's pin callbacks, the hand-sensor poller, the relic hub's reader, the guard's
controls) only stamp and put; the referee thread takes everything that arrived in one batch.
Every wait is bounded by the clock's ``MAX_WAIT_S`` (see :mod:`rig.shell.clock`).

A relic's tilt is coalesced: a tilt reading still waiting when a newer one of the same relic
arrives is dropped, and the newer one takes its place at the end, so a hub that sends faster
than the referee records leaves at most one tilt per relic waiting.  Nothing else is coalesced or
reordered: a fall (its 1 and its 0) is never lost, motion changes keep their order relative to
falls, and a contact waits behind at most those few relic items, never behind a backlog (the hub
link itself rate-limits what it passes on: :class:`rig.table.hub.FloodGuard`).
"""

import enum
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional

from ..table.names import RELICS, Aspect, relic

_COALESCED = frozenset(relic(n, Aspect.TILT) for n in RELICS)


@dataclass(frozen=True)
class Reading:
    """An input took a new value at ``t_abs`` (seconds on the rig's clock)."""
    t_abs: float
    name: str
    value: float


@dataclass(frozen=True)
class Order:
    """A command from the guard's controls (its ``t`` is replaced by the stamp).  ``reply``
    (optional) is called on the referee thread with the :class:`Answer`: how a phone hears
    whether the rules took its command."""
    t_abs: float
    command: Any
    reply: Optional[Callable[["Answer"], None]] = None


@dataclass(frozen=True)
class Answer:
    """The referee's answer to an :class:`Order`: taken, or refused with ``reason`` (the words
    the screen shows); ``board`` the host's snapshot of the screen right after it."""
    accepted: bool
    reason: Optional[str] = None
    board: Any = None


@dataclass(frozen=True)
class FaultReport:
    """A device's fault (the hand sensor, the relic hub) began or cleared."""
    t_abs: float
    source: str
    message: str
    active: bool


@dataclass(frozen=True)
class DeviceNote:
    """A device of the table changed in a way the audits count but no one is shown: the hand
    sensor re-initialised (``state`` ``reinit``; docs/audits31.md)."""
    t_abs: float
    device: str
    state: str


@dataclass(frozen=True)
class Seed:
    """The pins as they read now, recorded where they differ from what the referee believes."""
    t_abs: float
    values: Dict[str, float]


class Stop(enum.Enum):
    STOP = "stop"


STOP = Stop.STOP


class Stage(enum.StrEnum):
    """Where an item is, for an optional tracer (the benchmark's profile)."""
    QUEUED = "queued"        # put on the inbox (the producer's thread)
    TAKEN = "taken"          # taken by the referee thread
    RECORDED = "recorded"    # its line written and flushed
    FED = "fed"              # the referee has decided
    DONE = "done"            # its effects performed


class Inbox:
    """Items for the referee thread.  ``trace(stage, item)`` (optional) sees each one queued.
    ``coalesced`` counts the tilt readings a newer one replaced before the referee took them."""

    def __init__(self, clock, trace=None):
        self.clock = clock
        self.cond = clock.condition()
        self._items = OrderedDict()   # arrival number -> item, in arrival order
        self._arrivals = 0
        self._waiting_tilt = {}       # a relic's tilt input -> the arrival number of its reading
        self.coalesced = 0
        self._trace = trace

    def put(self, item):
        if self._trace is not None:
            self._trace(Stage.QUEUED, item)
        with self.cond:
            number = self._arrivals
            self._arrivals += 1
            if type(item) is Reading and item.name in _COALESCED:
                older = self._waiting_tilt.get(item.name)
                if older is not None:
                    del self._items[older]
                    self.coalesced += 1
                self._waiting_tilt[item.name] = number
            self._items[number] = item
            self.cond.notify_all()

    def take(self, until_abs, stop):
        """Wait until something arrived, the clock reaches ``until_abs`` (None: no deadline) or
        ``stop`` is set, never longer than the clock's bound; returns what arrived, in order."""
        items = self._items
        with self.cond:
            self.clock.wait(self.cond, lambda: bool(items), until_abs, stop)
            batch = list(items.values())
            items.clear()
            self._waiting_tilt.clear()
        return batch

    def wake(self):
        with self.cond:
            self.cond.notify_all()

    def __len__(self):
        return len(self._items)
