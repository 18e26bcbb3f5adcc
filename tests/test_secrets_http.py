"""A game's secrets reach only the player they belong to, by every route (issue 28; README
"Security", "Secrets").

Each game of the registry (Cleptómano excepted: it hides nothing, which
:func:`test_a_game_that_hides_nothing_says_so_and_only_then` holds it to) and the test suite's
coin heist (tests/coin_heist/) is played on the real game host, on the virtual clock, with its
phones' web face served by the real uvicorn server on 127.0.0.1, to a state where it holds a
secret (``secrets(state)``: Stop Thief!'s thief, Stolen Paintings' entry and marks, Canine's
face-down doggy and areas) and dice still to roll (its seed).  Then every route is asked, over
HTTP and over the push channel, by a phone that never paired and by each other player's
paired phone (and a paired phone that is nobody's seat), and the test fails when an answer
holds:

* a secret its viewer may not see: more often than the table's view and the viewer's own view
  (the game's contract, proven free of other players' secrets by tests/test_contract.py) hold
  it;
* the seed, or a ``"seed"`` key (the seed names every die still to roll);
* the game's recording or replay while the game is not over (refused, 403; not listed).

A game added to the registry is covered with no edit here.  Commands are made from the game's
own ``example`` (its phone vocabulary), with other values, as the contract test makes them.
"""

import http.client
import json
import random
import re
import secrets as os_secrets
from dataclasses import replace
from pathlib import Path

import pytest
from websockets.sync.client import connect

from rig import catalogs
from rig import games as registry
from rig.core.errors import RecordingError
from rig.games.base import GameBase
from rig.shell.config import WebConfig
from rig.shell.faces import Faces
from rig.shell.gamehost import GameHost
from rig.shell.session import RecordingSession
from rig.shell.storage import replay_file
from rig.web.face import GameWebFace
from rig.web.language import plain, said, words_in
from rig.web.pairing import Pairing
from rig.words import forget_catalogs
from sim.clock import VirtualClock
from sim.commands import examples, vary
from sim.gamehost import Speakers

ROOT = Path(__file__).resolve().parent.parent
COIN = "coin_heist"
NAMES = tuple(g.name for g in registry.games() if not registry.at_table(g)) + ("coin-heist",)
PLAYERS = ("Ana", "Ben", "Caro", "Dee")
STRANGER = "Zed's phone"
#: A seed no answer holds by chance (its digits are searched for in every answer).
SEED = 7349118227359


@pytest.fixture(scope="module", autouse=True)
def coin_heist():
    """The sixth game, registered for this module (its catalogs compiled) and taken out
    afterwards."""
    import fcntl
    import tempfile
    lock = Path(tempfile.gettempdir()) / "catalogs-coin-heist-secrets.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            catalogs.compile_all(root=ROOT / "tests" / COIN)
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
    registry.register(COIN)
    forget_catalogs()
    yield
    registry.unregister(COIN)
    forget_catalogs()


# --- a phone, over real HTTP and a real WebSocket ------------------------------------------------

class Phone:
    """One device at the table: its cookie (None: never paired)."""

    def __init__(self, port, name=None):
        self.port, self.name, self.cookie = port, name, None

    def request(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Origin": "http://127.0.0.1:%d" % self.port}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.cookie:
            headers["Cookie"] = self.cookie
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers=headers)
        answer = conn.getresponse()
        out = answer.status, answer.read().decode("utf-8"), answer.getheader("set-cookie")
        conn.close()
        return out

    def get(self, path):
        return self.request("GET", path)[:2]

    def post(self, path, body):
        return self.request("POST", path, body)[:2]

    def pair(self, code, name):
        status, text, cookie = self.request("POST", "/api/pair", {"code": code, "name": name})
        assert status == 200, text
        self.cookie = cookie.split(";")[0]
        return self

    def pushed(self, meanwhile=None, most=30):
        """The push channel's messages as this phone gets them: the first (the snapshot);
        with ``meanwhile`` (called once it is open: the table plays on), those pushed after
        it too, until none comes for a second (at most ``most``)."""
        headers = {"Cookie": self.cookie} if self.cookie else None
        with connect("ws://127.0.0.1:%d/api/live" % self.port, open_timeout=10,
                     origin="http://127.0.0.1:%d" % self.port,
                     additional_headers=headers) as ws:
            got = [ws.recv(timeout=10)]
            if meanwhile is not None:
                meanwhile()
                while len(got) < most:
                    try:
                        got.append(ws.recv(timeout=1.0))
                    except TimeoutError:
                        break
            return got


