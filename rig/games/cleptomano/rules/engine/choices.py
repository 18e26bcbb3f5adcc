"""The guard's commands: who steals next, who guards, the haul's count, undoing a touch, and
setting up the next match.

Each handler returns the new match or raises :class:`~rig.core.errors.InvalidChoice` /
:class:`~rig.core.errors.LootError` naming why; a refused command changes nothing.
"""

from dataclasses import replace

from .. import events as ev
from rig.core.errors import InvalidChoice, LootError
from ..museum import PAINTINGS, RELICS
from .announce import announce_results
from ..calls import reason_words
from .model import Reason, TurnOutcome, check_new_match, check_player
from .standings import (last_open_turn, next_turn, open_haul, played_in_round, round_guard,
                        tiebreak)

def on_choose(m, event, t, effects):
    check_player(m.players, event.player)
    if event.role == ev.Role.THIEF:
        return _choose_thief(m, event.player)
    if event.role == ev.Role.GUARD:
        return _choose_guard(m, event.player)
    raise InvalidChoice("role %r cannot be chosen; choose \"thief\" or \"guard\"" % (event.role,))


def _choose_thief(m, player):
    if m.current is not None:
        raise InvalidChoice("%s cannot be named next thief while %s's turn runs; name the next "
                            "thief when it ends" % (player, m.current.thief))
    nxt = next_turn(m)
    if nxt is None:
        raise InvalidChoice("the match is over; no next thief can be named")
    if nxt.kind is ev.NextKind.SOLO:
        return m
    if nxt.kind is ev.NextKind.TIEBREAK:
        state = tiebreak(m)
        if player not in state.still_in:
            raise InvalidChoice("%s is not in the tiebreak; choose one of %s"
                                % (player, ", ".join(state.still_in)))
        if player in state.attempted:
            raise InvalidChoice("%s already made this tiebreak attempt; choose one of %s"
                                % (player, ", ".join(state.waiting)))
        return replace(m, chosen_thief=player)
    played = played_in_round(m, nxt.round)
    if player in played:
        waiting = [p for p in m.players if p not in played]
        raise InvalidChoice("%s already played round %d; choose one of %s"
                            % (player, nxt.round, ", ".join(waiting)))
    return replace(m, chosen_thief=player)


def _choose_guard(m, player):
    if m.solo:
        raise InvalidChoice("a solo heist has no guard; play on without one")
    if m.current is not None:
        raise InvalidChoice("the guard cannot change while %s's turn runs" % m.current.thief)
    nxt = next_turn(m)
    if nxt is None:
        raise InvalidChoice("the match is over; no guard can be named")
    if nxt.kind is ev.NextKind.TIEBREAK:
        if player == nxt.thief:
            raise InvalidChoice("%s steals next and cannot guard their own tiebreak attempt; "
                                "choose another player" % player)
        return replace(m, tiebreak_guard=player)
    number = nxt.round
    if played_in_round(m, number) or round_guard(m, number) is not None:
        raise InvalidChoice("%s already guards round %d; the guard is named before the round's "
                            "first turn" % (round_guard(m, number), number))
    previous = round_guard(m, number - 1)
    if player == previous:
        raise InvalidChoice("%s guarded round %d and may not guard two rounds in a row; choose "
                            "another player" % (player, number - 1))
    others = [p for p in m.players if p not in (nxt.thief, previous)]
    if player == nxt.thief and others:
        raise InvalidChoice("%s steals first this round and names another player as guard; "
                            "choose one of %s" % (player, ", ".join(others)))
    return replace(m, chosen_guard=(number, player))


def on_loot(m, event, t, effects):
    turn = open_haul(m)
    if turn is None:
        raise LootError("no uncaught turn awaits the guard's count; confirm the haul after a "
                        "turn ends uncaught and before the next one starts")
    for what, value, top in (("paintings", event.paintings, len(PAINTINGS)),
                             ("relics", event.relics, len(RELICS))):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise LootError("%s %r is not a count of %s; give a whole number from 0 to %d"
                            % (what, value, what, top))
    fixed = replace(turn, confirmed=(event.paintings, event.relics))
    m = replace(m, turns=m.turns[:-1] + (fixed,))
    effects.append(ev.HaulConfirmed(t, fixed, event.by))
    effects.append(ev.Durable(t))
    announce_results(m, t, effects, fixed)
    return m


def on_undo(m, event, t, effects):
    turn = m.current
    if turn is not None:
        if not turn.touch_times:
            raise InvalidChoice("%s has no laser touch to undo in this turn" % turn.thief)
        turn = replace(turn, touch_times=turn.touch_times[:-1])
        effects.append(ev.TouchUndone(t, turn, event.by, ev.Undo.RUNNING))
        effects.append(ev.Durable(t))
        return replace(m, current=turn)
    last = last_open_turn(m)
    if last is None or not last.touch_times:
        raise InvalidChoice("there is no laser touch to undo; undo works during a turn or on "
                            "the last turn before the next one starts")
    if last.caught and last.reason is Reason.LASERS:
        void = replace(last, outcome=TurnOutcome.VOID, touch_times=last.touch_times[:-1])
        effects.append(ev.TouchUndone(t, void, event.by, ev.Undo.VOIDED))
        effects.append(ev.Durable(t))
        return replace(m, turns=m.turns[:-1] + (void,), chosen_thief=last.thief)
    if last.caught:
        raise InvalidChoice("%s was caught because they %s, not by a touch; nothing to undo"
                            % (last.thief, reason_words(last.reason)))
    fixed = replace(last, touch_times=last.touch_times[:-1])
    effects.append(ev.TouchUndone(t, fixed, event.by, ev.Undo.CORRECTED))
    effects.append(ev.Durable(t))
    m = replace(m, turns=m.turns[:-1] + (fixed,))
    announce_results(m, t, effects, fixed)
    return m


def on_new_match(m, event, t, effects):
    """The set-up screen (or the phone) asks for a new match: allowed between turns, whatever
    the match's state; it closes this match, so a running turn would lose its thief's play."""
    if m.current is not None:
        raise InvalidChoice("a new match cannot be set up while %s's turn runs; set it up when "
                            "the turn has ended" % m.current.thief)
    players, level, first = check_new_match(event)
    effects.append(ev.MatchSetUp(t, event, players, level, first))
    effects.append(ev.Durable(t))
    return m
