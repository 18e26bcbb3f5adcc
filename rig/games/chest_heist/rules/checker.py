"""The combination checker: may these dice (and skimmers) tick this box?

The rulebook's rules, as the rig applies them:

* a numbered box: one die showing its number, or several dice added or subtracted (5 & 6 tick
  box 11 as 5 + 6, or box 1 as 6 - 5); any number of dice, plus and minus mixed as needed, the
  result being the box's number (so never 0 or less).  A charged skimmer counts as one more
  die whose value is its charge, added or subtracted; the rig finds the signs;
* a P (pair: even) or I (impair: odd) box: exactly one die of the right kind, nothing else;
* an x2 box: exactly two identical dice, nothing else (and, if the box carries a number, the
  pair makes it: x2:6 takes 3 & 3);
* a black box is already ticked.

Each die is used once a turn: that is the rules' business (:mod:`.rules`); here every die and
skimmer given is used in the combination.  Pure: values in, a :class:`Verdict` out.
"""

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Optional

from rig.core.msg import N_, Msg
from .boxes import BLACK, EVEN, NUMBER, ODD, PAIR

_MOST_LISTED = 10
#: How a skimmer is written in a formula (``"4 + skimmer 2 (7) = 11"``): the replay's JSON keeps
#: it; :func:`plain_formula` drops the words for a player's screen.
_SKIMMER_TERM = re.compile(r"skimmer (\d+) \((-?\d+)\)")


@dataclass(frozen=True)
class Verdict:
    """``ok`` with the arithmetic that ticks the box (``"6 - 5 = 1"``), or the reason not (a
    code: :class:`rig.core.msg.Msg`)."""
    ok: bool
    formula: str = ""
    reason: Optional[Msg] = None


def _yes(formula):
    return Verdict(True, formula=formula)


def _no(reason):
    return Verdict(False, reason=reason)


def plain_formula(formula):
    """``formula`` with each skimmer written as its value alone (``"4 + 7 = 11"``): numbers
    and signs, the same in every language."""
    return _SKIMMER_TERM.sub(lambda m: m.group(2), formula)


def formula_skimmers(formula):
    """The skimmers a formula uses, as ``(number, value)`` pairs."""
    return tuple((int(a), int(b)) for a, b in _SKIMMER_TERM.findall(formula))


def _terms(dice, skimmers):
    """(label, value) for each die, then each skimmer (given as (number, value))."""
    return ([(str(v), v) for v in dice]
            + [("skimmer %d (%d)" % (n, v), v) for n, v in skimmers])  # not words: the replay's


def described(dice, skimmers):
    """``dice 5 and 6``, ``die 4 plus skimmer 2 (7)``, ``skimmer 1 (12)``, ``none``: a code."""
    parts = []
    if dice:
        parts.append(Msg("chest_heist.check.dice", n=len(dice), values=tuple(dice)))
    if skimmers:
        parts.append(tuple(Msg("chest_heist.check.skimmer", skimmer=n, value=v)
                           for n, v in skimmers))
    if not parts:
        return Msg("chest_heist.check.none")
    if len(parts) == 1:
        return parts[0] if isinstance(parts[0], Msg) else Msg("chest_heist.check.skimmers",
                                                              skimmers=parts[0])
    return Msg("chest_heist.check.plus", dice=parts[0], skimmers=parts[1])


def _formula(terms, minus, total):
    plus = [label for i, (label, _) in enumerate(terms) if i not in minus]
    text = " + ".join(plus) + "".join(" - " + terms[i][0] for i in sorted(minus))
    return text if len(terms) == 1 else "%s = %d" % (text, total)


def sums(terms):
    """Every (total, minus indices) the terms can make, fewest subtractions first."""
    everything = sum(v for _, v in terms)
    for k in range(len(terms)):
        for minus in combinations(range(len(terms)), k):
            yield everything - 2 * sum(terms[i][1] for i in minus), minus


def _numbered(box, dice, skimmers):
    terms = _terms(dice, skimmers)
    if not terms:
        return _no(Msg("chest_heist.check.choose", box=box.number))
    reachable = set()
    for total, minus in sums(terms):
        if total == box.number:
            return _yes(_formula(terms, set(minus), total))
        if total > 0:
            reachable.add(total)
    made = sorted(reachable)
    what = described(dice, skimmers)
    if len(terms) == 1:
        return _no(Msg("chest_heist.check.is_not", what=what, value=terms[0][1], box=box.number))
    if len(made) > _MOST_LISTED:
        can = Msg("chest_heist.check.range", count=len(made), low=made[0], high=made[-1])
    elif len(made) > 1:
        can = Msg("chest_heist.check.either", first=", ".join(map(str, made[:-1])), last=made[-1])
    else:
        can = str(made[0])
    if box.number in [v for _, v in terms]:
        return _no(Msg("chest_heist.check.never_hint", what=what, can=can, box=box.number))
    return _no(Msg("chest_heist.check.never", what=what, can=can, box=box.number))


def _single(box, dice, skimmers):
    kind = Msg("chest_heist.check.p_box") if box.kind == EVEN else Msg("chest_heist.check.i_box")
    parity = 0 if box.kind == EVEN else 1
    if skimmers:
        return _no(Msg("chest_heist.check.single_no_skimmer", kind=kind))
    if len(dice) != 1:
        return _no(Msg("chest_heist.check.single_count", kind=kind, chosen=described(dice, ())))
    if dice[0] % 2 != parity:
        code = N_("chest_heist.check.is_odd") if parity == 0 else N_("chest_heist.check.is_even")
        return _no(Msg(code, value=dice[0], kind=kind))
    return _yes(str(dice[0]))


def _pair(box, dice, skimmers):
    if skimmers:
        return _no(Msg("chest_heist.check.pair_no_skimmer"))
    if len(dice) != 2:
        return _no(Msg("chest_heist.check.pair_count", chosen=described(dice, ())))
    a, b = dice
    if a != b:
        return _no(Msg("chest_heist.check.pair_differ", a=a, b=b))
    if box.number is not None and a + b != box.number:
        return _no(Msg("chest_heist.check.pair_sum", a=a, b=b, total=a + b, box=box.number,
                   half=box.number // 2))
    return _yes("%d & %d" % (a, b))


def check(box, dice=(), skimmers=()):
    """May ``dice`` (their values) and ``skimmers`` (``(number, value)`` pairs of charged
    skimmers) tick ``box`` (a :class:`~.boxes.Box`), all of them used once?"""
    dice, skimmers = tuple(dice), tuple(skimmers)
    if box.kind == NUMBER:
        return _numbered(box, dice, skimmers)
    if box.kind in (EVEN, ODD):
        return _single(box, dice, skimmers)
    if box.kind == PAIR:
        return _pair(box, dice, skimmers)
    if box.kind == BLACK:
        return _no(Msg("chest_heist.check.black"))
    raise ValueError("%r is not a box kind" % (box.kind,))
