"""A stand-in for the ``lgpio`` module (lg 0.2.2), so gpiozero's real LGPIOFactory runs off a Pi.

Only the layer under the Python API is simulated: the kernel's GPIO character device (lines that
are claimed, read, written and watched for edges, each edge stamped with the kernel's
CLOCK_MONOTONIC nanoseconds) and lg's alert and notification threads (which read those events and
call the Python callbacks, in timestamp order, from one thread).  Everything above it --
gpiozero's ``LGPIOFactory``/``LGPIOPin`` and the rig's pins module -- is the real code.

The functions are the ones gpiozero 2.0's ``gpiozero/pins/lgpio.py`` calls, with lg's signatures,
handle encoding (the chip number in bits 16+), mode bits, error codes and messages; failures raise
:class:`error` as the real module does while ``exceptions`` is True.  PWM, SPI, I2C and serial
are not simulated: the rig uses none of them through lgpio.

A test plays the hardware and the scheduler through :data:`kernel`:

* ``kernel.edge(gpio, level, t_ns)`` -- a line is driven to ``level`` at kernel time ``t_ns``; a
  line watched for that edge queues an event, as the kernel does, whether or not anyone reads it;
* ``kernel.deliver(count=None)`` -- lg hands the ``count`` oldest queued events (all by default)
  to the notification thread, which runs their callbacks now; returns when they have run.  Edges
  queued long ago and delivered in one go are a delayed burst, exactly as a busy Pi produces;
* ``kernel.level(gpio)``, ``kernel.writes(gpio)``, ``kernel.mode(gpio)``, ``kernel.flags(gpio)``,
  ``kernel.debounce_us(gpio)``, ``kernel.hold(gpio)`` (another program owns the line),
  ``kernel.reset(...)``.

This file is imported under the name ``lgpio`` (its folder put on ``sys.path`` by
:func:`sim.realpins.simulated_pi`), never by the rig.
"""

import queue
import threading
import time

STANDIN = True      # how a test tells this module from the real one

# --- lg's constants (lgpio.py 0.2.2) ---------------------------------------------------------------

LOW, HIGH, TIMEOUT = 0, 1, 2
SET_ACTIVE_LOW = 4
SET_OPEN_DRAIN = 8
SET_OPEN_SOURCE = 16
SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128
RISING_EDGE = 1
FALLING_EDGE = 2
BOTH_EDGES = 3

OKAY = 0
BAD_HANDLE = -5
BAD_EVENT_REQUEST = -72
BAD_GPIO_NUMBER = -73
CANNOT_OPEN_CHIP = -78
GPIO_BUSY = -79
GPIO_NOT_ALLOCATED = -80
BAD_DEBOUNCE_MICS = -98
GPIO_NOT_AN_OUTPUT = -104

_ERROR_TEXT = {
    BAD_HANDLE: "unknown handle",
    BAD_EVENT_REQUEST: "bad event request",
    BAD_GPIO_NUMBER: "bad GPIO number",
    CANNOT_OPEN_CHIP: "can not open gpiochip",
    GPIO_BUSY: "GPIO busy",
    GPIO_NOT_ALLOCATED: "GPIO not allocated",
    BAD_DEBOUNCE_MICS: "bad debounce microseconds",
    GPIO_NOT_AN_OUTPUT: "GPIO not set as an output",
}

# gpio_get_mode() bits: the kernel's line flags, then lg's own (only for the owning process).
_KERNEL_IN_USE = 1
_KERNEL_OUTPUT = 2
_LINE_FLAGS = SET_ACTIVE_LOW | SET_OPEN_DRAIN | SET_OPEN_SOURCE | SET_PULL_UP | SET_PULL_DOWN \
    | SET_PULL_NONE
_LG_INPUT = 1 << 8
_LG_OUTPUT = 1 << 9
_LG_ALERT = 1 << 10
_KERNEL_INPUT = 1 << 16
_KERNEL_RISING = 1 << 17
_KERNEL_FALLING = 1 << 18

exceptions = True

DELIVER_TIMEOUT_S = 5.0


class error(Exception):
    """What the real module raises for a negative status (its ``str`` is lg's message)."""

    def __init__(self, value):
        super().__init__(value)
        self.value = value

    def __str__(self):
        return repr(self.value)


def error_text(errnum):
    return _ERROR_TEXT.get(errnum, "unknown error")


def _status(value):
    if value < 0 and exceptions:
        raise error(error_text(value))
    return value


# --- the kernel and lg's threads --------------------------------------------------------------------

