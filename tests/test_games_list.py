"""The phones' list of games is the rig's: ``GET /api/games`` answers the registry (anyone, no
pairing) on Cleptómano's face and on the other games' alike, a game registered from outside the
rig included, and no game's name or title is typed into the phones' scripts
(rig/web/static): "Play another game" and the games page read them from the rig."""

import re
import textwrap

import pytest
from starlette.testclient import TestClient

from rig import games as registry
from rig.shell.config import load_config
from rig.web.face import STATIC_DIR, GameWebFace, WebFace
from rig.web.pairing import Pairing

BASE = "http://127.0.0.1:8080"

LISTED = [
    {"name": "cleptomano", "title": "Cleptómano", "museum": True, "min_players": 1,
     "max_players": 8, "solo": False},
    {"name": "stop-thief", "title": "Stop Thief!", "museum": False, "min_players": 2,
     "max_players": 6, "solo": False},
    {"name": "stolen-paintings", "title": "Stolen Paintings", "museum": False,
     "min_players": 2, "max_players": 8, "solo": False},
    {"name": "chest-heist", "title": "The chest heist", "museum": False, "min_players": 1,
     "max_players": 1, "solo": True},
    {"name": "canine", "title": "Canine Kleptomaniacs", "museum": False, "min_players": 2,
     "max_players": 10, "solo": False},
]


@pytest.fixture(params=[WebFace, GameWebFace], ids=["cleptomano", "other-games"])
def client(request, tmp_path):
    face = request.param(load_config(None).web, tmp_path, pairing=Pairing(),
                         static_dir=STATIC_DIR)
    with TestClient(face.app, base_url=BASE) as client:
        yield client


def test_anyone_reads_the_registrys_games_in_its_order(client):
    answer = client.get("/api/games")
    assert answer.status_code == 200 and answer.json() == LISTED
    assert [g["name"] for g in answer.json()] == list(registry.names())


def test_a_registered_game_is_offered_to_the_phones(client, tmp_path, monkeypatch):
    package = "solo_%s" % tmp_path.name.replace("-", "_")
    folder = tmp_path / "site" / package
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("from .game import GAME\n", "utf-8")
    (folder / "game.py").write_text(textwrap.dedent('''
        from rig.games.chest_heist import GAME as CHEST

        class Solo(type(CHEST)):     # a whole game (the registry checks it), renamed
            name = prefix = recording = section = "solo-heist"
            title = "A solo heist"
            title_msg = None             # its title is its name in every language
            solo = True
            max_players = 1

        GAME = Solo()
        '''), "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    registry.register(package)
    try:
        listed = client.get("/api/games").json()
    finally:
        registry.unregister(package)
    assert listed == LISTED + [{"name": "solo-heist", "title": "A solo heist", "museum": False,
                                "min_players": 1, "max_players": 1, "solo": True}]
    assert client.get("/api/games").json() == LISTED


def code_of(script):
    """A script's code without its comments (a comment may name a game for its reader)."""
    script = re.sub(r"/\*.*?\*/", "", script, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in script.splitlines())


def test_no_game_is_named_or_titled_in_the_phones_scripts():
    scripts = sorted(STATIC_DIR.rglob("*.js"))
    assert len(scripts) >= 5
    typed = []
    for path in scripts:
        code = code_of(path.read_text("utf-8"))
        for g in registry.games():
            named = re.search(r"""["'`]%s["'`]|\b%s\s*:""" % ((re.escape(g.name),) * 2), code)
            if named or g.title in code:
                typed.append("%s names %s" % (path.relative_to(STATIC_DIR), g.name))
    assert typed == []
