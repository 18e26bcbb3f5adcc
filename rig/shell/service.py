"""The builder's service mode at the rig (issue 31): the shell around the pure
:mod:`rig.core.service`.

A :class:`ServiceDesk` is attached to a host (:attr:`rig.shell.host.Host.service`) and sees every
item the host's loop takes before the host does (:meth:`ServiceDesk.take`):

* it opens on the screen's key combination (an :class:`~rig.core.service.OpenService` command),
  on the start button held :data:`~rig.table.debounce.SERVICE_HOLD_S` (judged on the edges'
  stamps: :class:`~rig.table.debounce.ButtonHold`), or from a phone (:meth:`Host.open_service`);
  never during a turn (refused, said on the screen);
* while it is open the table's raw inputs go to it, not to the game: nothing is recorded as
  play; a rod touched lights its name and beeps the buzzer.  When it closes, every input that
  now reads differently is handed back to the host (:meth:`Host.service_closed`), which records
  and referees it as the wiring check does, so the table is where it was;
* each change of a setting is one English log line (what, old -> new, by whom), saved at once
  as the table's state (``table.json``: :class:`~rig.shell.table_state.TableMemory`), and
  applied (``apply(tuning)``: the host's detection settings for its next match; the display
  takes the sound levels from the service screen).
"""

import logging
from collections import deque
from dataclasses import replace

from ..core import service as core
from ..core.msg import Msg
from ..table.debounce import SERVICE_HOLD_S, ButtonHold
from ..table.names import BUTTON, RELICS, Aspect, relic
from ..table.outputs import TOUCH
from .inbox import DeviceNote, FaultReport, Order, Reading

log = logging.getLogger("cleptomano")

#: How long a refusal or a note stays on the service screen (seconds).
MESSAGE_S = 5.0
#: How often the service screen is drawn again (the switch test's "last edge" ages).
PERIOD_S = 0.1
HUB = "hub"
#: The test each sound setting plays: a sound of the display's, or the spoken test.
TEST_SOUNDS = {"volume.master": "jingle", "volume.effects": "buzz"}
SPOKEN_TEST = Msg("rig.service.spoken_test")


def switch_inputs(pinmap, hand=True, hub=True):
    """Every input the switch test lists, named as the pin map names them (its order), then the
    hand sensor, each relic's tilt and motion and the hub's link."""
    names = list(pinmap.inputs)
    if hand:
        names.append("tof")
    if hub:
        names += [relic(n, a) for n in RELICS for a in (Aspect.TILT, Aspect.MOTION)] + [HUB]
    return tuple(names)


def factory_for(config, rods=None):
    """The factory value of every setting (rig.toml's, else the defaults): ``rods`` the lasers
    listed (None: the pin map's)."""
    if rods is None:
        rods = tuple(int(name.split(".")[1]) for name in config.pinmap.inputs
                     if name.startswith("laser."))
    sound = getattr(config, "sound", None)
    values = {}
    if sound is not None:
        values = {"voice": bool(sound.voice), "volume.voice": float(sound.voice_volume),
                  "voice.es": str(sound.voice_es)}
    return core.factory_values(config.detect.merge_window_s, rods, RELICS, values)


