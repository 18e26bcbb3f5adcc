"""On a laptop the rig's window takes the museum keys too (issue 30: Space in the window did
nothing; only the terminal played the museum).  Keys the guard's keys leave unused, typed in
the window, play the simulated museum as the terminal's do; the key help says so."""

import os

from rig.display.face import Face
from rig.display.keymodes import MuseumKey, museum_key
from rig.games.cleptomano.screen import Scoreboard
from sim.keyboard import KeyboardMuseum, WindowMuseum

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def face(museum_keys=True):
    f = Face(museum_keys=museum_keys)
    f.show(Scoreboard(players=("Ana", "Ben")))
    return f


def test_space_in_the_window_is_the_museums_button():
    assert face().key("space", " ")[0] == MuseumKey(0.0, " ")
    assert face().key("1", "1")[0] == MuseumKey(0.0, "1")
    assert face().key("k", "k")[0] == MuseumKey(0.0, "k")
    assert face(museum_keys=False).key("space", " ")[0] is None     # a real rig: nothing


def test_the_guards_keys_stay_the_guards():
    f = face()
    command, _ = f.key("t", "t")          # the next thief: then a digit picks the player
    assert command is None and f.prompt is not None
    command, _ = f.key("1", "1")
    assert type(command) is not MuseumKey and command is not None
    f = face()
    f.key("s", "s")                       # the set-up screen: typed letters are its own
    assert all(f.key(c, c)[0] is None for c in "zx ")
    assert museum_key("return") is None and museum_key("f1") is None


class Table:
    def __init__(self):
        self.pressed = []
        outer = self

        class Museum:
            def set(self, name, value):
                outer.pressed.append((name, value))

            def value(self, name):
                return 0
        self.museum = Museum()


class Display:
    def __init__(self, commands):
        self.commands = list(commands)
        self.shown = None

    def poll_commands(self):
        out, self.commands = self.commands, []
        return out

    def show(self, board):
        self.shown = board


class Timer:
    def __init__(self, delay, fn, args):
        self.fn, self.args = fn, args

    def start(self):
        self.fn(*self.args)          # the contact opens again at once (no real time)


def test_the_simulator_plays_the_windows_museum_keys_and_passes_the_rest():
    table = Table()
    said = []
    window = WindowMuseum(Display([MuseumKey(0.0, " "), "a guard's command",
                                   MuseumKey(0.0, "k")]), out=said.append)
    window.museum = KeyboardMuseum(table, timer_factory=Timer)
    assert window.poll_commands() == ["a guard's command"]
    assert table.pressed == [("button", 1), ("button", 0), ("guard", 1), ("guard", 0)]
    assert said == ["> pressed the button", "> touched the guard token"]
    window.show("board")                  # everything else is the display's
    assert window.display.shown == "board"


def test_the_key_help_says_the_window_plays_the_museum():
    from rig.words import english
    from rig.core.msg import Msg
    text = english(Msg("rig.keys.museum_window"))
    assert "Space the button" in text and "K the guard token" in text
