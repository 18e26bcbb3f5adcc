"""What a finished turn or a correction decides, announced as calls: the round's winners, the
tiebreak, the match's winner, the solo heist's title."""

from .. import events as ev
from .standings import outcome, round_wins, rounds, tiebreak


def announce_results(m, t, effects, turn):
    """After a turn: the round's winners, the tiebreak, the match's winner, the solo title."""
    result = outcome(m)
    if m.solo:
        title = result.title if result else None
        effects.append(ev.TitleEarned(t, title))
        effects.append(ev.MatchOver(t, None, title))
        return
    if not turn.tiebreak:
        done = rounds(m)
        if done and done[-1].number == turn.round:
            effects.append(ev.RoundWon(t, turn.round, done[-1].winners))
    if result is not None:
        wins = round_wins(m)
        effects.append(ev.MatchWon(t, result.winner, tuple((p, wins[p]) for p in m.players)))
        effects.append(ev.MatchOver(t, result.winner, None))
        return
    state = tiebreak(m)
    if state.still_in and not state.attempted:
        effects.append(ev.TiebreakCalled(t, state.series, state.still_in))
