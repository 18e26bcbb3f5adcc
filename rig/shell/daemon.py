"""The rig's daemon: pins, sensors and controls in; buzzer, LEDs, display, log and recording out.

Threads the rig owns, each with the shared stop event and a bounded join:

* the **referee** thread: takes timestamped items off the inbox, records each one (flushed)
  before acting on it, feeds the :class:`~rig.core.referee.Referee`, fires deadlines on time and
  performs the effects (buzzer, LEDs, log, display snapshot);
* the **sync** thread: fsyncs the recording whenever the referee marks a moment durable (a turn
  boundary, a penalty), so the disk write never delays the buzzer;
* the hand-sensor poller and the relic-hub reader, which only put values on the inbox.

gpiozero's pin callbacks run on gpiozero's threads and only stamp and enqueue.
"""

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from pathlib import Path

from ..core import events as ev
from ..core import recording, rules
from . import storage
from ..core.board import build as build_board
from ..core.detect import NOTHING_IN_RANGE_MM
from ..core.errors import RigError, RulesError
from ..core.referee import Referee

log = logging.getLogger("cleptomano")

# Buzzer patterns: (on_s, off_s) pairs.
PATTERNS = {
    "touch": ((0.12, 0.0),),
    "caught": ((0.5, 0.15), (0.5, 0.15), (0.9, 0.0)),
    "escaped": ((0.08, 0.08), (0.08, 0.0)),
    "refused": ((0.35, 0.0),),
}
BANNER_S = 6.0
MESSAGE_S = 5.0
DISPLAY_PERIOD_S = 1.0 / 30       # during a turn: the countdown moves
IDLE_DISPLAY_PERIOD_S = 0.1       # between turns: the guard's keys are read this often


@dataclass
class Stats:
    refused: int = 0       # guard's choices the rules refused
    record_errors: int = 0  # recording lines that could not be written


