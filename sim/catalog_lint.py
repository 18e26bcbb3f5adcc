"""The catalog lint: words a native speaker, or any player, would stumble on (docs/dev/words.md).
tests/test_catalog_lint.py fails on any finding in the rig's catalogs.

Each entry of every catalog (``rig/locale`` and each game's ``locale``, every language and the
regional variants) is read as its player reads it, with its ``{fields}`` taken out.  Flagged:

* **developer words**: a JSON or HTTP fragment (``[]``, a brace that is not a field, a quoted
  key followed by a colon ``"players":``, ``GET /``, ``POST /``, ``/api/``): the phones show
  refusals, and a player cannot act on a field name or a route; and a field whose value is a
  route (``{listed_at}``);
* **identical to English** in another language: an entry whose words are English's, unless
  all its letters are proper names (:data:`PROPER_NAMES`, listed in docs/glossary.md), units
  or key names (:data:`SAME_IN_EVERY_LANGUAGE`);
* **negative concord** (es, fr, ro): a negative word ("ninguno", "aucun", "niciun"...) after
  the start of its clause with no negation before it ("encontró ninguno" for "no encontró
  ninguno"; "a trouvé aucun" for "n'a trouvé aucun"; "a identificat niciuna" for "nu a
  identificat niciuna");
* **a lone negative word** as an entry ("ninguno") outside :data:`LONE_NEGATIVES`: put in
  another entry's field after a verb, it breaks the negation;
* **voseo** in the ``es`` catalogs (Latin American neutral, tú): Rioplatense forms ("tocá",
  "elegí", "querés") belong to ``es_AR`` only; and Spain's **vosotros** ("barajad", "añadid")
  in any Spanish catalog, where Latin America says ustedes ("barajen", "agreguen").

Pure: :func:`lint` takes ``(lang, code, text)`` entries and returns findings; :func:`entries`
reads the catalogs (Babel).
"""

import re
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

ROOT = Path(__file__).resolve().parent.parent / "rig"

#: Names that stay as they are in every language (docs/glossary.md "Proper names"): the rig's
#: own game, the brands whose rulebook keeps its name, the fonts and the people of the samples.
PROPER_NAMES = (
    "Cleptómano", "Canine Kleptomaniacs", "CANINE KLEPTOMANIACS", "Stop Thief!",
    "STOP THIEF!", "Ultimate Paw of Pilferage", "Poo Pizza", "GetClue", "ReplayClue",
    "Arrest", "EndTurn", "README", "cleptomano", "Chromium", "Ana", "Ben", "Caro",
)
#: Words and symbols the same in every language: key names, units, abbreviations, numerals.
SAME_IN_EVERY_LANGUAGE = (
    "Enter", "Esc", "Tab", "Bksp", "Space", "Num", "F1", "F2", "F3", "F4", "F5", "F6", "F7",
    "F8", "F9", "F10", "F11", "F12", "OK", "I2C", "ms", "mm", "s", "km", "x2", "P", "I", "II",
    "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "L", "R", "M", "USB", "GPIO",
    "Wi-Fi", "QR", "WCAG", "Run", "Hz", "dB", "MQTT", "Ctrl", "Alt", "Shift", "Del", "Home",
    "End", "PgUp", "PgDn", "Up", "Down", "Left", "Right", "+", "-", "Pi",
)

#: Words each language writes as English does (its own word, spelled the same): an entry of
#: these, proper names and universal words only may read as English's.
COGNATES = {
    "es": ("normal", "Normal", "total", "TOTAL", "DETECTIVES", "x"),
    "es_AR": ("normal", "Normal", "total", "TOTAL", "DETECTIVES", "x"),
    "fr": ("laser", "lasers", "point", "points", "Points", "normal", "Normal", "score",
           "Score", "SCORE", "SCORES", "Amateur", "total", "TOTAL", "table", "Tables",
           "Touches", "CODE", "Action", "plus", "x",
           # the chest heist's rulebook is French and calls them skimmers (docs/glossary.md)
           "skimmer", "skimmers", "SKIMMER"),
    "ro": ("laser", "normal", "Normal", "total", "TOTAL", "Specialist", "solo", "plus", "x",
           # a loanword Romanian uses as it is (plural "skimmere"; docs/glossary.md)
           "skimmer", "SKIMMER"),
}
#: Entries that are one negative word alone ("none"), each with where it is used: a lone
#: negative word put in another entry's field after a verb breaks the negation ("encontró
#: ninguno"), so each one here is said only where a clause opens (after a colon).
LONE_NEGATIVES = {
    "rig.keys.none_yet": "the key prompts' chosen list, after a colon",
    "chest_heist.keys.none_yet": "the key prompt's chosen dice, after a colon",
    "stolen_paintings.keys.none_yet": "the key prompt's chosen places, after a colon",
    "canine.phone.none": "a list's value after its label and a colon",
    "chest_heist.check.none": "the dice chosen, after a colon (\"tu elección: ninguno\")",
}

