"""The guard's commands: who steals next, who guards, the haul's count, undoing a touch, and
setting up the next match.

Each handler returns the new match or raises :class:`~rig.core.errors.InvalidChoice` /
:class:`~rig.core.errors.LootError` naming why; a refused command changes nothing.
"""

from dataclasses import replace

from .. import events as ev
from rig.core.errors import InvalidChoice, LootError
from rig.table.names import PAINTINGS, RELICS
from .announce import announce_changes
from rig.core.msg import Msg, N_
from .model import Reason, TurnOutcome, check_new_match, check_player
from .. import overrides as ov
from .standings import (fold_tiebreak, last_open_attempt, last_open_turn, next_turn, open_haul,
                        played_in_round, round_guard, tiebreak)

def on_choose(m, event, t, effects):
    check_player(m.players, event.player)
    if event.role == ev.Role.THIEF:
        return _choose_thief(m, event.player)
    if event.role == ev.Role.GUARD:
        return _choose_guard(m, event.player)
    raise InvalidChoice(Msg("cleptomano.refuse.role", role=str(event.role)))


def _choose_thief(m, player):
    if m.current is not None:
        raise InvalidChoice(Msg("cleptomano.refuse.thief_while_turn", player=player,
                                thief=m.current.thief))
    nxt = next_turn(m)
    if nxt is None:
        raise InvalidChoice(Msg("cleptomano.refuse.over_no_thief"))
    if nxt.kind is ev.NextKind.SOLO:
        return m
    if nxt.kind is ev.NextKind.TIEBREAK:
        state = tiebreak(m)
        if player not in state.still_in:
            raise InvalidChoice(Msg("cleptomano.refuse.not_in_tiebreak", player=player,
                                    choices=tuple(state.still_in)))
        if player in state.attempted:
            raise InvalidChoice(Msg("cleptomano.refuse.tiebreak_done", player=player,
                                    choices=tuple(state.waiting)))
        return replace(m, chosen_thief=player)
    played = played_in_round(m, nxt.round)
    if player in played:
        waiting = [p for p in m.players if p not in played]
        raise InvalidChoice(Msg("cleptomano.refuse.already_played", player=player,
                                round=nxt.round, choices=tuple(waiting)))
    return replace(m, chosen_thief=player)


def _choose_guard(m, player):
    if m.solo:
        raise InvalidChoice(Msg("cleptomano.refuse.solo_no_guard"))
    if m.current is not None:
        raise InvalidChoice(Msg("cleptomano.refuse.guard_while_turn", thief=m.current.thief))
    nxt = next_turn(m)
    if nxt is None:
        raise InvalidChoice(Msg("cleptomano.refuse.over_no_guard"))
    if nxt.kind is ev.NextKind.TIEBREAK:
        if player == nxt.thief:
            raise InvalidChoice(Msg("cleptomano.refuse.guard_own_tiebreak", player=player))
        return replace(m, tiebreak_guard=player)
    number = nxt.round
    if played_in_round(m, number) or round_guard(m, number) is not None:
        raise InvalidChoice(Msg("cleptomano.refuse.guard_named",
                                guard=str(round_guard(m, number)), round=number))
    previous = round_guard(m, number - 1)
    if player == previous:
        raise InvalidChoice(Msg("cleptomano.refuse.guard_twice", player=player,
                                round=number - 1))
    others = [p for p in m.players if p not in (nxt.thief, previous)]
    if player == nxt.thief and others:
        raise InvalidChoice(Msg("cleptomano.refuse.guard_first_thief", player=player,
                                choices=tuple(others)))
    return replace(m, chosen_guard=(number, player))


def on_loot(m, event, t, effects):
    turn = open_haul(m)
    if turn is None:
        raise LootError(Msg("cleptomano.refuse.no_haul"))
    for code, value, top in ((N_("cleptomano.refuse.paintings_count"), event.paintings,
                              len(PAINTINGS)),
                             (N_("cleptomano.refuse.relics_count"), event.relics, len(RELICS))):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise LootError(Msg(code, value=repr(value)[:40], most=top))
    fixed = replace(turn, confirmed=(event.paintings, event.relics))
    before, m = m, replace(m, turns=m.turns[:-1] + (fixed,))
    m = _haul_overrides(m, turn, fixed, event, t)
    effects.append(ev.HaulConfirmed(t, fixed, event.by))
    effects.append(ev.Durable(t))
    announce_changes(before, m, t, effects, fixed)
    return m


def _override(m, kind, turn, event, t, detail, by=None, why=None):
    """``m`` with one more override: by who ``event`` says (or ``by``), for the reason it
    gives (or ``why``); open for a reason given after it when it gave none."""
    made = ov.Override(t, kind, turn.thief, turn.round, turn.guard,
                       by if by is not None else ov.who(event.by),
                       why if why is not None else event.why or ov.UNSPECIFIED, detail)
    opened = len(m.overrides) if why is None and event.why is None else m.why_open
    return replace(m, overrides=m.overrides + (made,), why_open=opened)


def _haul_overrides(m, turn, fixed, event, t):
    """The guard's count against the haul as it stood: a ``haul`` override when it differs,
    and a ``clamp`` when the rules cut it to what the sensors allow."""
    stood, given = (turn.paintings, turn.relics), (event.paintings, event.relics)
    counted = (fixed.paintings, fixed.relics)
    if given != stood:
        m = _override(m, ov.Kind.HAUL, fixed, event, t, (("from", stood), ("to", given)))
    if counted != given:
        m = _override(m, ov.Kind.CLAMP, fixed, event, t, (("from", given), ("to", counted)),
                      by=ov.RULES, why=ov.RULEBOOK)
    return m


