"""The referee: Cleptomano's rules as a pure function of timestamped events.

``step(match, event) -> (match, effects)`` is the whole engine.  A :class:`Match` is an immutable
value; every decision is taken from the event's own timestamp, never from a clock, so a 60 s turn
is refereed in microseconds in a test.  Effects (:mod:`rig.core.events`) tell the shell what to make
happen.  Invalid choices raise :class:`~rig.core.errors.InvalidChoice` / :class:`~rig.core.errors.LootError`
and leave the match as it was (the caller keeps the old value).

Everything that can be derived is derived: rounds, their winners, round wins, the tiebreak and the
winner are computed from the list of turns, so a late correction of a haul (the guard's count)
flows into every result without bookkeeping.

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

import enum
from dataclasses import dataclass, field, replace
from typing import Optional, Tuple

from . import events as ev
from .errors import InvalidChoice, LootError
from .levels import Level
from .titles import criminal_title

MAX_TOUCHES = 3
ROUND_WINS_TO_WIN = 2
PAINTINGS = (1, 2)
RELICS = (1, 2, 3)


class Outcome(enum.Enum):
    ESCAPED = "escaped"
    CAUGHT = "caught"
    UNFINISHED = "unfinished"
    VOID = "void"        # voided by the guard or by a restart: the thief plays it again


class Reason(enum.Enum):
    LASERS = "lasers"
    DISPLACED = "displaced"
    GUARD = "guard"
    TIME = "time"


REASON_WORDS = {
    Reason.LASERS: "touched the lasers 3 times",
    Reason.DISPLACED: "displaced a laser",
    Reason.GUARD: "touched the guard",
    Reason.TIME: "was still inside when the time ran out",
}


@dataclass(frozen=True)
class Turn:
    """One theft attempt, running or over.  ``round`` is 0 for tiebreak attempts."""
    round: int
    thief: str
    guard: Optional[str]
    start_t: float
    tiebreak: bool = False
    end_t: Optional[float] = None
    outcome: Optional[Outcome] = None     # None while running
    reason: Optional[Reason] = None
    touch_times: Tuple[Tuple[float, int], ...] = ()
    hand_inside: bool = False
    paintings_off: frozenset = frozenset()        # off their stands now
    paintings_lifted: frozenset = frozenset()     # ever off their stands during the turn
    relics_taken: Tuple[int, ...] = ()            # in the order they started moving
    broken: Tuple[int, ...] = ()
    relic_ok: Tuple[bool, ...] = (True, True, True)   # upright and still, relics 1-3
    fouls: Tuple[str, ...] = ()
    confirmed: Optional[Tuple[int, int]] = None    # the guard's count (paintings, relics)
    painting_out_t: Optional[float] = None         # tiebreak: a painting out, hand outside

    @property
    def running(self):
        return self.outcome is None

    @property
    def touches(self):
        return len(self.touch_times)

    @property
    def caught(self):
        return self.outcome is Outcome.CAUGHT

    # --- the haul ---------------------------------------------------------------------------
    @property
    def sensed_paintings(self):
        """Paintings off their stands (at the end of the turn, once it is over)."""
        return len(self.paintings_off)

    @property
    def sensed_relics(self):
        """Relics that moved, are upright and still, and did not break."""
        return sum(1 for r in self.relics_taken
                   if r not in self.broken and self.relic_ok[r - 1])

    @property
    def paintings(self):
        if self.caught:
            return 0
        if self.confirmed is not None:
            return min(self.confirmed[0], self.sensed_paintings)
        return self.sensed_paintings

    @property
    def relics(self):
        if self.caught:
            return 0
        if self.confirmed is not None:
            return min(self.confirmed[1], len(RELICS) - len(self.broken))
        return self.sensed_relics

    @property
    def score(self):
        """The score as it stands: None for unfinished or void turns."""
        if self.outcome in (Outcome.UNFINISHED, Outcome.VOID):
            return None
        if self.caught:
            return 0
        return max(0, 2 * self.paintings + self.relics - self.touches)

    @property
    def running_score(self):
        """What the thief would score by walking out now (for the display)."""
        if self.caught:
            return 0
        paintings = len(self.paintings_off)
        relics = sum(1 for r in self.relics_taken if r not in self.broken)
        return max(0, 2 * paintings + relics - self.touches)

    @property
    def duration_s(self):
        if self.end_t is None:
            return None
        return round(self.end_t - self.start_t, 6)

    # --- the tiebreak ----------------------------------------------------------------------
    @property
    def time_s(self):
        """Tiebreak: seconds from the start press to a painting out of the museum, or None."""
        if self.caught or self.painting_out_t is None:
            return None
        return round(self.painting_out_t - self.start_t, 6)

    @property
    def adjusted_s(self):
        if self.time_s is None:
            return None
        return round(self.time_s + self.touches, 6)


@dataclass(frozen=True)
class RoundResult:
    number: int
    scores: Tuple[Tuple[str, int], ...]     # in player order
    winners: Tuple[str, ...]
    guard: Optional[str]


@dataclass(frozen=True)
class NextTurn:
    """Who plays next: ``kind`` is "round", "tiebreak" or "solo"."""
    kind: str
    round: int
    thief: str
    guard: Optional[str]
    series: int = 0


@dataclass(frozen=True)
class Match:
    players: Tuple[str, ...]
    level: Level
    first_thief: str
    turns: Tuple[Turn, ...] = ()             # regular (and solo) turns, ended, void included
    attempts: Tuple[Turn, ...] = ()          # tiebreak attempts, ended
    current: Optional[Turn] = None           # the running turn
    chosen_thief: Optional[str] = None
    chosen_guard: Optional[Tuple[int, str]] = None   # (round, player) for the next round start
    tiebreak_guard: Optional[str] = None
    hand_inside: bool = False
    t: float = 0.0

    @property
    def solo(self):
        return len(self.players) == 1


def new_match(players, level, first_thief=None):
    """A match about to begin.  ``players`` in list order; one player means a solo heist."""
    players = tuple(players)
    if not players:
        raise InvalidChoice("a match needs at least one player; give one name for a solo heist")
    if len(set(players)) != len(players):
        raise InvalidChoice("player names %r repeat; give each player a different name"
                            % (list(players),))
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InvalidChoice("player name %r is empty; give every player a name" % (name,))
    if first_thief is None:
        first_thief = players[0]
    _check_player(players, first_thief)
    return Match(players=players, level=level, first_thief=first_thief)


# --- derived results ------------------------------------------------------------------------------

def played_turns(match):
    """Regular turns that count (ended, not void)."""
    return [x for x in match.turns
            if x.outcome not in (None, Outcome.VOID, Outcome.UNFINISHED)]


def rounds(match):
    """Completed rounds, in order, with their scores and winners."""
    if match.solo:
        return []
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


def tiebreak_series(match):
    """Replays the tiebreak: returns (series number, contenders still in, attempted in this
    series, winner or None)."""
    contenders = tiebreak_contenders(match)
    if not contenders:
        return 0, (), (), None
    series, done = 1, []
    for attempt in match.attempts:
        if attempt.outcome in (Outcome.UNFINISHED, Outcome.VOID):
            continue   # an attempt still running when the recording ended decides nothing
        done.append(attempt)
        if len(done) == len(contenders):
            successes = [a for a in done if a.adjusted_s is not None]
            if successes:
                best = min(a.adjusted_s for a in successes)
                tied = tuple(p for p in contenders
                             if any(a.thief == p and a.adjusted_s == best for a in done))
                if len(tied) == 1:
                    return series, tied, tuple(a.thief for a in done), tied[0]
                contenders = tied
            series, done = series + 1, []
    return series, contenders, tuple(a.thief for a in done), None


def winner(match):
    """The match winner, or None while it is undecided (and always None for a solo heist)."""
    if match.solo:
        return None
    wins = round_wins(match)
    leaders = [p for p in match.players if wins[p] >= ROUND_WINS_TO_WIN]
    if len(leaders) == 1:
        return leaders[0]
    if len(leaders) > 1:
        return tiebreak_series(match)[3]
    return None


def is_over(match):
    if match.solo:
        return bool(played_turns(match))
    return winner(match) is not None


def title(match):
    """The solo heist's criminal title, once its attempt is over (None for 0 points)."""
    if not match.solo or not played_turns(match):
        return None
    turn = played_turns(match)[-1]
    if not turn.score:
        return None
    return criminal_title(match.level.timer_s, match.level.lasers, turn.score,
                          match.level.corridor)


