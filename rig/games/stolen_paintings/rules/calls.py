"""Stolen Paintings' effects in English words, for the log, the screen's message line and the
phones: the only place the game's sentences are written."""

from rig.core.gamekit import Sound, listing
from . import effects as fx
from .model import GRID, MOST_STOLEN, PAINTINGS


def _paintings(numbers):
    numbers = list(numbers)
    word = "painting" if len(numbers) == 1 else "paintings"
    return "%s %s" % (word, listing(str(n) for n in numbers))


def _points(n):
    return "%d point%s" % (n, "" if n in (1, -1) else "s")


def call(effect):
    """The words for one effect, or None for an effect that has none (a sound)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, fx.ExhibitionStarted):
        return ("Round %d: %s is the thief. Detectives, memorise the %d paintings until the "
                "time runs out." % (effect.round, effect.thief, GRID[0] * GRID[1]))
    if isinstance(effect, fx.EyesClosed):
        return ("Time! Detectives, close your eyes. %s, swap 1 to %d paintings, lay out %d in a "
                "row numbered 1 to %d, and enter the stolen ones on your phone."
                % (effect.thief, MOST_STOLEN, PAINTINGS, PAINTINGS))
    if isinstance(effect, fx.EyesOpened):
        return ("Detectives, open your eyes! Mark on your phone the paintings you believe "
                "were stolen.")
    if isinstance(effect, fx.BallotIn):
        verb = "changed their marks" if effect.changed else "has marked"
        if effect.waiting:
            return "%s %s; waiting for %s." % (effect.detective, verb, listing(effect.waiting))
        return "%s %s; all marks are in." % (effect.detective, verb)
    if isinstance(effect, fx.Revealed):
        return reveal_words(effect)
    if isinstance(effect, fx.GameOver):
        return game_over_words(effect)
    raise TypeError("no words for %r" % (effect,))


def reveal_words(effect):
    points = dict(effect.points)
    stolen = set(effect.stolen)
    parts = ["Round %d: %s stole %s." % (effect.round, effect.thief, _paintings(effect.stolen))]
    for detective, marks in effect.marks:
        found = [n for n in marks if n in stolen]
        what = "found %s" % listing(str(n) for n in found) if found else "found none"
        if found and len(found) == len(stolen):
            what += " (all of them)"
        parts.append("%s %s: %s." % (detective, what, _points(points[detective])))
    parts.append("%s, the thief: %s." % (effect.thief, _points(points[effect.thief])))
    return " ".join(parts)


def game_over_words(effect):
    totals = ", ".join("%s %d" % pair for pair in effect.totals)
    if effect.decided_by == "total":
        head = "%s wins with the highest total!" % effect.winners[0]
    elif effect.decided_by == "thief":
        head = "%s wins the tie with the best score as thief!" % effect.winners[0]
    else:
        head = "%s share the win (tied, also as thief)!" % listing(effect.winners)
    return "%s Totals: %s." % (head, totals)


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ben  Ana 1, Ben 3``, ``unfinished (round 2)  Ana 0, Ben 1``."""
    totals = ", ".join("%s %d" % kv for kv in outcome.scores)
    if outcome.code == "unfinished":
        return "unfinished (round %d)  %s" % (outcome.get("round"), totals)
    return "winner%s %s  %s" % ("s" if len(outcome.winners) > 1 else "",
                                " and ".join(outcome.winners), totals)
