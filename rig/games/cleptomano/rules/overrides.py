"""The referee's overrides (issue 31): every void, undo, correction and haul clamp, with who made
it and why.  Pure: values in, values out.

An override is something a person (the guard at the keys, a phone allowed to command) or the
rules decided against what the sensors counted:

* ``undo``: a laser touch taken back while the turn runs;
* ``void``: the touch taken back was the third, so the turn is void and played again;
* ``correction``: a touch taken back after the turn ended, its score corrected;
* ``haul``: the guard's count of the haul differs from the haul as it stood (the sensors', or
  an earlier count);
* ``clamp``: the rules cut the guard's count to what the sensors allow (``by`` ``rules``,
  ``why`` ``rulebook``).

``by`` is who made it: the name its line records (the rig records its keys' commands by the
turn's guard, a phone's by the phone's name), ``keys`` for a line that names nobody or the
keypad's bare ``"guard"``, or ``rules``; ``guard`` the guard of the turn it changed.
``why`` is a reason code (:data:`REASONS`), ``unspecified`` when none was given, or a short
text typed on a phone, cleaned (:func:`check_reason`).  A reason comes with the command
(``"reason"`` on its line) or right after it (a ``why`` line: the guard's digit key on the
screen), never holding the override up.
"""

import enum
import unicodedata
from dataclasses import dataclass, field
from typing import Optional, Tuple

from rig.core.errors import InvalidChoice
from rig.core.msg import Msg, N_, joined
from .levels import refusal

#: The reasons the screen offers, in the order of its digit keys (1-5).
REASONS = ("misfire", "wrong-player", "sensor-fault", "rules-dispute", "other")
#: No reason was given (none with the command, none picked after it).
UNSPECIFIED = "unspecified"
#: A clamp's reason: the rulebook caps the guard's count by what the sensors allow.
RULEBOOK = "rulebook"
#: Every code a reason may be (anything else is a typed text).
CODES = REASONS + (UNSPECIFIED, RULEBOOK)
#: A typed reason's length, in characters, once cleaned.
MAX_REASON_CHARS = 60
#: Who the keys are, and who a clamp is by.
KEYS, RULES = "keys", "rules"
#: How the rig's own keys sign a command (rig.games.cleptomano.keys).
KEYPAD_BY = "guard"

#: The Unicode categories a typed reason may not hold: control (but the whitespace that is
#: cleaned to a space), format (zero-width, bidi overrides), separators, lone surrogates.
_FORBIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


class Kind(enum.StrEnum):
    UNDO = "undo"
    VOID = "void"
    CORRECTION = "correction"
    HAUL = "haul"
    CLAMP = "clamp"


KINDS = tuple(k.value for k in Kind)


@dataclass(frozen=True)
class Override:
    """One override: when (``t``), what (``kind``), on whose turn (``thief``, ``round``: 0 for a
    tiebreak attempt, ``guard``), who made it (``by``), why (``why``) and what it changed
    (``detail``: ``(("laser", 4),)`` for a touch; ``(("from", (p, r)), ("to", (p, r)))`` for a
    haul or a clamp)."""
    t: float
    kind: Kind
    thief: str
    round: int
    guard: Optional[str]
    by: str
    why: str = UNSPECIFIED
    detail: Tuple[Tuple[str, object], ...] = field(default=())

    @property
    def typed(self):
        """Whether ``why`` is a text typed on a phone (not a code)."""
        return self.why not in CODES

    def as_json(self):
        """As ``replay --overrides`` prints it (docs/contracts/replay.md)."""
        out = {"t": self.t, "kind": self.kind.value, "round": self.round, "thief": self.thief,
               "guard": self.guard, "by": self.by, "reason": self.why}
        for key, value in self.detail:
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


