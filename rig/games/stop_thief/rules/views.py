"""What the scanner's screen and the phones may show: JSON-ready dicts, never the secret.

:func:`public_view` reads everything of the game except ``case.thief`` while the thief is at
large; the caught thief's whole path appears (``arrest``) from the arrest until the next clue,
and stays in the game's end view.  :func:`player_view` adds what one phone needs: that player's
money and which buttons they may press now.
"""

from rig.core.errors import IllegalMove
from . import events as ev
from .calls import calls, clue_sound, clue_words
from .rules import not_a_player, refusal

GAME = "stop-thief"


def _clues(case):
    return [{"number": i, "kind": c.kind, "sound": clue_sound(c.kind).as_json(),
             "words": clue_words(c.kind).as_json(), "by": c.by}
            for i, c in enumerate(case.clues, 1)]


def _said(message):
    """A :class:`Msg` as the view carries it (plain JSON; each face says it), or ""."""
    return message.as_json() if message is not None else ""


def _arrest(game):
    """The last caught thief with its path, while the screen should show it."""
    if not game.caught or (game.case.clues and not game.over):
        return None
    case = game.caught[-1]
    card = game.card(case)
    attempt = next(a for a in reversed(game.attempts) if a.right)
    return {"number": case.number, "name": card.name, "by": case.caught_by,
            "space": attempt.space, "reward": card.reward, "crime_wave": case.crime_wave,
            "paid": attempt.paid, "path": list(case.thief.path),
            "clues": [c.kind for c in case.clues]}


def public_view(game):
    """The table's view: whose turn, money, the thief card, this thief's clues, the winner."""
    case, card = game.case, game.card()
    caught = [{"number": c.number, "name": game.card(c).name, "by": c.caught_by,
               "paid": a.paid, "space": a.space}
              for c, a in zip(game.caught, [a for a in game.attempts if a.right])]
    return {
        "game": GAME,
        "board": game.board.name,
        "players": [{"name": p, "money": m, "turn": i == game.turn and not game.over}
                    for i, (p, m) in enumerate(zip(game.players, game.money))],
        "turn": None if game.over else game.player,
        "clue_taken": game.clued,
        "retire": game.retire,
        "thief": {"number": case.number, "name": card.name, "reward": card.reward,
                  "crime_wave": case.crime_wave, "total": card.reward + case.crime_wave,
                  "at_large": case.caught_by is None},
        "clues": _clues(case),
        "deck": len(game.deck),
        "arrest": _arrest(game),
        "caught": caught,
        "winner": game.winner,
        "message": _said(calls(game.last)),
    }


def player_view(game, player):
    """The view for ``player``'s phone: the public view plus ``you`` (their money, whether it is
    their turn, and what they may press: clue, replay, arrest, end_turn)."""
    if player not in game.players:
        raise IllegalMove(not_a_player(game, player))
    view = public_view(game)
    probes = {"clue": ev.GetClue(game.t, player), "replay": ev.ReplayClue(game.t, player),
              "arrest": ev.Arrest(game.t, game.board.numbers[0], player),
              "end_turn": ev.EndTurn(game.t, player)}
    view["you"] = {
        "name": player,
        "money": game.money_of(player),
        "your_turn": not game.over and game.player == player,
        "can": {name: refusal(game, probe) is None for name, probe in probes.items()},
    }
    return view