class ServiceDesk:
    """The service mode of one host.  ``inputs`` the switch test's (:func:`switch_inputs`),
    ``factory`` every setting's factory value (:func:`factory_for`), ``memory`` the table's
    state (a :class:`~rig.shell.table_state.TableMemory`; None: nothing saved), ``apply(tuning)``
    applies the settings (None: nothing more), ``hold_s`` the start button's hold."""

    def __init__(self, host, *, inputs, factory, memory=None, apply=None,
                 hold_s=SERVICE_HOLD_S, read_audits=None):
        self.host = host
        self.inputs = tuple(inputs)
        self.factory = tuple(sorted(dict(factory).items()))
        self.memory = memory
        self.apply = apply
        self.read_audits = read_audits      # () -> the audits (cleptomano audits --json's)
        self.desk = None
        self.opened_at = None
        self._hold = ButtonHold(hold_s)
        self._message = None          # (until, Msg)
        self._sounds = deque(maxlen=8)
        self._spoken = deque(maxlen=4)
        self._played = 0
        self._hub_up = None
        self._seen = {}               # the raw inputs heard while open (handed back on close)
        self.changes = deque(maxlen=200)   # the log lines of the changes, newest last
        self.tuning = core.check_tuning(
            (memory.state.tuning or ()) if memory is not None else ())

    @property
    def is_open(self):
        return self.desk is not None

    # --- from any thread ------------------------------------------------------------------
    def request(self, by):
        """Open the service mode for ``by`` (any thread: it enqueues).  During a turn: a
        :class:`~rig.core.service.ServiceError` whose ``msg`` says so."""
        self.host.submit(core.OpenService(0.0, str(by)))   # refused mid-turn: on the screen too
        if self.host.in_turn():
            raise _during_turn()

    # --- on the host's loop ---------------------------------------------------------------
    def take(self, item):
        """See ``item`` before the host: True when the service mode took it (the host leaves it
        alone)."""
        kind = type(item)
        if kind is Reading:
            return self._reading(item)
        if kind is Order:
            command = item.command
            if type(command) is core.OpenService:
                self.open(command.by, item.t_abs)
                return True
            if type(command) is core.ServiceKey:
                if self.desk is not None:
                    self.key(command.key, item.t_abs)
                return True
            return False
        if kind is FaultReport and item.source == HUB:
            self._link(not item.active, item.t_abs)
        elif kind is DeviceNote and item.device == HUB:
            self._link(item.state != "lost", item.t_abs)
        return False

    def _reading(self, item):
        if item.name == BUTTON:
            delay = getattr(self.host, "edge_delay_s", 0.0)
            if self._hold.edge(item.t_abs, item.value) and self.desk is None:
                self.open("button", item.t_abs + delay)
        if self.desk is None:
            return False
        self._seen[item.name] = item.value
        self._heard(item.t_abs, item.name, item.value)
        return True

    def _link(self, up, t_abs):
        self._hub_up = up
        if self.desk is not None:
            self._heard(t_abs, HUB, 1 if up else 0)

    def _heard(self, t_abs, name, value):
        self.desk, effects = core.heard(self.desk, t_abs - self.opened_at, name, value)
        for effect in effects:
            buzzer = self.host.buzzer
            if buzzer is not None:
                buzzer.play(TOUCH, self.host.clock.now())
            self._sound("buzz")
        self.host._refresh_soon()

    def deadline(self):
        """When the start button's hold running now is long enough (on the host's clock)."""
        due = self._hold.next_deadline()
        return None if due is None else due + getattr(self.host, "edge_delay_s", 0.0)

    def fire(self, now):
        """The hold long enough by ``now`` (its edges applied: the host's edge delay) opens the
        service mode."""
        delay = getattr(self.host, "edge_delay_s", 0.0)
        if self._hold.fire(now - delay) and self.desk is None:
            self.open("button", now)

    def open(self, by, t_abs):
        """Open the service mode for ``by`` at ``t_abs`` (the host's loop); during a turn the
        screen says why not and nothing opens."""
        if self.desk is not None:
            return
        if self.host.in_turn():
            log.info("Service mode: refused for %s, a turn is running.", by)
            self.host._show_message(_during_turn().msg)
            return
        self._seen = {}
        values = dict(self.host.service_values())
        if HUB in self.inputs:      # the link as the host's faults say it (lost: a fault)
            up = self._hub_up if self._hub_up is not None else HUB not in self.host.faults
            values[HUB] = 1 if up else 0
        self.desk = core.open_desk(by, self.inputs, self.factory, self.tuning,
                                   {n: v for n, v in values.items() if n in self.inputs})
        self.opened_at = t_abs
        self._message = None
        log.info("Service mode: opened by %s.", self.desk.by)
        self.host._refresh_soon()

    def key(self, name, t_abs=None):
        """One service key (``up``, ``down``, ``less``, ``more``, ``enter``, ``back``,
        ``preset``, ``factory``, ``test``)."""
        try:
            self.desk, effects = core.press(self.desk, name)
        except core.ServiceError as exc:
            self._note(exc.msg)
            return
        for effect in effects:
            if type(effect) is core.Change:
                self._changed(effect)
            elif type(effect) is core.Test:
                self._test(effect.key)
            elif type(effect) is core.Leave:
                self.close()
                return
        if self.desk.page == "audits" and self.desk.audit is None:
            self._load_audits()
        self.host._refresh_soon()

    def _load_audits(self):
        """The audits page's picture, read from the recordings once per opening (a folder that
        cannot be read is one log line and an empty picture)."""
        found = {}
        if self.read_audits is not None:
            try:
                found = self.read_audits()
            except Exception as exc:
                log.warning("Service mode: the audits could not be read (%s); none shown.", exc)
        rods = [int(n.split(".")[1]) for n in self.inputs if n.startswith("laser.")]
        self.desk = replace(self.desk, audit=core.audit_view(found, rods or core.LASER_NUMBERS))

    def set(self, key, value, by=None):
        """Set ``key`` to ``value`` (a phone's or a test's way; checked: a bad value is one
        :class:`~rig.core.service.ServiceError`, nothing changed).  Returns the tuning."""
        desk = self.desk or core.open_desk(by or "phone", self.inputs, self.factory, self.tuning)
        if key not in dict(desk.factory):
            raise core.ServiceError(
                "%s is not a setting of this table; use one of %s"
                % (key, ", ".join(k for k, _ in desk.factory)),
                Msg("rig.service.no_such_setting", key=str(key)[:40]))
        after, effects = core.changed(desk, key, value)
        if self.desk is not None:
            self.desk = after
        for effect in effects:
            self._changed(effect, by=by or desk.by, tuning=after.tuning)
        return self.tuning

    def reset(self, key, by=None):
        """``key`` back to its factory value."""
        return self.set(key, dict(self.factory)[key], by=by)

    def close(self):
        """Leave the service mode: the inputs heard meanwhile go back to the host."""
        if self.desk is None:
            return
        log.info("Service mode: closed by %s.", self.desk.by)
        self.desk = None
        seen, self._seen = self._seen, {}
        self.host.service_closed(seen)
        self.host._refresh_soon()

    def _changed(self, change, by=None, tuning=None):
        who = by or self.desk.by
        old, new = (core.shown(change.key, change.old), core.shown(change.key, change.new))
        factory = core.shown(change.key, dict(self.factory)[change.key])
        line = "Service mode: %s %s -> %s by %s (factory %s)" % (change.key, old, new, who,
                                                                 factory)
        log.info(line)
        self.changes.append(line)
        self.tuning = tuning if tuning is not None else self.desk.tuning
        if self.memory is not None:
            self.memory.choose(tuning=self.tuning or None)
        if self.apply is not None:
            self.apply(self.tuning)

    def _test(self, key):
        sound = TEST_SOUNDS.get(key)
        if sound is not None:
            self._sound(sound)
        else:
            self._played += 1
            self._spoken.append((self._played, SPOKEN_TEST))

    def _sound(self, name):
        self._played += 1
        self._sounds.append((self._played, name))

    def _note(self, msg):
        self._message = (self.host.clock.now() + MESSAGE_S, msg)
        self.host._refresh_soon()

    def frame(self, now):
        """``(ServiceScreen, seconds to the next look)`` while open, else None."""
        if self.desk is None:
            return None
        message = self._message[1] if self._message and self._message[0] > now else None
        return core.screen(self.desk, self.host.language, message, tuple(self._sounds),
                           tuple(self._spoken), now_s=now - self.opened_at), PERIOD_S


