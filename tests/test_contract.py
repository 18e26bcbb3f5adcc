"""The contract test: every game of the registry (Cleptómano first) and the test suite's own
sixth game, the coin heist (tests/coin_heist/, registered here), answer
:class:`rig.core.contract.Game` as the table needs it.

* **replay equals live play**: a game played through its contract alone, with seeded random
  commands made from the game's own ``example`` (its phone vocabulary, with other values, other
  senders, ticks when its timer is due), written through ``header``/``line``/``end_line``,
  replays to exactly the ``result`` of the live state; and on the real game host on the
  virtual clock, the recording file the host wrote replays to ``host.result()``;
* **no secret in a public view**: what a game declares secret (``secrets(state)``: its owner and
  its value) is in no node of the table's view, nor in any other player's view;
* **every effect has words**: each effect the rules emitted (a Sound excepted) has words, or
  the game declares it silent here with the reason;
* **every command refused with a reason**: a command from someone who is not playing, a command
  with impossible values, any command once the game is over: refused (RulesError, or the
  RecordingError of a malformed phone command) with a message that names the value;
* **the button and keys documented**: each hosted game has a primary command (the start
  button's), key help lines naming each key of its key mode, and a README table of its keys;
* **words are codes** (issue 22): every effect's words and every outcome's words are a
  :class:`~rig.core.msg.Msg` (or None) of the game's own catalog (its folder's name), with words
  in each of the four languages; every refusal the game's ``step`` raises carries one
  (``exc.msg``); a view holds codes and data, never an English sentence; the key help is codes.

A game is played here only through the contract (and the registry's parts for its keys), never
by its name: a game added to the registry is covered with no edit to this file.
"""

import json
import random
import re
from dataclasses import is_dataclass, replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rig import games as registry
from rig.core.errors import RecordingError, RulesError
from rig.core.gamekit import Sound
from rig.core.msg import Msg, domain_of, from_json, is_msg_json
from rig.games.cleptomano.rules.recording import dumps
from rig.draw.keymodes import pretty_key
from rig.shell.gamehost import GameHost
from rig.shell.session import RecordingSession
from rig.words import (LANGUAGES, RIG_DOMAIN, english, english_error,
                       forget_catalogs, translations)
from sim.clock import VirtualClock
from sim.commands import examples, vary
from sim.compiled import compile_catalogs

ROOT = Path(__file__).resolve().parent.parent
COIN = "coin_heist"                      # the package of the sixth game (tests/coin_heist/)
NAMES = registry.names() + ("coin-heist",)
STRANGER = "Zed"                         # a name no game here is played by
PLAYERS = ("Ana", "Ben", "Caro", "Dee")

#: Effects a game's rules emit that say nothing on purpose, by game, with the reason.
SILENT = {
    "cleptomano": {"Durable": "an order to the shell (sync the recording to the disk now), "
                              "not something that happened at the table",
                   "Buzz": "the buzzer's pattern: the table hears it; the call it goes with "
                           "(caught, escaped, refused) has the words",
                   "Feedback": "a touch's buzz on its first edge (or its withdrawal): heard, "
                               "the touch counted has the words",
                   "MatchOver": "the match's end as data: the calls that end it (the match "
                                "won, the title earned) have the words"},
}
#: Games whose commands any paired phone may send (``by`` is then the phone's name, not a
#: player's), so a stranger's command is not refused for who sent it.
ANYONE_SENDS = {
    "cleptomano": "the guard's commands (a choice, a loot, an undo) come from any phone paired "
                  "at the rig; by names the phone",
}


@pytest.fixture(scope="module", autouse=True)
def coin_heist():
    """The sixth game, registered for this module and taken out afterwards; its catalogs (in
    its folder, tests/coin_heist/locale) compiled and read afresh."""
    registry.register(COIN)
    compile_catalogs(ROOT / "tests" / COIN)
    forget_catalogs()
    yield registry.game("coin-heist")
    registry.unregister(COIN)
    forget_catalogs()
    assert "coin-heist" not in registry.names()


