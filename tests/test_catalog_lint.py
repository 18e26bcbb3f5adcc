"""The catalog lint (sim/catalog_lint.py, docs/dev/words.md): every catalog passes it, and it fails
on the words players stumbled on before (issue 30), planted back as entries."""

import shutil

import pytest

from rig.core.msg import Msg
from rig.words import CHOICES, VARIANTS, Words, best_language, check_language, fallbacks
from sim import catalog_lint as lint


def test_every_catalog_passes_the_lint():
    found = lint.lint(lint.entries())
    assert found == [], "\n".join(found[:40])


# The old words, each as it was in a catalog (or as a phone rendered it), with what flags it.
OLD = [
    (("en", "rig.web.not_paired", "this phone is not paired; pair it first with the code on "
      "the rig's screen (POST /api/pair)"), "an HTTP route"),
    (("en", "rig.web.no_answer", "the referee did not answer within {seconds} s; the command "
      "may still be taken: look at GET /api/state before sending it again"), "an API path"),
    (("en", "rig.night.players_not_list", 'players {players} is not a list of names; send the '
      'players in order, e.g. "players": ["Ana", "Ben"]'), "a JSON key"),
    (("en", "rig.night.players_not_list", "players [] is not a list of names"),
     "an empty JSON list"),
    (("en", "rig.night.bad_end", 'send "end": true to end the game in progress'),
     "a JSON literal"),
    (("en", "x.brace", "send {example} or {\"roll\": 1}"), "a JSON brace"),
    (("en", "rig.web.no_such_match", "there is no match {id}; {listed_at} lists the ones "
      "recorded here"), "holds an HTTP route"),
    (("es", "stolen_paintings.screen.header", "STOLEN PAINTINGS"), "the same as English"),
    (("ro", "stolen_paintings.screen.header", "STOLEN PAINTINGS"), "the same as English"),
    (("es", "x.reveal", "Ana marcó 2, 5, encontró ninguno: 0 puntos"), "no negation"),
    (("fr", "x.reveal", "Ana a marqué 2, 5, a trouvé aucun : 0 point"), "no negation"),
    (("ro", "x.reveal", "Ana a marcat 2, 5, a identificat niciuna: 0 puncte"), "no negation"),
    (("ro", "x.thief", "fiecare pictură furată neidentificată de niciun detectiv"),
     "no negation"),                 # a negated participle is not a negation the lint can see
    (("es", "stolen_paintings.phone.none", "ninguno"), "a negative word alone"),
    (("es", "cleptomano.screen.press_start", "tocá INICIO"), "voseo"),
    (("es", "cleptomano.setup.question.menu", "¿Qué querés hacer?"), "voseo"),
    (("es", "canine.call.action_out_reshuffle", "barajad todas las cartas y añadid un "
      "Escondite más"), "vosotros"),
]
ENGLISH = [("en", "stolen_paintings.screen.header", "STOLEN PAINTINGS")]


@pytest.mark.parametrize("entry, why", OLD, ids=[e[1] + ":" + why for e, why in OLD])
def test_each_old_trap_is_flagged(entry, why):
    found = lint.lint(ENGLISH + [entry])
    assert any(why in line for line in found), found


def test_right_sentences_are_not_flagged():
    good = [
        ("es", "a", "{detective} no encontró ninguno ({points})"),
        ("es", "b", "Ningún turno sin captura espera el conteo del guardia."),
        ("es", "c", "uno por cada cuadro robado que nadie encontró"),
        ("es", "d", "{value} no es un tiempo límite; indica segundos, o ninguno para jugar"),
        ("es", "e", "Ahora nada pide el dado; primero juega la carta"),
        ("fr", "f", "{detective} n’en a trouvé aucun ({points})"),
        ("fr", "g", "un par tableau volé que personne n’a trouvé"),
        ("fr", "h", "Il faut une personne de plus"),
        ("ro", "i", "{detective} n-a identificat niciuna ({points})"),
        ("ro", "j", "Acum nimic nu cere zarul; joacă mai întâi"),
        ("ro", "k", "Încă nicio partidă decisă."),
        ("ro", "l", "fiecare pictură furată pe care niciun detectiv nu a identificat-o"),
        ("es_AR", "m", "tocá INICIO"),                       # voseo is es_AR's own
        ("fr", "n", "{n} points"), ("en", "n", "{n} points"),     # a French word too
        ("es", "o", "Cleptómano"), ("en", "o", "Cleptómano"),     # a proper name
    ]
    assert lint.lint(good) == []


def test_a_bad_entry_planted_in_a_real_catalog_fails_the_lint(tmp_path):
    """The lint reads the catalogs as they are on disk: a copy of the rig's Spanish catalog
    passes, and fails once the old reveal's words are planted back in it."""
    root = tmp_path / "rig"
    src = lint.ROOT / "games" / "stolen_paintings" / "locale"
    shutil.copytree(src, root / "games" / "stolen_paintings" / "locale")
    assert lint.lint(lint.entries(root)) == []
    po = root / "games" / "stolen_paintings" / "locale" / "es" / "LC_MESSAGES" / \
        "stolen_paintings.po"
    text = po.read_text("utf-8")
    assert 'msgstr "Cuadros robados"' in text
    po.write_text(text.replace('msgstr "Cuadros robados"', 'msgstr "Stolen Paintings"')
                  + '\nmsgid "stolen_paintings.phone.none"\nmsgstr "ninguno"\n', "utf-8")
    found = lint.lint(lint.entries(root))
    assert sorted(line.split(":")[0] for line in found) == [
        "es stolen_paintings.phone.none", "es stolen_paintings.title"], found


# --- es_AR: a language a table chooses, each entry falling back to es, then English ------------

def test_es_ar_is_a_table_choice_with_its_own_voseo_and_spanish_elsewhere():
    assert VARIANTS == {"es_AR": "es"} and "es_AR" in CHOICES
    assert check_language("es_AR") == "es_AR"
    assert fallbacks("es_AR") == ("es_AR", "es", "en") and fallbacks("fr") == ("fr", "en")
    argentine, neutral = Words("es_AR"), Words("es")
    # Cleptómano's screen: voseo on an es_AR table, tú on an es one
    assert argentine.text(Msg("cleptomano.screen.press_start")) == "tocá INICIO"
    assert neutral.text(Msg("cleptomano.screen.press_start")) == "pulsa INICIO"
    assert argentine.text(Msg("cleptomano.corridor.narrow")) == "angosto"
    assert neutral.text(Msg("cleptomano.corridor.narrow")) == "estrecho"
    # every other entry is es's (the phones, the other games)
    assert argentine.text(Msg("rig.phone.join")) == neutral.text(Msg("rig.phone.join")) == \
        "Conectarse a la consola"
    assert argentine.text(Msg("cleptomano.banner.caught")) == "¡Alto ahí!"
    # numbers as Argentina writes them (CLDR: grouped from 4 digits)
    assert argentine.number(3500) == "3.500" and neutral.number(3500) == "3500"


def test_a_browser_asking_es_ar_reads_es_until_the_phone_picks_es_ar():
    assert best_language("es-AR,es;q=0.9") == "es"
    assert best_language("es_AR") == "es"


def test_the_set_up_screen_offers_es_ar():
    from rig.games.cleptomano.setup_flow import SetupFlow
    flow = SetupFlow()
    flow.feed("4", digit=4)                     # the menu's language page
    view = flow.view()
    names = [c.label for c in view.choices]
    assert names == list(CHOICES.values()) and "Español (rioplatense)" in names
    command, _ = flow.feed("5", digit=5)
    assert command.lang == "es_AR" and flow.language == "es_AR"