class _Line:
    """One GPIO line of a chip, as the kernel and lg see it."""

    def __init__(self):
        self.mode = None            # None (free), "input", "output" or "alert"
        self.flags = 0              # lg line flags (pull, active low...)
        self.edges = 0              # RISING_EDGE | FALLING_EDGE while claimed for alerts
        self.driven = None          # the level the outside world drives (None: not driven)
        self.output = 0             # the level written while an output
        self.held_by = None         # another program owning the line
        self.debounce_ns = 0
        self.pending = None         # debounce: the last raw edge, not yet stable
        self.reported = None        # debounce: the last level reported
        self.last_ns = None         # the last edge's timestamp (kernel time only moves on)
        self.writes = []            # [(t_ns, level)] every level the line was set to as an output

    def free(self):
        self.mode, self.flags, self.edges = None, 0, 0

    def physical(self):
        if self.mode == "output":
            return self.output
        if self.driven is not None:
            return self.driven
        return 1 if self.flags & SET_PULL_UP else 0

    def logical(self, level):
        return level ^ 1 if self.flags & SET_ACTIVE_LOW else level


class _Chip:
    def __init__(self, number, lines):
        self.number = number
        self.lines = [_Line() for _ in range(lines)]


class _Callback:
    """What :func:`callback` returns: cancel() stops further calls."""

    def __init__(self, kernel, chip, gpio, edge, func):
        self._kernel = kernel
        self.chip, self.gpio, self.edge, self.func = chip, gpio, edge, func

    def cancel(self):
        self._kernel._remove_callback(self)