# --- a game at a secret --------------------------------------------------------------------------

class Table:
    """Game ``name`` on the real game host (virtual clock), its web face on the real server,
    played by random commands of its vocabulary until it holds a secret (or, for a game
    whose only secret is its dice, a few commands in); a phone paired for each player."""

    def __init__(self, directory, name, until_over=False, tries=40):
        self.g = registry.game(name)
        self.clock = VirtualClock()
        self.pairing = Pairing()
        self.face = GameWebFace(WebConfig(bind=("127.0.0.1",), port=0), directory,
                                static_dir=directory, pairing=self.pairing)
        self.face.start()
        self.port = self.face.server.bound[0][1]
        self.host = None
        try:
            for attempt in range(tries):
                if self._play(directory, random.Random(attempt), until_over):
                    break
            else:
                pytest.fail("%s never reached a state with a secret in %d games"
                            % (name, tries))
            self.phones = {p: Phone(self.port, p).pair(self.code(), p) for p in self.players}
        except BaseException:
            self.close()
            raise

    def _play(self, directory, rng, until_over):
        g = self.g
        if self.host is not None:
            self.host.stop()
        self.players = PLAYERS[:max(g.min_players, min(g.max_players, 3))]
        self.host = GameHost(g, self.players, clock=self.clock, seed=SEED % g.seed_bound,
                             session=RecordingSession(directory, clock=self.clock),
                             display=Faces(Speakers(), self.face), phones=self.pairing)
        self.host.start()
        self.face.rig = self.host
        self.clock.advance(0.2)
        accepted = 0
        for _ in range(600):
            game = self.host.game
            if g.over(game):
                return until_over
            if not until_over and accepted >= 3 and (g.secrets(game) or not self._hides(g)):
                return True
            names = [n for listed in (g.choices(game) or {}).values() for n in listed]
            try:
                command = g.command_from_json(vary(rng.choice(examples(g)), rng, names))
            except RecordingError:
                continue
            if "by" in command.__dataclass_fields__:
                command = replace(command, by=None if g.solo else rng.choice(self.players))
            answers = []
            self.host.submit(command, answers.append)
            self.clock.advance(rng.uniform(0.1, 2.0))
            accepted += bool(answers and answers[0].accepted)
        return False

    def _hides(self, g):
        """Whether random play of ``g`` reaches a secret at all (the coin heist's and the chest
        heist's only secret is the dice to come)."""
        return g.name not in ("chest-heist", "coin-heist")

    def code(self):
        self.clock.advance(0.2)
        return self.pairing.view().code

    @property
    def state(self):
        return self.host.game

    def viewers(self):
        """Who asks: a phone never paired, each player's phone, a phone that is nobody's."""
        stranger = Phone(self.port, None).pair(self.code(), STRANGER)
        return [(None, Phone(self.port)), (STRANGER, stranger)] + list(self.phones.items())

    def close(self):
        self.face.stop(3.0)
        if self.host is not None:
            self.host.stop()


@pytest.fixture
def at_a_secret(tmp_path):
    made = []

    def make(name, **kw):
        made.append(Table(tmp_path, name, **kw))
        return made[-1]

    yield make
    for table in made:
        table.close()


# --- what an answer may not hold -----------------------------------------------------------------

