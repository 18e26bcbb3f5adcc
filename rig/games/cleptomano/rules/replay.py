"""Re-referee a recording in virtual time and report the result (a public contract).

The recording goes through the full input pipeline (touch detection included) in a
:class:`~rig.games.cleptomano.rules.referee.Referee`, exactly as the daemon fed it live; nothing
here sleeps.
"""

from rig.games.cleptomano.rules import calls, recording, engine as rules
from rig.core.errors import RecordingError, RulesError
from .referee import Referee


def referee(header, items, path=None):
    """Run the items through a fresh referee; returns ``(referee, end_t)``.

    An invalid choice or haul confirmation is bad input: RecordingError naming the line.
    """
    ref = new_referee(header)
    end_t = 0.0
    for line, item in items:
        feed(ref, line, item, path)
        end_t = item.t
        if recording.ends_match(item):
            break
    return ref, end_t


def new_referee(header):
    """The referee a recording with ``header`` starts from."""
    return Referee(rules.new_match(header.players, header.level, header.first_thief),
                   header.settings)


def feed(ref, line, item, path=None):
    """Feed one recorded item to ``ref``; a command the rules refuse is bad input."""
    try:
        ref.feed(item)
    except RulesError as exc:
        error = RecordingError(str(exc), path=path, line=line)
        error.msg = exc.msg     # the refusal's code: an edge says it (``rig.words.english``)
        raise error from None


def replay_lines(lines, path=None, overrides=False):
    return replay(*recording.parse_lines(lines, path), path, overrides=overrides)


def replay(header, items, path=None, overrides=False):
    """Re-referee parsed recording items; the replay output (see README), with the referee's
    overrides when ``overrides`` (``replay --overrides``)."""
    ref, end_t = referee(header, items, path)
    return result(ref.finish(end_t), overrides)


def turn_json(turn):
    return {
        "round": turn.round,
        "thief": turn.thief,
        "guard": turn.guard,
        "outcome": turn.outcome.value,
        "reason": turn.reason.value if turn.reason else None,
        "touches": turn.touches,
        "paintings": turn.paintings,
        "relics": turn.relics,
        "broken": sorted(turn.broken),
        "fouls": [calls.foul_english(relic, before) for relic, before in turn.fouls],
        "score": turn.score,
        "duration_s": turn.duration_s,
    }


def result(match, overrides=False):
    """The replay output for a match whose recording has ended (see README); ``overrides``
    adds the referee's overrides, each as :meth:`~.overrides.Override.as_json` says it
    (docs/contracts/replay.md: an addition, asked for, so that the output of every older
    recording stays byte for byte what it was)."""
    solo = match.solo
    outcome = rules.outcome(match)
    turns = [turn_json(x) for x in match.turns if x.outcome is not rules.TurnOutcome.VOID]
    out_rounds = [] if solo else [
        {"round": r.number, "scores": dict(r.scores), "winners": list(r.winners)}
        for r in rules.rounds(match)]
    wins = {} if solo else rules.round_wins(match)
    tiebreak = None
    if rules.tiebreak_contenders(match):
        tiebreak = [{"thief": a.thief, "time_s": a.time_s, "touches": a.touches,
                     "adjusted_s": a.adjusted_s, "caught": a.caught}
                    for a in match.attempts]
    out = {
        "players": list(match.players),
        "turns": turns,
        "rounds": out_rounds,
        "round_wins": wins,
        "tiebreak": tiebreak,
        "winner": outcome.winner if outcome else None,
        "title": outcome.title if outcome else None,
    }
    if overrides:
        out["overrides"] = [o.as_json() for o in match.overrides]
    return out
