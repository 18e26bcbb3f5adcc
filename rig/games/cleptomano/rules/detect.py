"""From raw input changes to game events, on timestamps only.

The :class:`Detector` is a sans-I/O state machine: it is fed
:class:`~rig.games.cleptomano.rules.events.InputChange` values and asked to fire its own deadlines,
and answers with game events (for the rules engine) and instant effects (buzzer feedback, faults).
It never reads a clock: live play and the replay of a recording go through the very same code with
the very same timestamps, so they agree.

What it decides:

* **touch episodes** on every contact (lasers, guard, button): pulses separated by releases
  shorter than ``merge_window_s`` belong to one episode; a pulse shorter than ``glitch_s`` is
  noise; an episode with at least one real pulse is one touch, stamped with its first edge.  The
  touch is known for certain ``glitch_s`` after a pulse begins (or when it ends, if sooner it is
  noise); the buzzer is not kept waiting: :class:`~rig.games.cleptomano.rules.events.Feedback` goes
  out on the first edge and is withdrawn if the pulse proves to be noise.
* **displaced rods**: a seat open for ``seat_open_s``.
* **the hand**: inside while the hand sensor reads below ``hand_threshold_mm``.
* **broken relics**: a fall, or a tip to 60 degrees or more that lasts ``tilt_hold_s``, while the
  hand is inside.
* **stuck contacts**: a contact closed for ``stuck_contact_s`` is reported as a fault (it still
  counts as one touch at most).
* **readiness**: what keeps the museum from being ready for a turn, in words.
"""

from . import events as ev
from rig.table import names as museum
from rig.table.debounce import DetectSettings, at as _at
from rig.table.names import (PAINTING_INPUTS, PAINTINGS, RELICS, SEATS, Aspect, Kind,
                             is_upright)

_LASER = Kind.LASER + "."
_TILT = {n: museum.relic(n, Aspect.TILT) for n in RELICS}
_MOTION = {n: museum.relic(n, Aspect.MOTION) for n in RELICS}


class _Contact:
    """One contact's episode bookkeeping."""
    __slots__ = ("active", "pulse_start", "episode_start", "last_release", "counted")

    def __init__(self):
        self.active = False
        self.pulse_start = None
        self.episode_start = None
        self.last_release = None
        self.counted = False

    def copy(self):
        new = _Contact.__new__(_Contact)
        new.active, new.pulse_start, new.episode_start = (self.active, self.pulse_start,
                                                          self.episode_start)
        new.last_release, new.counted = self.last_release, self.counted
        return new

    def snapshot(self):
        return tuple(getattr(self, name) for name in self.__slots__)


def _fresh(value):
    """``value`` as a part of a copied detector: containers copied (the contacts' bookkeeping
    too), the frozen values they hold (settings, level, times, events) shared."""
    kind = type(value)
    if kind is dict:
        if value and type(next(iter(value.values()))) is _Contact:
            return {key: contact.copy() for key, contact in value.items()}
        return dict(value)
    if kind is set:
        return set(value)
    return value


def _frozen(value):
    """``value`` as a part of a detector's :meth:`Detector.snapshot` (comparable, hashable)."""
    if isinstance(value, dict):
        return tuple(sorted(((key, _frozen(item)) for key, item in value.items()),
                            key=lambda kv: repr(kv[0])))
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value, key=repr))
    if isinstance(value, _Contact):
        return value.snapshot()
    return value