def current_round(match):
    """The round being played, or about to be (after a complete round, the next one)."""
    counted = played_turns(match)
    if not counted:
        return 1
    last = counted[-1].round
    done = {x.thief for x in counted if x.round == last}
    return last + 1 if len(done) == len(match.players) else last


def _played_in_round(match, number):
    return {x.thief for x in played_turns(match) if x.round == number}


def _round_guard(match, number):
    for x in match.turns:
        if x.round == number and x.outcome is not Outcome.VOID:
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
        return NextTurn("solo", 1, match.players[0], None)
    if winner(match) is not None:
        return None
    contenders = tiebreak_contenders(match)
    if contenders:
        series, still_in, attempted, _ = tiebreak_series(match)
        waiting = [p for p in still_in if p not in attempted]
        thief = match.chosen_thief if match.chosen_thief in waiting else waiting[0]
        guard = match.tiebreak_guard if match.tiebreak_guard not in (None, thief) else \
            default_guard(match.players, thief, thief)
        return NextTurn("tiebreak", 0, thief, guard, series)
    number = current_round(match)
    played = _played_in_round(match, number)
    if match.chosen_thief is not None and match.chosen_thief not in played:
        thief = match.chosen_thief
    elif number == 1 and not played:
        thief = match.first_thief
    else:
        thief = next(p for p in match.players if p not in played)
    guard = _round_guard(match, number)
    if guard is None:
        if match.chosen_guard is not None and match.chosen_guard[0] == number:
            guard = match.chosen_guard[1]
        else:
            guard = default_guard(match.players, thief, _round_guard(match, number - 1))
    return NextTurn("round", number, thief, guard)


