"""The display shell: a window that shows the newest snapshot, plays the sounds, reads the keys.

The voice (:mod:`rig.display.voice`, ``[sound]``) speaks from the same loop: it reads the moments
from the snapshots as the sounds do, renders in a worker thread of its own and plays on a mixer
channel reserved for it, so it never delays the buzzer.

The referee must never wait for the screen.  So :meth:`show` only drops the snapshot into a
one-slot mailbox (older snapshots are simply replaced) and returns at once; a render loop of
its own takes the newest snapshot, draws it at no more than ``fps`` frames per second and hands
the guard's key commands back through :meth:`poll_commands` (or an ``on_command`` callback).

Two shells share that loop:

* :class:`DisplayProcess` (default) renders in a separate process (multiprocessing "spawn"), so
  drawing never competes with the referee for the GIL.  A link thread in the referee's process
  moves snapshots over a Pipe with one-in-flight flow control (the pipe never fills up, and the
  render side always gets the newest snapshot) and brings back commands and log lines.
* :class:`DisplayThread` renders in a thread of the caller's process (simpler, for laptops and
  tests; the render loop then shares the GIL).

Opening the window tries SDL video drivers in order: ``$SDL_VIDEODRIVER`` if set, ``kmsdrm``
(a Raspberry Pi without a desktop), SDL's default, ``x11``, ``wayland``.  If none works the
display logs once that the rig keeps refereeing headless and carries on as a no-op (sounds still
play if there is audio).  Nothing here ever raises into the referee after construction.
"""

import collections
import logging
import os
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, List, Optional, Sequence, Tuple

from ..core.errors import DisplayError

log = logging.getLogger(__name__)

MAX_FPS = 30
#: How much lower than the rig's own the render process's CPU priority is (``nice``, 0-19): on
#: a busy Pi the referee's touch runs before a frame is drawn (README "Performance").
RENDER_NICE = 10
_NOTHING = object()


@dataclass(frozen=True)
class DisplayOptions:
    """How to open and run the display (picklable: it travels to the render process)."""
    size: Tuple[int, int] = (800, 480)
    fullscreen: bool = False
    fps: int = 30
    title: str = "Cleptómano"
    quiet: bool = False
    volume: float = 0.8
    bindings: Optional[dict] = None
    keypad: bool = True
    video_drivers: Optional[Tuple[str, ...]] = None   # None: $SDL_VIDEODRIVER, kmsdrm, default...
    slow_render_s: float = 0.0     # test knob: pretend each frame takes this long (a slow GPU)
    hide_mouse: bool = True
    game: Optional[str] = None     # a companion game: its own sounds are made at start-up
    voice: Optional[object] = None  # a rig.display.voice.VoiceOptions ([sound]); None: no voice
    nice: int = RENDER_NICE        # the render process's CPU priority, below the referee's
    museum_keys: bool = False      # the simulator: keys the guard's leave unused play the museum


def check_options(o: DisplayOptions) -> DisplayOptions:
    """Refuse options the display cannot honour, naming the value and the fix."""
    if isinstance(o.fps, bool) or not isinstance(o.fps, int) or not 1 <= o.fps <= MAX_FPS:
        raise DisplayError("fps %r is not allowed; give a whole number from 1 to %d (the screen "
                           "never needs more, and fewer frames leave the Pi cooler)"
                           % (o.fps, MAX_FPS))
    try:
        w, h = int(o.size[0]), int(o.size[1])
        ok = len(o.size) == 2 and 160 <= w <= 7680 and 120 <= h <= 4320
    except (TypeError, ValueError, IndexError):
        ok = False
    if not ok:
        raise DisplayError("window size %r is not usable; give (width, height) in pixels from "
                           "160x120 to 7680x4320, e.g. (800, 480)" % (o.size,))
    if not isinstance(o.slow_render_s, (int, float)) or not 0 <= o.slow_render_s <= 5:
        raise DisplayError("slow_render_s %r is out of range; it is a test knob from 0 to 5 s "
                           "(leave it 0 on a real rig)" % (o.slow_render_s,))
    if isinstance(o.nice, bool) or not isinstance(o.nice, int) or not 0 <= o.nice <= 19:
        raise DisplayError("nice %r is out of range; give a whole number from 0 (the rig's own "
                           "priority) to 19 (the lowest)" % (o.nice,))
    if not isinstance(o.volume, (int, float)) or not 0 <= o.volume <= 1:
        raise DisplayError("volume %r is out of range; give 0.0 (silent) to 1.0 (full)"
                           % (o.volume,))
    from .parts import every_part
    for _, keys in every_part("keys"):         # each game's key mode takes the key options:
        keys.MODE(o.bindings, o.keypad)         # ConfigError naming a bad key, before any window
    return replace(o, size=(w, h))


