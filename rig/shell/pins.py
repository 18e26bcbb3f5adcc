"""The museum's contacts and the rig's outputs, as gpiozero devices on an injected pin factory.

Pin callbacks only timestamp and enqueue: each edge is turned into ``(t, name, value)`` with the
edge's own timestamp (the pin factory's ticks: kernel timestamps under lgpio, virtual time in
the simulator) mapped onto the rig's clock, and handed to ``on_change``.  gpiozero's bounce_time
is left unset on purpose: under lgpio it delays every edge and drops short contacts; the rig
debounces on edge timestamps itself (:mod:`rig.core.detect`).

gpiozero is imported lazily, so the pure core imports anywhere.
"""

import threading


class TickMapper:
    """Maps a pin factory's tick values onto the rig's clock.

    The factory's ticks may count from another origin (lgpio reports kernel timestamps), so the
    offset is learnt from the first edge and re-learnt if the two ever drift apart by more than
    ``resync_s``; a mapped time is never later than ``now`` (an edge cannot be in the future).
    Relative edge times keep the factory's precision, which is what debouncing needs.
    """

    def __init__(self, factory, clock, resync_s=0.5):
        self.factory = factory
        self.clock = clock
        self.resync_s = resync_s
        self._offset = None
        self._lock = threading.Lock()

    def to_clock(self, ticks):
        now = self.clock.now()
        if ticks is None:
            return now
        seconds = float(ticks)
        with self._lock:
            if self._offset is None or abs(now - (seconds + self._offset)) > self.resync_s:
                self._offset = now - seconds
            t = seconds + self._offset
        return t if t < now else now


def _input_class():
    from gpiozero import DigitalInputDevice

    class StampedInput(DigitalInputDevice):
        """A DigitalInputDevice that reports every edge with its timestamp."""

        def __init__(self, pin, *, name, on_change, mapper, invert=False, **kwargs):
            self._rig_name = name
            self._rig_on_change = None
            self._rig_mapper = mapper
            self._rig_invert = invert
            super().__init__(pin, **kwargs)
            self._rig_on_change = on_change

        def _fire_events(self, ticks, new_active):
            super()._fire_events(ticks, new_active)
            callback = self._rig_on_change
            if callback is not None:
                callback(self._rig_mapper.to_clock(ticks), self._rig_name,
                         int(bool(new_active) != self._rig_invert))

        @property
        def rig_value(self):
            return int(bool(self.is_active) != self._rig_invert)

    return StampedInput


class Inputs:
    """Every input of the pin map as a gpiozero device; edges go to ``on_change(t, name, value)``."""

    def __init__(self, pinmap, pin_factory, clock, on_change):
        self.pinmap = pinmap
        self.factory = pin_factory
        self.mapper = TickMapper(pin_factory, clock)
        self.devices = {}
        cls = _input_class()
        try:
            for name, spec in sorted(pinmap.inputs.items()):
                pull_up = {"up": True, "down": False, "none": None}[spec.pull]
                kwargs = dict(pull_up=pull_up, pin_factory=pin_factory, bounce_time=None)
                invert = False
                if pull_up is None:
                    kwargs["active_state"] = spec.active == "high"
                else:
                    # gpiozero makes a pulled-up input active low; invert if the map says not.
                    invert = (not pull_up) != (spec.active == "high")
                self.devices[name] = cls(spec.pin, name=name, on_change=on_change,
                                         mapper=self.mapper, invert=invert, **kwargs)
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
    """The buzzer and the optional status LEDs, opened by :meth:`open`.  Methods are called
    from the referee thread."""

    def __init__(self, pinmap, pin_factory):
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.devices = {}
        self.buzzer = None

    def open(self):
        from gpiozero import DigitalOutputDevice
        try:
            for name, spec in sorted(self.pinmap.outputs.items()):
                self.devices[name] = DigitalOutputDevice(
                    spec.pin, active_high=spec.active == "high", initial_value=False,
                    pin_factory=self.pin_factory)
        except Exception:
            self.close()
            raise
        self.buzzer = self.devices.get("buzzer")
        return self

    def set(self, name, on):
        dev = self.devices.get(name)
        if dev is not None:
            if on:
                dev.on()
            else:
                dev.off()

    def close(self):
        for dev in self.devices.values():
            try:
                dev.off()
            finally:
                dev.close()
        self.devices.clear()
