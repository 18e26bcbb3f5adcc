"""Cleptómano's part of the audits: what one recording says about the table's inputs.

Pure: a recording's lines in, counts out.  The recording is re-refereed exactly as ``cleptomano
replay`` re-referees it (the same :class:`~.referee.Referee`, the same lines, the same
timestamps); the audit only watches what the detector makes of each input on the way.  So the
counts are what the recording says, and since the recording is fsynced line by line, they
survive a crash (docs/contracts/cli.md).

What one recording gives (:func:`audit`), a dict:

* ``matches``: ``{"started": 0|1, "finished": 0|1, "closed": bool, "empty": bool}``;
  ``closed``: the recording's end or new-match line was read; ``empty``: nobody played a turn
  (a start, a restart, a switch of game), such a recording starts no match;
* ``touches``: per input name, ``{"touches", "voided", "glitches", "stuck"}`` for the contacts
  (a touch is a confirmed episode; voided: the guard's undo took it back; a glitch is a pulse
  shorter than ``glitch_s``; stuck: a stuck-contact period began), ``{"lifts"}`` for the
  painting stands, ``{"moves", "falls"}`` for the relics (``relic.N``), ``{"hand_in"}`` for
  the hand sensor (``tof``);
* ``levels``: per difficulty, ``{"caught", "escaped"}`` (turns that ended so; void turns and
  a turn still running are not counted);
* ``last_t``: per input name, the ``t`` of its last change in the recording;
* ``turns``: per finished turn, ``{"end_t", "rods", "fired", "passed"}``: the rods in play,
  those that had an edge (a touch or a glitch) during the turn, and whether the thief passed
  the rods (the hand went in); the sensor health reads these (:func:`health`);
* ``restarts``: the rig's restarts in the recording; ``end_t``: its last line's ``t``;
* ``devices``: per device of the recording's ``device`` lines (``hub``, ``tof``), how many
  times it was ``lost``, came ``back`` and was re-initialised (``reinit``);
* ``overrides``: the referee's overrides (issue 31, :mod:`.overrides`) counted per kind
  (``kinds``), per reason (``reasons``: a code, or ``typed`` for a phone's text) and per who
  made them (``by``).
"""

from . import events as ev
from . import overrides
from . import recording
from .referee import Referee
from .engine import TurnOutcome, outcome
from .replay import feed, new_referee
from rig.table import names as museum
from rig.table.names import PAINTING_INPUTS, RELICS, Kind

_LASER = Kind.LASER + "."
_CONTACT = {"touches": 0, "voided": 0, "glitches": 0, "stuck": 0}


def _relic_name(name):
    """``relic.2.motion`` -> ``relic.2``."""
    return ".".join(name.split(".")[:2])


class _Tally:
    """The counts, kept as the referee goes."""

    def __init__(self):
        self.touches = {}
        self.last_t = {}
        self.edges = []          # (t, rod) of each closing edge of a laser
        self.hand_in = []        # t of each hand entry
        self.touched = []        # the rods of the touches not undone, in order
        self.restarts = 0
        self.devices = {}        # device -> {"lost", "back", "reinit"}: the device lines

    def count(self, name, key, start=None):
        entry = self.touches.setdefault(name, dict(start or {key: 0}))
        entry[key] = entry.get(key, 0) + 1

    def contact(self, name, key):
        self.count(name, key, _CONTACT)

    def output(self, out):
        if isinstance(out, ev.LaserTouch):
            self.contact(museum.laser(out.laser), "touches")
            self.touched.append(out.laser)
        elif isinstance(out, ev.GuardTouch):
            self.contact(museum.GUARD, "touches")
        elif isinstance(out, ev.ButtonPress):
            self.contact(museum.BUTTON, "touches")
        elif isinstance(out, ev.StuckContact) and out.active:
            self.contact(out.source, "stuck")
        elif isinstance(out, ev.HandIn):
            self.count(museum.TOF, "hand_in")
            self.hand_in.append(out.t)
        elif isinstance(out, ev.PaintingMoved) and not out.on_stand:
            self.count(museum.painting(out.painting), "lifts")
        elif isinstance(out, ev.RelicMoved):
            self.count("relic.%d" % out.relic, "moves", {"moves": 0, "falls": 0})
        elif isinstance(out, ev.RelicBroken) and out.cause is ev.Cause.FALL:
            self.count("relic.%d" % out.relic, "falls", {"moves": 0, "falls": 0})

    def before_input(self, detector, change):
        """``change`` is about to be fed to ``detector`` (its deadlines up to ``change.t``
        fired): a release before the touch was confirmed is a glitch."""
        name = change.name
        key = _relic_name(name) if name.startswith("relic.") else name
        self.last_t[key] = change.t
        contact = detector.contacts.get(name)
        if contact is None or name not in detector.in_play:
            return
        active = bool(change.value)
        if active and not contact.active:
            if name.startswith(_LASER):
                self.edges.append((change.t, int(name.split(".")[1])))
            self.touches.setdefault(name, dict(_CONTACT))
        elif not active and contact.active and detector.confirming(name):
            self.contact(name, "glitches")


