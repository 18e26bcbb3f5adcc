"""The voice: the rig says aloud the moments a thief cannot look up for, in the table's language.

A thief with a hand between the lasers cannot read the screen.  So the display process speaks
the last ten seconds counted down, "Caught!" and "Escaped!", the round and match results (a
companion game's outcome too) and Stop Thief!'s clue kind, in the table's language, offline,
with Debian's ``espeak-ng`` (present on Raspberry Pi OS).

* :func:`moments` (pure) says what a new snapshot calls to be said, compared with the last one
  (as :func:`rig.display.sounds.cues` does for the sounds): each a :class:`Moment`;
  :func:`phrase` (pure) turns one into the words of a :class:`rig.words.Words`.
* :class:`VoiceCache` keeps each rendered phrase as a WAV file under the cache folder, keyed by
  (language, voice settings, text), written atomically (a temporary file, then a rename) and
  bounded in size (the least recently used go first).
* :class:`Voice` (shell) renders in a worker thread of its own, never in the render loop and
  never in the thread that plays the buzzer, at a lower CPU priority (its ``espeak-ng`` runs
  too), each ``espeak-ng`` run with a finite timeout.  At
  start-up (and when the table changes language) it renders the fixed phrases ahead of time
  and keeps them loaded, so the countdown is said the moment it comes.  A phrase not rendered
  yet (a result with the players' names) is rendered when its moment comes and said if ready
  within :data:`FRESH_S`, else dropped: it never queues behind later moments.  It plays on a
  mixer channel reserved for it (:meth:`rig.display.sounds.SoundBank.voice_channel`), so the
  buzzer and the ticks are never delayed or cut; a new line stops the one still speaking.

Off with ``[sound] voice = false``, ``[display] quiet = true``, no audio device, or no
``espeak-ng`` on the PATH (logged once; the rig carries on without a voice).  What it says
goes to no log and no recording: those stay language-neutral.
"""

import collections
import hashlib
import json
import logging
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional

from ..core.gamekit import own_view
from ..core.msg import Msg, from_json, is_msg_json
from ..draw.kit import countdown_seconds, is_last_seconds

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
#: espeak-ng's voice for each table language (the pseudo-locale is English underneath): the
#: Spanish words are Latin American (tú), so are their voices; espeak-ng has no Argentine voice,
#: so the Rioplatense table (``es_AR``) hears Latin America's too.
VOICES = {"en": "en", "es": "es-419", "es_AR": "es-419", "fr": "fr", "ro": "ro", "pseudo": "en"}
#: Spanish voices a builder may choose for ``es`` (``[sound] voice_es``): Latin America's (the
#: default, as the words are), or Spain's.
SPANISH_VOICES = ("es-419", "es")
RENDER_TIMEOUT_S = 10.0      # one espeak-ng run; a short phrase takes ~0.1 s on a Pi 4
FRESH_S = 1.5                # a phrase rendered when its moment comes is said if ready by then
COUNT_FROM = 10              # the countdown said aloud: 10, 9, ... 1
LOADED_MAX = 64              # phrases kept loaded in memory (the fixed ones and recent results)
WORKER_NICE = 10             # the worker and its espeak-ng runs yield the CPU to the referee
DEFAULT_CACHE_DIR = "~/.cache/cleptomano/voice"
DEFAULT_CACHE_MB = 20

# What each game says is its folder's (README "Adding a game"): its ``sounds`` part may declare
# ``SPOKEN`` (a sound cue's name -> the code said with it: Stop Thief!'s clue sounds say what the
# clue means) and ``SPOKEN_AHEAD`` (the codes rendered ahead of time: Cleptómano's Caught! and
# Escaped!).  A banner going up says its own big words (its title, a code).

#: Which moment wins when one snapshot brings several (a new line stops the older one, so
#: only one is said): a result over a banner over a clue over the countdown.
_RANK = {"count": 0, "clue": 1, "caught": 2, "escaped": 2, "result": 3}
_RESULT_BANNERS = ("round", "match", "title")


@dataclass(frozen=True)
class Moment:
    """One thing to say: ``kind`` (count, caught, escaped, result, clue) and ``what``: the
    count (an int), or a :class:`Msg`, or a tuple of Msg / text (a result's lines)."""
    kind: str
    what: object


