"""The whole rig on a simulated table: the real daemon on mock pins, a fake hand sensor and a
fake relic feed, in virtual time (tests) or real time (``cleptomano run`` on a laptop).

``SimulatedTable.play(objects)`` performs a recording's lines on the simulated hardware at their
times: contacts through the pins, ``tof`` through the fake VL53L0X (read by the rig's own
poller), relic values through the fake relic feed, choices and haul counts through the guard's
controls.  The rig referees it exactly as it would a real table.
"""

import threading

from rig.games.cleptomano.rules import events as ev
from rig.table import names as museum
from rig.links.publisher import tournament_link
from rig.shell.build import Backend, build_rig
from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.table.sources import HubSource, hub_lost

from .clock import VirtualClock
from .fake_tof import FakeVL53L0X
from .pins import Museum, VirtualFactory


class FakeRelicFeed:
    """Stands in for the relic hub: a source of the rig (:mod:`rig.table.sources`) that hands
    relic values to it as the hub's link would, and loses the hub as the link would.  Like the
    link after it connects, it reports every relic's tilt and motion when the rig starts (a rig
    that resumes a match after a crash learns how the relics stand now)."""

    running = True

    def __init__(self):
        self.intake = None
        self.values = {name: museum.REST[name] for name in museum.RELIC_INPUTS
                       if museum.parse(name).aspect is not museum.Aspect.FREEFALL}

    def start(self, intake):
        self.intake = intake
        for name, value in self.values.items():
            intake.input(name, value)

    def stop(self, timeout_s=1.0):
        return True

    def send(self, name, value):
        if name in self.values:
            self.values[name] = value
        self.intake.input(name, value)

    def lose(self, reason="unplugged"):
        hub_lost(self.intake, True, reason)

    def back(self, reason="heartbeat"):
        hub_lost(self.intake, False, reason)


class HubRelicFeed:
    """Plays recording-level relic values as gestures on a :class:`sim.relichub.VirtualRelicHub`,
    so the values reach the rig through the firmware's logic, real frames and the serial link."""

    def __init__(self, hub):
        self.hub = hub
        self.held = set()
        self.lying = set()

    def send(self, name, value):
        _, number, kind = name.split(".")
        relic = int(number)
        if kind == "freefall":
            if value:
                self.held.discard(relic)
                self.lying.add(relic)
                self.hub.drop(relic)
        elif kind == "tilt":
            if value >= 60 and relic not in self.lying:
                self.held.discard(relic)
                self.lying.add(relic)
                self.hub.knock_over(relic)
            elif value < 30 and relic in self.lying:
                self.lying.discard(relic)
                self.hub.set_down(relic)      # the guard stands it back up
        elif kind == "motion":
            if value and relic not in self.held and relic not in self.lying:
                self.held.add(relic)
                self.hub.lift(relic)
            elif not value and relic in self.held:
                self.held.discard(relic)
                self.hub.set_down(relic)

    def lose(self, reason="unplugged"):
        self.hub.unplug()

    def back(self, reason="replugged"):
        self.hub.replug()


class SimulatedTable:
    """The rig built by :func:`rig.shell.build.build_rig` on the simulator's backend.

    Relics come from a :class:`FakeRelicFeed` unless ``hub_url`` names a relic hub's serial
    port (the virtual hub on a pty, which runs in real time: its link keeps real time for its
    heartbeats, while its values are stamped on the table's clock); ``hub`` is then the
    :class:`sim.relichub.VirtualRelicHub` whose gestures :meth:`apply` plays.  ``edge_delay_s``
    is the rig's allowance for late edges (:meth:`VirtualFactory.hold` makes them late).
    ``relics`` replaces the fake relic feed with another relic source, ``tof`` the fake hand
    sensor with another (a noisy one, :class:`sim.fake_tof.NoisyVL53L0X`).  ``overrides``
    go to :func:`build_rig` (players, level, first_thief, key_help, patterns, trace...).
    """

    def __init__(self, config=None, *, clock=None, recordings_dir=None, display=None,
                 hub_url=None, serial_for_url=None, hub=None, resume=False, edge_delay_s=0.0,
                 relics=None, tof=None, **overrides):
        self.config = config or load_config(None)
        self.clock = clock if clock is not None else VirtualClock()
        self.virtual = isinstance(self.clock, VirtualClock)
        self.factory = VirtualFactory(self.clock if self.virtual else None)
        self.tof = tof if tof is not None else FakeVL53L0X()
        if hub_url:
            source = HubSource(hub_url, self.config.hub, MonotonicClock(), serial_for_url)
            self.relics = HubRelicFeed(hub) if hub is not None else None
        else:
            source = self.relics = relics if relics is not None else FakeRelicFeed()
        backend = Backend(self.factory, self.clock, self.tof.factory, source, display,
                          edge_delay_s=edge_delay_s)
        overrides.setdefault("link_for", tournament_link)     # the command line's link too
        self.rig = build_rig(self.config, backend, recordings_dir=recordings_dir,
                             resume=resume, **overrides)
        self.museum = Museum(self.factory, self.config.pinmap)
        self.start_s = None

    def start(self):
        self.rig.start()
        self.museum.rest()
        self.start_s = self.rig.t0
        self.settle()
        return self

    def stop(self, timeout_s=3.0):
        ok = self.rig.stop(timeout_s)
        self.factory.reset()
        return ok

    def crash(self, timeout_s=3.0):
        """Stop the rig as a power cut would: no end line; a new table resumes the match."""
        ok = self.rig.stop(timeout_s, clean=False)
        self.factory.reset()
        return ok

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def settle(self):
        if self.virtual:
            self.clock.settle()

    def advance_to(self, t):
        """Move the table's clock to ``t`` seconds after the rig started (virtual time)."""
        if self.virtual:
            self.clock.advance_to(self.start_s + t)

    # --- performing recording lines ------------------------------------------------------------
    def apply(self, obj):
        if "input" in obj:
            name, value = obj["input"], obj["value"]
            if name == "tof":
                self.tof.range = value
            elif name.startswith("relic."):
                self.relics.send(name, value)
            else:
                self.museum.set(name, value)
        elif "choose" in obj:
            self.rig.submit(ev.Choose(0.0, ev.Role(obj["choose"]), obj["player"],
                                      obj.get("by")))
        elif "loot" in obj:
            self.rig.submit(ev.ConfirmLoot(0.0, obj["loot"]["paintings"],
                                           obj["loot"]["relics"], obj.get("by"),
                                           obj.get("reason")))
        elif "undo" in obj:
            self.rig.submit(ev.UndoTouch(0.0, obj.get("by"), obj.get("reason")))
        elif "why" in obj:
            self.rig.submit(ev.Why(0.0, obj["why"], obj.get("by")))

    def play(self, objects, stop_event=None):
        """Perform recording lines (header first or not) at their times.  In virtual time the
        clock is advanced; in real time this waits (interruptibly) until each line is due."""
        for obj in objects:
            if "t" not in obj:
                continue
            if self.virtual:
                self.advance_to(obj["t"])
            else:
                due = self.start_s + obj["t"]
                stop = stop_event or threading.Event()
                while self.clock.now() < due:
                    if stop.wait(min(0.05, due - self.clock.now())):
                        return False
            if "end" in obj:
                break
            self.apply(obj)
            self.settle()
        # Let the poller see the last reading and every deadline due by now fire.
        if self.virtual:
            self.clock.advance(0.05)
        return True


def real_time_table(config=None, **kwargs):
    return SimulatedTable(config, clock=MonotonicClock(), **kwargs)