#: Drivers that draw into memory only: used when asked for by name (tests), never as a fallback.
NO_SCREEN_DRIVERS = ("offscreen", "dummy")


def driver_candidates(env_value: Optional[str], explicit: Optional[Sequence[str]] = None
                      ) -> Tuple[str, ...]:
    """The SDL video drivers to try, in order ("" means SDL's own default choice)."""
    if explicit is not None:
        return tuple(explicit)
    first = (env_value or "").strip()
    out = []
    for name in ([first] if first else []) + ["kmsdrm", "", "x11", "wayland"]:
        if name not in out:
            out.append(name)
    return tuple(out)


def _open_window(options: DisplayOptions):
    """Try each video driver; returns (screen, driver, None) or (None, None, why)."""
    from .quiet import runtime_dir
    with runtime_dir():
        return _try_drivers(options)


def _try_drivers(options: DisplayOptions):
    import pygame
    candidates = driver_candidates(os.environ.get("SDL_VIDEODRIVER"), options.video_drivers)
    original = os.environ.get("SDL_VIDEODRIVER")
    errors = []
    for name in candidates:
        if name:
            os.environ["SDL_VIDEODRIVER"] = name
        else:
            os.environ.pop("SDL_VIDEODRIVER", None)
        try:
            pygame.display.init()
            if options.fullscreen:
                screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            else:
                screen = pygame.display.set_mode(options.size)
            driver = pygame.display.get_driver()
            if not name and driver in NO_SCREEN_DRIVERS:
                # SDL's own fallback draws into memory: nobody would see it.
                raise RuntimeError("SDL fell back to %r, which shows nothing" % driver)
            pygame.display.set_caption(options.title)
            if options.fullscreen and options.hide_mouse:
                pygame.mouse.set_visible(False)
            return screen, driver, None
        except Exception as e:   # pygame.error, or a driver SDL does not know
            errors.append("%s: %s" % (name or "default", e))
            try:
                pygame.display.quit()
            except Exception:
                pass
    if original is None:
        os.environ.pop("SDL_VIDEODRIVER", None)
    else:
        os.environ["SDL_VIDEODRIVER"] = original
    return None, None, "; ".join(errors) or "no video driver to try"  # not words: the log's


class _Endpoint:
    """What the render loop talks to: ``take()`` the newest snapshot (or _NOTHING), ``key()``
    the next injected key name (or None), ``emit(kind, payload)`` status and commands."""

    def take(self):
        raise NotImplementedError

    def key(self):
        return None

    def attract(self):
        """The attract screen the host asked for since the last call (an AttractView, or None
        when it ended), or _NOTHING when it said nothing new."""
        return _NOTHING

    def emit(self, kind, payload=None):
        raise NotImplementedError

    def alive(self):
        return True


