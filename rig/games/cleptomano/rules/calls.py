"""The referee's words: every call, refusal, problem and fault put into English, in one place.

The core decides and says what happened as data (:mod:`rig.games.cleptomano.rules.events`); this
module turns it into the sentences the log, the score display and the phones show, so they always
say the same thing (and another language is one more module like this one).

* :func:`say` -> the log line of an effect (``"Caught! Ana touched the guard."``), or None;
* :func:`banner` -> the big moment a call puts on the screen
  (:class:`~rig.games.cleptomano.rules.view.BannerView`);
* :func:`problem_text`, :func:`fault_text`, :func:`refusal_text`, :func:`describe`, ...
"""

from . import events as ev
from .museum import PAINTINGS, Kind, parse
from rig.core.severity import INFO, WARNING, Severity  # noqa: F401 (calls.INFO, calls.WARNING)
from .view import BannerKind, BannerView

_REASON_WORDS = {
    "lasers": "touched the lasers 3 times",
    "displaced": "displaced a laser",
    "guard": "touched the guard",
    "time": "was still inside when the time ran out",
}


def _plural(n, word, plural=None):
    return "%d %s" % (n, word if n == 1 else (plural or word + "s"))


def reason_words(reason):
    """Why a thief was caught: ``"touched the guard"``."""
    return _REASON_WORDS[reason]


def haul_words(turn):
    """``"2 paintings, 1 relic, 1 touch: 4 points"``."""
    return "%s, %s, %s: %s" % (
        _plural(turn.paintings, "painting"), _plural(turn.relics, "relic"),
        _plural(turn.touches, "touch", "touches"), _plural(turn.score, "point"))


def _numbered(word, numbers):
    """``"painting 2"``, ``"paintings 1 and 2"``."""
    return "%s %s" % (word if len(numbers) == 1 else word + "s",
                      " and ".join(str(n) for n in numbers))


def haul_cut_words(turn):
    """Why the guard's count of ``turn``'s haul was cut down to what the sensors allow
    (``"painting 2 never left its stand: 1 painting counted"``), or None when it was not."""
    if turn.confirmed is None:
        return None
    asked_paintings, asked_relics = turn.confirmed
    reasons = []
    if asked_paintings > turn.paintings:
        on_stands = [n for n in PAINTINGS if n not in turn.paintings_off]
        back = [n for n in on_stands if n in turn.paintings_lifted]
        never = [n for n in on_stands if n not in turn.paintings_lifted]
        why = []
        if never:
            why.append("%s never left %s" % (_numbered("painting", never),
                                             "its stand" if len(never) == 1 else "their stands"))
        if back:
            why.append("%s %s back on %s when the turn ended" % (
                _numbered("painting", back), "was" if len(back) == 1 else "were",
                "its stand" if len(back) == 1 else "their stands"))
        reasons.append("%s: %s counted" % (" and ".join(why),
                                           _plural(turn.paintings, "painting")))
    if asked_relics > turn.relics:
        broken = sorted(turn.broken)
        reasons.append("%s broke: %s counted" % (_numbered("relic", broken),
                                                 _plural(turn.relics, "relic")))
    return "; ".join(reasons) or None


def guard_note(thief, guard):
    """What the screen adds after the guard's name: ``" (own turn)"`` when the round's guard is
    the one stealing (the rulebook lets them), else nothing."""
    return " (own turn)" if guard and guard == thief else ""


def foul_text(relic, before):
    """A foul against the stealing order (``before`` None: before any painting)."""
    if before is None:
        return "relic %d taken before any painting" % relic
    return "relic %d taken before relic %d" % (relic, before)


def tiebreak_line(turn):
    if turn.time_s is None:
        return "%s got no painting out." % turn.thief
    return "%s: %.2f s + %s = %.2f s" % (turn.thief, turn.time_s,
                                         _plural(turn.touches, "touch", "touches"),
                                         turn.adjusted_s)


def level_words(level):
    """``"60 s, 4 added lasers, wide corridor"``."""
    limit = "no time limit" if level.timer_s is None else "%g s" % level.timer_s
    return "%s, %d added lasers, %s corridor" % (limit, level.lasers, level.corridor)


def _names(names):
    return " and ".join(names)


# --- the museum's parts ------------------------------------------------------------------------

def describe(name):
    """A builder's word for an input: ``laser.5`` -> ``laser 5``."""
    parts = parse(name)
    if parts is None:
        return name
    if parts.kind is Kind.GUARD:
        return "the guard token"
    if parts.kind is Kind.BUTTON:
        return "the start button"
    if parts.kind is Kind.TOF:
        return "the hand sensor"
    if parts.kind is Kind.SEAT:
        return "laser %d's seat" % parts.number
    return "%s %d" % (parts.kind, parts.number)


_LASER_PLACES = {1: "printed laser, left wall", 2: "printed laser, right wall",
                 3: "printed laser, gallery"}


