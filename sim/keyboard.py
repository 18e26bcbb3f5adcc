"""Drive the simulated museum by hand from the terminal's keyboard.

The score display (a pygame window) keeps the guard's keys; the terminal plays the museum box:
each key is one gesture on the simulated table.  :class:`KeyboardMuseum` is the mapping (pure
but for the table it acts on); :func:`run_terminal` reads single keys from a TTY in cbreak mode
(bounded waits, a stop event) until ``q``.
"""

import os
import select
import sys
import threading

HELP = """Museum keys (terminal):
  1-8   touch laser 1-8 (a short contact)     !     hold/release laser 4 (a stuck contact)
  g     touch the guard token                 h     hand in / out of the museum
  space press the start/exit button           p     painting 1: lift it / put it back
  z x c take relic 1 / 2 / 3 (lift, carry,    P     painting 2: lift it / put it back
        set down upright)                     Z X C knock relic 1 / 2 / 3 over
  $ % ^ & *  (shift 4-8) lift rod 4-8 out of its seat / seat it again
  r     the guard resets the museum           ?     this help      q  quit
The rig's window takes the same keys while the guard types nothing (K the guard token, I the
hand: G and H are the guard's keys there)."""

#: The window's keys for the gestures whose terminal key the guard's keys take (G, H).
WINDOW_ALIASES = {"k": "g", "i": "h"}

SEAT_KEYS = {"$": 4, "%": 5, "^": 6, "&": 7, "*": 8}


class KeyboardMuseum:
    """Turns key presses into gestures on a :class:`sim.table.SimulatedTable` (real time)."""

    def __init__(self, table, timer_factory=threading.Timer):
        self.table = table
        self.timer = timer_factory
        self.hand_inside = False
        self.stuck = False

    def _pulse(self, name, on_s):
        self.table.museum.set(name, 1)
        self.timer(on_s, self.table.museum.set, (name, 0)).start()

    def key(self, ch):
        """Perform the gesture for ``ch``; returns what happened, in words (or None)."""
        museum, table = self.table.museum, self.table
        if ch in "12345678" and ch:
            self._pulse("laser.%s" % ch, 0.08)
            return "touched laser %s" % ch
        if ch == "!":
            self.stuck = not self.stuck
            museum.set("laser.4", int(self.stuck))
            return "laser 4 contact %s" % ("held closed" if self.stuck else "released")
        if ch == "g":
            self._pulse("guard", 0.1)
            return "touched the guard token"
        if ch == " ":
            self._pulse("button", 0.15)
            return "pressed the button"
        if ch == "h":
            self.hand_inside = not self.hand_inside
            table.tof.range = 150 if self.hand_inside else 8190
            return "hand %s" % ("in" if self.hand_inside else "out")
        if ch in ("p", "P"):
            name = "painting.1" if ch == "p" else "painting.2"
            value = 1 - museum.value(name)
            museum.set(name, value)
            return "%s %s" % (name.replace(".", " "), "back on its stand" if value else "lifted")
        if ch in SEAT_KEYS:
            name = "seat.%d" % SEAT_KEYS[ch]
            value = 1 - museum.value(name)
            museum.set(name, value)
            return "rod %d %s" % (SEAT_KEYS[ch], "seated" if value else "lifted out of its seat")
        if ch.lower() in "zxc" and ch:
            relic = "zxc".index(ch.lower()) + 1
            send = table.relics.send
            send("relic.%d.motion" % relic, 1)
            if ch.islower():
                send("relic.%d.tilt" % relic, 10.0)
                self.timer(1.0, self._set_down, (relic,)).start()
                return "took relic %d" % relic
            send("relic.%d.tilt" % relic, 88.0)
            self.timer(0.6, send, ("relic.%d.motion" % relic, 0)).start()
            return "knocked relic %d over" % relic
        if ch == "r":
            for n in (1, 2):
                museum.set("painting.%d" % n, 1)
            for n in range(4, 9):
                museum.set("seat.%d" % n, 1)
            for n in (1, 2, 3):
                table.relics.send("relic.%d.tilt" % n, 0.0)
                table.relics.send("relic.%d.motion" % n, 0)
            return "the guard reset the museum"
        if ch == "?":
            return HELP
        return None

    def _set_down(self, relic):
        self.table.relics.send("relic.%d.tilt" % relic, 2.0)
        self.table.relics.send("relic.%d.motion" % relic, 0)


def run_terminal(museum, stop, stream=None, out=print):
    """Read keys from a TTY until ``q`` or ``stop``; every wait is bounded."""
    import termios
    import tty
    stream = stream or sys.stdin
    fd = stream.fileno()
    old = termios.tcgetattr(fd)
    out(HELP)
    try:
        tty.setcbreak(fd)
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.25)
            if not ready:
                continue
            ch = os.read(fd, 1).decode("utf-8", "replace")
            if ch == "q":
                stop.set()
                break
            said = museum.key(ch)
            if said:
                out("> " + said)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


class WindowMuseum:
    """The rig's display (its faces), with the keys typed in its window that the guard's keys
    leave unused (:class:`rig.display.keymodes.MuseumKey`) played on the museum: Space presses
    the start button, as in the terminal (issue 30: on a laptop the window's Space did
    nothing).  Everything else is the display's."""

    def __init__(self, display, out=None):
        self.display = display
        self.museum = None          # a KeyboardMuseum, once the table is built
        self.out = out if out is not None else (lambda text: print(text, file=sys.stderr))

    def __getattr__(self, name):
        return getattr(self.display, name)

    def poll_commands(self):
        from rig.display.keymodes import MuseumKey
        kept = []
        for command in self.display.poll_commands():
            if type(command) is not MuseumKey:
                kept.append(command)
            elif self.museum is not None:
                said = self.museum.key(WINDOW_ALIASES.get(command.key, command.key))
                if said:
                    self.out("> " + said)
        return kept