class Kernel:
    """The simulated gpiochips, lg's event queue and the notification thread."""

    def __init__(self):
        self._lock = threading.RLock()
        self._thread = None
        self._batches = None
        self.reset()

    def reset(self, chips=None):
        """Forget every line, handle, queued event and callback.  ``chips``: {number: lines}
        (default: gpiochip0 with 54 lines, the header's GPIO0-27 and the SoC's others)."""
        with self._lock:
            chips = {0: 54} if chips is None else chips
            self.chips = {n: _Chip(n, lines) for n, lines in chips.items()}
            self._handles = {}
            self._next_handle = 0
            self._events = []           # [(t_ns, seq, chip, gpio, level)], not yet delivered
            self._seq = 0
            self._callbacks = []
            self._died = None

    # --- the test's side: the world and the scheduler -------------------------------------------
    def edge(self, gpio, level, t_ns=None, chip=0):
        """The outside world drives ``gpio`` to ``level`` at kernel time ``t_ns`` (now if None)."""
        t_ns = time.monotonic_ns() if t_ns is None else int(t_ns)
        with self._lock:
            line = self._line(chip, gpio)
            if line.driven == level:
                raise ValueError("GPIO%d is already at %d: an edge changes the level" % (
                    gpio, level))
            if line.last_ns is not None and t_ns < line.last_ns:
                raise ValueError("GPIO%d: edge at %d ns is before the line's last edge at %d ns; "
                                 "kernel time only moves on" % (gpio, t_ns, line.last_ns))
            before = line.physical()
            line.driven = level
            line.last_ns = t_ns
            if line.mode != "alert" or line.physical() == before:
                return
            logical = line.logical(level)
            if not line.edges & (RISING_EDGE if logical else FALLING_EDGE):
                return
            if line.debounce_ns:
                self._debounce(chip, gpio, line, t_ns, logical)
            else:
                self._queue(t_ns, chip, gpio, logical)

    def deliver(self, count=None, now_ns=None, timeout_s=DELIVER_TIMEOUT_S):
        """Hand the ``count`` oldest queued events (all if None) to the notification thread and
        wait, at most ``timeout_s``, until their callbacks have run.  ``now_ns`` is the kernel
        time of the delivery (debounced edges stable by then are reported).  Returns how many
        events were delivered."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("deliver() was called from a callback; call it from the test")
        now_ns = time.monotonic_ns() if now_ns is None else int(now_ns)
        with self._lock:
            self._settle_debounce(now_ns)
            self._events.sort()
            n = len(self._events) if count is None else min(count, len(self._events))
            batch, self._events = self._events[:n], self._events[n:]
            if self._died is not None:
                raise RuntimeError("lgpio's notification thread died: %r" % (self._died,))
            if not batch:
                return 0
            self._ensure_thread()
            done = threading.Event()
            self._batches.put((batch, done))
        if not done.wait(timeout_s):
            raise RuntimeError("the callbacks of %d events did not return within %g s"
                               % (n, timeout_s))
        if self._died is not None:
            raise RuntimeError("lgpio's notification thread died: %r" % (self._died,))
        return n

    def queued(self):
        """How many edge events wait for delivery."""
        with self._lock:
            return len(self._events)

    def level(self, gpio, chip=0):
        """The line's level now (what a scope on the pin would show)."""
        with self._lock:
            return self._line(chip, gpio).physical()

    def writes(self, gpio, chip=0):
        """Every level the line was set to as an output: [(t_ns, level)]."""
        with self._lock:
            return list(self._line(chip, gpio).writes)

    def mode(self, gpio, chip=0):
        """How the line is claimed now: None, "input", "output" or "alert"."""
        with self._lock:
            return self._line(chip, gpio).mode

    def flags(self, gpio, chip=0):
        """The lg line flags the line is claimed with (SET_PULL_UP, SET_PULL_NONE...)."""
        with self._lock:
            return self._line(chip, gpio).flags

    def debounce_us(self, gpio, chip=0):
        with self._lock:
            return self._line(chip, gpio).debounce_ns // 1000

    def hold(self, gpio, consumer="another program", chip=0):
        """Another program owns the line: claiming it fails with GPIO busy."""
        with self._lock:
            self._line(chip, gpio).held_by = consumer

    def let_go(self, gpio, chip=0):
        """The other program (:meth:`hold`) lets the line go."""
        with self._lock:
            self._line(chip, gpio).held_by = None

    # --- lg's internals -------------------------------------------------------------------------
    def _line(self, chip, gpio):
        if chip not in self.chips:
            raise ValueError("there is no gpiochip%d; chips: %s" % (chip, sorted(self.chips)))
        lines = self.chips[chip].lines
        if not 0 <= gpio < len(lines):
            raise ValueError("gpiochip%d has no line %d" % (chip, gpio))
        return lines[gpio]

    def _queue(self, t_ns, chip, gpio, level):
        self._seq += 1
        self._events.append((t_ns, self._seq, chip, gpio, level))

    def _debounce(self, chip, gpio, line, t_ns, level):
        """lg's rule: an edge is reported only once its level has been stable for the debounce
        time (and, watching both edges, only if it differs from the last level reported),
        stamped debounce later than the edge."""
        pending = line.pending
        if pending is not None and t_ns - pending[0] > line.debounce_ns:
            self._report_stable(chip, gpio, line)
        line.pending = (t_ns, level)

    def _report_stable(self, chip, gpio, line):
        t_ns, level = line.pending
        line.pending = None
        if line.edges != BOTH_EDGES or line.reported != level:
            line.reported = level
            self._queue(t_ns + line.debounce_ns, chip, gpio, level)

    def _settle_debounce(self, now_ns):
        for chip in self.chips.values():
            for gpio, line in enumerate(chip.lines):
                if line.pending is not None and now_ns - line.pending[0] > line.debounce_ns:
                    self._report_stable(chip.number, gpio, line)

    def _ensure_thread(self):
        if self._thread is None or not self._thread.is_alive():
            self._batches = queue.Queue()
            self._thread = threading.Thread(target=self._notify_loop, args=(self._batches,),
                                            name="lgpio-notify", daemon=True)
            self._thread.start()

    def _notify_loop(self, batches):
        """lgpio's notification thread: every event to every callback on its chip and line.  As
        in the real module, an exception in a callback ends the thread (no callback runs again)."""
        while True:
            batch, done = batches.get()
            try:
                for t_ns, _, chip, gpio, level in batch:
                    with self._lock:
                        targets = [cb for cb in self._callbacks
                                   if cb.chip == chip and cb.gpio == gpio]
                    for cb in targets:
                        cb.func(chip, gpio, level, t_ns)
            except BaseException as exc:
                self._died = exc
                raise
            finally:
                done.set()

    def _remove_callback(self, cb):
        with self._lock:
            if cb in self._callbacks:
                self._callbacks.remove(cb)

    # --- the API's work ---------------------------------------------------------------------------
    def _line_of(self, handle, gpio):
        """The line ``gpio`` of the chip ``handle`` opened, or lg's error code."""
        chip = self._chip_of(handle)
        if chip is None:
            return BAD_HANDLE
        if not 0 <= gpio < len(chip.lines):
            return BAD_GPIO_NUMBER
        return chip.lines[gpio]

    def _chip_of(self, handle):
        with self._lock:
            chip = self._handles.get(handle & 0xffff)
        if chip is None:
            return None
        return self.chips[chip]

    def _claim(self, handle, gpio, mode, flags, level=0, edges=0):
        with self._lock:
            line = self._line_of(handle, gpio)
            if isinstance(line, int):
                return line
            if line.held_by is not None:
                return BAD_EVENT_REQUEST if mode == "alert" else GPIO_BUSY
            if mode != "alert" and line.mode == mode:
                return OKAY            # lg: already an input (or output): flags and level stay
            line.mode, line.flags, line.edges = mode, flags, edges
            line.pending = line.reported = None
            if mode == "output":
                self._set_output(line, level)
            return OKAY

    def _set_output(self, line, level):
        level = 1 if level else 0
        if not line.writes or line.output != level:
            line.output = level
            line.writes.append((time.monotonic_ns(), level))


