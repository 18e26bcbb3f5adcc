"""Build the display's :class:`~rig.games.cleptomano.rules.view.Scoreboard` from the referee's
state (pure)."""

from . import calls, engine as rules
from .events import NextKind
from rig.table.names import PAINTINGS, RELICS
from .view import DEFAULT_PIECES, Phase, Piece, PieceKind, PieceState, RoundRow, Scoreboard


def pieces_of(turn):
    if turn is None:
        return DEFAULT_PIECES
    out = []
    for n in PAINTINGS:
        out.append(Piece(PieceKind.PAINTING, n, PieceState.TAKEN if n in turn.paintings_off
                         else PieceState.IN_PLACE))
    for n in RELICS:
        if n in turn.broken:
            state = PieceState.BROKEN
        elif n in turn.relics_taken:
            state = PieceState.TAKEN
        else:
            state = PieceState.IN_PLACE
        out.append(Piece(PieceKind.RELIC, n, state))
    return tuple(out)


def round_rows(match):
    rows = []
    done = {r.number: r for r in rules.rounds(match)}
    last = rules.current_round(match)
    for number in range(1, last + 1):
        if number in done:
            r = done[number]
            rows.append(RoundRow(number, dict(r.scores), r.winners))
            continue
        scores = {p: None for p in match.players}
        for turn in rules.played_turns(match):
            if turn.round == number:
                scores[turn.thief] = turn.score
        if any(v is not None for v in scores.values()) or number == 1:
            rows.append(RoundRow(number, scores, ()))
    return tuple(rows)


def build(referee, now_rel, *, faults=(), banner=None, message=None, key_help=(), roster=(),
          wiring=None):
    """The snapshot of the match at ``now_rel`` (seconds on the match's clock); ``roster`` the
    names the set-up screen offers, ``wiring`` the wiring check when one runs."""
    match = referee.match
    level = match.level
    turn = match.current
    nxt = rules.next_turn(match)
    outcome = rules.outcome(match)
    common = dict(
        players=match.players, level=level.name, lasers=level.lasers, corridor=level.corridor,
        timer_s=level.timer_s, rounds=() if match.solo else round_rows(match),
        round_wins={} if match.solo else rules.round_wins(match),
        faults=tuple(faults), message=message, key_help=tuple(key_help),
        winner=outcome.winner if outcome else None, title=outcome.title if outcome else None,
        banner=banner,
        hand_inside=referee.detector.hand_inside,
        roster=tuple(roster), wiring=wiring,
        reason_wanted=(match.overrides[match.why_open].kind.value
                       if match.why_open is not None else None),
    )
    if turn is not None:
        elapsed = max(0.0, now_rel - turn.start_t)
        remaining = None
        if level.timer_s is not None:
            remaining = max(0.0, level.timer_s - elapsed)
        return Scoreboard(
            phase=Phase.TURN, round=turn.round, thief=turn.thief, guard=turn.guard,
            tiebreak=turn.tiebreak, remaining_s=remaining, elapsed_s=elapsed,
            touches=turn.touches, pieces=pieces_of(turn), turn_score=turn.running_score,
            **common)
    last = match.turns[-1] if match.turns else None
    awaiting = rules.awaiting_loot(match)
    return Scoreboard(
        phase=Phase.OVER if nxt is None else Phase.BETWEEN,
        round=nxt.round if nxt else (last.round if last else 1),
        next_thief=nxt.thief if nxt else None, next_guard=nxt.guard if nxt else None,
        tiebreak=bool(nxt and nxt.kind is NextKind.TIEBREAK),
        ready_problems=tuple(calls.problem_text(p) for p in referee.problems()),
        awaiting_loot=awaiting is not None,
        pieces=pieces_of(last), turn_score=last.score or 0 if last else 0,
        touches=last.touches if last else 0,
        **common)

