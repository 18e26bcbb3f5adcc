"""Contacts debounced on edge timestamps: the table's timings and the start button alone.

Pure (the standard library only), so live play and the replay of a recording agree to the
microsecond.  A contact's pulses separated by releases shorter than ``merge_window_s`` are one
episode; a pulse shorter than ``glitch_s`` is noise; an episode with at least one real pulse is
one touch (or press), stamped with its first edge, and certain ``glitch_s`` after a pulse begins.

:class:`DetectSettings` are the table's timings (the ``[detect]`` section of ``rig.toml``:
:mod:`rig.table.settings`).  Cleptómano's detector (``rig.games.cleptomano.rules.detect``)
applies them to every contact of the museum; :class:`StartButton` applies them to the start
button alone, for the games that use nothing else of the museum.
"""

from dataclasses import dataclass


def at(t, delay_s):
    """A deadline, on the recording's microsecond grid, so that "exactly 250 ms later" is
    exactly the time a recording line says (recordings carry 6 decimals)."""
    return round(t + delay_s, 6)


@dataclass(frozen=True)
class DetectSettings:
    """The detection thresholds (the recording contract's defaults)."""
    merge_window_s: float = 0.100
    glitch_s: float = 0.001
    seat_open_s: float = 0.250
    tilt_hold_s: float = 0.300
    hand_threshold_mm: int = 400
    stuck_contact_s: float = 5.0


class StartButton:
    """The museum's start button alone (the companion games): its edges in, its presses out.

    A press is what a match counts as one: the button bounces, glitches and merges exactly as
    Cleptómano's detector has it for the same button (the same settings, the same rounding)."""

    def __init__(self, settings=None):
        self.settings = settings or DetectSettings()
        self._active = False
        self._episode_start = None
        self._last_release = None
        self._counted = False
        self._confirm_at = None      # when the pulse running now becomes a press

    def next_deadline(self):
        return self._confirm_at

    def edge(self, t, value):
        """The button's contact changed at ``t`` (1 pressed); the presses certain by then."""
        presses = self.fire(t)
        active = bool(value)
        if active == self._active:
            return presses
        self._active = active
        s = self.settings
        if active:
            if (self._last_release is None or self._episode_start is None
                    or not round(t - self._last_release, 6) < s.merge_window_s):
                self._episode_start = t
                self._counted = False
            if not self._counted:
                self._confirm_at = at(t, s.glitch_s)
        else:
            self._last_release = t
            self._confirm_at = None      # released before glitch_s: that pulse was noise
        return presses

    def fire(self, t):
        """The presses that became certain at or before ``t``, as the times they began."""
        if self._confirm_at is None or self._confirm_at > t:
            return []
        self._confirm_at = None
        if self._counted:
            return []
        self._counted = True
        return [self._episode_start]
