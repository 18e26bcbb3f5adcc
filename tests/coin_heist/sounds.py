"""The coin heist's own sound: a coin spinning up and ringing on the table, in place of the
dice game's rattle for the rules' ``Sound(t, "dice")``; synthesised with
:mod:`rig.draw.synth`.  ``extra_sounds()`` is what the faces read (README "Adding a
game")."""

from rig.draw.synth import SAMPLE_RATE, note, silence, sweep, to_pcm

SPIN_S = 0.25
RING_S = 0.35


def synthesize_flip(sample_rate=SAMPLE_RATE):
    """The flip as mono signed 16-bit samples at ``sample_rate``."""
    rate = sample_rate
    samples = sweep(900, 2400, SPIN_S, rate, 40) + silence(0.05, rate)
    samples += note(3150, RING_S, rate, "sine", decay=9.0, amp=0.8)
    return to_pcm(samples, rate)


def extra_sounds():
    return {"dice": synthesize_flip}