def last_open_turn(match):
    """The last regular turn if no turn has started since it ended (the guard may still
    correct it), else None."""
    if match.current is not None or not match.turns:
        return None
    last = match.turns[-1]
    if match.attempts and match.attempts[-1].start_t > last.start_t:
        return None
    return last


def awaiting_loot(match):
    """The last ended turn if it ended uncaught and no turn has started since (its haul can
    still be confirmed or adjusted by the guard), else None."""
    last = last_open_turn(match)
    return last if last is not None and last.outcome is Outcome.ESCAPED else None


def next_deadline(match):
    """When the engine next needs a :class:`~rig.core.events.Tick` (the end of the turn's time)."""
    turn = match.current
    if turn is None or match.level.timer_s is None:
        return None
    return round(turn.start_t + match.level.timer_s, 6)


# --- the step function ----------------------------------------------------------------------------

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
        m = handler(m, event, t, effects)
    return m, effects


def _end_by_time(m, deadline, effects):
    turn = m.current
    if turn.hand_inside:
        return _finish(m, replace(turn, end_t=deadline), Outcome.CAUGHT, Reason.TIME, effects)
    return _finish(m, replace(turn, end_t=deadline), Outcome.ESCAPED, None, effects)


def _on_tick(m, event, t, effects):
    return m


def _on_button(m, event, t, effects):
    turn = m.current
    if turn is None:
        return _start(m, event, t, effects)
    if turn.hand_inside:
        effects.append(ev.Say(t, "Exit ignored: the hand is still inside the museum.", "warning"))
        return m
    return _finish(m, replace(turn, end_t=t), Outcome.ESCAPED, None, effects)


