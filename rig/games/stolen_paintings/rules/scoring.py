"""The rulebook's scoring, as arithmetic on sets of painting numbers.

* A detective earns 1, 3 or 6 points for 1, 2 or 3 stolen paintings identified, and 3 more for
  identifying every stolen painting (whether 1, 2 or 3 were stolen: "all the stolen
  paintings"; the bonus is "additional", so it is added on top).  Each mark on a painting that
  was not stolen costs the setting ``wrong_mark_cost`` (0 by default).
* The thief earns 1 point for each stolen painting no detective identified.
* The game's winner has the highest total; a tie goes to the higher score earned as thief (in
  their own round a player can only score as thief, so both readings of the rulebook agree);
  still tied, the tied players share the win.
"""

POINTS_FOR_FOUND = {0: 0, 1: 1, 2: 3, 3: 6}
ALL_FOUND_BONUS = 3


def identified(marks, stolen):
    """The stolen paintings these marks identify (each at most once: marks are a set)."""
    return frozenset(marks) & frozenset(stolen)


def detective_points(marks, stolen, wrong_mark_cost=0):
    found = identified(marks, stolen)
    points = POINTS_FOR_FOUND[len(found)]
    if stolen and found == frozenset(stolen):
        points += ALL_FOUND_BONUS
    return points - wrong_mark_cost * len(frozenset(marks) - found)


def thief_points(stolen, ballots):
    """``ballots``: every detective's marks."""
    seen = frozenset().union(*ballots) if ballots else frozenset()
    return len(frozenset(stolen) - seen)


def round_points(game_round, players, wrong_mark_cost):
    """player -> points in a revealed round, in player order (the thief's included)."""
    ballots = dict(game_round.ballots)
    out = {}
    for p in players:
        if p == game_round.thief:
            out[p] = thief_points(game_round.stolen, list(ballots.values()))
        else:
            out[p] = detective_points(ballots[p], game_round.stolen, wrong_mark_cost)
    return out


def totals(game):
    """player -> total over the revealed rounds."""
    out = {p: 0 for p in game.players}
    for r in game.rounds:
        for p, n in round_points(r, game.players, game.settings.wrong_mark_cost).items():
            out[p] += n
    return out


def thief_scores(game):
    """player -> points earned in the round they were thief (None before it is revealed)."""
    out = {p: None for p in game.players}
    for r in game.rounds:
        out[r.thief] = thief_points(r.stolen, [m for _, m in r.ballots])
    return out


def standings(game):
    """``(winners, decided_by)`` once the game is over, else ``((), None)``.

    ``decided_by`` is ``"total"`` (one highest total), ``"thief"`` (the tie broken by the
    score earned as thief) or ``"shared"`` (still tied: the tied players share the win)."""
    if not game.over:
        return (), None
    total = totals(game)
    best = max(total.values())
    tied = [p for p in game.players if total[p] == best]
    if len(tied) == 1:
        return tuple(tied), "total"
    as_thief = thief_scores(game)
    best_thief = max(as_thief[p] for p in tied)
    top = tuple(p for p in tied if as_thief[p] == best_thief)
    return top, "thief" if len(top) == 1 else "shared"
