"""The game's words, in one place: effects, dice calls and score lines as codes
(:class:`rig.core.msg.Msg`), never sentences.

Each function returns a Msg of the ``canine`` catalog (``rig/games/canine/locale``): the host
says it in English for the log, in the table's language on the screen and in each phone's own.
A count that changes the words is the parameter ``n`` (a plural entry: Romanian has three
forms); a list of names is a tuple (joined the language's way); a card's name is its
:func:`~.cards.card_name` (the catalog's words for the cards the rulebook names).
"""

from collections import Counter

from rig.core.gamekit import Sound
from rig.core.msg import N_, Msg
from . import effects as fx
from .cards import PAW, POO_PIZZA, card_name, card_names, place_label
from .dice import BADGER_DISCARDS, SQUIRREL_PICKS, card_title, parity_word


def _faces(call):
    """The faces rolled for ``call``, a list (said "3, 4 and 6")."""
    return tuple(face for _, face in call.rolls)


def call_words(call):
    """What the screen says while ``call`` waits for a roll, or its outcome once decided."""
    if call.decided:
        return outcome_words(call)
    roller = call.whose_roll
    if call.card == "key":
        return Msg("canine.call.key_rolling", player=roller, parity=parity_word(call.parity),
                   roll=len(call.rolls) + 1, tries=call.tries)
    if call.card == "badger":
        return Msg("canine.call.badger_rolling", player=roller)
    if call.card == "squirrel":
        return Msg("canine.call.squirrel_rolling", player=roller, n=SQUIRREL_PICKS)
    return Msg("canine.call.charm_rolling", player=roller, thief=call.thief,
               roll=len(call.rolls) + 1, tries=call.tries)


def outcome_words(call):
    """What the die decided for a finished ``call``."""
    who = call.by
    if call.card == "key":
        if call.won:
            return Msg("canine.call.key_opened", player=who, faces=_faces(call))
        return Msg("canine.call.key_locked", player=who, faces=_faces(call),
                   parity=parity_word(call.parity), n=call.tries)
    if call.card == "badger":
        return Msg("canine.call.badger_passed", player=who, n=call.rolls[0][1],
                   holder=call.holder, discards=BADGER_DISCARDS)
    if call.card == "squirrel":
        return Msg("canine.call.squirrel_won", player=call.winner, n=SQUIRREL_PICKS)
    if call.won:
        return Msg("canine.call.charm_stopped", player=who, roll=len(call.rolls),
                   tries=call.tries, thief=call.thief)
    return Msg("canine.call.charm_failed", player=who, faces=_faces(call), n=call.tries,
               thief=call.thief)


def words(effect):
    """One effect as the message the screen, the phones and the log show (None for a sound: it
    says nothing)."""
    t = type(effect)
    if t is Sound:
        return None
    if t is fx.DoggyChosen:
        if effect.face_up:
            return Msg("canine.call.doggy_face_up", player=effect.player,
                       doggy=card_name(effect.doggy))
        return Msg("canine.call.doggy_face_down", player=effect.player)
    if t is fx.ActionDrawn:
        if effect.pile == 2:
            return Msg("canine.call.action_drawn_second", n=effect.left)
        return Msg("canine.call.action_drawn", n=effect.left)
    if t is fx.PileRanOut:
        return _ran_out_words(effect)
    if t is fx.CallStarted:
        return call_words(effect.call)
    if t is fx.Rolled:
        return Msg("canine.call.rolled", player=effect.player, face=effect.face)
    if t is fx.CallDecided:
        return outcome_words(effect.call)
    if t is fx.GameOver:
        return Msg("canine.call.game_over")
    if t is fx.Revealed:
        if effect.again:
            return Msg("canine.call.corrected", player=effect.player)
        return Msg("canine.call.revealed", player=effect.player)
    if t is fx.FinalScores:
        return _final_words(effect)
    raise TypeError("no words for %r" % (effect,))


def _ran_out_words(effect):
    if effect.deck == "collectables":
        if effect.then == "game-over":
            return Msg("canine.call.collectables_out_over")
        return Msg("canine.call.collectables_out_play_on")
    if effect.then == "reshuffle":
        return Msg("canine.call.action_out_reshuffle", n=effect.size)
    return Msg("canine.call.action_out_over")


def standings_table(standings):
    """(player, points) pairs as a score table, "Ana 12, Ben 9, Caro -3": names and numbers
    only, the same in every language (as the log and ``history`` have always written it)."""
    return ", ".join("%s %d" % pt for pt in standings)


def _final_words(effect):
    table = standings_table(effect.standings)
    if len(effect.winners) == 1:
        return Msg("canine.call.final_one", scores=table, winner=effect.winners[0])
    best = effect.standings[0][1]
    return Msg("canine.call.final_tie", scores=table, winners=tuple(effect.winners),
               points=best)


def signed(points):
    """Points with their sign, as a bonus reads: ``+12``, ``-30``, ``+0``."""
    return "%+d" % points


def _place_cards(cards):
    """The cards of a Hiding Place, a kind and how many: "3 Slipper", "Laundry Basket"."""
    out = []
    for name, n in Counter(cards).items():
        out.append(card_name(name) if n == 1 else
                   Msg("canine.line.cards", count=n, card=card_name(name)))
    return tuple(out)


def line_words(line):
    """One line of a score breakdown ("Hiding place 1: 3 Slipper: 3 x 2 = 6")."""
    if line.item == "hiding-place":
        label = place_label(line.place, line.ultimate)
        if not line.cards:
            return Msg("canine.line.empty_place", label=label)
        if line.multiplier != 1:
            return Msg("canine.line.place_doubled", label=label, cards=_place_cards(line.cards),
                       collectables=line.collectables, each=line.each,
                       multiplier=line.multiplier, points=line.points)
        return Msg("canine.line.place_points", label=label, cards=_place_cards(line.cards),
                   collectables=line.collectables, each=line.each, points=line.points)
    if line.item == "all-of-a-kind":
        if line.kind:
            return Msg("canine.line.all_of_kind_that", kinds=card_names(line.completed),
                       kind=card_name(line.kind), points=signed(line.points))
        return Msg("canine.line.all_of_kind_all", kinds=card_names(line.completed),
                   points=signed(line.points))
    if line.item == "face-up":
        return Msg("canine.line.face_up", card=card_name(line.cards[0]), points=line.points)
    if line.item == "doggy":
        return Msg("canine.line.doggy", doggy=card_name(line.doggy), n=line.collectables,
                   points=signed(line.points))
    card = PAW if line.item == "paw" else POO_PIZZA
    return Msg("canine.line.special", card=card_name(card), points=signed(line.points))


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ana  Ana 12, Ben 9``, ``unfinished (3 rolls)``."""
    if outcome.code == "unfinished":
        code = N_("canine.outcome.ended") if outcome.over else N_("canine.outcome.unfinished")
        return Msg(code, n=outcome.get("rolls"))
    return Msg("canine.outcome.won", n=len(outcome.winners), winners=tuple(outcome.winners),
               scores=standings_table(outcome.scores))
