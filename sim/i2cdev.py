"""The kernel's I2C character devices (/dev/i2c-N), in Python, on a virtual clock.

On Linux, Blinka's ``busio.I2C`` goes through ``Adafruit_PureIO.smbus.SMBus``, which opens
``/dev/i2c-N`` with the built-in ``open`` and talks to it with ``fcntl.ioctl`` (``I2C_SLAVE`` to
pick an address, then ``read``/``write``; ``I2C_RDWR`` for combined transfers).  That is the
lowest layer above the hardware, and the only one :class:`I2CDev` replaces: everything above it
(the VL53L0X driver, Adafruit's bus-device locking, Blinka's busio, PureIO's ctypes structs)
runs unchanged.  The ``I2C_RDWR`` argument is decoded from raw memory with the kernel's own
layout (``struct i2c_rdwr_ioctl_data`` of ``linux/i2c-dev.h``), as the kernel copies it.

The bus is also the clock.  Each transfer costs its time on the wire at ``bus_hz`` (100 kHz, the
Raspberry Pi's default: a start, nine bits per byte with the address byte, a stop), and a device
sees the time its transfer ends.  ``transfers`` and ``busy_s`` say how much a driver used the
bus, which is what a busy-polling driver holds against every other thread.

    dev = I2CDev()
    dev.attach(1, 0x29, VL53L0XChip())
    undo = dev.install()      # Adafruit_PureIO's SMBus now opens this, not /dev/i2c-1
    ...
    dev.fail_next(2)          # the next 2 transfers fail with EREMOTEIO (no ACK)
    dev.detach(1, 0x29)       # the sensor leaves the bus: every transfer to it gets no ACK
    undo()

A device is any object with ``write(data, now_s)`` and ``read(count, now_s) -> bytes``.
"""

import builtins
import ctypes
import errno
import itertools
import os

#: ioctl requests and message flags of linux/i2c-dev.h and linux/i2c.h.
I2C_SLAVE = 0x0703
I2C_SLAVE_FORCE = 0x0706
I2C_RDWR = 0x0707
I2C_M_RD = 0x0001
#: The kernel refuses an I2C_RDWR with more messages than this (I2C_RDWR_IOCTL_MAX_MSGS).
RDWR_MAX_MSGS = 42


class _Msg(ctypes.Structure):
    """struct i2c_msg: addr, flags, len, then a pointer to the bytes."""
    _fields_ = [("addr", ctypes.c_uint16), ("flags", ctypes.c_uint16),
                ("len", ctypes.c_uint16), ("buf", ctypes.c_void_p)]


class _RdwrData(ctypes.Structure):
    """struct i2c_rdwr_ioctl_data: a pointer to the messages and their count."""
    _fields_ = [("msgs", ctypes.c_void_p), ("nmsgs", ctypes.c_uint32)]


def _os_error(code, path=None):
    return OSError(code, os.strerror(code)) if path is None \
        else OSError(code, os.strerror(code), path)


