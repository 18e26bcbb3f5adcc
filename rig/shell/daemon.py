"""The rig's daemon: the referee loop, wired to its sources, its recording and its outputs.

Threads the rig owns, each with the shared stop event and a bounded join:

* the **referee** thread (:class:`Rig`): takes timestamped items off the inbox, records each one
  (flushed) before acting on it, steps the game with it (``GAME.step``; Cleptómano's state
  is the referee, match and detector), fires deadlines on time as the game's ticks, and performs
  the shared effects the game turns its effects into (:mod:`rig.core.effects`: buzzer, lamps,
  banners, log...), arming the table's reflex after each step;
* the **sync** thread (:class:`~rig.shell.session.RecordingSession`): fsyncs the recording
  whenever the referee marks a moment durable (a turn boundary, a penalty);
* the sources (:mod:`rig.table.sources`): the pins' callbacks (gpiozero's threads), the
  hand-sensor poller and the relic-hub reader, which only stamp and put items on the inbox.

A :class:`Rig` is built by :func:`rig.shell.build.build_rig` from the config and a backend
(the real pins and devices, or the simulator's): one wiring for both.
"""

import heapq
import logging
import time
from dataclasses import dataclass, replace

from ..core import banner_queue as banners
from ..core.errors import RulesError
from ..core.gamekit import SetLanguage
from ..core.msg import Msg
from ..core.names import same_name
from ..table.names import Kind
from ..core.phones import RevokePhones
from ..games import games
from ..words import check_language
from . import storage
from .ahead import work_out
from .host import FULL_DISK, Host
from .inbox import Answer, DeviceNote, FaultReport, Order, Reading, Seed, Stage
from ..table.outputs import REFUSED, TOUCH, Buzzer, Lamps
from .session import RETRY_S, Health
from .intake import Intake
from .wiring import new_check_for

log = logging.getLogger("cleptomano")

MESSAGE_S = 5.0
#: How long before a turn's time limit the rig works out its end (rig.shell.ahead).
FORESEE_S = 0.05
DISPLAY_PERIOD_S = 1.0 / 30       # during a turn: the countdown moves
IDLE_DISPLAY_PERIOD_S = 0.1       # between turns: the guard's keys are read this often
#: The fault sources whose loss and return the recording keeps as device lines (the relic hub,
#: the hand sensor: rig.table.sources; docs/audits31.md).
DEVICES = ("hub", "tof")


@dataclass
class Stats:
    refused: int = 0       # guard's choices the rules refused