def _render_loop(options: DisplayOptions, end: _Endpoint, stop) -> None:
    """The display's own loop: newest snapshot -> sounds, keys, a frame; at most ``fps`` a second.

    Runs in the render thread or the render process; never raises (a failure is logged and the
    loop goes on headless)."""
    import pygame
    from ..core.gamekit import own_view
    from .face import Face
    from .game_screens import cues as game_cues
    from .game_screens import extra_sounds
    from ..draw.keymodes import keypad_name
    from ..draw.kit import is_last_seconds
    from ..core.attract import ATTRACT_LOOP_HZ, CARD_S
    from .sounds import SoundBank, cues
    from .voice import voice_for
    from ..core.service import ServiceScreen

    screen = None
    try:
        pygame.font.init()
        screen, driver, why = _open_window(options)
    except Exception as e:     # pygame itself broken: still referee headless
        driver, why = None, str(e)
    if screen is not None:
        log.info("display: video driver %s, window %dx%d", driver, *screen.get_size())
        end.emit("video", driver)
    else:
        log.warning("display: no screen could be opened (%s); the rig keeps refereeing "
                    "headless", why)
        end.emit("headless", why)
    sounds = SoundBank(quiet=options.quiet, volume=options.volume,
                       extra=extra_sounds(options.game))
    sounds.open()
    end.emit("audio", sounds.available)
    voice = None
    try:
        voice = voice_for(options, sounds)     # its own worker thread renders the phrases
    except Exception as e:
        log.warning("display: the voice could not start (%s); the rig carries on without it", e)
    voice_counts = None
    face = Face(options.bindings, options.keypad, museum_keys=options.museum_keys)
    board = None
    heard = None            # the snapshot the sounds were last cued from
    dirty = True
    last_draw = 0.0
    draw_failed = False
    frame_s = 1.0 / options.fps
    attract_s = max(frame_s, 1.0 / ATTRACT_LOOP_HZ)
    attract_card = None
    was_attracting = False
    next_frame = time.monotonic()
    try:
        while not stop.is_set() and end.alive():
            # The keys fed (press) before the newest snapshot is taken: a key pressed after
            # show(board) is read with that board (or a newer one) on the screen, never with
            # the one before (a guard's remote keypad, the tests; issue 27).
            keys = []
            name = end.key()
            while name is not None:
                keys.append((name, None))
                name = end.key()
            new = end.take()
            if new is not _NOTHING:
                board, dirty = new, True
            asked = end.attract()
            if asked is not _NOTHING:
                face.attract(asked)
                dirty = True
            if isinstance(board, ServiceScreen) and board is not heard:
                face.show(board)        # the service mode (issue 31): its levels and tests
                _service_hear(heard, board, sounds, voice, face.language())
                heard = board
            elif board is not None and board is not heard:
                own = own_view(board)       # a game's own snapshot: the rig's own cues
                for name in (game_cues(heard, board) if own is None
                             else cues(own_view(heard), own)):
                    sounds.play(name)
                face.show(board)
                if voice is not None:
                    _hear(voice, heard, board, face.language())
                heard = board
            if voice is not None:
                voice.poll()
                if voice.counts() != voice_counts:     # at most a line a second: cheap
                    voice_counts = voice.counts()
                    end.emit("voice", voice_counts)
            if screen is not None:
                try:
                    for e in pygame.event.get():
                        if e.type == pygame.QUIT:
                            log.warning("display: window closed; the rig keeps refereeing "
                                        "headless")
                            end.emit("closed", None)
                            pygame.display.quit()
                            screen = None
                            break
                        if e.type == pygame.KEYDOWN:
                            keys.append((keypad_name(pygame.key.name(e.key),
                                                     getattr(e, "scancode", None)),
                                         getattr(e, "unicode", None)))
                        elif e.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED,
                                        pygame.VIDEORESIZE):
                            dirty = True
                except Exception as e:
                    log.warning("display: reading window events failed (%s)", e)
            for name, text in keys:
                command, changed = face.key(name, text)
                if command is not None:
                    end.emit("command", command)
                dirty = dirty or changed
            now = time.monotonic()
            attracting = face.attract_shown()
            if attracting != was_attracting:
                was_attracting = attracting
                end.emit("attracting", attracting)
            if screen is not None:
                blinking = getattr(board, "phase", None) == "turn" and \
                    is_last_seconds(getattr(board, "remaining_s", None))
                if attracting:      # a frame a card (rig.draw.attract): nothing else moves
                    card = int(now // CARD_S)
                    dirty = dirty or card != attract_card
                    attract_card = card
                if dirty or blinking or (not attracting and now - last_draw >= 1.0):
                    try:
                        face.draw(screen, now)
                        pygame.display.flip()
                        draw_failed = False
                    except Exception as e:
                        if not draw_failed:    # once per run of failures, not 30 times a second
                            log.error("display: drawing failed (%s: %s); showing the last good "
                                      "frame", type(e).__name__, e)
                        draw_failed = True
                    last_draw, dirty = now, False
                    if options.slow_render_s:
                        time.sleep(options.slow_render_s)   # the simulated slow GPU
            # The attract screen: the loop itself turns a few times a second only (issue 31)
            next_frame += attract_s if attracting else frame_s
            wait = next_frame - time.monotonic()
            if wait < 0:
                next_frame, wait = time.monotonic(), 0.0
            stop.wait(wait)
    finally:
        if voice is not None:
            voice.close()
        sounds.close()
        try:
            pygame.display.quit()
        except Exception:
            pass


def _service_hear(prev, board, sounds, voice, lang):
    """The service screen's sound levels and tests (:func:`rig.display.service.hear`), the
    spoken test in ``lang``.  A failure is logged, never raised."""
    from .service import hear
    try:
        if voice is not None:
            voice.use_language(lang)
        hear(prev, board, sounds, voice, lang)
    except Exception as e:
        log.warning("display: the service mode's sounds failed (%s: %s)", type(e).__name__, e)


def _hear(voice, prev, board, lang):
    """The voice's turn with a new snapshot, in ``lang``, the language the screen speaks now
    (the snapshot's: the table's, which the set-up screen may change).  A failure is logged,
    never raised."""
    try:
        voice.hear(prev, board, lang)
    except Exception as e:
        log.warning("display: the voice failed on a snapshot (%s: %s)", type(e).__name__, e)


# --- Thread mode ----------------------------------------------------------------------------------

class _ThreadEnd(_Endpoint):
    def __init__(self, shell):
        self.shell = shell

    def take(self):
        with self.shell._lock:
            board, self.shell._slot = self.shell._slot, _NOTHING
        return board

    def key(self):
        try:
            return self.shell._keys.popleft()
        except IndexError:
            return None

    def attract(self):
        with self.shell._lock:
            view, self.shell._attract = self.shell._attract, _NOTHING
        return view

    def emit(self, kind, payload=None):
        self.shell._status(kind, payload)


class _Shell:
    """What both shells share: status, commands, the context manager.  A face of the rig
    (:mod:`rig.shell.faces`): it wants every snapshot, headless or not, for its sounds."""

    wants_frames = True

    def __init__(self, options, on_command, **kw):
        self.options = check_options(options if options is not None else DisplayOptions(**kw))
        self.on_command = on_command
        self.driver: Optional[str] = None      # the SDL video driver, once a window is open
        self.headless: Optional[bool] = None   # None until the render side has tried
        self.audio: Optional[bool] = None
        self.voice_stats: Optional[dict] = None   # the voice's counts (None: no voice)
        self.attracting = False                # the attract screen is on the screen now
        self._commands = collections.deque(maxlen=256)
        self._ready = threading.Event()
        self._lock = threading.Lock()          # guards the one-snapshot mailbox
        self._slot = _NOTHING                  # the newest snapshot not yet drawn
        self._attract = _NOTHING               # the attract screen's news not yet taken
        self._keys = collections.deque(maxlen=64)
        self._stop = threading.Event()
        self._passed = _NOTHING                # the last snapshot passed on (referee's thread)
        self.skipped = 0                       # snapshots that looked the same, not passed on

    def _looks_new(self, board):
        """On the referee's thread: whether ``board`` would draw another frame than the last
        snapshot passed on: the snapshot's own ``looks_the_same(last)`` when its type has one
        (a game whose screen shows the time in whole seconds), else equality.  One that would
        not is not passed on: no pickle, no pipe, no frame drawn for it."""
        passed = self._passed
        if passed is not _NOTHING and (passed is board or (
                board.looks_the_same(passed) if hasattr(board, "looks_the_same")
                else passed == board)):
            self.skipped += 1
            return False
        self._passed = board
        return True

    def _status(self, kind, payload):
        if kind == "video":
            self.driver, self.headless = payload, False
            self._ready.set()
        elif kind == "headless":
            self.driver, self.headless = None, True
            self._ready.set()
        elif kind == "closed":
            self.driver, self.headless = None, True
        elif kind == "audio":
            self.audio = bool(payload)
        elif kind == "voice":
            self.voice_stats = dict(payload)
        elif kind == "attracting":
            self.attracting = bool(payload)
        elif kind == "command":
            if self.on_command is not None:
                try:
                    self.on_command(payload)
                except Exception:
                    log.exception("display: the on_command callback failed on %r", payload)
            else:
                self._commands.append(payload)

    def attract(self, view) -> None:
        """The attract screen starts (an :class:`rig.core.attract.AttractView`) or ends (None):
        shown from the render loop's next turn.  Never blocks."""
        with self._lock:
            self._attract = view
        self._nudge()

    def _nudge(self):
        """Wake the link (the process shell's)."""

    def poll_commands(self) -> List[object]:
        """The guard's commands since the last call (the game's own command values,
        t=0.0).  Never blocks."""
        out = []
        while True:
            try:
                out.append(self._commands.popleft())
            except IndexError:
                return out

    def wait_ready(self, timeout_s: float = 5.0) -> Optional[str]:
        """Wait (at most ``timeout_s``) until the window opened or failed; the driver or None."""
        self._ready.wait(max(0.0, timeout_s))
        return self.driver

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


class DisplayThread(_Shell):
    """The display in a thread of this process.  ``show(board)`` never blocks.

    Commands go to ``on_command(command)`` (called from the render thread) when given, else
    queue up for :meth:`poll_commands`."""

    def __init__(self, options: Optional[DisplayOptions] = None,
                 on_command: Optional[Callable[[object], None]] = None, **kw):
        super().__init__(options, on_command, **kw)
        self._thread = None

    def start(self) -> "DisplayThread":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="display", daemon=True)
            self._thread.start()
        return self

    def _run(self):
        try:
            _render_loop(self.options, _ThreadEnd(self), self._stop)
        except Exception:
            log.exception("display: the render thread stopped; the rig keeps refereeing headless")
            self._status("headless", "render thread failed")

    def show(self, board) -> None:
        """Hand the newest snapshot to the display (replaces any not yet drawn), if it looks
        different from the last (:meth:`_looks_new`)."""
        if not self._looks_new(board):
            return
        with self._lock:
            self._slot = board

    def press(self, key_name: str) -> None:
        """Feed a key as if pressed in the window (a remote keypad, tests)."""
        self._keys.append(key_name)

    def stop(self, timeout_s: float = 2.0) -> bool:
        """Stop rendering and close the window; True when the thread ended within ``timeout_s``."""
        self._stop.set()
        if self._thread is None:
            return True
        self._thread.join(max(0.0, timeout_s))
        return not self._thread.is_alive()


