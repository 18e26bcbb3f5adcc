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

from dataclasses import dataclass
from itertools import combinations

from rig.core.gamekit import listing
from .boxes import BLACK, EVEN, NUMBER, ODD, PAIR

_MOST_LISTED = 10


@dataclass(frozen=True)
class Verdict:
    """``ok`` with the arithmetic that ticks the box (``"6 - 5 = 1"``), or the reason not."""
    ok: bool
    formula: str = ""
    reason: str = ""


def _yes(formula):
    return Verdict(True, formula=formula)


def _no(reason):
    return Verdict(False, reason=reason)


def _terms(dice, skimmers):
    """(label, value) for each die, then each skimmer (given as (number, value))."""
    return ([(str(v), v) for v in dice]
            + [("skimmer %d (%d)" % (n, v), v) for n, v in skimmers])


def _described(dice, skimmers):
    """``dice 5 and 6``, ``die 4 plus skimmer 2 (7)``, ``skimmer 1 (12)``."""
    parts = []
    if dice:
        parts.append("%s %s" % ("die" if len(dice) == 1 else "dice",
                                listing(str(v) for v in dice)))
    if skimmers:
        parts.append(listing("skimmer %d (%d)" % pair for pair in skimmers))
    return " plus ".join(parts)


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
        return _no("choose at least one die or a charged skimmer to tick box %d" % box.number)
    reachable = set()
    for total, minus in sums(terms):
        if total == box.number:
            return _yes(_formula(terms, set(minus), total))
        if total > 0:
            reachable.add(total)
    made = sorted(reachable)
    if len(made) > _MOST_LISTED:
        can = "%d different numbers from %d to %d" % (len(made), made[0], made[-1])
    else:
        can = listing(map(str, made), "or")
    hint = ""
    if len(terms) > 1 and box.number in [v for _, v in terms]:
        hint = "; to tick it with one die, choose only the %d" % box.number
    if len(terms) == 1:
        return _no("%s is %d, not %d" % (_described(dice, skimmers), terms[0][1], box.number))
    return _no("%s make %s by adding and subtracting, never %d%s"
               % (_described(dice, skimmers), can, box.number, hint))


def _single(box, dice, skimmers):
    word, parity = ("a P (pair: even)", 0) if box.kind == EVEN else ("an I (impair: odd)", 1)
    if skimmers:
        return _no("%s box takes a single die, never a skimmer" % word)
    if len(dice) != 1:
        return _no("%s box takes exactly one die; %s chosen" % (word, _described(dice, ())
                                                                   if dice else "none"))
    if dice[0] % 2 != parity:
        return _no("%d is %s; %s box takes one %s die" % (
            dice[0], "odd" if parity == 0 else "even", word, "even" if parity == 0 else "odd"))
    return _yes(str(dice[0]))


def _pair(box, dice, skimmers):
    if skimmers:
        return _no("an x2 box takes a pair of identical dice only, never a skimmer")
    if len(dice) != 2:
        return _no("an x2 box takes exactly two identical dice; %s chosen"
                   % (_described(dice, ()) if dice else "none"))
    a, b = dice
    if a != b:
        return _no("%d and %d are not identical; an x2 box takes a pair of identical dice "
                   "(6 & 6, 5 & 5...)" % (a, b))
    if box.number is not None and a + b != box.number:
        return _no("%d & %d make %d; this x2 box needs %d, a pair of %ds"
                   % (a, b, a + b, box.number, box.number // 2))
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
        return _no("a black box was ticked by the previous burglar; it cannot be ticked again")
    raise ValueError("%r is not a box kind" % (box.kind,))
