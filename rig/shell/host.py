"""The one host every game runs on, Cleptómano and the companion games alike: one class,
:class:`Host`, whose policy follows what its game declares through the contract
(:class:`rig.core.contract.Game`) and the table parts its folder declares
(:mod:`rig.table.parts`), never the game's name nor a flag of its own.

The loop owns one thread (started and stopped within a bound) and does, turn after turn:

* take what arrived on the :class:`~rig.shell.inbox.Inbox` (from any thread, stamped on the
  host's clock), waiting at most until the wake time: the earliest of the deadlines
  (:meth:`Host._deadlines`: the game's timer, the start button's debounce, the next frame...);
* handle each item guarded: an exception in one is logged and the loop goes on
  (:meth:`Host._take`, traced for the benchmark's profile when a tracer is given);
* fire what is due (:meth:`Host._fire_due`): the game's deadlines, then the start button's
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

What differs between games is what they declare, and only that:

* **A game that reads the table** (its :attr:`~rig.core.contract.Game.table_inputs`, such as
  Cleptómano's contacts, hand sensor and relics) is refereed at the pins' pace: the host opens
  the table parts it declares (pins, outputs, hand sensor, relic hub: given by
  :func:`rig.shell.build.build_host`), stamps every input, holds it ``edge_delay_s`` and
  applies it in stamp order (a touch sounds the buzzer at once all the same), records it
  before the rules see it, keeps lines for a failing disk in memory (its sync thread makes
  the durable moments its effects name durable), opens match after match at the table (its
  set-up, the next match on a start press), resumes the recording its game picks and runs the
  wiring check the game declares (``check_command``); its screen moves at 30 frames a second.
* **A game that reads none** is played at human pace: each accepted command is written whole
  and fsynced before it acts (a full disk refuses it), the start button (when the game's
  parts declare it) is debounced into the game's primary command, and its newest recording
  cut off by a crash is taken up again.

Every accepted item is recorded (through the :class:`~rig.shell.session.RecordingSession`)
before it is acted on.  ``rig.shell.daemon.Rig`` and ``rig.shell.gamehost.GameHost`` are the
two constructors this host had before it was one class, kept: each makes a :class:`Host`.
"""

import heapq
import logging
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, replace

from ..core import banner_queue as banners
from ..core.attract import Wake
from ..core.effects import Banner, Buzz, Fault, Lamp, Message, NextGame, Say, Sound, Sync
from ..core.errors import RigError, RulesError
from ..core.gamekit import GameScreen, SetLanguage
from ..core.jsonl import dumps
from ..core.msg import Msg
from ..core.names import same_name
from ..core.phones import MakeHost, RevokePhones
from ..core.severity import INFO, WARNING
from ..games import settings as game_settings
from ..table.debounce import StartButton
from ..table.names import BUTTON, Kind
from ..table.outputs import REFUSED, TOUCH, Buzzer, Lamps
from ..table.threads import start_on_clock
from ..words import check_language, english
from . import storage
from .ahead import work_out
from .faces import NullDisplay
from .inbox import (STOP, Answer, DeviceNote, FaultReport, Inbox, Order, Reading, Seed, Stage)
from .intake import Intake
from .session import RETRY_S, Health, marks_open
from .wiring import new_check_for

log = logging.getLogger("cleptomano")

#: A command the recording could not keep (the disk is full): refused, and said so.
FULL_DISK = Msg("rig.host.full_disk")
#: How long before a turn's time limit the host works out its end (rig.shell.ahead).
FORESEE_S = 0.05
#: The screen of a game at the table: during a turn the countdown moves (30 frames a second);
#: between turns the guard's keys are read this often.
TABLE_DISPLAY_PERIOD_S = 1.0 / 30
IDLE_DISPLAY_PERIOD_S = 0.1
#: The screen of a game at human pace: the countdown moves and the keys are read this often.
GAME_DISPLAY_PERIOD_S = 0.1
#: The fault sources whose loss and return the recording keeps as device lines (the relic hub,
#: the hand sensor: rig.table.sources; docs/audits31.md).
DEVICES = ("hub", "tof")


@dataclass
class Stats:
    refused: int = 0       # commands the rules refused


