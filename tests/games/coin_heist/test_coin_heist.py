"""The sixth game, the coin heist (tests/coin_heist/, the test suite's own), proves issue 21's
"adding a game touches its own folder plus at most two other files": registered from here with
``rig.games.register("coin_heist")`` and no other edit, it is played through the game host on
the virtual clock, at the rig's keys, on the screen (its jewels drawn), from the phones (the
games API, its part of the phone page), its config section read, and replayed and listed by
``cleptomano replay`` and ``history``.  The contract test (tests/test_contract.py) covers it too.

Its words are its own (issue 22): codes of the ``coin_heist`` catalog in its folder
(``locale/<lang>/LC_MESSAGES/coin_heist.po``), compiled here when it is registered, complete in
the four languages (``rig.catalogs.problems()``), said by the real host, screen and phones in
each reader's language, with no player-facing literal left in its files and nothing cut or
shrunk below the legibility floor in the pseudo-locale.

And what makes that true: the coin heist's package lives wholly in its folder, and the rig
itself names each of its games only in that game's folder and the registry's one line (the
known, documented exceptions are listed below with their reason).
"""

import ast
import json
import keyword
import re
from pathlib import Path

import pytest

from rig import catalogs, cli
from rig import games as registry
from rig.core.errors import ConfigError
from rig.display.game_keys import key_help, primary
from rig.display.game_screens import extra_sounds
from rig.shell.config import load_config
from rig.shell.gamehost import GameHost
from rig.shell.session import RecordingSession
from rig.words import PSEUDO, Words, english, forget_catalogs
from sim.clock import VirtualClock
from sim.compiled import compile_catalogs
from sim.frames import count
from sim.gamehost import ORIGIN, Speakers

HERE = Path(__file__).resolve().parents[2]        # tests/ (this file: tests/games/coin_heist/)
ROOT = HERE.parent
PACKAGE = "coin_heist"
FOLDER = HERE / PACKAGE
SEED = 7                       # its flips: see coin_heist.rules.flip


@pytest.fixture
def coin():
    """The coin heist, registered for one test and taken out afterwards; its catalogs compiled
    (the build compiles only the rig's; the ``.mo`` files are not in git) and read afresh."""
    registry.register(PACKAGE)
    compile_catalogs(FOLDER)
    forget_catalogs()
    try:
        yield registry.game("coin-heist")
    finally:
        registry.unregister(PACKAGE)
        forget_catalogs()
    assert "coin-heist" not in registry.names()


def flips(n):
    from coin_heist.rules import flip
    return [flip(SEED, i) for i in range(n)]


class Table:
    """The coin heist on the game host, in virtual time, played at the rig's keys."""

    def __init__(self, directory, players=("Ana", "Ben"), settings=None, language="en"):
        self.clock = VirtualClock()
        self.display = Speakers()
        self.host = GameHost(registry.game("coin-heist"), players, settings=settings,
                             clock=self.clock, display=self.display, seed=SEED,
                             session=RecordingSession(directory, clock=self.clock),
                             key_help=key_help("coin-heist"),
                             button=primary("coin-heist"), language=language)
        self.host.start()
        self.clock.advance(0.2)

    def press(self, *keys):
        self.display.press(*keys)
        self.clock.advance(0.5)
        return self

    @property
    def view(self):
        return self.display.board.view

    def stop(self):
        self.host.stop()
        return self.host.recording_path


def test_the_coin_heist_is_registered_from_the_tests_alone(coin):
    assert registry.names()[-1] == "coin-heist" and registry.by_recording("coin-heist") is coin
    assert registry.package_of(coin) == PACKAGE
    for name in ("keys", "screen", "samples", "sounds", "settings"):
        assert Path(registry.part(coin, name).__file__).parent == FOLDER, name
    assert registry.data(coin, "phone.js") == (FOLDER / "phone.js").read_text("utf-8")


