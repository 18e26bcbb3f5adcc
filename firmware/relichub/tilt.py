"""Tilt: the angle between gravity now and gravity when the relic stood upright.

Gravity is only what the accelerometer reads when nothing else pushes the relic, so a sample
counts for tilt only when its magnitude is near 1 g (TRUST_MIN_G..TRUST_MAX_G); otherwise the last
trusted tilt is held.  The rest vector starts as the mounting axis (the sensor's +Z points up in
an upright relic, see wiring/relic-hub.md) and is captured once per boot, the first time the
relic stands still for CAPTURE_MS within CAPTURE_WITHIN_DEG of that axis: this takes out the small
angle at which the breakout sits in the relic, while a relic lying on its side at power-on is
never mistaken for upright.
"""

from relichub.vector import angle_deg, magnitude, normalized

TRUST_MIN_G = 0.8
TRUST_MAX_G = 1.2
CAPTURE_WITHIN_DEG = 30.0
CAPTURE_MS = 500
MOUNT_AXIS = (0.0, 0.0, 1.0)


class TiltTracker:
    """Feed it every sample with :meth:`update`; read ``tilt_deg`` (None until one is trusted)."""

    def __init__(self, mount_axis=MOUNT_AXIS):
        self.mount_axis = normalized(mount_axis)
        self.rest = self.mount_axis
        self.calibrated = False
        self.tilt_deg = None
        self._capture_since_ms = None
        self._sum = [0.0, 0.0, 0.0]

    def update(self, now_ms, vec_g, still):
        """Take one sample (in g); ``still`` is the motion detector's verdict.  Returns tilt_deg."""
        mag = magnitude(vec_g)
        trusted = TRUST_MIN_G <= mag <= TRUST_MAX_G
        if not self.calibrated:
            self._capture(now_ms, vec_g, still and trusted)
        if trusted:
            self.tilt_deg = angle_deg(vec_g, self.rest)
        return self.tilt_deg

    def _capture(self, now_ms, vec_g, usable):
        if not usable or angle_deg(vec_g, self.mount_axis) >= CAPTURE_WITHIN_DEG:
            self._capture_since_ms = None
            return
        if self._capture_since_ms is None:
            self._capture_since_ms = now_ms
            self._sum = [0.0, 0.0, 0.0]
        s = self._sum
        s[0] += vec_g[0]
        s[1] += vec_g[1]
        s[2] += vec_g[2]
        if now_ms - self._capture_since_ms >= CAPTURE_MS:
            self.rest = normalized((s[0], s[1], s[2]))
            self.calibrated = True