class Host:
    """One game from start to stop, on the one loop; see the module.  Every part is injected:

    ``game`` a game of :mod:`rig.games` (kept as ``adapter``; None: a bare loop, for tests of
    the shared effects), ``players`` (a game at the table: None takes the config's),
    ``clock``, ``session`` (a :class:`~rig.shell.session.RecordingSession`), ``config`` (the
    rig's: its ``[detect]``, ``[match]``, ``[table]``, ``[tournament]``, its pins for the
    wiring check), ``settings`` the game's config table (None: every default, see
    :func:`rig.games.settings`), ``display`` a face (:mod:`rig.shell.faces`; None: headless),
    ``phones`` the phones' pairing (:mod:`rig.web.pairing`; None: no phones), shown on the
    screen, ``key_help``, ``trace(stage, item)`` an optional observer of each item's way
    through the loop (the benchmark's profile), ``button`` the command a certain press of the
    start button gives (None: the host debounces no button) and ``detect`` its debounce,
    ``language`` the table's (None: the config's ``[table] language``, else English),
    ``resume`` (default True): take up the game's unfinished recording, ``seed`` (None: a fresh
    one from :mod:`secrets` below the game's ``seed_bound``).

    The table parts a game that reads the table declares: ``pins`` a
    :class:`~rig.table.sources.PinSource`, ``outputs`` the buzzer and lamps on pins
    (:class:`rig.table.pins.Outputs`), ``sources`` the other sources (hand sensor, relic
    hub), ``patterns`` the buzzer's, ``edge_delay_s`` how long an input is held before it is
    applied in stamp order; ``links`` the links to the world beyond the table (the
    tournament's, :mod:`rig.links.publisher`), started once the recording is open and stopped
    after it is closed; ``sync_hook(path)`` each fsync of the recording (the kill tests);
    ``level`` and ``first_thief`` override the config's match."""

    remember = None               # the table's choices kept: TableMemory.choose (issue 30)
    attract = None                # the attract screen: rig.shell.attract.AttractWatch (issue 31)
    table_sources = None          # where each comes from: TableMemory.sources (issue 30)
    service = None                # the builder's service mode (rig.shell.service, issue 31)
    _taken_t = None               # the stamp of the newest Reading taken off the inbox
    health = None                 # the sensor health: rig.shell.audits.HealthWatch (issue 31)
    KEPT_SOUNDS = 16              # sounds each screen carries, for a display that missed one

    def _remember(self, **choices):
        """The table chose ``choices`` (its language, its players...): kept for the evening
        (:mod:`rig.shell.table_state`), when the night keeps them."""
        if self.remember is not None:
            self.remember(**choices)

    def __init__(self, game=None, players=None, *, clock, session, config=None, settings=None,
                 display=None, phones=None, key_help=(), trace=None, button=None, detect=None,
                 debounce=None, language=None, resume=True, seed=None, pins=None, outputs=None,
                 sources=(), links=(), patterns=None, edge_delay_s=0.0, sync_hook=None,
                 level=None, first_thief=None):
        #: The game played: everything the host asks of it goes through its contract.
        self.adapter = game
        #: Whether the game reads the table's inputs (its declared ``table_inputs``) and the
        #: host was given the table's pins to read them from: then it is refereed at the pins'
        #: pace (see the module); else it is played through the contract at human pace (the
        #: contract tests play Cleptómano so, turn by turn, as every other game).
        self.at_table = at_table = (game is not None and bool(game.table_inputs)
                                    and pins is not None)
        if language is None:
            language = config.table.language if config is not None else "en"
        self.clock = clock
        self.language = check_language(language)    # the table's: what its screen speaks
        self.session = session
        self.display = display if display is not None else NullDisplay()
        self.phones = phones
        self.key_help = tuple(key_help)
        self.button = button
        if debounce is None:
            debounce = not at_table      # a game at the table reads the button itself
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
        # The pace: a game at the table shows every frame at the frame rate (a touch is not
        # held for a frame; the countdown and the banners move); a game at human pace shows a
        # change at once, and only a frame that changed.
        self.MESSAGE_S = 5.0 if at_table or game is None else 6.0
        self.DISPLAY_PERIOD_S = TABLE_DISPLAY_PERIOD_S if at_table else GAME_DISPLAY_PERIOD_S
        self.THREAD = "cleptomano-referee" if at_table else "cleptomano-game"
        self.WHAT = "the referee thread" if at_table else "the game host"
        self.PROMPT_FRAMES = not at_table
        self.REPEAT_FRAMES = at_table
        # The game and its recording.
        self.config = config
        self.resume = resume
        self.seed = seed
        self.resumed = None           # a game at human pace: the Unfinished taken up, if one
        self._ahead = None            # a turn's end worked out ahead (rig.shell.ahead)
        self._spin_s = getattr(clock, "spin_s", 0.0)   # a turn's end: the wait finished so
        self.state = None             # the game's state (Cleptómano's: the referee)
        self.stats = Stats()
        self.settings = settings
        self.players = ()
        if game is not None and not at_table:
            self.players = tuple(players)[:1] if game.solo else tuple(players)
        # The table's parts (none for a game that declares none).
        self.pins = pins
        self.outputs = outputs
        self.sources = tuple(sources)
        self.links = tuple(links)
        self.patterns = patterns
        self.sync_hook = sync_hook
        self.edge_delay_s = float(edge_delay_s)
        self.intake = Intake(self.inbox, clock)
        self._pending = []           # (t_abs, seq, item): waiting edge_delay_s, in stamp order
        self._seq = 0
        self._recording = Health.OK  # how the recording stands (lines kept for the disk...)
        self._retry_at = None        # when to try the disk again
        self._unrecorded = {}        # input -> its newest value the recording could not keep
        self.set_up = None           # the NewMatch the current settings come from, if any
        self.roster = ()             # names the set-up screen offers
        self._wiring = None          # the wiring check running on the screen
        self._wiring_asked = False   # the step last announced in the log
        if at_table:
            self._arrive = self._hold if self.edge_delay_s > 0 else self._take
            self.settings = config.detect
            match = game_settings(game, config)     # the game's own table of the config
            self.players = tuple(players or match.players)
            self.level = level or match.level
            self.first_thief = first_thief or (match.first_thief
                                               if match.first_thief in self.players else None)
        if session is not None and game is not None:
            session.game = game      # whose lines it writes (RecordingSession.record)

    # --- the game's state, by the names its hosts gave it --------------------------------------
    @property
    def state(self):
        """The game's state (Cleptómano's: the referee, match and detector)."""
        return self._state

    @state.setter
    def state(self, value):
        # Every step of the game sets it: a turn's end worked out from the state before
        # (rig.shell.ahead) is dropped, and worked out again from this one if there is time.
        self._state = value
        self._ahead = None

    @property
    def referee(self):
        """The state of a game at the table (Cleptómano's referee: match and detector)."""
        return self.state

    @referee.setter
    def referee(self, value):
        self.state = value

    @property
    def game(self):
        """The game's state (the name the game host gave it)."""
        return self.state

    @game.setter
    def game(self, value):
        self.state = value

    @property
    def refused(self):
        """How many commands the rules refused."""
        return self.stats.refused

    @property
    def threads(self):
        """The threads the host started (the loop, the recording's sync)."""
        return tuple(self._threads)

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
            return self.adapter.playing(self.state) is not None
        except Exception:
            return False

    def service_values(self):
        """The table's inputs as they read now (the service mode's switch test begins there):
        at the table, as the game and the pins read them; else none."""
        if not self.at_table:
            return {}
        values = dict(self.adapter.input_values(self.state)) if self.state else {}
        values.update(self.pins.values())
        return values

    def service_closed(self, values):
        """The service mode closed; ``values`` are the raw inputs it heard meanwhile.  At the
        table every input that now reads differently from what the game believes is recorded
        and refereed (as after the wiring check); else the start button's last one is handed
        on (its debounce knows where the button is)."""
        if self.at_table:
            values = dict(values)
            values.update(self.pins.values())
            self.inbox.put(Seed(self.clock.now(), values))
        elif BUTTON in values and self._presses is not None:
            self.inbox.put(Reading(self.clock.now(), BUTTON, values[BUTTON]))

    def apply_tuning(self, tuning):
        """The service mode's settings (issue 31): each rod's merge window and relic's tilt
        threshold hold from the next match (a match keeps the settings its header names); a
        game at human pace reads none of them."""
        if not self.at_table:
            return
        from .table_state import tuned_config
        self.settings = tuned_config(self.config, tuning).detect

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

    # An item taken off the inbox is handled at once; a game at the table may hold it first
    # instead (the edge delay sets ``_arrive`` to :meth:`_hold`), with no extra hop either way.
    _arrive = _take

    def _wake_at(self):
        due = [t for t in self._deadlines() if t is not None]
        return min(due) if due else None

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

    def _words(self, moment, **params):
        """The game's words for one of the host's own moments (:meth:`rig.core.contract.Game.
        host_words`, :data:`rig.core.contract.HOST_MOMENTS`), or None."""
        return self.adapter.host_words(moment, params)

    def _say_words(self, t, moment, **params):
        """Say the game's words for one of the host's moments (nothing if it has none)."""
        words = self._words(moment, **params)
        if words is not None:
            self._say(t, words)

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
            reflex.arm(self.adapter.reflex_inputs(self.state))

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

    # --- life cycle ------------------------------------------------------------------------------
    def start(self, timeout_s=5.0):
        """Open the table parts the game declares, take up its unfinished recording
        (``resume``) or begin a new game or match (its header written and synced), start the
        threads.  If any of it fails, whatever was started is stopped again before the error
        goes up."""
        try:
            return self._start(timeout_s)
        except BaseException:
            if self.at_table:
                self.stop(timeout_s, clean=self.session.writer is not None)
            raise

    def _start(self, timeout_s):
        self.session.prepare()
        if self.outputs is not None:
            self.outputs.open()
            self.buzzer = Buzzer(self.outputs.buzzer, self.patterns,
                                 reflex=getattr(self.outputs, "reflex", None))
            self.lamps = Lamps(self.outputs)
        if self.pins is not None:
            self.pins.start(self.intake)
        now = self.clock.now()
        if self.at_table:
            if not (self.resume and self._resume_match(now)):
                self._new_match(now)
        else:
            found = self.session.resume_game(self.adapter) if self.resume else None
            if found is not None:
                self._resume_game(found)
            else:
                self._begin()
            self._begin_frames()
        for link in self.links:
            link.start()
        self._start_loop(timeout_s)
        if self.at_table:        # lines held for the disk: made durable by the sync thread
            self._threads.append(self.session.start_sync(self.sync_hook))
        for source in self.sources:
            source.start(self.intake)
        self._await_loop(timeout_s)
        if self.at_table:
            self._begin_frames()
        if self.pins is not None:
            self._seed_inputs()
        return self

    def stop(self, timeout_s=3.0, clean=True):
        """Stop every thread (bounded), close the recording (its end line when ``clean``; as a
        crash would leave it otherwise: the next start resumes it) and release the table's
        parts.  A host whose game never began has nothing to close."""
        if self.t0 is None and not self.at_table:
            return True
        for source in self.sources:
            try:
                source.stop(timeout_s=timeout_s)
            except Exception:
                log.exception("stopping %r failed", source)
        deadline = time.monotonic() + timeout_s
        self._stop_loop(deadline)
        if self.at_table:
            self.session.stop_sync()
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in self._threads if t.is_alive()]
        if clean:
            self._close_recording()
        else:
            self.session.abandon()
        for link in self.links:
            if not link.stop(timeout_s, clean=clean):
                alive.append("the tournament link")
        if self.pins is not None:
            self.pins.stop()
        if self.outputs is not None:
            self.outputs.close()
        if alive:
            log.warning("threads still running after %g s: %s", timeout_s, ", ".join(alive))
        return not alive

    def _close_recording(self):
        """Write the game's end line (when it has one) and close the recording."""
        if self.session.writer is None:
            return
        if self.at_table:
            t = self.state.t
            if self.t0 is not None:
                t = max(t, round(self.clock.now() - self.t0, 6))
            self.session.close(t, end_line=self.adapter.item_line(self.adapter.end_item(t)))
        else:
            t = self.now_t()
            end = self.adapter.end_line(t)
            self.session.close(t, end_line=None if end is None else dumps(end))

    def alive(self):
        """For the watchdog: the loop turned recently and every thread and source runs."""
        if not self.at_table:
            return self._loop_thread is not None and self._loop_thread.is_alive()
        if self._alive_at is None or any(not t.is_alive() for t in self._threads):
            return False
        return all(s.running for s in self.sources + self.links)

    def now_t(self):
        """Seconds since the game began, on the host's clock."""
        return round(self.clock.now() - self.t0, 6)

    def result(self):
        """The live game's result, in the shape its replay prints."""
        if self.at_table:
            t = max(self.state.t, round(self.clock.now() - self.t0, 6))
            return self.adapter.live_result(self.state, t)
        return self.adapter.result(self.state)

    def player_view(self, player):
        """What ``player``'s phone shows now (their secrets only); IllegalMove for a name that
        is not a player of this game.  Any thread: the game is a value, read once."""
        state = self.state
        return self.adapter.player_view(state, player, self.now_t())


    # --- the loop's parts: what is due, what is held -----------------------------------------
    def _deadlines(self):
        """When the loop must wake (seconds on the host's clock; None: nothing due): the game's
        deadline (and a turn's end worked out ahead), the held inputs, the disk's retry, the
        buzzer's pattern, the frame, the start button's debounce, the wiring check."""
        if self.at_table:
            deadline = self.adapter.deadline(self.state) if self.state else None
            if deadline is not None:
                if self._ahead is not None:  # worked out: wake early, finish the wait on the clock
                    yield self.t0 + self._ahead.deadline + self.edge_delay_s - self._spin_s
                else:
                    yield self.t0 + deadline + self.edge_delay_s
                    yield self._foresee_at()     # a turn's end: worked out FORESEE_S before it
            if self._pending:
                yield self._pending[0][0] + self.edge_delay_s
            yield self._retry_at
            if self.buzzer is not None:
                yield self.buzzer.next_due()
        elif self.adapter is not None and self.t0 is not None:
            deadline = self.adapter.deadline(self.state)
            yield None if deadline is None else self.t0 + deadline
        yield self._display_due
        if self._presses is not None:
            press = self._presses.next_deadline()
            yield None if press is None else self.t0 + press
        if self._wiring is not None:
            yield self._wiring.deadline
        if self.service is not None:
            yield self.service.deadline()

    def _turned(self):
        """After each batch, before what is due fires: the held inputs whose time has come are
        applied; a reflex buzz the rules did not keep ends here."""
        if self.edge_delay_s > 0:
            self._apply_pending(self.clock.now() - self.edge_delay_s)
        if self.buzzer is not None:
            self.buzzer.settle(self._taken_t)   # only once the edge that sounded it is taken

    def _stopping(self):
        """The loop took STOP (after everything that arrived before it): what is held is
        applied, what is due fires."""
        if self.at_table:
            self._apply_pending(None)
            self._guarded_fire_due()

    def _fire_parts(self, now):
        """Fire the game's own deadlines due by ``now`` (a game at the table: ``edge_delay_s``
        later, its turn's end worked out ahead, the wiring check's and the buzzer's, the
        disk's retry)."""
        if not self.at_table:
            if self.adapter is None:
                return
            deadline = self.adapter.deadline(self.state)
            if deadline is not None and self.t0 + deadline <= now:
                self._apply(self.adapter.tick(deadline))
            return
        if self._ahead is not None:
            now = self._on_time(self.t0 + self._ahead.deadline + self.edge_delay_s, now)
        self._fire_deadlines(now - self.edge_delay_s)
        at = self._foresee_at()
        if at is not None and now >= at and self._ahead is None:
            self._work_out_ahead()  # so the end buzz waits only for the tick line's write
        if self._wiring is not None:
            self._wiring_lines(now, self._wiring.expire(now))
        if self.buzzer is not None:
            self.buzzer.fire(now)
        self._retry_disk(now)

    def _hold(self, item):
        """Keep ``item`` until its stamp is ``edge_delay_s`` old; a laser's first edge sounds
        the buzzer now all the same."""
        if type(item) is Reading and item.name not in self._sounded:
            try:
                change = self.adapter.reading(self._rel(item.t_abs), item.name, item.value)
                if self.adapter.sounds_at_once(self.state, change):
                    self._sounded.add(item.name)
                    self.buzzer.play(TOUCH, self.clock.now())
            except Exception:
                log.exception("the buzzer could not sound for %r; the rig goes on", item)
        self._seq += 1
        heapq.heappush(self._pending, (getattr(item, "t_abs", 0.0), self._seq, item))

    def _apply_pending(self, horizon):
        """Apply the held items stamped at or before ``horizon`` (None: all), in stamp order,
        firing the deadlines due before each on the way."""
        pending = self._pending
        while pending and (horizon is None or pending[0][0] <= horizon):
            t_abs, _, item = heapq.heappop(pending)
            try:
                self._fire_deadlines(t_abs)
            except Exception:
                log.exception("a deadline failed; the rig goes on")
            self._take(item)

    def _rel(self, t_abs):
        """``t_abs`` on the game's clock, never before its last item's."""
        rel = round(t_abs - self.t0, 6)
        if not self.at_table:
            return rel
        return rel if rel > self.state.t else self.state.t

    # --- one item --------------------------------------------------------------------------------
    def _handle(self, item):
        kind = type(item)
        if kind is Reading and self._wiring is not None:
            self._wiring_reading(item)
        elif kind is Reading and self.at_table:
            self._reading(item)
        elif kind is Reading:
            self._button_edge(item)
        elif kind is Order:
            self._order(item)
        elif kind is Seed:
            self._perform(self._record_inputs(self._rel(item.t_abs), item.values))
        elif kind is FaultReport:
            t = self._rel(item.t_abs)
            if item.source in DEVICES:
                self._device_line(t, item.source, "lost" if item.active else "back")
            self._perform([self.adapter.fault_effect(t, item.source, item.message,
                                                     item.active)])
        elif kind is DeviceNote:
            self._device_line(self._rel(item.t_abs), item.device, item.state)
        else:
            raise TypeError("%r is no item of the host's inbox" % (item,))

    def _reading(self, item):
        """A table input's change: recorded before the game sees it, then stepped."""
        change = self.adapter.reading(self._rel(item.t_abs), item.name, item.value)
        if not self._record(change):
            self._unrecorded[item.name] = item.value    # never act on what is not kept
            return
        if self._trace is not None:
            self._trace(Stage.RECORDED, item)
        self.state, effects = self.adapter.step_owned(self.state, change)
        if self._trace is not None:
            self._trace(Stage.FED, item)
        self._perform(effects)
        self._sounded.discard(item.name)

    def _order(self, item):
        """A command from the keys or a phone: the host's own (the phones unpaired, the wiring
        check, the table's language), or the game's."""
        command = item.command
        kind = type(command)
        if kind is RevokePhones:
            self._revoke(command.name, item.t_abs)
        elif self._wiring_kind is not None and kind is self._wiring_kind:
            self._wiring_command(command.action, item.t_abs)
        elif kind is SetLanguage:
            # The set-up screen's language choice: the screen speaks it from the next frame
            # (the snapshot carries it); nothing is recorded, the log stays English.
            self.language = check_language(command.lang)
            self._remember(language=self.language)
            self._refresh_soon()
            if item.reply is not None:
                item.reply(Answer(True, None, self.screen()))
        elif self.at_table:
            answer = self._command(replace(command, t=self._rel(item.t_abs)))
            if item.reply is not None:
                item.reply(replace(answer, board=self.screen()))
        else:
            private = (item.reply is not None and getattr(command, "by", None) is not None
                       and isinstance(command, self.adapter.secret_commands))
            reason = self._apply(replace(command, t=round(item.t_abs - self.t0, 6)), private)
            if item.reply is not None:
                item.reply(Answer(reason is None, reason, self.screen()))

    @property
    def _wiring_kind(self):
        """The command type of the wiring check the game declares (None: it has none)."""
        return getattr(self.adapter, "check_command", None)

    def _revoke(self, name, t_abs):
        """The phones unpaired from the keys: one seat's (``name``), or every one."""
        if self.phones is None:
            return
        t = self._rel(t_abs)
        if name is not None:
            if self.phones.unpair_named(name):     # one seat (issue 30)
                self._say(t, Msg("rig.phones.one_unpaired", name=name))
        else:
            self.phones.revoke()
            self._say_words(t, "phones_unpaired")

    def _device_line(self, t, device, state):
        """Record a device's loss, return or re-initialisation (the game's device line, for the
        audits: docs/audits31.md) before anything acts on it, then step the game with it."""
        line = self.adapter.device_change(t, device, state)
        if line is None or not self._record(line):
            return
        self.state, effects = self.adapter.step_owned(self.state, line)
        self._perform(effects)

    # --- a command at the table: its deadlines first, refused with the game's own words ----------
    def _command(self, command):
        """Step the game with a command and record it; returns the :class:`Answer`.  The
        deadlines due by its time fire first (their effects performed, nothing written), as the
        replay of the command's line fires them."""
        if not self.adapter.closed(self.state):  # (a closed match refuses it below, by name)
            self.state, effects = self.adapter.step_owned(self.state,
                                                          self.adapter.tick(command.t))
            self._perform(effects)
        if getattr(command, "by", None) == "guard":
            # The guard's keypad: record the correction under the guard's own name.
            name = self.adapter.correcting_player(self.state)
            if name:
                command = replace(command, by=name)
        try:
            after, effects = self.adapter.step(self.state, command)
        except RulesError as exc:               # a refused choice changes nothing
            self.stats.refused += 1
            error = exc.msg if exc.msg is not None else str(exc)
            return self._refuse_at_table(self.adapter.refused(command.t, error))
        if not self._record(command):           # not kept: as if never given
            return self._refuse_at_table(self.adapter.refused(command.t, FULL_DISK))
        self.state = after
        self._perform(effects)
        return Answer(True)

    def _refuse_at_table(self, refused):
        self._perform([refused])
        return Answer(False, self.adapter.refusal_words(refused))

    def _fire_deadlines(self, until_abs):
        """Fire the game's deadlines due by ``until_abs`` (seconds on the host's clock).  A
        deadline whose tick has a line (Cleptómano's: one that ends a turn, its time limit, a
        displaced rod, a third touch) is written first: a crash right after it cannot make the
        ended turn void."""
        game = self.adapter
        ahead = self._ahead
        if ahead is not None and self.t0 + ahead.deadline <= until_abs:
            self._end_ahead(ahead)
        deadline = game.deadline(self.state)
        while deadline is not None and self.t0 + deadline <= until_abs:
            tick = game.tick(deadline)
            self.state, effects = game.step_owned(self.state, tick)
            if game.line(tick, self.state, effects) is not None:
                self._record(game.tick(self.state.t))
            self._perform(effects)
            deadline = game.deadline(self.state)

    def _end_ahead(self, ahead):
        """The deadline worked out ahead is due and the state is still the one it was worked
        out from: the same as stepping the game now (:meth:`_fire_deadlines`), the line already
        formatted, the effects already made."""
        self.state = ahead.after
        if ahead.line is not None:
            self.session.record_text(ahead.line, ahead.t)
            self._recording_health(ahead.t)
        if ahead.effects is not None:
            self._perform_shared(ahead.effects)

    def _on_time(self, end_abs, now):
        """Woken ``spin_s`` before a worked-out end at ``end_abs``: finish the wait on the clock
        (:meth:`rig.shell.clock.MonotonicClock.spin_until`), until anything arrives or the rig
        stops; returns the clock's reading then.  An edge held back by the edge delay and due
        before the end ends the spin at its own time: it is applied first, in stamp order."""
        until = end_abs
        if self._pending:
            until = min(until, self._pending[0][0] + self.edge_delay_s)
        if not now < until <= now + self._spin_s:
            return now
        inbox, stop = self.inbox, self.stop_event
        return self.clock.spin_until(until, lambda: len(inbox) or stop.is_set())

    def _work_out_ahead(self):
        """Work out the coming turn's end on a copy of the state (:mod:`rig.shell.ahead`).  If
        it cannot be, the game foresees its end as before and the end is stepped when due."""
        state = self.state
        try:
            self._ahead = work_out(self.adapter, state, self.adapter.foresee_at(state))
        except Exception:
            log.exception("the turn's end could not be worked out ahead; it is when due")
            self.adapter.foresee(state)

    def _foresee_at(self):
        """When to work out the turn's end ahead (None: nothing to foresee)."""
        ahead = self.adapter.foresee_at(self.state)
        return None if ahead is None else self.t0 + ahead + self.edge_delay_s - FORESEE_S

    # --- a command at human pace: written whole and synced before it acts ------------------------
    def _apply(self, command, private=False):
        """Step the game; record the accepted command (synced) before acting on it.  Returns
        None, or the reason it was refused.  ``private``: a refusal's reason would tell the
        table what the entry held (a hand, a ballot), so the screen and the calls say only
        whose entry was refused, and the reason goes back to the sender's phone alone."""
        before = self.state
        try:
            after, effects = self.adapter.step(before, command)
        except RulesError as exc:
            reason = exc.msg if exc.msg is not None else str(exc)
            if private:
                self._refuse(command.t, Msg("rig.host.private_entry", player=command.by))
                return reason
            return self._refuse(command.t, reason)
        line = self.adapter.line(command, after, effects)
        if line is not None:
            if not self.session.record_whole(dumps(line), command.t):
                return self._refuse(command.t, FULL_DISK)
            self.session.sync_now()
        self.state = after
        self._perform(effects, command.t)
        return None

    def _refuse(self, t, reason):
        self.stats.refused += 1
        said = Msg("rig.host.refused", reason=reason)
        self._say(t, said)
        self._show_message(said)
        return reason

    # --- the recording at the table: held for a failing disk --------------------------------------
    def _record(self, item):
        """Append one line to the recording; False when it could not even be kept for the
        disk (then the game must not act on it).  A failing disk is a fault, never a stop."""
        kept = self.session.record(item)
        self._recording_health(item.t)
        return kept

    def _recording_health(self, t):
        """Show how the recording stands: the words change as lines wait; the log hears of it
        when it starts failing, fills up, and works again."""
        health, words = self.session.health(t, self._words)
        if health is not Health.OK and self._retry_at is None:
            self._retry_at = self.clock.now() + RETRY_S
        if health is self._recording:
            if words is not None:
                self._faults["recording"] = words
            return
        self._recording = health
        if health is Health.OK:
            self._retry_at = None
            self._fault(self.adapter.table_fault(
                t, "recording", self._words("recording_works"), False))
            if self._unrecorded:
                values, self._unrecorded = self._unrecorded, {}
                self._perform(self._record_inputs(t, values))
        else:
            self._fault(self.adapter.table_fault(t, "recording", words, True))

    def _retry_disk(self, now):
        if self._retry_at is None or now < self._retry_at:
            return
        self._retry_at = now + RETRY_S
        self.session.flush()
        self._recording_health(self._rel(now))

    # --- effects ------------------------------------------------------------------------------
    def _perform(self, effects, t=None):
        """Perform the game's effects: the game turns them into the shared effects
        (:meth:`rig.core.contract.Game.table_effects`; ``t`` the command's time, None: the
        state's own), which the host performs (:meth:`_perform_shared`).  While no turn is
        played (:meth:`~rig.core.contract.Game.playing`) the game is asked even with no
        effects (Cleptómano's ready lamp)."""
        state = self.state
        if effects or self.adapter.playing(state) is None:
            self._perform_shared(self.adapter.table_effects(
                state, state.t if t is None else t, effects))

    def _next_game(self, effect):
        """A ``new_match`` command was accepted (its set-up), or a start press after the match
        ended: the next match opens."""
        if not self.at_table:
            log.warning("%s cannot open a next game yet; %r is ignored", self.WHAT, effect)
        elif effect.setup is not None:
            self._open_set_up_match(effect.setup)
        else:
            self._open_next_match(effect.t)


    # --- the wiring check on the screen (a game that declares one) ---------------------------------
    def _wiring_command(self, action, t_abs):
        """The guard's keys start, skip a step of, or stop the wiring check.  While it runs the
        inputs go to the check, not to the game (a press must not start a turn); when it
        stops, every input that now reads differently is recorded and refereed."""
        check = self._wiring
        game = self.adapter
        if action == game.check_start and check is None:
            thief = game.playing(self.state)
            if thief is not None:
                self._perform([game.refused(self._rel(t_abs),
                                            self._words("wiring_waits", thief=thief))])
                return
            values = dict(game.input_values(self.state))
            values.update(self.pins.values())
            self._wiring = new_check_for(self.config, self.sources, game=game)
            self._wiring_asked = False
            self._say_words(self._rel(t_abs), "wiring_started")
            self._wiring_lines(t_abs, self._wiring.begin(t_abs, values))
        elif check is not None and action == game.check_stop:
            self._wiring = None
            for line in check.summary():
                self._say_words(self._rel(t_abs), "wiring_line", line=line)
            self._perform(self._record_inputs(self._rel(t_abs), check.values))
        elif check is not None:
            self._wiring_lines(t_abs, check.skip(t_abs))
        self._refresh_soon()

    def _wiring_reading(self, reading):
        check = self._wiring
        passed = len(check.passed)
        lines = check.feed(reading.t_abs, reading.name, reading.value)
        if lines:
            # The table hears each verdict: a short buzz for a wire that answers.
            self.buzzer.play(TOUCH if len(check.passed) > passed else REFUSED,
                             self.clock.now())
        self._wiring_lines(reading.t_abs, lines)
        self._refresh_soon()

    def _wiring_lines(self, t_abs, lines):
        """Log the check's verdicts, and the next step whenever it moves on."""
        check = self._wiring
        for line in lines:
            self._say_words(self._rel(t_abs), "wiring_line", line=line)
        if check.expected != self._wiring_asked:
            self._wiring_asked = check.expected
            prompt = check.prompt()
            if prompt is None:
                prompt = self._words("wiring_done",
                                     summary=self.adapter.check_words(check.summary()))
            self._say_words(self._rel(t_abs), "wiring_line", line=prompt)

    # --- the display ----------------------------------------------------------------------------
    def screen(self, now=None):
        """What the display shows now (also what tests and the phones read): the one
        screen-state type, a :class:`~rig.core.gamekit.GameScreen`; a game at the table's
        view is its own snapshot value (Cleptómano's scoreboard, :meth:`scoreboard`)."""
        now = self.clock.now() if now is None else now
        if self.at_table:
            return self._wrapped(self._table_screen(now))
        message = self._message_at(now)
        game = self.adapter
        over = game.over(self.state)
        return GameScreen(
            game=game.name, view=game.view(self.state, round(now - self.t0, 6)),
            board=game.board(self.state), message=message, sounds=tuple(self._sounds),
            players=self.players, choices=game.choices(self.state),
            key_help=self.key_help,
            phones=self.phones.view() if self.phones is not None else None, over=over,
            outcome=game.outcome_words(game.outcome(self.result())) if over else None,
            language=self.language)

    def scoreboard(self, now=None):
        """The view of :meth:`screen`: a game at the table's own snapshot value (Cleptómano's
        ``Scoreboard``, what ``GET /api/state`` answers); another game's whole screen state."""
        now = self.clock.now() if now is None else now
        if self.at_table:
            return self._table_screen(now)
        return self.screen(now)

    def _wrapped(self, board):
        """A game at the table's own snapshot as the one screen-state type: its view, with
        what every face reads of a screen state copied from it."""
        return GameScreen(game=self.adapter.name, view=board, message=board.message,
                          players=board.players, key_help=board.key_help,
                          phones=board.phones, language=board.language)

    def _table_screen(self, now):
        banner = banners.on_screen(self._banners, now - self.t0)
        message = self._message_at(now)
        shown = self._faults.values()
        faults = tuple(shown) + tuple(
            text for text in self.adapter.state_faults(self.state) if text not in shown)
        wiring = self._wiring.view(now) if self._wiring is not None else None
        board = self.adapter.screen_state(self.state, now - self.t0, faults=faults,
                                          banner=banner, message=message,
                                          key_help=self.key_help, roster=self.roster,
                                          wiring=wiring)
        if self.phones is not None:
            board = replace(board, phones=self.phones.view())
        health = self.health.said if self.health is not None else ()
        if health and board.phase == "between":     # the ready page's, never mid-turn
            board = replace(board, health=health)
        sources = self.table_sources() if self.table_sources is not None else {}
        return replace(board, language=self.language, table_choices=tuple(sorted(
            (name, sources[name]) for name in ("language", "players", "level")
            if name in sources)))

    def _frame(self, now):
        """The screen at ``now`` and the seconds until the next look."""
        if not self.at_table:
            return self.screen(now), self.DISPLAY_PERIOD_S
        self._queue(banners.advance(self._banners, now - self.t0))
        board = self._table_screen(now)
        period_s = getattr(self.display, "frame_period_s", None) or self.DISPLAY_PERIOD_S
        if board.phase == "turn" or board.banner or board.message:
            return self._wrapped(board), period_s
        return self._wrapped(board), max(period_s, IDLE_DISPLAY_PERIOD_S)

    # --- a game at human pace: begun, or taken up ---------------------------------------------
    def _begin(self):
        if self.seed is None:       # the operating system's randomness, kept in the header
            self.seed = secrets.randbelow(self.adapter.seed_bound)
        self.state = self.adapter.new_game(self.players, self.seed, self.settings)
        self.t0 = self.clock.now()
        header = dumps(self.adapter.header(self.state))
        path = self.session.open_text(header, prefix=self.adapter.prefix,
                                      marked=marks_open(self.adapter))
        self.session.sync_now()
        self._say(0.0, "New game of %s: %s. Recording to %s"
                  % (self.adapter.title, ", ".join(self.players), path))

    def _resume_game(self, found):
        """Go on with the game ``found`` (a :class:`~rig.shell.session.Unfinished`): its
        state, its players, its seed; the clock goes on from its last line's ``t``."""
        self.resumed = found
        self.state = found.state
        players = tuple(self.adapter.players_in(self.adapter.result(found.state)))
        if players != self.players:
            log.info("The recording's players play on (%s), not those given (%s).",
                     ", ".join(players), ", ".join(self.players))
        self.players = players
        self.seed = found.header.get("seed", self.seed)
        self.t0 = self.clock.now() - found.last_t
        words = "Game resumed from %s." % found.path.name
        self._say(found.last_t, "Game resumed from %s." % found.path)
        self._show_message(words)

    # --- the matches at the table and their recordings -----------------------------------------
    def _new_match(self, t_abs):
        if self.session.writer is not None:
            self._close_recording()
        if self.t0 is not None:     # the last match's banners give way to the new match
            self._queue(banners.cut(self._banners, t_abs - self.t0))
        self._banners = banners.EMPTY
        self.state = self.adapter.new_match(self.players, self.level, self.first_thief,
                                            self.settings)
        self.t0 = t_abs
        if self.health is not None:     # between matches: the recordings judged again
            self.health.check()
        if self.phones is not None:
            self.phones.new_match()     # a code seen during the last match pairs no more
        tournament = self.config.tournament
        rig_id = tournament.rig_id if tournament else None
        header = self.adapter.match_header(self.set_up, self.players, self.level,
                                           self.first_thief, self.settings, rig=rig_id)
        path = self.session.open(header)
        self._read_roster()
        self._say(0.0, self.adapter.opened_words(self.players, self.level, path))

    def _read_roster(self):
        """The names the set-up screen offers: this match's players, then the other players
        of the recent recordings, newest first."""
        self.roster = self.players + tuple(
            name for name in storage.recent_players(self.session.directory)
            if not any(same_name(name, p) for p in self.players))

    @property
    def match_over(self):
        return self.adapter.match_decided(self.state)

    def _open_next_match(self, press_t):
        """A start press after the match ended opens the next match, which starts at that
        press's first edge: the museum's state now (pins, hand sensor, relics) is its first
        lines, the button released: the press opens the match and no more, and its first turn
        waits for a deliberate press (issue 30: one press after the results started the next
        match's first turn at once, its thief's time running)."""
        self._open_match_at(press_t, {Kind.BUTTON.value: 0})

    def _open_set_up_match(self, effect):
        """A ``new_match`` command was accepted (and recorded as the last line of this match):
        the next match opens at once with its settings, which stay for the matches after it
        until the next set-up."""
        self.players, self.level, self.first_thief = (effect.players, effect.level,
                                                      effect.first_thief)
        self.set_up = effect.command
        self._remember_match()
        self._open_match_at(effect.t)

    def _remember_match(self):
        """The set-up's players, level and layout kept for the evening (issue 30)."""
        from ..core.table_state import Layout, Level
        level = self.level
        self._remember(players=self.players,
                       level=Level(level.name, level.timer_s),
                       layout=Layout(level.lasers, level.corridor))

    def _open_match_at(self, t_rel, pressed=None):
        """Close this match and open the next at ``t_rel``: its first lines are the museum's
        state now (pins, hand sensor, relics), then ``pressed`` (the press that opened it)."""
        carried = self.adapter.carried_inputs(self.state)
        self._new_match(self.t0 + t_rel)
        values = dict(self.pins.values()) if self.pins is not None else {}
        values.update(carried)
        values.update(pressed or {})
        self._perform(self._record_inputs(0.0, values))

    def _record_inputs(self, t_rel, values):
        """Record and feed every value that differs from what the game believes."""
        effects = []
        known = self.adapter.input_values(self.state)
        for name, value in sorted(values.items(), key=lambda kv: kv[0] == Kind.BUTTON):
            if known.get(name) != value:
                change = self.adapter.reading(t_rel, name, value)
                if self._record(change):
                    self.state, fed = self.adapter.step_owned(self.state, change)
                    effects.extend(fed)
                else:
                    self._unrecorded[name] = value
        return effects

    def _seed_inputs(self):
        """Have the loop record the pins that differ from what the game believes (the
        recording's initial state, or the state a resumed recording left)."""
        self.inbox.put(Seed(self.clock.now(), self.pins.values()))

    def _resume_match(self, now):
        """Take up the recording the game picks (:meth:`~rig.core.contract.Game.pick_resume`),
        rebuilt by replaying it, and go on from its restart line."""
        resumed = self.session.resume(self.players, self.level, self.adapter)
        if resumed is None:
            return False
        self.state = resumed.referee
        # A match set up on the screen is resumed with its own players, not the config's.
        self.players, self.level, self.first_thief = self.adapter.set_up_of(resumed.referee)
        self.t0 = now - resumed.referee.t
        self._read_roster()
        self._say_words(resumed.referee.t, "resumed_from", path=str(resumed.path))
        self.state, effects = self.adapter.step_owned(self.state, resumed.restart)
        self._perform(effects)
        return True
