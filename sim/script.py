"""Write recordings by gesture: a small builder for demo matches, tests and the soak.

``Script`` produces the recording's JSON objects (header first) from what players do::

    s = Script(["Ana", "Ben"], "normal")
    s.start(1.0)                 # press and release the start button
    s.hand_in(2.0); s.touch(4, 3.0); s.lift_painting(1, 4.0); s.hand_out(6.0)
    s.exit(7.0)
    lines = s.lines()            # JSON text, one object a line

Times are absolute seconds on the recording's clock; the builder keeps the lines in time order.
"""

from rig.games.cleptomano.rules.recording import dumps


class Script:
    def __init__(self, players, difficulty="normal", **header):
        self.header = {"recording": "cleptomano", "version": 1, "players": list(players),
                       "difficulty": difficulty}
        self.header.update(header)
        self._items = []
        self._seq = 0

    def _add(self, obj):
        self._seq += 1
        self._items.append((obj["t"], self._seq, obj))
        return self

    def input(self, t, name, value):
        return self._add({"t": round(t, 6), "input": name, "value": value})

    # --- gestures ---------------------------------------------------------------------------
    def press(self, t, hold_s=0.15):
        self.input(t, "button", 1)
        return self.input(t + hold_s, "button", 0)

    start = press
    exit = press

    def hand_in(self, t, distance_mm=150):
        return self.input(t, "tof", distance_mm)

    def hand_out(self, t):
        return self.input(t, "tof", 8190)

    def touch(self, laser, t, hold_s=0.08, bounce=()):
        """A touch on ``laser``: contact for ``hold_s``; ``bounce`` is a list of (on_s, off_s)
        pulses before the contact settles."""
        name = "laser.%d" % laser if laser != "guard" else "guard"
        at = t
        for on_s, off_s in bounce:
            self.input(at, name, 1)
            self.input(at + on_s, name, 0)
            at += on_s + off_s
        self.input(at, name, 1)
        return self.input(at + hold_s, name, 0)

    def touch_guard(self, t, hold_s=0.1):
        return self.touch("guard", t, hold_s)

    def displace(self, laser, t, open_s=1.0):
        self.input(t, "seat.%d" % laser, 0)
        return self.input(t + open_s, "seat.%d" % laser, 1)

    def lift_painting(self, n, t):
        return self.input(t, "painting.%d" % n, 0)

    def return_painting(self, n, t):
        return self.input(t, "painting.%d" % n, 1)

    def take_relic(self, n, t, carry_s=1.0):
        """Lift a relic, carry it (moving) and set it down upright at the door."""
        self.input(t, "relic.%d.motion" % n, 1)
        self.input(t + 0.05, "relic.%d.tilt" % n, 12.0)
        self.input(t + carry_s, "relic.%d.tilt" % n, 2.0)
        return self.input(t + carry_s + 0.05, "relic.%d.motion" % n, 0)

    def knock_over(self, n, t):
        self.input(t, "relic.%d.motion" % n, 1)
        self.input(t + 0.05, "relic.%d.tilt" % n, 85.0)
        return self.input(t + 0.6, "relic.%d.motion" % n, 0)

    def drop_relic(self, n, t):
        return self.input(t, "relic.%d.freefall" % n, 1)

    def reset_museum(self, t, relics=(1, 2, 3), paintings=(1, 2)):
        """The guard puts everything back between turns."""
        for n in paintings:
            self.input(t, "painting.%d" % n, 1)
        for n in relics:
            self.input(t, "relic.%d.tilt" % n, 0.0)
            self.input(t, "relic.%d.motion" % n, 0)
        return self

    def choose(self, t, role, player):
        return self._add({"t": round(t, 6), "choose": role, "player": player})

    def loot(self, t, paintings, relics, by=None):
        obj = {"t": round(t, 6), "loot": {"paintings": paintings, "relics": relics}}
        if by:
            obj["by"] = by
        return self._add(obj)

    def end(self, t):
        return self._add({"t": round(t, 6), "end": True})

    # --- output -----------------------------------------------------------------------------------
    def objects(self):
        return [self.header] + [obj for _, _, obj in sorted(self._items, key=lambda x: x[:2])]

    def lines(self):
        return [dumps(obj) for obj in self.objects()]

    def text(self):
        return "\n".join(self.lines()) + "\n"

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text())
        return path