class Detector:
    """Raw inputs in, game events out.  ``level`` decides which rods are in play."""

    def __init__(self, level, settings=None):
        self.level = level
        self.settings = settings or DetectSettings()
        self.values = dict(museum.REST)
        self.contacts = {name: _Contact() for name in museum.CONTACTS}
        self.hand_inside = False
        self._deadlines = {}        # key -> due time
        self._tipping = set()       # relics whose tip hold runs
        self._pose = {n: (True, True) for n in RELICS}
        self._faults = {}           # source -> the fault, while it lasts
        self.in_play = museum.in_play(level)
        #: The contacts whose first edge buzzes at once (the rods in play): the table's
        #: touch-to-buzzer reflex is armed for these while a turn runs.
        self.buzzing = frozenset(n for n in self.in_play if n.startswith(_LASER))

    # --- as a value ---------------------------------------------------------------------------
    def copy(self):
        """A detector that goes on from where this one is, this one left as it is (a game's
        state is a value: :meth:`rig.games.cleptomano.rules.referee.Referee.copy`)."""
        new = Detector.__new__(Detector)
        new.__dict__.update([(name, _fresh(value)) for name, value in vars(self).items()])
        return new

    def snapshot(self):
        """Everything this detector holds, as one comparable value."""
        return tuple((name, _frozen(value)) for name, value in sorted(vars(self).items()))

    def __eq__(self, other):
        return isinstance(other, Detector) and self.snapshot() == other.snapshot()

    __hash__ = None

    # --- deadlines ------------------------------------------------------------------------------
    def next_deadline(self):
        return min(self._deadlines.values()) if self._deadlines else None

    def confirm_hold(self, t):
        """The latest pending touch confirmation of a contact episode that began before ``t``
        (None if there is none).  A touch registers on its first edge: a time limit at ``t``
        waits for these to be settled, so that a touch or a press just before the limit counts.
        """
        due = [self._deadlines[("confirm", name)] for name, c in self.contacts.items()
               if ("confirm", name) in self._deadlines and c.episode_start < t]
        return max(due) if due else None

    def fire(self, t):
        """Fire every deadline due at or before ``t``, in time order; returns the output."""
        out = []
        while self._deadlines:
            key = min(self._deadlines, key=lambda k: (self._deadlines[k], k))
            due = self._deadlines[key]
            if due > t:
                break
            del self._deadlines[key]
            kind, name = key
            if kind == "confirm":
                self._confirm(name, out)
            elif kind == "stuck":
                fault = ev.StuckContact(due, name, after_s=self.settings.stuck_contact_s)
                self._faults[name] = fault
                out.append(fault)
            elif kind == "seat":
                out.append(ev.Displaced(due, int(name.split(".")[1])))
            elif kind == "tip":
                relic = int(name)
                self._tipping.discard(relic)
                out.append(ev.RelicBroken(due, relic, ev.Cause.TIPPED))
        return out

    # --- inputs -----------------------------------------------------------------------------------
    def feed(self, change):
        """Apply one input change (after :meth:`fire` for its time); returns the output."""
        name, t = change.name, change.t
        value = change.value
        old = self.values.get(name)
        self.values[name] = value
        if name not in self.in_play:
            return []
        out = []
        if name in self.contacts:
            if bool(value) != self.contacts[name].active:
                self._contact_edge(name, bool(value), t, out)
        elif name in SEATS:
            key = ("seat", name)
            if not value and old:
                self._deadlines[key] = _at(t, self.settings.seat_open_s)
            elif value:
                self._deadlines.pop(key, None)
        elif name in PAINTING_INPUTS:
            if bool(value) != bool(old):
                out.append(ev.PaintingMoved(t, int(name[-1]), bool(value)))
        elif name == "tof":
            inside = value < self.settings.hand_threshold_mm
            if inside != self.hand_inside:
                self.hand_inside = inside
                out.append(ev.HandIn(t) if inside else ev.HandOut(t))
        else:
            self._relic(name, value, old, t, out)
        return out

    def _new_episode(self, c, t, name=None):
        """Whether a contact closing at ``t`` begins a new touch episode (its last release is
        at least its merge window ago: the contact's own, set in the service mode, or the
        table's)."""
        window = (self.settings.merge_window(name) if name is not None
                  else self.settings.merge_window_s)
        return c.last_release is None or c.episode_start is None or not (
            round(t - c.last_release, 6) < window)

    def confirming(self, name):
        """Whether a pulse of the contact ``name`` waits for its touch confirmation (released
        now, it is a glitch: shorter than ``glitch_s``)."""
        return ("confirm", name) in self._deadlines

    def sounds_at_once(self, name, value, t):
        """Whether the change of ``name`` to ``value`` at ``t`` would sound the buzzer when fed
        (a laser in play closing on a touch not yet counted), without feeding it: lets the
        shell sound the buzzer on an edge's arrival while it keeps the edge to apply in order."""
        c = self.contacts.get(name)
        if c is None or not value or c.active or name not in self.in_play \
                or not name.startswith(_LASER):
            return False
        return self._new_episode(c, t, name) or not c.counted

    def _contact_edge(self, name, active, t, out):
        c = self.contacts[name]
        c.active = active
        s = self.settings
        if active:
            c.pulse_start = t
            if self._new_episode(c, t, name):
                c.episode_start = t
                c.counted = False
            if not c.counted:
                self._deadlines[("confirm", name)] = _at(t, s.glitch_s)
                if name.startswith(_LASER):
                    out.append(ev.Feedback(t, name, True))
            self._deadlines[("stuck", name)] = _at(t, s.stuck_contact_s)
        else:
            c.last_release = t
            self._deadlines.pop(("stuck", name), None)
            fault = self._faults.pop(name, None)
            if fault is not None:
                out.append(ev.StuckContact(t, name, active=False, after_s=fault.after_s))
            if ("confirm", name) in self._deadlines:
                # Released before glitch_s: this pulse was noise.
                del self._deadlines[("confirm", name)]
                if name.startswith(_LASER):
                    out.append(ev.Feedback(t, name, False))

    def _confirm(self, name, out):
        c = self.contacts[name]
        if c.counted:
            return
        c.counted = True
        t0 = c.episode_start
        kind = museum.parse(name)
        if kind.kind is Kind.LASER:
            out.append(ev.LaserTouch(t0, kind.number))
        elif kind.kind is Kind.GUARD:
            out.append(ev.GuardTouch(t0))
        else:
            out.append(ev.ButtonPress(t0, self.problems()))

    def _relic(self, name, value, old, t, out):
        parts = museum.parse(name)
        relic = parts.number
        if parts.aspect is Aspect.FREEFALL:
            if value and self.hand_inside:
                out.append(ev.RelicBroken(t, relic, ev.Cause.FALL))
        elif parts.aspect is Aspect.MOTION:
            if value and not old:
                out.append(ev.RelicMoved(t, relic))
        else:
            key = ("tip", str(relic))
            tipped_from = self.settings.tipped_from(relic)
            if value >= tipped_from:
                if not old >= tipped_from and self.hand_inside:
                    self._deadlines[key] = _at(t, self.settings.tilt_hold_s)
                    self._tipping.add(relic)
            elif relic in self._tipping:
                del self._deadlines[key]
                self._tipping.discard(relic)
        pose = (is_upright(self.values[_TILT[relic]]), not self.values[_MOTION[relic]])
        if pose != self._pose[relic]:
            self._pose[relic] = pose
            out.append(ev.RelicPose(t, relic, pose[0], pose[1]))

    # --- readiness --------------------------------------------------------------------------------
    def problems(self):
        """What keeps the museum from being ready for a turn: a contact closed (for
        ``stuck_contact_s``, stuck, the start button's too), a rod not seated, a painting off its
        stand, the entrance blocked, a relic lying or moving."""
        found = []
        v = self.values
        T = ev.Trouble
        if museum.BUTTON in self._faults:     # held for stuck_contact_s: a press cannot start
            found.append(ev.Problem(T.BUTTON_STUCK, None, self._faults[museum.BUTTON].after_s))
        for n in self.level.rods:
            if v[museum.laser(n)]:
                found.append(self._closed(museum.laser(n), n, T.LASER_STUCK, T.LASER_TOUCHED))
        if v[museum.GUARD]:
            found.append(self._closed(museum.GUARD, None, T.GUARD_STUCK, T.GUARD_TOUCHED))
        for n in self.level.added_rods:
            if not v[museum.seat(n)]:
                found.append(ev.Problem(T.NOT_SEATED, n))
        for n in PAINTINGS:
            if not v[museum.painting(n)]:
                found.append(ev.Problem(T.PAINTING_OFF, n))
        if v[museum.TOF] < self.settings.hand_threshold_mm:
            found.append(ev.Problem(T.ENTRANCE_BLOCKED, None, v[museum.TOF]))
        for n in RELICS:
            if not is_upright(v[museum.relic(n, Aspect.TILT)]):
                found.append(ev.Problem(T.RELIC_LYING, n))
            elif v[museum.relic(n, Aspect.MOTION)]:
                found.append(ev.Problem(T.RELIC_MOVING, n))
        return tuple(found)

    def _closed(self, name, number, stuck, touched):
        """A closed contact as a problem: stuck (with its seconds) once it is a fault, which
        is a wire to check rather than a hand to lift."""
        fault = self._faults.get(name)
        if fault is not None:
            return ev.Problem(stuck, number, fault.after_s)
        return ev.Problem(touched, number)

    def faults(self):
        """The faults the detector sees now (stuck contacts)."""
        return tuple(self._faults.values())

