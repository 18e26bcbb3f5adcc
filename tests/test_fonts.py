"""Names and texts render in every language: the screen's font (pygame's built-in FreeSans Bold,
the kit's only font) has a glyph for every character of every catalog's words, the letters the
tables' names use (á é í ó ú ñ ü ç ă â î ș ț and the old cedilla forms ş ţ people still type),
and what the languages' number and list formats put between words (Babel: French groups digits
with a narrow no-break space)."""

import pytest
from babel.messages.pofile import read_po

from rig import catalogs
from rig.draw import kit
from rig.words import LANGUAGES, Words

NAMES = "áéíóúñüçăâîșțşţÁÉÍÓÚÑÜÇĂÂÎȘȚŞŢ¡¿«»’…·"


@pytest.fixture(scope="module")
def font():
    kit.load_pygame()
    return kit.get_font(32)


def _catalog_characters():
    chars = set()
    for po in catalogs.po_files():
        with open(po, "rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                for s in strings:
                    chars.update(s or "")
    return chars


def _missing(font, chars):
    """The characters of ``chars`` the font has no glyph for: no metrics at all, the metrics of
    its "missing glyph" box (what it draws for a Chinese character), or ink where a space
    should be blank (a no-break space drawn as that box)."""
    box = font.metrics("\u4e2d")[0]
    out = []
    for c in sorted(set(chars)):
        m = font.metrics(c)[0]
        if m is None or (m == box and c != "\u4e2d") or (c.isspace() and m[1] > m[0]):
            out.append(c)
    return out


def test_the_screen_font_has_every_letter_the_tables_names_use(font):
    assert _missing(font, NAMES) == []


def test_the_screen_font_has_every_character_of_every_catalog(font):
    chars = _catalog_characters()
    assert len(chars) > 60
    assert _missing(font, kit.as_text("".join(sorted(chars)), limit=10 ** 6)) == []


def test_the_pseudo_locale_draws_with_the_screen_font(font):
    from rig.words import PSEUDO, pseudo
    every = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert _missing(font, pseudo(every) + Words(PSEUDO).listing(["A", "B"])) == []


def test_numbers_and_lists_in_every_language_draw_with_the_screen_font(font):
    for lang in LANGUAGES:
        w = Words(lang)
        text = kit.as_text(w.number(1234567) + " " + w.listing(["Ana", "Ben", "Carla"]))
        assert _missing(font, text) == [], lang


def test_a_missing_glyph_is_detected(font):
    assert _missing(font, "\U0010fffd\u0e01a\u00a0 ") == ["\xa0", "\u0e01", "\U0010fffd"]


def test_the_screen_draws_the_no_break_spaces_the_languages_use_as_spaces(font):
    assert kit.as_text("15\u202f000 pts\u00a0!") == "15 000 pts !"
