"""What feeds the referee's inbox: the pins, the hand sensor, the relic hub.

Each source is started with the host's intake (:class:`rig.shell.intake.Intake`: ``input(name,
value, t_abs=None)``, ``fault(source, message, active)`` and ``device(device, state)``) and only stamps and puts (never
blocks the referee); ``stop(timeout_s)`` is bounded and ``running`` tells the watchdog it is
alive.  The simulator swaps in its own relic feed (``sim.table.FakeRelicFeed``) through the
same interface.

What the rig does when a device goes away is decided here, once: a lost hand sensor reads
"nothing in range" (the exit button alone ends a turn), a lost relic hub leaves every relic
upright and still (turns start and end as usual; the guard counts relics by hand).
"""

import threading

from . import names as museum
from .names import Aspect


class PinSource:
    """The museum's contacts as gpiozero devices on the injected pin factory (only ``names``,
    when given: the parts a game declares), the declared ``reflex`` in their callbacks."""

    def __init__(self, pinmap, pin_factory, clock, names=None, reflex=None):
        self.pinmap = pinmap
        self.pin_factory = pin_factory
        self.clock = clock
        self.names = names
        self.reflex = reflex
        self.inputs = None

    def start(self, intake):
        from .pins import Inputs
        self.inputs = Inputs(self.pinmap, self.pin_factory, self.clock,
                             lambda t, name, value: intake.input(name, value, t),
                             names=self.names, reflex=self.reflex)

    def values(self):
        return self.inputs.values()

    def stop(self, timeout_s=1.0):
        if self.inputs is not None:
            self.inputs.close()
        return True

    @property
    def running(self):
        return True


def hand_lost(intake, lost, reason):
    """The hand sensor was lost (or answers again)."""
    if lost:
        intake.input(museum.TOF, museum.NOTHING_IN_RANGE_MM)
        intake.fault(museum.TOF, "Hand sensor lost: exit button only. " + reason, True)
    else:
        intake.fault(museum.TOF, reason, False)


#: The fault of a relic hub that sends far more frames than a hub does (rig.table.hub.FloodGuard).
HUB_FLOOD = "hub.flood"


def hub_lost(intake, lost, reason):
    """The relic hub was lost (or is back)."""
    if lost:
        for n in museum.RELICS:
            intake.input(museum.relic(n, Aspect.MOTION), 0)
            intake.input(museum.relic(n, Aspect.TILT), 0.0)
        intake.fault("hub", "Relic hub lost: relics not sensed. " + reason, True)
    else:
        intake.fault("hub", "Relic hub back: " + reason, False)


class HandSource:
    """The VL53L0X at the door, polled on its own thread (:class:`rig.table.tof.HandPoller`)."""

    def __init__(self, tof_factory, tof_config, threshold_mm, clock):
        self.tof_factory = tof_factory
        self.config = tof_config
        self.threshold_mm = threshold_mm
        self.clock = clock
        self.poller = None

    def start(self, intake):
        from .tof import HandPoller
        registered = threading.Event()
        clock = self.clock

        def wait(stop_event, timeout_s):
            if not registered.is_set():
                clock.register()
                registered.set()
            return clock.sleep(timeout_s, stop_event)

        cfg = self.config
        self.poller = HandPoller(
            self.tof_factory, lambda mm: intake.input(museum.TOF, mm),
            lambda lost, reason: hand_lost(intake, lost, reason),
            poll_interval_s=cfg.poll_interval_s, backoff_s=cfg.retry_backoff_s,
            lost_after=cfg.lost_after, threshold_mm=self.threshold_mm, wait=wait,
            now=clock.now, on_reinit=lambda reinits: intake.device(museum.TOF, "reinit"))
        self.poller.start()
        registered.wait(5.0)

    def stop(self, timeout_s=1.0):
        if self.poller is None:
            return True
        self.poller.request_stop()
        self.clock.wake()       # its thread may be sleeping on the clock
        return self.poller.stop(timeout_s=timeout_s)

    @property
    def running(self):
        return self.poller is not None and self.poller.running


class HubSource:
    """The relic hub's serial link (:class:`rig.table.hub.HubLink`) on its own thread."""

    def __init__(self, url, hub_config, clock, serial_for_url=None):
        self.url = url
        self.config = hub_config
        self.clock = clock
        self.serial_for_url = serial_for_url
        self.link = None

    def start(self, intake):
        from .hub import HubLink
        kwargs = {}
        if self.serial_for_url is not None:
            kwargs["serial_for_url"] = self.serial_for_url
        self.link = HubLink(self.url, intake.input,
                            lambda lost, reason: hub_lost(intake, lost, reason),
                            heartbeat_timeout_s=self.config.heartbeat_timeout_s,
                            baudrate=self.config.baudrate, clock=self.clock.now,
                            on_fault=lambda active, message: intake.fault(
                                HUB_FLOOD, message, active),
                            on_relic=lambda relic, answering: intake.device(
                                "relic.%d" % relic, "back" if answering else "lost"),
                            **kwargs)
        self.link.start()

    def stop(self, timeout_s=2.0):
        return self.link.stop(timeout_s=timeout_s) if self.link is not None else True

    @property
    def running(self):
        return self.link is not None and self.link.running
