"""Stolen Paintings: its crash script (the ``crash`` part, :class:`rig.core.contract.Crash`), a
game played to its end by fixed commands, each at its own time on the game's clock, for the
crash tests and the kill sweep (``python -m sim.gamecrash``), which step the game's own rules
with them.  Pure."""

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")


def script():
    from . import rules as sp
    moves = [(5.0, sp.Start(0.0, "Ana")), (80.0, sp.Steal(0.0, "Ana", (3, 6, 8))),
             (90.0, sp.Mark(0.0, "Carla", (3, 5))), (95.0, sp.Mark(0.0, "Bruno", (3, 1))),
             (99.0, sp.Mark(0.0, "Diego", (5,))),
             (100.0, sp.Start(0.0, "Bruno")), (170.0, sp.Steal(0.0, "Bruno", (2,))),
             (180.0, sp.Mark(0.0, "Ana", (2,))), (181.0, sp.Mark(0.0, "Carla", (2,))),
             (182.0, sp.Mark(0.0, "Diego", (4,)))]
    return PLAYERS, 0, [(t, _fixed(c)) for t, c in moves]


def _fixed(command):
    return lambda state: command
