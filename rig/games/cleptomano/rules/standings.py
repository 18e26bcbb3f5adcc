"""The tournament's standings: a pure function of the matches every rig played.

The leaderboard feeds it what the broker delivered
(:class:`rig.games.cleptomano.rules.tournament.MatchRecord`) and ``cleptomano leaderboard --from
DIR...`` what the recordings replay to; the same matches give the same standings, whatever order
they came in and however often.  Of several versions of one match (same rig, same match id) only the
newest counts (:func:`rig.games.cleptomano.rules.tournament.newer`): a corrected haul replaces the
first count, a message delivered twice counts once.

A player is a name, trimmed and compared case-insensitively ("ana " and "Ana" are one player),
shown as it was written most often.  Only decided matches count (a winner, or a solo heist whose
attempt is over); a match left undecided is listed, and counts for no one.

Per player: matches played and won, round wins, points (the sum of the player's turn scores),
the best criminal title of a solo heist (the highest rank, then the most points, then the narrow
corridor) and the fastest tiebreak (the best adjusted time of an attempt that got a painting
out).  The table is ordered by matches won, round wins, points, then the fastest tiebreak.
"""

from collections import Counter

from rig.core.names import normal, same_name_key
from rig.games.cleptomano.rules import recording, titles
from .tournament import newer

_RANKS = ("Amateur", "Mastery", "Professional", "Specialist", "Legend")


def player_key(name):
    """Who a name is on the leaderboard: the same name by the one rule of
    :mod:`rig.core.names` ("Ana", "ANA" and "Aná" are one player)."""
    return same_name_key(normal(name))


def latest(records):
    """The newest version of every match, by (rig, match id)."""
    out = {}
    for record in records:
        if newer(record, out.get(record.key)):
            out[record.key] = record
    return out


def _solo_rank(record, points):
    """How a solo heist's title ranks: (rank, points, narrow corridor)."""
    level = recording.parse_header(record.header).level
    rank = titles.RANKS[level.lasers][titles.timer_column(level.timer_s)]
    return _RANKS.index(rank), points, level.corridor == "narrow"


class _Player:
    def __init__(self):
        self.spellings = Counter()
        self.played = self.won = self.round_wins = self.points = 0
        self.best_solo = None        # (rank key, title)
        self.fastest = None

    def row(self):
        name = min(self.spellings, key=lambda s: (-self.spellings[s], s))
        return {"name": name, "matches_played": self.played, "matches_won": self.won,
                "round_wins": self.round_wins, "points": self.points,
                "best_solo_title": self.best_solo[1] if self.best_solo else None,
                "fastest_tiebreak_s": self.fastest}


def _count(players, record):
    result = record.result
    seen = {}
    for name in result["players"]:
        player = players.setdefault(player_key(name), _Player())
        player.spellings[normal(name)] += 1
        seen[name] = player
    for player in set(seen.values()):      # " Ana" and "Ana" in one match: one player
        player.played += 1
    for name, wins in result["round_wins"].items():
        seen[name].round_wins += wins
    if result["winner"] is not None:
        seen[result["winner"]].won += 1
    for turn in result["turns"]:
        if turn["score"] is not None:
            seen[turn["thief"]].points += turn["score"]
    if len(result["players"]) == 1 and result["title"] is not None:
        name = result["players"][0]
        points = sum(t["score"] or 0 for t in result["turns"])
        best = (_solo_rank(record, points), result["title"])
        if seen[name].best_solo is None or best[0] > seen[name].best_solo[0]:
            seen[name].best_solo = best
    for attempt in result["tiebreak"] or ():
        time_s = attempt["adjusted_s"]
        if time_s is not None and not attempt["caught"]:
            player = seen[attempt["thief"]]
            player.fastest = time_s if player.fastest is None else min(player.fastest, time_s)


def _order(row):
    fastest = row["fastest_tiebreak_s"]
    return (-row["matches_won"], -row["round_wins"], -row["points"],
            fastest if fastest is not None else float("inf"))


def standings(records, statuses=(), lives=()):
    """The standings of every match in ``records`` (any order, duplicates and old versions
    included): ``{"players": [...], "rigs": [...], "matches": [...]}``, JSON-ready.  Each rig
    shows its last :class:`~rig.games.cleptomano.rules.tournament.Status` and
    :class:`~rig.games.cleptomano.rules.tournament.Live` of ``statuses`` and ``lives`` (none from
    recordings alone: ``status`` is then None)."""
    matches = sorted(latest(records).values(), key=lambda r: r.key)
    players, rigs = {}, {}

    def rig_row(rig_id):
        return rigs.setdefault(rig_id, {"rig": rig_id, "matches": 0, "undecided": 0,
                                        "status": None, "version": None,
                                        "current_match": None, "live": None})
    for record in matches:
        rig = rig_row(record.rig)
        if record.decided:
            rig["matches"] += 1
            _count(players, record)
        else:
            rig["undecided"] += 1
    for status in statuses:
        rig_row(status.rig).update(status="online" if status.online else "offline",
                                   version=status.version, current_match=status.match_id)
    for live in lives:
        rig_row(live.rig)["live"] = live.board
    rows = sorted((p.row() for p in players.values()), key=lambda r: (_order(r), r["name"]))
    for i, row in enumerate(rows):
        row["rank"] = rows[i - 1]["rank"] if i and _order(rows[i - 1]) == _order(row) else i + 1
    return {
        "players": rows,
        "rigs": [rigs[k] for k in sorted(rigs)],
        "matches": [{"rig": r.rig, "match": r.match_id, "players": r.result["players"],
                     "decided": r.decided, "winner": r.result["winner"],
                     "title": r.result["title"], "closed": r.closed, "bytes": r.size,
                     "sha256": r.sha256} for r in matches],
    }