kernel = Kernel()


# --- the lgpio API (what gpiozero.pins.lgpio calls) --------------------------------------------------

def gpiochip_open(gpiochip):
    with kernel._lock:
        if gpiochip not in kernel.chips:
            return _status(CANNOT_OPEN_CHIP)
        handle = kernel._next_handle
        kernel._next_handle += 1
        kernel._handles[handle] = gpiochip
    return _status(handle | (gpiochip << 16))


def gpiochip_close(handle):
    with kernel._lock:
        chip = kernel._chip_of(handle)
        if chip is None:
            return _status(BAD_HANDLE)
        del kernel._handles[handle & 0xffff]
        if chip.number not in kernel._handles.values():
            for line in chip.lines:
                line.free()
    return _status(OKAY)


def gpio_get_mode(handle, gpio):
    with kernel._lock:
        line = kernel._line_of(handle, gpio)
        if isinstance(line, int):
            return _status(line)
        mode = line.flags & _LINE_FLAGS
        if line.held_by is not None or line.mode is not None:
            mode |= _KERNEL_IN_USE
        if line.mode == "output":
            mode |= _KERNEL_OUTPUT | _LG_OUTPUT
        else:
            mode |= _KERNEL_INPUT
        if line.mode == "input":
            mode |= _LG_INPUT
        elif line.mode == "alert":
            mode |= _LG_ALERT
            if line.edges & RISING_EDGE:
                mode |= _KERNEL_RISING
            if line.edges & FALLING_EDGE:
                mode |= _KERNEL_FALLING
    return _status(mode)


def gpio_claim_input(handle, gpio, lFlags=0):
    return _status(kernel._claim(handle, gpio, "input", lFlags))


def gpio_claim_output(handle, gpio, level=0, lFlags=0):
    return _status(kernel._claim(handle, gpio, "output", lFlags, level=level))


def gpio_claim_alert(handle, gpio, eFlags, lFlags=0, notify_handle=None):
    return _status(kernel._claim(handle, gpio, "alert", lFlags, edges=eFlags & BOTH_EDGES))


def gpio_free(handle, gpio):
    with kernel._lock:
        line = kernel._line_of(handle, gpio)
        if isinstance(line, int):
            return _status(line)
        if line.mode is None:
            return _status(GPIO_NOT_ALLOCATED)
        line.free()
    return _status(OKAY)


def gpio_read(handle, gpio):
    with kernel._lock:
        line = kernel._line_of(handle, gpio)
        if isinstance(line, int):
            return _status(line)
        if line.mode is None:
            status = kernel._claim(handle, gpio, "input", 0)   # lg claims a free line to read it
            if status < 0:
                return _status(status)
        value = line.physical() if line.mode == "output" else line.logical(line.physical())
    return _status(value)


def gpio_write(handle, gpio, level):
    with kernel._lock:
        line = kernel._line_of(handle, gpio)
        if isinstance(line, int):
            return _status(line)
        if line.mode != "output":
            # lg makes a free or input singleton an output on the way.
            return _status(kernel._claim(handle, gpio, "output", 0, level=level))
        kernel._set_output(line, level)
    return _status(OKAY)


def gpio_set_debounce_micros(handle, gpio, debounce_micros):
    if debounce_micros < 0:
        return _status(BAD_DEBOUNCE_MICS)
    with kernel._lock:
        line = kernel._line_of(handle, gpio)
        if isinstance(line, int):
            return _status(line)
        line.debounce_ns = int(debounce_micros) * 1000
    return _status(OKAY)


def callback(handle, gpio, edge=RISING_EDGE, func=None):
    """Calls ``func(chip, gpio, level, timestamp_ns)`` from the notification thread for every
    event of that line (lg: "It's probably best not to make any assumption as to the timestamp
    origin"; on kernels with the v2 GPIO uAPI it is CLOCK_MONOTONIC, and so it is here)."""
    if func is None:
        raise TypeError("the stand-in needs a callback function (no tally callbacks)")
    cb = _Callback(kernel, handle >> 16, gpio, edge, func)
    with kernel._lock:
        kernel._callbacks.append(cb)
    return cb
