"""Stop Thief!'s seven clue sounds, synthesised in code like the rig's other sounds.

Each is built to be told apart at a noisy table by what it is made of, not only by its name:

==================  ====================================================================
alarm               a burglar bell: bright inharmonic partials struck 16 times a second
footsteps           four low heel-and-toe thuds with silence between them
loudspeaker         a muffled voice: a buzzy 120 Hz voice through a wall, in syllables
creaking door       stick-slip: a train of clicks ringing a wooden resonance, its rate gliding
breaking glass      a bright crash of noise above 2.5 kHz, then scattered tinkles
street commotion    traffic rumble and crowd murmur without a pause, and two car horns
hold music          a gentle tune of pure notes (the thief stayed put)
==================  ====================================================================

:func:`synthesize_clue` is pure (a fixed noise seed: the same samples every start).  Which
sound a step calls for is the game's decision (its rules return
:class:`~rig.core.gamekit.Sound` effects, :data:`rig.games.stop_thief.rules.rules.SOUND_OF_CLUE`);
the rig's :class:`~rig.display.sounds.SoundBank` plays the buffers.
"""

import math
import random

from ...draw.synth import SAMPLE_RATE, note, silence, to_pcm
from ...core.msg import N_
from .rules.rules import SOUND_OF_CLUE

#: The sound bank's names (what the rules' Sound effects name), not words: the table hears
#: them; their words are the catalog's ``stop_thief.sound.<kind>``.
CLUE_SOUNDS = ("alarm", "footsteps", "loudspeaker", "creaking door",  # not words: sound names
               "breaking glass", "street commotion", "hold music")  # not words: sound names
_SEED = 1979      # the year of the first crime scanner: the noise is the same every start


# --- Building blocks ------------------------------------------------------------------------

def _biquad(samples, kind, freq_hz, q, rate):
    """A second-order filter (``kind`` lowpass, highpass or bandpass), the usual audio-EQ
    design: the sounds' colour comes from where their energy is let through."""
    w = 2 * math.pi * min(freq_hz, rate * 0.45) / rate
    alpha, cw = math.sin(w) / (2 * q), math.cos(w)
    if kind == "lowpass":
        b = ((1 - cw) / 2, 1 - cw, (1 - cw) / 2)
    elif kind == "highpass":
        b = ((1 + cw) / 2, -(1 + cw), (1 + cw) / 2)
    else:
        b = (alpha, 0.0, -alpha)
    a0 = 1 + alpha
    b0, b1, b2 = (x / a0 for x in b)
    a1, a2 = -2 * cw / a0, (1 - alpha) / a0
    out = [0.0] * len(samples)
    x1 = x2 = y1 = y2 = 0.0
    for i, x in enumerate(samples):
        y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        out[i] = y
    return out


def _noise(n, rng):
    return [rng.uniform(-1.0, 1.0) for _ in range(n)]


def _mix(into, samples, at_s, rate, gain=1.0):
    """Add ``samples`` into ``into`` starting at ``at_s`` seconds (clipped at the end)."""
    start = int(at_s * rate)
    for i, v in enumerate(samples[:max(0, len(into) - start)]):
        into[start + i] += gain * v


def _soft(samples, rate, fade_s=0.008):
    """Short fades in and out, so a note that starts or stops does not click."""
    n, fade = len(samples), max(1, int(fade_s * rate))
    return [v * min(1.0, i / fade, (n - 1 - i) / fade) for i, v in enumerate(samples)]


def _decay(samples, rate, time_s, attack_s=0.002):
    """An exponential die-away of ``time_s`` after a short linear attack."""
    attack = max(1, int(attack_s * rate))
    return [v * min(1.0, i / attack) * math.exp(-i / (time_s * rate))
            for i, v in enumerate(samples)]


# --- The seven sounds -----------------------------------------------------------------------

