"""Threads the rig owns: each has a stop event and is joined within a bound, never forever."""

import logging

log = logging.getLogger(__name__)


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
