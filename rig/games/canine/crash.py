"""Canine Kleptomaniacs: its crash script (the ``crash`` part, :class:`rig.core.contract.Crash`), a
game played to its end by fixed commands, each at its own time on the game's clock, for the
crash tests and the kill sweep (``python -m sim.gamecrash``), which step the game's own rules
with them.  Pure."""

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")


def script():
    from . import rules as ck
    from .samples import sample_game
    entries = dict(sample_game("final").entries)      # the sample hands of the four players
    moves = [ck.ChooseDoggy(0.0, "Ana", "Doggy A"),  # not words: card names
             ck.ChooseDoggy(0.0, "Bruno", "Doggy B", True),  # not words: card names
             ck.ChooseDoggy(0.0, "Carla", "Doggy C"),  # not words: card names
             ck.ChooseDoggy(0.0, "Diego", "Doggy D")]  # not words: card names
    moves += [ck.DrawAction(0.0)] * 4 + [ck.PlayCard(0.0, "Ana", "squirrel")]
    makers = [_fixed(c) for c in moves] + [_roll_while_called(ck.Roll(0.0))] * 8
    makers += [_fixed(ck.DeckEmpty(0.0, None, "action"))]
    makers += [_fixed(ck.Reveal(0.0, p, entries[p])) for p in PLAYERS]
    return PLAYERS, 4, [(2.0 * (i + 1), make) for i, make in enumerate(makers)]


def _roll_while_called(roll):
    return lambda state: roll if state.call is not None else None


def _fixed(command):
    return lambda state: command