def test_played_at_the_keys_on_the_host_and_drawn_on_the_screen(coin, tmp_path, capsys):
    table = Table(tmp_path)
    assert primary("coin-heist").side == "heads"           # the start button calls heads
    assert table.view["turn"] == "Ana" and table.view["jewels"] == {"Ana": 0, "Ben": 0}
    first, second = flips(2)
    table.press("space")                                    # Ana calls heads
    assert table.view["last"] == {"player": "Ana", "called": "heads", "flipped": first}
    assert table.view["turn"] == "Ben"
    table.press("t")                                        # Ben calls tails
    assert table.view["last"]["called"] == "tails"
    jewels = {"Ana": int(first == "heads"), "Ben": int(second == "tails")}
    assert table.view["jewels"] == jewels
    assert "dice" in table.display.heard                    # the flip's sound, from the rules
    frame = table.display.frame((800, 480))
    from coin_heist.screen import COIN, HEADS, JEWEL, ROWS, TAILS
    box = lambda f: (int(f[0] * 800), int(f[1] * 480), int(f[2] * 800), int(f[3] * 480))
    shown = HEADS if second == "heads" else TAILS
    assert count(frame, box(COIN), shown, tol=10) > 2000    # the last flip's coin
    gems = count(frame, box(ROWS), JEWEL, tol=10)
    assert (gems > 300) == (sum(jewels.values()) > 0)       # a jewel stolen is a gold gem
    path = table.stop()
    lines = [json.loads(x) for x in path.read_text("utf-8").splitlines()]
    assert lines[0] == {"recording": "coin-heist", "version": 1, "players": ["Ana", "Ben"],
                        "target": 3, "seed": SEED}
    assert [(x["by"] if "by" in x else None, x["call"], x["flipped"]) for x in lines[1:]] == [
        (None, "heads", first), (None, "tails", second)]
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == table.host.result()


def test_played_to_the_end_then_replayed_and_in_history(coin, tmp_path, capsys):
    table = Table(tmp_path)
    t = 0
    while not table.display.board.over:
        side = flips(40)[t]
        right = "space" if side == "heads" else "t"
        wrong = "t" if side == "heads" else "space"
        table.press(right if t % 2 == 0 else wrong)         # Ana always right, Ben wrong
        t += 1
    assert table.view["winner"] == "Ana" and table.view["jewels"] == {"Ana": 3, "Ben": 0}
    outcome = table.display.board.outcome
    assert outcome.code == "coin_heist.outcome.won"            # a code, said by each face
    assert english(outcome) == "Ana won (jewels: Ana 3 and Ben 0)"
    assert "fanfare" in table.display.heard
    table.press("space")                                    # the heist is over: refused
    assert english(table.display.board.message) == (
        "Refused: the heist is over: Ana won; start a new game")
    path = table.stop()
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == table.host.result()
    assert cli.history_lines(tmp_path) == [
        "%s  Coin heist: Ana, Ben  Ana won (jewels: Ana 3 and Ben 0)" % path.name]


def test_played_from_the_phones(coin, night):
    table = night("coin-heist", ["Ana", "Ben"])
    ana, ben = table.phone("Ana"), table.phone("Ben")
    shown = table.public()
    assert shown["game"] == "coin-heist" and shown["view"]["turn"] == "Ana"
    assert ana.get("/api/game/me").json()["may_call"] is True
    assert ben.get("/api/game/me").json()["may_call"] is False
    answer = table.send("Ben", {"call": "heads"})            # not Ben's call
    assert answer.status_code == 409 and "it is Ana's call, not Ben's" in answer.text
    answer = table.send("Ana", {"call": "heads"})
    assert answer.status_code == 200
    assert answer.json()["last"] == {"player": "Ana", "called": "heads", "flipped": flips(1)[0]}
    answer = table.send("Ben", {"call": "edge"})
    assert answer.status_code == 400 and "'edge' is not heads or tails" in answer.text
    answer = table.send("Ben", {"call": "tails", "flipped": "tails"})
    assert answer.status_code == 400 and "flipped" in answer.text   # the rig answers that
    script = ana.get("/games/phone/coin-heist.js")
    assert script.status_code == 200
    assert script.text == (FOLDER / "phone.js").read_text("utf-8")
    assert 'GamePhones = window.GamePhones || {})["coin-heist"]' in script.text
    assert table.public()["view"]["turn"] == "Ben"


