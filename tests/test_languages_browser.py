"""Two phones, two languages, one table, in a real headless Chromium (issue 22).

Ana's phone asks for Spanish (its browser's Accept-Language, ``es-ES``), Ben's for French
(``fr-FR``); Caro plays Stolen Paintings from a Romanian phone.  They play a Stop Thief! turn
together, then a round of Stolen Paintings to its ballot and reveal, each page in its own
language (``<html lang>``, its buttons, the calls the rig pushes it) from the same game host,
whose log stays English.  Every expected word is read from the catalogs
(:func:`words_for`), so the test names the English and checks each language's translation.
"""

import re

import pytest

from rig.shell.config import StolenPaintingsConfig, StopThiefConfig
from rig.words import LANGUAGES, Words, translations
from sim import phone as browser
from sim.gametable import GameTable, tap

pytestmark = [pytest.mark.skipif(browser.cannot_exist() is not None,
                                 reason=str(browser.cannot_exist())),
              pytest.mark.heavy]

LOCALE = {"es": "es-ES", "fr": "fr-FR", "ro": "ro-RO"}
EXHIBITION_S = 5


@pytest.fixture(scope="module")
def chromium():
    with browser.Browser() as b:
        yield b


def words_for(english, lang, domains=("rig", "stop_thief", "stolen_paintings")):
    """The words the catalogs give in ``lang`` for the entry whose English is ``english`` (up
    to its first ``{field}``: the part a page shows before a name)."""
    for domain in domains:
        tr = translations(domain, "en")
        for code in tr._catalog:
            if isinstance(code, tuple) or not code:
                continue
            if tr.gettext(code).split("{")[0].rstrip() == english:
                return Words(lang).template(code).split("{")[0].rstrip()
    raise AssertionError("no catalog entry says %r in English" % english)


def button(english, lang):
    return '#controls button:text-is("%s")' % words_for(english, lang)


def pair(phone, rig, name, lang):
    """Pair ``phone`` as ``name``: its page greets it in ``lang`` before any word is typed."""
    phone.goto(rig.url)
    phone.wait("#pair h2", text=words_for("Play from this phone", lang))
    assert phone.lang() == lang
    phone.fill("#pair-code", rig.code).fill("#pair-name", name)
    phone.click('#pair button[type="submit"]')
    phone.gone("#pair")
    return phone


def page_text(phone):
    return " ".join(phone.texts("body"))


def test_a_spanish_and_a_french_phone_play_stop_thief_and_stolen_paintings(tmp_path, chromium):
    assert set(LOCALE) < set(LANGUAGES)
    recordings = tmp_path / "recordings"
    recordings.mkdir()

    # --- Stop Thief!: Ana (es) gets a clue and ends her turn; Ben (fr) gets his ------------
    with GameTable(recordings, "stop-thief", ("Ana", "Ben"), seed=7,
                   stop_thief=StopThiefConfig()) as rig:
        ana = pair(chromium.phone("lang-ana", locale=LOCALE["es"]), rig, "Ana", "es")
        ben = pair(chromium.phone("lang-ben", locale=LOCALE["fr"]), rig, "Ben", "fr")
        ana.click(button("Get a clue", "es"))
        ana.wait("ol.clues li")
        kind = rig.host.game.case.clues[-1].kind
        for phone, lang in ((ana, "es"), (ben, "fr")):     # what the clue means, each its way
            meaning = Words(lang).say("stop_thief.clue.%s" % kind)
            phone.wait("ol.clues li")
            assert any(meaning in li for li in phone.texts("ol.clues li")), (
                meaning, phone.texts("ol.clues li"), kind)
        ana.click(button("End the turn", "es"))
        ben.click(button("Get a clue", "fr"))
        assert words_for("Get a clue", "es") != words_for("Get a clue", "fr")
        for phone, lang, other in ((ana, "es", "fr"), (ben, "fr", "es")):
            assert phone.lang() == lang
            text = page_text(phone)
            assert words_for("End the turn", lang) in text
            assert words_for("End the turn", other) not in text
            assert "Get a clue" not in text and "End the turn" not in text
            assert phone.errors() == []
        assert any("Ben" in line for line in rig.host.log_lines)
        assert all(re.search(r"[áéíóúñçășț]", line) is None for line in rig.host.log_lines
                   if "clue" in line.lower()), "the log stays English"

    # --- Stolen Paintings: Ana (es) steals, Ben (fr) and Caro (ro) mark: the ballot -------
    stolen, marks = [2, 6], {"Ben": [3, 5], "Caro": [6]}      # Ben finds none
    with GameTable(recordings, "stolen-paintings", ("Ana", "Ben", "Caro"),
                   stolen_paintings=StolenPaintingsConfig(exhibition_s=EXHIBITION_S)) as rig:
        langs = {"Ana": "es", "Ben": "fr", "Caro": "ro"}
        phones = {p: pair(chromium.phone("lang-sp-" + p, locale=LOCALE[lang]), rig, p, lang)
                  for p, lang in langs.items()}
        phones["Ana"].click(button("Start the exhibition", "es"))
        for p, phone in phones.items():
            phone.wait("#board .big", text=words_for("Detectives, close your eyes", langs[p]),
                       timeout_s=EXHIBITION_S + 10)
        tap(phones["Ana"], stolen)
        phones["Ana"].click(button("Send (this is final)", "es"))
        for p in ("Ben", "Caro"):
            tap(phones[p], marks[p])
            phones[p].click(button("Send my marks", langs[p]))
        heads = {}
        for p, phone in phones.items():
            # The reveal, each phone in its own language: "Round 1: Ana stole paintings 2 and 6"
            template = Words(langs[p]).template("stolen_paintings.phone.reveal_head", len(stolen))
            heads[p] = template.split("{paintings}")[0].format(round=1, thief="Ana").strip()
            phone.wait("#board p.reveal-head", text=heads[p])
            assert phone.lang() == langs[p]
            assert phone.errors() == []
        assert len(set(heads.values())) == 3
        # Ben found none: each phone says it with its language's negation (issue 30)
        none = {"es": "y no encontró ninguno", "fr": "et n’en a trouvé aucun",
                "ro": "și nu a identificat niciuna"}
        for p, phone in phones.items():
            ben = [line for line in phone.texts("#board .reveal li") if line.startswith("Ben")]
            assert len(ben) == 1 and none[langs[p]] in ben[0], (p, ben)
