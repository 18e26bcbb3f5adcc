"""Virtual time for the rig: tests advance the clock instead of sleeping.

:class:`VirtualClock` implements the clock interface of :mod:`rig.shell.clock` with one shared
condition.  Every worker thread of the rig registers itself; :meth:`advance` moves time forward
one wake-up at a time and, after each step, waits (in bounded real time) until every registered
thread is blocked again with nothing to do.  So after ``clock.advance(0.5)`` returns, the rig has
done everything it would have done in those 500 ms, in the order it would have done it.
"""

import threading
import time

from rig.core.errors import RigError

REAL_WAIT_S = 0.25


class VirtualClock:
    """``settle_timeout_s`` bounds the real time one step may take to settle.  It is generous
    because a loaded machine (CI, ``pytest -n 2``) can starve a worker thread for seconds; a
    thread that is truly stuck still fails the test, only later."""

    def __init__(self, start_s=0.0, settle_timeout_s=20.0):
        self._now = float(start_s)
        lock = threading.RLock()
        self._cond = threading.Condition(lock)      # the workers wait on this one
        self._settled = threading.Condition(lock)   # settle() waits on this one
        self._registered = {}       # thread id -> Thread
        self._waiting = {}          # thread id -> (ready, until_s, stop)
        self._settlers = 0          # threads in settle(), to be told when a worker goes idle
        self.settle_timeout_s = settle_timeout_s

    # --- the clock interface ------------------------------------------------------------------
    def now(self):
        return self._now

    def ticks(self):
        return self._now

    def condition(self):
        return self._cond

    def wait(self, cond, ready, until_s, stop):
        assert cond is self._cond, "waits on a virtual clock must use clock.condition()"
        me = threading.get_ident()
        if self._due(ready, until_s, stop):
            return
        self._waiting[me] = (ready, until_s, stop)
        if self._settlers:
            # Tell settle() this worker is idle now: settle() alone, not the other idle workers,
            # who would wake for nothing and tell it again, each step costing workers squared.
            self._settled.notify_all()
        try:
            self._cond.wait(REAL_WAIT_S)
        finally:
            self._waiting.pop(me, None)

    def sleep(self, seconds, stop):
        until = self._now + max(0.0, seconds)
        with self._cond:
            while not stop.is_set() and self._now < until:
                self.wait(self._cond, lambda: False, until, stop)
        return stop.is_set()

    def register(self):
        with self._cond:
            self._registered[threading.get_ident()] = threading.current_thread()

    def unregister(self):
        with self._cond:
            self._registered.pop(threading.get_ident(), None)
            self._cond.notify_all()
            self._settled.notify_all()

    def wake(self):
        """Wake every waiting thread so it sees a stop event just set (a source stopping
        while its thread sleeps on this clock ends now, not after ``REAL_WAIT_S``)."""
        with self._cond:
            self._cond.notify_all()

    # --- driving time ---------------------------------------------------------------------------
    def _due(self, ready, until_s, stop):
        return ready() or stop.is_set() or (until_s is not None and self._now >= until_s)

    def _idle(self):
        """True when every registered thread waits with nothing due; a waiting thread whose
        wait is over but who has not woken yet (something it waits on changed without a
        notify, or the notify went to the other condition) is woken here."""
        idle = True
        for ident, thread in list(self._registered.items()):
            if not thread.is_alive():
                del self._registered[ident]
                continue
            entry = self._waiting.get(ident)
            if entry is None:
                idle = False
            elif self._due(*entry):
                self._cond.notify_all()
                return False
        return idle

    def settle(self):
        """Wait (bounded, real time) until every registered thread is idle at the current time."""
        deadline = time.monotonic() + self.settle_timeout_s
        with self._cond:
            self._cond.notify_all()
            self._settlers += 1
            try:
                while not self._idle():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise RigError(
                            "the simulated rig did not settle within %g s of real time; a worker "
                            "thread is stuck or busy" % self.settle_timeout_s)
                    self._settled.wait(min(left, REAL_WAIT_S))
            finally:
                self._settlers -= 1

    def advance(self, seconds):
        """Move virtual time forward by ``seconds``, stopping at every wake-up on the way."""
        if seconds < 0:
            raise ValueError("time only moves forward; got %r s" % (seconds,))
        target = self._now + seconds
        self.settle()
        while True:
            with self._cond:
                wakes = [until for ident, (_, until, _) in self._waiting.items()
                         if ident in self._registered and until is not None
                         and self._now < until <= target]
                step = min(wakes) if wakes else target
                self._now = step
                self._cond.notify_all()
            self.settle()
            if step >= target:
                return

    def advance_to(self, t_s):
        self.advance(max(0.0, t_s - self._now))
