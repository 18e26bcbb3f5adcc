"""Sound synthesis in code (no audio files): tones, sweeps, silences and mixes as lists of floats
in [-1, 1], and :func:`to_pcm` to turn them into mono signed 16-bit samples.

Pure (no pygame, no clock): :mod:`rig.display.sounds` builds the rig's own sounds with it, and
each game's sound module in its folder (``rig/games/<game>/sounds.py``) its own.
"""

import math
from array import array

SAMPLE_RATE = 22050
PEAK = 0.8                  # of full scale, so mixing two sounds rarely clips
_FADE_S = 0.004             # short fades at both ends: no clicks

def note(freq_hz, seconds, rate, shape="sine", decay=0.0, amp=1.0):
    """One tone as floats in [-1, 1]; ``decay`` > 0 makes it die away exponentially."""
    n = max(1, int(seconds * rate))
    out = [0.0] * n
    phase = 0.0
    step = freq_hz / rate
    for i in range(n):
        if shape == "square":
            v = 1.0 if phase < 0.5 else -1.0
            v = 0.6 * v + 0.4 * math.sin(2 * math.pi * phase)   # softened edges
        elif shape == "saw":
            v = 2.0 * phase - 1.0
        elif shape == "bright":
            x = 2 * math.pi * phase
            v = 0.7 * math.sin(x) + 0.2 * math.sin(2 * x) + 0.1 * math.sin(3 * x)
        else:
            v = math.sin(2 * math.pi * phase)
        if decay:
            v *= math.exp(-decay * i / rate)
        out[i] = amp * v
        phase += step
        phase -= int(phase)
    return out


def sweep(f0, f1, seconds, rate, cycles):
    """A siren: the pitch goes f0 -> f1 -> f0 ``cycles`` times (phase kept continuous)."""
    n = int(seconds * rate)
    out = [0.0] * n
    phase = 0.0
    for i in range(n):
        pos = (i / n) * cycles
        frac = pos - int(pos)
        tri = 1.0 - abs(2.0 * frac - 1.0)
        f = f0 + (f1 - f0) * tri
        out[i] = 0.75 * math.sin(2 * math.pi * phase) + 0.25 * (1.0 if phase < 0.5 else -1.0)
        phase += f / rate
        phase -= int(phase)
    return out


def silence(seconds, rate):
    return [0.0] * int(seconds * rate)


def mix(into, sound, at):
    """Add ``sound`` into the sample list ``into`` from sample ``at`` on (growing it)."""
    if len(into) < at + len(sound):
        into.extend([0.0] * (at + len(sound) - len(into)))
    for i, v in enumerate(sound):
        into[at + i] += v
    return into


def clack(seconds, rate, seed, pitch_hz):
    """A die hitting wood: a burst of noise (a fixed pseudo-random sequence, so the sound is
    the same every time) over a short woody tone, both dying away fast."""
    n = max(1, int(seconds * rate))
    state = seed
    out = note(pitch_hz, seconds, rate, "sine", decay=70.0, amp=0.6)
    for i in range(n):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        out[i] += (state / 0x3FFFFFFF - 1.0) * math.exp(-90.0 * i / rate)
    return out


def to_pcm(samples, rate):
    """Floats -> int16 with fades at both ends and the loudest sample at :data:`PEAK`."""
    n = len(samples)
    fade = max(1, min(n // 4, int(_FADE_S * rate)))
    top = max((abs(v) for v in samples), default=0.0) or 1.0
    scale = PEAK * 32767 / top
    pcm = array("h", bytes(2 * n))
    for i, v in enumerate(samples):
        g = 1.0
        if i < fade:
            g = i / fade
        elif i >= n - fade:
            g = (n - 1 - i) / fade
        pcm[i] = int(max(-32767, min(32767, v * scale * g)))
    return pcm