# --- playing a game through its contract -----------------------------------------------------

class Played:
    """One game played through the contract: each accepted ``(state before, command, effects,
    the phone command it was made from)``,
    the refusals' messages, the recording's lines and the final state."""

    def __init__(self, g, seed, moves=160):
        rng = random.Random(seed)
        self.g = g
        self.players = PLAYERS[:rng.randint(g.min_players, min(g.max_players, len(PLAYERS)))]
        self.state = g.new_game(self.players, seed % g.seed_bound, None)
        self.lines = [g.header(self.state)]
        self.steps, self.refusals, self.states = [], [], [self.state]
        self.readings = []                  # the table's input changes played
        self.recorded = self.state          # the state as of the recording's last line
        self.at_line = [self.state]         # the state after each line (the header first)
        self.t = 0.0
        for _ in range(moves):
            if g.over(self.state):
                break
            command, obj = self._next(rng)
            if command is not None:
                self.offer(command, obj)
        end = g.end_line(round(self.t + 1.0, 6))
        if end is not None:
            self.lines.append(end)

    def _next(self, rng):
        g, state = self.g, self.state
        self.t = round(self.t + rng.uniform(0.1, 3.0), 3)
        deadline = g.deadline(state)
        if deadline is not None and (deadline <= self.t or rng.random() < 0.2):
            self.t = max(self.t, deadline)
            return g.tick(deadline), None
        if g.table_inputs and rng.random() < 0.5:
            # The table's own inputs (a game that reads them): the first, its start button,
            # as often as all the others; each takes one of two values.
            name = rng.choice(list(g.table_inputs[:1]) * len(g.table_inputs) + list(g.table_inputs))
            return g.reading(self.t, name, rng.choice((0, 1))), None
        names = [n for listed in (g.choices(state) or {}).values() for n in listed]
        obj = vary(rng.choice(examples(g)), rng, names)
        try:
            command = g.command_from_json(obj)
        except RecordingError as exc:
            self.refusals.append((obj, exc))
            return None, obj
        command = replace(command, t=self.t)
        if "by" in command.__dataclass_fields__:
            command = replace(command, by=None if g.solo else rng.choice(self.players))
        return command, obj

    def offer(self, command, obj=None):
        """Step ``command`` (made from the phone command ``obj``; None: a tick)."""
        try:
            after, effects = self.g.step(self.state, command)
        except RulesError as exc:
            self.refusals.append((command, exc))
            return
        if obj is None and command is not None and type(command) is not self._tick_type():
            self.readings.append(command)
        line = self.g.line(command, after, effects)
        if line is not None:
            self.lines.append(line)
            self.recorded = after
            self.at_line.append(after)
        self.steps.append((self.state, command, tuple(effects), obj))
        self.state = after
        self.states.append(after)

    def _tick_type(self):
        return type(self.g.tick(0.0)) if _has_tick(self.g) else None

    def text(self):
        return [dumps(obj) for obj in self.lines]


def played(name, seeds=range(6)):
    return [Played(registry.game(name), seed) for seed in seeds]


def nodes(obj):
    """Every value in a JSON-ready ``obj``: itself, and each of its parts, all the way down."""
    yield obj
    if isinstance(obj, dict):
        for value in obj.values():
            yield from nodes(value)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            yield from nodes(value)


# --- replay equals live play -----------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 40))
def test_replay_equals_live_play(name, seed):
    game = Played(registry.game(name), seed)
    assert game.steps, "%s accepted none of its example commands" % name
    json.dumps(game.g.result(game.state))
    if game.g.end_line(0.0) is not None or game.recorded is game.state:
        # The end line says when the game stopped: what time did after the last command
        # (a timer that ran out) is in the replay too.
        assert game.g.replay(game.text()) == game.g.result(game.state)
    else:
        assert game.g.replay(game.text()) == game.g.result(game.recorded)


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_of_play_is_written(name):
    """What the random play above cannot reach, said: a game whose play needs commands its
    ``line`` does not write (and so its replay cannot see) is played here only in part."""
    g = registry.game(name)
    for p in played(name, range(3)):
        lines = [g.line(c, g.step(before, c)[0], effects) for before, c, effects, obj in p.steps
                 if obj is not None or c in p.readings]
        assert None not in lines, name


