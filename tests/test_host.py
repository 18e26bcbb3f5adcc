"""One host class for every game (issue 29): Cleptómano at the table (made by
:func:`rig.shell.daemon.Rig`) and a companion game (made by :func:`rig.shell.gamehost.GameHost`)
are both a :class:`rig.shell.host.Host`, so a refusal, a full recording and an item that fails
behave the same in both: the words on the screen and in the log, nothing recorded, the loop
going on.  Everything on the virtual clock, never sleeping."""

import logging

import pytest

from rig.games.cleptomano.rules import events as ev
from rig.display.game_keys import primary
from rig.shell.daemon import Rig
from rig.shell.faces import MemoryDisplay
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.core.msg import Msg
from rig.shell.host import FULL_DISK, Host
from rig.shell.session import RecordingSession
from rig.words import english
from sim.clock import VirtualClock

#: What the loop is: no host has its own copy of any of it.
THE_LOOP = ("_loop", "_take", "_wake_at", "_guarded_fire_due", "_fire_due", "_start_loop",
            "_await_loop", "_stop_loop", "_say", "_show_message", "_refresh_soon", "_refresh",
            "_begin_frames", "_press", "loop_turned_within", "submit")


class Game:
    """A companion game on the virtual clock, its screen in memory."""

    def __init__(self, directory, game="stop-thief", players=("Ana", "Ben")):
        self.clock = VirtualClock()
        self.display = MemoryDisplay()
        self.host = GameHost(game_named(game), players, clock=self.clock,
                             session=RecordingSession(directory, clock=self.clock),
                             display=self.display, seed=7).start()
        self.clock.advance(0.2)
        self.primary = primary(game)

    def submit(self, command):
        self.host.submit(command)
        self.clock.advance(0.3)
        return self

    def lines(self):
        return self.host.recording_path.read_text("utf-8").splitlines()

    @property
    def message(self):
        return english(self.display.board.message)


def full(text):
    """Whether ``text`` is the full recording's refusal (a sentence may capitalise it)."""
    return english(FULL_DISK).casefold() in english(text).casefold()


def lines(rig):
    return rig.recording_path.read_text("utf-8").splitlines()


def test_cleptomano_and_the_companion_games_run_on_the_one_loop(table, tmp_path):
    t = table()
    game = Game(tmp_path / "game")
    for host in (t.rig, game.host):
        assert type(host) is Host            # one host class for every game (issue 29)
        assert host.alive() and host.loop_turned_within(5.0)
    for cls in (Rig, GameHost):
        assert not set(THE_LOOP) & set(vars(cls)), cls
    game.host.stop()


def test_a_refusal_says_why_on_the_screen_and_in_the_log_and_records_nothing(table, tmp_path):
    t = table()
    before = lines(t.rig)
    t.submit(ev.Choose(0.0, ev.Role.THIEF, "Zed"))         # no such player
    assert t.board.message.code == "cleptomano.refuse.not_in_match"
    assert "Zed" in english(t.board.message) and t.said("Zed")
    assert lines(t.rig) == before and t.rig.stats.refused == 1

    game = Game(tmp_path / "game", "canine")
    before = game.lines()
    game.submit(game.primary)                               # nothing calls for the die yet
    refused = english(Msg("rig.host.refused", reason=Msg("canine.refuse.no_call")))
    assert refused.casefold().startswith("refused: nothing calls for the die now")
    assert game.message == refused and any(refused in line for line in game.host.log_lines)
    assert game.lines() == before and game.host.refused == 1
    game.host.stop()


def test_a_command_the_recording_cannot_keep_is_refused_with_the_same_words(table, tmp_path):
    t = table()
    t.rig.session.record = lambda item: False               # the disk and the memory are full
    t.submit(ev.Choose(0.0, ev.Role.THIEF, t.rig.players[0]))
    assert t.match.chosen_thief is None
    assert full(t.board.message) and any(full(line) for line in t.rig.log_lines)

    game = Game(tmp_path / "game")
    view = game.host.adapter.view(game.host.game)
    game.host.session.record_whole = lambda text, t: False
    game.submit(game.primary)
    assert full(game.message) and any(full(line) for line in game.host.log_lines)
    assert game.host.adapter.view(game.host.game) == view
    game.host.stop()


@pytest.mark.parametrize("which", ["cleptomano", "stop-thief"])
def test_an_item_that_fails_is_logged_and_the_loop_goes_on(which, table, tmp_path, caplog):
    if which == "cleptomano":
        t = table()
        host, submit, legal = t.rig, t.submit, ev.Choose(0.0, ev.Role.THIEF, t.rig.players[0])
    else:
        game = Game(tmp_path / "game")
        host, submit, legal = game.host, game.submit, game.primary
    before = len(lines(host))
    with caplog.at_level(logging.ERROR, logger="cleptomano"):
        submit(object())                                    # not a command at all
    failed = [r for r in caplog.records if "could not handle" in r.getMessage()]
    assert failed and "it goes on" in failed[0].getMessage() and failed[0].exc_info
    assert host.alive() and len(lines(host)) == before
    submit(legal)                                           # the next command is taken
    assert len(lines(host)) == before + 1
    if which != "cleptomano":
        host.stop()