# --- Choosing the moments (pure) ------------------------------------------------------------------

def spoken_cues(game) -> Dict[str, str]:
    """``game``'s sound cues that are said: sound name -> code, its folder's ``sounds.SPOKEN``
    (none for most games)."""
    from .parts import face_part
    sounds = face_part(game, "sounds") if game else None
    declared = getattr(sounds, "SPOKEN", None)
    return dict(declared) if isinstance(declared, dict) else {}


def spoken_ahead() -> List[str]:
    """The codes every registered game wants rendered ahead of time (``sounds.SPOKEN_AHEAD``)."""
    from .parts import every_part
    codes = []
    for _, sounds in every_part("sounds"):
        codes += [c for c in getattr(sounds, "SPOKEN_AHEAD", ()) if isinstance(c, str)]
    return codes


def moments(prev, board) -> List[Moment]:
    """What ``board`` calls to be said, given the snapshot shown before it (``prev``, or None).

    Cleptómano's scoreboard: each whole second of the last :data:`COUNT_FROM` of a running turn,
    a Caught! or Escaped! banner appearing (once, not again when the haul's banner follows the
    turn's), a round, match or title banner appearing (its words).  A companion game's screen
    (a :class:`~rig.core.gamekit.GameScreen`): its ``outcome`` appearing, and each new sound cue
    that is said (:func:`spoken_cues`).  A first snapshot says no countdown and no cue (a
    display that starts late must not say old things).  Pure; never raises on odd values."""
    out = []
    if board is None:
        return out
    if hasattr(board, "sounds") and hasattr(board, "view"):
        own = own_view(board)
        if own is None:
            return _game_moments(prev, board)
        board, prev = own, own_view(prev)   # a game's own snapshot (Cleptómano's scoreboard)
    banner = getattr(board, "banner", None)
    old = getattr(prev, "banner", None) if prev is not None else None
    if banner is not None and banner != old:
        kind = str(getattr(banner, "kind", ""))
        old_kind = str(getattr(old, "kind", "")) if old is not None else None
        if kind in ("caught", "escaped") and kind != old_kind:
            out.append(Moment(kind, getattr(banner, "title", None)))
        elif kind in _RESULT_BANNERS:
            lines = getattr(banner, "lines", ()) or ()
            lines = tuple(lines) if isinstance(lines, (tuple, list)) else ()
            out.append(Moment("result", (getattr(banner, "title", None),) + lines[:1]))
    if getattr(board, "phase", None) == "turn" and prev is not None and \
            getattr(prev, "phase", None) == "turn" and \
            getattr(prev, "thief", None) == getattr(board, "thief", None):
        remaining = getattr(board, "remaining_s", None)
        n_new = countdown_seconds(remaining)
        n_old = countdown_seconds(getattr(prev, "remaining_s", None))
        if is_last_seconds(remaining) and n_new and n_new != n_old and n_new <= COUNT_FROM:
            out.append(Moment("count", n_new))
    return out


def _game_moments(prev, screen):
    out = []
    game = getattr(screen, "game", None)
    if prev is None or getattr(prev, "game", None) != game:
        return out
    outcome = getattr(screen, "outcome", None)
    if outcome is not None and outcome != getattr(prev, "outcome", None):
        out.append(Moment("result", (outcome,)))
    said = spoken_cues(game)
    if said:
        try:
            heard = max((n for n, _ in getattr(prev, "sounds", ())), default=0)
            new = [name for n, name in getattr(screen, "sounds", ()) if n > heard]
        except (TypeError, ValueError):
            new = []
        for name in new:
            if name in said:
                out.append(Moment("clue", Msg(said[name])))
    return out


def chosen(found: List[Moment]) -> Optional[Moment]:
    """The one moment to say of those one snapshot brings (the highest ranked, the last of
    equals), or None."""
    best = None
    for m in found:
        if best is None or _RANK.get(m.kind, 0) >= _RANK.get(best.kind, 0):
            best = m
    return best