def _start(m, event, t, effects):
    nxt = next_turn(m)
    if nxt is None:
        effects.append(ev.Refused(event.t, "The match is over; press start again for a new "
                                  "match.", "match-over"))
        return m
    if event.problems:
        reason = "The museum is not ready: " + "; ".join(event.problems) + "."
        effects.append(ev.Refused(t, reason))
        effects.append(ev.Buzz(t, "refused"))
        return m
    turn = Turn(round=nxt.round, thief=nxt.thief, guard=nxt.guard, start_t=t,
                tiebreak=nxt.kind == "tiebreak", hand_inside=m.hand_inside)
    m = replace(m, current=turn, chosen_thief=None,
                tiebreak_guard=None if nxt.kind == "tiebreak" else m.tiebreak_guard)
    if nxt.kind == "tiebreak":
        what = "Tiebreak attempt"
    elif nxt.kind == "solo":
        what = "Solo heist"
    else:
        what = "Round %d" % nxt.round
    guard = (", guarded by %s" % nxt.guard) if nxt.guard else ""
    limit = ("%g s" % m.level.timer_s) if m.level.timer_s is not None else "no time limit"
    effects.append(ev.TurnStarted(t, nxt.thief, nxt.guard, nxt.kind == "tiebreak"))
    effects.append(ev.Say(t, "%s: %s steals%s (%s)." % (what, nxt.thief, guard, limit)))
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
        return _finish(m, turn, Outcome.ESCAPED, None, effects)
    return m


def _on_touch(m, event, t, effects):
    turn = m.current
    if turn is None or event.laser not in m.level.rods:
        return m
    turn = replace(turn, touch_times=turn.touch_times + ((event.t, event.laser),))
    m = replace(m, current=turn)
    cost = "+1 s" if turn.tiebreak else "-1 point"
    effects.append(ev.Say(t, "Laser %d touched (%d of %d, %s)."
                          % (event.laser, turn.touches, MAX_TOUCHES, cost), "warning"))
    effects.append(ev.Durable(t))
    if turn.touches >= MAX_TOUCHES:
        return _finish(m, replace(turn, end_t=t), Outcome.CAUGHT, Reason.LASERS, effects)
    return m


def _on_displaced(m, event, t, effects):
    if m.current is None or event.laser not in m.level.added_rods:
        return m
    effects.append(ev.Say(t, "Laser %d displaced." % event.laser, "warning"))
    return _finish(m, replace(m.current, end_t=t), Outcome.CAUGHT, Reason.DISPLACED, effects)


def _on_guard(m, event, t, effects):
    if m.current is None:
        return m
    return _finish(m, replace(m.current, end_t=t), Outcome.CAUGHT, Reason.GUARD, effects)


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
    fouls = list(turn.fouls)
    if not turn.paintings_lifted:
        fouls.append("relic %d taken before any painting" % r)
    earlier = [x for x in RELICS if x < r and x not in turn.relics_taken and x not in turn.broken]
    if earlier:
        fouls.append("relic %d taken before relic %d" % (r, earlier[0]))
    for foul in fouls[len(turn.fouls):]:
        effects.append(ev.Say(t, "Foul noted (not punished): %s." % foul, "warning"))
    turn = replace(turn, relics_taken=turn.relics_taken + (r,), fouls=tuple(fouls))
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
    how = "fell" if event.cause == "fall" else "was knocked over"
    effects.append(ev.Say(t, "Relic %d %s: broken, it can no longer be stolen." % (event.relic, how),
                          "warning"))
    effects.append(ev.Durable(t))
    return replace(m, current=replace(turn, broken=turn.broken + (event.relic,)))


def _finish(m, turn, outcome, reason, effects):
    t = turn.end_t
    turn = replace(turn, outcome=outcome, reason=reason, hand_inside=m.hand_inside)
    if turn.tiebreak:
        m = replace(m, current=None, attempts=m.attempts + (turn,))
    else:
        m = replace(m, current=None, turns=m.turns + (turn,))
    effects.append(ev.TurnEnded(t, turn))
    if outcome is Outcome.CAUGHT:
        words = REASON_WORDS[reason]
        effects.append(ev.Buzz(t, "caught"))
        effects.append(ev.Say(t, "Caught! %s %s." % (turn.thief, words), "warning"))
        effects.append(ev.Banner(t, "caught", "CAUGHT!", ("%s %s." % (turn.thief, words),)))
    elif turn.tiebreak:
        if turn.time_s is None:
            line = "%s got no painting out." % turn.thief
        else:
            line = "%s: %.2f s + %d touch%s = %.2f s" % (
                turn.thief, turn.time_s, turn.touches, "" if turn.touches == 1 else "es",
                turn.adjusted_s)
        effects.append(ev.Buzz(t, "escaped"))
        effects.append(ev.Say(t, "Tiebreak attempt over: " + line))
        effects.append(ev.Banner(t, "tiebreak", "TIEBREAK", (line,)))
    else:
        effects.append(ev.Buzz(t, "escaped"))
        effects.append(ev.Say(t, "Escaped! %s: %s" % (turn.thief, _haul_words(turn))))
        effects.append(ev.Banner(t, "escaped", "ESCAPED!", (_haul_words(turn),)))
    effects.append(ev.Durable(t))
    _announce_results(m, t, effects, turn)
    return m


