"""Canine Kleptomaniacs' dice roll sound, synthesised with :mod:`rig.draw.synth`.

A rattle: the die's knocks against the tray come ever closer together as it settles, then one
last clack.  The knocks' timing and pitch are fixed (no randomness at play time), so every roll
sounds the same and a test can check the buffer.  When it plays is the game's decision (its
rules return :class:`~rig.core.gamekit.Sound` effects, :func:`rig.games.canine.rules.game.sounds`);
the final scores reuse the rig's fanfare.
"""

from ...draw.synth import SAMPLE_RATE, note, silence, to_pcm

#: (seconds after the previous knock, pitch in Hz, loudness) for each knock of the rattle.
KNOCKS = ((0.0, 1250, 1.0), (0.085, 980, 0.8), (0.07, 1420, 0.75), (0.058, 1100, 0.6),
          (0.048, 1320, 0.5), (0.04, 1040, 0.4), (0.034, 1200, 0.3), (0.03, 1150, 0.22))
CLACK_S = 0.09
TAIL_S = 0.12


def _knock(freq_hz, rate, amp):
    """One hard knock: a bright tone dying within a few milliseconds, with an octave on top."""
    low = note(freq_hz, 0.03, rate, "sine", decay=160.0, amp=amp)
    high = note(freq_hz * 2.7, 0.03, rate, "sine", decay=260.0, amp=amp * 0.5)
    return [a + b for a, b in zip(low, high)]


def synthesize_roll(sample_rate=SAMPLE_RATE):
    """The dice roll as mono signed 16-bit samples at ``sample_rate`` (8000-96000 Hz)."""
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, int) or \
            not 8000 <= sample_rate <= 96000:
        raise ValueError("sample rate %r is not usable; give a whole number of Hz from 8000 to "
                         "96000 (22050 is plenty)" % (sample_rate,))
    rate = sample_rate
    samples = []
    for gap_s, freq_hz, amp in KNOCKS:
        samples += silence(gap_s, rate)
        samples += _knock(freq_hz, rate, amp)
    samples += silence(CLACK_S, rate)
    samples += note(620, 0.06, rate, "square", decay=70.0, amp=0.9)   # the die comes to rest
    samples += silence(TAIL_S, rate)
    return to_pcm(samples, rate)



def extra_sounds():
    """The face's one way in (README "Adding a game"): the sounds this game brings beyond the
    rig's own, as name -> ``make(sample_rate)``: its own roll of the die, in place of the dice
    game's rattle."""
    return {"dice": synthesize_roll}
