"""The chest heist's effects as codes (:class:`rig.core.msg.Msg`), for the log, the screen's
message line and the phone: the only place the game's calls are made.  The words are in the
game's catalogs (``locale/<lang>/LC_MESSAGES/chest_heist.po``), the French in the rulebook's own
terms (dés, cases, coffres, skimmers, relances, verrouillage maximal) and titles."""

from rig.core.gamekit import Sound
from rig.core.msg import N_, Msg
from . import effects as fx
from .checker import plain_formula
from .model import TURNS
from .sheet import CHESTS
from .titles import title_code


def _dice(values):
    """The dice's values as the table reads them: ``3 5 5 1 6``."""
    return " ".join(str(v) for v in values)


def title_words(title):
    """``("Loupé", "Missed")`` -> the title's code (the rulebook's French name in French, a
    translation in the other languages); a name the table does not hold is shown as it is."""
    code = title_code(title[0])
    return Msg(code) if code is not None else "%s (%s)" % tuple(title)


def box_name(box, label):
    """``11``, or ``r2c3 (11)`` when the box is named by its place on the sheet."""
    return box if box == label else "%s (%s)" % (box, label)


def call(effect):
    """The code for one effect, or None for an effect that has no words (a sound)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, fx.Rolled):
        if not effect.rerolled:
            return Msg("chest_heist.call.rolled", turn=effect.turn, turns=TURNS,
                       dice=_dice(effect.dice))
        return Msg("chest_heist.call.rerolled", n=effect.rerolls_left,
                   places=Msg("chest_heist.call.places", n=len(effect.rerolled),
                              places=tuple(effect.rerolled)),
                   dice=_dice(effect.dice))
    if isinstance(effect, fx.Ticked):
        where = box_name(effect.box, effect.label)
        formula = plain_formula(effect.formula)
        if effect.skimmers:
            return Msg("chest_heist.call.ticked_off", box=where, formula=formula,
                       n=len(effect.skimmers), skimmers=tuple(effect.skimmers))
        return Msg("chest_heist.call.ticked", box=where, formula=formula)
    if isinstance(effect, fx.Charged):
        return Msg("chest_heist.call.charged", skimmer=effect.skimmer, added=tuple(effect.added),
                   value=effect.value)
    if isinstance(effect, fx.ChestOpened):
        return Msg("chest_heist.call.opened", chest=effect.chest, n=effect.diamonds)
    if isinstance(effect, fx.ChestLocked):
        if effect.opened:
            return Msg("chest_heist.call.locked_burgled", turn=effect.turn, chest=effect.chest)
        return Msg("chest_heist.call.locked", turn=effect.turn, chest=effect.chest)
    if isinstance(effect, fx.FinalScore):
        if effect.score is None:
            return Msg("chest_heist.call.count", n=effect.unused_skimmers)
        return Msg("chest_heist.call.final", score=effect.score,
                   diamonds=Msg("chest_heist.call.diamonds", n=effect.diamonds),
                   skimmers=Msg("chest_heist.call.unused", n=effect.unused_skimmers),
                   title=title_words(effect.title))
    raise TypeError("no words for %r" % (effect,))


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``score 17: The Cat Burglar`` (in English)."""
    if outcome.code == "unfinished":
        # ``over``: the game ended (a switch, a clean stop) before its score, not cut off
        code = (N_("chest_heist.outcome.ended") if outcome.over
                else N_("chest_heist.outcome.unfinished"))
        return Msg(code, locked=outcome.get("locked"), chests=len(CHESTS))
    french = outcome.get("title_fr")
    title = title_words((french, outcome.get("title_en"))) if french else ""
    return Msg("chest_heist.outcome.scored", score=outcome.get("score"), title=title)