def _alarm(rate, rng):
    n = int(1.6 * rate)
    partials = ((1250.0, 1.0), (3450.0, 0.55), (6750.0, 0.3))
    period = rate / 16.0
    out = [0.0] * n
    for i in range(n):
        t = i / rate
        since = (i % period) / rate
        strike = min(1.0, since / 0.0015) * math.exp(-since / 0.025)
        out[i] = strike * sum(a * math.sin(2 * math.pi * f * t) for f, a in partials)
    return out


def _footsteps(rate, rng):
    out = silence(1.85, rate)
    for k in range(4):
        at = 0.05 + 0.45 * k
        heel = _decay(_biquad(_noise(int(0.09 * rate), rng), "lowpass", 260, 0.9, rate),
                      rate, 0.022)
        thump = note(85, 0.09, rate, decay=45.0)
        toe = _decay(_biquad(_noise(int(0.05 * rate), rng), "bandpass", 700, 1.2, rate),
                     rate, 0.012)
        _mix(out, heel, at, rate, 1.0)
        _mix(out, thump, at, rate, 0.8)
        _mix(out, toe, at + 0.07, rate, 0.35)
    return out


def _loudspeaker(rate, rng):
    n = int(1.8 * rate)
    voice, phase = [0.0] * n, 0.0
    syllables = [(0.05, 0.22), (0.32, 0.5), (0.56, 0.7), (0.86, 1.12), (1.2, 1.36),
                 (1.44, 1.72)]
    formants = [(650, 1100), (450, 900), (700, 1200), (400, 800), (600, 1000), (500, 850)]
    for i in range(n):
        t = i / rate
        f0 = 125 + 20 * math.sin(2 * math.pi * 0.9 * t)
        phase += f0 / rate
        phase -= int(phase)
        voice[i] = 2.0 * phase - 1.0          # a buzzy glottal source
    out = [0.0] * n
    for (t0, t1), (f1, f2) in zip(syllables, formants):
        a, b = int(t0 * rate), int(t1 * rate)
        chunk = voice[a:b]
        shaped = [x + 0.6 * y for x, y in zip(_biquad(chunk, "bandpass", f1, 4.0, rate),
                                              _biquad(chunk, "bandpass", f2, 5.0, rate))]
        m = len(shaped)
        for j, v in enumerate(shaped):
            out[a + j] += v * math.sin(math.pi * j / m)
    muffled = _biquad(_biquad(out, "lowpass", 950, 0.7, rate), "lowpass", 950, 0.7, rate)
    echo = int(0.045 * rate)                 # a tiled station: one short echo
    return [v + (0.35 * muffled[i - echo] if i >= echo else 0.0) for i, v in enumerate(muffled)]


def _creak(rate, rng):
    n = int(1.4 * rate)
    clicks, next_click = [0.0] * n, 0.0
    for i in range(n):
        t = i / rate
        if t >= next_click:
            clicks[i] = 1.0
            hz = 28 + 55 * math.sin(math.pi * min(1.0, t / 1.3))      # rises then falls
            next_click = t + (1.0 / hz) * rng.uniform(0.85, 1.15)
    wood = [x + 0.7 * y for x, y in zip(_biquad(clicks, "bandpass", 620, 14.0, rate),
                                        _biquad(clicks, "bandpass", 1480, 12.0, rate))]
    wood = _biquad(wood, "lowpass", 2200, 0.7, rate)
    fade = int(0.15 * rate)
    return [v * min(1.0, i / fade, (n - i) / fade) for i, v in enumerate(wood)]


def _glass(rate, rng):
    out = silence(1.3, rate)
    crash = _biquad(_noise(int(0.35 * rate), rng), "highpass", 2600, 0.8, rate)
    _mix(out, _decay(crash, rate, 0.07, 0.001), 0.0, rate, 1.0)
    for k in range(26):
        at = 0.04 + 1.0 * (k / 26) ** 1.6 + rng.uniform(0, 0.03)
        f = rng.uniform(3000, 8000)
        _mix(out, _soft(note(f, 0.09, rate, decay=rng.uniform(40, 80)), rate, 0.002), at, rate,
             rng.uniform(0.15, 0.45) * (1 - 0.6 * k / 26))
    return out


