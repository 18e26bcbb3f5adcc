"""The chest heist: its crash script (the ``crash`` part, :class:`rig.core.contract.Crash`), a
game played to its end by fixed commands, each at its own time on the game's clock, for the
crash tests and the kill sweep (``python -m sim.gamecrash``), which step the game's own rules
with them.  Pure."""

def script():
    from . import rules as ch
    moves = [ch.Roll(0.0), ch.Mark(0.0, None, "3", (3,)), ch.Charge(0.0, None, 1, (4, 2)),
             ch.Mark(0.0, None, "P", (1,)), ch.EndTurn(0.0), ch.Roll(0.0),
             ch.Reroll(0.0, None, (2, 3)), ch.Mark(0.0, None, "4", (5,), (1,)),
             ch.Charge(0.0, None, 2, (1,)), ch.EndTurn(0.0)]
    for _ in range(10):
        moves += [ch.Roll(0.0), ch.EndTurn(0.0)]
    moves.append(ch.CountDiamonds(0.0, None, 20))
    return ("Ana",), 2024, [(1.0 * (i + 1), _fixed(c)) for i, c in enumerate(moves)]


def _fixed(command):
    return lambda state: command
