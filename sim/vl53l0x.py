"""A VL53L0X time-of-flight sensor at register level, for :class:`sim.i2cdev.I2CDev`.

Where :mod:`sim.fake_tof` stands in for Adafruit's driver object, this stands in for the chip
under it, so the real ``adafruit_vl53l0x`` driver runs against it unchanged: its identification
check, the reference-SPAD read from NVM, the tuning writes, the timing budget, the two reference
calibrations, single and continuous ranging, ``data_ready`` and the interrupt clear.  What it
models is what the driver waits on or reads back:

* registers in pages (register 0xFF selects the page), read and written with the chip's
  auto-incrementing index, power-on values for the ID, the stop variable and the SPAD data;
* a measurement started through SYSRANGE_START (0x00): bit 0 reads back set until the chip
  takes the start, then, one measurement period later, RESULT_INTERRUPT_STATUS (0x13) reports a
  new sample and the result block (0x14, range in mm at 0x1E) holds it until
  SYSTEM_INTERRUPT_CLEAR (0x0B).  Back-to-back mode (0x02) repeats that every period;
* the period follows the timing budget the driver programmed: the final-range timeout it wrote
  (0x71, in VCSEL macro periods of register 0x70) plus the fixed steps before it;
* calibrations (SYSRANGE_START with SYSTEM_SEQUENCE_CONFIG 0x01 or 0x02) take a few ms.

The test controls are plain: ``distance_mm`` is what is in front of it (8190 and above: nothing
in range, as the sensor reports it), :meth:`stop_measuring` makes it answer on I2C but never
finish a measurement or a calibration again (a hung sensor; only a new chip, i.e. a power
cycle, recovers).  Time comes from the bus: each read or write is told when it happens.
"""

import math

from rig.table.names import NOTHING_IN_RANGE_MM

ADDRESS = 0x29

_PAGE = 0xFF
_SYSRANGE_START = 0x00
_SEQUENCE_CONFIG = 0x01
_INTERRUPT_CLEAR = 0x0B
_INTERRUPT_STATUS = 0x13
_RANGE_STATUS = 0x14
_RANGE_MM = 0x1E
_FINAL_VCSEL_PERIOD = 0x70
_FINAL_TIMEOUT = 0x71
_SPAD_NVM_CONTROL = 0x83   # page 7: 0 starts the NVM read; non-zero when done
_SPAD_NVM_DATA = 0x92      # page 7: count in bits 0-6, aperture in bit 7

#: Power-on register values the driver reads before writing them: (page, register) -> byte.
POWER_ON = {
    (0, 0xC0): 0xEE, (0, 0xC1): 0xAA, (0, 0xC2): 0x10,     # model ID, module type, revision
    (1, 0x91): 0x3C,                                        # the "stop variable"
    (0, 0x84): 0x11,                                        # GPIO_HV_MUX_ACTIVE_HIGH
    (0, 0xB0): 0xFF, (0, 0xB1): 0xFF, (0, 0xB2): 0xFF,      # the good reference-SPAD map
    (0, 0xB3): 0xFF, (0, 0xB4): 0xFF, (0, 0xB5): 0x0F,
}

#: The chip takes a start this long after SYSRANGE_START is written.
START_S = 0.0002
#: A reference calibration (VHV or phase) takes this long.
CALIBRATION_S = 0.004
#: Reading the reference-SPAD data from NVM takes this long.
NVM_READ_S = 0.0005
#: The rest of a measurement besides the final-range timeout: start and end overhead, MSRC,
#: TCC, DSS and pre-range at the driver's settings.  11.9 ms puts the period within 1 % of the
#: budget the driver's own arithmetic reports, from 20 ms to 200 ms.
FIXED_STEPS_S = 0.0119
#: The result block's range status for a valid measurement (device status 11 in bits 3-6).
RANGE_VALID = 11 << 3
#: ... and for a phase failure, what the sensor reports when nothing is in range.
RANGE_PHASE_FAIL = 4 << 3


