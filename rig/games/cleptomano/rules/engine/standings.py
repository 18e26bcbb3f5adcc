"""Everything derived from the turns: rounds and their winners, the tiebreak, the outcome, who
plays next.  Nothing here is stored: a late correction of a haul flows into every result.  (The
match keeps its tiebreak's fold only to fold the next attempt on, and checks it against its
attempts first; tiebreak attempts are never corrected.)"""

from dataclasses import replace

from ..events import NextKind
from ..titles import criminal_title
from .model import (ROUND_WINS_TO_WIN, NextTurn, Outcome, RoundResult, Termination, Tiebreak,
                    TiebreakFold, TurnOutcome)

_NOT_COUNTED = (None, TurnOutcome.VOID, TurnOutcome.UNFINISHED)


def played_turns(match):
    """Regular turns that count (ended, not void)."""
    return [x for x in match.turns if x.outcome not in _NOT_COUNTED]


#: The last :func:`rounds` worked out: ``(turns, players, results)``.  A turn's end asks for the
#: rounds of the same turns several times (the outcome, the next turn, the announcement, the
#: snapshot), so the same tuple of (frozen) turns is answered from here: its identity, held
#: here, is the key; a new turn or a correction makes a new tuple.  Only ever replaced whole.
_last_rounds = (None, None, ())


def rounds(match):
    """Completed rounds, in order, with their scores and winners."""
    global _last_rounds
    if match.solo:
        return []
    turns, players = match.turns, match.players
    last = _last_rounds
    if last[0] is turns and type(turns) is tuple and last[1] == players:
        return list(last[2])
    results = _rounds(match)
    _last_rounds = (turns, players, tuple(results))
    return results


def _rounds(match):
    by_round = {}
    for turn in played_turns(match):
        by_round.setdefault(turn.round, {})[turn.thief] = turn
    results = []
    number = 1
    while number in by_round and len(by_round[number]) == len(match.players):
        turns = by_round[number]
        scores = tuple((p, turns[p].score) for p in match.players)
        best = max(s for _, s in scores)
        winners = tuple(p for p, s in scores if s == best)
        guard = next(iter(turns.values())).guard
        results.append(RoundResult(number, scores, winners, guard))
        number += 1
    return results


def round_wins(match):
    wins = {p: 0 for p in match.players}
    for result in rounds(match):
        for p in result.winners:
            wins[p] += 1
    return wins


def tiebreak_contenders(match):
    """The players who reached 2 round wins together, or () when there is no tiebreak."""
    if match.solo:
        return ()
    wins = round_wins(match)
    leaders = tuple(p for p in match.players if wins[p] >= ROUND_WINS_TO_WIN)
    return leaders if len(leaders) > 1 else ()


def tiebreak(match):
    """Where the tiebreak stands, replayed from its attempts (:data:`NO_TIEBREAK` without one)."""
    return fold_tiebreak(match).state


def fold_tiebreak(match):
    """The tiebreak folded over every attempt of ``match``: on from the fold the match keeps,
    when that one is of these contenders and these attempts, else from the first attempt."""
    contenders = tiebreak_contenders(match)
    if not contenders:
        return TiebreakFold(())
    fold = match.tiebreak_fold
    if (fold is None or fold.contenders != contenders or fold.counted > len(match.attempts)
            or (fold.counted and match.attempts[fold.counted - 1] is not fold.last)):
        fold = TiebreakFold(contenders, state=Tiebreak(1, contenders))
    for attempt in match.attempts[fold.counted:]:
        fold = _fold_attempt(fold, attempt)
    return fold


def _fold_attempt(fold, attempt):
    """One more ended attempt: a series ends once every player still in has made one; the
    best adjusted time wins it, and a tie for it (or no time at all) plays another series."""
    state = fold.state
    if state.winner is not None or attempt.outcome in (TurnOutcome.UNFINISHED, TurnOutcome.VOID):
        return replace(fold, counted=fold.counted + 1, last=attempt)   # decides nothing
    attempted = state.attempted + (attempt.thief,)
    times = fold.times + (attempt.adjusted_s,)
    if len(attempted) < len(state.still_in):
        state = replace(state, attempted=attempted)
    else:
        best = min((s for s in times if s is not None), default=None)
        still_in = state.still_in
        if best is not None:
            still_in = tuple(p for p in still_in
                             if any(a == p and s == best for a, s in zip(attempted, times)))
        if best is not None and len(still_in) == 1:
            state = Tiebreak(state.series, still_in, attempted, still_in[0])
        else:
            state, times = Tiebreak(state.series + 1, still_in), ()
    return TiebreakFold(fold.contenders, fold.counted + 1, attempt, state, times)