def _haul_words(turn):
    return "%d painting%s, %d relic%s, %d touch%s: %d point%s" % (
        turn.paintings, "" if turn.paintings == 1 else "s",
        turn.relics, "" if turn.relics == 1 else "s",
        turn.touches, "" if turn.touches == 1 else "es",
        turn.score, "" if turn.score == 1 else "s")


def _announce_results(m, t, effects, turn):
    """After a turn: the round's winners, the tiebreak, the match's winner, the solo title."""
    if m.solo:
        name = title(m)
        effects.append(ev.Banner(t, "title", name or "No title",
                                 (name,) if name else ("0 points: no criminal title.",)))
        effects.append(ev.MatchOver(t, None, name))
        return
    if not turn.tiebreak:
        done = rounds(m)
        if done and done[-1].number == turn.round:
            names = " and ".join(done[-1].winners)
            effects.append(ev.Say(t, "Round %d won by %s." % (turn.round, names)))
            effects.append(ev.Banner(t, "round", "ROUND %d" % turn.round,
                                     ("Won by %s." % names,)))
    champion = winner(m)
    if champion is not None:
        effects.append(ev.Say(t, "%s wins the match!" % champion))
        effects.append(ev.Banner(t, "match", "%s WINS!" % champion.upper(),
                                 ("Round wins: %s" % _wins_words(m),)))
        effects.append(ev.MatchOver(t, champion, None))
        return
    series, still_in, attempted, _ = tiebreak_series(m)
    if still_in and not attempted:
        names = " and ".join(still_in)
        what = "Tiebreak" if series == 1 else "Tiebreak, series %d," % series
        effects.append(ev.Say(t, "%s between %s: fastest painting out wins." % (what, names)))
        effects.append(ev.Banner(t, "tiebreak", "TIEBREAK", (names,)))


def _wins_words(m):
    wins = round_wins(m)
    return ", ".join("%s %d" % (p, wins[p]) for p in m.players)


# --- choices at the rig's controls ----------------------------------------------------------------

def _check_player(players, name):
    if name not in players:
        raise InvalidChoice("%r is not a player in this match; choose one of %s"
                            % (name, ", ".join(players)))


def _on_choose(m, event, t, effects):
    _check_player(m.players, event.player)
    if event.role == "thief":
        return _choose_thief(m, event.player)
    if event.role == "guard":
        return _choose_guard(m, event.player)
    raise InvalidChoice("role %r cannot be chosen; choose \"thief\" or \"guard\"" % (event.role,))


def _choose_thief(m, player):
    if m.current is not None:
        raise InvalidChoice("%s cannot be named next thief while %s's turn runs; name the next "
                            "thief when it ends" % (player, m.current.thief))
    nxt = next_turn(m)
    if nxt is None:
        raise InvalidChoice("the match is over; no next thief can be named")
    if nxt.kind == "solo":
        return m
    if nxt.kind == "tiebreak":
        _, still_in, attempted, _ = tiebreak_series(m)
        if player not in still_in:
            raise InvalidChoice("%s is not in the tiebreak; choose one of %s"
                                % (player, ", ".join(still_in)))
        if player in attempted:
            raise InvalidChoice("%s already made this tiebreak attempt; choose one of %s"
                                % (player, ", ".join(p for p in still_in if p not in attempted)))
        return replace(m, chosen_thief=player)
    played = _played_in_round(m, nxt.round)
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
    if nxt.kind == "tiebreak":
        if player == nxt.thief:
            raise InvalidChoice("%s steals next and cannot guard their own tiebreak attempt; "
                                "choose another player" % player)
        return replace(m, tiebreak_guard=player)
    number = nxt.round
    if _played_in_round(m, number) or _round_guard(m, number) is not None:
        raise InvalidChoice("%s already guards round %d; the guard is named before the round's "
                            "first turn" % (_round_guard(m, number), number))
    previous = _round_guard(m, number - 1)
    if player == previous:
        raise InvalidChoice("%s guarded round %d and may not guard two rounds in a row; choose "
                            "another player" % (player, number - 1))
    others = [p for p in m.players if p not in (nxt.thief, previous)]
    if player == nxt.thief and others:
        raise InvalidChoice("%s steals first this round and names another player as guard; "
                            "choose one of %s" % (player, ", ".join(others)))
    return replace(m, chosen_guard=(number, player))