def test_the_phones_list_its_recordings(coin, night):
    table = night("coin-heist", ["Ana", "Ben"])
    ana = table.phone("Ana")
    table.send("Ana", {"call": "heads"})
    # Not while it is played: its recording holds the seed that flips the coins to come.
    assert ana.get("/api/game/recordings").json() == []
    table.host.stop()
    table.face.rig = None                  # the game stopped cleanly: nobody plays it on
    listed = ana.get("/api/game/recordings").json()
    assert [r["game"] for r in listed] == ["coin-heist"]


# --- its words: codes of its own catalogs, in each reader's language ---------------------------

def test_its_catalogs_are_in_its_folder_and_complete_in_the_four_languages(coin):
    """Registered from outside the rig, its catalogs are found where it lives: every code its
    files use (rules, screen, keys, phone.js) has words in en, es, fr and ro, plural forms
    complete, the same {fields} as English (what ``python -m rig.catalogs check`` says)."""
    assert catalogs.domain_dirs()[PACKAGE] == FOLDER / "locale"
    used = {code for code in catalogs.extract(FOLDER)}
    assert used and all(code.startswith(PACKAGE + ".") for code in used)
    assert used <= set(catalogs.extract_all())
    for lang in catalogs.LANGS:
        assert (FOLDER / "locale" / lang / "LC_MESSAGES" / (PACKAGE + ".po")).is_file(), lang
    assert [line for line in catalogs.problems() if str(FOLDER) in line] == []
    from rig.words import codes_of
    assert {code for code, _ in codes_of(PACKAGE)} == used


def test_no_player_facing_literal_is_left_in_its_files(coin):
    """The rig's literal scanner (sim/literals.py, README "Languages") over the coin heist's
    own files, which it does not list (they are not in rig/): nothing a player reads is written
    in them; every word is in its catalogs."""
    from sim.literals import scan_page, scan_python
    files = [p for p in sorted(FOLDER.rglob("*.py")) if "__pycache__" not in p.parts
             and p.name != "settings.py"]            # a config key's help is the builder's
    found = [(p.name, line, text) for p in files for _, line, text in scan_python(p)]
    found += [("phone.js", line, text) for _, line, text in scan_page(FOLDER / "phone.js")]
    assert found == []


def test_its_words_in_each_language_with_their_plural_forms(coin):
    from coin_heist.game import GAME
    from coin_heist.rules import Flipped, Won
    from rig.core.contract import Outcome
    stolen = GAME.words(Flipped(1.0, "Ana", "heads", "heads", True))
    assert english(stolen) == "Ana called heads: heads, a jewel stolen!"
    assert Words("es").text(stolen) == "Ana eligió cara: salió cara, ¡una joya robada!"
    assert Words("fr").text(GAME.words(Won(2.0, "Ana"))) == (
        "Ana remporte le casse à pile ou face\u00a0!")
    assert Words("ro").text(GAME.words(Flipped(1.0, "Ben", "tails", "heads", False))) == (
        "Ben a ales pajură: a ieșit cap, nimic")
    unfinished = lambda n: GAME.outcome_words(Outcome(False, (), (("Ana", 1), ("Ben", 0)),
                                                      "unfinished", (("flips", n),)))
    assert english(unfinished(1)) == "unfinished after 1 flip (jewels: Ana 1 and Ben 0)"
    assert [Words("ro").text(unfinished(n)).split(" (")[0] for n in (1, 2, 20)] == [
        "neterminat după 1 aruncare", "neterminat după 2 aruncări",
        "neterminat după 20 de aruncări"]
    assert Words("es").text(unfinished(1000000)).startswith(
        "sin terminar tras 1.000.000 de tiradas (joyas: Ana 1 y Ben 0)")
    table = Words("ro").table([PACKAGE])                 # what a Romanian phone's page reads
    assert table["coin_heist.phone.jewels"] == {
        "one": "{player}: {got} din {n} bijuterie", "few": "{player}: {got} din {n} bijuterii",
        "other": "{player}: {got} din {n} de bijuterii"}
    assert table["coin_heist.phone.heads"] == "Cap"


