"""What the referee shows its snapshots to: the score display, or nothing.

A face has ``show(board)`` (the newest :class:`~rig.core.view.Scoreboard`, never blocking),
``poll_commands()`` (the guard's commands typed since the last call), ``stop(timeout_s)``,
``headless`` (no screen is open) and ``wants_frames`` (whether snapshots are worth building).
The pygame display (:mod:`rig.display.window`) is one; these are the others:

* :class:`NullDisplay` -- headless: nothing is built or shown;
* :class:`MemoryDisplay` -- keeps what it was shown, as luma.core's dummy device keeps its last
  image: tests and other faces read the snapshots from it, and can type the guard's commands.
"""

from collections import deque


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