_UNDO_KIND = {ev.Undo.RUNNING: ov.Kind.UNDO, ev.Undo.VOIDED: ov.Kind.VOID,
              ev.Undo.CORRECTED: ov.Kind.CORRECTION}


def _undone(m, turn, how, event, t, laser):
    return _override(m, _UNDO_KIND[how], turn, event, t, (("laser", laser),))


def on_why(m, event, t, effects):
    """The reason for the override just made, given after it: taken while that override is
    the last thing commanded (no other command, no turn started since)."""
    if m.why_open is None:
        raise InvalidChoice(Msg("cleptomano.refuse.no_override"))
    why = ov.check_reason(event.why)
    i = m.why_open
    given = replace(m.overrides[i], why=why)
    effects.append(ev.ReasonGiven(t, given))
    effects.append(ev.Durable(t))
    return replace(m, overrides=m.overrides[:i] + (given,) + m.overrides[i + 1:],
                   why_open=None)


def on_undo(m, event, t, effects):
    turn = m.current
    if turn is not None:
        if not turn.touch_times:
            raise InvalidChoice(Msg("cleptomano.refuse.no_touch_in_turn", thief=turn.thief))
        laser = turn.touch_times[-1][1]
        turn = replace(turn, touch_times=turn.touch_times[:-1])
        effects.append(ev.TouchUndone(t, turn, event.by, ev.Undo.RUNNING))
        effects.append(ev.Durable(t))
        return _undone(replace(m, current=turn), turn, ev.Undo.RUNNING, event, t, laser)
    attempt = last_open_attempt(m)
    if attempt is not None:
        return _undo_in_attempt(m, attempt, event, t, effects)
    last = last_open_turn(m)
    if last is None or not last.touch_times:
        raise InvalidChoice(Msg("cleptomano.refuse.no_touch"))
    if last.caught and last.reason is Reason.LASERS:
        void = replace(last, outcome=TurnOutcome.VOID, touch_times=last.touch_times[:-1])
        effects.append(ev.TouchUndone(t, void, event.by, ev.Undo.VOIDED))
        effects.append(ev.Durable(t))
        m = replace(m, turns=m.turns[:-1] + (void,), chosen_thief=last.thief)
        return _undone(m, void, ev.Undo.VOIDED, event, t, last.touch_times[-1][1])
    if last.caught:
        raise InvalidChoice(Msg("cleptomano.refuse.caught_otherwise", thief=last.thief,
                                reason=Msg("cleptomano.reason." + last.reason.value)))
    fixed = replace(last, touch_times=last.touch_times[:-1])
    effects.append(ev.TouchUndone(t, fixed, event.by, ev.Undo.CORRECTED))
    effects.append(ev.Durable(t))
    before, m = m, replace(m, turns=m.turns[:-1] + (fixed,))
    announce_changes(before, m, t, effects, fixed)
    return _undone(m, fixed, ev.Undo.CORRECTED, event, t, last.touch_times[-1][1])


def _undo_in_attempt(m, last, event, t, effects):
    """The undo on a tiebreak attempt that just ended, as on any last turn before the next
    start: its last touch was no touch.  An attempt caught by that (third) touch is void: the
    thief makes it again (its guard still watching), as a regular turn is played again; an
    escaped attempt loses the touch's second, which may change who wins the tiebreak."""
    if not last.touch_times:
        raise InvalidChoice(Msg("cleptomano.refuse.no_touch"))
    if last.caught and last.reason is Reason.LASERS:
        void = replace(last, outcome=TurnOutcome.VOID, touch_times=last.touch_times[:-1])
        m = replace(m, attempts=m.attempts[:-1], tiebreak_fold=None, chosen_thief=last.thief,
                    tiebreak_guard=last.guard)
        m = replace(m, tiebreak_fold=fold_tiebreak(m))
        effects.append(ev.TouchUndone(t, void, event.by, ev.Undo.VOIDED))
        effects.append(ev.Durable(t))
        return _undone(m, void, ev.Undo.VOIDED, event, t, last.touch_times[-1][1])
    if last.caught:
        raise InvalidChoice(Msg("cleptomano.refuse.caught_otherwise", thief=last.thief,
                                reason=Msg("cleptomano.reason." + last.reason.value)))
    fixed = replace(last, touch_times=last.touch_times[:-1])
    before, m = m, replace(m, attempts=m.attempts[:-1] + (fixed,), tiebreak_fold=None)
    m = replace(m, tiebreak_fold=fold_tiebreak(m))
    effects.append(ev.TouchUndone(t, fixed, event.by, ev.Undo.CORRECTED))
    effects.append(ev.Durable(t))
    announce_changes(before, m, t, effects, fixed)
    return _undone(m, fixed, ev.Undo.CORRECTED, event, t, last.touch_times[-1][1])


def on_new_match(m, event, t, effects):
    """The set-up screen (or the phone) asks for a new match: allowed between turns, whatever
    the match's state; it closes this match, so a running turn would lose its thief's play."""
    if m.current is not None:
        raise InvalidChoice(Msg("cleptomano.refuse.set_up_while_turn", thief=m.current.thief))
    players, level, first = check_new_match(event)
    effects.append(ev.MatchSetUp(t, event, players, level, first))
    effects.append(ev.Durable(t))
    return m