def _on_loot(m, event, t, effects):
    turn = awaiting_loot(m)
    if turn is None:
        raise LootError("no uncaught turn awaits the guard's count; confirm the haul after a "
                        "turn ends uncaught and before the next one starts")
    for what, value, top in (("paintings", event.paintings, 2), ("relics", event.relics, 3)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
            raise LootError("%s %r is not a count of %s; give a whole number from 0 to %d"
                            % (what, value, what, top))
    fixed = replace(turn, confirmed=(event.paintings, event.relics))
    m = replace(m, turns=m.turns[:-1] + (fixed,))
    by = (" by %s" % event.by) if event.by else ""
    effects.append(ev.Say(t, "Haul confirmed%s: %s" % (by, _haul_words(fixed))))
    effects.append(ev.Banner(t, "escaped", "ESCAPED!", (_haul_words(fixed),)))
    effects.append(ev.Durable(t))
    _announce_results(m, t, effects, fixed)
    return m


def _on_undo(m, event, t, effects):
    by = (" by %s" % event.by) if event.by else ""
    turn = m.current
    if turn is not None:
        if not turn.touch_times:
            raise InvalidChoice("%s has no laser touch to undo in this turn" % turn.thief)
        turn = replace(turn, touch_times=turn.touch_times[:-1])
        effects.append(ev.Say(t, "Last laser touch undone%s (%d left)." % (by, turn.touches)))
        effects.append(ev.Durable(t))
        return replace(m, current=turn)
    last = last_open_turn(m)
    if last is None or not last.touch_times:
        raise InvalidChoice("there is no laser touch to undo; undo works during a turn or on "
                            "the last turn before the next one starts")
    if last.caught and last.reason is Reason.LASERS:
        void = replace(last, outcome=Outcome.VOID, touch_times=last.touch_times[:-1])
        effects.append(ev.Say(t, "Third touch undone%s: %s's turn is void and is played again."
                              % (by, last.thief)))
        effects.append(ev.Durable(t))
        return replace(m, turns=m.turns[:-1] + (void,), chosen_thief=last.thief)
    if last.caught:
        raise InvalidChoice("%s was caught because they %s, not by a touch; nothing to undo"
                            % (last.thief, REASON_WORDS[last.reason]))
    fixed = replace(last, touch_times=last.touch_times[:-1])
    effects.append(ev.Say(t, "Last laser touch undone%s: %s" % (by, _haul_words(fixed))))
    effects.append(ev.Durable(t))
    m = replace(m, turns=m.turns[:-1] + (fixed,))
    _announce_results(m, t, effects, fixed)
    return m


def void_current(match, t):
    """Declare the running turn void (the rig restarted in the middle of it): the thief plays
    it again.  Returns the new match."""
    if match.current is None:
        return match
    turn = replace(match.current, end_t=t, outcome=Outcome.VOID)
    if turn.tiebreak:
        return replace(match, current=None, chosen_thief=turn.thief)
    return replace(match, current=None, turns=match.turns + (turn,), chosen_thief=turn.thief)


def unfinished(match, t):
    """The match as it stands at the end of a recording: a running turn becomes unfinished."""
    if match.current is None:
        return match
    turn = replace(match.current, end_t=t, outcome=Outcome.UNFINISHED)
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
    ev.Choose: _on_choose,
    ev.ConfirmLoot: _on_loot,
    ev.UndoTouch: _on_undo,
}
