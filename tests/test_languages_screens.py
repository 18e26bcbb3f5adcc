"""Every sample screen of every game, drawn in every language and in the pseudo-locale (English
accented and 40 % longer) at 800x480: no text cut (``kit.clips()``), none drawn below the
legibility floor where the English was drawn larger (``kit.fits()``: a longer translation must
not shrink a text the English drew legibly; a screen fits as many texts in every language as in
English, since they are paired in drawing order), and in the pseudo-locale no plain English words
drawn (a word that is not accented did not come from a catalog)."""

import re

import pytest

from rig.draw import kit
from rig.display.parts import every_part
from rig.words import LANGUAGES, PSEUDO

SIZE = (800, 480)
LANGS = tuple(LANGUAGES) + (PSEUDO,)
# Two plain lower-case English words in a row: words the pseudo-locale would have accented.
_PLAIN = re.compile(r"\b[a-z]{3,}\s+[a-z]{3,}\b")


def _shots():
    out = []
    for g, samples in every_part("samples"):
        for name in samples.SHOTS:
            out.append((g.name, name))
    from rig.display import service      # the rig's own: the service mode (issue 31)
    out += [("rig", name) for name in service.SHOTS]
    return out


SHOTS = _shots()


@pytest.fixture(scope="module")
def pygame():
    pg = kit.load_pygame()
    yield pg
    kit.use_words("en")


_ENGLISH = {}


def _english(pg, game, name):
    """The English drawing of a shot, made once for every language's comparison."""
    if (game, name) not in _ENGLISH:
        _ENGLISH[game, name] = _draw(pg, game, name, "en")
    return _ENGLISH[game, name]


def _draw(pg, game, name, lang, monkeypatch=None):
    from rig.display.samples import shot_of
    draw, thing = shot_of(name)
    kit.use_words(lang)
    kit.clips()
    kit.fits()
    drawn = []
    real = kit.render_text

    def recording(text, size, colour):
        drawn.append(text)
        return real(text, size, colour)

    kit.render_text = recording
    try:
        surface = pg.Surface(SIZE)
        draw(surface, thing)
    finally:
        kit.render_text = real
    return kit.clips(), kit.fits(), drawn


def _count_diff(fits, english):
    """The texts one drawing fitted beyond the other's last (the first three)."""
    n = min(len(fits), len(english))
    return [t[0] for t in (fits[n:] or english[n:])[:3]]


@pytest.mark.parametrize("lang", LANGS)
def test_no_sample_screen_clips_in_any_language(pygame, lang):
    problems = []
    for game, name in SHOTS:
        _, english, _ = _english(pygame, game, name)
        clips, fits, _ = _draw(pygame, game, name, lang)
        problems += ["%s %s: %s %r" % (game, name, why, text) for why, text in clips]
        if len(fits) != len(english):
            # A longer translation wrapped onto more lines fits more texts than the English, so
            # they cannot be paired in drawing order: then no text narrowed below the floor may
            # be smaller than the smallest the English drew on that screen.
            smallest = min((size for _, size, _, _ in english), default=0)
            for text, size, floor, narrowed in fits:
                if narrowed and size < floor and size < smallest:
                    problems.append("%s %s: %r drawn at %d px (floor %d; the English's smallest "
                                    "%d; %r)" % (game, name, text, size, floor, smallest,
                                                 _count_diff(fits, english)))
            continue
        for (text, size, floor, narrowed), (en_text, en_size, _, _) in zip(fits, english):
            if narrowed and size < floor and size < en_size:
                problems.append("%s %s: %r drawn at %d px (floor %d; the English %r at %d)"
                                % (game, name, text, size, floor, en_text, en_size))
    assert not problems, "%d texts do not fit in %s:\n%s" % (
        len(problems), lang, "\n".join(problems[:40]))


def test_the_pseudo_locale_finds_no_plain_english_on_any_screen(pygame):
    leaks = []
    for game, name in SHOTS:
        _, _, drawn = _draw(pygame, game, name, PSEUDO)
        leaks += ["%s %s: %r" % (game, name, text) for text in drawn if _PLAIN.search(text)]
    assert not leaks, "%d texts drawn in the pseudo-locale are not from a catalog:\n%s" % (
        len(leaks), "\n".join(leaks[:40]))