def _said(words, x) -> Optional[str]:
    """``x`` (a Msg, its JSON, or text) in ``words``' language; None when there is nothing to
    say (no words, or a code the catalogs do not have yet: its neutral form is not spoken)."""
    if x is None:
        return None
    if is_msg_json(x):
        try:
            x = from_json(x)
        except (TypeError, ValueError):
            return None
    if isinstance(x, Msg):
        n = x.get("n")
        if words.template(x.code, n if isinstance(n, int) and not isinstance(n, bool)
                          else None) is None:
            return None
        text = words.text(x)
    elif isinstance(x, str):
        text = x
    else:
        return None
    text = " ".join(text.split())
    if text.isupper():          # a banner's capitals: said as words, not spelt letter by letter
        text = text[:1] + text[1:].lower()
    return text or None


def phrase(moment: Moment, words) -> Optional[str]:
    """The words to say for ``moment`` in ``words``' language (a :class:`rig.words.Words`), or
    None when there are none.  A count is said as its digits (espeak-ng reads them in its own
    language).  Pure."""
    if moment.kind == "count":
        return words.number(moment.what) if isinstance(moment.what, int) else None
    parts = moment.what if isinstance(moment.what, tuple) else (moment.what,)
    said = [s for s in (_said(words, p) for p in parts) if s]
    if not said:
        return None
    return " ".join(s if s[-1] in ".!?…" else s + "." for s in said) if len(said) > 1 \
        else said[0]


def fixed_phrases(words) -> List[str]:
    """The phrases rendered ahead of time for a table speaking ``words``' language: the
    countdown, Caught!, Escaped! and the said sound cues of every game (those with words)."""
    out = [phrase(Moment("count", n), words) for n in range(COUNT_FROM, 0, -1)]
    out += [_said(words, Msg(c)) for c in spoken_ahead()]
    seen, unique = set(), []
    for text in out:
        if text and text not in seen:
            seen.add(text)
            unique.append(text)
    return unique


# --- The cache ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class VoiceSettings:
    """How the phrases sound (part of the cache key): espeak-ng's ``voice``, ``speed_wpm``."""
    voice: str = "en"
    speed_wpm: int = 165


