"""``step(match, event) -> (match, effects)``: the whole engine, one event at a time.

Physical events (the detector's) are handled here; the guard's commands are in
:mod:`.choices`.  Every decision is taken from the event's own timestamp, never from a clock.
"""

from dataclasses import replace

from .. import events as ev
from .. import overrides
from rig.table.names import PAINTINGS, RELICS
from . import choices
from .model import MAX_TOUCHES, Reason, Turn, TurnOutcome
from .announce import announce_results
from .standings import fold_tiebreak, next_deadline, next_turn


def step(match, event):
    """Referee one event: returns ``(new_match, effects)``.

    Raises :class:`InvalidChoice` or :class:`LootError` for a choice the rules forbid; the caller
    keeps its old match, which is unchanged.
    """
    t = event.t
    effects = []
    if t < match.t:
        t = match.t   # never let time run backwards inside the engine
    m = replace(match, t=t)
    # The turn's time limit fires before anything at or after it.
    deadline = next_deadline(m)
    if deadline is not None and deadline <= t:
        m = _end_by_time(m, deadline, effects)
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        kind = type(event)
        if kind in _COMMANDS and event.why is not None:   # checked and cleaned first
            event = replace(event, why=overrides.check_reason(event.why))
        if (kind in _COMMANDS or kind in _CLOSING) and m.why_open is not None:
            m = replace(m, why_open=None)
        m = handler(m, event, t, effects)
    return m, effects


def _end_by_time(m, deadline, effects):
    turn = m.current
    if turn.hand_inside:
        return finish(m, replace(turn, end_t=deadline), TurnOutcome.CAUGHT, Reason.TIME, effects)
    return finish(m, replace(turn, end_t=deadline), TurnOutcome.ESCAPED, None, effects)


def _on_tick(m, event, t, effects):
    return m


def _on_button(m, event, t, effects):
    turn = m.current
    if turn is None:
        return _start(m, event, t, effects)
    if turn.hand_inside:
        effects.append(ev.ExitIgnored(t))
        return m
    return finish(m, replace(turn, end_t=t), TurnOutcome.ESCAPED, None, effects)


def _start(m, event, t, effects):
    nxt = next_turn(m)
    if nxt is None:
        effects.append(ev.Refused(event.t, ev.Refusal.MATCH_OVER))
        return m
    if event.problems:
        effects.append(ev.Refused(t, ev.Refusal.NOT_READY, tuple(event.problems)))
        effects.append(ev.Buzz(t, ev.Pattern.REFUSED))
        return m
    tiebreak_turn = nxt.kind is ev.NextKind.TIEBREAK
    turn = Turn(round=nxt.round, thief=nxt.thief, guard=nxt.guard, start_t=t,
                tiebreak=tiebreak_turn, hand_inside=m.hand_inside)
    m = replace(m, current=turn, chosen_thief=None, why_open=None,
                tiebreak_guard=None if tiebreak_turn else m.tiebreak_guard)
    effects.append(ev.TurnStarted(t, nxt.thief, nxt.guard, nxt.kind, nxt.round,
                                  m.level.timer_s))
    effects.append(ev.Durable(t))
    return m


def _on_hand(m, event, t, effects):
    inside = isinstance(event, ev.HandIn)
    m = replace(m, hand_inside=inside)
    turn = m.current
    if turn is None:
        return m
    turn = replace(turn, hand_inside=inside)
    m = replace(m, current=turn)
    if turn.tiebreak and not inside:
        return _check_painting_out(m, t, effects)
    return m


def _check_painting_out(m, t, effects):
    turn = m.current
    if turn.paintings_off and not turn.hand_inside:
        turn = replace(turn, painting_out_t=t, end_t=t)
        return finish(m, turn, TurnOutcome.ESCAPED, None, effects)
    return m


def _on_touch(m, event, t, effects):
    turn = m.current
    if turn is None or event.laser not in m.level.rods:
        return m
    turn = replace(turn, touch_times=turn.touch_times + ((event.t, event.laser),))
    m = replace(m, current=turn)
    effects.append(ev.TouchCounted(t, event.laser, turn.touches, turn.tiebreak))
    effects.append(ev.Durable(t))
    if turn.touches >= MAX_TOUCHES:
        return finish(m, replace(turn, end_t=t), TurnOutcome.CAUGHT, Reason.LASERS, effects)
    return m


def _on_displaced(m, event, t, effects):
    if m.current is None or event.laser not in m.level.added_rods:
        return m
    effects.append(ev.RodDisplaced(t, event.laser))
    return finish(m, replace(m.current, end_t=t), TurnOutcome.CAUGHT, Reason.DISPLACED, effects)


