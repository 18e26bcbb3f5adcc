"""Words: a :class:`rig.core.msg.Msg` said in a language, from the message catalogs.

The rules and the faces say codes (:mod:`rig.core.msg`); this module turns them into the words of
one language, from gettext catalogs compiled by Babel (``make catalogs``, the wheel's build):

* ``rig/locale/<lang>/LC_MESSAGES/rig.mo``: the rig's own words (the phones' pages, the night,
  the web face's refusals, the shared screens and key help);
* ``rig/games/<game>/locale/<lang>/LC_MESSAGES/<game>.mo``: each game's words, in its folder.

A code's first part names its catalog (``<game>.call.<name>`` is in ``<game>.mo``).
The plural forms are each language's from CLDR (Babel writes them into every catalog's header;
Romanian has three), chosen by the message's parameter ``n``.  Whole numbers get the language's
digit grouping and lists the language's "and" (Babel's CLDR data).

A code with no entry in the chosen language falls back to English, and one with none in English
shows its language-neutral form (``rig.host.refused(reason='...')``); the catalog test
(tests/test_catalogs.py) fails long before a player could see either.

:data:`PSEUDO` is a test language: English with every letter accented and 40 % longer, so a
screenshot shows any word that is not from a catalog (it stays plain) and any box a longer
translation would overflow.
"""

import functools
import gettext
import string
import threading
from importlib import resources
from typing import Dict, Iterable, Optional, Tuple

from .core.errors import ConfigError, RigError
from .core.msg import MAX_DEPTH, Msg, domain_of, from_json, is_msg_json
from .core.text import one_line

#: The catalogs' languages, English first (the default), each with its own name for itself:
#: every code has words in each (``python -m rig.catalogs check``).
LANGUAGES = {"en": "English", "es": "Español", "fr": "Français", "ro": "Română"}
#: Regional variants: a table language whose catalogs hold only the entries it says otherwise
#: (``<domain>.po`` under ``locale/<variant>/``, where it has any); every other entry is its
#: base language's, then English's.  ``es`` is Latin American neutral Spanish (tú);
#: ``es_AR`` is Cleptómano's Rioplatense voseo ("tocá INICIO") for a table that wants it.
VARIANTS = {"es_AR": "es"}
#: Every language a table or a phone may choose, each in its own name: the four, then the
#: variants (so the set-up screen's keys 1-4 stay the four languages').
CHOICES = {"en": "English", "es": "Español", "fr": "Français", "ro": "Română",
           "es_AR": "Español (rioplatense)"}
DEFAULT = "en"
#: The pseudo-locale (tests and ``cleptomano screenshot --lang pseudo``), never a table's choice.
PSEUDO = "pseudo"
#: CLDR's minimum grouping digits where it is not 1 (Babel's data lacks it): Spanish groups
#: 15.000 but not 3500.  tests/test_catalogs.py checks every language against Node's Intl.
MIN_GROUPING_DIGITS = {"es": 2}
#: The rig's own catalog (its package is ``rig``).
RIG_DOMAIN = "rig"


class CatalogError(RigError, RuntimeError):
    """A message catalog that is not there or cannot be read (the build did not compile it)."""


def check_language(lang, key="language", allow_pseudo=False):
    """``lang`` if it is a table language (``pseudo`` too when ``allow_pseudo``), else a
    ConfigError naming the choices."""
    allowed = tuple(CHOICES) + ((PSEUDO,) if allow_pseudo else ())
    if lang not in allowed:
        raise ConfigError("language %r is not one the rig speaks; choose one of %s"
                          % (lang, ", ".join(allowed)), key=key)
    return lang


def fallbacks(lang: str) -> Tuple[str, ...]:
    """The languages whose entries ``lang`` reads, in order: itself, its base language (a
    variant's), English.  ``fallbacks("es_AR") == ("es_AR", "es", "en")``."""
    chain = [lang]
    base = VARIANTS.get(lang)
    if base is not None:
        chain.append(base)
    if DEFAULT not in chain:
        chain.append(DEFAULT)
    return tuple(chain)