_FIELD_NAME = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)")
_FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*(?:![rsa])?(?::[^{}]*)?\}")
_DEVELOPER = [
    ("an empty JSON list", re.compile(r"\[\s*\]")),
    ("a JSON brace", re.compile(r"[{}]")),
    ("a JSON key", re.compile(r"[\"'][A-Za-z_][A-Za-z0-9_]*[\"']\s*:")),
    ("an HTTP route", re.compile(r"\b(?:GET|POST|PUT|DELETE|PATCH)\s+/")),
    ("an API path", re.compile(r"/api/")),
    ("a JSON literal", re.compile(r":\s*(?:true|false|null)\b")),
]

#: Fields whose values are developer words (an HTTP route): a template naming one shows it.
_DEVELOPER_FIELDS = {"listed_at": "a field that holds an HTTP route"}

#: Negative words that need a negation before them when they follow their verb.
_NEGATIVE = {
    "es": ("ningún", "ninguno", "ninguna", "ningunos", "ningunas", "nadie", "nada"),
    "fr": ("aucun", "aucune", "rien", "jamais", "personne", "nulle part"),
    "ro": ("niciun", "nicio", "niciuna", "niciunul", "niciunei", "niciunui", "nimic", "nimeni",
           "niciodată", "nicăieri"),
}
#: A word right before a negative word that opens a (sub)clause with it, where it needs no
#: negation before it ("que nadie encontró", "o ninguno", "Încă nicio partidă").
_OPENS = {
    "es": ("que", "o", "u", "y", "e", "pero", "ahora", "todavía", "aún", "ya", "si", "casi"),
    "fr": ("que", "qu", "ou", "et", "mais", "si", "encore"),
    "ro": ("că", "sau", "și", "dar", "încă", "acum", "iar"),
}
#: What makes a negative word right: a negation (or "without") in the clause, before it in
#: Spanish ("no encontró ninguno"; a negative word before its verb needs none), anywhere in
#: French and Romanian ("personne n'a trouvé", "nimic nu cere").
_NEGATOR = {
    "es": re.compile(r"(?<![\w])(?:no|ni|sin|nunca|jamás|tampoco|nadie|nada|ningún|ninguno|"
                     r"ninguna)(?![\w])", re.I),
    "fr": re.compile(r"(?<![\w])(?:(?:ne|ni|sans)(?![\w])|n['’])", re.I),
    "ro": re.compile(r"(?<![\w])(?:(?:nu|fără|nici)(?![\w])|n-)", re.I),
}
#: A word before "personne" that makes it the noun ("une personne"), not "nobody".
_FR_PERSON_NOUN = re.compile(r"(?:une|la|chaque|cette|les|des|quelle|par)\s+$", re.I)
#: A clause ends at these (a negative word that opens a clause needs no negation before it).
_CLAUSE = re.compile(r"[.;:!?¡¿()\[\]«»“”„\"—–·|\n]|,\s")

#: Rioplatense voseo forms (imperative and present) the ``es`` catalogs must not use.
_VOSEO = re.compile(
    r"(?<![\wáéíóúñ])(?:tocá|pulsá|presioná|apretá|elegí|poné|mirá|revisá|terminá|confirmá|"
    r"apoyá|pasá|mové|borrá|salteá|sacá|escribí|marcá|seguí|liberá|cambiá|levantá|acostá|"
    r"empezá|volvé|esperá|jugá|tené|vení|decí|hacé|andá|agregá|quitá|usá|probá|intentá|"
    r"cargá|abrí|emparejá|desemparejá|contá|anotá|mandá|enviá|dejá|fijate|fijá|preparala|"
    r"nombralo|querés|tenés|podés|sabés|sos|vos|tocás|elegís|ponés"
    r")(?![\wáéíóúñ])", re.I)
#: Spain's vosotros forms (Latin American Spanish says ustedes: "barajen", not "barajad").
_VOSOTROS = re.compile(
    r"(?<![\wáéíóúñ])(?:vosotros|vosotras|vuestr[oa]s?|os|[a-zñ]+(?:áis|éis)|barajad|añadid|"
    r"jugad|corregid|revisad|decidid|mirad|elegid|pulsad|tocad|poned|coged|contad|marcad|"
    r"enviad|esperad|abrid|cerrad|sacad|dejad|tomad|escribid)(?![\wáéíóúñ])", re.I)

Entry = Tuple[str, str, str]         # (lang, code, text)


def plain(text: str) -> str:
    """``text`` with its ``{fields}`` taken out (what is left is what the catalog wrote)."""
    return _FIELD.sub(" ", text)


