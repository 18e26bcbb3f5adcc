"""Stand-in for CircuitPython's ``busio.I2C`` on the RP2040: the bytes go to the virtual LIS3DH
chips on the wires (virtual_pico.Lis3dh); every transfer takes its time at the bus frequency.

As on the real board: the pins must be an SCL/SDA pair of one I2C unit and are claimed, a bus
without pull-ups is refused, every transfer needs the lock, and an address nobody acknowledges
raises ``OSError`` errno 19.  Only what the firmware and adafruit_bus_device call is here."""

import virtual_pico

_MAX = 0x7FFFFFFF


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        if virtual_pico.i2c_unit(scl, sda) is None:
            raise ValueError("Invalid pins")
        bus = virtual_pico.bus_for(scl, sda)
        if bus is None or not bus.pulled_up():
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        virtual_pico.claim(scl, self)
        try:
            virtual_pico.claim(sda, self)
        except ValueError:
            virtual_pico.release(scl)
            raise
        self._bus = bus
        self._frequency = frequency
        self._locked = False

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def writeto(self, address, buffer, *, start=0, end=_MAX):
        data = bytes(buffer[start:end])
        self._device(address, len(data)).write(data)

    def readfrom_into(self, address, buffer, *, start=0, end=_MAX):
        end = min(end, len(buffer))
        data = self._device(address, end - start).read(end - start)
        for i in range(end - start):
            buffer[start + i] = data[i]

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0,
                              out_end=_MAX, in_start=0, in_end=_MAX):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)

    def _device(self, address, nbytes):
        if not self._locked:
            raise RuntimeError("Function requires lock")
        virtual_pico.transfer_time(nbytes, self._frequency)
        chip = self._bus.chip(address)
        if chip is None:
            for wired in self._bus.chips:
                if wired.address == address:
                    wired.stats["nacks"] += 1
            raise OSError(virtual_pico.ENODEV)
        return chip
