"""Stop Thief!: its crash script (the ``crash`` part, :class:`rig.core.contract.Crash`), a
game played to its end by fixed commands, each at its own time on the game's clock, for the
crash tests and the kill sweep (``python -m sim.gamecrash``), which step the game's own rules
with them.  Pure."""

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")


def script():
    from .rules import events as ev
    words = ("clue", "end", "clue", "wrong", "replay", "clue", "end", "clue", "catch",
             "clue", "end", "clue", "end", "clue", "catch", "clue", "end", "clue", "catch")

    def command(word):
        def make(state):
            here = state.case.thief.space
            return {"clue": ev.GetClue(0.0), "end": ev.EndTurn(0.0),
                    "replay": ev.ReplayClue(0.0), "catch": ev.Arrest(0.0, here),
                    "wrong": ev.Arrest(0.0, state.board.next_to[here][0])}[word]
        return make
    return PLAYERS, 3, [(2.0 * (i + 1), command(w)) for i, w in enumerate(words)]
