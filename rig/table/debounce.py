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

from .names import TIPPED_FROM_DEG


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
    #: Per contact, a merge window of its own (``(("laser.4", 0.2), ...)``; the service mode's
    #: sensitivity, issue 31): a contact not named here merges with ``merge_window_s``.
    merge_by_contact: tuple = ()
    #: Per relic, the tilt from which it counts as tipped over (``((2, 45.0), ...)``); a relic
    #: not named here: :data:`rig.table.names.TIPPED_FROM_DEG`.
    tipped_by_relic: tuple = ()

    def merge_window(self, name):
        """The merge window of contact ``name``."""
        for contact, seconds in self.merge_by_contact:
            if contact == name:
                return seconds
        return self.merge_window_s

    def tipped_from(self, relic):
        """The tilt (degrees) from which relic number ``relic`` counts as tipped over."""
        for number, degrees in self.tipped_by_relic:
            if number == relic:
                return degrees
        return TIPPED_FROM_DEG


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
                    or not round(t - self._last_release, 6) < s.merge_window("button")):
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


#: How long the start button is held to open the builder's service mode (issue 31).
SERVICE_HOLD_S = 5.0


class ButtonHold:
    """The start button held down: judged on its edges' stamps, so a virtual clock decides it as
    the pins' own stamps do.  :meth:`edge` takes each edge (1 pressed); :meth:`fire` says, once
    per hold, whether the button has been held ``hold_s`` without a release by then (the hold
    began at its press's stamp; a release, however short, starts the count again).  Pure."""

    def __init__(self, hold_s=SERVICE_HOLD_S):
        if isinstance(hold_s, bool) or not isinstance(hold_s, (int, float)) or hold_s <= 0:
            raise ValueError("a button hold of %r s cannot be judged; give seconds above 0 "
                             "(the service mode's is %g)" % (hold_s, SERVICE_HOLD_S))
        self.hold_s = float(hold_s)
        self._pressed_at = None
        self._due = None

    def next_deadline(self):
        """When the hold running now becomes long enough (None: nothing held)."""
        return self._due

    def edge(self, t, value):
        """The button's contact changed at ``t``; True when a hold was complete by then (the
        release came after ``hold_s``)."""
        done = self.fire(t)
        if value:
            if self._pressed_at is None:
                self._pressed_at = t
                self._due = at(t, self.hold_s)
        else:
            self._pressed_at = self._due = None
        return done

    def fire(self, t):
        """True once, when the button pressed at the hold's start is still down at ``t`` and
        ``hold_s`` has passed."""
        if self._due is None or t < self._due:
            return False
        self._due = None      # once per hold: the next needs a release and a press
        return True
