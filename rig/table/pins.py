"""The museum's contacts and the rig's outputs, as gpiozero devices on an injected pin factory.

Pin callbacks only timestamp and enqueue (and, before that, the table's declared touch-to-buzzer
reflex may write the buzzer's pin: :mod:`rig.table.reflex`): each edge is handed to
``on_change(t, name, value)`` with the time the pin factory stamped it with, used as it is.
Under gpiozero's lgpio factory that is the kernel's own timestamp of the edge, taken when the
line changed, whenever the callback gets to run: a burst of edges delivered 50 ms late keeps
every edge's exact time, so a 0.3 ms glitch stays a glitch.  This is exact only because those
ticks are on the rig's clock; :func:`check_edge_clock` makes sure of it for every pin factory,
and refuses the others.

gpiozero's bounce_time is left unset on purpose: under lgpio it delays every edge and drops short
contacts; the rig debounces on edge timestamps itself (:mod:`rig.table.debounce`, and a game's
own detector: Cleptómano's ``rules.detect``).

gpiozero is imported lazily, so the pure core imports anywhere.
"""

from .names import describe
from ..core.errors import HardwareError, RigError

CLOCK_MONOTONIC = "CLOCK_MONOTONIC"

#: Pin factories whose edge ticks are CLOCK_MONOTONIC seconds, as gpiozero 2.0's source has it.
#: lgpio: ``LGPIOPin._call_when_changed`` passes the kernel's event ``timestamp_ns / 1e9``; lg
#: asks the kernel for no other event clock (it would only with ``LG_SET_REALTIME_CLOCK``, which
#: gpiozero never passes), so it is CLOCK_MONOTONIC, and ``LocalPiFactory.ticks()`` is
#: ``time.monotonic()``.  mock: ``MockPin`` stamps each change with ``time.monotonic()`` as it
#: makes it, and calls back at once.
MONOTONIC_TICKS = ("gpiozero.pins.lgpio.LGPIOFactory", "gpiozero.pins.mock.MockFactory")

#: Why each of gpiozero's other pin factories cannot time the rig's edges.
REFUSED = {
    "gpiozero.pins.pigpio.PiGPIOFactory":
        "its ticks are the pigpio daemon's own 32-bit microsecond counter, which wraps every "
        "71.6 minutes and is not the rig's clock (pigpiod may even run on another machine), "
        "and pigpio does not run on a Raspberry Pi 5",
    "gpiozero.pins.rpigpio.RPiGPIOFactory":
        "RPi.GPIO passes no timestamp with an edge, so gpiozero stamps it when the callback "
        "runs: a late callback moves the edge, and a 0.3 ms glitch can pass for a touch",
    "gpiozero.pins.native.NativeFactory":
        "it stamps an edge when its watch thread gets to run, not when the line changed",
}

FIX = ("use gpiozero's lgpio pin factory: install lgpio (systemd/install.sh does) and leave "
       "GPIOZERO_PIN_FACTORY unset or set it to lgpio")


def _timebase(clock):
    """What a clock's readings are: a system clock's name, or the clock itself (virtual time)."""
    return getattr(clock, "timebase", clock)


def _factory_timebase(factory):
    for cls in type(factory).__mro__:
        name = "%s.%s" % (cls.__module__, cls.__qualname__)
        if name in MONOTONIC_TICKS:
            return CLOCK_MONOTONIC
        if name in REFUSED:
            raise HardwareError("the pin factory %s cannot time the rig's edges: %s; %s"
                                % (name, REFUSED[name], FIX))
    raise HardwareError("the pin factory %s.%s is not one whose edge times the rig knows (it "
                        "knows lgpio's and gpiozero's mock); %s"
                        % (type(factory).__module__, type(factory).__qualname__, FIX))


def check_edge_clock(factory, clock):
    """Make sure the factory's edge ticks are times on the rig's ``clock``, so that they can be
    used as they are; otherwise one :class:`HardwareError` naming the factory and the fix.

    A factory may say which clock its ticks are read from with a ``tick_clock`` attribute (the
    simulator's virtual factory does); a clock says which system clock it reads with
    ``timebase`` (:class:`rig.shell.clock.MonotonicClock`: CLOCK_MONOTONIC)."""
    own = getattr(factory, "tick_clock", None)
    ticks = _timebase(own) if own is not None else _factory_timebase(factory)
    if ticks != _timebase(clock):
        raise HardwareError(
            "the pin factory %s stamps edges on %s, but the rig's clock is %s, so edge times "
            "would be wrong; give the rig a clock on the factory's time (MonotonicClock for "
            "lgpio) or a factory on the rig's clock" % (type(factory).__qualname__, ticks,
                                                          _timebase(clock)))