class _Watched(Referee):
    """A referee that tells a tally what its detector makes of each input."""

    def __init__(self, match, settings, tally):
        super().__init__(match, settings)
        self.tally = tally

    def feed(self, item):
        if isinstance(item, ev.InputChange):
            self.advance(item.t)
            self.tally.before_input(self.detector, item)
        elif isinstance(item, ev.UndoTouch) and self.tally.touched:
            self.tally.contact(museum.laser(self.tally.touched.pop()), "voided")
        elif isinstance(item, ev.Restart):
            self.tally.restarts += 1
        elif isinstance(item, ev.DeviceChange):
            counts = self.tally.devices.setdefault(item.device, dict.fromkeys(ev.DEVICE_STATES, 0))
            counts[item.state] += 1
        return super().feed(item)

    def _apply(self, outputs, effects):
        for out in outputs:
            self.tally.output(out)
        super()._apply(outputs, effects)


def audit(lines, path=None):
    """What the recording ``lines`` say (see the module's docstring).  Bad input is the
    replay's :class:`~rig.core.errors.RecordingError`, naming the line."""
    header, items = recording.parse_lines(lines, path)
    tally = _Tally()
    plain = new_referee(header)
    ref = _Watched(plain.match, header.settings, tally)
    end_t, closed = 0.0, False
    for line, item in items:
        feed(ref, line, item, path)
        end_t = item.t
        if recording.ends_match(item):
            closed = True
            break
    match = ref.finish(end_t)
    level = header.level
    levels, turns = {}, []
    edges = sorted(tally.edges)
    rods = list(level.rods)
    for turn in match.turns:
        if turn.outcome in (TurnOutcome.CAUGHT, TurnOutcome.ESCAPED):
            entry = levels.setdefault(level.name, {"caught": 0, "escaped": 0})
            entry[turn.outcome.value] += 1
        if turn.outcome is TurnOutcome.VOID or turn.end_t is None:
            continue
        window = (turn.start_t, turn.end_t)
        fired = sorted({rod for t, rod in edges if window[0] <= t <= window[1]})
        passed = any(window[0] <= t <= window[1] for t in tally.hand_in)
        turns.append({"end_t": turn.end_t, "rods": rods, "fired": fired, "passed": passed})
    played = bool(match.turns) or bool(match.attempts)
    decided = outcome(match) is not None
    for name in (museum.BUTTON, museum.GUARD) + tuple(museum.laser(n) for n in rods):
        tally.touches.setdefault(name, dict(_CONTACT))
    for name in PAINTING_INPUTS:
        tally.touches.setdefault(name, {"lifts": 0})
    for n in RELICS:
        tally.touches.setdefault("relic.%d" % n, {"moves": 0, "falls": 0})
    tally.touches.setdefault(museum.TOF, {"hand_in": 0})
    return {
        "matches": {"started": int(played), "finished": int(played and decided),
                    "closed": closed, "empty": not played},
        "touches": tally.touches,
        "levels": levels,
        "last_t": tally.last_t,
        "turns": turns,
        "restarts": tally.restarts,
        "devices": tally.devices,
        "overrides": overrides.counts(match.overrides),
        "end_t": end_t,
    }

