"""Stop Thief!'s seven clue sounds are unmistakable: their spectra and envelopes are compared.

Each sound is measured as a listener would tell it apart: where its energy lies (seven octave
bands), how bright it is (spectral centroid), how noisy or tonal (spectral flatness) and how
much of it is silence.  Every pair must differ clearly in at least two of these, and a quieter
copy in background hiss must still be recognised as itself.
"""

import itertools

import numpy as np
import pytest

from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.thief import CLUES
from rig.core.gamekit import Sound
from rig.games.stop_thief.sounds import CLUE_SOUNDS, synthesize_clue
from rig.games.stop_thief.rules.calls import words
from rig.games.stop_thief.rules.rules import SOUND_OF_CLUE, sounds_for
from rig.display.sounds import SAMPLE_RATE

RATE = SAMPLE_RATE
EDGES = (50, 200, 400, 800, 1600, 3200, 6400, 11025)
WIN, HOP = 1024, 256


@pytest.fixture(scope="module")
def pcm():
    return {name: synthesize_clue(name) for name in CLUE_SOUNDS}


def measure(samples):
    """(band levels in dB of the total, floored at -40 dB; centroid in Hz; flatness 0-1;
    silent fraction)."""
    s = np.asarray(samples, dtype=float) / 32767
    count = 1 + (len(s) - WIN) // HOP
    frames = np.stack([s[i * HOP:i * HOP + WIN] * np.hanning(WIN) for i in range(count)])
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2
    freq = np.fft.rfftfreq(WIN, 1 / RATE)
    total = power.sum(axis=0)
    bands = np.array([total[(freq >= a) & (freq < b)].sum() for a, b in zip(EDGES, EDGES[1:])])
    # Below -40 dB of the whole, a band is not heard at the table: all such bands are equal.
    levels = np.maximum(-40.0, 10 * np.log10(bands / bands.sum() + 1e-12))
    centroid = float((total * freq).sum() / total.sum())
    loud = power.sum(axis=1) > power.sum(axis=1).max() * 1e-3
    flatness = float(np.mean([np.exp(np.mean(np.log(p[1:] + 1e-12))) / np.mean(p[1:])
                              for p in power[loud]]))
    rms = np.sqrt(np.convolve(s ** 2, np.ones(110) / 110, "same"))[::110]     # 5 ms steps
    silent = float(np.mean(rms < 0.1 * rms.max()))
    return levels, centroid, flatness, silent


def differences(a, b):
    """The ways two measured sounds differ clearly, in words."""
    (la, ca, fa, sa), (lb, cb, fb, sb) = a, b
    found = []
    if np.mean(np.abs(la - lb)) >= 8.0:
        found.append("energy in other bands (%.0f dB apart on average)" % np.mean(np.abs(la - lb)))
    if max(ca, cb) / min(ca, cb) >= 1.4:
        found.append("brightness (centroid %.0f vs %.0f Hz)" % (ca, cb))
    if max(fa, fb) / min(fa, fb) >= 3.0:
        found.append("noisiness (flatness %.4f vs %.4f)" % (fa, fb))
    if abs(sa - sb) >= 0.25:
        found.append("silences (%.0f%% vs %.0f%% silent)" % (100 * sa, 100 * sb))
    return found


def test_every_pair_of_clue_sounds_differs_in_at_least_two_ways(pcm):
    measured = {name: measure(samples) for name, samples in pcm.items()}
    for a, b in itertools.combinations(CLUE_SOUNDS, 2):
        found = differences(measured[a], measured[b])
        assert len(found) >= 2, "%s and %s differ only in %s" % (a, b, found or "nothing")


def test_each_clue_sound_is_recognised_quieter_and_in_table_noise(pcm):
    """Nearest match on the band profile, brightness and silences (flatness would only
    measure the hiss in a tune's empty bins), for a copy at a third of the volume with hiss
    30 dB below it."""
    rng = np.random.default_rng(7)

    def vector(samples):
        levels, centroid, _, silent = measure(samples)
        return np.concatenate([levels, [20 * np.log10(centroid), 20 * silent]])

    reference = {name: vector(samples) for name, samples in pcm.items()}
    for name, samples in pcm.items():
        quiet = np.asarray(samples, dtype=float) / 3
        noise = rng.normal(0, np.sqrt(np.mean(quiet ** 2)) * 10 ** (-30 / 20), len(quiet))
        heard = vector(np.clip(quiet + noise, -32767, 32767))
        distance = {other: np.linalg.norm(heard - ref) for other, ref in reference.items()}
        nearest = sorted(distance, key=distance.get)
        assert nearest[0] == name, (name, distance)
        assert distance[nearest[1]] > 2 * distance[name], (name, distance)


def test_the_clue_sounds_are_short_full_and_repeatable(pcm):
    for name, samples in pcm.items():
        assert samples.typecode == "h"
        assert 1.0 <= len(samples) / RATE <= 2.5, name                 # short enough to replay
        peak = max(abs(v) for v in samples) / 32767
        assert 0.75 <= peak <= 0.8, name                           # as loud as the rig's others
        assert samples[0] == 0 and samples[-1] == 0, name              # no click at the ends
    assert synthesize_clue("alarm") == pcm["alarm"]
    assert len(synthesize_clue("breaking glass", 11025)) == pytest.approx(
        len(pcm["breaking glass"]) / 2, abs=4)


@pytest.mark.parametrize("name, rate, words", [
    ("siren", RATE, "'siren' is not a clue sound; use one of alarm, footsteps"),
    ("alarm", 1000, "sample rate 1000 is not usable"),
    ("alarm", 22050.0, "sample rate 22050.0 is not usable"),
])
def test_bad_sound_requests_are_one_clear_error(name, rate, words):
    with pytest.raises(ValueError, match=words):
        synthesize_clue(name, rate)


def test_every_clue_kind_has_its_sound_and_effects_call_for_them():
    assert sorted(SOUND_OF_CLUE) == sorted(CLUES)
    assert sorted(SOUND_OF_CLUE.values()) == sorted(CLUE_SOUNDS)
    effects = [ev.NewThief(0.0, 1, "Sal", 3000), ev.TurnBegan(0.0, "Ana"),
               ev.ClueGiven(1.0, "window", 1, "Ana"), ev.CrimeWave(1.0, 1000, 4000),
               ev.ClueGiven(2.0, "window", 1, "Ana", replay=True),
               ev.ClueGiven(3.0, "stayed", 2, "Ben")]
    assert sounds_for(effects) == [Sound(0.0, "alarm"), Sound(1.0, "breaking glass"),
                                   Sound(2.0, "breaking glass"), Sound(3.0, "hold music")]
    assert [words(s) for s in sounds_for(effects)] == [None] * 4     # a sound says nothing