def test_a_timer_that_ran_out_after_the_last_line_replays_as_it_ran():
    g = registry.game("stolen-paintings")
    game = Played(g, 122)
    assert game.recorded is not game.state
    assert g.replay(game.text()) == g.result(game.state)


@pytest.mark.parametrize("name", NAMES)
def test_a_game_cut_off_after_any_line_is_restored_where_it_was(name):
    """What a crash leaves (the header and the lines written so far) is restored to the very
    state the live game had after its last line: ``restore``, which the game host resumes
    from."""
    for p in played(name, range(2)):
        text = p.text()
        for k, state in enumerate(p.at_line):
            assert p.g.restore(text[:k + 1]) == state, (name, k)


@pytest.mark.parametrize("name", NAMES)
def test_play_gets_somewhere(name):
    """The random play above is a real game, not a row of refusals: many commands accepted
    and written to the recording."""
    games = played(name)
    assert sum(len(p.steps) for p in games) >= 30
    assert sum(len(p.lines) for p in games) >= 30


@pytest.mark.parametrize("name", NAMES)
def test_the_hosts_recording_replays_to_the_hosts_result(name, tmp_path, capsys):
    """The same commands on the real game host, on the virtual clock: the file it recorded,
    read back by ``cleptomano replay``, says what the host's live game says."""
    from rig import cli
    # The first of the seeds from 11 whose play writes a few lines (a game a command may end,
    # as Cleptómano's new match does, can end at once).
    game = next(p for p in (Played(registry.game(name), seed) for seed in range(11, 60))
                if len(p.lines) > 4)
    clock = VirtualClock()
    host = GameHost(game.g, game.players, clock=clock, seed=11 % game.g.seed_bound,
                    session=RecordingSession(tmp_path, clock=clock))
    host.start()
    tick = type(game.g.tick(0.0)) if _has_tick(game.g) else None
    try:
        for _, command, _, _ in game.steps:
            if type(command) is not tick:       # the host ticks a timer itself, when it is due
                clock.advance(max(0.0, command.t - host.now_t()))
                host.submit(command)
            clock.advance(0.05)
        clock.advance(0.5)
        live = host.result()
    finally:
        host.stop()
    path = host.recording_path
    assert len(path.read_text("utf-8").splitlines()) > 3     # commands were taken and written
    assert path.name.startswith(game.g.prefix + "-")
    capsys.readouterr()
    assert cli.main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(live))
    assert game.g.replay(path.read_text("utf-8").splitlines(), path) == live


def _has_tick(g):
    try:
        g.tick(0.0)
    except NotImplementedError:
        return False
    return True


# --- no secret in a public view --------------------------------------------------------------

def views(g, state, players):
    """Every view of ``state``: the table's (None) and each player's, by viewer."""
    t = state_t(state)
    return dict([(None, g.view(state, t))] + [(p, g.player_view(state, p, t)) for p in players])


def count(view, value):
    return sum(1 for node in nodes(view) if node == value)