def _open(kind, rig_name, pin, device_class, **kwargs):
    """Make one device; a pin that cannot be opened is one error naming the input or output,
    its GPIO and the fix (lgpio says only "GPIO busy")."""
    try:
        return device_class(pin, **kwargs)
    except RigError:
        raise
    except Exception as exc:
        raise HardwareError(
            "could not open the %s %s (%s) on GPIO%d: %s; if another program holds the pin, "
            "`gpioinfo` names it: stop that program, or wire %s to a free pin and change the "
            "pin map" % (kind, describe(rig_name), rig_name, pin, exc, rig_name)) from exc


def _construct(init, device, pin, **kwargs):
    """Run a gpiozero device's ``__init__``; if it fails, let go of the pin's reservation.

    gpiozero reserves the pin before it opens it, and keeps the reservation when opening fails
    (lgpio's "GPIO busy") until the object is collected: another try at the pin in this process
    would be refused as "already in use" after the other program let go."""
    try:
        init(pin, **kwargs)
    except Exception:
        factory = getattr(device, "pin_factory", None)
        if factory is not None:
            factory.release_all(device)
        raise


def _output_class():
    from gpiozero import DigitalOutputDevice

    class Output(DigitalOutputDevice):
        """A DigitalOutputDevice that lets go of its pin when it cannot open it."""

        def __init__(self, pin, **kwargs):
            _construct(super().__init__, self, pin, **kwargs)

    return Output


def _input_class():
    from gpiozero import DigitalInputDevice

    class StampedInput(DigitalInputDevice):
        """A DigitalInputDevice that reports every edge with its timestamp (the factory's
        ticks, on the rig's clock: see :func:`check_edge_clock`)."""

        def __init__(self, pin, *, name, on_change, invert=False, reflex=None, **kwargs):
            self._rig_name = name
            self._rig_on_change = None
            self._rig_invert = invert
            self._rig_reflex = reflex
            _construct(super().__init__, self, pin, **kwargs)
            self._rig_on_change = on_change

        def _fire_events(self, ticks, new_active):
            callback = self._rig_on_change
            value = int(bool(new_active) != self._rig_invert)
            reflex = self._rig_reflex
            if reflex is not None and callback is not None:
                reflex.edge(self._rig_name, value, ticks)   # the declared reflex: one pin write
            super()._fire_events(ticks, new_active)
            if callback is not None:
                callback(ticks, self._rig_name, value)

        @property
        def rig_value(self):
            return int(bool(self.is_active) != self._rig_invert)

    return StampedInput


class Inputs:
    """Every input of the pin map (or only those ``names``) as a gpiozero device; edges go to
    ``on_change(t, name, value)``, after ``reflex`` (a :class:`rig.table.reflex.Reflex`, or
    None) has seen them."""

    def __init__(self, pinmap, pin_factory, clock, on_change, names=None, reflex=None):
        check_edge_clock(pin_factory, clock)
        self.pinmap = pinmap
        self.factory = pin_factory
        self.devices = {}
        cls = _input_class()
        try:
            for name, spec in sorted(pinmap.inputs.items()):
                if names is not None and name not in names:
                    continue
                pull_up = {"up": True, "down": False, "none": None}[spec.pull]
                kwargs = dict(pull_up=pull_up, pin_factory=pin_factory, bounce_time=None)
                invert = False
                if pull_up is None:
                    kwargs["active_state"] = spec.active == "high"
                else:
                    # gpiozero makes a pulled-up input active low; invert if the map says not.
                    invert = (not pull_up) != (spec.active == "high")
                self.devices[name] = _open("input", name, spec.pin, cls, name=name,
                                           on_change=on_change, invert=invert,
                                           reflex=reflex, **kwargs)
        except Exception:
            self.close()
            raise

    def values(self):
        """The current value (0/1) of every input, by name."""
        return {name: dev.rig_value for name, dev in self.devices.items()}

    def close(self):
        for dev in self.devices.values():
            dev.close()
        self.devices.clear()


class Outputs:
    """The buzzer and the optional status LEDs (or only those ``names``), opened by
    :meth:`open`.  Methods are called from the referee thread; ``reflex`` (a
    :class:`rig.table.reflex.Reflex`) is given its output once it is open."""

    def __init__(self, pinmap, pin_factory, names=None, reflex=None):
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.names = names
        self.reflex = reflex
        self.devices = {}
        self.buzzer = None

    def open(self):
        output = _output_class()
        try:
            for name, spec in sorted(self.pinmap.outputs.items()):
                if self.names is not None and name not in self.names:
                    continue
                self.devices[name] = _open(
                    "output", name, spec.pin, output,
                    active_high=spec.active == "high", initial_value=False,
                    pin_factory=self.pin_factory)
        except Exception:
            self.close()
            raise
        self.buzzer = self.devices.get("buzzer")
        if self.reflex is not None:
            self.reflex.device = self.devices.get(self.reflex.rule.output)
        return self

    def set(self, name, on):
        dev = self.devices.get(name)
        if dev is not None:
            if on:
                dev.on()
            else:
                dev.off()

    def close(self):
        if self.reflex is not None:
            self.reflex.disarm()
            self.reflex.device = None
        for dev in self.devices.values():
            try:
                dev.off()
            finally:
                dev.close()
        self.devices.clear()
