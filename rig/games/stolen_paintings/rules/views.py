"""What the table's screen, each phone and a replay may see of a game of Stolen Paintings.

Secrets: the stolen paintings (the thief's entry) and every detective's marks.  Neither is in
:func:`public_view` before the round's reveal, when the last ballot is in; a phone sees its
own secret only (:func:`player_view`).  All three return JSON-ready dicts.
"""

from .model import PAINTINGS
from .rules import next_deadline, not_a_player
from .scoring import identified, round_points, standings, thief_scores, totals

GAME = "stolen-paintings"


def _settings(game):
    s = game.settings
    return {"exhibition_s": s.exhibition_s, "max_marks": s.max_marks,
            "wrong_mark_cost": s.wrong_mark_cost}


def round_json(game, r):
    """A revealed round: what was stolen, every ballot, what each identified, the points."""
    return {
        "round": r.number,
        "thief": r.thief,
        "stolen": sorted(r.stolen),
        "marks": {p: sorted(m) for p, m in r.ballots},
        "identified": {p: sorted(identified(m, r.stolen)) for p, m in r.ballots},
        "points": round_points(r, game.players, game.settings.wrong_mark_cost),
    }


def public_view(game, now_t=None):
    """The table's screen.  ``now_t`` (the game clock now), if given, adds the countdown's
    ``remaining_s``."""
    r = game.current
    winners, decided_by = standings(game)
    view = {
        "game": GAME,
        "players": list(game.players),
        "settings": _settings(game),
        "paintings": PAINTINGS,
        "rounds": len(game.players),
        "phase": "over" if r is None else r.phase,
        "round": None if r is None else r.number,
        "thief": None if r is None else r.thief,
        "detectives": [] if r is None else list(game.detectives(r.thief)),
        "ends_t": next_deadline(game),
        "marked": [] if r is None else [p for p, _ in r.ballots],
        "waiting": [],
        "last_round": round_json(game, game.rounds[-1]) if game.rounds else None,
        "totals": totals(game),
        "thief_scores": thief_scores(game),
        "winners": list(winners),
        "decided_by": decided_by,
    }
    if r is not None and r.phase == "auction":
        view["waiting"] = [p for p in game.detectives(r.thief) if r.ballot(p) is None]
    if now_t is not None and view["ends_t"] is not None:
        view["remaining_s"] = round(max(0.0, view["ends_t"] - now_t), 6)
    return view


def player_view(game, player, now_t=None):
    """``player``'s phone: the public view, their role, what they may send now, and their own
    secret (the thief's entry, a detective's marks)."""
    if player not in game.players:
        raise not_a_player(game, player)
    view = public_view(game, now_t)
    view["you"] = player
    r = game.current
    if r is None:
        view.update(role=None, can=[], mine=[])
        return view
    if player == r.thief:
        can = {"setup": ["start"], "swap": ["steal"]}.get(r.phase, [])
        view.update(role="thief", can=can, mine=sorted(r.stolen))
    else:
        mine = r.ballot(player)
        view.update(role="detective", can=["mark"] if r.phase == "auction" else [],
                    mine=sorted(mine) if mine is not None else [])
    return view


def result(game):
    """The replay's output: every revealed round, the totals and, once over, the winners."""
    winners, decided_by = standings(game)
    r = game.current
    return {
        "game": GAME,
        "players": list(game.players),
        "settings": _settings(game),
        "rounds": [round_json(game, x) for x in game.rounds],
        "totals": totals(game),
        "thief_scores": thief_scores(game),
        "over": game.over,
        "winners": list(winners),
        "decided_by": decided_by,
        "unfinished": None if r is None else {"round": r.number, "thief": r.thief,
                                               "phase": r.phase},
    }
