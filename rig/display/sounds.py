"""The rig's sounds, synthesised in code at start-up: no audio files to ship or lose.

* :func:`synthesize` (pure) builds a mono 16-bit sample buffer for one sound;
* :func:`cues` (pure) says which sounds a new snapshot calls for, compared with the last one
  (a new laser touch buzzes, each of the last 10 seconds ticks, a caught banner sounds the siren);
* :class:`SoundBank` (shell) opens pygame's mixer with a small buffer for low latency and plays
  them; if there is no audio device it logs once and stays silent.  The voice
  (:mod:`rig.display.voice`) speaks on a channel reserved for it (:meth:`SoundBank.voice_channel`).

No numpy: samples are built with :mod:`rig.draw.synth` (:mod:`array`) and handed to
``pygame.mixer.Sound(buffer=...)``.
"""

import logging
from array import array
from typing import List, Optional

from ..draw.kit import countdown_seconds, is_last_seconds
from ..draw.synth import SAMPLE_RATE, clack, mix, note, silence, sweep, to_pcm

log = logging.getLogger(__name__)

SOUNDS = ("buzz", "tick", "siren", "jingle", "fanfare", "gong", "dice")
MIXER_BUFFER = 512          # samples: ~23 ms at 22 kHz, so a touch buzzes at once
VOICE_CHANNEL = 0           # the mixer channel reserved for the voice (rig.display.voice)
PLAY_CHANNELS = 8           # channels left for the sounds: a buzz, a tick and a siren at once


def _gong(rate):
    """The exhibition's end: a low struck gong (inharmonic partials, a long fade)."""
    out = []
    for ratio, amp, decay in ((1.0, 1.0, 1.6), (2.01, 0.55, 2.4), (2.76, 0.4, 3.0),
                              (5.4, 0.2, 5.0)):
        mix(out, note(98.0 * ratio, 2.2, rate, "sine", decay=decay, amp=amp), 0)
    return out


def _dice(rate):
    """The dice roll: five dice rattling then settling, clacks ever closer and softer."""
    out = silence(0.7, rate)
    offsets = (0.0, 0.07, 0.16, 0.21, 0.30, 0.36, 0.41, 0.47, 0.51, 0.55, 0.58)
    for k, at in enumerate(offsets):
        hit = clack(0.05, rate, 7919 * (k + 1), 900 + 130 * (k % 4))
        gain = 1.0 - 0.06 * k
        mix(out, [v * gain for v in hit], int(at * rate))
    return out


def synthesize(name: str, sample_rate: int = SAMPLE_RATE) -> array:
    """The named sound (one of :data:`SOUNDS`) as mono signed 16-bit samples at ``sample_rate``.

    Pure, so tests check lengths and peaks without audio hardware.  Raises ValueError for an
    unknown name or a sample rate outside 8000-96000 Hz."""
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or \
            not 8000 <= sample_rate <= 96000:
        raise ValueError("sample rate %r is not usable; give a whole number of Hz from 8000 to "
                         "96000 (22050 is plenty)" % (sample_rate,))
    rate = sample_rate
    if name == "buzz":          # a laser touch: harsh, short, low
        s = note(140, 0.30, rate, "saw", decay=3.0)
    elif name == "tick":        # each of the last 10 seconds: a dry click
        s = note(1800, 0.045, rate, "sine", decay=60.0)
    elif name == "siren":       # caught: two wee-woo sweeps
        s = sweep(600, 1250, 1.4, rate, cycles=2)
    elif name == "jingle":      # escaped: a rising arpeggio
        s = []
        for f in (523.25, 659.25, 783.99, 1046.5):
            s += note(f, 0.11, rate, "bright", decay=6.0)
        s += note(1046.5, 0.25, rate, "bright", decay=5.0)
    elif name == "fanfare":     # the match winner
        s = []
        for f, d in ((392.0, 0.14), (392.0, 0.14), (523.25, 0.14), (659.25, 0.14)):
            s += note(f, d, rate, "square", decay=3.0)
            s += silence(0.02, rate)
        s += note(783.99, 0.55, rate, "square", decay=1.5)
        s += note(659.25, 0.16, rate, "square", decay=3.0)
        s += note(783.99, 0.6, rate, "square", decay=1.2)
    elif name == "gong":        # another game's countdown is over (Stolen Paintings)
        s = _gong(rate)
    elif name == "dice":        # the rig rolls dice (the chest heist)
        s = _dice(rate)
    else:
        raise ValueError("%r is not a rig sound; use one of %s" % (name, ", ".join(SOUNDS)))
    return to_pcm(s, rate)


_BANNER_SOUNDS = {"caught": "siren", "escaped": "jingle", "round": "jingle",
                  "match": "fanfare", "title": "fanfare"}


def cues(prev, board) -> List[str]:
    """The sounds ``board`` calls for, given the snapshot shown before it (``prev``, or None).

    A laser touch buzzes, each new second of the last 10 ticks, and a new banner plays its
    sound (caught: siren; escaped or round: jingle; match or title: fanfare).  Pure."""
    out = []
    if board is None:
        return out
    phase = getattr(board, "phase", None)
    banner = getattr(board, "banner", None)
    old_banner = getattr(prev, "banner", None) if prev is not None else None
    if banner is not None and banner != old_banner:
        sound = _BANNER_SOUNDS.get(getattr(banner, "kind", None))
        if sound:
            out.append(sound)
    if phase == "turn" and prev is not None and getattr(prev, "phase", None) == "turn" and \
            getattr(prev, "thief", None) == getattr(board, "thief", None):
        t_new, t_old = getattr(board, "touches", 0), getattr(prev, "touches", 0)
        if isinstance(t_new, int) and isinstance(t_old, int) and t_new > t_old:
            out.append("buzz")
        remaining = getattr(board, "remaining_s", None)
        n_new = countdown_seconds(remaining)
        n_old = countdown_seconds(getattr(prev, "remaining_s", None))
        if is_last_seconds(remaining) and n_new and n_new != n_old:
            out.append("tick")
    return out


