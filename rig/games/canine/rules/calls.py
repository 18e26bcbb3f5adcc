"""The game's words, in one place: effects, dice calls and score lines as English sentences."""

from collections import Counter

from rig.core.gamekit import Sound
from . import effects as fx
from .cards import PAW, POO_PIZZA
from .dice import BADGER_DISCARDS, SQUIRREL_PICKS


def _join(names):
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _plural(n, word, words=None):
    return "%d %s" % (n, word if n == 1 else (words or word + "s"))


def _faces(call):
    return _join(str(face) for _, face in call.rolls)


def call_words(call):
    """What the screen says while ``call`` waits for a roll, or its outcome once decided."""
    if call.decided:
        return outcome_words(call)
    roller = call.whose_roll
    if call.card == "key":
        return "Key to the Master's Bedroom: %s rolls for an %s number (roll %d of %d)." % (
            roller, call.parity, len(call.rolls) + 1, call.tries)
    if call.card == "badger":
        return "Rancid Badger Poo: %s rolls to see how far it passes." % roller
    if call.card == "squirrel":
        return "Squirrel: %s's roll; the first six picks up %s." % (
            roller, _plural(SQUIRREL_PICKS, "Collectable"))
    return "Charm Offensive: %s rolls for a six to stop %s (try %d of %d)." % (
        roller, call.thief, len(call.rolls) + 1, call.tries)


def outcome_words(call):
    """What the die decided for a finished ``call``."""
    who = call.by
    if call.card == "key":
        if call.won:
            return ("%s rolled %s: the Key opens the Master's Bedroom: take its top card."
                    % (who, _faces(call)))
        return ("%s rolled %s: no %s number in %s; the Master's Bedroom stays locked."
                % (who, _faces(call), call.parity, _plural(call.tries, "roll")))
    if call.card == "badger":
        face = call.rolls[0][1]
        return ("%s rolled %d: pass the Rancid Badger Poo %s clockwise to %s, who discards "
                "%d Collectables (never the Poo Pizza)."
                % (who, face, _plural(face, "player"), call.holder, BADGER_DISCARDS))
    if call.card == "squirrel":
        return "%s rolled the first six: %s picks up %s from the Collectables pile." % (
            call.winner, call.winner, _plural(SQUIRREL_PICKS, "card"))
    if call.won:
        return "%s rolled a six (try %d of %d): %s's steal is prevented." % (
            who, len(call.rolls), call.tries, call.thief)
    return "%s rolled %s: no six in %s; %s's steal goes ahead." % (
        who, _faces(call), _plural(call.tries, "try", "tries"), call.thief)


def words(effect):
    """One effect as the sentence the screen and the log show (None for a sound: it says
    nothing)."""
    t = type(effect)
    if t is Sound:
        return None
    if t is fx.DoggyChosen:
        if effect.face_up:
            return "%s's doggy is %s (face up)." % (effect.player, effect.doggy)
        return "%s has taken a doggy card (face down)." % effect.player
    if t is fx.ActionDrawn:
        pile = "the second Action pile" if effect.pile == 2 else "the Action pile"
        return "Action card drawn: %s left in %s." % (_plural(effect.left, "card"), pile)
    if t is fx.PileRanOut:
        return _ran_out_words(effect)
    if t is fx.CallStarted:
        return call_words(effect.call)
    if t is fx.Rolled:
        return "%s rolled %d." % (effect.player, effect.face)
    if t is fx.CallDecided:
        return outcome_words(effect.call)
    if t is fx.GameOver:
        return "Game over: everyone enters their Hiding Places on their phone to be scored."
    if t is fx.Revealed:
        if effect.again:
            return "%s corrected their Hiding Places." % effect.player
        return "%s's Hiding Places are in." % effect.player
    if t is fx.FinalScores:
        return _final_words(effect)
    raise TypeError("no words for %r" % (effect,))


def _ran_out_words(effect):
    if effect.deck == "collectables":
        if effect.then == "game-over":
            return "The Collectables pile has run out: the game is over."
        return ("The Collectables pile has run out; play goes on until the Action pile runs "
                "out.")
    if effect.then == "reshuffle":
        return ("The Action pile has run out: reshuffle every Action card (the unused ones in "
                "the playing areas too) and add one more Hiding Place per player: %s. The game "
                "now ends when either pile runs out." % _plural(effect.size, "card"))
    return "The Action pile has run out: the game is over."


def _final_words(effect):
    table = ", ".join("%s %d" % pt for pt in effect.standings)
    if len(effect.winners) == 1:
        return "Final scores: %s. %s wins!" % (table, effect.winners[0])
    best = effect.standings[0][1]
    return "Final scores: %s. %s share the win with %d." % (table, _join(effect.winners), best)


def _signed(points):
    return "%+d" % points


def line_words(line):
    """One line of a score breakdown ("Hiding place 1: 3 Slipper: 3 x 2 = 6")."""
    if line.item == "hiding-place":
        label = "Hiding place %d%s" % (line.place, " (Ultimate)" if line.ultimate else "")
        if not line.cards:
            return "%s: empty: 0" % label
        counted = Counter(line.cards)
        cards = " + ".join(name if n == 1 else "%d %s" % (n, name)
                           for name, n in counted.items())
        sums = "%d x %d" % (line.collectables, line.each)
        if line.multiplier != 1:
            sums += " x %d" % line.multiplier
        return "%s: %s: %s = %d" % (label, cards, sums, line.points)
    if line.item == "all-of-a-kind":
        which = "hidden %s doubled" % line.kind if line.kind else "all hidden cards doubled"
        return "All of a kind (%s): %s: %s" % (_join(line.completed), which,
                                               _signed(line.points))
    if line.item == "face-up":
        return "%s face up: %d" % (line.cards[0], line.points)
    if line.item == "doggy":
        return "%s: %s: %s" % (line.doggy, _plural(line.collectables, "target Collectable"),
                               _signed(line.points))
    if line.item == "paw":
        return "%s: %s" % (PAW, _signed(line.points))
    return "%s: %s" % (POO_PIZZA, _signed(line.points))


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ana  Ana 12, Ben 9``, ``unfinished (3 rolls)``."""
    if outcome.code == "unfinished":
        return "unfinished (%s)" % _plural(outcome.get("rolls"), "roll")
    standings = ", ".join("%s %d" % pt for pt in outcome.scores)
    return "winner%s %s  %s" % ("s" if len(outcome.winners) > 1 else "",
                                " and ".join(outcome.winners), standings)
