"""The host performs the shared effects and nothing else; a game turns its own into them
(issue 29, docs/dev/adding-a-game.md).

Cleptómano's translation keeps what the table feels first (the buzzer and the turn lamp before
any word), a game of the registry gets its words, sounds and last message by default, the host
refuses an effect outside the shared set by name, and Cleptómano's ``step`` is a value (a
refused command leaves the state it was given as it was) whose in-place twin, the host's
``step_owned``, plays the very same game.
"""

import random

import pytest

from rig import games as registry
from rig.core import banner_queue
from rig.core.effects import (SHARED, Banner, Buzz, Lamp, Message, NextGame, Say, Sound, Sync)
from rig.core.errors import RulesError
from rig.games.cleptomano.rules import events as ev
from rig.games.cleptomano.rules.levels import make_level
from rig.games.cleptomano.rules.shared import shared
from rig.shell.host import Host
from rig.words import english
from sim.clock import VirtualClock

CLEPTOMANO = registry.game("cleptomano")


def played_turn(timer_s=5.0):
    """A match whose first turn runs (the start pressed, the hand in), on its level's timer."""
    class Settings:
        level = make_level("normal", timer_s=timer_s)
        first_thief = None
    g = CLEPTOMANO
    state = g.new_game(("Ana", "Ben"), 0, Settings)
    for t, name, value in ((1.0, "button", 1), (1.05, "button", 0), (2.0, "tof", 100)):
        state, _ = g.step(state, g.reading(t, name, value))
    state, _ = g.step(state, g.tick(2.5))
    assert state.match.current is not None
    return state


def test_a_turns_end_is_felt_before_any_word_is_said():
    g = CLEPTOMANO
    state = played_turn()
    after, effects = g.step(state, g.tick(g.deadline(state)))      # the time limit runs out
    assert any(type(e) is ev.TurnEnded for e in effects)
    done = tuple(g.table_effects(after, after.t, effects))     # a generator: performed lazily
    assert {type(e) for e in done} <= set(SHARED)
    kinds = [type(e) for e in done]
    assert set(kinds[:2]) == {Buzz, Lamp}               # the buzz and the turn lamp, first
    assert Buzz(done[kinds.index(Buzz)].t, ev.Pattern.CAUGHT) in done
    assert Lamp(done[kinds.index(Lamp)].t, "turn", False) in done
    first_said = kinds.index(Say)
    assert first_said > 1
    assert Sync in kinds and Banner in kinds
    assert after.problems()                 # the hand is still inside: no start press now
    assert done[-1] == Lamp(after.t, "ready", False)
    assert "caught" in english(done[first_said].text).lower()


def test_nothing_is_performed_for_a_quiet_step_during_a_turn():
    state = played_turn(timer_s=None)
    assert tuple(shared((), state.match, state.problems, state.t)) == ()


def test_the_ready_lamp_asks_the_museums_problems_only_between_turns():
    asked = []

    def problems():
        asked.append(True)
        return ()
    running = played_turn(timer_s=None)
    list(shared((ev.Durable(3.0),), running.match, problems, running.t))
    assert asked == []
    idle = CLEPTOMANO.new_game(("Ana", "Ben"), 0)
    assert list(shared((), idle.match, problems, 0.0)) == [Lamp(0.0, "ready", True)]
    assert asked == [True]


def test_a_start_press_after_the_match_opens_the_next_one():
    refused = ev.Refused(9.0, ev.Refusal.MATCH_OVER)
    idle = CLEPTOMANO.new_game(("Ana",), 0)
    done = list(shared((refused,), idle.match, (), 9.0))
    assert done[-1] == NextGame(9.0, pressed={"button": 0})    # opened, the button released


def test_a_game_of_the_registry_says_its_words_plays_its_sounds_and_shows_the_last():
    g = registry.game("stop-thief")

    class Quiet(type(g)):
        shows_calls = False

        def words(self, effect):
            return None if isinstance(effect, Sound) else "said %s" % effect.t
    quiet = Quiet()
    done = quiet.table_effects(None, 4.0, (ev.Tick(1.0), Sound(2.0, "alarm")))
    assert done == (Say(4.0, "said 1.0"), Sound(2.0, "alarm"), Message(4.0, "said 1.0"))
    Quiet.shows_calls = True                # a screen that lists its calls: no message
    assert Quiet().table_effects(None, 4.0, (ev.Tick(1.0),)) == (Say(4.0, "said 1.0"),)


class _Table(Host):
    """The bare host loop, its shared effects performed straight away (no thread)."""

    def _frame(self, now):
        return None, 1.0


def test_the_host_refuses_an_effect_it_does_not_share_and_still_says_the_lines_before_it():
    host = _Table(clock=VirtualClock(), session=None)
    host.t0 = 0.0
    with pytest.raises(TypeError) as refused:
        host._perform_shared((Say(1.0, "heard"), ev.TurnEnded(1.0)))
    assert "TurnEnded" in str(refused.value) and "table_effects" in str(refused.value)
    assert any("heard" in line for line in host.log_lines)


def test_the_hosts_banner_queue_shows_each_banner_for_its_own_time():
    host = _Table(clock=VirtualClock(), session=None)
    host._perform_shared((Banner(1.0, "A", "a", 2.0), Banner(1.0, "B", "b", 5.0)))
    assert banner_queue.on_screen(host._banners, 2.9) == "A"
    assert banner_queue.on_screen(host._banners, 3.0) == "B"
    assert banner_queue.on_screen(host._banners, 8.0) is None
    host._perform_shared((Banner(4.0, cut=True),))
    assert [(s.banner, s.from_s, s.until_s, s.cut) for s in host.banner_log] == [
        ("A", 1.0, 3.0, False), ("B", 3.0, 4.0, True)]


def test_step_is_a_value_and_step_owned_plays_the_same_game():
    g = CLEPTOMANO
    rng = random.Random(29)
    names = ("button",) * 6 + ("laser.1", "laser.2", "laser.4", "tof", "tof", "seat.4")
    values = {"tof": (100, 8190), "seat.4": (1, 1, 0)}
    state = owned = g.new_game(("Ana", "Ben", "Caro"), 0)
    t = 0.0
    for _ in range(400):
        t = round(t + rng.uniform(0.001, 0.6), 6)
        deadline = g.deadline(state)
        if deadline is not None and deadline <= t:
            command = g.tick(deadline)
        else:
            name = rng.choice(names)
            command = g.reading(t, name, rng.choice(values.get(name, (0, 1))))
        kept = state.copy()
        after, effects = g.step(state, command)
        assert state == kept                    # the state given is left as it was
        owned, owned_effects = g.step_owned(owned, command)
        assert owned == after and owned_effects == effects
        state = after
    assert state.match.turns, "the random play started no turn"
    with pytest.raises(RulesError):
        g.step(state, ev.Choose(t, ev.Role.THIEF, "Zed"))