class I2CDev:
    """Every /dev/i2c-N of one machine, the devices on those buses, and the time."""

    def __init__(self, bus_hz=100_000, start_s=0.0):
        self.bus_hz = bus_hz
        self._now_s = float(start_s)
        self._buses = {}            # bus number -> {address: device}
        self._files = {}            # fd -> _DevFile
        self._fds = itertools.count(1000)
        self._errors = []           # errno of the next failing transfers, oldest first
        self.open_error = None      # an errno every open fails with (EACCES...), or None
        self.transfers = 0          # START..STOP transactions on any bus
        self.busy_s = 0.0           # time the buses were held by them

    # --- The world ------------------------------------------------------------------------------

    def now(self):
        """The bus's clock, in seconds: a ``time.monotonic`` for the code under test."""
        return self._now_s

    def advance(self, seconds):
        """Let time pass with the bus idle (a thread waiting between polls)."""
        self._now_s += max(0.0, seconds)

    def add_bus(self, bus):
        """Make /dev/i2c-``bus`` exist (I2C enabled), with nothing on it yet."""
        self._buses.setdefault(bus, {})

    def remove_bus(self, bus):
        """I2C switched off: /dev/i2c-``bus`` no longer exists."""
        self._buses.pop(bus, None)

    def attach(self, bus, address, device):
        """Wire ``device`` to ``bus`` at 7-bit ``address`` (the bus appears if needed)."""
        self.add_bus(bus)
        self._buses[bus][address] = device
        return device

    def detach(self, bus, address):
        """Unplug the device at ``address``: transfers to it get no ACK (EREMOTEIO)."""
        return self._buses[bus].pop(address, None)

    def fail_next(self, count=1, code=errno.EREMOTEIO):
        """The next ``count`` transfers fail with ``code`` (EREMOTEIO: no ACK; ETIMEDOUT: a
        device held the clock line; EIO: a glitch on the wires)."""
        self._errors.extend([code] * count)

    def install(self):
        """Route Adafruit_PureIO's SMBus to these devices; returns the function that undoes it.

        PureIO's module calls ``open`` (the built-in, unless the module has its own) and
        ``ioctl`` (imported from fcntl); both are replaced in that module only."""
        from Adafruit_PureIO import smbus
        real_ioctl = smbus.ioctl
        smbus.open = self.open
        smbus.ioctl = self.ioctl

        def undo():
            del smbus.open
            smbus.ioctl = real_ioctl
        return undo

    # --- The kernel's side ----------------------------------------------------------------------

    def open(self, file, mode="r", buffering=-1, *args, **kwargs):
        """``open`` for the module under test: /dev/i2c-N here, every other path as usual."""
        path = os.fspath(file)
        if not isinstance(path, str) or not path.startswith("/dev/i2c-"):
            return builtins.open(file, mode, buffering, *args, **kwargs)
        suffix = path[len("/dev/i2c-"):]
        if not suffix.isdigit() or int(suffix) not in self._buses:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        if self.open_error is not None:
            raise _os_error(self.open_error, path)
        fd = next(self._fds)
        self._files[fd] = _DevFile(self, int(suffix), fd)
        return self._files[fd]

    def ioctl(self, fd, request, arg=0, mutate_flag=True):
        """``fcntl.ioctl`` on an open /dev/i2c-N: I2C_SLAVE(_FORCE) and I2C_RDWR."""
        file = self._files.get(fd)
        if file is None:
            raise _os_error(errno.EBADF)
        if request in (I2C_SLAVE, I2C_SLAVE_FORCE):
            if not 0 <= arg <= 0x7F:
                raise _os_error(errno.EINVAL)
            file.address = arg
            return 0
        if request == I2C_RDWR:
            return self._rdwr(file, arg)
        raise _os_error(errno.ENOTTY)

    def _rdwr(self, file, arg):
        data = _RdwrData.from_buffer(arg)
        if not 0 < data.nmsgs <= RDWR_MAX_MSGS:
            raise _os_error(errno.EINVAL)
        msgs = (_Msg * data.nmsgs).from_address(data.msgs)
        parts = []
        for msg in msgs:
            if msg.flags & ~I2C_M_RD:
                raise _os_error(errno.EOPNOTSUPP)  # ten-bit, no-start...: not on a Pi's bus
            if msg.flags & I2C_M_RD:
                parts.append((msg.addr, msg.len))
            else:
                parts.append((msg.addr, ctypes.string_at(msg.buf, msg.len) if msg.len else b""))
        results = self.transfer(file.bus, parts)
        for msg, result in zip(msgs, results):
            if msg.flags & I2C_M_RD:
                ctypes.memmove(msg.buf, result, msg.len)
        return data.nmsgs

    def transfer(self, bus, parts):
        """One transaction on ``bus``: ``parts`` are (address, bytes) writes and (address,
        count) reads joined by repeated starts.  Returns what each part read (None for writes).
        Raises the kernel's OSError for a queued failure or a missing ACK."""
        bits = 2 + sum(9 * (1 + (len(p) if isinstance(p, bytes) else p)) for _, p in parts)
        self._now_s += bits / self.bus_hz
        self.busy_s += bits / self.bus_hz
        self.transfers += 1
        if self._errors:
            raise _os_error(self._errors.pop(0))
        results = []
        for address, part in parts:
            device = self._buses.get(bus, {}).get(address)
            if device is None:
                raise _os_error(errno.EREMOTEIO)
            if isinstance(part, bytes):
                device.write(part, self._now_s)
                results.append(None)
            else:
                results.append(bytes(device.read(part, self._now_s)))
        return results


class _DevFile:
    """One open /dev/i2c-N: plain ``read``/``write`` go to the address I2C_SLAVE picked."""

    def __init__(self, dev, bus, fd):
        self._dev = dev
        self.bus = bus
        self._fd = fd
        self.address = None
        self.closed = False

    def fileno(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        return self._fd

    def read(self, count):
        self._check()
        return self._dev.transfer(self.bus, [(self.address, count)])[0]

    def write(self, data):
        self._check()
        self._dev.transfer(self.bus, [(self.address, bytes(data))])
        return len(data)

    def close(self):
        if not self.closed:
            self.closed = True
            self._dev._files.pop(self._fd, None)

    def _check(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")
        if self.address is None:  # no I2C_SLAVE yet: the kernel's client has no address
            raise _os_error(errno.EREMOTEIO)
