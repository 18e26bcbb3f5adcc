"""The one rule for a name at the table: a player's, a phone's, wherever it comes from.

``--players``, the config's ``[match] players``, a phone's pairing name, the names a phone
sends for the night's next game or a new match, and the leaderboard's display of names all
go through :func:`check_name` / :func:`check_names`:

* the name is taken as Unicode NFC with its outer spaces removed (:func:`normal`);
* 1 to :data:`MAX_NAME_CHARS` characters (what the score display shows legibly);
* no control or format character: nothing of Unicode category Cc (control), Cf (format: the
  zero-width space and joiners, the right-to-left and other bidi overrides), Zl or Zp (line
  and paragraph separators) or Cs (a lone surrogate), so no name can hide in another or turn
  the screen's text around;
* at least one letter or digit (a name of only accents, dots or spaces names nobody);
* two names are the same name when they are equal under NFKC, case folding and accent folding
  (:func:`same_name_key`): "Ana", "ANA", "Aná" and "Ａｎａ" are one player, refused as a
  duplicate in a list, recognised as the same seat at the phones.

Pure: stdlib only.
"""

import unicodedata

from .errors import InvalidChoice
from .msg import Msg

MAX_NAME_CHARS = 24
#: The categories a name may not hold (see above).
FORBIDDEN = {"Cc": "a control character", "Cf": "a format character",
             "Zl": "a line separator", "Zp": "a paragraph separator", "Cs": "a lone surrogate"}


def normal(name):
    """``name`` as the rig keeps it: NFC, without outer spaces (a non-string as it is)."""
    if not isinstance(name, str):
        return name
    return unicodedata.normalize("NFC", name).strip()


def same_name_key(name):
    """What two names that are the same name share: NFKC, case-folded, accents folded (the
    combining marks of its NFD form taken out), outer spaces removed."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded)
                   if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare).strip()


def _shown(name, most=40):
    text = repr(name)
    return text if len(text) <= most else text[:most - 3] + "..."


def name_problem(name):
    """Why ``name`` is not a name, as ``(english, Msg)``; None when it is one (after
    :func:`normal`)."""
    if not isinstance(name, str):
        return ("%s is not a name; give a name of 1 to %d characters" % (_shown(name),
                                                                          MAX_NAME_CHARS),
                Msg("rig.name.not_text", name=_shown(name), most=MAX_NAME_CHARS))
    for char in name:
        kind = FORBIDDEN.get(unicodedata.category(char))
        if kind is not None:
            where = "U+%04X" % ord(char)
            return ("%s holds %s (%s); a name is plain text the screen and the recordings can "
                    "show: remove it" % (_shown(name), where, kind),
                    Msg("rig.name.bad_character", name=_shown(name), char=where))
    name = normal(name)
    if not name:
        return ("an empty name names nobody; give a name of 1 to %d characters"
                % MAX_NAME_CHARS, Msg("rig.name.empty", most=MAX_NAME_CHARS))
    if len(name) > MAX_NAME_CHARS:
        return ("%s is %d characters long, too long for the score display; shorten it to %d "
                "characters or fewer" % (_shown(name), len(name), MAX_NAME_CHARS),
                Msg("rig.name.too_long", name=_shown(name), most=MAX_NAME_CHARS))
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        return ("%s has no letter or digit; a name needs at least one" % _shown(name),
                Msg("rig.name.no_letter", name=_shown(name)))
    return None


def refused(english, msg):
    """The error a refused name raises: ``str()`` in English for the builder (config, command
    line), ``msg`` for a player."""
    error = InvalidChoice(english)
    error.msg = msg
    return error


def check_name(name):
    """``name`` as the rig keeps it (:func:`normal`), or InvalidChoice naming what is wrong."""
    problem = name_problem(name)
    if problem is not None:
        raise refused(*problem)
    return normal(name)


def check_names(names, taken=(), as_given=False):
    """Each of ``names`` checked (:func:`check_name`), as a tuple, none the same name as
    another nor as one of ``taken``; InvalidChoice names the first one wrong.  The names come
    back as the rig keeps them (:func:`normal`), or ``as_given`` (a game's rules, which also
    read recordings: a recording's lines name its players as its header spells them)."""
    seen = {same_name_key(normal(n)): normal(n) for n in taken}
    out = []
    for given in names:
        name = check_name(given)
        key = same_name_key(name)
        if key in seen:
            raise refused("%s is the same name as %s (names are compared ignoring case and "
                          "accents); give every player a different name, e.g. add an initial"
                          % (_shown(name), _shown(seen[key])),
                          Msg("rig.name.twice", name=_shown(name), other=_shown(seen[key])))
        seen[key] = name
        out.append(given if as_given else name)
    return tuple(out)


def same_name(a, b):
    """Whether ``a`` and ``b`` are the same name."""
    return same_name_key(normal(a)) == same_name_key(normal(b))


#: The endings of a phone's name that say whose phone it is ("Ana's phone" plays as Ana).
PHONE_SUFFIXES = ("'s phone", "\u2019s phone")
#: The beginnings that say so in the rig's other languages, as :func:`same_name_key` folds them
#: ("Teléfono de José", "Celular de José", "Téléphone de José", "Telefonul lui José").
PHONE_PREFIXES = ("telefono de ", "celular de ", "movil de ", "telephone de ",
                  "portable de ", "telefonul lui ", "telefonul ", "phone of ")


def seat_key(phone_name):
    """The seat a phone named ``phone_name`` sits at: the :func:`same_name_key` of the player
    it names ("Ana", "ana\u2019s phone", "ANA'S PHONE" and "Teléfono de Ana" all sit at Ana's
    seat)."""
    key = same_name_key(normal(phone_name))
    for suffix in PHONE_SUFFIXES:
        if key.endswith(suffix) and key[:-len(suffix)].strip():
            return key[:-len(suffix)].strip()
    for prefix in PHONE_PREFIXES:
        if key.startswith(prefix) and key[len(prefix):].strip():
            return key[len(prefix):].strip()
    return key
