"""What the screen shows and what the guard's keys do, without a window.

:class:`Face` is the render loop's logic (:mod:`rig.display.window`): it takes the newest
snapshot, turns keys into commands through the :class:`~rig.display.keys.KeyMapper`, and says
which screen to draw: the wiring check while one runs, the set-up screen while it is open, else
the score display with the half-typed key prompt.  For a companion game's snapshot (a
:class:`~rig.core.gamekit.GameScreen`) the game's key mode (:mod:`.game_keys`) reads the
keys and the game's screen is drawn (:mod:`.game_screens`).  :class:`KeyedDisplay` is the same face kept
in memory (a :class:`~rig.shell.faces.MemoryDisplay`): tests and the simulator press keys on it
as the guard would and render the very frame the screen would show.
"""

from dataclasses import replace

from ..core.gamekit import GameScreen
from ..core.view import Scoreboard
from ..shell.faces import MemoryDisplay
from .game_keys import mode_for
from .keys import KeyMapper

WAITING = Scoreboard(message="Waiting for the referee…")


class Face:
    """The keys and the screen of one display."""

    def __init__(self, bindings=None, keypad=True):
        self.mapper = KeyMapper(bindings, (), keypad)
        self.game_keys = None     # the key mode of the companion game shown, if one is
        self.board = None
        self.prompt = None

    def show(self, board):
        """The newest snapshot from the referee (or from a game's host)."""
        self.board = board
        if isinstance(board, GameScreen):
            if self.game_keys is None or self.game_keys.game != board.game:
                self.game_keys = mode_for(board.game)
            if self.game_keys is not None:
                self.game_keys.observe(board)
            return
        self.game_keys = None
        self.mapper.observe(board)

    def key(self, name, text=None):
        """One key press: returns ``(command or None, changed)``, ``changed`` when the screen
        must be drawn again (a prompt or the set-up screen moved)."""
        if self.game_keys is not None:
            before = self.prompt
            phones = self.game_keys.show_phones
            command, self.prompt = self.game_keys.feed(name, text)
            return command, before != self.prompt or phones != self.game_keys.show_phones
        before = (self.prompt, self.mapper.flow is not None)
        command, self.prompt = self.mapper.feed(name, text)
        return command, (before != (self.prompt, self.mapper.flow is not None)
                         or self.mapper.flow is not None)

    def screen(self):
        """``(draw, thing)``: the drawing function for the screen to show now, and what it
        draws (``draw(surface, thing, now_s)``)."""
        from . import game_screens, render, setup_screen
        board = self.board if self.board is not None else WAITING
        if isinstance(board, GameScreen):
            shown = self.game_keys is not None and self.game_keys.show_phones
            return game_screens.draw, replace(board, message=self.prompt or board.message,
                                              phones=board.phones if shown else None)
        if getattr(board, "wiring", None) is not None:
            return setup_screen.draw_wiring, board
        setup = self.mapper.setup_view()
        if setup is not None:
            return setup_screen.draw_setup, replace(setup, faults=tuple(board.faults))
        if self.prompt:
            board = replace(board, message=self.prompt)
        return render.draw, board

    def draw(self, surface, now_s=None):
        draw, thing = self.screen()
        draw(surface, thing, now_s)


class KeyedDisplay(MemoryDisplay):
    """A :class:`~rig.shell.faces.MemoryDisplay` with the screen's own keys and drawing:
    ``press("s", "1")`` as the guard would (the commands reach the rig at its next refresh),
    ``write("Dora")`` types a name, :meth:`frame` renders what the screen shows now."""

    def __init__(self, bindings=None, keep=1000):
        super().__init__(keep)
        self.face = Face(bindings)

    def show(self, board):
        super().show(board)
        self.face.show(board)

    def press(self, *keys):
        for name in keys:
            command, _ = self.face.key(name)
            if command is not None:
                self.type(command)
        return self

    def write(self, text):
        """Type ``text`` on a keyboard, one key per character."""
        for char in text:
            command, _ = self.face.key("space" if char == " " else char.lower(), char)
            if command is not None:
                self.type(command)
        return self

    def frame(self, size=(800, 480)):
        """The frame the screen shows now, as a pygame Surface (headless)."""
        import os
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame
        surface = pygame.Surface(size)
        self.face.draw(surface)
        return surface
