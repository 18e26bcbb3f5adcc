"""What the faces are passed (issue 27): a snapshot that looks different, not every frame.

The referee builds a snapshot 30 times a second during a turn.  The faces show the time in whole
seconds, so the display process and the phones' push channel are passed only a snapshot that
looks different (:func:`rig.games.cleptomano.rules.view.looks_the_same`): each second of the
countdown, each touch, each banner; the rest stays off the pipe and off the phones' words.
Virtual time throughout; nothing here measures time.
"""

import math
import os
import sys
from dataclasses import replace

import pytest
from hypothesis import given, strategies as st

from rig.core.errors import DisplayError
from rig.display.kit import countdown_seconds
from rig.display.window import DisplayOptions, DisplayProcess, DisplayThread, RENDER_NICE
from rig.games.cleptomano.rules.levels import make_level
from rig.games.cleptomano.rules.view import (Phase, Scoreboard, clock_shown, countdown_shown,
                                            looks_the_same)
from rig.shell.config import load_config
from rig.web.face import WebFace
from sim.harness import Harness, wait_until

TURN = Scoreboard(phase=Phase.TURN, thief="Ana", guard="Ben", remaining_s=42.7, elapsed_s=17.3)


# --- what looks the same ----------------------------------------------------------------------
def test_a_snapshot_that_differs_only_below_the_second_looks_the_same():
    assert looks_the_same(TURN, replace(TURN, remaining_s=42.01, elapsed_s=17.99))
    assert not looks_the_same(TURN, replace(TURN, remaining_s=41.99, elapsed_s=18.01))
    assert not looks_the_same(TURN, replace(TURN, touches=1, remaining_s=42.6))
    assert not looks_the_same(TURN, replace(TURN, hand_inside=True))
    assert not looks_the_same(TURN, replace(TURN, language="es"))
    assert not looks_the_same(TURN, replace(TURN, message="rig.screen.waiting"))


def test_without_a_time_limit_the_running_clock_is_what_moves():
    untimed = replace(TURN, remaining_s=None, timer_s=None)
    assert looks_the_same(untimed, replace(untimed, elapsed_s=17.9))
    assert not looks_the_same(untimed, replace(untimed, elapsed_s=18.0))
    assert clock_shown(59.99) == 59 and clock_shown(None) == 0 and clock_shown(-1.0) == 0


def test_the_end_of_the_countdown_looks_different():
    assert countdown_shown(0.0) == 0 and countdown_shown(0.001) == 1
    assert not looks_the_same(replace(TURN, remaining_s=0.2), replace(TURN, remaining_s=0.0))


def test_other_values_look_the_same_when_equal():
    assert looks_the_same(("a", 1), ("a", 1))
    assert not looks_the_same(TURN, ("a", 1))
    assert not looks_the_same(None, TURN)


@given(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                 st.floats(min_value=-2, max_value=130)))
def test_the_countdown_every_face_compares_is_the_one_the_screen_shows(x):
    assert countdown_shown(x) == countdown_seconds(x)


def test_the_countdown_is_shown_rounded_up_as_on_the_screen():
    for x in (30.0, 30.000000001, 29.99, 59.01, 0.2, 1.0, 99.5):
        assert countdown_shown(x) == countdown_seconds(x) == max(1, math.ceil(x - 1e-6))


# --- what the screen is passed -------------------------------------------------------------------
class PassedOn(DisplayThread):
    """The display shell, its render loop not started: what reaches its mailbox is kept."""

    def __init__(self):
        super().__init__(DisplayOptions())
        self.passed = []

    def show(self, board):
        before = self._slot
        super().show(board)
        if self._slot is not before:
            self.passed.append(self._slot)


def turn_of(display, tmp_path, seconds=3.0):
    t = Harness(recordings_dir=tmp_path, display=display, level=make_level("normal"))
    t.start()
    try:
        t.start_turn()
        t.advance(1.0)
        t.touch("laser.4")
        t.advance(seconds)
        return t, t.rig.scoreboard()
    finally:
        t.stop()


def test_the_screen_is_passed_each_second_of_the_countdown_and_each_touch(tmp_path):
    shell = PassedOn()
    table, last = turn_of(shell, tmp_path)
    turn = [b for b in shell.passed if b.phase == Phase.TURN]
    seconds = [countdown_shown(b.remaining_s) for b in turn]
    assert seconds[0] == 60 and seconds[-1] == countdown_shown(last.remaining_s) < 60
    # Every second of the countdown reached the screen, in order.
    assert sorted(set(seconds), reverse=True) == list(range(seconds[0], seconds[-1] - 1, -1))
    assert any(b.touches == 1 for b in turn)                  # the touch, as it happened
    assert all(b.language == "en" for b in turn)
    # Each snapshot passed on looks different from the one before it.
    assert not any(looks_the_same(a, b) for a, b in zip(shell.passed, shell.passed[1:]))
    # The referee made its 30 frames a second; most looked the same and stayed here.
    assert shell.skipped > 3 * len(turn)