def _during_turn():
    return core.ServiceError("the service mode cannot open during a turn; open it between "
                             "turns", Msg("rig.service.not_in_turn"))


def attach_service(host, config, memory=None, hold_s=SERVICE_HOLD_S):
    """Give ``host`` its service mode (``host.service``), with the switch test's inputs and the
    factory values from ``config`` (the pin map's inputs; the hand sensor and the relic hub
    when the host has sources for them), the table's state ``memory`` (None: nothing saved)
    and the host's own way to apply the settings (``apply_tuning``, when it has one).
    Returns the :class:`ServiceDesk`."""
    if getattr(host, "pins", None) is not None:      # the museum's every part (Cleptómano)
        hub = bool(getattr(getattr(config, "hub", None), "enabled", False))
        inputs = switch_inputs(config.pinmap, hand=True, hub=hub)
    else:                                            # a companion game: the start button alone
        inputs = (BUTTON,)
    desk = ServiceDesk(host, inputs=inputs,
                       factory=factory_for(config), memory=memory,
                       apply=getattr(host, "apply_tuning", None), hold_s=hold_s,
                       read_audits=_audits_of(host))
    host.service = desk
    return desk


def _audits_of(host):
    """How the service mode reads the audits of ``host``'s recordings folder (None: it has
    none)."""
    directory = getattr(getattr(host, "session", None), "directory", None)
    if directory is None:
        return None

    def read():
        from .audits import audits
        return audits(directory)
    return read