def leaks(g, states, players):
    """Where a secret shows that must not, along ``states`` (a game's, in order):
    ``(state number, whose view, owner, value)``.  A secret value is counted in each view
    that may not hold it; it leaked if it is there more often than in the same view of the
    state before the secret was made (so a value that is also public for another reason, an
    earlier round's revealed marks, is no leak)."""
    found, before, baseline = [], None, {}
    for number, state in enumerate(states):
        kept = g.secrets(state)
        seen = views(g, state, players)
        for owner, value in kept:
            assert type(value) not in (int, float, bool), (
                "%s declares a bare number %r secret: give it in the shape a view would show "
                "it (a list, a string)" % (g.name, value))
            json.dumps(value)
            key = (owner, json.dumps(value, sort_keys=True))
            if key not in baseline:
                baseline[key] = {} if before is None else views(g, before, players)
            for viewer, view in seen.items():
                if viewer is not None and (viewer == owner or (viewer, value) in kept):
                    continue                    # a player's own secret (or the same value as
                                                # one), on their own phone
                if count(view, value) > count(baseline[key].get(viewer, {}), value):
                    found.append((number, viewer or "the table", owner or "nobody", value))
        baseline = {key: base for key, base in baseline.items()
                    if key in {(o, json.dumps(v, sort_keys=True)) for o, v in kept}}
        before = state
    return found


def state_t(state):
    return getattr(state, "t", None) or getattr(state, "last_t", None) or 0.0


@pytest.mark.parametrize("name", NAMES)
def test_no_secret_in_a_public_view(name):
    games = played(name, range(8))
    g = games[0].g
    declared = [s for p in games for state in p.states for s in g.secrets(state)]
    if not declared:
        assert not g.secret_commands, (
            "%s has secret commands %s but declares no secret in any state played: give it a "
            "secrets(state)" % (name, [c.__name__ for c in g.secret_commands]))
        pytest.skip("%s declares no secret in any state played (secrets() is empty): nothing "
                    "to hide" % g.title)
    for p in games:
        assert leaks(g, p.states, p.players) == []


@pytest.mark.parametrize("name", ("stop-thief", "stolen-paintings", "canine"))
def test_a_leak_would_be_found(name, monkeypatch):
    """The check above finds a secret put into a view (so its silence means something)."""
    games = played(name, range(8))
    g = games[0].g
    p = next(p for p in games if any(g.secrets(s) for s in p.states))
    shown = type(g).view

    def view(self, state, now_t=None):
        return dict(shown(self, state, now_t), oops=[v for _, v in self.secrets(state)])

    monkeypatch.setattr(type(g), "view", view)
    assert leaks(g, p.states, p.players)


# --- every effect has words ------------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_every_effect_has_words(name):
    games = played(name, range(8))
    g = games[0].g
    seen = {}
    for p in games:
        for _, _, effects, _ in p.steps:
            for effect in effects:
                if not isinstance(effect, Sound):
                    seen.setdefault(type(effect).__name__, effect)
    assert seen, "%s's play emitted no effect" % name
    for kind, effect in sorted(seen.items()):
        if kind in SILENT.get(name, {}):
            continue
        words = g.words(effect)
        assert words is not None and english(words).strip(), (name, effect)
    assert g.words(Sound(0.0, "dice")) is None          # a sound is heard, not said


# --- every command refused with a reason -----------------------------------------------------