def test_the_screen_speaks_the_tables_language_in_every_snapshot_passed(tmp_path):
    config = load_config(None)
    config = replace(config, table=replace(config.table, language="es"))
    shell = PassedOn()
    t = Harness(config, recordings_dir=tmp_path, display=shell, level=make_level("normal"))
    t.start()
    try:
        t.start_turn()
        t.advance(2.0)
    finally:
        t.stop()
    assert shell.passed and all(b.language == "es" for b in shell.passed)


# --- what the phones are pushed -----------------------------------------------------------------
def test_the_phones_are_told_of_each_second_and_each_touch_and_read_the_newest(tmp_path):
    face = WebFace(load_config(None).web, tmp_path, static_dir=tmp_path)
    told = []
    face.live.changed = lambda: told.append(face.board)
    table, last = turn_of(face, tmp_path)
    turn = [b for b in told if b is not None and b.phase == Phase.TURN]
    seconds = [countdown_shown(b.remaining_s) for b in turn]
    assert sorted(set(seconds), reverse=True) == list(range(seconds[0], seconds[-1] - 1, -1))
    assert any(b.touches == 1 for b in turn)
    assert len(turn) < 20                                     # not 30 a second: about 1
    # GET /api/state answers the newest snapshot shown, to the millisecond, all the same: a
    # frame newer than the last the phones were told of.
    assert face.board.remaining_s < turn[-1].remaining_s
    assert face.state()["remaining_s"] == round(face.board.remaining_s, 3)


# --- the render process's priority ---------------------------------------------------------------
def test_a_render_priority_out_of_range_is_refused_with_the_range():
    with pytest.raises(DisplayError, match="nice 25 is out of range; give a whole number "
                                           "from 0"):
        DisplayThread(DisplayOptions(nice=25))
    assert DisplayOptions().nice == RENDER_NICE == 10


@pytest.mark.heavy      # a real render process: `make test-heavy` (and .ci/run)
def test_the_render_process_runs_below_the_referees_priority(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    display = DisplayProcess(DisplayOptions(quiet=True)).start()
    try:
        assert display.wait_ready(30.0) == "dummy"
        assert wait_until(lambda: os.getpriority(os.PRIO_PROCESS, display.pid)
                          == min(19, mine + RENDER_NICE))
    finally:
        assert display.stop(5.0)


# --- the rig's process: the interpreter lock ------------------------------------------------------
def test_the_rigs_process_hands_the_interpreter_lock_on_promptly(tmp_path, capsys):
    from rig import cli
    from rig.table.threads import SWITCH_INTERVAL_S
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        # No pin library here: the run stops with its one clear error, after setting it.
        assert cli.main(["run", "--real", "--headless", "--recordings", str(tmp_path),
                         "--duration-s", "1"]) == 2
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL_S)
    finally:
        sys.setswitchinterval(before)
    assert "no GPIO pin library could be loaded" in capsys.readouterr().err


# --- the order of what the table feels and hears ---------------------------------------------------
def test_the_buzzer_and_the_lamp_come_before_the_words_that_tell_of_them(tmp_path):
    t = Harness(recordings_dir=tmp_path, level=make_level("normal", timer_s=5.0))
    t.start()
    rig = t.rig
    order = []
    play, turn_lamp, say = rig.buzzer.play, rig.lamps.turn, rig._say

    def spied_play(pattern, now):
        order.append(("buzzer", pattern.value))
        play(pattern, now)

    def spied_lamp(on):
        order.append(("turn lamp", on))
        turn_lamp(on)

    def spied_say(at, text, *rest):
        order.append(("words", str(getattr(text, "code", text))))
        say(at, text, *rest)

    rig.buzzer.play, rig.lamps.turn, rig._say = spied_play, spied_lamp, spied_say
    try:
        t.start_turn()
        t.advance(0.5)
        del order[:]
        t.touch("laser.4")
        t.advance(0.5)
        touch = list(order)
        del order[:]
        t.advance(6.0)                     # the 5 s limit runs out, the hand still inside
        end = list(order)
    finally:
        t.stop()
    # The touch: its buzz, then its words (nothing missed: one buzz, one line).
    assert touch[0] == ("buzzer", "touch")
    assert [w for w in touch if w[0] == "words"] and touch.index(("buzzer", "touch")) < min(
        i for i, w in enumerate(touch) if w[0] == "words")
    # The end of the turn: the lamp off and the end buzz before any word of it.
    outcome = t.match.turns[-1].outcome.value
    assert end[:2] == [("turn lamp", False), ("buzzer", outcome)]
    assert end[2:] and all(kind == "words" for kind, _ in end[2:])