# --- Process mode ---------------------------------------------------------------------------------

class _PipeEnd(_Endpoint):
    """The render process's side of the link: one snapshot in flight, "ready" asks for the next."""

    def __init__(self, conn):
        self.conn = conn
        self.keys = collections.deque()
        self.broken = False
        self.attracted = _NOTHING

    def _drain(self):
        board = _NOTHING
        try:
            while self.conn.poll(0):
                kind, payload = self.conn.recv()
                if kind == "board":
                    board = payload
                    self.emit("ready")
                elif kind == "key":
                    self.keys.append(payload)
                elif kind == "attract":
                    self.attracted = payload
        except (EOFError, OSError):
            self.broken = True     # the referee is gone: stop rendering
        return board

    def take(self):
        return self._drain()

    def key(self):
        try:
            return self.keys.popleft()
        except IndexError:
            return None

    def attract(self):
        view, self.attracted = self.attracted, _NOTHING
        return view

    def emit(self, kind, payload=None):
        try:
            self.conn.send((kind, payload))
        except (EOFError, OSError, ValueError):
            self.broken = True
        except Exception as e:     # an unpicklable command: say so rather than die
            try:
                self.conn.send(("log", (logging.ERROR, "display: cannot send %r: %s"
                                        % (kind, e))))
            except Exception:
                self.broken = True

    def alive(self):
        return not self.broken


