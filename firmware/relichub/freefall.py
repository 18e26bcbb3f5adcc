"""Free fall: the relic reads almost no acceleration for long enough, i.e. it is falling.

A fall is |a| < FREEFALL_G on every sample for at least FREEFALL_MS.  The LIS3DH can watch for the
same condition itself (its free-fall interrupt on INT1, between our samples); ``code.py`` passes
that latched flag in as ``hw_fall`` and it counts as a fall too.  After a fall the detector waits
until |a| is back above REARM_G (the relic landed or was caught) before it counts another, so one
fall is counted once whichever of the two saw it first.
"""

FREEFALL_G = 0.35
FREEFALL_MS = 30
REARM_G = 0.8
FALLS_MODULO = 0x10000


class FreeFallDetector:
    """Feed it every sample with :meth:`update`; ``falls`` counts falls since boot (mod 65536)."""

    def __init__(self):
        self.falls = 0
        self.armed = True
        self._low_since_ms = None

    def update(self, now_ms, magnitude_g, hw_fall=False):
        """Take one sample's |a| (in g).  Returns True on the sample that confirms a new fall."""
        if not self.armed:
            if magnitude_g >= REARM_G:
                self.armed = True
                self._low_since_ms = None
            return False
        fell = hw_fall
        if magnitude_g < FREEFALL_G:
            if self._low_since_ms is None:
                self._low_since_ms = now_ms
            if now_ms - self._low_since_ms >= FREEFALL_MS:
                fell = True
        else:
            self._low_since_ms = None
        if fell:
            self.falls = (self.falls + 1) % FALLS_MODULO
            self.armed = False
            self._low_since_ms = None
        return fell
