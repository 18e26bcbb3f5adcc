"""Stand-in for CircuitPython's ``usb_cdc``: ``enable()`` (boot.py only) and the ``data`` port,
whose bytes go to the host's end (a byte sink outside the heap)."""

import virtual_pico


class Serial:
    """The second USB serial port, as code.py sees it once boot.py turned it on."""

    def __init__(self):
        self.write_timeout = None

    @property
    def connected(self):
        """True while a host holds the port open: the Pi's reader does, all through a run."""
        return True

    def write(self, buf):
        return virtual_pico.usb_write(buf)


def enable(*, console=True, data=False):
    virtual_pico.enable_usb(data)


data = Serial() if virtual_pico.usb_data_enabled() else None
