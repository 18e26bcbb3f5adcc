"""Threads the rig owns: each has a stop event and is joined within a bound, never forever."""

import logging
import sys
import threading

log = logging.getLogger(__name__)

#: The rig's process hands the interpreter lock on after at most this long (the interpreter's
#: own default is 5 ms).  A thread that lets go of the lock for a moment and takes it straight
#: back (the phones' server writing to ten sockets, the display's link) keeps the referee's
#: touch waiting until the interval runs out.  Measured under load (README "Performance"):
#: the touch's p90 761 µs at 5 ms, 405 µs at 0.2 ms; nothing while the threads sleep.
SWITCH_INTERVAL_S = 0.0002


def hand_on_promptly(interval_s=SWITCH_INTERVAL_S):
    """Set the process's GIL switch interval to ``interval_s`` (the rig's process: ``cleptomano
    run`` does it before any game starts)."""
    sys.setswitchinterval(interval_s)


def stop_and_join(stop_event, thread, timeout_s, what):
    """Set ``stop_event`` and wait at most ``timeout_s`` for ``thread`` (None: nothing runs).

    Returns True when the thread has ended; otherwise logs that ``what`` is still running (a
    read hanging in a driver, say) and returns False, so the caller never blocks for good.
    """
    stop_event.set()
    if thread is None:
        return True
    thread.join(timeout_s)
    if thread.is_alive():
        log.warning("%s did not stop within %.2f s", what, timeout_s)
        return False
    return True


def is_running(thread):
    return thread is not None and thread.is_alive()


def start_on_clock(clock, target, name, timeout_s=5.0):
    """Run ``target`` in a daemon thread named ``name`` that registers with ``clock`` (a
    virtual clock then waits for it to be idle before time moves on).  An exception ends the
    thread with a log line, never silently; returns the thread once it has begun."""
    started = threading.Event()

    def run():
        clock.register()
        started.set()
        try:
            target()
        except Exception:
            log.exception("the %s thread failed", name)
        finally:
            clock.unregister()

    thread = threading.Thread(target=run, name=name, daemon=True)
    thread.start()
    started.wait(timeout_s)
    return thread
