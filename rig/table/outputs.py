"""What the rig makes happen at the table: the buzzer's patterns and the status lamps.

Both run on the referee thread (the touch-to-buzzer reflex, :mod:`rig.table.reflex`, may also
switch the buzzer on from a pin callback; :meth:`Buzzer.settle` reconciles).  A pattern is a
list of (on_s, off_s) steps, played by timers the referee loop fires on time
(:meth:`Buzzer.next_due`, :meth:`Buzzer.fire`); a new pattern or a withdrawn touch buzz cancels
what is left of the old one.
"""

#: The buzzer's patterns by name (a game's pattern names are these strings): (on_s, off_s) steps.
TOUCH, CAUGHT, ESCAPED, REFUSED = "touch", "caught", "escaped", "refused"
PATTERNS = {
    TOUCH: ((0.12, 0.0),),
    CAUGHT: ((0.5, 0.15), (0.5, 0.15), (0.9, 0.0)),
    ESCAPED: ((0.08, 0.08), (0.08, 0.0)),
    REFUSED: ((0.35, 0.0),),
}


def scaled(patterns, factor):
    """The same patterns, ``factor`` times as long (the benchmark's short buzzes)."""
    return {name: tuple((on * factor, off * factor) for on, off in steps)
            for name, steps in patterns.items()}


class Buzzer:
    """Plays patterns on a buzzer device (None: the pin map has none; nothing sounds).

    ``reflex`` (a :class:`rig.table.reflex.Reflex` on the same device, or None) may switch the
    device on from a pin callback before the rules have spoken; :meth:`settle` then brings the
    device back to what the patterns say, once the rules' effects of the edges that fired it
    are performed: a reflex buzz the rules keep goes on (their touch pattern times its end),
    one they do not keep is withdrawn."""

    def __init__(self, device, patterns=None, reflex=None):
        self.device = device
        self.patterns = dict(PATTERNS if patterns is None else patterns)
        self.reflex = reflex
        self._timers = []          # (due_abs, token, on)
        self._token = 0
        self._on = False           # what the patterns say the device is now

    def play(self, pattern, now):
        self._token += 1
        if self.device is None:
            return
        steps = self.patterns.get(pattern, self.patterns[TOUCH])
        self._on = True
        self.device.on()
        at = now
        self._timers = [x for x in self._timers if x[1] == self._token]
        for i, (on_s, off_s) in enumerate(steps):
            if i:
                self._timers.append((at, self._token, True))
            at += on_s
            self._timers.append((at, self._token, False))
            at += off_s

    def off(self):
        """Withdraw the buzz now (a pulse proved to be noise)."""
        self._token += 1
        self._timers = []
        self._on = False
        if self.device is not None:
            self.device.off()

    def settle(self, taken_t=None):
        """After the host performed the rules' effects of what arrived: if the reflex sounded
        since the last time, set the device to what the patterns say (on while a pattern's on
        step runs, else off).  One flag read when the reflex did not fire.

        ``taken_t``: the stamp of the newest edge the host has taken off its inbox (None: not
        known).  A reflex buzz whose edge is stamped later is still on its way to the rules
        (the pin callback sounded it between the host's batch and this call): it is left
        sounding, and settled after the batch that takes it."""
        reflex = self.reflex
        if reflex is None or not reflex.pending or self.device is None:
            return
        at = reflex.at
        if at is not None and taken_t is not None and at > taken_t:
            return
        reflex.pending = False      # first: a reflex buzz from now on is settled next time
        (self.device.on if self._on else self.device.off)()

    def next_due(self):
        return min(due for due, _, _ in self._timers) if self._timers else None

    def fire(self, now):
        """Switch the buzzer as the timers due by ``now`` say, in time order."""
        due = sorted((x for x in self._timers if x[0] <= now), key=lambda x: x[0])
        if not due:
            return
        self._timers = [x for x in self._timers if x[0] > now]
        for _, token, on in due:
            if token == self._token:
                self._on = on
                (self.device.on if on else self.device.off)()


class Lamps:
    """The optional status lamps: ready (a start press would start a turn), turn, fault."""

    def __init__(self, outputs):
        self.outputs = outputs
        self._ready = None

    def set(self, name, on):
        """The lamp ``name`` (``ready``, ``turn``, ``fault``: a shared
        :class:`~rig.core.effects.Lamp`) on or off."""
        lamp = {"ready": self.ready, "turn": self.turn, "fault": self.fault}.get(name)
        if lamp is not None:
            lamp(on)
        else:
            self.outputs.set("led." + name, on)

    def turn(self, on):
        self.outputs.set("led.turn", on)

    def fault(self, on):
        self.outputs.set("led.fault", on)

    def ready(self, on):
        if on != self._ready:
            self._ready = on
            self.outputs.set("led.ready", on)
