"""What the screen shows and what the guard's keys do, without a window.

:class:`Face` is the render loop's logic (:mod:`rig.display.window`): it takes the newest
snapshot, turns keys into commands and says which screen to draw, the same way for every game:
the snapshot says its game (``game``), and that game's key mode, its folder's ``keys.MODE``
found through the registry (:mod:`.game_keys`), reads the keys and says what the screen shows
(its folder's screen, drawn under the host's message strip or on its own).  Before the first
snapshot the screen shows the registry's first game's ``screen.waiting(message)``
(:func:`waiting`), or a bare :class:`~rig.core.gamekit.GameScreen` for a first game without
one.  :class:`KeyedDisplay` is the same face kept in memory (a
:class:`~rig.shell.faces.MemoryDisplay`): tests and the simulator press keys on it as the guard
would and render the very frame the screen would show.
"""

from ..core.attract import Wake
from ..core.gamekit import GameScreen
from ..core.msg import Msg
from ..games import games
from ..words import CHOICES, PSEUDO
from ..draw import kit
from ..draw.attract import draw_attract
from ..shell.faces import MemoryDisplay
from .game_keys import mode_for
from ..draw.keymodes import Mode, MuseumKey, museum_key
from .parts import face_part
from . import service

_WAITING = []


def waiting():
    """The snapshot shown before the host's first: the registry's first game's waiting screen
    (its ``screen.waiting(message)``), made once."""
    if not _WAITING:
        first = games()[0].name
        message = Msg("rig.screen.waiting")
        make = getattr(face_part(first, "screen"), "waiting", None)
        _WAITING.append(make(message) if make is not None
                        else GameScreen(game=first, view={}, message=message))
    return _WAITING[0]


class Face:
    """The keys and the screen of one display."""

    def __init__(self, bindings=None, keypad=True, museum_keys=False):
        self.bindings = bindings
        self.keypad = keypad
        self.museum_keys = museum_keys   # the simulator's: unused keys play the museum
        self.board = None
        self.prompt = None
        self.keys = self._keys_for(waiting().game)   # the key mode of the game shown
        self.attracting = None      # the attract screen the host asked for (None: none)
        self._combo = service.OpenCombo()             # the service mode's key combination

    def attract(self, view):
        """The host's attract screen (a :class:`rig.core.attract.AttractView`), or None when
        it ends."""
        self.attracting = view

    def attract_shown(self):
        """Whether the attract screen is on the screen now: asked for, and no key sequence,
        set-up screen or check open at the keys (the guard's set-up is never covered)."""
        return self.attracting is not None and self.prompt is None and getattr(
            self.keys, "idle", lambda: True)()

    def _keys_for(self, game):
        """The key mode of ``game`` (a bare :class:`Mode` for a game without keys: only H and
        Tab; the service mode's keys for its screen)."""
        if game == service.SERVICE:
            return service.mode()
        mode = mode_for(game, self.bindings, self.keypad) or Mode()
        mode.game = game
        return mode

    def show(self, board):
        """The newest snapshot from the referee (or from a game's host)."""
        self.board = board
        game = getattr(board, "game", None)
        if self.keys.game != game:
            self.keys = self._keys_for(game)
        self.keys.observe(board)

    def key(self, name, text=None):
        """One key press: returns ``(command or None, changed)``, ``changed`` when the screen
        must be drawn again (the prompt, or what else the keys show, moved)."""
        if self.attracting is not None:
            # Any key wakes the attract screen; the key that woke it does nothing else.
            shown = self.attract_shown()
            self.attracting = None
            if shown:
                return Wake(), True
            command, changed = self.key(name, text)
            return (command if command is not None else Wake()), changed
        if self._combo.key(name) and self.keys.game != service.SERVICE:
            return service.open_command(), False      # F12 three times: the service mode
        before = (self.prompt, self.keys.look())
        idle = self.museum_keys and self.prompt is None and getattr(
            self.keys, "idle", lambda: False)()
        command, self.prompt = self.keys.feed(name, text)
        changed = before != (self.prompt, self.keys.look())
        if idle and command is None and not changed:      # a key the guard's keys leave
            key = museum_key(name, text)                   # unused: the simulated museum's
            if key is not None:
                command = MuseumKey(0.0, key)
        return command, changed

    def screen(self):
        """``(draw, thing)``: the drawing function for the screen to show now, and what it
        draws (``draw(surface, thing, now_s)``)."""
        if self.attract_shown():
            return draw_attract, self.attracting
        board = self.board if self.board is not None else waiting()
        return self.keys.shown(board, self.prompt)

    def language(self):
        """The language the screen speaks now: the snapshot's (the table's), else English."""
        lang = getattr(self.board, "language", None)
        return lang if lang in CHOICES or lang == PSEUDO else "en"

    def draw(self, surface, now_s=None):
        draw, thing = self.screen()
        words = kit.words()
        if words.lang != self.language():
            kit.use_words(self.language())
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

    def attract(self, view):
        super().attract(view)
        self.face.attract(view)

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

    def frame(self, size=(800, 480), now_s=None):
        """The frame the screen shows now, as a pygame Surface (headless); ``now_s`` the
        screen's clock (the attract screen's card)."""
        import os
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame
        surface = pygame.Surface(size)
        self.face.draw(surface, now_s)
        return surface