def input_label(name):
    """What a pin-map input is, for the builder: ``"seat switch under added rod 4's rest"``."""
    parts = parse(name)
    if parts.kind is Kind.BUTTON:
        return "start/exit button"
    if parts.kind is Kind.GUARD:
        return "guard token"
    if parts.kind is Kind.LASER:
        return _LASER_PLACES.get(parts.number, "added laser rod %d" % parts.number)
    if parts.kind is Kind.SEAT:
        return "seat switch under added rod %d's rest" % parts.number
    if parts.kind is Kind.PAINTING:
        return "painting %d stand" % parts.number
    return describe(name)


_TROUBLE_WORDS = {
    ev.Trouble.LASER_TOUCHED: "laser %(number)d is touched (contact closed)",
    ev.Trouble.GUARD_TOUCHED: "the guard token is touched (contact closed)",
    ev.Trouble.NOT_SEATED: "laser %(number)d is not seated",
    ev.Trouble.PAINTING_OFF: "painting %(number)d is not on its stand",
    ev.Trouble.ENTRANCE_BLOCKED: "the entrance is not clear (hand sensor reads %(value)d mm)",
    ev.Trouble.RELIC_LYING: "relic %(number)d is lying down",
    ev.Trouble.RELIC_MOVING: "relic %(number)d is moving",
    ev.Trouble.LASER_STUCK: "laser %(number)d is stuck closed (over %(value)g s): check its "
                            "wiring",
    ev.Trouble.GUARD_STUCK: "the guard token is stuck closed (over %(value)g s): check its wiring",
    ev.Trouble.BUTTON_STUCK: "the start button is stuck closed (over %(value)g s): check its "
                             "wiring",
}


def problem_text(problem):
    """What keeps the museum from being ready, in words a guard acts on."""
    return _TROUBLE_WORDS[problem.trouble] % {"number": problem.number or 0,
                                              "value": problem.value or 0}


def fault_text(fault):
    """A fault's words (a stuck contact's are made here; a device's come with it)."""
    if isinstance(fault, ev.StuckContact):
        if fault.active:
            return "%s has been closed for %g s: check its wiring (counted once at most)" % (
                describe(fault.source), fault.after_s)
        return "%s is released" % describe(fault.source)
    return fault.message


def refusal_text(refused):
    """Why a start press or a command was refused, as one sentence."""
    if refused.code is ev.Refusal.MATCH_OVER:
        return "The match is over; press start again for a new match."
    if refused.code is ev.Refusal.NOT_READY:
        return "The museum is not ready: " + "; ".join(
            problem_text(p) for p in refused.problems) + "."
    text = refused.error
    return text[:1].upper() + text[1:] + "."


# --- calls -----------------------------------------------------------------------------------------

def _turn_started(e):
    if e.kind is ev.NextKind.TIEBREAK:
        what = "Tiebreak attempt"
    elif e.kind is ev.NextKind.SOLO:
        what = "Solo heist"
    else:
        what = "Round %d" % e.round
    limit = ("%g s" % e.timer_s) if e.timer_s is not None else "no time limit"
    if e.guard and e.guard == e.thief:
        return "%s: %s, this round's guard, steals (%s)." % (what, e.thief, limit), INFO
    guard = (", guarded by %s" % e.guard) if e.guard else ""
    return "%s: %s steals%s (%s)." % (what, e.thief, guard, limit), INFO


def _turn_ended(e):
    turn = e.turn
    if turn.caught:
        return "Caught! %s %s." % (turn.thief, reason_words(turn.reason)), WARNING
    if turn.tiebreak:
        return "Tiebreak attempt over: " + tiebreak_line(turn), INFO
    return "Escaped! %s: %s" % (turn.thief, haul_words(turn)), INFO


def _by(e):
    return (" by %s" % e.by) if e.by else ""


def _touch_undone(e):
    if e.undo is ev.Undo.RUNNING:
        return "Last laser touch undone%s (%d left)." % (_by(e), e.turn.touches), INFO
    if e.undo is ev.Undo.VOIDED:
        return ("Third touch undone%s: %s's turn is void and is played again."
                % (_by(e), e.turn.thief)), INFO
    return "Last laser touch undone%s: %s" % (_by(e), haul_words(e.turn)), INFO


def _haul_confirmed(e):
    cut = haul_cut_words(e.turn)
    return "Haul confirmed%s: %s%s" % (_by(e), haul_words(e.turn),
                                       " (%s)" % cut if cut else ""), INFO


def _tiebreak_called(e):
    what = "Tiebreak" if e.series == 1 else "Tiebreak, series %d," % e.series
    return "%s between %s: fastest painting out wins." % (what, _names(e.contenders)), INFO


def _resumed(e):
    if e.thief is None:
        return None
    return ("The rig restarted: %s's turn is void and is played again." % e.thief), WARNING


def _match_set_up(e):
    return ("New match set up%s: %s; %s level (%s); %s steals first."
            % (_by(e.command), ", ".join(e.players), e.level.name, level_words(e.level),
               e.first_thief)), INFO