def impossible(value):
    """``value`` with every number 999 and every name "Zebra": values no game allows."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return 999
    if isinstance(value, str):
        return "Zebra"
    if isinstance(value, list):
        return [impossible(v) for v in value]
    if isinstance(value, dict):
        return {k: impossible(v) for k, v in value.items()}
    return value


def refusal(g, state, command_or_obj, like=None):
    """The error ``g`` refuses a command with (or a phone's command, a dict, sent at the time
    and by the sender of the command ``like``), or None if taken."""
    try:
        command = command_or_obj
        if isinstance(command_or_obj, dict):
            command = g.command_from_json(command_or_obj)
            if like is not None:
                command = replace(command, **{k: getattr(like, k) for k in ("t", "by")
                                              if k in command.__dataclass_fields__})
        g.step(state, command)
    except (RulesError, RecordingError) as exc:
        return exc
    return None


def refused(g, state, command_or_obj, like=None):
    """The reason ``g`` refuses a command, as a player reads it in English, or None if taken."""
    exc = refusal(g, state, command_or_obj, like)
    if exc is None:
        return None
    assert english_error(exc).strip(), (g.name, command_or_obj)
    return english_error(exc)


@pytest.mark.parametrize("name", NAMES)
def test_every_command_refused_with_a_reason(name):
    games = played(name, range(4))
    g = games[0].g
    strangers = values = 0
    for p in games:
        for _, exc in p.refusals:
            assert english_error(exc).strip(), (name, exc)
        for before, command, _, obj in p.steps:
            if getattr(command, "by", None) is not None and name not in ANYONE_SENDS:
                reason = refused(g, before, replace(command, by=STRANGER))
                assert reason is not None and STRANGER in reason, (name, command, reason)
                strangers += 1
            if obj is not None and impossible(obj) != obj:
                bad = impossible(obj)
                reason = refused(g, before, bad, like=command)
                assert reason is not None, (name, bad)
                assert "999" in reason or "Zebra" in reason, (name, bad, reason)
                values += 1
    assert values, "%s: no command of its example carries a value to refuse" % name
    if name not in ANYONE_SENDS and not g.solo:
        assert strangers, name
    over = [p for p in games if g.over(p.state)]
    for p in over:
        for obj in examples(g):
            if type(g.command_from_json(obj)) in g.taken_when_over:
                continue        # a correction, the next game's set-up: declared kinds
            assert refused(g, p.state, obj) is not None, (name, obj)


# --- the button and keys documented ----------------------------------------------------------

def keys_of(g):
    """The game's key mode (its folder's ``keys.MODE``, as the faces find it), or a skip."""
    keys = registry.part(g, "keys")
    if keys is None or getattr(keys, "MODE", None) is None:
        pytest.skip("%s has no keys part (keys.MODE): it is played at its own keys" % g.title)
    if not hasattr(keys.MODE, "KEYS"):
        pytest.skip("%s's keys are the guard's bindings (the config's [keys]), not a fixed "
                    "KEYS table of a key mode" % g.title)
    return keys.MODE


def help_keys(line):
    """The keys a help line (``"C, Space, Num+: get a clue"``, or its code) names before its
    colon, in English."""
    return [part.strip() for part in english(line).split(":", 1)[0].split(",")]


@pytest.mark.parametrize("name", NAMES)
def test_the_button_and_keys_are_documented(name):
    from rig.display.game_keys import key_help, primary
    g = registry.game(name)
    if "button" in g.table_inputs:      # the game reads the start button itself
        command = g.reading(0.0, "button", 1)
    else:
        mode = keys_of(g)
        command = primary(name)
    assert command is not None and is_dataclass(command), name     # the start button's
    assert type(command).__module__.startswith(registry.package_of(g))
    state = g.new_game(PLAYERS[:max(g.min_players, 2)][:g.max_players], 7)
    try:
        g.step(state, command)
    except RulesError as exc:                   # refused at the start is fine, with a reason
        assert str(exc).strip()
    mode = keys_of(g)
    lines = key_help(name)
    assert lines and lines == tuple(mode.HELP)
    named = {key for line in lines for key in help_keys(line)}
    for key in mode.KEYS:
        assert pretty_key(key) in named, "%s: key %r (%s) is not in its help %s" % (
            name, key, pretty_key(key), lines)


#: Keys the README's tables do not name yet, with where the missing words are.
README_GAPS = {}


def readme_form(key):
    """How the README's tables write a key: `C`, `Space`, keypad `+`."""
    if key.startswith("[") and key.endswith("]") and len(key) > 2:
        return "keypad `%s`" % key[1:-1]
    return "`%s`" % pretty_key(key)