def _on_guard(m, event, t, effects):
    if m.current is None:
        return m
    return finish(m, replace(m.current, end_t=t), TurnOutcome.CAUGHT, Reason.GUARD, effects)


def _on_painting(m, event, t, effects):
    turn = m.current
    if turn is None or event.painting not in PAINTINGS:
        return m
    if event.on_stand:
        turn = replace(turn, paintings_off=turn.paintings_off - {event.painting})
    else:
        turn = replace(turn, paintings_off=turn.paintings_off | {event.painting},
                       paintings_lifted=turn.paintings_lifted | {event.painting})
    m = replace(m, current=turn)
    if turn.tiebreak:
        return _check_painting_out(m, t, effects)
    return m


def _on_relic_moved(m, event, t, effects):
    turn = m.current
    r = event.relic
    if turn is None or r not in RELICS or r in turn.relics_taken or r in turn.broken:
        return m
    fouls = []
    if not turn.paintings_lifted:
        fouls.append((r, None))
    earlier = [x for x in RELICS if x < r and x not in turn.relics_taken and x not in turn.broken]
    if earlier:
        fouls.append((r, earlier[0]))
    effects.extend(ev.Foul(t, relic, before) for relic, before in fouls)
    turn = replace(turn, relics_taken=turn.relics_taken + (r,), fouls=turn.fouls + tuple(fouls))
    return replace(m, current=turn)


def _on_relic_pose(m, event, t, effects):
    turn = m.current
    if turn is None or event.relic not in RELICS:
        return m
    ok = list(turn.relic_ok)
    ok[event.relic - 1] = bool(event.upright and event.still)
    return replace(m, current=replace(turn, relic_ok=tuple(ok)))


def _on_relic_broken(m, event, t, effects):
    turn = m.current
    if turn is None or event.relic not in RELICS or event.relic in turn.broken:
        return m
    effects.append(ev.RelicLost(t, event.relic, event.cause))
    effects.append(ev.Durable(t))
    return replace(m, current=replace(turn, broken=turn.broken + (event.relic,)))


def finish(m, turn, how, reason, effects):
    """End the running ``turn`` as ``how`` (for ``reason`` when caught) and announce what it
    decided."""
    t = turn.end_t
    turn = replace(turn, outcome=how, reason=reason, hand_inside=m.hand_inside)
    if turn.tiebreak:
        m = replace(m, current=None, attempts=m.attempts + (turn,))
        m = replace(m, tiebreak_fold=fold_tiebreak(m))
    else:
        m = replace(m, current=None, turns=m.turns + (turn,))
    effects.append(ev.TurnEnded(t, turn))
    caught = how is TurnOutcome.CAUGHT
    effects.append(ev.Buzz(t, ev.Pattern.CAUGHT if caught else ev.Pattern.ESCAPED))
    effects.append(ev.Durable(t))
    announce_results(m, t, effects, turn)
    return m


def void_current(match, t):
    """Declare the running turn void (the rig restarted in the middle of it): the thief plays
    it again.  Returns the new match."""
    if match.current is None:
        return match
    turn = replace(match.current, end_t=t, outcome=TurnOutcome.VOID)
    if turn.tiebreak:
        return replace(match, current=None, chosen_thief=turn.thief)
    return replace(match, current=None, turns=match.turns + (turn,), chosen_thief=turn.thief)


def unfinished(match, t):
    """The match as it stands at the end of a recording: a running turn becomes unfinished."""
    if match.current is None:
        return match
    turn = replace(match.current, end_t=t, outcome=TurnOutcome.UNFINISHED)
    if turn.tiebreak:
        return replace(match, current=None, attempts=match.attempts + (turn,))
    return replace(match, current=None, turns=match.turns + (turn,))


_HANDLERS = {
    ev.Tick: _on_tick,
    ev.End: _on_tick,
    ev.ButtonPress: _on_button,
    ev.HandIn: _on_hand,
    ev.HandOut: _on_hand,
    ev.LaserTouch: _on_touch,
    ev.Displaced: _on_displaced,
    ev.GuardTouch: _on_guard,
    ev.PaintingMoved: _on_painting,
    ev.RelicMoved: _on_relic_moved,
    ev.RelicPose: _on_relic_pose,
    ev.RelicBroken: _on_relic_broken,
    ev.Choose: choices.on_choose,
    ev.ConfirmLoot: choices.on_loot,
    ev.UndoTouch: choices.on_undo,
    ev.NewMatch: choices.on_new_match,
    ev.Why: choices.on_why,
}
#: The commands that close the pick of a reason for the last override (a command that makes
#: an override opens it again), and may carry a reason (``why``) themselves.
_COMMANDS = (ev.ConfirmLoot, ev.UndoTouch)
_CLOSING = (ev.Choose, ev.NewMatch)
