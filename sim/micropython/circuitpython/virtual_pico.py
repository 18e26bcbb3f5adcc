"""The virtual Raspberry Pi Pico of the MicroPython test tier: its clock, its pins, the LIS3DH
chips on its I2C buses and the far end of its USB data port.  MicroPython code, not CPython.

The firmware never imports this module.  It sees only the stand-ins beside it (``time``,
``microcontroller``, ``board``, ``busio``, ``digitalio``, ``usb_cdc``), which keep to the
CircuitPython 9 API of the same names and reach the hardware through here, at the level of I2C
bytes and pin levels: the real ``adafruit_lis3dh`` driver runs on top unchanged.

The world comes from a JSON scenario (written by ``sim/micropython_hub.py``): the buses and the
chips on them as wired in wiring/relic-hub.md, each chip's motion (keyframes of the acceleration
it feels, in g) and when its cable is pulled.  Time is virtual: it moves only when the firmware
sleeps or talks on a bus, so a run is exactly repeatable.

This module shares the MicroPython heap with the firmware (on a Pico it would be silicon), so
the heap figures of a run include it: a pass is on the safe side.
"""

import gc
import json
import sys

ENODEV = 19  # the errno CircuitPython raises when no device acknowledges an address
US_PER_S = 1000000
# A step of the loop still running this long after the scenario's end never returns.
OVERRUN_US = 5 * US_PER_S


class PowerOff(BaseException):
    """The scenario is over and the power is cut: raised from ``time.sleep`` past the end, so
    even a firmware loop that never returns stops (it passes every ``except Exception``)."""


class Clock:
    """Virtual microseconds since power-on (a small int for the 17 minutes any run lasts)."""

    def __init__(self):
        self.us = 0
        self.end_us = 0

    def advance(self, us):
        self.us += us

    def sleep(self, seconds):
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        self.us += int(seconds * US_PER_S)
        if self.us > self.end_us + OVERRUN_US:
            raise PowerOff()


clock = Clock()
_claimed = {}
_state = {"booting": True, "usb_data": False, "sink": None, "chips": [],
          "buses": {}, "int1_wires": {}, "room": 0, "max_alloc": 0, "grew_in": None,
          "grew_by": 0, "phases": []}


def claim(pin, owner):
    """Take ``pin`` for ``owner`` as CircuitPython does; a second claim is a ValueError."""
    if pin.name in _claimed:
        raise ValueError("%s in use" % pin.name)
    _claimed[pin.name] = owner


def release(pin):
    _claimed.pop(pin.name, None)


# --- The LIS3DH ------------------------------------------------------------------------------

WHO_AM_I = 0x0F
CTRL_REG0 = 0x1E
CTRL_REG1 = 0x20
CTRL_REG3 = 0x22
CTRL_REG4 = 0x23
CTRL_REG5 = 0x24
CTRL_REG6 = 0x25
OUT_X_L = 0x28
OUT_Z_H = 0x2D
INT1_CFG = 0x30
INT1_SRC = 0x31
INT1_THS = 0x32
INT1_DURATION = 0x33
# What a write may change (the datasheet's register map); the rest is read-only or reserved.
WRITABLE = tuple(range(0x1E, 0x27)) + (0x2E, 0x30, 0x32, 0x33, 0x34, 0x36, 0x37, 0x38) + \
    tuple(range(0x3A, 0x40))
# CTRL_REG1 ODR bits -> Hz (1600 exists in low-power mode only; 9 means 5376 Hz there, unmodelled).
ODR_HZ = (0, 1, 10, 25, 50, 100, 200, 400, 1600, 1344)
# mg per digit by CTRL_REG4 FS bits: (high-resolution 12 bit, normal 10 bit, low-power 8 bit).
SENSITIVITY_MG = ((1, 4, 16), (2, 8, 32), (4, 16, 64), (12, 48, 192))
INT_THS_LSB_MG = (16, 32, 62, 186)