class _PipeLogHandler(logging.Handler):
    """In the render process: forward log lines to the referee's process, which logs them."""

    def __init__(self, end):
        super().__init__(logging.INFO)
        self.end = end

    def emit(self, record):
        try:
            self.end.emit("log", (record.levelno, "%s" % record.getMessage(), record.name))
        except Exception:
            pass


def _leave_stop_signals():
    """The render process ignores SIGINT and SIGTERM: Ctrl-C reaches the terminal's whole
    process group and systemd's stop the whole control group, but the rig's process stops this
    one (its stop event, then its pipe closing), so a stop gives no traceback from here and no
    "keeps refereeing headless" (issue 30).  They were blocked while it was spawned
    (:func:`_spawn_quietly`): unblocked once ignored."""
    import signal
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM))


def _spawn_quietly(proc):
    """Start ``proc`` with SIGINT and SIGTERM blocked on this thread, which the new process
    inherits: a Ctrl-C while its interpreter starts cannot interrupt it either."""
    import signal
    stops = (signal.SIGINT, signal.SIGTERM)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        proc.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _process_main(conn, stop, options):
    """Entry point of the render process (spawned: a fresh interpreter).  It lowers its own
    CPU priority by ``options.nice`` first: drawing waits for the referee, never the reverse."""
    _leave_stop_signals()
    end = _PipeEnd(conn)
    root = logging.getLogger()
    root.handlers[:] = [_PipeLogHandler(end)]
    root.setLevel(logging.INFO)
    if options.nice:
        try:
            os.nice(options.nice)
        except OSError as e:
            log.warning("display: cannot lower the render process's priority (%s)", e)
    try:
        _render_loop(options, end, stop)
    except Exception as e:
        end.emit("log", (logging.ERROR, "display: render process failed: %r" % (e,), __name__))
    finally:
        try:
            conn.close()
        except Exception:
            pass


