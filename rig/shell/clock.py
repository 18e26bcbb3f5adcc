"""The only place in the rig that reads the real clock.

Every shell component takes a clock object with this interface, so the simulator can hand it a
virtual clock (``sim.clock.VirtualClock``) and tests advance time instead of sleeping:

* ``now()`` -> seconds (monotonic);
* ``condition()`` -> a :class:`threading.Condition` for a waiting queue;
* ``wait(cond, ready, until_s, stop)`` -> block (holding ``cond``) until ``ready()`` is true,
  the clock reaches ``until_s`` (None: no deadline) or ``stop`` is set; never longer than
  ``MAX_WAIT_S`` of real time per call, so every blocking wait is finite;
* ``sleep(seconds, stop)`` -> True if ``stop`` was set;
* ``wake()`` -> every ``sleep`` and ``wait`` looks at its ``stop`` again now (called right
  after a stop event is set; a no-op here, where ``sleep`` waits on the event itself);
* ``spin_s`` (optional; 0 when absent) and ``spin_until(t, interrupted)`` -> a deadline that
  must be met to the microsecond (a timed turn's end) is waited for until ``spin_s`` before it,
  and the rest is finished on the clock itself (:meth:`MonotonicClock.spin_until`); a virtual
  clock has no such thing and waits as for any deadline;
* ``register()`` / ``unregister()`` -> a worker thread announces itself (used by the virtual
  clock to know when the rig is idle; no-ops here);
* ``timebase`` (optional) -> the system clock ``now()`` reads, so that times other code took on
  that clock (the kernel's edge timestamps under lgpio) are used as they are
  (:func:`rig.table.pins.check_edge_clock`).
"""

import threading
import time

MAX_WAIT_S = 0.25
#: How early the rig's thread wakes for a timed turn's end, to finish the wait on
#: :func:`time.monotonic` (issue 27): a bare ``Condition.wait`` wakes 100-300 µs late on a
#: 2-core machine (the kernel's timer slack, the thread's wake-up, the interpreter lock); after
#: a spin of at most this long a turn's end is on time.  Its cost: at most 0.5 ms of one core
#: per timed turn's end.
SPIN_S = 0.0005


class MonotonicClock:
    """Real time from :func:`time.monotonic`, which is CLOCK_MONOTONIC on Linux: the clock the
    kernel stamps GPIO edge events with."""

    timebase = "CLOCK_MONOTONIC"

    def now(self):
        return time.monotonic()

    def condition(self):
        return threading.Condition()

    def wait(self, cond, ready, until_s, stop):
        """Called with ``cond`` held.  Returns when ready, due or stopped, or after MAX_WAIT_S."""
        if ready() or stop.is_set():
            return
        timeout = MAX_WAIT_S
        if until_s is not None:
            timeout = min(timeout, until_s - time.monotonic())
            if timeout <= 0:
                return
        cond.wait(timeout)

    def sleep(self, seconds, stop):
        return stop.wait(max(0.0, seconds))

    spin_s = SPIN_S

    def spin_until(self, t, interrupted):
        """Busy-wait until the clock reads ``t``, or until ``interrupted()`` is true (checked
        between readings), and never longer than :attr:`spin_s`; returns the clock's reading
        then.  The interpreter lock is held as any running thread holds it: another thread of
        the process still gets it every switch interval."""
        monotonic = time.monotonic
        now = monotonic()
        end = min(t, now + self.spin_s)
        while now < end and not interrupted():
            now = monotonic()
        return now

    def wake(self):
        pass

    def register(self):
        pass

    def unregister(self):
        pass
