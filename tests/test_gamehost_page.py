"""The games' phone page (rig/web/static/games/): served by the rig under its own security
headers, same-origin only, and its command builders (each game's in its own phone.js, run in
Node) speak exactly the API's vocabulary: the bodies they build play a whole game through the
real game host."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rig.shell.config import StolenPaintingsConfig, load_config
from rig.web.face import STATIC_DIR
from sim.gamehost import BASE, Night

PAGE = STATIC_DIR / "games"
#: Each game's part of the page, in its folder (served as /games/phone/<game>.js).
PARTS = {path.parent.name.replace("_", "-"): path
         for path in sorted((STATIC_DIR.parent.parent / "games").glob("*/phone.js"))}
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="Node.js is not installed (.ci/run "
                                                     "installs it: apt-get install nodejs)")
#: Node: the page's scripts run as a browser loads them (classic scripts sharing ``window``):
#: commands.js, then each game's part; ``w`` is their window.
LOADED = ("const vm = require('vm'); const fs = require('fs'); const w = {}; "
          "const ctx = vm.createContext({window: w, Dom: {}}); for (const path of %s) "
          "vm.runInContext(fs.readFileSync(path, 'utf-8'), ctx); " % json.dumps(
              [str(PAGE / "commands.js"), *map(str, PARTS.values())]))


def test_the_page_is_served_with_the_rigs_headers_and_loads_nothing_from_elsewhere(tmp_path):
    from rig.web.face import GameWebFace
    face = GameWebFace(load_config(None).web, tmp_path, static_dir=STATIC_DIR)
    with TestClient(face.app, base_url=BASE) as client:
        page = client.get("/games/")
        assert page.status_code == 200 and '<script src="games.js" defer>' in page.text
        assert client.get("/").text == page.text              # the one phone page
        assert "default-src 'self'" in page.headers["content-security-policy"]
        for name in ("games.js", "commands.js", "games.css"):
            assert client.get("/games/" + name).status_code == 200
        for name, path in PARTS.items():
            script = client.get("/games/phone/%s.js" % name)
            assert script.status_code == 200 and script.text == path.read_text("utf-8")
            assert script.headers["content-type"].startswith("text/javascript")
            assert "default-src 'self'" in script.headers["content-security-policy"]
        for name in ("chess", "stop_thief"):
            missing = client.get("/games/phone/%s.js" % name)
            assert missing.status_code == 404
            assert missing.json()["error"] == (
                "%r is no game with a part of the phone page; the games with one are "
                "cleptomano, stop-thief, stolen-paintings, chest-heist, canine" % name)
    # The games page's files, each game's part, and the scripts it loads from the rig's root.
    for path in [*PAGE.iterdir(), *PARTS.values(), *STATIC_DIR.glob("*.js")]:
        text = path.read_text("utf-8")
        # No asset from the internet (the SVG namespace is a name, never fetched).
        assert not re.search(r"https?://", text.replace("http://www.w3.org/2000/svg", "")), path
        assert "innerHTML" not in text and "outerHTML" not in text, path
    assert "<script>" not in (STATIC_DIR / "index.html").read_text("utf-8")   # no inline script


@needs_node
def test_the_page_scripts_parse():
    for path in [PAGE / "games.js", PAGE / "commands.js", *PARTS.values()]:
        subprocess.run([NODE, "--check", str(path)], check=True, timeout=30)


def test_every_game_of_the_page_has_its_part():
    assert list(PARTS) == ["canine", "chest-heist", "cleptomano", "stolen-paintings",
                           "stop-thief"]


@needs_node
def test_each_games_part_registers_itself_as_a_browser_loads_it():
    """A game's phone.js runs as a classic script: it registers its maker in
    ``window.GamePhones`` under its own name, and the maker gives the page the game's status,
    board and controls (never its title: the rig's list says it, GET /api/games)."""
    program = (LOADED + "const out = {}; for (const name of %s) {"
               " const part = w.GamePhones[name]({commands: w.GameCommands});"
               " out[name] = part.mount ? ['page', ...['mount', 'receive', 'relanguage'].map("
               "(k) => typeof part[k])] : [part.title, ...['status', 'board', 'controls'].map("
               "(k) => typeof part[k])]; } console.log(JSON.stringify(out))"
               % json.dumps(list(PARTS)))
    out = subprocess.run([NODE, "-e", program], check=True, timeout=30, capture_output=True,
                         text=True).stdout
    # A part is a page of its own (Cleptómano's: its phone.html) or set in the games' frame.
    assert json.loads(out) == {name: ["page" if name == "cleptomano" else None, "function",
                                      "function", "function"] for name in PARTS}


@needs_node
def test_each_games_part_brings_its_command_builder_as_a_browser_loads_it():
    """commands.js and each game's phone.js run as classic scripts, as the page loads them:
    each game's commands reach the page through ``window.GameCommands``, under its name (a
    top-level const would not)."""
    program = LOADED + "console.log(Object.keys(w.GameCommands).join(','))"
    out = subprocess.run([NODE, "-e", program], check=True, timeout=30, capture_output=True,
                         text=True).stdout.strip()
    assert out.split(",") == list(PARTS)


def built(script):
    """What the games' command builders build for ``script`` (JavaScript using ``C``, the
    page's ``window.GameCommands``), as JSON."""
    program = LOADED + "const C = w.GameCommands; console.log(JSON.stringify(%s));" % script
    out = subprocess.run([NODE, "-e", program], check=True, timeout=30, capture_output=True,
                         text=True).stdout
    return json.loads(out)


@needs_node
def test_the_pages_commands_play_a_whole_game_through_the_host(tmp_path):
    players = ("Ana", "Ben")
    n = Night(tmp_path, "stolen-paintings", players,
              config=StolenPaintingsConfig(exhibition_s=5))
    try:
        for name in players:
            n.phone(name)
        bodies = built('[C["stolen-paintings"].start(), C["stolen-paintings"].steal([6, 2, 2]),'
                       ' C["stolen-paintings"].mark([2, 5])]')
        assert bodies[1] == {"steal": [2, 6]}
        for thief, detective in (("Ana", "Ben"), ("Ben", "Ana")):
            assert n.send(thief, bodies[0]).status_code == 200
            n.clock.advance(5.0)
            assert n.send(thief, bodies[1]).status_code == 200
            assert n.send(detective, bodies[2]).status_code == 200
        view = n.public()["view"]       # each: 1 as a detective (2 of 2, 6), 1 as thief (6)
        assert view["phase"] == "over" and view["totals"] == {"Ana": 2, "Ben": 2}
    finally:
        n.close()


@needs_node
@pytest.mark.parametrize("game, players, script", [
    ("chest-heist", ("Ana",), '[["Ana", C["chest-heist"].roll()], ["Ana", '
                              'C["chest-heist"].reroll([5, 4])], ["Ana", '
                              'C["chest-heist"].charge(1, [1])], ["Ana", '
                              'C["chest-heist"].endTurn()]]'),
    ("canine", ("Ana", "Ben"), '[["Ana", C.canine.doggy("Doggy A", false)], ["Ben", '
                               'C.canine.doggy("Doggy B", true)], ["Ana", C.canine.draw()], '
                               '["Ana", C.canine.play("key", {parity: "odd", discards: 0})], '
                               '["Ana", C.canine.roll()], ["Ben", C.canine.empty("action")], '
                               '["Ana", C.canine.reveal([{cards: ["Slipper", "Slipper"], '
                               'ultimate: false}], [], true, false)], ["Ben", '
                               'C.canine.reveal([{cards: ["Bone", "Bone"]}], [], false, true)]]'),
    ("stop-thief", ("Ana", "Ben"), '[["Ana", C["stop-thief"].clue()], ["Ana", '
                                   'C["stop-thief"].replay()], ["Ana", C["stop-thief"].arrest('
                                   '"12")], ["Ben", C["stop-thief"].clue()], ["Ben", '
                                   'C["stop-thief"].endTurn()]]'),
])
def test_each_games_page_commands_are_taken_by_the_rig(tmp_path, game, players, script):
    n = Night(tmp_path, game, players)
    try:
        for name in players:
            n.phone(name)
        for name, body in built(script):
            answer = n.send(name, body)
            assert answer.status_code == 200, (body, answer.json())
    finally:
        n.close()


@needs_node
def test_the_canine_pages_entry_scores_a_lone_laundry_basket_and_face_up_cards(tmp_path):
    """What the page's reveal form builds reaches the scorer whole: the kind a Laundry Basket
    alone on a place stands for, and the Master's Bedroom cards left face up (the page could
    send neither before)."""
    n = Night(tmp_path, "canine", ("Ana", "Ben"))
    try:
        for name in ("Ana", "Ben"):
            n.phone(name)
        bodies = built('[C.canine.doggy("Doggy B", false), C.canine.empty("action"), '
                       'C.canine.reveal([{cards: ["Laundry Basket"], ultimate: false, '
                       'wild_as: "Bone"}, {cards: [], wild_as: null}, {cards: ["Bone", '
                       '"Bone"], ultimate: true, wild_as: null}], ["Wacky Earplugs"], false, '
                       'false)]')
        assert bodies[2]["reveal"]["hiding_places"] == [
            {"cards": ["Laundry Basket"], "ultimate": False, "wild_as": "Bone"},
            {"cards": ["Bone", "Bone"], "ultimate": True}]        # the empty place left out
        for body in bodies:
            assert n.send("Ana", body).status_code == 200, body
        me = n.phones["Ana"].get("/api/game/me").json()
        assert [line["words"] for line in me["score"]["lines"]] == [
            "Hiding place 1: Laundry Basket: 2 x 3 = 6",
            "Hiding place 2 (Ultimate): 2 Bone: 2 x 3 x 2 = 12",
            "Wacky Earplugs face up: 6", "Doggy B: 4 target Collectables: +10"]
        assert me["choices"]["wild"] == ["Laundry Basket"]
        assert me["choices"]["card_names"]["key"] == "Key to the Master's Bedroom"
    finally:
        n.close()