class DisplayProcess(_Shell):
    """The display in its own process (the default on the rig).  ``show(board)`` never blocks.

    A link thread here sends the newest snapshot whenever the render process asks for one and
    collects commands (for :meth:`poll_commands` or ``on_command``, called from the link
    thread) and the render process's log lines (logged here, under their own logger names)."""

    LINK_POLL_S = 0.02

    def __init__(self, options: Optional[DisplayOptions] = None,
                 on_command: Optional[Callable[[object], None]] = None, **kw):
        super().__init__(options, on_command, **kw)
        self._wake = threading.Event()
        self._proc = None
        self._conn = None
        self._proc_stop = None
        self._link = None
        self._failed = False

    def start(self) -> "DisplayProcess":
        if self._proc is not None or self._failed:
            return self
        try:
            import multiprocessing
            ctx = multiprocessing.get_context("spawn")
            conn, child = ctx.Pipe(duplex=True)
            self._proc_stop = ctx.Event()
            proc = ctx.Process(target=_process_main, name="cleptomano-display",
                               args=(child, self._proc_stop, self.options), daemon=True)
            try:
                _spawn_quietly(proc)
            finally:
                child.close()
            self._proc, self._conn = proc, conn
        except Exception as e:
            self._failed = True
            log.warning("display: cannot start the display process (%s); the rig keeps "
                        "refereeing headless", e)
            self._status("headless", str(e))
            return self
        self._link = threading.Thread(target=self._run_link, name="display-link", daemon=True)
        self._link.start()
        return self

    def show(self, board) -> None:
        """Hand the newest snapshot to the display (replaces any not yet sent), if it looks
        different from the last (:meth:`_looks_new`)."""
        if not self._looks_new(board):
            return
        with self._lock:
            self._slot = board
        self._wake.set()

    def press(self, key_name: str) -> None:
        """Feed a key as if pressed in the window (a remote keypad, tests)."""
        self._keys.append(key_name)
        self._wake.set()

    def _nudge(self):
        self._wake.set()

    def _run_link(self):
        conn = self._conn
        credit = True      # the render side may take one snapshot now
        try:
            while not self._stop.is_set():
                if credit:
                    self._wake.wait(self.LINK_POLL_S)
                    self._wake.clear()
                    with self._lock:
                        board, self._slot = self._slot, _NOTHING
                    if board is not _NOTHING:
                        conn.send(("board", board))
                        credit = False
                else:
                    conn.poll(self.LINK_POLL_S)
                # A key never overtakes a snapshot shown before it: while one waits for the
                # render side's "ready", the keys wait behind it (one frame at most).
                while self._keys and (credit or self._slot is _NOTHING):
                    conn.send(("key", self._keys.popleft()))
                with self._lock:
                    view, self._attract = self._attract, _NOTHING
                if view is not _NOTHING:
                    conn.send(("attract", view))
                while conn.poll(0):
                    kind, payload = conn.recv()
                    if kind == "ready":
                        credit = True
                    elif kind == "log":
                        level, text, name = payload
                        logging.getLogger(name).log(level, "%s", text)
                    else:
                        self._status(kind, payload)
        except (EOFError, OSError) as e:
            if not self._stop.is_set():
                log.warning("display: the display process went away (%s); the rig keeps "
                            "refereeing headless", e)
                self._status("headless", "display process ended")
        except Exception:
            log.exception("display: link to the display process failed; refereeing continues")
            self._status("headless", "link failed")

    def stop(self, timeout_s: float = 3.0) -> bool:
        """Stop the display process; True when it ended within ``timeout_s`` (else it is
        terminated).  Bounded: never waits longer than about ``timeout_s``."""
        deadline = time.monotonic() + max(0.0, timeout_s)
        self._stop.set()
        self._wake.set()
        if self._proc_stop is not None:
            self._proc_stop.set()
        clean = True
        if self._link is not None:
            self._link.join(max(0.0, deadline - time.monotonic()))
        if self._proc is not None:
            self._proc.join(max(0.0, deadline - time.monotonic()))
            if self._proc.is_alive():
                clean = False
                log.warning("display: the display process did not stop in %.1f s; ending it",
                            timeout_s)
                self._proc.terminate()
                self._proc.join(1.0)
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
        return clean

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc is not None else None


