"""The one host loop every game runs on: Cleptómano's referee (:class:`rig.shell.daemon.Rig`)
and the companion games (:class:`rig.shell.gamehost.GameHost`) are this loop with their own
parts plugged in.

The loop owns one thread (started and stopped within a bound) and does, turn after turn:

* take what arrived on the :class:`~rig.shell.inbox.Inbox` (from any thread, stamped on the
  host's clock), waiting at most until the wake time: the earliest of the parts' deadlines
  (:meth:`Host._deadlines`: the game's timer, the start button's debounce, the next frame...);
* handle each item guarded: an exception in one is logged and the loop goes on
  (:meth:`Host._take`, traced for the benchmark's profile when a tracer is given);
* fire what is due (:meth:`Host._fire_due`): the parts' own deadlines, then the start button's
  certain presses, then the display pump;
* note that it turned (the watchdog's question, :meth:`Host.loop_turned_within`).

Around the loop it keeps what every game shows the same way: the log lines (the log, the phones'
list of calls), a message on the screen for a few seconds, the refusal a full recording gives
(:data:`FULL_DISK`), and the display pump: a face that ``wants_frames`` gets a frame soon after a
change and then every ``DISPLAY_PERIOD_S`` (the keys typed at it are read then).

It performs the shared effects (:mod:`rig.core.effects`) and no game's own: a game turns its
step's effects into those (:meth:`rig.core.contract.Game.table_effects`) and
:meth:`Host._perform_shared` makes them happen, in order: the buzzer and the lamps, the sounds,
the banner queue (:mod:`rig.core.banner_queue`), the screen's message, the faults shown, the
recording's sync, and last the lines said (a turn's end buzz never waits for its line).

What a game decides, records and shows is the subclass's: :meth:`Host._handle` (one item),
:meth:`Host._frame` (the screen now and when to look again).  Every accepted item is recorded
(through the :class:`~rig.shell.session.RecordingSession`) before it is acted on.
"""

import logging
import threading
import time
from collections import deque

from ..core import banner_queue as banners
from ..core.attract import Wake
from ..core.effects import Banner, Buzz, Fault, Lamp, Message, NextGame, Say, Sound, Sync
from ..core.severity import INFO, WARNING
from ..table.debounce import StartButton
from ..core.errors import RigError
from ..table.names import BUTTON
from ..core.msg import Msg
from ..core.phones import MakeHost
from ..words import check_language, english
from .faces import NullDisplay
from .inbox import STOP, Inbox, Order, Reading, Stage
from ..table.threads import start_on_clock

log = logging.getLogger("cleptomano")

#: A command the recording could not keep (the disk is full): refused, and said so.
FULL_DISK = Msg("rig.host.full_disk")