def bcp47(lang: str) -> str:
    """``lang`` as a browser's Intl and an HTML ``lang`` attribute write it: ``es_AR`` ->
    ``es-AR``."""
    return lang.replace("_", "-")


def best_language(accept_language: Optional[str]) -> str:
    """The table language an HTTP ``Accept-Language`` header prefers most (English when it
    names none of them): ``"fr-CH, fr;q=0.9, en;q=0.8"`` -> ``fr``.  A regional variant is a
    choice, never a guess: ``es-AR`` reads ``es`` until the phone picks ``es_AR``."""
    best, best_q = DEFAULT, -1.0
    if not accept_language or len(accept_language) > 1000:
        return DEFAULT
    for order, part in enumerate(accept_language.split(",")[:40]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
            if not 0 <= q <= 1:
                continue
        lang = tag.strip().lower().replace("_", "-").split("-")[0]
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


# --- Catalog files ---------------------------------------------------------------------------

#: Where a game's catalog domain is found: a callable giving ``{domain: package}`` for every
#: registered game.  The registry (:mod:`rig.games`, which sits above the words) hands it over
#: when it is imported (:func:`find_game_domains`), so these words never import a game; a code
#: of a game can only be said once its game's package, and so the registry, is imported.
_game_domains = None


def find_game_domains(domains):
    """Find the games' catalog domains with ``domains()`` -> ``{domain: package}`` (the
    registry's :func:`rig.games.catalog_domains`)."""
    global _game_domains
    _game_domains = domains


def _domain_package(domain: str) -> str:
    if domain == RIG_DOMAIN:
        return "rig"
    if _game_domains is None:
        raise CatalogError("no catalog for %r: no game is registered yet; import the registry "
                           "(rig.games) before saying a game's code" % domain)
    found = _game_domains()
    if domain in found:
        return found[domain]
    raise CatalogError("no catalog for %r: a code's first part names the rig ('rig') or a "
                       "registered game's folder (%s)" % (domain, ", ".join(found)))


def catalog_file(domain: str, lang: str, suffix=".mo"):
    """The traversable path of ``domain``'s catalog in ``lang`` (it may not exist)."""
    return (resources.files(_domain_package(domain)) / "locale" / lang / "LC_MESSAGES"
            / (domain + suffix))


_lock = threading.Lock()
_loaded: Dict[Tuple[str, str], Optional[gettext.GNUTranslations]] = {}


def translations(domain: str, lang: str) -> Optional[gettext.GNUTranslations]:
    """``domain``'s compiled catalog in ``lang``, or None when the language has none.  A ``.po``
    without its ``.mo`` is a build that did not compile: CatalogError says how to mend it."""
    key = (domain, lang)
    with _lock:
        if key in _loaded:
            return _loaded[key]
    mo = catalog_file(domain, lang)
    found = None
    if mo.is_file():
        try:
            with mo.open("rb") as f:
                found = gettext.GNUTranslations(f)
        except (OSError, ValueError) as e:
            raise CatalogError("%s cannot be read (%s); rebuild it with `make catalogs`"
                               % (mo, e)) from e
    elif catalog_file(domain, lang, ".po").is_file():
        raise CatalogError("%s is missing: the catalogs were not compiled; run `make catalogs` "
                           "(or reinstall the rig: its build compiles them)" % (mo,))
    with _lock:
        _loaded[key] = found
    return found


def forget_catalogs():
    """Drop every loaded catalog (a test that rewrites one, a game registered later)."""
    with _lock:
        _loaded.clear()
    _english.cache_clear()


# --- Pseudo-locale ---------------------------------------------------------------------------

_ACCENTS = str.maketrans(
    "abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ",
    "áþçđéĝĥíķĺñóŕšţúýžÁÞÇĐÉĜĤÍĶĹÑÓŔŠŢÚÝŽ")
_PAD = " ŀóñĝ·ţéxţ"


def pseudo(template: str) -> str:
    """English ``template`` accented outside its ``{fields}`` and 40 % longer."""
    out, depth = [], 0
    for ch in template:
        if ch == "{":
            depth += 1
        if depth:
            out.append(ch)
        else:
            out.append(ch.translate(_ACCENTS))
        if ch == "}" and depth:
            depth -= 1
    plain = sum(len(literal) for literal, _, _, _ in string.Formatter().parse(template))
    extra = (plain * 4 + 9) // 10
    pad = (_PAD * (extra // len(_PAD) + 1))[:extra]
    return "".join(out) + pad


# --- Rendering -------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _babel_locale(lang):
    from babel import Locale
    return Locale.parse("en" if lang == PSEUDO else lang)


class Words:
    """Every code said in one language: ``Words("es").text(msg)``."""

    #: Said messages kept (a screen says the same codes 30 times a second): a Msg is a value.
    CACHE_SIZE = 1024

    def __init__(self, lang: str = DEFAULT):
        self.lang = check_language(lang, allow_pseudo=True)
        self._said = {}

    def __repr__(self):
        return "Words(%r)" % self.lang

    # The template -----------------------------------------------------------------------
    def _entry(self, lang, code, n):
        tr = translations(domain_of(code), lang)
        if tr is None:
            return None
        if n is None:
            found = tr.gettext(code)
        else:
            found = tr.ngettext(code, code, n)
        return None if found == code or not found else found

    def template(self, code: str, n=None) -> Optional[str]:
        """The catalog's words for ``code`` in this language (a variant's base language's, then
        English's, when it has none here), with the plural form for ``n``; None when not even
        English has it."""
        lang = DEFAULT if self.lang == PSEUDO else self.lang
        found = None
        for each in fallbacks(lang):
            found = self._entry(each, code, n)
            if found is not None:
                break
        if found is not None and self.lang == PSEUDO:
            found = pseudo(found)
        return found

    # Parameters ---------------------------------------------------------------------------
    def number(self, value) -> str:
        """``value`` with the language's digit grouping (15,000 / 15.000 / 15 000), as the
        phones' browsers write it too (their Intl.NumberFormat)."""
        from babel.numbers import format_decimal
        # CLDR groups a Spanish number's digits from five on (3500, 15.000): its "minimum
        # grouping digits", which Babel's data does not carry; the browsers' Intl does.
        grouped = abs(value) >= 10 ** (2 + MIN_GROUPING_DIGITS.get(self.lang, 1))
        try:
            return format_decimal(value, locale=_babel_locale(self.lang),
                                  group_separator=grouped)
        except (ArithmeticError, ValueError):     # a number past Babel's precision: as it is
            return str(value)

    def listing(self, items: Iterable[str]) -> str:
        """``items`` joined as the language lists them ("Ana, Ben y Carla")."""
        from babel.lists import format_list
        items = list(items)
        if not items:
            return ""
        if self.lang == PSEUDO:         # the list's own words accented too
            return ", ".join(items[:-1]) + (" " + pseudo("and") + " " if len(items) > 1
                                            else "") + items[-1]
        return format_list(items, locale=_babel_locale(self.lang))

    def _param(self, value, depth):
        if isinstance(value, Msg):
            return self._render(value, depth + 1)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, (int, float)):
            return self.number(value)
        if isinstance(value, tuple):
            return self.listing(self._param(v, depth + 1) for v in value)
        return str(value)

    def _render(self, m: Msg, depth=0) -> str:
        if depth > MAX_DEPTH:          # no deeper than a Msg can be
            return str(m)
        n = m.get("n")
        if isinstance(n, bool) or not isinstance(n, int):
            n = None
        template = self.template(m.code, n)
        if template is None:
            return str(m)
        params = {k: self._param(v, depth) for k, v in m.params}
        try:
            return template.format_map(params)
        except (KeyError, IndexError, ValueError, AttributeError):
            # A translation naming a field the code does not have: say it in English rather
            # than nothing (tests/test_catalogs.py checks every translation's fields).
            english = Words(DEFAULT).template(m.code, n)
            try:
                return english.format_map(params) if english else str(m)
            except (KeyError, IndexError, ValueError, AttributeError):
                return str(m)

    def text(self, m) -> str:
        """``m`` (a :class:`Msg`, or its JSON form) in this language; a str is returned as it
        is, None as ""."""
        if m is None:
            return ""
        if isinstance(m, dict):
            from .core.msg import from_json, is_msg_json
            if is_msg_json(m):
                try:
                    m = from_json(m)
                except (TypeError, ValueError):
                    return ""
        if isinstance(m, Msg):
            said = self._said.get(m)
            if said is None:
                said = self._render(m)
                if len(self._said) >= self.CACHE_SIZE:
                    self._said.clear()
                self._said[m] = said
            return said
        return str(m)

    __call__ = text

    def say(self, code: str, /, **params) -> str:
        """``Words("fr").say("rig.keys.start")``: a code and its parameters, said."""
        return self._render(Msg(code, **params))

    def error(self, exc: BaseException) -> str:
        """What a player reads for a refusal: its message in this language, or its text (with
        the file and line it names first, if any: a recording's refused move)."""
        m = getattr(exc, "msg", None)
        if isinstance(m, Msg):
            return (getattr(exc, "where", "") or "") + self._render(m)
        return str(exc)

    # For the phones -----------------------------------------------------------------------
    def plural_samples(self) -> Dict[str, int]:
        """One whole number for each CLDR plural category of this language (what the phones'
        ``Intl.PluralRules`` answers), to pick the catalog's form for each."""
        rule = _babel_locale(self.lang).plural_form
        samples: Dict[str, int] = {}
        for n in list(range(0, 200)) + [1000, 10 ** 6]:
            samples.setdefault(rule(n), n)
        return samples

    def table(self, domains: Iterable[str]) -> Dict[str, object]:
        """Every entry of the catalogs ``domains`` in this language, for a phone's page:
        ``{code: template}``, or ``{code: {category: template}}`` for a plural one (the
        categories are CLDR's, what the browser's ``Intl.PluralRules`` gives)."""
        out: Dict[str, object] = {}
        samples = self.plural_samples()
        for domain in domains:
            for code, plural in codes_of(domain):
                if plural:
                    out[code] = {cat: self.template(code, n) or code
                                 for cat, n in samples.items()}
                else:
                    out[code] = self.template(code) or code
        return out


@functools.lru_cache(maxsize=None)
def _codes_of(domain: str) -> Tuple[Tuple[str, bool], ...]:
    tr = translations(domain, DEFAULT)
    if tr is None:
        return ()
    found = {}
    for key in tr._catalog:             # the stdlib's own table: msgid, or (msgid, form)
        if isinstance(key, tuple):
            found[key[0]] = True
        elif key:
            found.setdefault(key, False)
    return tuple(sorted(found.items()))


def codes_of(domain: str) -> Tuple[Tuple[str, bool], ...]:
    """Every code of ``domain``'s English catalog and whether it has plural forms."""
    return _codes_of(domain)


def localize(obj, words: "Words", depth=0):
    """``obj`` (a snapshot, a view, an answer: dicts, lists and values) with every code in it
    said by ``words``: a :class:`Msg`, or its JSON form (``{"code": ..., "params": ...}``),
    becomes its text.  What a face does at its edge, for its own reader."""
    if isinstance(obj, Msg):
        return words.text(obj)
    if depth > 64:
        return obj
    if isinstance(obj, dict):
        if is_msg_json(obj):
            try:
                return words.text(from_json(obj))
            except (TypeError, ValueError):
                return ""
        return {k: localize(v, words, depth + 1) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [localize(v, words, depth + 1) for v in obj]
    return obj


@functools.lru_cache(maxsize=None)
def _english():
    return Words(DEFAULT)


def english(m) -> str:
    """``m`` in English: what the log and the builder's terminal say."""
    return _english().text(m)


def english_error(exc: BaseException) -> str:
    """What the builder's terminal says for ``exc``: its message in English, on one line as
    ``str(exc)`` is (a name in a recording may hold U+2028 or a newline)."""
    return one_line(_english().error(exc))