class Rig:
    """The whole rig, built from a :class:`~rig.shell.config.Config` with every backend injected.

    ``pin_factory``: a gpiozero pin factory (lgpio on a Pi, the simulator's mock elsewhere);
    ``clock``: :class:`rig.shell.clock.MonotonicClock` or a virtual clock; ``tof_factory``: makes the
    hand sensor (None: no hand sensor, the exit button alone); ``hub_url``: the relic hub's
    serial URL or path (None or "": no relic sensing); ``display``: an object with
    ``show(board)`` and ``poll_commands()`` (None: headless).
    """

    def __init__(self, config, *, pin_factory, clock, tof_factory=None, hub_url=None,
                 serial_for_url=None, display=None, recordings_dir=None, wall_clock=time.time,
                 players=None, level=None, first_thief=None, key_help=(), resume=True):
        self.config = config
        self.clock = clock
        self.pin_factory = pin_factory
        self.tof_factory = tof_factory
        self.hub_url = hub_url
        self.serial_for_url = serial_for_url
        self.display = display
        self.wall_clock = wall_clock
        self.key_help = tuple(key_help)
        self.resume = resume
        self.settings = config.detect
        self.players = tuple(players or config.match.players)
        self.level = level or config.match.level
        self.first_thief = first_thief or (config.match.first_thief
                                           if config.match.first_thief in self.players else None)
        self.recordings_dir = Path(recordings_dir or config.storage.recordings_dir)
        self.stats = Stats()
        self.stop_event = threading.Event()
        self._cond = clock.condition()
        self._items = deque()
        self._timers = []            # (due_abs, action) for the buzzer and LEDs
        self._buzz_token = 0
        self._faults = {}
        self._banner = None          # (until_abs, Banner)
        self._message = None         # (until_abs, text)
        self._display_due = None
        self._threads = []
        self._sources = []
        self._alive_at = None
        self._ready = threading.Event()
        self._sync_request = threading.Event()
        self.inputs = self.outputs = None
        self.writer = None
        self.referee = None
        self.t0 = None
        self._next_match_at = None
        self._ready_lamp = None
        self.recording_path = None
        self.log_lines = deque(maxlen=500)

    # --- life cycle -----------------------------------------------------------------------------
    def start(self, timeout_s=5.0):
        """Open the pins and sensors, resume or begin a match, start the threads.  If any of it
        fails, whatever was started is stopped again before the error goes up."""
        try:
            return self._start(timeout_s)
        except BaseException:
            self.stop(timeout_s, clean=self.writer is not None)
            raise

    def _start(self, timeout_s):
        from .pins import Inputs, Outputs
        self.recordings_dir.mkdir(parents=True, exist_ok=True)
        pinmap = self.config.pinmap
        self.outputs = Outputs(pinmap, self.pin_factory)
        self.inputs = Inputs(pinmap, self.pin_factory, self.clock, self._on_pin)
        now = self.clock.now()
        if not (self.resume and self._resume(now)):
            self._new_match(now)
        self._start_thread(self._referee_loop, "referee")
        self._start_thread(self._sync_loop, "recording-sync", registered=False)
        if self.tof_factory is not None:
            self._start_tof()
        if self.hub_url:
            self._start_hub()
        if not self._ready.wait(timeout_s):
            raise RigError("the referee thread did not start within %g s" % timeout_s)
        if self.display is not None:
            with self._cond:
                self._display_due = self.clock.now()
                self._cond.notify_all()
        self._seed_inputs()
        return self

    def _start_thread(self, target, name, registered=True):
        started = threading.Event()

        def run():
            if registered:
                self.clock.register()
            started.set()
            try:
                target()
            except Exception:
                log.exception("the %s thread failed", name)
            finally:
                if registered:
                    self.clock.unregister()

        thread = threading.Thread(target=run, name="cleptomano-" + name, daemon=True)
        thread.start()
        started.wait(5.0)
        self._threads.append(thread)
        return thread

    def _start_tof(self):
        from .tof import HandPoller
        registered = threading.Event()

        def wait(stop_event, timeout_s):
            if not registered.is_set():
                self.clock.register()
                registered.set()
            return self.clock.sleep(timeout_s, stop_event)

        cfg = self.config.tof
        poller = HandPoller(self.tof_factory, self._on_tof, self._on_tof_status,
                            poll_interval_s=cfg.poll_interval_s, backoff_s=cfg.retry_backoff_s,
                            lost_after=cfg.lost_after,
                            threshold_mm=self.settings.hand_threshold_mm, wait=wait)
        poller.start()
        registered.wait(5.0)
        self._sources.append(poller)

    def _start_hub(self):
        from .hub import HubLink
        kwargs = {}
        if self.serial_for_url is not None:
            kwargs["serial_for_url"] = self.serial_for_url
        link = HubLink(self.hub_url, self._on_hub_input, self._on_hub_status,
                       heartbeat_timeout_s=self.config.hub.heartbeat_timeout_s,
                       baudrate=self.config.hub.baudrate, **kwargs)
        link.start()
        self._sources.append(link)

    def stop(self, timeout_s=3.0, clean=True):
        """Stop every thread (bounded), write the end of the recording and release the pins.
        ``clean`` False leaves the recording as a crash would (no end line): the next start
        resumes it."""
        for source in self._sources:
            try:
                source.stop(timeout_s=timeout_s)
            except Exception:
                log.exception("stopping %r failed", source)
        with self._cond:
            self._items.append(("stop",))
            self._cond.notify_all()
        deadline = time.monotonic() + timeout_s
        for thread in self._threads:
            if thread.name.endswith("referee"):
                thread.join(max(0.0, deadline - time.monotonic()))
        self.stop_event.set()
        self._sync_request.set()
        with self._cond:
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        alive = [t.name for t in self._threads if t.is_alive()]
        if clean:
            self._close_recording()
        elif self.writer is not None:
            self.writer.close()
            self.writer = None
        for part in (self.inputs, self.outputs):
            if part is not None:
                part.close()
        if alive:
            log.warning("threads still running after %g s: %s", timeout_s, ", ".join(alive))
        return not alive

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def alive(self):
        """For the watchdog: the referee loop turned recently and every thread runs."""
        if self._alive_at is None or any(not t.is_alive() for t in self._threads):
            return False
        return all(getattr(s, "running", True) for s in self._sources)

    def loop_turned_within(self, seconds):
        return self._alive_at is not None and time.monotonic() - self._alive_at < seconds

    # --- producers (any thread): stamp and enqueue ---------------------------------------------------
    def _put(self, item):
        with self._cond:
            self._items.append(item)
            self._cond.notify_all()

    def _on_pin(self, t, name, value):
        self._put(("input", t, name, value))

    def _on_tof(self, distance_mm):
        self._put(("input", self.clock.now(), "tof", distance_mm))

    def _on_tof_status(self, lost, reason):
        now = self.clock.now()
        if lost:
            # Without a hand sensor the exit button alone ends a turn: the hand reads "outside".
            self._put(("input", now, "tof", NOTHING_IN_RANGE_MM))
        self._put(("fault", now, "tof", ("Hand sensor lost: exit button only. " + reason)
                   if lost else reason, lost))

    def _on_hub_input(self, name, value):
        self._put(("input", self.clock.now(), name, value))

    def _on_hub_status(self, lost, reason):
        now = self.clock.now()
        if lost:
            # Relic sensing is off: the relics read upright and still, so a turn can start.
            for n in (1, 2, 3):
                self._put(("input", now, "relic.%d.motion" % n, 0))
                self._put(("input", now, "relic.%d.tilt" % n, 0.0))
        self._put(("fault", now, "hub", ("Relic hub lost: relics not sensed. " + reason)
                   if lost else "Relic hub back: " + reason, lost))

    def submit(self, command):
        """A command from the guard's controls (any thread); stamped now."""
        self._put(("command", self.clock.now(), command))

    # --- the referee thread ----------------------------------------------------------------------------
    def _wake_at(self):
        candidates = []
        deadline = self.referee.next_deadline() if self.referee else None
        if deadline is not None:
            candidates.append(self.t0 + deadline)
        if self._timers:
            candidates.append(min(d for d, _ in self._timers))
        if self._display_due is not None:
            candidates.append(self._display_due)
        return min(candidates) if candidates else None

    def _referee_loop(self):
        self._ready.set()
        items = self._items
        while True:
            with self._cond:
                self.clock.wait(self._cond, lambda: bool(items), self._wake_at(), self.stop_event)
                batch = list(items)
                items.clear()
            for item in batch:
                if item[0] == "stop":
                    self._guarded_fire_due()
                    return
                try:
                    self._handle(item)
                except Exception:
                    log.exception("could not handle %r; the rig goes on", item)
            self._guarded_fire_due()
            self._alive_at = time.monotonic()
            if self.stop_event.is_set():
                return

    def _rel(self, t_abs):
        rel = round(t_abs - self.t0, 6)
        return rel if rel > self.referee.t else self.referee.t

    def _handle(self, item):
        kind = item[0]
        if kind == "input":
            _, t_abs, name, value = item
            change = ev.InputChange(self._rel(t_abs), name, value)
            self._record(change)
            self._perform(self.referee.feed(change))
        elif kind == "command":
            _, t_abs, command = item
            self._command(replace(command, t=self._rel(t_abs)))
        elif kind == "seed":
            _, t_abs, values = item
            self._perform(self._record_inputs(self._rel(t_abs), values))
        elif kind == "fault":
            _, t_abs, source, message, active = item
            self._perform([ev.Fault(self._rel(t_abs), source, message, active)])

    def _command(self, command):
        self._perform(self.referee.advance(command.t))
        if getattr(command, "by", None) == "guard":
            # The guard's keypad: record the correction under the guard's own name.
            name = self._guard_name()
            if name:
                command = replace(command, by=name)
        try:
            effects = self.referee.feed(command)   # a refused choice changes nothing
        except RulesError as exc:
            self.stats.refused += 1
            self._perform([ev.Refused(command.t, str(exc)[:1].upper() + str(exc)[1:] + ".")])
            return
        self._record(command)
        self._perform(effects)

    def _guarded_fire_due(self):
        try:
            self._fire_due(self.clock.now())
        except Exception:
            log.exception("a deadline, the buzzer or the display failed; the rig goes on")

    def _guard_name(self):
        """The guard of the running turn, else of the last turn (the one being corrected)."""
        match = self.referee.match
        turn = match.current or (match.turns[-1] if match.turns else None)
        if turn is not None:
            return turn.guard
        nxt = rules.next_turn(match)
        return nxt.guard if nxt else None

    def _record(self, item):
        """Append one line to the recording.  A disk that fails is a named fault: the referee
        goes on (the players are not stopped), and the fault clears when writing works again."""
        try:
            self.writer.write(item)
        except (OSError, ValueError) as exc:
            self.stats.record_errors += 1
            if "recording" not in self._faults:
                self._fault(ev.Fault(item.t, "recording", "Recording failed (%s): this match "
                                     "is not being saved; check the disk" % exc, True))
            return
        if "recording" in self._faults:
            self._fault(ev.Fault(item.t, "recording", "recording works again", False))

    def _fire_due(self, now):
        deadline = self.referee.next_deadline()
        while deadline is not None and self.t0 + deadline <= now:
            self._perform(self.referee.advance(deadline))
            deadline = self.referee.next_deadline()
        due = [timer for timer in self._timers if timer[0] <= now]
        if due:
            self._timers = [timer for timer in self._timers if timer[0] > now]
            for _, action in sorted(due, key=lambda x: x[0]):
                action()
        if self._display_due is not None and self._display_due <= now:
            self._refresh_display(now)

    # --- effects ------------------------------------------------------------------------------------
    def _perform(self, effects):
        if not effects and self.referee.match.current is not None:
            return
        now = self.clock.now()
        durable = False
        for effect in effects:
            kind = type(effect)
            if kind is ev.Feedback:
                if effect.on:
                    self._buzz("touch", now)
                else:
                    self._buzz_off()
            elif kind is ev.Buzz:
                self._buzz(effect.pattern, now)
            elif kind is ev.Say:
                self._say(effect.t, effect.text, effect.level)
            elif kind is ev.Refused:
                if effect.code == "match-over":
                    self._next_match_at = effect.t
                    continue
                self._say(effect.t, effect.reason, "warning")
                self._message = (now + MESSAGE_S, effect.reason)
            elif kind is ev.Banner:
                self._banner = (now + BANNER_S, effect)
            elif kind is ev.Fault:
                self._fault(effect)
            elif kind is ev.TurnStarted:
                self._banner = None
                self.outputs.set("led.turn", True)
            elif kind is ev.TurnEnded:
                self.outputs.set("led.turn", False)
            elif kind is ev.Durable:
                durable = True
        # Between turns the ready lamp says whether a start press would start a turn.
        ready = self.referee.match.current is None and not self.referee.problems() \
            and not self.match_over
        if ready != self._ready_lamp:
            self._ready_lamp = ready
            self.outputs.set("led.ready", ready)
        if durable:
            self._sync_request.set()
        if self._next_match_at is not None:
            press_t, self._next_match_at = self._next_match_at, None
            self._open_next_match(press_t)
        if self.display is not None and self._display_due is None:
            self._display_due = now

    def _buzz(self, pattern, now):
        self._buzz_token += 1
        token = self._buzz_token
        buzzer = self.outputs.buzzer
        if buzzer is None:
            return
        at = now
        steps = PATTERNS.get(pattern, PATTERNS["touch"])
        buzzer.on()
        for i, (on_s, off_s) in enumerate(steps):
            if i:
                self._timers.append((at, self._guarded(token, buzzer.on)))
            at += on_s
            self._timers.append((at, self._guarded(token, buzzer.off)))
            at += off_s

    def _guarded(self, token, action):
        def run():
            if token == self._buzz_token:
                action()
        return run

    def _buzz_off(self):
        self._buzz_token += 1
        if self.outputs.buzzer is not None:
            self.outputs.buzzer.off()

    def _say(self, t, text, level="info"):
        line = "[%8.3f s] %s" % (t, text)
        self.log_lines.append(line)
        (log.warning if level == "warning" else log.info)(line)

    def _fault(self, fault):
        if fault.active:
            self._faults[fault.source] = fault.message
            self._say(fault.t, "Fault: " + fault.message, "warning")
        else:
            self._faults.pop(fault.source, None)
            self._say(fault.t, "Cleared: " + fault.message)
        self.outputs.set("led.fault", bool(self._faults))

    # --- the display ----------------------------------------------------------------------------
    def scoreboard(self, now=None):
        now = self.clock.now() if now is None else now
        banner = self._banner[1] if self._banner and self._banner[0] > now else None
        message = self._message[1] if self._message and self._message[0] > now else None
        faults = tuple(self._faults.values()) + tuple(
            m for m in self.referee.detector.faults() if m not in self._faults.values())
        return build_board(self.referee, now - self.t0, faults=faults, banner=banner,
                           message=message, key_help=self.key_help)

    def _refresh_display(self, now):
        display = self.display
        self._display_due = None
        if display is None:
            return
        for command in display.poll_commands():
            self.submit(command)
        board = self.scoreboard(now)
        display.show(board)
        if board.phase == "turn" or board.banner or board.message:
            self._display_due = now + DISPLAY_PERIOD_S
        else:
            self._display_due = now + IDLE_DISPLAY_PERIOD_S

    # --- the recording ------------------------------------------------------------------------------
    def _new_match(self, t_abs):
        if self.writer is not None:
            self._close_recording()
        match = rules.new_match(self.players, self.level, self.first_thief)
        self.referee = Referee(match, self.settings)
        self.t0 = t_abs
        header = recording.header_for(self.players, self.level, self.first_thief, self.settings)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(self.wall_clock()))
        path = self.recordings_dir / ("match-%s.jsonl" % stamp)
        n = 1
        while path.exists():
            n += 1
            path = self.recordings_dir / ("match-%s-%d.jsonl" % (stamp, n))
        self.recording_path = path
        self.writer = storage.Writer(path, header)
        self._say(0.0, "New match: %s, %s level (%s). Recording to %s" % (
            ", ".join(self.players), self.level.name, _level_words(self.level), path))

    @property
    def match_over(self):
        return rules.is_over(self.referee.match)

    def _open_next_match(self, press_t):
        """A start press after the match ended opens the next match, which starts at that
        press's first edge: the museum's state now (pins, hand sensor, relics) is its first
        lines, then the press itself, so the press starts its first turn if the museum is
        ready."""
        carried = {name: value for name, value in self.referee.detector.values.items()
                   if name == "tof" or name.startswith("relic.")}
        self._new_match(self.t0 + press_t)
        values = dict(self.inputs.values())
        values.update(carried)
        values["button"] = 1
        self._perform(self._record_inputs(0.0, values))

    def _record_inputs(self, t_rel, values):
        """Record and feed every value that differs from what the referee believes."""
        effects = []
        known = self.referee.detector.values
        for name, value in sorted(values.items(), key=lambda kv: kv[0] == "button"):
            if known.get(name) != value:
                change = ev.InputChange(t_rel, name, value)
                self._record(change)
                effects.extend(self.referee.feed(change))
        return effects

    def _seed_inputs(self):
        """Have the referee thread record the pins that differ from what the referee believes
        (the recording's initial state, or the state a resumed recording left)."""
        self._put(("seed", self.clock.now(), self.inputs.values()))

    def _resume(self, now):
        """Continue the newest unfinished recording, if it is this match's: rebuild the match by
        replaying it, declare the interrupted turn void, and go on writing to it."""
        candidates = sorted(self.recordings_dir.glob("match-*.jsonl"),
                            key=lambda p: p.stat().st_mtime)
        if not candidates or storage.is_finished(candidates[-1]):
            return False
        path = candidates[-1]
        cut = storage.repair(path)
        if cut:
            log.warning("%s: %s", path, cut)
        try:
            header, items = storage.read(path)
            from ..core.replay import referee as rereferee
            ref, _ = rereferee(header, items, path)
        except RigError as exc:
            log.warning("cannot resume %s (%s); it is left as it is and a new match starts",
                        path, exc)
            return False
        if header.players != self.players or header.level != self.level:
            log.info("%s is another match (players or level differ); closing it", path)
            self._end_file(path, ref.t)
            return False
        if rules.is_over(ref.match):
            self._end_file(path, ref.t)   # it had ended: nothing to resume
            return False
        self.referee = ref
        self.t0 = now - ref.t
        self.recording_path = path
        self.writer = storage.Writer(path)
        restart = ev.Restart(ref.t)
        self.writer.write(restart)
        self.writer.sync()
        self._say(ref.t, "Match resumed from %s." % path)
        self._perform(ref.feed(restart))
        return True

    def _end_file(self, path, t):
        writer = storage.Writer(path)
        writer.write(ev.End(t))
        writer.close()

    def _close_recording(self):
        writer, self.writer = self.writer, None
        if writer is None:
            return
        t = self.referee.t
        if self.t0 is not None:
            t = max(t, round(self.clock.now() - self.t0, 6))
        try:
            writer.write(ev.End(t))
        finally:
            writer.close()

    def _sync_loop(self):
        while not self.stop_event.is_set():
            if self._sync_request.wait(0.5):
                self._sync_request.clear()
                writer = self.writer
                if writer is not None:
                    try:
                        writer.sync()
                    except ValueError:
                        pass       # closed meanwhile: closing synced it
                    except OSError as exc:
                        log.warning("the recording could not be synced to disk: %s", exc)

    def result(self):
        """The live match's result, in the replay output's shape."""
        from ..core.replay import result
        t = max(self.referee.t, round(self.clock.now() - self.t0, 6))
        return result(rules.unfinished(self.referee.match, t))


def _level_words(level):
    limit = "no time limit" if level.timer_s is None else "%g s" % level.timer_s
    return "%s, %d added lasers, %s corridor" % (limit, level.lasers, level.corridor)