@pytest.mark.parametrize("name", NAMES)
def test_the_readme_names_each_games_keys(name):
    g = registry.game(name)
    mode = keys_of(g)
    if registry.package_of(g) == COIN:
        pytest.skip("the coin heist is the test suite's own game: README \"Adding a game\" "
                    "shows it as the worked example, not as one of the rig's games")
    page = ROOT / "docs" / "games" / ("%s.md" % g.name)
    readme = page.read_text("utf-8")
    found = re.search(r"^\| %s \| keys \|\n((?:\|.*\n)+)" % re.escape(g.title), readme, re.M)
    assert found, "%s has no table '| %s | keys |'" % (page.relative_to(ROOT), g.title)
    table = found.group(1)
    for key in mode.KEYS:
        if (name, key) in README_GAPS:
            assert readme_form(key) not in table, "folded: take %r out of README_GAPS" % key
            continue
        assert readme_form(key) in table, "the %s keys table does not name %s" % (
            g.title, readme_form(key))


# --- words are codes (issue 22) ----------------------------------------------------------------

def messages(said):
    """``said`` (a Msg) and every Msg in its parameters, all the way down."""
    if isinstance(said, Msg):
        yield said
        for _, value in said.params:
            yield from messages(value)
    elif isinstance(said, tuple):
        for value in said:
            yield from messages(value)


def has_words(code, lang, n=None):
    """Whether ``code`` has words of its own in ``lang``'s compiled catalog (the plural entry
    for ``n``, when it is given; a plural entry said without ``n`` has none)."""
    try:
        tr = translations(domain_of(code), lang)
    except Exception:              # no catalog for that domain: a code of no registered game
        return False
    if tr is None:
        return False
    found = tr.gettext(code) if n is None else tr.ngettext(code, code, n)
    return bool(found) and found != code


