"""The score display in the running rig: it never stalls the referee, and the guard's keys
reach the match (and its recording).  The rig runs in real time here (a display process cannot
run on the virtual clock): each wait is a generous bound, never a measurement; how long a touch
takes to sound is ``make bench``'s."""

import os
import signal
import threading

import pytest
from dataclasses import replace

from rig.shell.config import load_config
from rig.display import face as face_module
from rig.display.window import DisplayProcess, DisplayThread
from rig.words import english
from sim.harness import wait_until
from sim.table import real_time_table


def start_turn(table, hold_s=0.02):
    museum = table.museum
    museum.set("button", 1)
    wait_until(lambda: False, hold_s)       # a press longer than the glitch filter
    museum.set("button", 0)
    assert wait_until(lambda: table.rig.referee.match.current is not None)
    table.tof.range = 150
    assert wait_until(lambda: table.rig.referee.detector.hand_inside)


def touches_buzz(table, count):
    """``count`` laser touches, one after another: True when each sounded the buzzer (its pin
    went high after the contact closed)."""
    buzzer = table.factory.pin(table.config.pinmap.outputs["buzzer"].pin)
    rods = [1, 2, 3, 4, 5, 6, 7]
    for i in range(count):
        name = "laser.%d" % rods[i % len(rods)]
        while buzzer.state:
            table.rig.buzzer.off()
        if not wait_until(lambda: not buzzer.state):
            return False
        seen = len(buzzer.states)
        table.museum.set(name, 1)
        # The pin's own history, not its state now: on a loaded machine this thread may look
        # only after a short buzz has ended.
        if not wait_until(lambda: any(s.state for s in buzzer.states[seen:])):
            return False
        table.museum.set(name, 0)
        wait_until(lambda: False, 0.003)
    return True


def shows(display):
    """Every snapshot the rig hands ``display`` from now on (a list that grows).  A test presses
    the guard's keys once the display was shown the match, as a guard does once the screen shows
    it: the rig's own scoreboard is ready a refresh earlier, and a key read against the screen
    before it (no players yet) does nothing (issue 27: the wait ran out under load)."""
    shown = []
    show = display.show

    def recorded(board):
        show(board)
        shown.append(board)
    display.show = recorded
    return shown


def shown_match(shown, thief="Ana"):
    return any(getattr(board, "next_thief", None) == thief for board in list(shown))


class Freezer:
    """``freeze(display)``: the display's renderer stops dead (a process: SIGSTOP; a thread:
    stuck in its frame, as a slow GPU would be) until ``thaw()``."""

    def __init__(self):
        self.gate = threading.Event()
        self.stopped = []

    def freeze(self, display):
        if isinstance(display, DisplayProcess):
            os.kill(display._proc.pid, signal.SIGSTOP)
            self.stopped.append(display._proc.pid)

    def thaw(self):
        self.gate.set()
        while self.stopped:
            os.kill(self.stopped.pop(), signal.SIGCONT)


@pytest.fixture
def frozen_renderer(monkeypatch):
    """A :class:`Freezer`; a display thread's frames are stuck from its first (the thread
    shares this process: its Face is the test's)."""
    freezer = Freezer()

    class StuckFace(face_module.Face):
        def draw(self, surface, now_s=None):
            freezer.gate.wait(120.0)
            return super().draw(surface, now_s)

    monkeypatch.setattr(face_module, "Face", StuckFace)
    try:
        yield freezer
    finally:
        freezer.thaw()


@pytest.mark.parametrize("shell", [DisplayProcess, DisplayThread])
def test_a_frozen_renderer_does_not_delay_touches(tmp_path, shell, frozen_renderer):
    display = shell(video_drivers=("dummy",), quiet=True).start()
    assert display.wait_ready(60) == "dummy"
    # Pulses of a few ms count as noise here (glitch_s 0.5 s), so the turn runs on while every
    # first edge still sounds the buzzer: many touches in one turn.
    config = load_config(None)
    config = replace(config, detect=replace(config.detect, glitch_s=0.5))
    table = real_time_table(config, display=display, recordings_dir=tmp_path)
    table.start()
    try:
        frozen_renderer.freeze(display)
        start_turn(table, hold_s=0.55)
        # A referee that waited for a frame would wait for ever here.
        assert touches_buzz(table, 30)
        assert table.rig.referee.match.current is not None
    finally:
        frozen_renderer.thaw()              # before the stop: a frozen renderer cannot end
        table.stop()
        assert display.stop(30.0)


def test_the_guards_keys_name_the_next_thief_and_are_recorded(tmp_path):
    display = DisplayThread(video_drivers=("dummy",), quiet=True).start()
    shown = shows(display)
    table = real_time_table(display=display, recordings_dir=tmp_path)
    table.start()
    try:
        assert wait_until(lambda: shown_match(shown))
        for key in ("t", "3"):             # thief key, then player 3
            display.press(key)
        assert wait_until(lambda: table.rig.referee.match.chosen_thief == "Caro")
        display.press("g")
        display.press("3")                 # Caro cannot guard the round she opens
        assert wait_until(lambda: table.rig.scoreboard().message is not None)
        assert "another player" in english(table.rig.scoreboard().message)
    finally:
        table.stop()
        display.stop()
    text = table.rig.recording_path.read_text("utf-8")
    assert '"choose": "thief", "player": "Caro"' in text
    assert '"choose": "guard"' not in text      # a refused choice is not recorded


def test_the_set_up_screen_works_through_the_display_process(tmp_path):
    """The default display, in its own process: the set-up keys go there and the new match
    comes back as one command (it crosses the pipe as the referee's own values)."""
    display = DisplayProcess(video_drivers=("dummy",), quiet=True).start()
    shown = shows(display)
    table = real_time_table(display=display, recordings_dir=tmp_path)
    table.start()
    try:
        assert wait_until(lambda: shown_match(shown))
        for key in ("s", "1", "1", "return", "1", "return", "return", "return"):
            display.press(key)             # Ben and Caro alone, easy, the layout unchecked
        assert wait_until(lambda: table.rig.players == ("Ben", "Caro"))
        for key in ("s", "2"):             # the wiring check, on the same screen
            display.press(key)
        # Escape once the screen was shown the check (the keys never overtake it).
        assert wait_until(lambda: any(getattr(board, "wiring", None) is not None
                                      for board in list(shown)))
        display.press("escape")
        assert wait_until(lambda: table.rig.scoreboard().wiring is None)
    finally:
        table.stop()
        display.stop()
    assert table.rig.level.name == "easy"