class VoiceCache:
    """Rendered phrases as WAV files in ``folder``, at most ``max_bytes`` in all.

    :meth:`get` returns a phrase's file when it is there (and marks it used); :meth:`put`
    renders it through ``render(path)`` into a temporary file beside it, then renames it into
    place, so a file in the cache is always whole; then the least recently used files go
    until the cache fits."""

    SUFFIX = ".wav"

    def __init__(self, folder, max_bytes=DEFAULT_CACHE_MB * 1024 * 1024):
        self.folder = Path(folder).expanduser()
        self.max_bytes = int(max_bytes)

    @staticmethod
    def key(lang: str, settings: VoiceSettings, text: str) -> str:
        blob = json.dumps([lang, settings.voice, settings.speed_wpm, text], ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:32]

    def path(self, key: str) -> Path:
        return self.folder / (key + self.SUFFIX)

    def get(self, key: str) -> Optional[Path]:
        p = self.path(key)
        try:
            if p.stat().st_size > 44:           # more than a WAV header
                os.utime(p)                     # used: the last to go
                return p
        except OSError:
            pass
        return None

    def put(self, key: str, render: Callable[[Path], None]) -> Path:
        """Render ``key``'s phrase with ``render(tmp_path)`` and move it into place; raises
        what ``render`` raises, or OSError (an empty file counts as a failure)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        final = self.path(key)
        tmp = self.folder / ("%s.%d.%d.tmp" % (key, os.getpid(), threading.get_ident()))
        try:
            render(tmp)
            if not tmp.is_file() or tmp.stat().st_size <= 44:
                raise OSError("the renderer wrote no sound for this phrase")
            os.replace(tmp, final)
        finally:
            try:
                tmp.unlink()
            except OSError:
                pass
        self.trim(keep=final)
        return final

    def trim(self, keep=None) -> int:
        """Remove the least recently used files until the cache fits (never ``keep``, the
        phrase just rendered) and leftover temporary files; returns how many went."""
        files = []
        gone = 0
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return 0
        now = time.time()
        for e in entries:
            try:
                st = e.stat()
            except OSError:
                continue
            if e.name.endswith(".tmp") and now - st.st_mtime > 2 * RENDER_TIMEOUT_S:
                try:
                    os.unlink(e.path)       # a render killed mid-way
                except OSError:
                    pass
            elif e.name.endswith(self.SUFFIX):
                files.append((st.st_mtime, e.path, st.st_size))
        total = sum(f[2] for f in files)
        for _, path, size in sorted(files):
            if total <= self.max_bytes:
                break
            if keep is not None and Path(path) == Path(keep):
                continue
            try:
                os.unlink(path)
                total -= size
                gone += 1
            except OSError:
                pass
        return gone


def espeak_renderer(command: str = ESPEAK, timeout_s: float = RENDER_TIMEOUT_S):
    """A renderer running ``command`` (espeak-ng): ``render(settings, text, path)`` writes the
    phrase as a WAV file; raises OSError or subprocess errors (a timeout kills the run).  The
    text goes on its standard input, so no phrase is ever read as an option."""
    def render(settings: VoiceSettings, text: str, path: Path) -> None:
        subprocess.run([command, "-v", settings.voice, "-s", str(settings.speed_wpm),
                        "-w", str(path), "--stdin"], input=text.encode("utf-8"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout_s,
                       check=True)
    return render


# --- The voice ------------------------------------------------------------------------------------

class Voice:
    """Says the moments (shell): a worker thread renders and loads, the render loop plays.

    ``renderer(settings, text, path)`` writes a phrase (default: :func:`espeak_renderer`);
    ``loader(path)`` makes something ``player(sound)`` plays (default: a pygame Sound played on
    the reserved ``channel``); ``clock`` gives seconds (tests inject all four).  The render
    loop calls :meth:`hear` with each new snapshot and :meth:`poll` every frame; both only
    look at memory and never wait for the worker."""

    def __init__(self, cache_dir=DEFAULT_CACHE_DIR, *, speed_wpm=165, volume=1.0,
                 cache_mb=DEFAULT_CACHE_MB, spanish="es-419", renderer=None, loader=None,
                 player=None, channel=None, clock=time.monotonic, fresh_s=FRESH_S,
                 espeak=ESPEAK):
        self.cache = VoiceCache(cache_dir, int(cache_mb * 1024 * 1024))
        self.speed_wpm = int(speed_wpm)
        self.volume = max(0.0, min(1.0, float(volume)))
        self.voices = dict(VOICES, es=spanish if spanish in SPANISH_VOICES else VOICES["es"])
        self.espeak = espeak
        self.renderer = renderer
        self.loader = loader
        self.player = player
        self.channel = channel
        self.clock = clock
        self.fresh_s = float(fresh_s)
        self.available = False
        self.lang = None
        self.words = None
        self.said = 0                   # lines played (the bench and tests read it)
        self.dropped = 0                # lines not ready in time
        self.rendered = 0               # phrases espeak-ng rendered (not found in the cache)
        self._cond = threading.Condition()
        self._ahead = collections.deque()          # (lang, text) to render ahead of time
        self._urgent = None                        # (lang, text, deadline): the newest moment
        self._ready = None                         # (sound, text, deadline): for poll()
        self._loaded = collections.OrderedDict()   # (lang, text) -> sound
        self._failed_once = False
        self._working = False                      # the worker is making a phrase now
        self._stop = False
        self._thread = None

    # Start and stop ---------------------------------------------------------------------------
    def open(self, lang="en") -> bool:
        """Start the worker and render the fixed phrases of ``lang`` (None: of the language
        the first :meth:`hear` brings); False (and one log line) when there is no espeak-ng to
        render with."""
        if self.renderer is None:
            found = shutil.which(self.espeak)
            if found is None:
                log.warning("voice: %s is not installed (apt install espeak-ng); the rig "
                            "carries on without a voice", self.espeak)
                return False
            self.renderer = espeak_renderer(found)
        if self.loader is None:
            self.loader = self._pygame_sound
        if self.player is None:
            self.player = self._play_on_channel
        self.available = True
        self._thread = threading.Thread(target=self._work, name="voice", daemon=True)
        self._thread.start()
        if lang is not None:
            self.use_language(lang)
        log.info("voice: on%s", " (%s)" % self.voices.get(self.lang, "en") if self.lang else "")
        return True

    def close(self, timeout_s=1.0) -> None:
        """Stop the worker (a render under way finishes within its timeout, its thread being a
        daemon's) and log what the voice did."""
        if self.available:
            log.info("voice: said %d lines, %d dropped, %d rendered", self.said, self.dropped,
                     self.rendered)
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(max(0.0, timeout_s))
        self.available = False

    def settings(self, lang) -> VoiceSettings:
        return VoiceSettings(self.voices.get(lang, "en"), self.speed_wpm)

    def use_language(self, lang) -> None:
        """Speak ``lang`` from now on (the table's; the set-up screen may change it): its fixed
        phrases are rendered ahead of time, the other language's still waiting are dropped."""
        if lang == self.lang or not self.available:
            return
        from ..words import Words
        try:
            words = Words(lang)
        except Exception:       # not a language the rig speaks: keep the one we have
            return
        self.lang, self.words = lang, words
        texts = fixed_phrases(words)
        with self._cond:
            self._ahead = collections.deque((lang, t) for t in texts)
            self._cond.notify_all()

    def counts(self) -> Dict[str, int]:
        """What the voice did so far: lines ``said``, ``dropped`` (not ready in time) and
        phrases ``rendered`` (not found in the cache)."""
        return {"said": self.said, "dropped": self.dropped, "rendered": self.rendered}

    # The render loop's side -------------------------------------------------------------------
    def hear(self, prev, board, lang=None) -> Optional[str]:
        """Say what ``board`` calls for after ``prev`` (:func:`moments`), in ``lang`` (default:
        the one in use); returns the phrase asked for, or None.  Never waits."""
        if not self.available:
            return None
        if lang is not None:
            self.use_language(lang)
        moment = chosen(moments(prev, board))
        if moment is None or self.words is None:
            return None
        text = phrase(moment, self.words)
        if text:
            self.speak(text)
        return text

    def speak(self, text: str) -> None:
        """Say ``text`` now if it is loaded, else as soon as the worker has it (within
        :data:`FRESH_S`); any line asked for earlier and not yet said is dropped."""
        if not self.available:
            return
        key = (self.lang, text)
        with self._cond:
            sound = self._loaded.get(key)
            if sound is not None:
                self._loaded.move_to_end(key)
                self._urgent = self._ready = None
            else:
                self._urgent = (self.lang, text, self.clock() + self.fresh_s)
                self._ready = None
                self._cond.notify_all()
        if sound is not None:
            self._play(sound)

    def poll(self) -> None:
        """Play the phrase the worker has just made ready, if it is still fresh."""
        if self._ready is None:
            return
        with self._cond:
            ready, self._ready = self._ready, None
        if ready is None:
            return
        sound, text, deadline = ready
        if self.clock() <= deadline:
            self._play(sound)
        else:
            self.dropped += 1
            log.debug("voice: a phrase came %.2f s late; not said", self.clock() - deadline)

    def _play(self, sound) -> None:
        try:
            self.player(sound)
            self.said += 1
        except Exception as e:      # an unplugged device must not stop the screen
            log.debug("voice: playing failed (%s)", e)

    # The worker -------------------------------------------------------------------------------
    def _work(self) -> None:
        _lower_priority()
        while True:
            with self._cond:
                while not self._stop and self._urgent is None and not self._ahead:
                    self._cond.wait()
                if self._stop:
                    return
                if self._urgent is not None:
                    job, urgent = self._urgent, True
                else:
                    job, urgent = self._ahead.popleft(), False
                self._working = True
            lang, text = job[0], job[1]
            sound = self._make(lang, text)
            with self._cond:
                self._working = False
                if urgent and self._urgent is job:
                    self._urgent = None
                    if sound is not None:
                        self._ready = (sound, text, job[2])
                    else:
                        self.dropped += 1

    def idle(self) -> bool:
        """Whether the worker has nothing to do (the fixed phrases rendered; tests and the
        bench wait for it)."""
        with self._cond:
            return not self._working and not self._ahead and self._urgent is None

    def _make(self, lang, text):
        """The loaded sound of ``text`` in ``lang``: from memory, the cache, or rendered now.
        None when it cannot be made (logged once)."""
        key = (lang, text)
        with self._cond:
            if key in self._loaded:
                return self._loaded[key]
        settings = self.settings(lang)
        cache_key = VoiceCache.key(lang, settings, text)
        try:
            path = self.cache.get(cache_key)
            if path is None:
                path = self.cache.put(cache_key, lambda p: self.renderer(settings, text, p))
                self.rendered += 1
            sound = self.loader(path)
        except Exception as e:   # timeout, espeak-ng failing, a full disk, a bad file
            if not self._failed_once:
                self._failed_once = True
                detail = getattr(e, "stderr", None)
                log.warning("voice: could not render a phrase (%s%s); the rig goes on, saying "
                            "only what it can", type(e).__name__,
                            (": " + detail.decode("utf-8", "replace").strip()[:200])
                            if isinstance(detail, bytes) and detail.strip() else "")
            return None
        with self._cond:
            self._loaded[key] = sound
            while len(self._loaded) > LOADED_MAX:
                self._loaded.popitem(last=False)
        return sound

    def _pygame_sound(self, path):
        import pygame
        sound = pygame.mixer.Sound(file=str(path))
        sound.set_volume(self.volume)
        return sound

    def _play_on_channel(self, sound) -> None:
        if self.channel is not None:
            self.channel.play(sound)       # on its own channel: stops the line still speaking


def cache_folder(configured, environ=None) -> Path:
    """The cache folder: ``configured``, except that the default follows ``$XDG_CACHE_HOME``
    when it is set (``$XDG_CACHE_HOME/cleptomano/voice``)."""
    env = os.environ if environ is None else environ
    configured = Path(configured).expanduser()
    xdg = env.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg) and configured == Path(DEFAULT_CACHE_DIR).expanduser():
        return Path(xdg) / "cleptomano" / "voice"
    return configured


