"""The chest heist's effects in English words (French for the titles, with a gloss): the only
place the game's sentences are written."""

from rig.core.gamekit import Sound, listing
from . import effects as fx
from .model import TURNS


def _dice(values):
    return " ".join(str(v) for v in values)


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def title_words(title):
    """``("Loupé", "Missed")`` -> ``"Loupé (Missed)"``."""
    return "%s (%s)" % title


def call(effect):
    """The words for one effect, or None for an effect that has none (a sound)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, fx.Rolled):
        if not effect.rerolled:
            return "Turn %d of %d: you rolled %s." % (effect.turn, TURNS, _dice(effect.dice))
        return "Rerolled %s: now %s (%s left)." % (
            listing("die %d" % p for p in effect.rerolled), _dice(effect.dice),
            _plural(effect.rerolls_left, "reroll"))
    if isinstance(effect, fx.Ticked):
        where = effect.box if effect.box == effect.label else "%s (%s)" % (effect.box,
                                                                          effect.label)
        used = "".join("; skimmer %d switched off" % n for n in effect.skimmers)
        return "Box %s ticked: %s%s." % (where, effect.formula, used)
    if isinstance(effect, fx.Charged):
        return "Skimmer %d charged with %s: now worth %d." % (
            effect.skimmer, listing(map(str, effect.added)), effect.value)
    if isinstance(effect, fx.ChestOpened):
        return "Chest %s opened: %s!" % (effect.chest, _plural(effect.diamonds, "diamond"))
    if isinstance(effect, fx.ChestLocked):
        burgled = " (already burgled)" if effect.opened else ""
        return "End of turn %d: chest %s goes into maximum lock%s." % (
            effect.turn, effect.chest, burgled)
    if isinstance(effect, fx.FinalScore):
        if effect.score is None:
            return ("Chest L is locked: the game is over. Count the diamonds on your sheet "
                    "and enter them (%s unused: %d more)."
                    % (_plural(effect.unused_skimmers, "skimmer"), effect.unused_skimmers))
        return "Final score %d (%s, %s unused): %s." % (
            effect.score, _plural(effect.diamonds, "diamond"),
            _plural(effect.unused_skimmers, "skimmer"), title_words(effect.title))
    raise TypeError("no words for %r" % (effect,))


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``score 17: Le Chat Cambrioleur (The Cat Burglar)``."""
    if outcome.code == "unfinished":
        return "unfinished (%d of 12 chests locked)" % outcome.get("locked")
    return "score %d: %s (%s)" % (outcome.get("score"), outcome.get("title_fr"),
                                  outcome.get("title_en"))