def _drawn(monkeypatch):
    """What the coin heist's screen draws from now on, as the reader sees it (the words)."""
    import coin_heist.screen as screen
    from rig.draw import kit
    drawn, put = [], screen.put_text

    def put_text(surface, text, *args, **kw):
        drawn.append(kit.as_text(text, 400))
        return put(surface, text, *args, **kw)

    monkeypatch.setattr(screen, "put_text", put_text)
    return drawn


def test_the_table_reads_it_in_spanish_on_the_real_host_and_screen(coin, tmp_path, monkeypatch):
    """``[table] language = "es"``: the host's snapshot carries it and the screen says the coin
    heist's own words in Spanish; the log and the recording stay language-neutral."""
    table = Table(tmp_path, language="es")
    drawn = _drawn(monkeypatch)
    import rig.draw.strip as strip_module
    strip, draw_strip = [], strip_module.draw_strip
    monkeypatch.setattr(strip_module, "draw_strip",
                        lambda surface, text: strip.append(text) or draw_strip(surface, text))
    first = flips(1)[0]
    table.press("space")                                    # Ana calls heads
    board = table.display.board
    assert board.language == "es"
    assert board.message.code.startswith("coin_heist.call.")
    said = Words("es").text(board.message)
    assert said.startswith("Ana eligió cara: salió %s, " % ("cara" if first == "heads" else
                                                          "cruz"))
    table.display.frame((800, 480))
    assert "GOLPE DE LA MONEDA · ELIGE BEN" in drawn
    assert "Ana eligió cara: salió %s" % ("cara" if first == "heads" else "cruz") in (
        " ".join(drawn[3:]))                               # wrapped in the coin's column
    assert strip == [said]                                  # the host's strip, in Spanish too
    path = table.stop()
    line = json.loads(path.read_text("utf-8").splitlines()[1])
    assert line["call"] == "heads" and line["flipped"] == first


def test_each_phone_reads_it_in_its_own_language(coin, night):
    """The table's screen speaks English; Ben's phone asks for Spanish (Accept-Language) and
    Ana's for Romanian (the picker's choice, ?lang=): each reads the coin heist's words, from
    its catalogs, in its language through the real games API."""
    table = night("coin-heist", ["Ana", "Ben"])
    ana, ben = table.phone("Ana"), table.phone("Ben")
    ben.headers["Accept-Language"] = "es-AR, es;q=0.9"
    answer = table.send("Ben", {"call": "heads"})            # not Ben's call
    assert answer.status_code == 409
    assert "le toca elegir a Ana, no a Ben; espera tu turno" in answer.text
    words = ana.get("/api/words", params={"lang": "ro"}).json()
    assert words["language"] == "ro"
    assert words["words"]["coin_heist.phone.hint"] == (
        "Alegeți cap sau pajură: o alegere bună fură o bijuterie.")
    assert set(words["words"]["coin_heist.phone.jewels"]) == {"one", "few", "other"}


#: The coin heist's screen in every language: nothing cut, nothing fitted below the legibility
#: floor for its width (the pseudo-locale is English accented and 40 % longer).
@pytest.mark.parametrize("lang", (PSEUDO, "es", "fr", "ro"))
def test_its_samples_fit_at_800x480_in_every_language(coin, lang):
    import pygame
    import coin_heist.samples as samples
    from rig.draw import kit
    before = kit.use_words(lang)
    try:
        kit.clips(), kit.fits()
        for name in samples.SHOTS:
            draw, view = samples.shot(name)
            draw(pygame.Surface((800, 480)), view)
        cut = kit.clips()
        small = [(text, size, floor) for text, size, floor, narrowed in kit.fits()
                 if narrowed and size < floor]
    finally:
        kit.use_words(before)
    assert cut == [] and small == []


