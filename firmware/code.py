"""The relic hub's entry point on the Raspberry Pi Pico (CircuitPython 9.x).

The only file that touches the hardware: it builds one adapter per LIS3DH (board / busio /
digitalio / adafruit_lis3dh), the USB writer (usb_cdc.data) and the millisecond clock, and hands
them to relichub.hub.Hub, whose logic is tested on a PC.  Wiring: wiring/relic-hub.md.
"""

import time

import adafruit_lis3dh
import board
import busio
import digitalio
import usb_cdc

from relichub.hub import Hub

STANDARD_GRAVITY = 9.806
I2C_FREQUENCY_HZ = 400000  # use 100000 if a relic cable is longer than about 30 cm
SENSOR_RETRY_S = 1.0  # how often a relic whose sensor stopped answering is tried again
WRITE_TIMEOUT_S = 0.02

# relic id -> (bus, I2C address, INT1 pin).  Relic 1 stands closest to the gallery.
BUSES = {
    "i2c0": (board.GP5, board.GP4),  # (SCL, SDA)
    "i2c1": (board.GP3, board.GP2),
}
RELICS = {
    1: ("i2c0", 0x18, board.GP10),
    2: ("i2c0", 0x19, board.GP11),
    3: ("i2c1", 0x18, board.GP12),
}

# LIS3DH free-fall interrupt on INT1 (ST application note AN3308), for 400 Hz and +/-2 g.
_REG_CTRL3 = 0x22
_REG_INT1_CFG = 0x30
_REG_INT1_SRC = 0x31
_REG_INT1_THS = 0x32
_REG_INT1_DURATION = 0x33
_FREEFALL_THS = 22  # 22 x 16 mg = 352 mg
_FREEFALL_DURATION = 12  # 12 x 2.5 ms = 30 ms
_INT1_CFG_ALL_LOW = 0x95  # AND of X, Y and Z low


class Bus:
    """One I2C bus, opened on first use: busio refuses a bus whose pull-ups are missing (the
    breakout carries them), so an unplugged relic must not stop the others from starting."""

    def __init__(self, scl, sda):
        self.scl = scl
        self.sda = sda
        self.i2c = None

    def get(self):
        if self.i2c is None:
            try:
                self.i2c = busio.I2C(self.scl, self.sda, frequency=I2C_FREQUENCY_HZ)
            except (RuntimeError, ValueError) as exc:
                raise OSError("I2C bus not ready: %s" % (exc,))
        return self.i2c


class LIS3DHRelic:
    """One relic's sensor as the hub wants it: read_g() and take_freefall().

    A sensor that stops answering (a pulled cable) raises OSError and is re-opened every
    SENSOR_RETRY_S, so plugging it back in needs no reset.
    """

    def __init__(self, bus, address, int1_pin):
        self.bus = bus
        self.address = address
        self.chip = None
        self.hw_freefall = False
        self.retry_at = 0.0
        self.int1 = None
        try:
            self.int1 = digitalio.DigitalInOut(int1_pin)
            self.int1.direction = digitalio.Direction.INPUT
            self.int1.pull = digitalio.Pull.DOWN
        except (ValueError, RuntimeError) as exc:
            print("INT1 pin unusable (%s): software free-fall check only" % (exc,))
            self.int1 = None

    def open(self):
        try:
            chip = adafruit_lis3dh.LIS3DH_I2C(self.bus.get(), address=self.address)
            chip.range = adafruit_lis3dh.RANGE_2_G
            chip.data_rate = adafruit_lis3dh.DATARATE_400_HZ
        except (OSError, ValueError, RuntimeError) as exc:
            raise OSError("no LIS3DH at 0x%02x: %s" % (self.address, exc))
        self.hw_freefall = False
        if self.int1 is not None:
            try:
                chip._write_register_byte(_REG_INT1_THS, _FREEFALL_THS)
                chip._write_register_byte(_REG_INT1_DURATION, _FREEFALL_DURATION)
                chip._write_register_byte(_REG_INT1_CFG, _INT1_CFG_ALL_LOW)
                chip._write_register_byte(_REG_CTRL3, 0x40)  # IA1 interrupt on the INT1 pin
                chip._read_register_byte(_REG_INT1_SRC)  # clear a stale latch
                self.hw_freefall = True
            except (AttributeError, OSError) as exc:
                print("LIS3DH 0x%02x: no free-fall interrupt (%s)" % (self.address, exc))
        self.chip = chip

    def read_g(self):
        if self.chip is None:
            now = time.monotonic()
            if now < self.retry_at:
                raise OSError("LIS3DH 0x%02x not answering" % self.address)
            self.retry_at = now + SENSOR_RETRY_S
            self.open()
        try:
            x, y, z = self.chip.acceleration
        except OSError:
            self.chip = None
            raise
        return (x / STANDARD_GRAVITY, y / STANDARD_GRAVITY, z / STANDARD_GRAVITY)

    def take_freefall(self):
        if self.chip is None or not self.hw_freefall or not self.int1.value:
            return False
        try:
            self.chip._read_register_byte(_REG_INT1_SRC)  # reading INT1_SRC clears the latch
        except OSError:
            return False
        return True


def now_ms():
    return time.monotonic_ns() // 1000000


def start():
    """Open the USB data port, the buses and the relics; return the Hub that the loop drives."""
    port = usb_cdc.data
    while port is None:
        print("usb_cdc.data is off: copy boot.py to CIRCUITPY and reset the board")
        time.sleep(5)
    port.write_timeout = WRITE_TIMEOUT_S

    def write(frame):
        if port.connected:  # a host holds the port open; otherwise drop, as on a lost link
            port.write(frame)

    buses = {}
    for name in BUSES:
        scl, sda = BUSES[name]
        buses[name] = Bus(scl, sda)
    sensors = {}
    for relic_id in RELICS:
        bus, address, int1_pin = RELICS[relic_id]
        sensors[relic_id] = LIS3DHRelic(buses[bus], address, int1_pin)

    hub = Hub(sensors, write)
    print("relic hub %d.%d.%d running" % hub.firmware)
    return hub


def step(hub):
    """One pass of the loop: do whatever is due, then sleep until the next thing is."""
    due = hub.tick(now_ms())
    wait_ms = due - now_ms()
    if wait_ms > 0:
        time.sleep(wait_ms / 1000)


def main():
    hub = start()
    while True:
        step(hub)


# CircuitPython runs code.py as __main__.  The MicroPython test tier imports it instead and
# calls start() and step() itself, so that the heap is collected between passes (see
# sim/micropython/run_hub.mjs).
if __name__ == "__main__":
    main()