class VL53L0XChip:
    """One sensor, freshly powered.  See the module docstring for what it models."""

    def __init__(self, distance_mm=NOTHING_IN_RANGE_MM, spad_count=6, spad_aperture=True):
        self.distance_mm = distance_mm
        self._regs = dict(POWER_ON)
        self._regs[(7, _SPAD_NVM_DATA)] = (spad_count & 0x7F) | (0x80 if spad_aperture else 0)
        self._page = 0
        self._index = 0
        self._measuring = True
        self._started_at_s = None     # when the chip takes the pending start
        self._done_at_s = None        # when the running measurement or calibration finishes
        self._continuous = False
        self._nvm_done_at_s = None
        self.measurements = 0         # finished measurements (calibrations included)
        self.periods_s = []           # the period of each measurement started

    # --- The bus side ---------------------------------------------------------------------------

    def write(self, data, now_s):
        """One write transfer: the register index, then bytes for it and the next ones."""
        self._run_until(now_s)
        if not data:
            return  # an address-only probe: acknowledged
        self._index = data[0]
        for value in data[1:]:
            self._write_reg(self._index, value, now_s)
            self._index = (self._index + 1) & 0xFF

    def read(self, count, now_s):
        """One read transfer: ``count`` bytes from the register index on."""
        self._run_until(now_s)
        out = bytearray()
        for _ in range(count):
            out.append(self._read_reg(self._index, now_s))
            self._index = (self._index + 1) & 0xFF
        return out

    # --- Test controls --------------------------------------------------------------------------

    def stop_measuring(self):
        """Keep answering on I2C but never finish a measurement or calibration again."""
        self._measuring = False

    @property
    def continuous(self):
        return self._continuous

    def register(self, page, reg):
        """A register's current value, as the chip holds it."""
        return self._regs.get((page, reg), 0)

    # --- The chip -------------------------------------------------------------------------------

    def _write_reg(self, reg, value, now_s):
        if reg == _PAGE:
            self._page = value
            return
        self._regs[(self._page, reg)] = value
        if self._page == 0 and reg == _SYSRANGE_START:
            self._start(value, now_s)
        elif self._page == 0 and reg == _INTERRUPT_CLEAR and value & 0x01:
            self._regs[(0, _INTERRUPT_STATUS)] = 0
        elif self._page == 7 and reg == _SPAD_NVM_CONTROL and value == 0:
            self._nvm_done_at_s = now_s + NVM_READ_S

    def _read_reg(self, reg, now_s):
        if reg == _PAGE:
            return self._page
        if self._page == 0 and reg == _SYSRANGE_START:
            pending = self._started_at_s is not None and now_s < self._started_at_s
            return (self._regs.get((0, reg), 0) & ~0x01) | (0x01 if pending else 0)
        if self._page == 7 and reg == _SPAD_NVM_CONTROL and self._nvm_done_at_s is not None:
            return 0x00 if now_s < self._nvm_done_at_s else 0x10
        return self._regs.get((self._page, reg), 0)

    def _start(self, value, now_s):
        if value & 0x01:                  # single shot, calibration, or "stop" of back-to-back
            self._continuous = False
            calibration = self._regs.get((0, _SEQUENCE_CONFIG), 0) in (0x01, 0x02)
            period_s = CALIBRATION_S if calibration else self._period_s()
        elif value & 0x02:                # back-to-back ranging
            self._continuous = True
            period_s = self._period_s()
        else:
            return
        self._started_at_s = now_s + START_S if self._measuring else math.inf
        self._done_at_s = now_s + period_s if self._measuring else None
        self.periods_s.append(period_s)

    def _run_until(self, now_s):
        while self._measuring and self._done_at_s is not None and now_s >= self._done_at_s:
            self._finish()
            self._done_at_s = self._done_at_s + self._period_s() if self._continuous else None

    def _finish(self):
        distance_mm = min(int(self.distance_mm), 0xFFFF)
        status = RANGE_PHASE_FAIL if distance_mm >= NOTHING_IN_RANGE_MM else RANGE_VALID
        self._regs[(0, _RANGE_STATUS)] = status
        self._regs[(0, _RANGE_MM)] = distance_mm >> 8
        self._regs[(0, _RANGE_MM + 1)] = distance_mm & 0xFF
        self._regs[(0, _INTERRUPT_STATUS)] = 0x04   # "new sample ready"
        self.measurements += 1

    def _period_s(self):
        """The final-range timeout the driver wrote, in its VCSEL macro periods, plus the fixed
        steps.  Encoded as (LSB << MSB) + 1 macro periods; a macro period is 2304 VCSEL periods
        of (register + 1) * 2 PLL clocks of 1.655 ns."""
        encoded = (self._regs.get((0, _FINAL_TIMEOUT), 0) << 8) \
            | self._regs.get((0, _FINAL_TIMEOUT + 1), 0)
        macro_periods = (encoded & 0xFF) * (1 << (encoded >> 8)) + 1
        vcsel_pclks = (self._regs.get((0, _FINAL_VCSEL_PERIOD), 0) + 1) * 2
        return macro_periods * 2304 * vcsel_pclks * 1.655e-9 + FIXED_STEPS_S
