"""A leaderboard's standings as the big screen and the phones read them (two tables, one
online, a live turn), for the leaderboard page's browser tests."""

STANDINGS = {
    "players": [{"rank": 1, "name": "Ana", "matches_won": 2, "matches_played": 3,
                 "round_wins": 5, "points": 1200, "best_solo_title": "Master thief",
                 "fastest_tiebreak_s": 12.5}],
    "rigs": [{"rig": "table-1", "status": "online", "matches": 3, "undecided": 1,
              "live": {"phase": "turn", "round": 2, "thief": "Ana", "guard": "Ben",
                       "remaining_s": 42, "players": ["Ana", "Ben"]}},
             {"rig": "table-2", "status": "offline", "matches": 0, "undecided": 0,
              "live": None}],
    "matches": [{"decided": True}, {"decided": True}, {"decided": False}],
}
