"""Simulated pins: gpiozero's MockFactory on virtual time, and the museum's named contacts.

:class:`VirtualFactory` is a :class:`gpiozero.pins.mock.MockFactory` whose ticks come from a
clock (a :class:`sim.clock.VirtualClock` in tests), so every edge carries a virtual timestamp.
:class:`Museum` drives the pins by the recording's input names, in the recording's values
(``museum.set("laser.4", 1)`` closes the contact whatever its wiring polarity), and offers the
gestures a player makes (``touch``, ``lift_painting``, ...).
"""

from gpiozero.pins.mock import MockFactory, MockPin, PinState

from rig.table.names import rest_value


class VirtualPin(MockPin):
    """A MockPin whose edges are stamped by its factory's clock, not by time.monotonic()."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self._last_change = factory.ticks()

    def _change_state(self, value):
        if self._state != value:
            t = self._factory.ticks()
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self._last_change = t
            return True
        return False

    def _call_when_changed(self):
        """The edge's callback, at once, or later when the factory holds callbacks back (as
        lgpio's thread delivers a burst of kernel events late on a busy Pi)."""
        factory = self._factory
        if factory.holding:
            factory.held.append((self, self._last_change, self._state))
        else:
            MockPin._call_when_changed(self)


class VirtualFactory(MockFactory):
    """MockFactory with injected time.  ``clock`` needs ``now()``; real time if None.

    ``tick_clock`` tells the rig's pins which clock the ticks are read from, so that they are
    used as the rig's time (None: MockFactory's own, time.monotonic())."""

    def __init__(self, clock=None, revision=None):
        super().__init__(revision=revision, pin_class=VirtualPin if clock is not None else None)
        self._clock = clock
        self.tick_clock = clock
        self.holding = False
        self.held = []

    def hold(self):
        """From now on, edges are stamped when they happen but their callbacks wait for
        :meth:`deliver` (virtual time only)."""
        self.holding = True

    def deliver(self, count=None):
        """Run the held callbacks (the oldest ``count``, or all), in order; stop holding when
        none are left to hold back."""
        batch = self.held if count is None else self.held[:count]
        self.held = self.held[len(batch):]
        if count is None:
            self.holding = False
        for pin, ticks, state in batch:
            # gpiozero's Pin._call_when_changed(ticks, state): the edge's own timestamp.
            super(MockPin, pin)._call_when_changed(ticks, state)

    def ticks(self):
        if self._clock is None:
            return super().ticks()
        return self._clock.now()

    def ticks_diff(self, later, earlier):
        return later - earlier


class Museum:
    """The museum box on simulated pins, addressed by recording input names."""

    def __init__(self, factory, pinmap):
        self.factory = factory
        self.pinmap = pinmap

    def pin(self, name):
        spec = self.pinmap.inputs.get(name)
        if spec is None:
            raise KeyError("%r is not wired in the pin map; wired inputs: %s"
                           % (name, ", ".join(sorted(self.pinmap.inputs))))
        return self.factory.pin(spec.pin)

    def set(self, name, value):
        """Drive input ``name`` to recording value ``value`` (1 contact/seated/on stand)."""
        spec = self.pinmap.inputs[name]
        high = bool(value) == (spec.active == "high")
        pin = self.pin(name)
        if high:
            pin.drive_high()
        else:
            pin.drive_low()

    def value(self, name):
        spec = self.pinmap.inputs[name]
        return int(bool(self.pin(name).state) == (spec.active == "high"))

    def rest(self):
        """Put every input in its rest state: no contact, seats seated, paintings on stands,
        button released (as the recording contract's initial state)."""
        for name in self.pinmap.inputs:
            self.set(name, rest_value(name))

    def outputs_state(self, name):
        spec = self.pinmap.outputs[name]
        return int(bool(self.factory.pin(spec.pin).state) == (spec.active == "high"))
