"""What the screen and each phone may show: JSON-ready dicts built from the game state.

The table's screen (:func:`public_view`) shows the die, whose roll it is, the end tracker, who
has entered their Hiding Places and, once everyone has, the final score table with its
breakdown.  It never shows a face-down doggy, or a score before every score is in (a player's
entry reveals the Poo Pizza they may have been bluffing about).  A phone
(:func:`player_view`) adds that player's own doggy card, their entry and its breakdown, and the
actions it should offer now.

Words in a view are codes (:class:`rig.core.msg.Msg`) in their JSON form (``{"code": ...,
"params": ...}``), so the view stays plain JSON: the screen says them in the table's language,
each phone's page receives them said in its own.  Card names the phones send back (the card
table's) stay as they are in the lists; ``choices.names`` gives each one's words.
"""

from rig.core.errors import IllegalMove
from rig.core.msg import Msg, N_
from . import game as g
from .calls import call_words, line_words
from .cards import card_name
from .dice import CARDS, SIX, card_title
from .scoring import holdings_to_json, line_to_json


def public_view(game):
    final = g.is_final(game)
    phase = "final" if final else ("scoring" if game.over else "playing")
    return {
        "game": g.GAME,
        "players": list(game.players),
        "phase": phase,
        "placeholder": game.table.placeholder,
        "settings": {"optional_rule": game.optional_rule, "longer_game": game.longer_game,
                     "die_faces": game.table.die_faces},
        "end": _end(game),
        "dice": _dice(game),
        "last_roll": _last_roll(game),
        "doggies": [_public_doggy(game, p) for p in game.players],
        "revealed": [p for p, _ in game.entries],
        "scores": _scores(game) if final else None,
        "winners": list(g.winners(game)),
    }


def player_view(game, player):
    if player not in game.players:
        raise IllegalMove(Msg("canine.refuse.not_a_player", name=g.shown_name(player),
                              players=game.players))
    view = public_view(game)
    doggy = game.doggy_of(player)
    entry = game.entry_of(player)
    taken = {d for p, d, up in game.doggies if p != player and up}   # a face-down one: secret
    view.update(
        you=player,
        doggy=_doggy_card(game, player) if doggy else None,
        entry=holdings_to_json(entry) if entry is not None else None,
        score=_score_json(g.scores(game)[player]) if entry is not None else None,
        your_roll=game.call is not None and game.call.whose_roll == player,
        actions=_actions(game, player),
        choices={
            "doggies": [d.name for d in game.table.doggies if d.name not in taken],
            "kinds": [c.kind for c in game.table.collectables],
            "bedroom": [c.name for c in game.table.bedroom if not c.hiding_place],
            # the Laundry Baskets: a place holding one alone must say which kind it stands for
            "wild": [c.name for c in game.table.bedroom if c.wild],
            "cards": sorted(CARDS),
            "card_names": {c: card_title(c).as_json() for c in sorted(CARDS)},
            # what a player reads for each name above (the rulebook's cards in their language)
            "names": _names(game.table),
        })
    return view


def said(name):
    """A card name as a view carries it: its words (a Msg's JSON) or the owner's own name."""
    found = card_name(name)
    return found.as_json() if isinstance(found, Msg) else found


def _names(table):
    names = [c.kind for c in table.collectables] + [c.name for c in table.bedroom] + \
        [d.name for d in table.doggies]
    return {name: said(name) for name in names}


def _actions(game, player):
    """The commands this player's phone should offer now."""
    out = ["choose-doggy"]
    open_call = game.call is not None
    if game.over is None:
        out += ["deck-empty"] + ([] if open_call else ["draw"])
    if not open_call and not game.entries:
        out.append("play")
    if open_call and game.call.whose_roll == player:
        out.append("roll")
    if game.over is not None and not open_call:
        out.append("reveal")
    return out


def _end(game):
    size = game.first_pile if game.pile == 1 else game.second_pile
    if game.over:
        ends = N_("canine.end.over")
    elif game.longer_game and game.pile == 1:
        ends = N_("canine.end.second_pile_next")
    elif game.longer_game:
        ends = N_("canine.end.either_runs_out")
    else:
        ends = N_("canine.end.runs_out")
    return {"pile": game.pile, "piles": 2 if game.longer_game else 1, "left": game.left,
            "size": size, "over": game.over, "ends": Msg(ends).as_json()}


def _dice(game):
    """The call being carried out, or else the last one decided (so its outcome stays up)."""
    call = game.call or (game.calls[-1] if game.calls else None)
    if call is None:
        return None
    need = call.parity if call.card == "key" else ("any" if call.card == "badger" else "six")
    return {"card": call.card, "name": card_title(call.card).as_json(), "by": call.by,
            "whose_roll": call.whose_roll, "tries": call.tries, "tries_left": call.tries_left,
            "need": need, "six": SIX, "thief": call.thief,
            "rolls": [{"player": p, "face": f} for p, f in call.rolls],
            "decided": call.decided, "won": call.won, "holder": call.holder,
            "winner": call.winner, "words": call_words(call).as_json()}


def _last_roll(game):
    if not game.rolls:
        return None
    player, card, face = game.rolls[-1]
    return {"number": len(game.rolls) - 1, "player": player, "card": card, "face": face}


def _public_doggy(game, player):
    chosen = next(((d, up) for p, d, up in game.doggies if p == player), None)
    shown = chosen is not None and (chosen[1] or g.is_final(game))
    return {"player": player, "chosen": chosen is not None,
            "doggy": said(chosen[0]) if shown else None}


def _doggy_card(game, player):
    dog = game.table.doggy_cards[game.doggy_of(player)]
    face_up = next(up for p, _, up in game.doggies if p == player)
    return {"name": dog.name, "said": said(dog.name), "targets": list(dog.targets),
            "bonus_per_card": dog.bonus_per_card, "bonus_at": [list(s) for s in dog.bonus_at],
            "power": dog.power, "face_up": face_up}


def _score_json(score):
    return {"total": score.total,
            "lines": [dict(line_to_json(line), words=line_words(line).as_json())
                      for line in score.lines]}


def _scores(game):
    by_player = g.scores(game)
    best = set(g.winners(game))
    return [dict(_score_json(by_player[p]), player=p, winner=p in best)
            for p, _ in g.standings(game)]