def test_its_config_section_is_read_through_the_registry(coin, tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[coin_heist]\ntarget = 2\n", "utf-8")
    config = load_config(path)
    settings = registry.settings(coin, config)
    assert settings.target == 2
    state = coin.new_game(("Ana", "Ben"), SEED, settings)
    assert coin.header(state)["target"] == 2
    path.write_text("[coin_heist]\ntarget = 12\n", "utf-8")
    with pytest.raises(ConfigError, match="coin_heist.target"):
        load_config(path)


def test_its_sound_and_its_samples(coin, tmp_path):
    made = extra_sounds("coin-heist")
    assert set(made) == {"dice"} and len(made["dice"](22050)) > 1000
    out = tmp_path / "won.png"
    assert cli.main(["screenshot", "coin-heist-won", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_not_registered_it_is_unknown(tmp_path, capsys):
    assert "coin-heist" not in registry.names()
    with pytest.raises(ConfigError, match="'coin-heist' is not one the rig plays"):
        registry.game("coin-heist")


# --- adding a game touches its own folder plus at most two other files -----------------------

def test_the_coin_heist_lives_wholly_in_its_folder(coin):
    """Every file of the game is in tests/coin_heist/, and no file outside it names it but
    the tests that register it (the registry line of a game of the rig's own is the line in
    rig/games/__init__.py; the test suite's game is registered by its tests instead) and its
    distribution's (tests/coin_heist_dist/: its pyproject.toml with its entry point, the script
    that plays it installed, tests/test_installed_game.py)."""
    files = {p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert {"__init__.py", "game.py", "rules/__init__.py", "settings.py", "keys.py",
            "screen.py", "samples.py", "sounds.py", "phone.js"} <= files
    naming = sorted(p.relative_to(ROOT).as_posix() for p in _sources(ROOT)
                    if FOLDER not in p.parents and _names(p, ("coin-heist", "coin_heist",
                                                              "Coin heist")))
    assert naming == ["tests/coin_heist_dist/play.py", "tests/coin_heist_dist/pyproject.toml",
                      "tests/games/coin_heist/test_coin_heist.py",
                      "tests/games/coin_heist/test_installed_game.py",
                      "tests/test_configdocs.py", "tests/test_contract.py",
                      "tests/test_secrets_http.py"]


#: Files of rig/ that name games outside their folders (in code, not in docstrings and
#: comments), each with the reason.  Anything else that names a game outside its folder and the
#: registry is a second list of games: a failure here says which file names which game.
EXCEPTIONS = {
    # The example body of POST /api/night/game, in its error messages.
    "stop_thief": {"rig/web/night.py"},
}

#: The rig's own name: its command (pyproject's [project.scripts]), its logger, its threads,
#: its paths and its tournament's topics.  Cleptómano's name, recording and package are the
#: same word, and its prefix and section ("match") are a word of Python itself (a soft
#: keyword, as in ``re.match``); such a word says nothing by itself of which it names.
RIG_NAME = "cleptomano"


def _clashes(word):
    """Whether ``word`` is also the rig's own name or a word of Python itself."""
    return word == RIG_NAME or keyword.iskeyword(word) or word in keyword.softkwlist


def _codes_of(package):
    """The codes of a game's catalog (its folder's English ``.po``)."""
    found = set()
    for po in (ROOT / "rig" / "games" / package / "locale").glob("en/LC_MESSAGES/*.po"):
        found |= set(re.findall(r'^msgid "([^"]+)"', po.read_text("utf-8"), re.M))
    return found


def _references(path, package, section, codes, names=()):
    """Where ``path`` names a game by reference rather than by a word: an import of its
    package, one of its catalog's codes, its config table read as ``config.<section>``, or one
    of its ``names`` (its name, its recording) as a string compared, kept in a variable or
    handed to the registry (``game("cleptomano")``): never the rig's logger, command or
    paths, which are the same word."""
    text = path.read_text("utf-8", errors="replace")
    found = set()
    if path.suffix != ".py":
        found |= {"code " + c for c in re.findall(r"[\"'`]([a-z_]+(?:\.[a-z_0-9]+)+)[\"'`]", text)
                  if c in codes}
        return found
    module = "rig.games." + package
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found |= {"import " + a.name for a in node.names
                      if (a.name + ".").startswith(module + ".")}
        elif isinstance(node, ast.ImportFrom):
            named = (node.module or "").split(".")
            if package in named or (named[-1:] == ["games"] and
                                    any(a.name == package for a in node.names)):
                found.add("import %s" % (node.module or package))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value in codes:
            found.add("code " + node.value)
        elif isinstance(node, ast.Attribute) and node.attr == section and \
                getattr(node.value, "id", getattr(node.value, "attr", None)) == "config":
            found.add("config." + section)
        elif isinstance(node, ast.Compare):
            found |= {"compared %r" % c.value for c in [node.left] + node.comparators
                      if isinstance(c, ast.Constant) and c.value in names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and \
                isinstance(node.value, ast.Constant) and node.value.value in names:
            found.add("kept %r" % node.value.value)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                node.func, "id", None)) in ("game", "by_recording", "part", "data"):
            found |= {"asked for %r" % a.value for a in node.args
                      if isinstance(a, ast.Constant) and a.value in names}
    return found


def _sources(top):
    for folder in ("rig", "tests", "sim"):
        for path in (top / folder).rglob("*"):
            if path.suffix in (".py", ".js", ".html", ".toml") and path.is_file() \
                    and "__pycache__" not in path.parts:
                yield path


def _names(path, words):
    text = path.read_text("utf-8", errors="replace")
    return [w for w in words if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(w), text)]


def _code(path):
    """The text of ``path`` a program reads: a Python file's names and strings but its
    docstrings and comments; a script's lines but its ``//`` comments."""
    text = path.read_text("utf-8", errors="replace")
    if path.suffix != ".py":
        return "\n".join(line for line in text.splitlines()
                         if not line.lstrip().startswith(("//", "*", "/*")))
    tree = ast.parse(text)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef)) and node.body
                  and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    said = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docstrings:
            said.append(node.value)
        elif isinstance(node, ast.Name):
            said.append(node.id)
        elif isinstance(node, ast.Attribute):
            said.append(node.attr)
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            said += [node.module or "" if isinstance(node, ast.ImportFrom) else ""]
            said += [a.name for a in node.names]
    return "\n".join(said).replace(".", "\n")