def _lower_priority(nice=WORKER_NICE) -> None:
    """Lower this thread's CPU priority (Linux: a thread has its own nice value, and the
    espeak-ng runs it starts inherit it), so rendering never competes with the referee and the
    buzzer on a Pi's few cores.  Best effort: elsewhere the thread keeps its priority."""
    try:
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid)
                                                  + nice))
    except (AttributeError, OSError):
        pass


def voice_for(options, sounds) -> Optional[Voice]:
    """The display's voice for ``options`` (:class:`rig.display.window.DisplayOptions`) with the
    open ``sounds`` (:class:`rig.display.sounds.SoundBank`), started; None when it is off (no
    voice options, ``voice`` false, quiet, no audio, no espeak-ng)."""
    vo = getattr(options, "voice", None)
    if vo is None or not getattr(vo, "enabled", False) or options.quiet:
        return None
    if not sounds.available:
        log.debug("voice: off (no audio device): the sounds said so")
        return None
    channel = sounds.voice_channel()
    if channel is None:
        return None
    voice = Voice(vo.cache_dir, speed_wpm=vo.speed_wpm, volume=vo.volume,
                  cache_mb=vo.cache_mb, spanish=vo.spanish, channel=channel)
    # The table's language comes with the first snapshot (its ``language``), moments after
    # the display starts: the fixed phrases are rendered for it then.
    return voice if voice.open(getattr(options, "language", None)) else None


@dataclass(frozen=True)
class VoiceOptions:
    """The voice's settings as the display process gets them (picklable): from ``[sound]``."""
    enabled: bool = True
    cache_dir: str = DEFAULT_CACHE_DIR
    cache_mb: int = DEFAULT_CACHE_MB
    speed_wpm: int = 165
    volume: float = 1.0
    spanish: str = "es-419"

    @classmethod
    def from_config(cls, sound, environ=None) -> "VoiceOptions":
        """From a :class:`rig.shell.config.SoundConfig` (``[sound]``); the default cache folder
        follows ``$XDG_CACHE_HOME`` when it is set (the systemd unit sets it)."""
        return cls(enabled=bool(sound.voice),
                   cache_dir=str(cache_folder(sound.voice_cache, environ)),
                   cache_mb=int(sound.voice_cache_mb), speed_wpm=int(sound.voice_speed_wpm),
                   volume=float(sound.voice_volume), spanish=str(sound.voice_es))

