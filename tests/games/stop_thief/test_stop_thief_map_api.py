"""GET /api/game/board: the town map the phones draw a caught thief's path on (issue 16).

The page asks for it once, after the first arrest; anyone may (the printed board holds no
secret).  Through Starlette's test client on the real game host, as tests/test_gamehost_web.py
(where the 404 while Cleptómano runs is tested with the other game routes).
"""

from starlette.testclient import TestClient

from rig.games.stop_thief.rules.board import board_from_dict

from sim.gamehost import BASE


def test_the_board_map_is_the_games_board_for_anyone(night):
    n = night("stop-thief", ("Ana", "Ben"))
    answer = TestClient(n.face.app, base_url=BASE).get("/api/game/board")   # not paired
    assert answer.status_code == 200
    drawn = answer.json()
    assert drawn["name"] == "Port Pilfer"
    assert board_from_dict(drawn) == n.host.game.board     # every space where the file puts it
    assert "seed" not in answer.text


def test_a_game_without_a_map_answers_404_saying_so(night):
    n = night("chest-heist", ("Ana",))
    answer = TestClient(n.face.app, base_url=BASE).get("/api/game/board")
    assert answer.status_code == 404
    assert answer.json()["error"] == "The chest heist has no board map; only Stop Thief! has one"