def _game_names_outside_their_folders():
    found = {}
    sources = [path for path in (ROOT / "rig").rglob("*") if path.is_file()
               and path.suffix in (".py", ".js", ".html") and "__pycache__" not in path.parts]
    codes = {}                                      # each file read once, for every game
    for g in registry.games():
        package = registry.package_of(g).rsplit(".", 1)[1]
        if EXCEPTIONS.get(package) == "*":
            continue
        folder = ROOT / "rig" / "games" / package
        every = {g.name, g.recording, g.prefix, g.section, package}
        words = sorted(w for w in every if w and not _clashes(w))
        if any(_clashes(w) for w in every if w):
            # A game named with the rig's own name or a word of Python: found by reference.
            catalog = _codes_of(package)
            for path in sources:
                where = path.relative_to(ROOT).as_posix()
                if folder in path.parents or where == "rig/games/__init__.py" \
                        or where in EXCEPTIONS.get(package, ()):
                    continue
                named = _references(path, package, g.section, catalog, {g.name, g.recording})
                if named:
                    found.setdefault(where, set()).update(named)
        for path in sources:
            if folder in path.parents:
                continue
            where = path.relative_to(ROOT).as_posix()
            if where == "rig/games/__init__.py" or where in EXCEPTIONS.get(package, ()):
                continue
            code = codes.get(path)
            if code is None:
                code = codes[path] = _code(path)
            named = [w for w in words
                     if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(w), code)]
            if named:
                found.setdefault(where, set()).update(named)
    return {k: sorted(v) for k, v in found.items()}