def open_display(display_config=None, keys_config=None, players=(), sound_config=None,
                 **overrides):
    """Start the display the configuration asks for and return it (never None).

    ``display_config`` is a :class:`rig.shell.config.DisplayConfig` (fullscreen, size, fps, quiet,
    process), ``keys_config`` a :class:`rig.shell.config.KeysConfig` (or a dict action -> key name),
    ``sound_config`` a :class:`rig.shell.config.SoundConfig` (the voice; None: no voice).
    ``players`` is accepted for symmetry; the keys follow each snapshot's player list.  A window
    that cannot be opened is not an error: the display goes headless and logs it once.  A bad
    value raises :class:`DisplayError` or :class:`rig.core.errors.ConfigError` naming it."""
    from dataclasses import asdict, is_dataclass
    from ..shell.config import DisplayConfig
    d = display_config if display_config is not None else DisplayConfig(fullscreen=False)
    bindings = None
    if keys_config is not None:
        bindings = asdict(keys_config) if is_dataclass(keys_config) else dict(keys_config)
    voice = None
    if sound_config is not None:
        from .voice import VoiceOptions
        voice = VoiceOptions.from_config(sound_config)
    options = DisplayOptions(size=tuple(d.size), fullscreen=d.fullscreen, fps=d.fps,
                             quiet=d.quiet, bindings=bindings, voice=voice)
    if overrides:
        options = replace(options, **overrides)
    shell = DisplayProcess if d.process else DisplayThread
    return shell(options).start()
