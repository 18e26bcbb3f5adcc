"""Motion: is the relic being moved?  With hysteresis, so noise and a slow drift do not chatter.

Each sample first goes through a median of the last three (per axis), so a single bad reading
or a click of the table is dropped whole.  The result is compared with a slow running average
of the recent samples (time constant about 60 ms at 100 Hz).  The relic starts moving when the
difference stays at or above MOTION_START_G for MOTION_START_MS (about 20 ms after motion begins,
at 100 Hz), and is still again only after the difference stays below MOTION_STOP_G for
MOTION_STILL_MS.
"""

from relichub.vector import distance

MOTION_START_G = 0.05
MOTION_STOP_G = 0.02
MOTION_START_MS = 10
MOTION_STILL_MS = 300
SMOOTHING = 0.15  # weight of a new sample in the running average


class MotionDetector:
    """Feed it every sample with :meth:`update`; read ``moving``."""

    def __init__(self):
        self.moving = False
        self._average = None
        self._since_ms = None
        self._previous = None
        self._before = None

    def update(self, now_ms, raw_g):
        """Take one sample (in g).  Returns True when ``moving`` changed on this sample."""
        before = self._before
        self._before = self._previous
        self._previous = raw_g
        if before is None:
            before = raw_g
        middle = self._before if self._before is not None else raw_g
        vec_g = (_median(before[0], middle[0], raw_g[0]), _median(before[1], middle[1], raw_g[1]),
                 _median(before[2], middle[2], raw_g[2]))
        avg = self._average
        if avg is None:
            self._average = [vec_g[0], vec_g[1], vec_g[2]]
            return False
        deviation = distance(vec_g, avg)
        avg[0] += SMOOTHING * (vec_g[0] - avg[0])
        avg[1] += SMOOTHING * (vec_g[1] - avg[1])
        avg[2] += SMOOTHING * (vec_g[2] - avg[2])
        if self.moving:
            crossing = deviation < MOTION_STOP_G
            hold_ms = MOTION_STILL_MS
        else:
            crossing = deviation >= MOTION_START_G
            hold_ms = MOTION_START_MS
        if not crossing:
            self._since_ms = None
            return False
        if self._since_ms is None:
            self._since_ms = now_ms
        if now_ms - self._since_ms >= hold_ms:
            self.moving = not self.moving
            self._since_ms = None
            return True
        return False


def _median(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b = c
    if a > b:
        b = a
    return b
