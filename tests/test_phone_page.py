"""The one phone page (docs/games/phones.md): every game served the same way.  ``/`` and ``/games/``
answer one page, ``GET /api/playing`` names the running game and the parts of the page its
folder holds, each served from it; Cleptómano's part builds the guard's commands the rig
takes; and no module of rig/web imports a game: it reads them through the registry and the
contract."""

import ast
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rig import games as registry
from rig.core.contract import Game
from rig.core.errors import RequestError
from rig.shell.config import load_config
from rig.web.commands import parse_command
from rig.web.face import STATIC_DIR, GameWebFace, WebFace

BASE = "http://127.0.0.1:8080"
WEB = Path(__file__).resolve().parents[1] / "rig" / "web"
CLEPTOMANO = WEB.parent / "games" / "cleptomano"
NODE = shutil.which("node")


@pytest.fixture
def faces(tmp_path):
    clep = WebFace(load_config(None).web, tmp_path, static_dir=STATIC_DIR)
    other = GameWebFace(load_config(None).web, tmp_path, static_dir=STATIC_DIR)
    return TestClient(clep.app, base_url=BASE), TestClient(other.app, base_url=BASE)


def test_one_page_answers_both_addresses_and_names_the_running_game(faces):
    clep, other = faces
    page = clep.get("/")
    assert page.status_code == 200 and page.text == clep.get("/games/").text
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert clep.get("/games.js").text == clep.get("/games/games.js").text
    assert clep.get("/api/playing").json() == {"game": "cleptomano", "title": "Cleptómano",
                                               "parts": ["js", "html", "css"]}
    waiting = other.get("/api/playing")          # the host names the game: not given yet
    assert waiting.status_code == 503 and "starting" in waiting.json()["error"]


def test_each_part_of_a_game_is_served_from_its_folder(faces):
    clep, _ = faces
    for kind, media in (("js", "text/javascript"), ("html", "text/html"), ("css", "text/css")):
        answer = clep.get("/games/phone/cleptomano." + kind)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(media)
        assert answer.text == (CLEPTOMANO / ("phone." + kind)).read_text("utf-8")
    missing = clep.get("/games/phone/stop-thief.html")
    assert missing.status_code == 404 and "cleptomano" in missing.json()["error"]


def test_no_module_of_the_web_imports_a_game():
    """The registry (rig.games) is rig/web's one way to a game: never a game's package."""
    folders = {p.name for p in (WEB.parent / "games").iterdir() if p.is_dir()}
    found = []
    for path in sorted(WEB.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = ["rig", "web"][:max(0, 3 - node.level)] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                names = [module] + ["%s.%s" % (module, a.name) for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[:2] == ["rig", "games"] and len(parts) > 2 and parts[2] in folders:
                    found.append("%s imports %s" % (path.name, name))
    assert found == []


def test_every_game_answers_the_phones_group_of_the_contract():
    for g in registry.games():
        assert isinstance(g, Game), g
        assert isinstance(g.seated_phones, bool) and isinstance(g.phone_checks, tuple)
        assert g.phone_commands is None or all(isinstance(c, type) for c in g.phone_commands)


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")
def test_cleptomanos_part_builds_the_guards_commands_the_rig_takes():
    """Its phone.js registers its command builders as every game's: what its buttons send
    parses as the guard's commands (POST /api/command), by the phone that sent them."""
    program = ("const vm = require('vm'); const fs = require('fs'); const w = {}; "
               "vm.runInContext(fs.readFileSync(%s, 'utf-8'), vm.createContext({window: w})); "
               "const C = w.GameCommands.cleptomano; console.log(JSON.stringify([C.choose("
               "'thief', 'Ben'), C.loot(1, '0'), C.undo(), C.newMatch({players: ['Ana', 'Ben'],"
               " difficulty: 'hard', first_thief: 'Ben'})]))"
               % json.dumps(str(CLEPTOMANO / "phone.js")))
    bodies = json.loads(subprocess.run([NODE, "-e", program], check=True, timeout=30,
                                       capture_output=True, text=True).stdout)
    assert bodies[1] == {"loot": {"paintings": 1, "relics": 0}}
    for body in bodies:
        assert parse_command(body, "Ben's phone").by == "Ben's phone"
    with pytest.raises(RequestError) as refused:
        parse_command({"input": "laser.4", "value": 1}, "Ben's phone")
    assert refused.value.status == 400