class Lis3dh:
    """One LIS3DH breakout at the register level (ST datasheet DocID17530): the registers, the
    output at the data rate set in CTRL_REG1, in the range and resolution set in CTRL_REG1/4,
    and interrupt generator 1 (AND/OR of axis low/high events, INT1_THS, INT1_DURATION, the
    LIR_INT1 latch cleared by reading INT1_SRC, routed to the INT1 pin by CTRL_REG3 I1_IA1).

    ``motion`` is a list of ``[t_ms, x_g, y_g, z_g]`` keyframes (linear in between, held after
    the last); ``unplugged`` a list of ``[from_ms, to_ms]``: the cable carries the chip's power,
    so the chip answers nothing then and comes back with its registers at their reset values.
    """

    def __init__(self, spec):
        self.name = spec["name"]
        self.address = spec["address"]
        self.motion = spec["motion"]
        self.unplugged = spec.get("unplugged", [])
        self.noise_mg = spec.get("noise_mg", 0)
        self.seed = spec.get("seed", 1)
        self.stats = {"reads": 0, "nacks": 0, "bad_writes": [], "int1_events": 0,
                      "int1_cleared": 0, "resets": 0}
        self._power_cycles = 0
        self._reset()

    def _reset(self):
        self.regs = bytearray(0x40)
        self.regs[WHO_AM_I] = 0x33
        self.regs[CTRL_REG0] = 0x10
        self.regs[CTRL_REG1] = 0x07
        self._pointer = 0
        self._increment = False
        self._held_k = -1
        self._held = (0, 0, 0)
        self._int_k = -1
        self._int_count = 0
        self._ia = False
        self._src_axes = 0

    # --- the cable ---

    def connected(self):
        now_ms = clock.us // 1000
        cycles = 0
        for window in self.unplugged:
            if window[0] <= now_ms < window[1]:
                return False
            if window[1] <= now_ms:
                cycles += 1
        if cycles != self._power_cycles:  # plugged back in since we last looked: power-on reset
            self._power_cycles = cycles
            self.stats["resets"] += 1
            self._reset()
        return True

    # --- what the chip feels ---

    def feel_g(self, t_ms):
        frames = self.motion
        if t_ms <= frames[0][0]:
            return frames[0][1], frames[0][2], frames[0][3]
        for i in range(1, len(frames)):
            b = frames[i]
            if t_ms < b[0]:
                a = frames[i - 1]
                f = (t_ms - a[0]) / (b[0] - a[0])
                return (a[1] + f * (b[1] - a[1]), a[2] + f * (b[2] - a[2]),
                        a[3] + f * (b[3] - a[3]))
        last = frames[-1]
        return last[1], last[2], last[3]

    def _sample_mg(self, k, period_us):
        """The acceleration (integer mg per axis) of output sample ``k``, with sensor noise."""
        x, y, z = self.feel_g(k * period_us // 1000)
        out = []
        for axis, g in enumerate((x, y, z)):
            noise = 0
            if self.noise_mg:
                h = (k * 7919 + axis * 104729 + self.seed * 1299709) % 65521
                noise = (h % 2001 - 1000) * self.noise_mg / 1000
            out.append(int(g * 1000 + noise))
        return out

    def _period_us(self):
        odr = self.regs[CTRL_REG1] >> 4
        hz = ODR_HZ[odr] if odr < len(ODR_HZ) else 0
        return US_PER_S // hz if hz else 0

    # --- the output registers ---

    def _output(self):
        period = self._period_us()
        if period == 0:
            return self._held  # power-down: the last sample stays
        k = clock.us // period
        if k != self._held_k:
            self._held_k = k
            ctrl1 = self.regs[CTRL_REG1]
            ctrl4 = self.regs[CTRL_REG4]
            fs = (ctrl4 >> 4) & 3
            if ctrl1 & 0x08:
                mode, bits = 2, 8
            elif ctrl4 & 0x08:
                mode, bits = 0, 12
            else:
                mode, bits = 1, 10
            sens = SENSITIVITY_MG[fs][mode]
            top = (1 << (bits - 1)) - 1
            raw = []
            for axis, mg in enumerate(self._sample_mg(k, period)):
                digits = 0
                if ctrl1 & (1 << axis):  # Xen, Yen, Zen
                    digits = max(-top - 1, min(top, round(mg / sens)))
                raw.append((digits << (16 - bits)) & 0xFFFF)
            self._held = raw
        return self._held

    # --- interrupt generator 1 ---

    def _run_int1(self):
        """Feed interrupt generator 1 every output sample up to now (it works at the ODR)."""
        period = self._period_us()
        if period == 0:
            return
        now_k = clock.us // period
        first = max(self._int_k + 1, now_k - 400)
        self._int_k = now_k
        cfg = self.regs[INT1_CFG]
        if cfg & 0x3F == 0 or cfg & 0x40:  # no event enabled, or 6D (not modelled): silent
            return
        fs = (self.regs[CTRL_REG4] >> 4) & 3
        ths = (self.regs[INT1_THS] & 0x7F) * INT_THS_LSB_MG[fs]
        duration = self.regs[INT1_DURATION] & 0x7F
        latched = self.regs[CTRL_REG5] & 0x08
        for k in range(first, now_k + 1):
            axes = 0
            for axis, mg in enumerate(self._sample_mg(k, period)):
                if abs(mg) > ths:
                    axes |= 2 << (2 * axis)  # XH, YH, ZH
                else:
                    axes |= 1 << (2 * axis)  # XL, YL, ZL
            hits = axes & cfg & 0x3F
            met = hits == cfg & 0x3F if cfg & 0x80 else hits != 0
            self._int_count = self._int_count + 1 if met else 0
            fired = self._int_count > duration
            if self._int_count == duration + 1:  # the event is recognised (once per episode)
                self.stats["int1_events"] += 1
            if fired or not latched:
                self._ia = fired
                self._src_axes = axes

    def int1_level(self):
        """The INT1 pin: IA1 when CTRL_REG3 routes it there, active high unless CTRL_REG6 says
        low.  None while the cable is pulled (the pin floats)."""
        if not self.connected():
            return None
        self._run_int1()
        active = bool(self.regs[CTRL_REG3] & 0x40) and self._ia
        if self.regs[CTRL_REG6] & 0x02:
            return not active
        return active

    # --- I2C ---

    def write(self, data):
        self._run_int1()
        if not data:
            return
        self._pointer = data[0] & 0x7F
        self._increment = bool(data[0] & 0x80)
        for value in data[1:]:
            register = self._pointer
            if register in WRITABLE:
                self.regs[register] = value
                if register == CTRL_REG5 and value & 0x80:  # BOOT: reload trimming, self-clears
                    self.regs[CTRL_REG5] = value & 0x7F
            else:
                self.stats["bad_writes"].append(register)
            self._step()

    def read(self, n):
        self._run_int1()
        self.stats["reads"] += 1
        out = bytearray(n)
        for i in range(n):
            register = self._pointer
            if OUT_X_L <= register <= OUT_Z_H:
                word = self._output()[(register - OUT_X_L) // 2]
                out[i] = (word >> 8) if register & 1 else (word & 0xFF)
            elif register == INT1_SRC:
                out[i] = (0x40 if self._ia else 0) | self._src_axes
                if self._ia:
                    self.stats["int1_cleared"] += 1
                self._ia = False
            else:
                out[i] = self.regs[register]
            self._step()
        return out

    def _step(self):
        if self._increment:
            self._pointer = (self._pointer + 1) & 0x3F


# --- The buses ---------------------------------------------------------------------------------

def i2c_unit(scl, sda):
    """The RP2040's I2C unit for this SCL/SDA pair (GPn: n % 4 == 0 SDA0, 1 SCL0, 2 SDA1, 3
    SCL1 on GP0-GP21 and GP26-GP28), or None if the pair is not one."""
    s, d = scl.number, sda.number
    for n in (s, d):
        if not (0 <= n <= 21 or 26 <= n <= 28):
            return None
    if s % 4 in (1, 3) and d % 4 == s % 4 - 1:
        return s % 4 // 2
    return None


class Bus:
    """The wires of one I2C bus and the chips on them."""

    def __init__(self, chips):
        self.chips = chips

    def chip(self, address):
        for chip in self.chips:
            if chip.address == address and chip.connected():
                return chip
        return None

    def pulled_up(self):
        for chip in self.chips:
            if chip.connected():  # the pull-ups sit on the breakouts
                return True
        return False


def bus_for(scl, sda):
    return _state["buses"].get((scl.name, sda.name))


def transfer_time(nbytes, frequency):
    """Start, address byte, ``nbytes`` bytes and stop: 9 clocks a byte."""
    clock.advance((1 + nbytes) * 9 * US_PER_S // frequency + 10)


def int1_wire(pin):
    return _state["int1_wires"].get(pin.name)


# --- USB ---------------------------------------------------------------------------------------

def enable_usb(data):
    if not _state["booting"]:
        raise RuntimeError("Cannot change USB devices now")
    _state["usb_data"] = bool(data)


def usb_data_enabled():
    return _state["usb_data"] and not _state["booting"]


def usb_write(data):
    """Bytes the firmware wrote to usb_cdc.data go to the host's end, outside the heap."""
    _state["sink"].write(data)
    return len(data)


# --- The supervisor's part: power on, boot.py, code.py -----------------------------------------

def power_on(scenario_path, sink_path, room):
    """Build the hardware of the scenario.  ``room`` is gc.mem_free() + gc.mem_alloc() as the
    interpreter started, before anything could make the heap grow (see watch_heap)."""
    _state["room"] = room
    with open(scenario_path) as f:
        scenario = json.load(f)
    clock.end_us = scenario["end_ms"] * 1000
    for bus_spec in scenario["buses"]:
        chips = [Lis3dh(spec) for spec in bus_spec["chips"]]
        _state["chips"].extend(chips)
        _state["buses"][(bus_spec["scl"], bus_spec["sda"])] = Bus(chips)
        for spec, chip in zip(bus_spec["chips"], chips):
            if spec.get("int1"):
                _state["int1_wires"][spec["int1"]] = chip
    _state["sink"] = open(sink_path, "wb")


def end_ms():
    return clock.end_us // 1000


def run_file(path):
    """Run a file the way CircuitPython runs boot.py and code.py: as ``__main__``."""
    with open(path) as f:
        source = f.read()
    exec(source, {"__name__": "__main__", "__file__": path})


def end_boot():
    """boot.py is done: what it enabled on USB now exists and can no longer change.  Then the
    VM is reset as CircuitPython resets it before code.py: pins freed, modules forgotten (only
    this module, the hardware, stays)."""
    _state["booting"] = False
    _claimed.clear()
    for name in list(sys.modules):
        if name != __name__:
            del sys.modules[name]


def run_step(step, hub):
    """One pass of code.py's loop, called from JavaScript: measure the heap (collected as this
    call began), run ``step(hub)``, ask for the next collection.  Returns the virtual ms, or
    -1 if the heap had to grow during the previous pass."""
    if not watch_heap("step"):
        return -1
    step(hub)
    gc.collect()
    return clock.us // 1000


def watch_heap(phase):
    """Call at top level, after a collection: note the live bytes; return False if the heap
    had to grow since the last call.

    The WebAssembly build adds heap instead of failing an allocation while Python runs (it
    collects garbage only between calls from JavaScript), so "the heap grew" is this tier's
    MemoryError: between two collections the firmware needed more than the Pico has.  (Its
    gc.mem_free() also counts the room it could still add, a constant, so growth shows as a
    rise of mem_free() + mem_alloc() over the first figure.)
    """
    alloc = gc.mem_alloc()
    room = alloc + gc.mem_free()
    if alloc > _state["max_alloc"]:
        _state["max_alloc"] = alloc
    if phase != "step":
        _state["phases"].append([phase, alloc])
    if room > _state["room"] and _state["grew_in"] is None:
        _state["grew_in"] = phase
        _state["grew_by"] = room - _state["room"]
        return False
    return True


def report():
    """What the run measured, as JSON for the runner."""
    if _state["sink"] is not None:
        _state["sink"].close()
    chips = {}
    for chip in _state["chips"]:
        chips[chip.name] = chip.stats
    return json.dumps({
        "virtual_ms": clock.us // 1000,
        "max_live_bytes": _state["max_alloc"],
        "heap_grew_in": _state["grew_in"],
        "heap_grew_by": _state["grew_by"],
        "phases": _state["phases"],
        "chips": chips,
    })
