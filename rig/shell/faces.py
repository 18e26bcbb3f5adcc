"""What the referee shows its snapshots to: the score display, or nothing.

A face has ``show(board)`` (the newest snapshot: the game's screen value, which says its
``game``; never blocking),
``poll_commands()`` (the guard's commands typed since the last call), ``stop(timeout_s)``,
``headless`` (no screen is open) and ``wants_frames`` (whether snapshots are worth building).
The pygame display (:mod:`rig.display.window`) is one; these are the others:

* :class:`NullDisplay` -- headless: nothing is built or shown;
* :class:`MemoryDisplay` -- keeps what it was shown, as luma.core's dummy device keeps its last
  image: tests and other faces read the snapshots from it, and can type the guard's commands;
* :class:`Faces` -- several faces at once (the screen and the phones' web face), each shown
  every snapshot.

A face may also have ``hear(t, text, severity)``: it is then told each call the referee makes
(the log's words), as the phones' call list is; ``attract(view)``: it is told when the attract
screen starts (a :class:`rig.core.attract.AttractView`) and ends (None), which the rig's screen
shows (:mod:`rig.shell.attract`); and ``frame_period_s``, the longest it lets
pass between two snapshots (without it: the screen's pace, 30 a second during a turn).  The
tournament's live feed takes 5 a second, so a headless rig in a tournament builds no more.
"""

from collections import deque
from ..core.service import SERVICE


class NullDisplay:
    headless = True
    wants_frames = False

    def show(self, board):
        pass

    def poll_commands(self):
        return []

    def stop(self, timeout_s=1.0):
        return True


class MemoryDisplay:
    """Keeps the last ``keep`` snapshots (``board`` is the newest, None before the first)."""

    headless = True
    wants_frames = True

    def __init__(self, keep=1000):
        self.boards = deque(maxlen=keep)
        self._commands = deque()
        self.shows = 0
        self.attracting = None      # the attract screen it was told of (None: none shown)

    def attract(self, view):
        self.attracting = view

    @property
    def board(self):
        return self.boards[-1] if self.boards else None

    def show(self, board):
        self.shows += 1
        self.boards.append(board)

    def type(self, command):
        """The guard's command, as if typed at the keys (taken at the next refresh)."""
        self._commands.append(command)

    def poll_commands(self):
        out = list(self._commands)
        self._commands.clear()
        return out

    def stop(self, timeout_s=1.0):
        return True


class Faces:
    """Several faces as one: each snapshot goes to every face that wants frames, the guard's
    commands come from all of them, ``stop`` stops each (each within ``timeout_s``)."""

    def __init__(self, *faces):
        self.faces = tuple(f for f in faces if f is not None)
        self._hearing = tuple(f for f in self.faces if getattr(f, "hear", None) is not None)

    @property
    def headless(self):
        return all(f.headless for f in self.faces)

    @property
    def wants_frames(self):
        return any(f.wants_frames for f in self.faces)

    @property
    def frame_period_s(self):
        """The shortest period of the faces that want frames (None: one wants the screen's)."""
        periods = [getattr(f, "frame_period_s", None) for f in self.faces if f.wants_frames]
        return None if None in periods or not periods else min(periods)

    def show(self, board):
        service = getattr(board, "game", None) == SERVICE
        for face in self.faces:
            # The builder's service screen is the rig's screen's alone (issue 31): a face
            # with ``shows_service`` False (the phones') keeps the last game snapshot.
            if face.wants_frames and (not service or getattr(face, "shows_service", True)):
                face.show(board)

    def attract(self, view):
        for face in self.faces:
            if getattr(face, "attract", None) is not None:
                face.attract(view)

    def hear(self, t, text, severity):
        for face in self._hearing:
            face.hear(t, text, severity)

    def poll_commands(self):
        return [command for face in self.faces for command in face.poll_commands()]

    def stop(self, timeout_s=1.0):
        stopped = [face.stop(timeout_s) for face in self.faces]
        return all(stopped)
