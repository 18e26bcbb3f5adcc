"""The whole referee, still pure: raw inputs and commands in, effects out, deadlines on request.

:class:`Referee` joins the :class:`~rig.games.cleptomano.rules.detect.Detector` and the rules engine
(:mod:`rig.games.cleptomano.rules.engine`) and owns the one rule of the clock that makes live play
and replay agree: before anything stamped ``t`` is applied, every deadline due at or before ``t``
fires, in time order (the detector's before the engine's on a tie).  The daemon and ``cleptomano
replay`` both drive a Referee; neither has any refereeing logic of its own.
"""

from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules import engine as rules
from rig.games.cleptomano.rules.detect import Detector
from rig.table.debounce import DetectSettings
from rig.core.errors import RulesError


_NONE = frozenset()


class Referee:
    def __init__(self, match, settings=None):
        self.match = match
        self.detector = Detector(match.level, settings or DetectSettings())
        self.t = 0.0
        self.closed = False     # a new match closed this one (its recording's last line)
        self._foreseen = None       # (match, due, match after, effects): see foresee()

    # --- as a value -------------------------------------------------------------------------------
    def copy(self):
        """A referee that goes on from where this one is, this one left as it is: Cleptómano's
        game (:mod:`rig.games.cleptomano.game`) steps a copy, so that its state is a value as
        the contract wants (a refused command leaves the state it was given untouched)."""
        new = Referee.__new__(Referee)
        new.match, new.detector, new.t = self.match, self.detector.copy(), self.t
        new.closed = self.closed
        new._foreseen = self._foreseen    # a foresight holds to its match: shared, immutable
        return new

    def __eq__(self, other):
        return (isinstance(other, Referee) and self.t == other.t and self.match == other.match
                and self.closed == other.closed and self.detector == other.detector)

    __hash__ = None

    def __repr__(self):
        return "<Referee at %r s, %d turns>" % (  # not words: a value in a log
            self.t, len(self.match.turns))

    # --- time -------------------------------------------------------------------------------------
    def _engine_deadline(self):
        """(when the engine's deadline is due, when it fires): a time limit waits for the
        confirmation of a touch or press whose first edge came before it."""
        due = rules.next_deadline(self.match)
        if due is None:
            return None, None
        hold = self.detector.confirm_hold(due)
        return due, (hold if hold is not None and hold > due else due)

    def next_deadline(self):
        d1 = self.detector.next_deadline()
        _, d2 = self._engine_deadline()
        if d1 is None:
            return d2
        if d2 is None:
            return d1
        return min(d1, d2)

    def advance(self, t):
        """Fire every deadline due at or before ``t``; returns the effects."""
        effects = []
        while True:
            d1 = self.detector.next_deadline()
            due, d2 = self._engine_deadline()
            if d1 is not None and d1 <= t and (d2 is None or d1 <= d2):
                self.t = max(self.t, d1)
                self._apply(self.detector.fire(d1), effects)
            elif d2 is not None and d2 <= t:
                self.t = max(self.t, d2)
                self._tick(due, effects)
            else:
                break
        self.t = max(self.t, t)
        return effects

    # --- foresight: a turn's end worked out before it is due -------------------------------------
    def to_foresee(self):
        """The engine's next deadline (a turn's time limit) when it is the next thing due and
        its outcome is not worked out yet (:meth:`foresee`); else None."""
        due, fires = self._engine_deadline()
        if due is None or fires != due:
            return None
        d1 = self.detector.next_deadline()
        if d1 is not None and d1 <= due:
            return None
        f = self._foreseen
        return None if f is not None and f[0] is self.match and f[1] == due else due

    def foresee(self):
        """Work out now what the engine's next deadline will do if nothing arrives before it,
        so that :meth:`advance` finds it ready when it is due: the same match and the same
        effects as working it out then (the match is immutable and the step pure; a foresight
        is used only while the match it was made from is still the match)."""
        due = self.to_foresee()
        if due is None:
            return
        try:
            after, more = rules.step(self.match, ev.Tick(due))
        except RulesError:      # worked out again when due, where it is dropped as before
            after = more = None
        self._foreseen = (self.match, due, after, more)

    def _tick(self, due, effects):
        f, self._foreseen = self._foreseen, None
        if f is not None and f[0] is self.match and f[1] == due and f[2] is not None:
            self.match = f[2]
            effects.extend(f[3])
        else:
            self._step(ev.Tick(due), effects)

    # --- inputs and commands ------------------------------------------------------------------------
    def feed(self, item):
        """Apply one recorded item (an input change or a command) at its time.

        Raises :class:`~rig.core.errors.RulesError` for a command the rules refuse; the match is then
        unchanged (deadlines up to the item's time have fired, as they would have anyway).
        """
        effects = self.advance(item.t)
        if isinstance(item, ev.InputChange):
            self._apply(self.detector.feed(item), effects)
        elif isinstance(item, (ev.End, ev.DeviceChange)):
            pass        # a device line is for the audits: time passes, nothing else
        elif isinstance(item, ev.Restart):
            effects.extend(self.restart(item.t))
        else:
            self._step(item, effects, strict=True)
            if isinstance(item, ev.NewMatch):
                self.closed = True
        return effects

    def _apply(self, outputs, effects):
        for out in outputs:
            if isinstance(out, ev.Feedback):
                # Instant buzz only while a turn runs and only for a rod in play.
                if self.match.current is not None:
                    effects.append(out)
            elif isinstance(out, ev.Fault):
                effects.append(out)
            else:
                self._step(out, effects)

    def _step(self, event, effects, strict=False):
        try:
            self.match, more = rules.step(self.match, event)
        except RulesError as exc:
            if strict:
                raise
            effects.append(ev.Dropped(event.t, event, str(exc)))
            return
        effects.extend(more)

    def sounds_at_once(self, change):
        """Whether feeding ``change`` would sound the buzzer at once (see
        :meth:`rig.games.cleptomano.rules.detect.Detector.sounds_at_once`): only while a turn
        runs."""
        return self.match.current is not None and self.detector.sounds_at_once(
            change.name, change.value, change.t)

    def reflex_inputs(self):
        """The inputs whose active edge may buzz at once now (the table's reflex is armed for
        these): the rods in play while a turn runs, else none."""
        return self.detector.buzzing if self.match.current is not None else _NONE

    # --- views ------------------------------------------------------------------------------------
    def problems(self):
        return self.detector.problems()

    def finish(self, t):
        """The match as it stands when the recording ends at ``t`` (running turn unfinished)."""
        self.advance(t)
        return rules.unfinished(self.match, t)

    def restart(self, t):
        """The rig restarted at ``t``: the running turn, if any, is void and is played again."""
        turn = self.match.current
        self.match = rules.void_current(self.match, t)
        return [ev.Resumed(t, turn.thief if turn is not None else None)]
