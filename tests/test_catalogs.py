"""The players' languages (README "Languages"): every code has words in English, Spanish, French
and Romanian; no player-facing literal is written outside the catalogs; codes render with each
language's plural forms, digit grouping and lists; the pseudo-locale and the phones' tables."""

import gettext
import json
import shutil
import subprocess

import pytest

from rig import catalogs
from rig.core.errors import ConfigError, IllegalMove
from rig.core.msg import Msg, from_json
from rig.words import (LANGUAGES, PSEUDO, Words, best_language, check_language, english,
                       localize, translations)
from sim import literals


@pytest.fixture(scope="module")
def used():
    return catalogs.extract_all()


def test_every_code_has_words_in_every_language(used):
    problems = catalogs.problems(used=used)
    assert problems == [], "\n".join(problems[:60]) + (
        "\n... %d more" % (len(problems) - 60) if len(problems) > 60 else "")


def test_the_four_languages_are_the_tables_and_romanian_has_three_plural_forms():
    assert list(LANGUAGES) == ["en", "es", "fr", "ro"]
    tr = translations("rig", "ro")
    assert isinstance(tr, gettext.GNUTranslations)
    assert "nplurals=3" in tr.info()["plural-forms"]
    assert [tr.plural(n) for n in (1, 2, 19, 20, 101, 120)] == [0, 1, 1, 2, 1, 2]


def test_no_player_facing_literal_is_written_outside_the_catalogs():
    found = literals.scan()
    shown = "\n".join("%s:%d: %r" % (p.relative_to(literals.ROOT), n, text)
                      for p, n, text in found[:80])
    assert not found, "%d literals a player would read are not from a catalog:\n%s" % (
        len(found), shown)


def test_a_code_is_rendered_in_each_language_with_nested_codes():
    m = Msg("rig.host.refused", reason=Msg("rig.host.full_disk"))
    said = {lang: Words(lang).text(m) for lang in LANGUAGES}
    assert said["en"].startswith("Refused: the recording is full")
    assert said["es"].startswith("Rechazado: la grabación")
    assert said["fr"].startswith("Refusé")
    assert said["ro"].startswith("Refuzat: înregistrarea")
    assert english(m) == said["en"]
    assert from_json(m.as_json()) == m


def test_numbers_and_lists_follow_the_language():
    assert Words("en").number(15000) == "15,000"
    assert Words("es").number(15000) == "15.000"
    assert Words("ro").listing(["Ana", "Ben", "Carla"]) == "Ana, Ben și Carla"
    assert Words("es").listing(["Ana", "Ben"]) == "Ana y Ben"
    assert Words("fr").listing(["Ana", "Ben"]) == "Ana et Ben"


def test_a_missing_code_falls_back_to_its_neutral_form_never_raises():
    m = Msg("rig.no_such.code", player="Ana")
    assert Words("fr").text(m) == "rig.no_such.code(player='Ana')"


def test_the_pseudo_locale_accents_and_lengthens_but_keeps_the_fields():
    m = Msg("rig.host.private_entry", player="Ana")
    en, ps = Words("en").text(m), Words(PSEUDO).text(m)
    assert "Ana" in ps and ps != en
    assert len(ps) >= 1.35 * len(en)
    assert not any(c in ps.replace("Ana", "") for c in "aeiou")


def test_refusals_carry_a_code_and_say_it_in_each_language():
    exc = IllegalMove(Msg("rig.host.full_disk"))
    assert exc.msg == Msg("rig.host.full_disk")
    assert str(exc) == "rig.host.full_disk"
    assert Words("ro").error(exc).startswith("înregistrarea")
    assert Words("en").error(ValueError("plain")) == "plain"


def test_localize_says_every_code_in_a_snapshot():
    snap = {"message": Msg("rig.host.full_disk").as_json(), "calls": [Msg("rig.host.refused",
            reason="x")], "n": 3, "name": "Ana"}
    out = localize(snap, Words("es"))
    assert out["message"].startswith("la grabación")
    assert out["calls"] == ["Rechazado: x"]
    assert out["n"] == 3 and out["name"] == "Ana"


@pytest.mark.parametrize("header, lang", [
    ("fr-CH, fr;q=0.9, en;q=0.8", "fr"), ("ro-RO,ro;q=0.9", "ro"), ("es-AR", "es"),
    ("de-DE, en;q=0.5", "en"), ("", "en"), (None, "en"), ("en;q=0.2, es;q=0.8", "es"),
    ("x" * 5000, "en"), ("fr;q=abc, ro", "ro"), ("es;q=2", "en")])
def test_the_browser_language_picks_the_phone_language(header, lang):
    assert best_language(header) == lang


def test_a_language_outside_the_four_is_refused_with_the_choices():
    with pytest.raises(ConfigError, match="choose one of en, es, fr, ro, es_AR"):
        check_language("de")


def test_a_phone_table_has_every_plural_category_of_its_language():
    w = Words("ro")
    assert set(w.plural_samples()) == {"one", "few", "other"}
    table = w.table(["rig"])
    assert table["rig.host.refused"] == "Refuzat: {reason}"


def test_message_values_are_checked():
    with pytest.raises(ValueError, match="dotted lower-case code"):
        Msg("Not a code")
    with pytest.raises(TypeError, match="allowed are"):
        Msg("rig.x.y", what=object())
    assert Msg("rig.x.y", a=1, b="c") == Msg("rig.x.y", b="c", a=1)
    assert hash(Msg("rig.x.y", a=(1, 2))) == hash(Msg("rig.x.y", a=[1, 2]))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_screen_and_the_phones_group_digits_alike():
    """The rig says numbers with Babel, a phone's page with its browser's Intl: the same
    grouping in every language (Spanish leaves 3500 ungrouped, as CLDR says)."""
    numbers = [0, 7, 999, 1000, 3500, 9999, 10000, 15000, 123456, 1234567, -3500]
    script = ("const n = %s; const out = {}; for (const l of %s) out[l] = n.map((x) => "
              "new Intl.NumberFormat(l).format(x)); console.log(JSON.stringify(out));"
              % (json.dumps(numbers), json.dumps(list(LANGUAGES))))
    intl = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True,
                                     timeout=30, check=True).stdout)
    for lang in LANGUAGES:
        assert [Words(lang).number(n) for n in numbers] == intl[lang], lang


def test_a_games_words_are_found_through_the_registry_which_the_words_never_import():
    from rig import games
    from rig.words import CatalogError
    assert games.catalog_domains()["chest_heist"] == "rig.games.chest_heist"
    said = Words("es").text(Msg("chest_heist.call.charged", skimmer=2, added=3, value=5))
    assert said == "Clonador 2 cargado con 3: ahora vale 5."
    with pytest.raises(CatalogError) as refused:
        translations("no_such_game", "es")
    assert "no_such_game" in str(refused.value) and "chest_heist" in str(refused.value)