_SAY = {
    ev.TurnStarted: _turn_started,
    ev.TurnEnded: _turn_ended,
    ev.TouchCounted: lambda e: ("Laser %d touched (%d of 3, %s)." % (
        e.laser, e.touches, "+1 s" if e.tiebreak else "-1 point"), WARNING),
    ev.RodDisplaced: lambda e: ("Laser %d displaced." % e.laser, WARNING),
    ev.ExitIgnored: lambda e: ("Exit ignored: the hand is still inside the museum.", WARNING),
    ev.Foul: lambda e: ("Foul noted (not punished): %s." % foul_text(e.relic, e.before),
                        WARNING),
    ev.RelicLost: lambda e: ("Relic %d %s: broken, it can no longer be stolen." % (
        e.relic, "fell" if e.cause == ev.Cause.FALL else "was knocked over"), WARNING),
    ev.HaulConfirmed: _haul_confirmed,
    ev.TouchUndone: _touch_undone,
    ev.RoundWon: lambda e: ("Round %d won by %s." % (e.number, _names(e.winners)), INFO),
    ev.MatchWon: lambda e: ("%s wins the match!" % e.winner, INFO),
    ev.TiebreakCalled: _tiebreak_called,
    ev.Resumed: _resumed,
    ev.MatchSetUp: _match_set_up,
}


def say(effect):
    """The log line of an effect, as ``(text, severity)``, or None when it has none.  Refusals
    other than a start press after the match, and faults, have theirs too."""
    if isinstance(effect, ev.Refused):
        if effect.code is ev.Refusal.MATCH_OVER:
            return None
        return refusal_text(effect), WARNING
    if isinstance(effect, ev.Fault):
        if effect.active:
            return "Fault: " + fault_text(effect), WARNING
        return "Cleared: " + fault_text(effect), INFO
    if isinstance(effect, ev.Dropped):
        return "Ignored %s: %s" % (type(effect.event).__name__, effect.error), WARNING
    words = _SAY.get(type(effect))
    return words(effect) if words is not None else None


def _wins_words(round_wins):
    return ", ".join("%s %d" % pair for pair in round_wins)


def _banner_turn_ended(e):
    turn = e.turn
    if turn.caught:
        return BannerView(BannerKind.CAUGHT, "CAUGHT!",
                          ("%s %s." % (turn.thief, reason_words(turn.reason)),))
    if turn.tiebreak:
        return BannerView(BannerKind.TIEBREAK, "TIEBREAK", (tiebreak_line(turn),))
    return BannerView(BannerKind.ESCAPED, "ESCAPED!", (haul_words(turn),))


def _banner_haul(e):
    cut = haul_cut_words(e.turn)
    return BannerView(BannerKind.ESCAPED, "ESCAPED!",
                      (haul_words(e.turn),) + ((cut,) if cut else ()))


def _banner_resumed(e):
    if e.thief is None:
        return BannerView(BannerKind.RESUMED, "MATCH RESUMED", ("The rig restarted.",))
    return BannerView(BannerKind.RESUMED, "MATCH RESUMED",
                      ("%s's interrupted turn is void: play it again." % e.thief,))


_BANNERS = {
    ev.TurnEnded: _banner_turn_ended,
    ev.HaulConfirmed: _banner_haul,
    ev.RoundWon: lambda e: BannerView(BannerKind.ROUND, "ROUND %d" % e.number,
                                      ("Won by %s." % _names(e.winners),)),
    ev.MatchWon: lambda e: BannerView(BannerKind.MATCH, "%s WINS!" % e.winner.upper(),
                                      ("Round wins: %s" % _wins_words(e.round_wins),)),
    ev.TiebreakCalled: lambda e: BannerView(BannerKind.TIEBREAK, "TIEBREAK",
                                            (_names(e.contenders),)),
    ev.TitleEarned: lambda e: BannerView(
        BannerKind.TITLE, e.title or "No title",
        (e.title,) if e.title else ("0 points: no criminal title.",)),
    ev.Resumed: _banner_resumed,
}


def banner(effect):
    """The big moment a call puts on the screen, or None."""
    make = _BANNERS.get(type(effect))
    return make(effect) if make is not None else None


def match_outcome_words(outcome):
    """How a match ended or stands (its :class:`rig.core.contract.Outcome`), as ``history``
    says it: ``winner Ana  wins: Ana 2, Ben 0  R1 Ana:4 Ben:3 | R2 ...``, ``solo: TITLE``."""
    if outcome.code == "solo":
        said = "solo: %s" % (outcome.get("title") or "no title")
    elif outcome.code == "won":
        said = "winner %s" % outcome.winners[0]
    else:
        said = "ended without a winner" if outcome.over else "no winner yet"
    wins = _wins_words(outcome.get("round_wins"))
    scores = " | ".join("R%d %s" % (number, " ".join("%s:%d" % kv for kv in scores))
                        for number, scores in outcome.get("rounds"))
    return "%s%s%s" % (said, ("  wins: " + wins) if wins else "",
                       ("  " + scores) if scores else "")