def demo_match():
    """A bundled demo: 3 players, normal level, about a minute, every kind of call.  Between
    turns the table takes the time a real one does (the guard resets the museum), so every
    banner of the match is on the screen for its time before the next thief presses start."""
    s = Script(["Ana", "Ben", "Caro"], "normal")
    # Round 1 -- Ana: a painting and a relic, one touch (bounced), escapes.
    s.start(1.0)
    s.hand_in(2.0)
    s.touch(4, 3.0, bounce=[(0.0004, 0.002), (0.003, 0.004)])
    s.lift_painting(1, 4.0)
    s.hand_out(5.0)
    s.hand_in(5.5)
    s.take_relic(1, 6.0)
    s.hand_out(7.5)
    s.exit(8.0)
    s.loot(9.0, 1, 1, by="Ben")
    s.reset_museum(10.0)
    # Ben: touches the guard token: caught.
    s.start(12.0)
    s.hand_in(13.0)
    s.touch_guard(14.5)
    s.hand_out(15.0)
    # Caro: both paintings, no touches: wins the round.
    s.start(19.0)
    s.hand_in(20.0)
    s.lift_painting(1, 21.0)
    s.hand_out(22.0)
    s.hand_in(22.5)
    s.lift_painting(2, 23.5)
    s.hand_out(24.5)
    s.exit(25.0)
    s.reset_museum(26.0)
    # Round 2 -- Ana knocks relic 1 over, then touches three lasers: caught.
    s.start(32.0)
    s.hand_in(33.0)
    s.lift_painting(2, 34.0)
    s.knock_over(1, 35.0)
    s.touch(1, 36.0)
    s.touch(5, 37.0)
    s.touch(2, 38.0)
    s.hand_out(38.5)
    s.reset_museum(40.0)
    # Ben: a painting, escapes.
    s.start(42.0)
    s.hand_in(43.0)
    s.lift_painting(1, 44.0)
    s.hand_out(45.0)
    s.exit(45.5)
    s.reset_museum(47.0)
    # Caro: a painting and a relic, one touch: shares the round with Ben and wins the match.
    s.start(50.0)
    s.hand_in(51.0)
    s.lift_painting(2, 52.0)
    s.hand_out(53.0)
    s.hand_in(53.5)
    s.take_relic(1, 54.0)
    s.touch(3, 55.5)
    s.hand_out(56.0)
    s.exit(57.0)
    s.reset_museum(59.0)
    s.end(70.0)
    return s


_OTHERS = (1, 2, 3, 5, 6, 7)


def rod_night(path, turns, rod_4_in=()):
    """A recording of ``turns`` turns, each passing the rods (the hand in) and touching two of
    the other rods in turn; rod 4 fires only in the turns ``rod_4_in``."""
    s = Script(["Ana", "Ben", "Caro"], "normal")
    t = 1.0
    for k in range(turns):
        s.start(t)
        s.hand_in(t + 1)
        s.touch(_OTHERS[k % 6], t + 2)
        s.touch(_OTHERS[(k + 3) % 6], t + 3)
        if k in rod_4_in:
            s.input(t + 3.5, "laser.4", 1)
            s.input(t + 3.5001, "laser.4", 0)   # a glitch: the rod's wire still answers
        s.lift_painting(1, t + 4)
        s.hand_out(t + 5)
        s.exit(t + 6)
        s.reset_museum(t + 7, relics=())
        t += 10
    s.write(path)


if __name__ == "__main__":   # python -m sim.script > demo.jsonl
    print(demo_match().text(), end="")