def test_the_rig_names_each_game_only_in_its_folder_and_the_registry():
    """No second list of games in rig/: each game's package, command-line name, recording name,
    file prefix and config section appear in code only in its folder and rig/games/__init__.py
    (and the documented exceptions above)."""
    found = _game_names_outside_their_folders()
    assert found == {}


def test_its_rules_are_pure():
    """The coin heist's rules/ import only the pure standard library and rig.core (as every
    game's rules folder, tests/test_purity.py): what they import, all of it."""
    from sim.imports import imported_names
    found = {target for path in (FOLDER / "rules").rglob("*.py")
             for _, target in imported_names(path, "coin_heist.rules")}
    assert found == {"hashlib", "dataclasses", "typing", "rig.core.errors", "rig.core.gamekit",
                     "rig.core.msg"}


def test_cut_off_it_resumes_where_it_was_and_without_restore_a_new_game_begins(
        coin, tmp_path, monkeypatch, caplog):
    """The resume every game gets from the host: a coin heist cut off (the rig killed) is taken
    up where it was; a game whose GAME cannot restore (no ``restore``) is not taken up: the
    log says why and a new game begins, nothing raises."""
    table = Table(tmp_path)
    table.press("space").press("t")
    jewels = table.view["jewels"]
    table.host.stop(clean=False)                          # as a crash leaves it
    cut = table.host.recording_path
    again = Table(tmp_path)
    assert again.host.resumed is not None and again.host.recording_path == cut
    assert again.view["jewels"] == jewels and again.view["flips"] == 2
    again.host.stop(clean=False)
    monkeypatch.delattr(type(coin), "restore")            # GameBase's: it does not say how
    with caplog.at_level("WARNING"):
        fresh = Table(tmp_path)
    assert fresh.host.resumed is None and fresh.host.recording_path != cut
    assert fresh.view["flips"] == 0
    assert "does not say how to take a game up again" in caplog.text
    fresh.stop()


# --- its phone page in a real browser, in the pseudo-locale and in Romanian ---------------------

@pytest.mark.heavy            # a real headless Chromium and the rig in real time
def test_its_phone_page_reads_in_every_language_on_a_390x844_phone(coin, tmp_path):
    """The coin heist's part of the games page (its phone.js and its catalogs through
    ``GET /api/words``) on a 390x844 phone: in the pseudo-locale (accented, 40 % longer) every
    word is its catalog's, and the page neither scrolls sideways nor leaves a button too small;
    in Romanian its plural form for the target."""
    from sim import phone as browser
    from sim.gametable import GameTable, pair
    if browser.cannot_exist() is not None:
        pytest.skip(str(browser.cannot_exist()))
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    with browser.Browser() as chromium, GameTable(recordings, "coin-heist", ("Ana", "Ben"),
                                                  seed=SEED) as rig:
        ana = pair(chromium.phone("coin-ana", 390, 844), rig, "Ana")
        ana.goto(rig.url + "?lang=pseudo")
        said = Words(PSEUDO).say
        hint = said("coin_heist.phone.hint")
        assert ana.wait("#board .hint", text=hint) == hint
        assert ana.wait("#status") == said("coin_heist.phone.turn", player="Ana")
        heads, tails = said("coin_heist.phone.heads"), said("coin_heist.phone.tails")
        assert ana.texts("#controls button") == [heads, tails]
        drawn = ana.width()
        assert drawn["page"] <= drawn["screen"], drawn
        assert [b for b in ana.boxes("#controls button")
                if min(b["width"], b["height"]) < 44] == []
        ana.click('#controls button:text-is("%s")' % heads)
        side = lambda s: said("coin_heist.side." + s)
        last = said("coin_heist.phone.last", player="Ana", called=side("heads"),
                    side=side(flips(1)[0]))
        assert ana.wait("#board .big", text=last) == last
        assert ana.width()["page"] <= ana.width()["screen"]
        ana.screenshot(tmp_path / "coin-pseudo.png", full=True)
        ana.goto(rig.url + "?lang=ro")
        assert ana.wait("#board li", text="Ana: ") is not None
        assert ana.texts("#board li")[1] == "Ben: 0 din 3 bijuterii"
        assert ana.errors() == []