def developer_words(text: str) -> List[str]:
    """The JSON and HTTP fragments in ``text`` (outside its fields)."""
    words = plain(text)
    return [what for what, pattern in _DEVELOPER if pattern.search(words)]


def _only_names(text: str, lang: str = "") -> bool:
    """Whether ``text`` (fields out) holds no letters but proper names, universal words and
    the language's own words spelled as in English (:data:`COGNATES`)."""
    same = SAME_IN_EVERY_LANGUAGE + COGNATES.get(lang, ())
    rest = plain(text)
    for name in sorted(PROPER_NAMES, key=len, reverse=True):
        rest = rest.replace(name, " ")
    for word in re.findall(r"[^\W\d_][\w'’-]*", rest):
        if word not in same and word.strip("-") not in same:
            return False
    return True


def missing_negation(lang: str, text: str) -> List[str]:
    """The negative words of ``text`` (es, fr, ro) that follow their clause's start with no
    negation before them."""
    words = _NEGATIVE.get(lang)
    if not words:
        return []
    found = []
    said = plain(text)
    for clause in _CLAUSE.split(said):
        for word in words:
            for m in re.finditer(r"(?<![\w-])%s(?![\w])" % re.escape(word), clause, re.I):
                before = clause[:m.start()]
                if not re.search(r"[^\W\d_]", before):
                    continue                        # it opens its clause: "Ningún turno ..."
                if lang == "fr" and word == "personne" and _FR_PERSON_NOUN.search(before):
                    continue                        # "une personne": the noun
                last = re.findall(r"[^\W\d_]+", before)[-1].lower()
                if last in _OPENS[lang]:
                    continue                        # it opens a clause: "que nadie encontró"
                if _NEGATOR[lang].search(before if lang == "es" else clause):
                    continue
                found.append(clause.strip())
    return found


def voseo(text: str) -> List[str]:
    """The Rioplatense voseo forms in ``text``."""
    return [m.group(0) for m in _VOSEO.finditer(plain(text))]


def vosotros(text: str) -> List[str]:
    """Spain's vosotros forms in ``text``."""
    return [m.group(0) for m in _VOSOTROS.finditer(plain(text))]


def lint(entries: Iterable[Entry]) -> List[str]:
    """Every finding in ``entries`` (``(lang, code, text)``; English's among them for the
    identical-to-English check), one line each."""
    entries = list(entries)
    english: Dict[str, List[str]] = {}
    for lang, code, text in entries:
        if lang == "en":
            english.setdefault(code, []).append(text)
    out = []
    for lang, code, text in entries:
        where = "%s %s: %r" % (lang, code, text)
        for what in developer_words(text):
            out.append("%s: %s; say what to do in the player's words" % (where, what))
        for name in sorted(set(_FIELD_NAME.findall(text)) & set(_DEVELOPER_FIELDS)):
            out.append("%s: {%s} is %s; say what to do in the player's words"
                       % (where, name, _DEVELOPER_FIELDS[name]))
        if lang != "en" and text in english.get(code, ()) and not _only_names(text, lang):
            out.append("%s: the same as English; translate it, or list its proper names in "
                       "docs/glossary.md and sim/catalog_lint.PROPER_NAMES" % where)
        for clause in missing_negation(lang.split("_")[0], text):
            out.append("%s: a negative word with no negation before it in %r" % (where, clause))
        base = lang.split("_")[0]
        if base in _NEGATIVE and code not in LONE_NEGATIVES and \
                plain(text).strip(" .!¡").lower() in _NEGATIVE[base]:
            out.append("%s: a negative word alone: put in another entry after a verb it breaks "
                       "the negation; write the whole sentence as an entry of its own" % where)
        if lang == "es":
            for form in voseo(text):
                out.append("%s: voseo %r in the es catalog (tú; voseo is es_AR's)"
                           % (where, form))
        if base == "es":
            for form in vosotros(text):
                out.append("%s: Spain's vosotros %r (Latin American Spanish says ustedes)"
                           % (where, form))
    return out


def po_files(root: Path = ROOT) -> List[Path]:
    return sorted(root.glob("**/locale/*/LC_MESSAGES/*.po"))


def read(po: Path) -> List[Entry]:
    """The entries of one ``.po``: each plural form is an entry of its own."""
    from babel.messages.pofile import read_po
    lang = po.parent.parent.name
    with open(po, "rb") as f:
        catalog = read_po(f, locale=lang.split("_")[0], domain=po.stem)
    out = []
    for message in catalog:
        if not message.id:
            continue
        code = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out += [(lang, code, s) for s in strings if s]
    return out


def entries(root: Path = ROOT) -> List[Entry]:
    """Every entry of every catalog under ``root``."""
    out = []
    for po in po_files(root):
        out += read(po)
    return out
