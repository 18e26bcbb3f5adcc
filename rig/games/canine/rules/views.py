"""What the screen and each phone may show: JSON-ready dicts built from the game state.

The table's screen (:func:`public_view`) shows the die, whose roll it is, the end tracker, who
has entered their Hiding Places and, once everyone has, the final score table with its
breakdown.  It never shows a face-down doggy, or a score before every score is in (a player's
entry reveals the Poo Pizza they may have been bluffing about).  A phone
(:func:`player_view`) adds that player's own doggy card, their entry and its breakdown, and the
actions it should offer now.
"""

from rig.core.errors import IllegalMove
from . import game as g
from .calls import call_words, line_words
from .dice import CARD_NAMES, SIX
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
        raise IllegalMove("%r is not a player of this game; use one of %s"
                          % (player, ", ".join(game.players)))
    view = public_view(game)
    doggy = game.doggy_of(player)
    entry = game.entry_of(player)
    taken = {d for p, d, _ in game.doggies if p != player}
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
            "cards": sorted(CARD_NAMES),
            "card_names": dict(CARD_NAMES),
        })
    return view


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
        ends = "the game is over"
    elif game.longer_game and game.pile == 1:
        ends = "then a second Action pile is formed"
    elif game.longer_game:
        ends = "ends when it or the Collectables run out"
    else:
        ends = "the game ends when it runs out"
    return {"pile": game.pile, "piles": 2 if game.longer_game else 1, "left": game.left,
            "size": size, "over": game.over, "ends": ends}


def _dice(game):
    """The call being carried out, or else the last one decided (so its outcome stays up)."""
    call = game.call or (game.calls[-1] if game.calls else None)
    if call is None:
        return None
    need = call.parity if call.card == "key" else ("any" if call.card == "badger" else "six")
    return {"card": call.card, "name": CARD_NAMES[call.card], "by": call.by,
            "whose_roll": call.whose_roll, "tries": call.tries, "tries_left": call.tries_left,
            "need": need, "six": SIX, "thief": call.thief,
            "rolls": [{"player": p, "face": f} for p, f in call.rolls],
            "decided": call.decided, "won": call.won, "holder": call.holder,
            "winner": call.winner, "words": call_words(call)}


def _last_roll(game):
    if not game.rolls:
        return None
    player, card, face = game.rolls[-1]
    return {"number": len(game.rolls) - 1, "player": player, "card": card, "face": face}


def _public_doggy(game, player):
    chosen = next(((d, up) for p, d, up in game.doggies if p == player), None)
    shown = chosen is not None and (chosen[1] or g.is_final(game))
    return {"player": player, "chosen": chosen is not None,
            "doggy": chosen[0] if shown else None}


def _doggy_card(game, player):
    dog = game.table.doggy_cards[game.doggy_of(player)]
    face_up = next(up for p, _, up in game.doggies if p == player)
    return {"name": dog.name, "targets": list(dog.targets), "bonus_per_card": dog.bonus_per_card,
            "bonus_at": [list(s) for s in dog.bonus_at], "power": dog.power, "face_up": face_up}


def _score_json(score):
    return {"total": score.total,
            "lines": [dict(line_to_json(line), words=line_words(line)) for line in score.lines]}


def _scores(game):
    by_player = g.scores(game)
    best = set(g.winners(game))
    return [dict(_score_json(by_player[p]), player=p, winner=p in best)
            for p, _ in g.standings(game)]