def _street(rate, rng):
    n = int(1.9 * rate)
    rumble = _biquad(_biquad(_noise(n, rng), "lowpass", 160, 0.7, rate), "lowpass", 160, 0.7,
                     rate)
    out = [2.0 * v for v in rumble]
    for voice in range(4):                   # a murmur of voices, each its own pace
        f = rng.uniform(350, 2200)
        pace = rng.uniform(2.5, 6.0)
        offset = rng.uniform(0, 6.28)
        murmur = _biquad(_noise(n, rng), "bandpass", f, 3.0, rate)
        for i in range(n):
            level = 0.5 + 0.5 * math.sin(2 * math.pi * pace * i / rate + offset)
            out[i] += 0.6 * murmur[i] * level
    for at in (0.35, 1.0):                   # two car horns
        horn = _soft([a + b for a, b in zip(note(415, 0.28, rate, "square"),
                                            note(523, 0.28, rate, "square"))], rate)
        _mix(out, horn, at, rate, 0.18)
    return out


def _hold_music(rate, rng):
    tune = ((523.25, 0.25), (659.25, 0.25), (783.99, 0.25), (659.25, 0.25),
            (587.33, 0.25), (698.46, 0.25), (880.0, 0.5))
    out, at = silence(sum(d for _, d in tune) + 0.1, rate), 0.0
    for f, d in tune:
        _mix(out, _soft(note(f, d, rate, decay=2.5), rate), at, rate, 1.0)
        _mix(out, _soft(note(f / 2, d, rate, decay=2.5), rate), at, rate, 0.35)
        at += d
    return out


_MAKERS = {"alarm": _alarm, "footsteps": _footsteps, "loudspeaker": _loudspeaker,
           "creaking door": _creak, "breaking glass": _glass,  # not words: sound names
           "street commotion": _street, "hold music": _hold_music}  # not words: sound names


def synthesize_clue(name, sample_rate=SAMPLE_RATE):
    """The clue sound ``name`` (one of :data:`CLUE_SOUNDS`) as mono signed 16-bit samples.

    Pure and repeatable.  Raises ValueError for an unknown name or an unusable sample rate."""
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or \
            not 8000 <= sample_rate <= 96000:
        raise ValueError("sample rate %r is not usable; give a whole number of Hz from 8000 to "
                         "96000 (22050 is plenty)" % (sample_rate,))
    maker = _MAKERS.get(name)
    if maker is None:
        raise ValueError("%r is not a clue sound; use one of %s" % (name, ", ".join(CLUE_SOUNDS)))
    return to_pcm(maker(sample_rate, random.Random(_SEED)), sample_rate)


def clue_bank():
    """Every clue sound by name, at the rig's sample rate (for a shell to load at start-up)."""
    return {name: synthesize_clue(name) for name in CLUE_SOUNDS}



#: The clue sounds the voice says too (rig/display/voice.py), in the table's language: sound
#: name -> the clue kind's meaning (the rules' ``SOUND_OF_CLUE``; the alarm also sounds for a
#: new crime), so a thief's hunter hears what a clue means without looking up.
SPOKEN = {name: N_("stop_thief.clue.%s" % kind) for kind, name in SOUND_OF_CLUE.items()}
SPOKEN_AHEAD = tuple(SPOKEN.values())


def extra_sounds():
    """The face's one way in (README "Adding a game"): the sounds this game brings beyond the
    rig's own, as name -> ``make(sample_rate)``: the seven clue sounds."""
    return {name: (lambda rate, n=name: synthesize_clue(n, rate)) for name in CLUE_SOUNDS}