class Rig(Host):
    """The referee loop and everything it drives: the one host loop
    (:class:`rig.shell.host.Host`) with Cleptómano's hardware part plugged in (the pins and
    their edge-delay hold, the hand sensor and relic hub, resume, the wiring check, the
    tournament links, faults).  Build it with
    :func:`rig.shell.build.build_rig`; every part is injected:

    ``pins`` a :class:`~rig.table.sources.PinSource`; ``outputs`` the buzzer and lamps on pins
    (:class:`rig.table.pins.Outputs`); ``sources`` the other sources (hand sensor, relic hub);
    ``clock`` the rig's clock (real or virtual); ``session`` the recording session; ``display``
    a face (:mod:`rig.shell.faces`); ``phones`` the phones' pairing (:mod:`rig.web.pairing`;
    None: no phones), shown on the screen, renewed with every match and revoked from the keys;
    ``links`` the links to the world beyond the table (the tournament's,
    :mod:`rig.links.publisher`), started once the match's recording is open and stopped after
    it is closed; ``patterns`` the buzzer's; ``trace(stage, item)`` an optional observer of
    each item's way through the loop (the benchmark's profile).
    """

    MESSAGE_S = MESSAGE_S
    DISPLAY_PERIOD_S = DISPLAY_PERIOD_S
    THREAD = "cleptomano-referee"
    WHAT = "the referee thread"
    PROMPT_FRAMES = False     # the frame rate shows a change (a touch is not held for a frame)
    REPEAT_FRAMES = True      # every frame is shown (the countdown and the banners move)
    health = None             # the sensor health: rig.shell.audits.HealthWatch (issue 31)

    def __init__(self, config, *, pins, outputs, clock, session, sources=(), display=None,
                 players=None, level=None, first_thief=None, key_help=(), resume=True,
                 patterns=None, trace=None, edge_delay_s=0.0, sync_hook=None, phones=None,
                 links=(), game=None):
        super().__init__(clock=clock, session=session, display=display, phones=phones,
                         key_help=key_help, trace=trace, debounce=False,
                         language=config.table.language)
        self.config = config
        self.pins = pins
        self.outputs = outputs
        self.sources = tuple(sources)
        self.links = tuple(links)
        self.resume = resume
        self.settings = config.detect
        self.players = tuple(players or config.match.players)
        self.level = level or config.match.level
        self.first_thief = first_thief or (config.match.first_thief
                                           if config.match.first_thief in self.players else None)
        self.set_up = None           # the NewMatch the current settings come from, if any
        self.roster = ()             # names the set-up screen offers
        self._wiring = None          # the wiring check running on the screen
        self._wiring_asked = False   # the step last announced in the log
        self.patterns = patterns
        self.edge_delay_s = float(edge_delay_s)
        if self.edge_delay_s > 0:
            self._arrive = self._hold    # every item waits edge_delay_s (a touch sounds at once)
        self.sync_hook = sync_hook
        self._pending = []           # (t_abs, seq, item): waiting edge_delay_s, in stamp order
        self._seq = 0
        self._recording = Health.OK  # how the recording stands (lines kept for the disk...)
        self._retry_at = None        # when to try the disk again
        self._unrecorded = {}        # input -> its newest value the recording could not keep
        self.stats = Stats()
        self.intake = Intake(self.inbox, clock)
        #: The game played (the registry's first, Cleptómano, unless given): everything the
        #: host asks of it goes through its contract (rig.core.contract.Game).
        self.adapter = game if game is not None else games()[0]
        session.game = self.adapter  # whose lines it writes (RecordingSession.record)
        self.referee = None          # the game's state (the referee: match and detector)
        self._spin_s = getattr(clock, "spin_s", 0.0)   # a turn's end: the wait finished so

    @property
    def referee(self):
        """The game's state (Cleptómano's: the referee, match and detector)."""
        return self._referee

    @referee.setter
    def referee(self, state):
        # Every step of the game sets it: a turn's end worked out from the state before
        # (rig.shell.ahead) is dropped, and worked out again from this one if there is time.
        self._referee = state
        self._ahead = None

    # --- life cycle -----------------------------------------------------------------------------
    def start(self, timeout_s=5.0):
        """Open the pins and sensors, resume or begin a match, start the threads.  If any of it
        fails, whatever was started is stopped again before the error goes up."""
        try:
            return self._start(timeout_s)
        except BaseException:
            self.stop(timeout_s, clean=self.session.writer is not None)
            raise

    def _start(self, timeout_s):
        self.session.prepare()
        self.outputs.open()
        self.buzzer = Buzzer(self.outputs.buzzer, self.patterns,
                             reflex=getattr(self.outputs, "reflex", None))
        self.lamps = Lamps(self.outputs)
        self.pins.start(self.intake)
        now = self.clock.now()
        if not (self.resume and self._resume(now)):
            self._new_match(now)
        for link in self.links:
            link.start()
        self._start_loop()
        self._threads.append(self.session.start_sync(self.sync_hook))
        for source in self.sources:
            source.start(self.intake)
        self._await_loop(timeout_s)
        self._begin_frames()
        self._seed_inputs()
        return self

    def stop(self, timeout_s=3.0, clean=True):
        """Stop every thread (bounded), write the end of the recording and release the pins.
        ``clean`` False leaves the recording as a crash would (no end line): the next start
        resumes it."""
        for source in self.sources:
            try:
                source.stop(timeout_s=timeout_s)
            except Exception:
                log.exception("stopping %r failed", source)
        deadline = time.monotonic() + timeout_s
        self._stop_loop(deadline)
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
        self.pins.stop()
        self.outputs.close()
        if alive:
            log.warning("threads still running after %g s: %s", timeout_s, ", ".join(alive))
        return not alive

    def alive(self):
        """For the watchdog: the referee loop turned recently and every thread runs."""
        if self._alive_at is None or any(not t.is_alive() for t in self._threads):
            return False
        return all(s.running for s in self.sources + self.links)

    @property
    def threads(self):
        """The threads the rig started (the referee loop, the recording's sync)."""
        return tuple(self._threads)

    # --- the referee thread ----------------------------------------------------------------------------
    def _deadlines(self):
        deadline = self.adapter.deadline(self.referee) if self.referee else None
        if deadline is not None:
            if self._ahead is not None:  # worked out: wake early, finish the wait on the clock
                yield self.t0 + self._ahead.deadline + self.edge_delay_s - self._spin_s
            else:
                yield self.t0 + deadline + self.edge_delay_s
                yield self._foresee_at()     # a turn's end: worked out FORESEE_S before it
        if self._pending:
            yield self._pending[0][0] + self.edge_delay_s
        yield self._retry_at
        yield self.buzzer.next_due()
        yield from super()._deadlines()
        if self._wiring is not None:
            yield self._wiring.deadline

    def _turned(self):
        if self.edge_delay_s > 0:
            self._apply_pending(self.clock.now() - self.edge_delay_s)
        self.buzzer.settle(self._taken_t)   # a reflex buzz the rules did not keep ends here

    def _stopping(self):
        self._apply_pending(None)
        self._guarded_fire_due()

    def _hold(self, item):
        """Keep ``item`` until its stamp is ``edge_delay_s`` old; a laser's first edge sounds
        the buzzer now all the same."""
        if type(item) is Reading and item.name not in self._sounded:
            try:
                change = self.adapter.reading(self._rel(item.t_abs), item.name, item.value)
                if self.adapter.sounds_at_once(self.referee, change):
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
        rel = round(t_abs - self.t0, 6)
        return rel if rel > self.referee.t else self.referee.t

    def _handle(self, item):
        kind = type(item)
        if kind is Reading and self._wiring is not None:
            self._wiring_reading(item)
        elif kind is Reading:
            change = self.adapter.reading(self._rel(item.t_abs), item.name, item.value)
            if not self._record(change):
                self._unrecorded[item.name] = item.value    # never act on what is not kept
                return
            if self._trace is not None:
                self._trace(Stage.RECORDED, item)
            self.referee, effects = self.adapter.step_owned(self.referee, change)
            if self._trace is not None:
                self._trace(Stage.FED, item)
            self._perform(effects)
            self._sounded.discard(item.name)
        elif kind is Order and type(item.command) is RevokePhones:
            if self.phones is not None and item.command.name is not None:
                if self.phones.unpair_named(item.command.name):     # one seat (issue 30)
                    self._say(self._rel(item.t_abs), Msg("rig.phones.one_unpaired",
                                                         name=item.command.name))
            elif self.phones is not None:
                self.phones.revoke()
                self._say(self._rel(item.t_abs), Msg("cleptomano.call.phones_unpaired"))
        elif kind is Order and type(item.command) is self.adapter.check_command:
            self._wiring_command(item.command.action, item.t_abs)
        elif kind is Order and type(item.command) is SetLanguage:
            # The set-up screen's language choice: the screen speaks it from the next frame
            # (the snapshot carries it); nothing is recorded, the log stays English.
            self.language = check_language(item.command.lang)
            self._remember(language=self.language)
            self._refresh_soon()
            if item.reply is not None:
                item.reply(Answer(True, board=self.scoreboard()))
        elif kind is Order:
            answer = self._command(replace(item.command, t=self._rel(item.t_abs)))
            if item.reply is not None:
                item.reply(replace(answer, board=self.scoreboard()))
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

    def service_values(self):
        """The museum's inputs as the referee and the pins read them now (the switch test)."""
        values = dict(self.adapter.input_values(self.referee)) if self.referee else {}
        values.update(self.pins.values())
        return values

    def service_closed(self, values):
        """The service mode closed: every input that now reads differently from what the
        referee believes is recorded and refereed (as after the wiring check)."""
        values = dict(values)
        values.update(self.pins.values())
        self.inbox.put(Seed(self.clock.now(), values))

    def apply_tuning(self, tuning):
        """The service mode's settings (issue 31): each rod's merge window and relic's tilt
        threshold hold from the next match (a match keeps the settings its header names)."""
        from .table_state import tuned_config
        self.settings = tuned_config(self.config, tuning).detect

    def _device_line(self, t, device, state):
        """Record a device's loss, return or re-initialisation (the game's device line, for the
        audits: docs/audits31.md) before anything acts on it, then step the game with it."""
        line = self.adapter.device_change(t, device, state)
        if line is None or not self._record(line):
            return
        self.referee, effects = self.adapter.step_owned(self.referee, line)
        self._perform(effects)

    def _command(self, command):
        """Step the game with a command and record it; returns the :class:`Answer`.  The
        deadlines due by its time fire first (their effects performed, nothing written), as the
        replay of the command's line fires them."""
        if not self.adapter.closed(self.referee):  # (a closed match refuses it below, by name)
            self.referee, effects = self.adapter.step_owned(self.referee,
                                                            self.adapter.tick(command.t))
            self._perform(effects)
        if getattr(command, "by", None) == "guard":
            # The guard's keypad: record the correction under the guard's own name.
            name = self.adapter.correcting_player(self.referee)
            if name:
                command = replace(command, by=name)
        try:
            after, effects = self.adapter.step(self.referee, command)
        except RulesError as exc:               # a refused choice changes nothing
            self.stats.refused += 1
            error = exc.msg if exc.msg is not None else str(exc)
            return self._refuse(self.adapter.refused(command.t, error))
        if not self._record(command):           # not kept: as if never given
            return self._refuse(self.adapter.refused(command.t, FULL_DISK))
        self.referee = after
        self._perform(effects)
        return Answer(True)

    def _refuse(self, refused):
        self._perform([refused])
        return Answer(False, self.adapter.refusal_words(refused))

    def _fire_deadlines(self, until_abs):
        """Fire the referee's deadlines due by ``until_abs`` (seconds on the rig's clock).  A
        deadline that ends a turn (its time limit, a displaced rod, a third touch) is written
        as a ``tick`` line first: a crash right after it cannot make the ended turn void."""
        game = self.adapter
        ahead = self._ahead
        if ahead is not None and self.t0 + ahead.deadline <= until_abs:
            self._end_ahead(ahead)
        deadline = game.deadline(self.referee)
        while deadline is not None and self.t0 + deadline <= until_abs:
            tick = game.tick(deadline)
            self.referee, effects = game.step_owned(self.referee, tick)
            if game.line(tick, self.referee, effects) is not None:
                self._record(game.tick(self.referee.t))
            self._perform(effects)
            deadline = game.deadline(self.referee)

    def _end_ahead(self, ahead):
        """The deadline worked out ahead is due and the state is still the one it was worked
        out from: the same as stepping the game now (:meth:`_fire_deadlines`), the line already
        formatted, the effects already made."""
        self.referee = ahead.after
        if ahead.line is not None:
            self.session.record_text(ahead.line, ahead.t)
            self._recording_health(ahead.t)
        if ahead.effects is not None:
            self._perform_shared(ahead.effects)

    def _record(self, item):
        """Append one line to the recording; False when it could not even be kept for the
        disk (then the referee must not act on it).  A failing disk is a fault, never a stop."""
        kept = self.session.record(item)
        self._recording_health(item.t)
        return kept

    def _recording_health(self, t):
        """Show how the recording stands: the words change as lines wait; the log hears of it
        when it starts failing, fills up, and works again."""
        health, words = self.session.health(t)
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
                t, "recording", Msg("cleptomano.fault.recording_works"), False))
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

    def _fire_parts(self, now):
        if self._ahead is not None:
            now = self._on_time(self.t0 + self._ahead.deadline + self.edge_delay_s, now)
        self._fire_deadlines(now - self.edge_delay_s)
        at = self._foresee_at()
        if at is not None and now >= at and self._ahead is None:
            self._work_out_ahead()  # so the end buzz waits only for the tick line's write
        if self._wiring is not None:
            self._wiring_lines(now, self._wiring.expire(now))
        self.buzzer.fire(now)
        self._retry_disk(now)

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
        referee = self.referee
        try:
            self._ahead = work_out(self.adapter, referee,
                                   self.adapter.foresee_at(referee))
        except Exception:
            log.exception("the turn's end could not be worked out ahead; it is when due")
            self.adapter.foresee(referee)

    def _foresee_at(self):
        """When to work out the turn's end ahead (None: nothing to foresee)."""
        ahead = self.adapter.foresee_at(self.referee)
        return None if ahead is None else self.t0 + ahead + self.edge_delay_s - FORESEE_S

    # --- effects ------------------------------------------------------------------------------------
    def _perform(self, effects):
        """Perform the game's effects: the game turns them into the shared effects
        (:meth:`rig.core.contract.Game.table_effects`; Cleptómano's: first what the table
        feels, the buzzer and the lamps, then what the screen keeps, then the words), which the
        host performs (:meth:`rig.shell.host.Host._perform_shared`); a next match opens after
        that.  Between turns the game is asked even with no effects (its ready lamp)."""
        referee = self.referee
        if effects or self.adapter.playing(referee) is None:
            self._perform_shared(self.adapter.table_effects(referee, referee.t, effects))

    def _state(self):
        return self.referee

    def _next_game(self, effect):
        """A ``new_match`` command was accepted (its set-up), or a start press after the match
        ended: the next match opens."""
        if effect.setup is not None:
            self._open_set_up_match(effect.setup)
        else:
            self._open_next_match(effect.t)

    # --- the wiring check on the screen ------------------------------------------------------------
    def _wiring_command(self, action, t_abs):
        """The guard's keys start, skip a step of, or stop the wiring check.  While it runs the
        inputs go to the check, not to the referee (a press must not start a turn); when it
        stops, every input that now reads differently is recorded and refereed."""
        check = self._wiring
        game = self.adapter
        if action == game.check_start and check is None:
            thief = game.playing(self.referee)
            if thief is not None:
                self._perform([game.refused(self._rel(t_abs), Msg(
                    "cleptomano.refuse.wiring_waits", thief=thief))])
                return
            values = dict(game.input_values(self.referee))
            values.update(self.pins.values())
            self._wiring = new_check_for(self.config, self.sources, game=game)
            self._wiring_asked = False
            self._say(self._rel(t_abs), Msg("cleptomano.wiring.started"))
            self._wiring_lines(t_abs, self._wiring.begin(t_abs, values))
        elif check is not None and action == game.check_stop:
            self._wiring = None
            for line in check.summary():
                self._say(self._rel(t_abs), Msg("cleptomano.wiring.log", line=line))
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
            self._say(self._rel(t_abs), Msg("cleptomano.wiring.log", line=line))
        if check.expected != self._wiring_asked:
            self._wiring_asked = check.expected
            prompt = check.prompt()
            if prompt is None:
                prompt = Msg("cleptomano.wiring.all_done",
                             summary=self.adapter.check_words(check.summary()))
            self._say(self._rel(t_abs), Msg("cleptomano.wiring.log", line=prompt))

    # --- the display ----------------------------------------------------------------------------
    def scoreboard(self, now=None):
        now = self.clock.now() if now is None else now
        banner = banners.on_screen(self._banners, now - self.t0)
        message = self._message_at(now)
        shown = self._faults.values()
        faults = tuple(shown) + tuple(
            text for text in self.adapter.state_faults(self.referee) if text not in shown)
        wiring = self._wiring.view(now) if self._wiring is not None else None
        board = self.adapter.screen_state(self.referee, now - self.t0, faults=faults,
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
        self._queue(banners.advance(self._banners, now - self.t0))
        board = self.scoreboard(now)
        period_s = getattr(self.display, "frame_period_s", None) or self.DISPLAY_PERIOD_S
        if board.phase == "turn" or board.banner or board.message:
            return board, period_s
        return board, max(period_s, IDLE_DISPLAY_PERIOD_S)

    # --- the match and its recording ------------------------------------------------------------------
    def _new_match(self, t_abs):
        if self.session.writer is not None:
            self._close_recording()
        if self.t0 is not None:     # the last match's banners give way to the new match
            self._queue(banners.cut(self._banners, t_abs - self.t0))
        self._banners = banners.EMPTY
        self.referee = self.adapter.new_match(self.players, self.level, self.first_thief,
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
        return self.adapter.match_decided(self.referee)

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
        carried = self.adapter.carried_inputs(self.referee)
        self._new_match(self.t0 + t_rel)
        values = dict(self.pins.values())
        values.update(carried)
        values.update(pressed or {})
        self._perform(self._record_inputs(0.0, values))

    def _record_inputs(self, t_rel, values):
        """Record and feed every value that differs from what the referee believes."""
        effects = []
        known = self.adapter.input_values(self.referee)
        for name, value in sorted(values.items(), key=lambda kv: kv[0] == Kind.BUTTON):
            if known.get(name) != value:
                change = self.adapter.reading(t_rel, name, value)
                if self._record(change):
                    self.referee, fed = self.adapter.step_owned(self.referee, change)
                    effects.extend(fed)
                else:
                    self._unrecorded[name] = value
        return effects

    def _seed_inputs(self):
        """Have the referee thread record the pins that differ from what the referee believes
        (the recording's initial state, or the state a resumed recording left)."""
        self.inbox.put(Seed(self.clock.now(), self.pins.values()))

    def _resume(self, now):
        resumed = self.session.resume(self.players, self.level, self.adapter)
        if resumed is None:
            return False
        self.referee = resumed.referee
        # A match set up on the screen is resumed with its own players, not the config's.
        self.players, self.level, self.first_thief = self.adapter.set_up_of(resumed.referee)
        self.t0 = now - resumed.referee.t
        self._read_roster()
        self._say(resumed.referee.t, Msg("cleptomano.call.resumed_from", path=str(resumed.path)))
        self.referee, effects = self.adapter.step_owned(self.referee, resumed.restart)
        self._perform(effects)
        return True

    def _close_recording(self):
        if self.session.writer is None:
            return
        t = self.referee.t
        if self.t0 is not None:
            t = max(t, round(self.clock.now() - self.t0, 6))
        self.session.close(t)

    def result(self):
        """The live match's result, in the replay output's shape."""
        t = max(self.referee.t, round(self.clock.now() - self.t0, 6))
        return self.adapter.live_result(self.referee, t)