class SoundBank:
    """Plays the rig's sounds through pygame's mixer (shell).

    ``quiet=True`` never opens the mixer (late games, tests).  ``open()`` never raises: without
    an audio device it logs once and every ``play`` is a no-op.  ``extra`` (name ->
    ``make(sample_rate)``) adds a game's own sounds, or replaces one of the rig's."""

    def __init__(self, quiet: bool = False, volume: float = 0.8, sample_rate: int = SAMPLE_RATE,
                 buffer: int = MIXER_BUFFER, extra=None):
        self.extra = dict(extra or {})    # name -> make(rate) -> samples: a game's own sounds
        self.quiet = bool(quiet)
        self.volume = max(0.0, min(1.0, float(volume)))
        self.sample_rate = sample_rate
        self.buffer = buffer
        self.available = False
        self._sounds = {}
        self._opened = False

    def open(self) -> bool:
        """Open the mixer and synthesise the sounds; True when sound works."""
        if self._opened:
            return self.available
        self._opened = True
        if self.quiet:
            log.info("sound: quiet mode, no sounds")
            return False
        try:
            import pygame
            why = self._init_mixer(pygame)
            if why is None:
                rate, size, channels = pygame.mixer.get_init()
                makers = {name: (lambda r, n=name: synthesize(n, r)) for name in SOUNDS}
                makers.update(self.extra)
                for name, make in makers.items():
                    pcm = make(rate)
                    if channels > 1:
                        pcm = _spread(pcm, channels)
                    sound = pygame.mixer.Sound(buffer=pcm.tobytes())
                    sound.set_volume(self.volume)
                    self._sounds[name] = sound
                self.available = True
                log.info("sound: mixer open at %d Hz, %d channel(s), buffer %d", rate, channels,
                         self.buffer)
        except Exception as e:  # pygame.error, missing SDL_mixer...
            why = str(e)
        if not self.available:
            self._sounds = {}
            log.warning("sound: no audio device (%s); the rig runs silent. Set "
                        "SDL_AUDIODRIVER (e.g. alsa) or plug in a speaker to hear it.", why)
        return self.available

    def _init_mixer(self, pygame):
        """Open the mixer: None, or why it could not.  ALSA's own lines on stderr are kept out
        of the terminal; the last one ("Unknown PCM default") joins the reason."""
        from .quiet import alsa_chatter
        pygame.mixer.pre_init(self.sample_rate, -16, 1, self.buffer)
        with alsa_chatter() as alsa:
            try:
                # allowedchanges=0: SDL converts to the device, so the buffers' format is ours.
                pygame.mixer.init(self.sample_rate, -16, 1, self.buffer, allowedchanges=0)
                return None
            except Exception as e:      # pygame.error: no device
                why = str(e)
        return why + ("; " + alsa[-1] if alsa else "")

    def voice_channel(self):
        """A mixer channel of the voice's own (:mod:`rig.display.voice`), reserved so that
        :meth:`play` never picks it: the buzzer and the ticks always find a free channel of
        their own, and a voice line never cuts one.  None without sound."""
        if not self.available:
            return None
        try:
            import pygame
            if pygame.mixer.get_num_channels() < VOICE_CHANNEL + 1 + PLAY_CHANNELS:
                pygame.mixer.set_num_channels(VOICE_CHANNEL + 1 + PLAY_CHANNELS)
            pygame.mixer.set_reserved(VOICE_CHANNEL + 1)
            return pygame.mixer.Channel(VOICE_CHANNEL)
        except Exception as e:     # pygame.error: the mixer went away
            log.warning("sound: no channel for the voice (%s)", e)
            return None

    def set_volume(self, volume: float) -> None:
        """Play every sound at ``volume`` (0 to 1) from now on (the service mode's effects
        volume, issue 31)."""
        volume = max(0.0, min(1.0, float(volume)))
        if volume == self.volume:
            return
        self.volume = volume
        for sound in self._sounds.values():
            try:
                sound.set_volume(volume)
            except Exception:   # the mixer went away: the next open sets it again
                pass

    def play(self, name: str) -> None:
        sound = self._sounds.get(name)
        if sound is not None:
            try:
                sound.play()
            except Exception:   # a device unplugged mid-game must not stop the screen
                pass

    def close(self) -> None:
        if self.available:
            try:
                import pygame
                pygame.mixer.quit()
            except Exception:
                pass
        self.available = False
        self._sounds = {}


def _spread(pcm: array, channels: int) -> array:
    """Mono -> interleaved ``channels`` (the mixer may insist on stereo)."""
    out = array("h", bytes(2 * len(pcm) * channels))
    for c in range(channels):
        out[c::channels] = pcm
    return out


def sound_for_pattern(pattern: str) -> Optional[str]:
    """The sound for a buzzer pattern (a shared :class:`rig.core.effects.Buzz`'s), for a shell
    that plays effects directly."""
    return {"touch": "buzz", "caught": "siren", "escaped": "jingle", "refused": "buzz"}.get(pattern)