def outcome(match):
    """How the match ended, or None while it goes on: the one value the winner, the title and
    "is it over?" are read from."""
    if match.solo:
        turns = played_turns(match)
        if not turns:
            return None
        turn, level = turns[-1], match.level
        title = criminal_title(level.timer_s, level.lasers, turn.score, level.corridor) \
            if turn.score else None
        return Outcome(Termination.SOLO, None, title)
    wins = round_wins(match)
    leaders = [p for p in match.players if wins[p] >= ROUND_WINS_TO_WIN]
    if len(leaders) == 1:
        return Outcome(Termination.ROUNDS, leaders[0])
    if len(leaders) > 1:
        champion = tiebreak(match).winner
        if champion is not None:
            return Outcome(Termination.TIEBREAK, champion)
    return None


def winner(match):
    """The match winner, or None while it is undecided (and always None for a solo heist)."""
    result = outcome(match)
    return result.winner if result else None


def title(match):
    """The solo heist's criminal title, once its attempt is over (None for 0 points)."""
    result = outcome(match)
    return result.title if result else None


def is_over(match):
    return outcome(match) is not None


def current_round(match):
    """The round being played, or about to be (after a complete round, the next one)."""
    counted = played_turns(match)
    if not counted:
        return 1
    last = counted[-1].round
    done = {x.thief for x in counted if x.round == last}
    return last + 1 if len(done) == len(match.players) else last


def played_in_round(match, number):
    return {x.thief for x in played_turns(match) if x.round == number}


def round_guard(match, number):
    for x in match.turns:
        if x.round == number and x.outcome is not TurnOutcome.VOID:
            return x.guard
    if match.current is not None and match.current.round == number:
        return match.current.guard
    return None


def default_guard(players, first_thief, previous_guard):
    """The first player after the round's first thief, in list order, who did not guard the
    previous round; the list wraps around and the thief comes last."""
    i = players.index(first_thief)
    order = players[i + 1:] + players[:i] + (first_thief,)
    for p in order:
        if p != previous_guard:
            return p
    return None


def next_turn(match):
    """Who plays next and who guards, or None once the match is over."""
    if match.solo:
        if played_turns(match):
            return None
        return NextTurn(NextKind.SOLO, 1, match.players[0], None)
    if is_over(match):
        return None
    contenders = tiebreak_contenders(match)
    if contenders:
        state = tiebreak(match)
        waiting = state.waiting
        thief = match.chosen_thief if match.chosen_thief in waiting else waiting[0]
        guard = match.tiebreak_guard if match.tiebreak_guard not in (None, thief) else \
            default_guard(match.players, thief, thief)
        return NextTurn(NextKind.TIEBREAK, 0, thief, guard, state.series)
    number = current_round(match)
    played = played_in_round(match, number)
    if match.chosen_thief is not None and match.chosen_thief not in played:
        thief = match.chosen_thief
    elif number == 1 and not played:
        thief = match.first_thief
    else:
        thief = next(p for p in match.players if p not in played)
    guard = round_guard(match, number)
    if guard is None:
        if match.chosen_guard is not None and match.chosen_guard[0] == number:
            guard = match.chosen_guard[1]
        else:
            guard = default_guard(match.players, thief, round_guard(match, number - 1))
    return NextTurn(NextKind.ROUND, number, thief, guard)


def last_open_turn(match):
    """The last regular turn if no turn has started since it ended (the guard may still
    correct it), else None."""
    if match.current is not None or not match.turns:
        return None
    last = match.turns[-1]
    if match.attempts and match.attempts[-1].start_t > last.start_t:
        return None
    return last


def last_open_attempt(match):
    """The last tiebreak attempt if it ended and no turn has started since (the guard may
    still correct it, as the last turn before the next start), else None."""
    if match.current is not None or not match.attempts:
        return None
    last = match.attempts[-1]
    if match.turns and match.turns[-1].start_t > last.start_t:
        return None
    if last.outcome in (TurnOutcome.UNFINISHED, TurnOutcome.VOID):
        return None
    return last


def open_haul(match):
    """The last ended turn if it ended uncaught and no turn has started since: its haul can
    still be confirmed, and corrected as often as the guard likes, until the next start."""
    last = last_open_turn(match)
    return last if last is not None and last.outcome is TurnOutcome.ESCAPED else None


def awaiting_loot(match):
    """The open haul (:func:`open_haul`) while the guard has not confirmed it yet: what the
    screen prompts the guard for."""
    turn = open_haul(match)
    return turn if turn is not None and turn.confirmed is None else None


def next_deadline(match):
    """When the engine next needs a :class:`~rig.games.cleptomano.rules.events.Tick` (the end of
    the turn's time)."""
    turn = match.current
    if turn is None or match.level.timer_s is None:
        return None
    return round(turn.start_t + match.level.timer_s, 6)