class Host:
    """The loop and what it keeps; see the module.  ``clock``, ``session``, ``display`` (a face,
    :mod:`rig.shell.faces`; None: headless), ``phones`` (the phones' pairing, shown on the
    screen; None: no phones), ``key_help``, ``trace(stage, item)`` (an optional observer of each
    item's way through the loop), ``button`` (the command a certain press of the start button
    gives; None: the host debounces no button) and ``detect`` its debounce settings."""

    MESSAGE_S = 5.0               # how long a message stays on the screen
    DISPLAY_PERIOD_S = 0.1        # a frame at least this often while frames are wanted
    THREAD = "cleptomano-game"    # the loop thread's name
    WHAT = "the game host"        # the loop in the log and in errors
    PROMPT_FRAMES = True          # a change is shown at once (False: at the next frame)
    REPEAT_FRAMES = False         # show every frame (False: only a frame that changed)
    KEPT_SOUNDS = 16              # sounds each screen carries, for a display that missed one
    remember = None               # the table's choices kept: TableMemory.choose (issue 30)
    attract = None                # the attract screen: rig.shell.attract.AttractWatch (issue 31)
    table_sources = None          # where each comes from: TableMemory.sources (issue 30)
    service = None                # the builder's service mode (rig.shell.service, issue 31)
    _taken_t = None               # the stamp of the newest Reading taken off the inbox

    def _remember(self, **choices):
        """The table chose ``choices`` (its language, its players...): kept for the evening
        (:mod:`rig.shell.table_state`), when the night keeps them."""
        if self.remember is not None:
            self.remember(**choices)

    def __init__(self, *, clock, session, display=None, phones=None, key_help=(), trace=None,
                 button=None, detect=None, debounce=True, language="en"):
        self.clock = clock
        self.language = check_language(language)    # the table's: what its screen speaks
        self.session = session
        self.display = display if display is not None else NullDisplay()
        self.phones = phones
        self.key_help = tuple(key_help)
        self.button = button
        self._presses = StartButton(detect) if debounce else None
        self.inbox = Inbox(clock, trace)
        self._trace = trace
        self.stop_event = threading.Event()
        self.log_lines = deque(maxlen=500)
        self._hear = getattr(self.display, "hear", None)   # faces that follow the calls
        self.t0 = None
        self._message = None          # (until on the clock, text)
        self._display_due = None
        self._shown = None            # the frame last shown
        self._threads = []
        self._loop_thread = None
        self._alive_at = None         # time.monotonic() when the loop last turned
        self._ready = threading.Event()
        # What the shared effects keep (rig.core.effects): the table's buzzer and lamps (None:
        # this table has none), the faults shown, the banner queue, the sounds played.
        self.buzzer = self.lamps = None
        self._sounded = set()         # contacts whose buzz sounded on arrival, not yet applied
        self._faults = {}
        self._banners = banners.EMPTY    # the banner queue, on the game's clock
        self.banner_log = deque(maxlen=500)  # banners.Shown: which banner, from when to when
        self._sounds = deque(maxlen=self.KEPT_SOUNDS)
        self._played = 0              # sounds asked for so far (numbers them)

    # --- the thread --------------------------------------------------------------------------------
    def _start_loop(self, timeout_s=5.0):
        """Start the loop's thread (registered with the clock); :meth:`_await_loop` waits for
        it."""
        self._loop_thread = start_on_clock(self.clock, self._loop, self.THREAD, timeout_s)
        self._threads.append(self._loop_thread)
        return self._loop_thread

    def _await_loop(self, timeout_s):
        if not self._ready.wait(timeout_s):
            raise RigError("%s did not start within %g s" % (self.WHAT, timeout_s))

    def _stop_loop(self, deadline):
        """Ask the loop to stop (after what arrived before) and wait for it until ``deadline``
        (on time.monotonic()); then set the stop event for every other thread."""
        self.inbox.put(STOP)
        if self._loop_thread is not None:
            self._loop_thread.join(max(0.0, deadline - time.monotonic()))
        self.stop_event.set()
        self.inbox.wake()

    def alive(self):
        return self._loop_thread is not None and self._loop_thread.is_alive()

    def loop_turned_within(self, seconds):
        """For the watchdog: the loop turned within ``seconds`` (it turns at least every
        clock's ``MAX_WAIT_S`` while it runs)."""
        return self._alive_at is not None and time.monotonic() - self._alive_at < seconds

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def recording_path(self):
        return self.session.path

    def submit(self, command, reply=None):
        """A command from any thread, stamped now.  ``reply(answer)`` (optional) hears on the
        loop's thread whether it was taken (an :class:`~rig.shell.inbox.Answer`)."""
        self.inbox.put(Order(self.clock.now(), command, reply))

    def open_service(self, by: str):
        """Open the builder's service mode for ``by`` (a player's name, ``"screen"``,
        ``"button"``).  Any thread: it enqueues.  During a turn, or on a host without one: a
        :class:`RigError` whose ``msg`` says so."""
        if self.service is None:
            from ..core.service import ServiceError
            raise ServiceError("this host has no service mode; the rig attaches one when it "
                               "runs (cleptomano run)", Msg("rig.service.none"))
        self.service.request(by)

    def in_turn(self):
        """Whether a turn is being played now (the service mode waits for its end)."""
        try:
            return self.adapter.playing(self._state()) is not None
        except Exception:
            return False

    def service_values(self):
        """The table's inputs as they read now (the service mode's switch test begins there)."""
        return {}

    def service_closed(self, values):
        """The service mode closed; ``values`` are the raw inputs it heard meanwhile: the start
        button's last one is handed on (its debounce knows where the button is)."""
        if BUTTON in values and self._presses is not None:
            self.inbox.put(Reading(self.clock.now(), BUTTON, values[BUTTON]))

    def button_edge(self, value, t_abs=None):
        """The start button's contact changed (1 pressed) at ``t_abs`` on the host's clock (the
        pin's own stamp; None: now).  Any thread (the pin's callback): it only enqueues."""
        self.inbox.put(Reading(self.clock.now() if t_abs is None else t_abs, BUTTON, value))

    # --- the loop ----------------------------------------------------------------------------------
    def _loop(self):
        self._ready.set()
        take, stop = self.inbox.take, self.stop_event
        while True:
            for item in take(self._wake_at(), stop):
                if item is STOP:
                    self._stopping()
                    return
                self._arrive(item)
            self._turned()
            self._guarded_fire_due()
            self._alive_at = time.monotonic()
            if stop.is_set():
                return

    def _turned(self):
        """After each batch, before what is due fires."""

    def _stopping(self):
        """The loop took STOP (after everything that arrived before it)."""

    def _take(self, item):
        trace = self._trace
        if trace is not None:
            trace(Stage.TAKEN, item)
        if type(item) is Reading and (self._taken_t is None or item.t_abs > self._taken_t):
            self._taken_t = item.t_abs      # the newest edge taken (the buzzer's settle)
        try:
            if self.attract is not None and self._woke(item):
                pass                # only the attract screen's wake
            elif self.service is None or not self.service.take(item):
                self._handle(item)
        except Exception:
            log.exception("%s could not handle %r; it goes on", self.WHAT, item)
        if trace is not None:
            trace(Stage.DONE, item)

    def _woke(self, item):
        """The attract screen hears of ``item`` (a touch, a command: it wakes); True when the
        item was only the screen's or a phone's :class:`~rig.core.attract.Wake`."""
        was = self.attract.shown
        woke = self.attract.took(item, self.clock.now())
        if was is not None:
            self._refresh_soon()
        return woke

    def wake(self):
        """A phone opened its page (any thread): the attract screen wakes, as at a touch."""
        if self.attract is not None:
            self.submit(Wake())

    # An item taken off the inbox is handled at once; a part may hold it first instead (the
    # referee's edge delay sets its own ``_arrive``), with no extra hop either way.
    _arrive = _take

    def _handle(self, item):
        raise NotImplementedError

    def _wake_at(self):
        due = [t for t in self._deadlines() if t is not None]
        return min(due) if due else None

    def _deadlines(self):
        """When the loop must wake (seconds on the host's clock; None: nothing due)."""
        yield self._display_due
        if self._presses is not None:
            press = self._presses.next_deadline()
            yield None if press is None else self.t0 + press
        if self.service is not None:
            yield self.service.deadline()

    def _guarded_fire_due(self):
        try:
            self._fire_due(self.clock.now())
        except Exception:
            log.exception("%s: a deadline, a sound or the display failed; it goes on", self.WHAT)

    def _fire_due(self, now):
        """The parts' deadlines (:meth:`_fire_parts`), the start button's presses, the
        display."""
        self._fire_parts(now)
        if self.service is not None:
            self.service.fire(now)
        if self._presses is not None:
            self._press(self._presses.fire(round(now - self.t0, 6)))
        if self._display_due is not None and self._display_due <= now:
            self._refresh(now)

    def _fire_parts(self, now):
        """Fire the game's own deadlines due by ``now``."""

    # --- the start button --------------------------------------------------------------------------
    def _button_edge(self, reading):
        self._press(self._presses.edge(round(reading.t_abs - self.t0, 6), reading.value))

    def _press(self, presses):
        """The start button's certain presses: each the game's primary command, stamped when
        the host knew of it (a command's time never goes back, and a key typed meanwhile is
        stamped on arrival), handled (and refused) as a key's would be."""
        for _ in presses:
            if self.button is not None:
                self._handle(Order(self.clock.now(), self.button))

    # --- what the table hears and sees -------------------------------------------------------------
    def _say(self, t, text, severity=INFO):
        """A line for the log and the phones' list of calls, at ``t`` on the game's clock.
        ``text`` is a code (:class:`rig.core.msg.Msg`): the log says it in English, whatever the
        table speaks, and the faces each in their reader's language."""
        line = "[%8.3f s] %s" % (t, english(text))
        self.log_lines.append(line)
        if self._hear is not None:
            self._hear(t, text, severity)
        (log.warning if severity == WARNING else log.info)(line)

    def _make_host(self, name, now):
        """The screen's key made the phone paired as ``name`` the table's host (None: no
        phone is host; issue 31): said on the screen, the phones' calls and the log."""
        if self.phones is None or not self.phones.make_host(name):
            return
        said = Msg("rig.phones.host_made", name=name) if name is not None \
            else Msg("rig.phones.host_none")
        self._say(round(now - self.t0, 6) if self.t0 is not None else 0.0, said)
        self._show_message(said, now)

    def _show_message(self, text, now=None):
        """``text`` (a code, said by each face) on the screen for ``MESSAGE_S``."""
        self._message = ((self.clock.now() if now is None else now) + self.MESSAGE_S, text)
        self._refresh_soon()

    def _message_at(self, now):
        """The message still on the screen at ``now``, or None."""
        message = self._message
        return message[1] if message and message[0] > now else None

    # --- the shared effects ----------------------------------------------------------------------
    def _perform_shared(self, effects):
        """Perform ``effects`` (shared effects, :mod:`rig.core.effects`) in order; the lines
        they say are said last, even when one of them failed; a :class:`NextGame` is handed to
        :meth:`_next_game` after that.  Then the screen is refreshed."""
        now = self.clock.now()
        said = []
        opens = []
        durable = False
        try:
            for effect in effects:
                kind = type(effect)
                if kind is Buzz:
                    self._buzz(effect, now)
                elif kind is Lamp:
                    self._lamp(effect.name, effect.on)
                elif kind is Say:
                    said.append(effect)
                elif kind is Sound:
                    self._played += 1
                    self._sounds.append((self._played, effect.name))
                elif kind is Banner:
                    self._queue(banners.cut(self._banners, effect.t) if effect.cut else
                                banners.add(self._banners, effect.key, effect.shown,
                                            effect.seconds, effect.t))
                elif kind is Message:
                    self._show_message(effect.text, now)
                elif kind is Fault:
                    self._fault(effect, said)
                elif kind is Sync:
                    durable = True
                elif kind is NextGame:
                    opens.append(effect)
                else:
                    raise TypeError("%r is not a shared effect (rig.core.effects); the game's "
                                    "table_effects must turn it into one" % (effect,))
            self._arm()
            if durable:
                self.session.request_sync()
        finally:
            for line in said:
                self._say(line.t, line.text, line.severity)
        for effect in opens:
            self._next_game(effect)
        self._refresh_soon()

    def _buzz(self, buzz, now):
        """The buzzer plays (or stops); a touch's buzz the reflex already sounded on the edge's
        arrival does not sound again."""
        if self.buzzer is not None:
            if buzz.pattern is None:
                self.buzzer.off()
            elif not buzz.source or buzz.source not in self._sounded:
                self.buzzer.play(buzz.pattern, now)
        self._sounded.discard(buzz.source)

    def _arm(self):
        """After a step's effects: arm the table's touch-to-buzzer reflex (table29's
        :mod:`rig.table.reflex`, when the buzzer has one) for the inputs the game says may buzz
        at once now (:meth:`rig.core.contract.Game.reflex_inputs`)."""
        reflex = getattr(self.buzzer, "reflex", None)
        if reflex is not None:
            reflex.arm(self.adapter.reflex_inputs(self._state()))

    def _state(self):
        """The game's state now (the subclass's)."""
        raise NotImplementedError

    def _lamp(self, name, on):
        if self.lamps is not None:
            self.lamps.set(name, on)

    def _queue(self, queued):
        """Keep the banner queue as it now stands and log the banners that left the screen."""
        self._banners, shown = queued
        self.banner_log.extend(shown)

    def _fault(self, fault, said=None):
        """Show or clear ``fault`` (a shared :class:`~rig.core.effects.Fault`); its line is
        said now, or added to ``said`` (said after the other effects)."""
        if fault.active:
            self._faults[fault.source] = fault.text
        elif self._faults.pop(fault.source, None) is None:
            return      # nothing was reported: a device coming up is no news ("Cleared: ...")
        if fault.said is not None:
            if said is None:
                self._say(fault.said.t, fault.said.text, fault.said.severity)
            else:
                said.append(fault.said)
        self._lamp("fault", bool(self._faults))

    @property
    def faults(self):
        """The faults shown now, by source (``hub``, ``tof``, ``recording``, ``laser.4``...)."""
        return dict(self._faults)

    def _next_game(self, effect):
        """The game asked for the next one (:class:`~rig.core.effects.NextGame`)."""
        log.warning("%s cannot open a next game yet; %r is ignored", self.WHAT, effect)

    # --- the display pump --------------------------------------------------------------------------
    def _begin_frames(self):
        """A face that wants frames gets its first one now (the loop wakes for it)."""
        if self.display.wants_frames:
            with self.inbox.cond:
                self._display_due = self.clock.now()
                self.inbox.cond.notify_all()

    def _refresh_soon(self):
        if self.display.wants_frames and (self.PROMPT_FRAMES or self._display_due is None):
            self._display_due = self.clock.now()

    def _refresh(self, now):
        """Take the keys typed since the last look; show the frame (if it changed, unless every
        frame is shown); look again when :meth:`_frame` says."""
        display = self.display
        self._display_due = None
        for command in display.poll_commands():
            if type(command) is MakeHost:       # who may do what, not the game's: no inbox
                self._make_host(command.name, now)
                continue
            self.submit(command)
        shown = self.service.frame(now) if self.service is not None else None
        frame, period_s = shown if shown is not None else self._frame(now)
        if self.attract is not None:
            self.attract.frame(display, frame, now, self.language)
        if self.REPEAT_FRAMES or frame != self._shown:
            self._shown = frame
            display.show(frame)
        self._display_due = now + period_s

    def _frame(self, now):
        """The screen at ``now`` and the seconds until the next look."""
        raise NotImplementedError