def who(by):
    """Who a command's ``by`` says made an override: the keys (``"guard"``, the keypad's, or
    nobody named) or the phone's name."""
    return KEYS if by is None or by == KEYPAD_BY else by


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_reason(value):
    """A reason as the rig keeps it: one of :data:`CODES` as it is, or a text typed on a phone
    cleaned (NFC; every run of spaces, tabs and line breaks one space; outer spaces removed).
    Raises :class:`InvalidChoice` naming the value for anything else: not a text, empty, longer
    than :data:`MAX_REASON_CHARS` characters, or holding a control or format character.
    Cleaning a cleaned reason changes nothing (a recording's line reads back the same)."""
    if not isinstance(value, str):
        raise refusal(InvalidChoice,
                      "reason %s is not a text; give one of %s or a short text "  # not words
                      "of 1 to %d characters" % (_shown(value), ", ".join(REASONS),
                                                 MAX_REASON_CHARS),
                      Msg("cleptomano.refuse.reason_not_text", reason=_shown(value),
                          reasons=", ".join(REASONS), most=MAX_REASON_CHARS))
    if value in CODES:
        return value
    text = " ".join(unicodedata.normalize("NFC", value).split())
    for char in text:
        if unicodedata.category(char) in _FORBIDDEN:
            where = "U+%04X" % ord(char)
            raise refusal(InvalidChoice,
                          "reason %s holds %s, a control or format character; "  # not words
                          "type plain text" % (_shown(value), where),
                          Msg("cleptomano.refuse.reason_bad_character", reason=_shown(value),
                              char=where))
    if not text:
        raise refusal(InvalidChoice,
                      "an empty reason says nothing; give one of %s or a short "  # not words
                      "text of 1 to %d characters" % (", ".join(REASONS), MAX_REASON_CHARS),
                      Msg("cleptomano.refuse.reason_empty", reasons=", ".join(REASONS),
                          most=MAX_REASON_CHARS))
    if len(text) > MAX_REASON_CHARS:
        raise refusal(InvalidChoice,
                      "reason %s is %d characters long; shorten it to %d "  # not words
                      "characters or fewer" % (_shown(value), len(text), MAX_REASON_CHARS),
                      Msg("cleptomano.refuse.reason_too_long", reason=_shown(value),
                          length=len(text), most=MAX_REASON_CHARS))
    return text


def reason_bucket(why):
    """The reason an audit counts an override under: its code, or ``typed`` for a text."""
    return why if why in CODES else "typed"


def counts(overrides):
    """The audits' counts of ``overrides``: ``{"kinds": {kind: n}, "reasons": {reason: n},
    "by": {who: n}}`` (every kind and every code present, typed texts counted as ``typed``)."""
    kinds = dict.fromkeys(KINDS, 0)
    reasons = dict.fromkeys(CODES + ("typed",), 0)
    by = {}
    for o in overrides:
        kinds[o.kind.value] += 1
        reasons[reason_bucket(o.why)] += 1
        by[o.by] = by.get(o.by, 0) + 1
    return {"kinds": kinds, "reasons": reasons, "by": dict(sorted(by.items()))}


# --- words (the codes; rig.games.cleptomano.locale) ----------------------------------------------

_REASON_WORDS = {
    "misfire": N_("cleptomano.override.reason.misfire"),
    "wrong-player": N_("cleptomano.override.reason.wrong_player"),
    "sensor-fault": N_("cleptomano.override.reason.sensor_fault"),
    "rules-dispute": N_("cleptomano.override.reason.rules_dispute"),
    "other": N_("cleptomano.override.reason.other"),
    UNSPECIFIED: N_("cleptomano.override.reason.unspecified"),
    RULEBOOK: N_("cleptomano.override.reason.rulebook"),
}
_KIND_WORDS = {
    Kind.UNDO: N_("cleptomano.override.kind.undo"),
    Kind.VOID: N_("cleptomano.override.kind.void"),
    Kind.CORRECTION: N_("cleptomano.override.kind.correction"),
    Kind.HAUL: N_("cleptomano.override.kind.haul"),
    Kind.CLAMP: N_("cleptomano.override.kind.clamp"),
}


def reason_msg(why):
    """A reason as the faces say it: its code's words, or the typed text as it is."""
    code = _REASON_WORDS.get(why)
    return Msg(code) if code is not None else why


def kind_msg(kind):
    return Msg(_KIND_WORDS[Kind(kind)])


def line_msg(o):
    """One override (an :class:`Override`, or its JSON as the replay prints it) as ``history``
    says it: ``void at 12.3 s, Ben's turn (round 2), by keys (guard Ana), why: misfire``."""
    if isinstance(o, Override):
        o = o.as_json()
    params = dict(kind=kind_msg(o["kind"]), t="%.1f" % o["t"], thief=o["thief"], by=o["by"],
                  guard=str(o["guard"] or "-"), why=reason_msg(o["reason"]))
    if o["round"]:
        return Msg("cleptomano.override.line", round=o["round"], **params)
    return Msg("cleptomano.override.line_tiebreak", **params)


def pick_prompt(cancel):
    """The screen's prompt after an override: the reasons, one digit each, and the key that
    leaves it unspecified."""
    return Msg("cleptomano.keys.why_prompt", reasons=joined(
        [Msg("cleptomano.keys.why_item", number=i + 1, reason=reason_msg(r))
         for i, r in enumerate(REASONS)], N_("cleptomano.list.comma")), cancel=cancel)


def given_msg(o):
    """The log's line when a reason is given after its override."""
    return Msg("cleptomano.call.reason_given", kind=kind_msg(o.kind), by=o.by,
               why=reason_msg(o.why))
