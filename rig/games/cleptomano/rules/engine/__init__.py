"""The referee: Cleptomano's rules as a pure function of timestamped events.

``step(match, event) -> (match, effects)`` is the whole engine.  A :class:`Match` is an immutable
value; every decision is taken from the event's own timestamp, never from a clock, so a 60 s turn
is refereed in microseconds in a test.  Effects and calls (:mod:`rig.games.cleptomano.rules.events`)
tell the shell what to make happen and what happened; :mod:`rig.games.cleptomano.rules.calls` puts
the calls into words.  Invalid choices raise :class:`~rig.core.errors.InvalidChoice` /
:class:`~rig.core.errors.LootError` and leave the match as it was (the caller keeps the old value).

Everything that can be derived is derived: rounds, their winners, round wins, the tiebreak and the
outcome are computed from the list of turns, so a late correction of a haul (the guard's count)
flows into every result without bookkeeping.

The package, one room each: :mod:`.model` (the values), :mod:`.standings` (what is derived from
the turns, :func:`outcome` among it), :mod:`.step` (the physical events), :mod:`.choices` (the
guard's commands), :mod:`.announce` (what a finished turn decides).

Rulebook points the engine enforces (see ../shared/rulebook/cleptomano.md):
* a turn starts at a start press while the museum is ready; every laser touch costs a point, the
  third ends the turn caught, as do a displaced rod, a guard touch, or being inside at the end of
  the time; out of time while outside ends the turn normally; an exit press ends it while the hand
  is outside and is ignored while it is inside;
* relics broken while the hand is inside can never count; the haul confirmed by the guard is
  clamped to what the sensors allow; score = 2 per painting + 1 per relic - 1 per touch, never
  below 0, and 0 when caught;
* rounds: every player steals once, the round's winners are all who share the highest score; two
  round wins end the match; several at once play a tiebreak (fastest painting out, +1 s a touch);
* a solo heist is one attempt and earns the criminal title.
"""

from .model import (MAX_NAME_CHARS, MAX_PLAYERS, MAX_TOUCHES, NO_TIEBREAK, POINTS_PER_PAINTING, POINTS_PER_RELIC,
                    ROUND_WINS_TO_WIN, Match, NextTurn, Outcome, Reason, RoundResult,
                    Termination, Tiebreak, Turn, TurnOutcome, check_new_match, check_players,
                    new_match)
from .standings import (awaiting_loot, current_round, default_guard, is_over, last_open_turn,
                        next_deadline, next_turn, open_haul, outcome, played_turns,
                        round_wins, rounds, tiebreak, tiebreak_contenders, title, winner)
from .step import step, unfinished, void_current

__all__ = [
    "MAX_NAME_CHARS", "MAX_PLAYERS", "MAX_TOUCHES", "NO_TIEBREAK", "POINTS_PER_PAINTING", "POINTS_PER_RELIC", "ROUND_WINS_TO_WIN",
    "Match", "NextTurn", "Outcome", "Reason", "RoundResult", "Termination", "Tiebreak", "Turn",
    "TurnOutcome", "check_new_match", "check_players", "new_match", "awaiting_loot", "current_round", "default_guard", "is_over",
    "last_open_turn", "next_deadline", "next_turn", "open_haul", "outcome", "played_turns", "round_wins",
    "rounds", "tiebreak", "tiebreak_contenders", "title", "winner", "step", "unfinished",
    "void_current",
]
