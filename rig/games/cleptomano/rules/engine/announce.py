"""What a finished turn or a correction decides, announced as calls: the round's winners, the
tiebreak, the match's winner, the solo heist's title."""

from dataclasses import replace

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


def announce_changes(before, m, t, effects, turn):
    """After a correction of ``turn`` (the guard's count of its haul, an undone touch): what
    the turn decided said again only when the correction changed it (issue 30: each result
    is said once; a confirmed haul that changes nothing is not a second round's win)."""
    said, now = [], []
    announce_results(before, t, said, turn)
    announce_results(m, t, now, turn)
    if [replace(e, t=0.0) for e in said] != [replace(e, t=0.0) for e in now]:
        effects.extend(now)
