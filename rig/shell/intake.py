"""The host's side of every source of the table (:mod:`rig.table.sources`): stamp with the rig's
clock and put on the referee's inbox."""

from .inbox import DeviceNote, FaultReport, Order, Reading


class Intake:
    """The rig's side of every source: stamp with the rig's clock and put on the inbox."""

    def __init__(self, inbox, clock):
        self.inbox = inbox
        self.clock = clock

    def input(self, name, value, t_abs=None):
        self.inbox.put(Reading(self.clock.now() if t_abs is None else t_abs, name, value))

    def fault(self, source, message, active):
        self.inbox.put(FaultReport(self.clock.now(), source, message, active))

    def device(self, device, state):
        """A device's change the audits count and no one is shown (the hand sensor's
        ``reinit``); its loss and return come as :meth:`fault`."""
        self.inbox.put(DeviceNote(self.clock.now(), device, state))

    def command(self, command, reply=None):
        self.inbox.put(Order(self.clock.now(), command, reply))