def unsaid(g, said, domains=()):
    """What keeps ``said`` from being the words of game ``g``: [] for a Msg of its own catalog
    (or of ``domains``) every code in which has words in each of the four languages."""
    domain = registry.catalog_domain(g)
    if not isinstance(said, Msg):
        return ["%r is not a Msg (a code of the %s catalog)" % (said, domain)]
    out = []
    if said.domain not in (domain,) + tuple(domains):
        out.append("%s is not a code of the %s catalog" % (said.code, domain))
    for m in messages(said):
        if m.domain not in (domain, RIG_DOMAIN):
            out.append("%s (in %s) is not a code of %s or the rig" % (m.code, said.code, domain))
            continue
        n = m.get("n")
        n = n if isinstance(n, int) and not isinstance(n, bool) else None
        out += ["%s has no %s words" % (m.code, lang) for lang in LANGUAGES
                if not has_words(m.code, lang, n)]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_effects_and_outcomes_words_are_codes_of_its_catalog(name):
    """What the table hears and reads of each effect (``words``) and how the game ended
    (``outcome_words``): a Msg of the game's own catalog, in every language, or None."""
    games = played(name, range(8))
    g = games[0].g
    found = set()
    for p in games:
        for _, _, effects, _ in p.steps:
            for effect in effects:
                if isinstance(effect, Sound) or type(effect).__name__ in SILENT.get(name, {}):
                    continue
                said = g.words(effect)
                if said is not None:
                    found.update("%s: %s" % (type(effect).__name__, why)
                                 for why in unsaid(g, said))
        for state in (p.states[len(p.states) // 2], p.state):
            outcome = g.outcome(g.result(state))
            for ended in (outcome, replace(outcome, over=True)):
                found.update("outcome %s: %s" % (ended.code, why)
                             for why in unsaid(g, g.outcome_words(ended)))
    assert sorted(found) == []


@pytest.mark.parametrize("name", NAMES)
def test_every_refusal_of_its_rules_carries_a_code(name):
    """A command the rules refuse (RulesError from ``step``: the random play's, a stranger's,
    impossible values, any once the game is over) carries its Msg (``exc.msg``) of the game's
    catalog (or the rig's), which each face says in its reader's language."""
    games = played(name, range(4))
    g = games[0].g
    errors = [exc for p in games for _, exc in p.refusals]
    for p in games:
        for before, command, _, obj in p.steps[:40]:
            if getattr(command, "by", None) is not None:
                errors.append(refusal(g, before, replace(command, by=STRANGER)))
            if obj is not None and impossible(obj) != obj:
                errors.append(refusal(g, before, impossible(obj), like=command))
        if g.over(p.state):                 # sent after the end, as the host stamps it
            late = SimpleNamespace(t=round(p.t + 1.0, 6), by=p.players[0])
            errors += [refusal(g, p.state, obj, like=late) for obj in examples(g)]
    refusals = [exc for exc in errors if isinstance(exc, RulesError)]
    assert refusals, "%s: no command was refused by its rules" % name
    found = set()
    for exc in refusals:
        found.update("%s: %s" % (type(exc).__name__, why)
                     for why in unsaid(g, exc.msg, (RIG_DOMAIN,)))
    assert sorted(found) == []


#: Views' keys whose strings are data of several words on purpose (a proper name from the
#: game's box, not a sentence), by game, with the reason.
VIEW_DATA = {
    "chest-heist": {"fr": "a chest's title as the French original prints it (its data)",
                    "en": "a chest's title in the English edition (its data)"},
    "stop-thief": {"board": "the board's name (Port Pilfer), a proper name of the box",
                   "name": "a thief's name (Fingers Fontaine), a proper name of the box"},
    "canine": {key: "a card's name, its identifier in the view (the faces say it through the "
                    "canine catalog's card words)"
               for key in ("kinds", "kind", "bedroom", "wild", "targets", "cards")},
}
#: Words run together: two words of letters, as a sentence has them.
SENTENCE = re.compile(r"[A-Za-zÀ-ÿ]{2,}[ '’][A-Za-zÀ-ÿ]{2,}")


def strings(obj, key=None):
    """``(key, text)`` for every string in a view (``key``: the dict key it is under), and
    ``(None, Msg)`` for every code it holds (a Msg, or its JSON)."""
    if isinstance(obj, Msg) or is_msg_json(obj):
        said = obj if isinstance(obj, Msg) else from_json(obj)
        yield None, said
        for name, value in said.params:
            yield from strings(value.as_json() if isinstance(value, Msg) else value, name)
    elif isinstance(obj, dict):
        for k, value in obj.items():
            yield from strings(value, k)
    elif isinstance(obj, (list, tuple)):
        for value in obj:
            yield from strings(value, key)
    elif isinstance(obj, str):
        yield key, obj


@pytest.mark.parametrize("name", NAMES)
def test_no_word_of_a_view_is_an_english_sentence(name):
    """The table's view and each player's hold data (names, numbers, sides, places) and codes
    (Msg, or its JSON, with words in every language), never a sentence in English: each face
    says the codes in its reader's language."""
    found = set()
    for p in played(name, range(4)):
        g = p.g
        step = max(1, len(p.states) // 12)
        for state in p.states[::step] + [p.state]:
            for viewer, view in views(g, state, p.players).items():
                for key, text in strings(view):
                    if isinstance(text, Msg):
                        found.update("%s: %s" % (viewer or "the table", why)
                                     for why in unsaid(g, text, (RIG_DOMAIN,)))
                    elif SENTENCE.search(text) and key not in VIEW_DATA.get(name, {}):
                        found.add("%s's view, %s: %r" % (viewer or "the table", key, text))
    assert sorted(found) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_key_help_is_codes_of_its_catalog(name):
    """Each line of the key help (``keys.MODE.HELP``, shown by ``H``) is a code of the game's
    catalog, in every language, whose English names its keys before the colon."""
    g = registry.game(name)
    mode = keys_of(g)
    assert mode.HELP
    found = [why for line in mode.HELP for why in unsaid(g, line)]
    assert found == []


@pytest.mark.parametrize("name", NAMES)
def test_the_title_a_player_reads_is_a_code_of_its_catalog(name):
    """A game's ``title_msg`` (the title a player reads; ``title`` stays the log's and the
    command line's) is a code of its catalog, in every language."""
    g = registry.game(name)
    said = getattr(g, "title_msg", None)
    if said is None:
        pytest.skip("%s has no title_msg: its players read its title as it is" % g.title)
    assert unsaid(g, said) == []
