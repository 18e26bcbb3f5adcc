"""Stolen Paintings' effects as codes (:class:`rig.core.msg.Msg`), for the log, the screen's
message line and the phones: the only place the game's calls are made.  The words are in the
game's catalogs (``locale/<lang>/LC_MESSAGES/stolen_paintings.po``), the Romanian in the
rulebook's own terms (hoț, detectivi, picturi, Faza Expoziției)."""

from rig.core.gamekit import Sound
from rig.core.msg import N_, Msg
from . import effects as fx
from .model import GRID, MOST_STOLEN, PAINTINGS


def points(n):
    """``n`` points (a signed whole number), with the plural form its size takes."""
    return Msg("stolen_paintings.call.points", n=abs(n), points=n)


def paintings(numbers):
    """"painting 3" or "paintings 2 and 5": the numbers in the row."""
    numbers = tuple(numbers)
    return Msg("stolen_paintings.call.paintings", n=len(numbers), numbers=numbers)


def call(effect):
    """The code for one effect, or None for an effect that has no words (a sound)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, fx.ExhibitionStarted):
        return Msg("stolen_paintings.call.exhibition", round=effect.round, thief=effect.thief,
                   n=GRID[0] * GRID[1])
    if isinstance(effect, fx.EyesClosed):
        return Msg("stolen_paintings.call.eyes_closed", thief=effect.thief, most=MOST_STOLEN,
                   row=PAINTINGS)
    if isinstance(effect, fx.EyesOpened):
        return Msg("stolen_paintings.call.eyes_opened")
    if isinstance(effect, fx.BallotIn):
        if effect.waiting:
            code = (N_("stolen_paintings.call.changed_waiting") if effect.changed
                    else N_("stolen_paintings.call.marked_waiting"))
            return Msg(code, detective=effect.detective, waiting=tuple(effect.waiting))
        code = (N_("stolen_paintings.call.changed_all_in") if effect.changed
                else N_("stolen_paintings.call.marked_all_in"))
        return Msg(code, detective=effect.detective)
    if isinstance(effect, fx.Revealed):
        return reveal_words(effect)
    if isinstance(effect, fx.GameOver):
        return game_over_words(effect)
    raise TypeError("no words for %r" % (effect,))


def _found(detective, marks, stolen, gained):
    found = tuple(n for n in marks if n in stolen)
    if not found:
        return Msg("stolen_paintings.call.found_none", detective=detective, points=gained)
    if len(found) == len(stolen):
        return Msg("stolen_paintings.call.found_all", detective=detective, found=found,
                   points=gained)
    return Msg("stolen_paintings.call.found", detective=detective, found=found, points=gained)


def reveal_words(effect):
    """The reveal: what was stolen, what each detective found and everyone's points."""
    gained = dict(effect.points)
    stolen = set(effect.stolen)
    results = tuple(_found(d, marks, stolen, points(gained[d])) for d, marks in effect.marks)
    return Msg("stolen_paintings.call.revealed", round=effect.round, thief=effect.thief,
               stolen=paintings(effect.stolen), results=results,
               thief_points=points(gained[effect.thief]))


def _totals(pairs):
    """``Ana 10, Ben 7``: names and numbers, the same in every language."""
    return ", ".join("%s %s" % (p, n) for p, n in pairs)


def game_over_words(effect):
    totals = _totals(effect.totals)
    if effect.decided_by == "total":
        return Msg("stolen_paintings.call.won_total", winner=effect.winners[0], totals=totals)
    if effect.decided_by == "thief":
        return Msg("stolen_paintings.call.won_thief", winner=effect.winners[0], totals=totals)
    return Msg("stolen_paintings.call.won_shared", winners=tuple(effect.winners), totals=totals)


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ben  Ana 1, Ben 3``, ``unfinished (round 2)  Ana 0, Ben 1``
    (in English)."""
    totals = _totals(outcome.scores)
    if outcome.code == "unfinished":
        code = (N_("stolen_paintings.outcome.ended") if outcome.over    # stopped before its end
                else N_("stolen_paintings.outcome.unfinished"))
        return Msg(code, round=outcome.get("round"), totals=totals)
    return Msg("stolen_paintings.outcome.won", n=len(outcome.winners),
               winners=tuple(outcome.winners), totals=totals)