def nodes(obj):
    yield obj
    if isinstance(obj, dict):
        for value in obj.values():
            yield from nodes(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from nodes(value)


def count(obj, value):
    return sum(1 for node in nodes(obj) if node == value)


def leaks(table, viewer, route, text):
    """What of the game's secrets ``text`` (an answer to ``viewer``: None unpaired, a phone's
    name) holds that it must not."""
    g, state = table.g, table.state
    t = table.host.now_t()
    found = []
    if str(table.host.seed) in text and table.host.seed > 10 ** 6:
        found.append("%s: the seed %d" % (route, table.host.seed))
    if re.search(r'"seed"\s*:', text):
        found.append('%s: a "seed" key' % route)
    english = words_in("en")            # the phones here ask in English, as the views say it
    allowed = [json.loads(json.dumps(said(plain(g.view(state, t)), english)))]
    if viewer in table.players:
        allowed.append(json.loads(json.dumps(said(plain(g.player_view(state, viewer, t)),
                                                  english))))
    allowed_text = json.dumps(allowed, ensure_ascii=False)
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    kept = g.secrets(state)
    for owner, value in kept:
        if viewer is not None and (owner == viewer or (viewer, value) in kept):
            continue                # the viewer's own (or the same value as one of theirs)
        if body is not None and count(body, value) > sum(count(a, value) for a in allowed):
            found.append("%s: %s's secret %r" % (route, owner or "nobody", value))
        if isinstance(value, str) and text.count(value) > allowed_text.count(value):
            found.append("%s: %s's secret %r in the words" % (route, owner or "nobody", value))
        error = body.get("error") if isinstance(body, dict) else None
        if isinstance(value, str) and isinstance(error, str) and owner and value in error \
                and owner in error:
            found.append("%s: a refusal names %s with %r" % (route, owner, value))
    return found


def recording_id(table):
    return table.host.recording_path.stem


#: Each route a phone may ask, as ``(name, ask(table, phone) -> [(what, status, text)])``.
def _get(path):
    return lambda table, phone: [(path, *phone.get(path))]


def _recordings(table, phone):
    status, text = phone.get("/api/game/recordings")
    listed = [e["id"] for e in json.loads(text)] if status == 200 else []
    assert recording_id(table) not in listed, "the game being played is listed"
    return [("/api/game/recordings", status, text)]


def _withheld(suffix):
    def ask(table, phone):
        path = "/api/game/recordings/%s%s" % (recording_id(table), suffix)
        status, text = phone.get(path)
        assert status == 403, (path, status, text[:200])
        return [(path, status, text)]
    return ask


def _commands(table, phone):
    """Every command of the game's vocabulary, varied, and malformed ones: their answers
    (refusals, views) said to this phone."""
    rng = random.Random(5)
    names = list(table.players) + [n for listed in (table.g.choices(table.state) or {}).values()
                                   for n in listed]
    out = []
    sent = [vary(obj, rng, names) for obj in examples(table.g) for _ in range(3)]
    sent += [{"roll": 4}, {"roll": [1, 2, 3, 4, 5]}, {"rolled": [6, 6, 6, 6, 6], "roll": True},
             {"seed": 1}, {"t": 0, "roll": True}, {"by": "Ana", "roll": True}, [], {}]
    for obj in sent:
        status, text = phone.post("/api/game/command", obj)
        table.clock.advance(0.2)
        out.append(("POST /api/game/command %s" % json.dumps(obj), status, text))
    status, text = phone.post("/api/command", {"undo": "touch"})
    out.append(("POST /api/command", status, text))
    return out


def _pushed(table, phone):
    return [("WS /api/live", 101, phone.pushed()[0])]


def _pushed_in_play(table, phone):
    """What the push channel carries while the players play on: the snapshots and the calls
    (each checked against the secrets of the game as it stands once they are read)."""
    rng = random.Random(11)

    def play():
        g = table.g
        for _ in range(6):
            player = rng.choice(table.players)
            names = [n for listed in (g.choices(table.state) or {}).values() for n in listed]
            table.phones[player].post("/api/game/command",
                                      vary(rng.choice(examples(g)), rng, names))
            table.clock.advance(0.3)
    return [("WS /api/live (in play)", 101, text) for text in phone.pushed(play)]


ROUTES = {
    "state": _get("/api/state"),
    "game": _get("/api/game"),
    "me": _get("/api/game/me"),
    "board": _get("/api/game/board"),
    "session": _get("/api/session"),
    "games": _get("/api/games"),
    "matches": _get("/api/matches"),
    "recordings": _recordings,
    "replay": _withheld(""),
    "recording": _withheld("/recording"),
    "no-such-route": _get("/api/game/recordings/%2e%2e"),
    "commands": _commands,
    "push": _pushed,
    "push-in-play": _pushed_in_play,
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("name", NAMES)
def test_no_route_tells_a_secret_before_the_game_ends(at_a_secret, name, route):
    table = at_a_secret(name)
    g = table.g
    assert not g.over(table.state)
    if table._hides(g):
        assert g.secrets(table.state), "the game was played to no secret"
    found = []
    for viewer, phone in table.viewers():
        for what, status, text in ROUTES[route](table, phone):
            assert status < 500, (what, status, text[:300])
            found += ["%s asked %s" % (viewer or "an unpaired phone", leak)
                      for leak in leaks(table, viewer, what, text)]
    assert found == []


def test_the_check_finds_a_secret_put_into_the_public_view(at_a_secret, monkeypatch):
    """The check above finds a secret the table's view would hold (so its silence means
    something), on the real server."""
    table = at_a_secret("canine")
    g = table.g
    shown = type(g).view
    monkeypatch.setattr(type(g), "view", lambda self, state, now_t=None: dict(
        shown(self, state, now_t), oops=[v for _, v in self.secrets(state)]))
    viewer, phone = table.viewers()[0]
    status, text = phone.get("/api/game")
    monkeypatch.setattr(type(g), "view", shown)         # what the table may see again
    assert status == 200 and leaks(table, viewer, "/api/game", text)


# --- once the game is over, its recording is everyone's -----------------------------------------

@pytest.mark.parametrize("name", [n for n in NAMES if n != "stop-thief"])
def test_once_the_game_is_over_its_recording_and_replay_are_served(at_a_secret, name):
    """(Stop Thief!'s random play never catches the thief: its end is the arrest its own
    tests make.)"""
    table = at_a_secret(name, until_over=True)
    assert table.g.over(table.state)
    phone = Phone(table.port)
    rec = recording_id(table)
    status, text = phone.get("/api/game/recordings")
    assert status == 200 and rec in [e["id"] for e in json.loads(text)]
    status, text = phone.get("/api/game/recordings/" + rec)
    assert status == 200
    assert json.loads(text) == json.loads(json.dumps(dict(
        replay_file(table.host.recording_path), warnings=[])))
    status, text = phone.get("/api/game/recordings/%s/recording" % rec)
    assert status == 200 and text == table.host.recording_path.read_text("utf-8")


def test_a_game_cut_off_by_a_crash_is_withheld_until_it_is_taken_up_and_over(at_a_secret,
                                                                              tmp_path):
    """The newest recording of a game with no clean end is the one the next start takes up:
    its seed still names the dice to come, so it is withheld too, whichever game runs now."""
    table = at_a_secret("canine")
    cut = table.host.recording_path
    table.host.stop(clean=False)                          # as a crash leaves it
    table.host = None
    other = GameHost(registry.game("chest-heist"), ("Ana",), clock=table.clock,
                     seed=SEED, session=RecordingSession(tmp_path, clock=table.clock),
                     display=Faces(Speakers(), table.face), phones=table.pairing)
    other.start()
    table.host, table.face.rig = other, other
    phone = Phone(table.port)
    status, text = phone.get("/api/game/recordings")
    assert status == 200 and cut.stem not in text
    for suffix in ("", "/recording"):
        status, text = phone.get("/api/game/recordings/%s%s" % (cut.stem, suffix))
        assert status == 403 and "seed" not in text, text


# --- the seed is the operating system's, and the game's alone -----------------------------------

def test_the_seed_is_drawn_from_the_operating_systems_randomness(tmp_path, monkeypatch):
    drawn = []

    def randbelow(bound):
        drawn.append(bound)
        return os_secrets.SystemRandom().randrange(bound)

    monkeypatch.setattr("rig.shell.host.secrets.randbelow", randbelow)
    g = registry.game("chest-heist")
    clock = VirtualClock()
    host = GameHost(g, ("Ana",), clock=clock, session=RecordingSession(tmp_path, clock=clock))
    host.start()
    try:
        assert drawn == [g.seed_bound]
        header = json.loads(host.recording_path.read_text("utf-8").splitlines()[0])
        assert header["seed"] == host.seed
    finally:
        host.stop()


def test_a_game_that_hides_nothing_says_so_and_only_then():
    """A game whose recording is served while it runs (``hides = False``: Cleptómano) leaves
    nothing to chance and declares no secret commands; every other game hides."""
    for g in registry.games():
        if not g.hides:
            assert g.seed_bound == 1 and not g.secret_commands, g.name
            assert type(g).secrets is GameBase.secrets, g.name      # no secret, ever
    assert [g.name for g in registry.games() if not g.hides] == ["cleptomano"]
