"""``cleptomano check-wiring``: walk the builder through every input, so a miswired rod is
found before a game, not during one.

:class:`WiringCheck` is the pure part: it knows which input it waits for and judges every edge
(``feed(name, value)`` -> a line to show).  The shell prints the live state of every input and
feeds the edges from the pins.
"""

from .calls import describe
from .museum import Kind, parse, rest_value

ACTIONS = {
    Kind.LASER: "touch %s",
    Kind.GUARD: "touch %s",
    Kind.BUTTON: "press %s",
    Kind.SEAT: "lift the rod out of %s",
    Kind.PAINTING: "lift %s off its stand",
}
_ORDER = (Kind.BUTTON, Kind.LASER, Kind.GUARD, Kind.SEAT, Kind.PAINTING)


def instruction(name):
    return ACTIONS.get(parse(name).kind, "change %s") % describe(name)


def check_order(pinmap):
    def key(name):
        kind = parse(name).kind
        return (_ORDER.index(kind) if kind in _ORDER else len(_ORDER)), name
    return sorted(pinmap.inputs, key=key)


class WiringCheck:
    def __init__(self, pinmap):
        self.pinmap = pinmap
        self.order = check_order(pinmap)
        self.index = 0
        self.passed = []
        self.wrong = []          # (expected, got)
        self.skipped = []

    @property
    def done(self):
        return self.index >= len(self.order)

    @property
    def expected(self):
        return None if self.done else self.order[self.index]

    def prompt(self):
        if self.done:
            return None
        name = self.expected
        return "%d/%d: %s (GPIO%d)" % (self.index + 1, len(self.order), instruction(name),
                                        self.pinmap.inputs[name].pin)

    def feed(self, name, value):
        """An input changed to ``value``: returns what to tell the builder."""
        if self.done or value == rest_value(name):
            return None
        expected = self.expected
        if name == expected:
            self.passed.append(name)
            self.index += 1
            return "OK: %s answers on GPIO%d." % (describe(name), self.pinmap.inputs[name].pin)
        self.wrong.append((expected, name))
        return ("Wrong input: waiting for %s (GPIO%d) but %s (GPIO%d) changed. Check that its "
                "wire goes to GPIO%d, or that the two are not swapped."
                % (describe(expected), self.pinmap.inputs[expected].pin, describe(name),
                   self.pinmap.inputs[name].pin, self.pinmap.inputs[expected].pin))

    def skip(self):
        if not self.done:
            self.skipped.append(self.expected)
            self.index += 1

    def summary(self):
        lines = ["%d of %d inputs answered." % (len(self.passed), len(self.order))]
        if self.skipped:
            lines.append("No answer from: %s. Check each module's power, ground and signal wire."
                         % ", ".join(describe(n) for n in self.skipped))
        if self.wrong:
            lines.append("Mix-ups seen: %s." % "; ".join(
                "%s expected, %s answered" % (describe(a), describe(b)) for a, b in self.wrong))
        return lines

    @property
    def ok(self):
        return self.done and not self.skipped and not self.wrong


def stuck_at_start(values):
    """Inputs not at rest when the check begins (a contact already closed, a seat open)."""
    return ["%s reads %d at rest (expected %d)" % (describe(n), v, rest_value(n))
            for n, v in sorted(values.items()) if v != rest_value(n)]
