"""The referee's words: every call, refusal, problem and fault as a code, in one place.

The core decides and says what happened as data (:mod:`rig.games.cleptomano.rules.events`); this
module turns it into messages (:class:`rig.core.msg.Msg`: a code of the ``cleptomano`` catalog and
its parameters), so the log, the score display and the phones always say the same thing, each in
its reader's language (the log in English, the screen in the table's, each phone in its own).  A
count is the parameter ``n`` of a plural entry (paintings, relics, touches, points).

* :func:`say` -> the log line of an effect (``Caught! Ana touched the guard.``), or None;
* :func:`banner` -> the big moment a call puts on the screen
  (:class:`~rig.games.cleptomano.rules.view.BannerView`; its big word is one of
  :data:`BANNER_WORDS`, what the voice speaks);
* :func:`problem_text`, :func:`fault_text`, :func:`refusal_text`, :func:`part`, ...

Two things stay English text, for the builder only: :func:`describe` and :func:`input_label`
(the pin map's and the config errors' words), and :func:`foul_english` (the replay output, a
public contract that never changes).
"""

from rig.core.msg import Msg, N_, joined
from rig.core.severity import INFO, WARNING, Severity  # noqa: F401 (calls.INFO, calls.WARNING)
from . import events as ev
from . import overrides
from rig.table.names import PAINTINGS, Kind, describe, input_label, parse  # noqa: F401 (calls.describe)
from .titles import criminal_title, title_msg  # noqa: F401 (calls.criminal_title)
from .view import BannerKind, BannerView

#: The big words of the banners (what the voice speaks when a banner goes up).
BANNER_WORDS = {
    BannerKind.CAUGHT: N_("cleptomano.banner.caught"),
    BannerKind.ESCAPED: N_("cleptomano.banner.escaped"),
    BannerKind.TIEBREAK: N_("cleptomano.banner.tiebreak"),
    BannerKind.RESUMED: N_("cleptomano.banner.resumed"),
    BannerKind.ROUND: N_("cleptomano.banner.round_won"),
    BannerKind.MATCH: N_("cleptomano.banner.match_won"),
    BannerKind.TITLE: N_("cleptomano.banner.title"),
}

_CAUGHT = {
    "lasers": N_("cleptomano.caught.lasers"),
    "displaced": N_("cleptomano.caught.displaced"),
    "guard": N_("cleptomano.caught.guard"),
    "time": N_("cleptomano.caught.time"),
}
_REASONS = {
    "lasers": N_("cleptomano.reason.lasers"),
    "displaced": N_("cleptomano.reason.displaced"),
    "guard": N_("cleptomano.reason.guard"),
    "time": N_("cleptomano.reason.time"),
}


def seconds(value):
    """Seconds as a message parameter: a whole number when it is one (60, not 60.0)."""
    value = float(value)
    return int(value) if value.is_integer() else round(value, 3)


def _joined(parts, code):
    """``parts`` (messages) joined by ``code`` (``{first}; {rest}``), as one message (None for
    none): for items that hold commas themselves, or a tally that is no sentence's list."""
    return joined(parts, code)        # a balanced tree: as deep as log2 of the parts


def _semicolons(parts):
    return _joined(parts, N_("cleptomano.list.semicolon"))


semicolons = _semicolons


def commas(parts):
    """Messages joined by commas (a tally, not a sentence's list), as one message."""
    return _joined(parts, N_("cleptomano.list.comma"))


def sentences(parts):
    """Sentences (messages) one after the other, as one message (None for none)."""
    return _joined(parts, N_("cleptomano.list.sentences"))


def reason_words(reason):
    """Why a thief was caught, as a clause: ``touched the guard``."""
    return Msg(_REASONS[reason])


def caught_words(thief, reason):
    """``Ana touched the guard.``"""
    return Msg(_CAUGHT[reason], thief=thief)


def count_paintings(n):
    return Msg("cleptomano.count.paintings", n=n)


def count_relics(n):
    return Msg("cleptomano.count.relics", n=n)


def count_touches(n):
    return Msg("cleptomano.count.touches", n=n)


def count_points(n):
    return Msg("cleptomano.count.points", n=n)


def haul_words(turn):
    """``2 paintings, 1 relic, 1 touch: 4 points``."""
    return Msg("cleptomano.haul", paintings=count_paintings(turn.paintings),
               relics=count_relics(turn.relics), touches=count_touches(turn.touches),
               points=count_points(turn.score))


def haul_cut_words(turn):
    """Why the guard's count of ``turn``'s haul was cut down to what the sensors allow
    (``painting 2 never left its stand: 1 painting counted``), or None when it was not."""
    if turn.confirmed is None:
        return None
    asked_paintings, asked_relics = turn.confirmed
    reasons = []
    if asked_paintings > turn.paintings:
        on_stands = [n for n in PAINTINGS if n not in turn.paintings_off]
        back = tuple(n for n in on_stands if n in turn.paintings_lifted)
        never = tuple(n for n in on_stands if n not in turn.paintings_lifted)
        why = []
        if never:
            why.append(Msg("cleptomano.cut.never_left", n=len(never), numbers=never))
        if back:
            why.append(Msg("cleptomano.cut.back", n=len(back), numbers=back))
        reasons.append(Msg("cleptomano.cut.paintings", why=tuple(why),
                           counted=count_paintings(turn.paintings)))
    if asked_relics > turn.relics:
        broken = tuple(sorted(turn.broken))
        reasons.append(Msg("cleptomano.cut.relics", n=len(broken), numbers=broken,
                           counted=count_relics(turn.relics)))
    return _semicolons(reasons)


def guard_note(thief, guard):
    """What the screen adds after the guard's name (`` (own turn)``) when the round's guard is
    the one stealing (the rulebook lets them), else None."""
    return Msg("cleptomano.screen.own_turn") if guard and guard == thief else None


def foul_text(relic, before):
    """A foul against the stealing order (``before`` None: before any painting)."""
    if before is None:
        return Msg("cleptomano.foul.before_painting", relic=relic)
    return Msg("cleptomano.foul.before_relic", relic=relic, before=before)


def foul_english(relic, before):
    """The replay output's words for a foul: English, as that public contract always said."""
    if before is None:
        return "relic %d taken before any painting" % relic    # not words: replay JSON contract
    return "relic %d taken before relic %d" % (relic, before)  # not words: replay JSON contract


def tiebreak_line(turn):
    if turn.time_s is None:
        return Msg("cleptomano.tiebreak.no_painting", thief=turn.thief)
    return Msg("cleptomano.tiebreak.time", thief=turn.thief, time="%.2f" % turn.time_s,
               touches=count_touches(turn.touches), adjusted="%.2f" % turn.adjusted_s)


def time_limit(timer_s):
    """``60 s`` or ``no time limit``."""
    if timer_s is None:
        return Msg("cleptomano.level.no_limit")
    return Msg("cleptomano.level.seconds", s=seconds(timer_s))


_LEVEL_NAMES = {"easy": N_("cleptomano.level.easy"), "normal": N_("cleptomano.level.normal"),
                "hard": N_("cleptomano.level.hard"), "custom": N_("cleptomano.level.custom")}
_CORRIDORS = {"wide": N_("cleptomano.corridor.wide"), "narrow": N_("cleptomano.corridor.narrow")}


def level_name(name):
    """A level's name (``easy``, ``normal``, ``hard``, ``custom``) in words."""
    code = _LEVEL_NAMES.get(name)
    return Msg(code) if code else name


def corridor_word(corridor):
    code = _CORRIDORS.get(corridor)
    return Msg(code) if code else corridor


def level_words(level):
    """``60 s, 4 added lasers, wide corridor``."""
    return Msg("cleptomano.level.words", limit=time_limit(level.timer_s),
               lasers=Msg("cleptomano.level.lasers", n=level.lasers),
               corridor=corridor_word(level.corridor))


# --- the museum's parts ------------------------------------------------------------------------

def part(name):
    """An input as the table calls it: ``laser.5`` -> ``laser 5``, ``guard`` -> ``the guard
    token`` (a message; the input's own name when it is none of the museum's)."""
    parts = parse(name)
    if parts is None:
        return Msg("cleptomano.part.other", name=str(name))
    if parts.kind is Kind.GUARD:
        return Msg("cleptomano.part.guard")
    if parts.kind is Kind.BUTTON:
        return Msg("cleptomano.part.button")
    if parts.kind is Kind.TOF:
        return Msg("cleptomano.part.tof")
    if parts.kind is Kind.SEAT:
        return Msg("cleptomano.part.seat", number=parts.number)
    if parts.kind is Kind.LASER:
        return Msg("cleptomano.part.laser", number=parts.number)
    if parts.kind is Kind.PAINTING:
        return Msg("cleptomano.part.painting", number=parts.number)
    return Msg("cleptomano.part.relic", number=parts.number)


_TROUBLES = {
    ev.Trouble.LASER_TOUCHED: N_("cleptomano.trouble.laser_touched"),
    ev.Trouble.GUARD_TOUCHED: N_("cleptomano.trouble.guard_touched"),
    ev.Trouble.NOT_SEATED: N_("cleptomano.trouble.not_seated"),
    ev.Trouble.PAINTING_OFF: N_("cleptomano.trouble.painting_off"),
    ev.Trouble.ENTRANCE_BLOCKED: N_("cleptomano.trouble.entrance_blocked"),
    ev.Trouble.RELIC_LYING: N_("cleptomano.trouble.relic_lying"),
    ev.Trouble.RELIC_MOVING: N_("cleptomano.trouble.relic_moving"),
    ev.Trouble.LASER_STUCK: N_("cleptomano.trouble.laser_stuck"),
    ev.Trouble.GUARD_STUCK: N_("cleptomano.trouble.guard_stuck"),
    ev.Trouble.BUTTON_STUCK: N_("cleptomano.trouble.button_stuck"),
}


def problem_text(problem):
    """What keeps the museum from being ready, in words a guard acts on."""
    value = problem.value or 0
    return Msg(_TROUBLES[problem.trouble], number=problem.number or 0,
               value=int(value) if problem.trouble is ev.Trouble.ENTRANCE_BLOCKED
               else seconds(value))


def fault_text(fault):
    """A fault's words (a stuck contact's are made here; a device's come with it, a message
    or, from a part that has none, its text)."""
    if isinstance(fault, ev.StuckContact):
        if fault.active:
            return Msg("cleptomano.fault.stuck", part=part(fault.source),
                       after_s=seconds(fault.after_s))
        return Msg("cleptomano.fault.released", part=part(fault.source))
    return fault.message


def _reason(error):
    """A refusal's reason: the message it was raised with, or its text."""
    if isinstance(error, Msg):
        return error
    error = str(error)
    return Msg("cleptomano.refuse.other", reason=error[:1].upper() + error[1:])


def refusal_text(refused):
    """Why a start press or a command was refused, as one sentence."""
    if refused.code is ev.Refusal.MATCH_OVER:
        return Msg("cleptomano.refuse.match_over")
    if refused.code is ev.Refusal.NOT_READY:
        return Msg("cleptomano.refuse.not_ready",
                   problems=_semicolons(problem_text(p) for p in refused.problems))
    return _reason(refused.error)


# --- calls -----------------------------------------------------------------------------------------

def _turn_what(e):
    if e.kind is ev.NextKind.TIEBREAK:
        return Msg("cleptomano.turn.tiebreak")
    if e.kind is ev.NextKind.SOLO:
        return Msg("cleptomano.turn.solo")
    return Msg("cleptomano.turn.round", number=e.round)


def _turn_started(e):
    what, limit = _turn_what(e), time_limit(e.timer_s)
    if e.guard and e.guard == e.thief:
        return Msg("cleptomano.call.start_own_guard", what=what, thief=e.thief,
                   limit=limit), INFO
    if e.guard:
        return Msg("cleptomano.call.start_guarded", what=what, thief=e.thief, guard=e.guard,
                   limit=limit), INFO
    return Msg("cleptomano.call.start", what=what, thief=e.thief, limit=limit), INFO


def _turn_ended(e):
    turn = e.turn
    if turn.caught:
        return Msg("cleptomano.call.caught", what=caught_words(turn.thief, turn.reason)), \
            WARNING
    if turn.tiebreak:
        return Msg("cleptomano.call.tiebreak_over", line=tiebreak_line(turn)), INFO
    return Msg("cleptomano.call.escaped", thief=turn.thief, haul=haul_words(turn)), INFO


_UNDONE = {  # (without a name, by a name)
    ev.Undo.RUNNING: (N_("cleptomano.call.undo_running"), N_("cleptomano.call.undo_running_by")),
    ev.Undo.VOIDED: (N_("cleptomano.call.undo_voided"), N_("cleptomano.call.undo_voided_by")),
    ev.Undo.CORRECTED: (N_("cleptomano.call.undo_corrected"),
                        N_("cleptomano.call.undo_corrected_by")),
}


def _touch_undone(e):
    params = {"by": e.by} if e.by else {}
    code = _UNDONE[e.undo][1 if e.by else 0]
    if e.undo is ev.Undo.RUNNING:
        return Msg(code, n=e.turn.touches, **params), INFO
    if e.undo is ev.Undo.VOIDED:
        return Msg(code, thief=e.turn.thief, **params), INFO
    # A tiebreak attempt corrected: its time, one second less (its "haul" is that time).
    haul = tiebreak_line(e.turn) if e.turn.tiebreak else haul_words(e.turn)
    return Msg(code, haul=haul, **params), INFO


def _haul_confirmed(e):
    cut = haul_cut_words(e.turn)
    haul = haul_words(e.turn)
    if cut:
        haul = Msg("cleptomano.haul.cut", haul=haul, cut=cut)
    if e.by:
        return Msg("cleptomano.call.haul_confirmed_by", by=e.by, haul=haul), INFO
    return Msg("cleptomano.call.haul_confirmed", haul=haul), INFO


def _tiebreak_called(e):
    if e.series == 1:
        return Msg("cleptomano.call.tiebreak", names=tuple(e.contenders)), INFO
    return Msg("cleptomano.call.tiebreak_series", series=e.series,
               names=tuple(e.contenders)), INFO


def _resumed(e):
    if e.thief is None:
        return None
    return Msg("cleptomano.call.resumed", thief=e.thief), WARNING


def _match_set_up(e):
    by = e.command.by if e.command is not None else None
    params = dict(players=tuple(e.players), level=level_name(e.level.name),
                  words=level_words(e.level), first=e.first_thief)
    if by:
        return Msg("cleptomano.call.set_up_by", by=by, **params), INFO
    return Msg("cleptomano.call.set_up", **params), INFO


def _touch_counted(e):
    code = N_("cleptomano.call.touch_tiebreak") if e.tiebreak else N_("cleptomano.call.touch")
    return Msg(code, laser=e.laser, touches=e.touches), WARNING


def _relic_lost(e):
    code = (N_("cleptomano.call.relic_fell") if e.cause == ev.Cause.FALL
            else N_("cleptomano.call.relic_knocked"))
    return Msg(code, relic=e.relic), WARNING


_SAY = {
    ev.TurnStarted: _turn_started,
    ev.TurnEnded: _turn_ended,
    ev.TouchCounted: _touch_counted,
    ev.RodDisplaced: lambda e: (Msg("cleptomano.call.displaced", laser=e.laser), WARNING),
    ev.ExitIgnored: lambda e: (Msg("cleptomano.call.exit_ignored"), WARNING),
    ev.Foul: lambda e: (Msg("cleptomano.call.foul", foul=foul_text(e.relic, e.before)),
                        WARNING),
    ev.RelicLost: _relic_lost,
    ev.HaulConfirmed: _haul_confirmed,
    ev.TouchUndone: _touch_undone,
    ev.RoundWon: lambda e: (Msg("cleptomano.call.round_won", number=e.number,
                                winners=tuple(e.winners)), INFO),
    ev.MatchWon: lambda e: (Msg("cleptomano.call.match_won", winner=e.winner), INFO),
    ev.TiebreakCalled: _tiebreak_called,
    ev.Resumed: _resumed,
    ev.MatchSetUp: _match_set_up,
    ev.ReasonGiven: lambda e: (overrides.given_msg(e.override), INFO),
}


def say(effect):
    """The log line of an effect, as ``(message, severity)``, or None when it has none.
    Refusals other than a start press after the match, and faults, have theirs too."""
    if isinstance(effect, ev.Refused):
        if effect.code is ev.Refusal.MATCH_OVER:
            return None
        return refusal_text(effect), WARNING
    if isinstance(effect, ev.Fault):
        if effect.active:
            return Msg("cleptomano.call.fault", fault=fault_text(effect)), WARNING
        return Msg("cleptomano.call.cleared", fault=fault_text(effect)), INFO
    if isinstance(effect, ev.Dropped):
        error = effect.error
        return Msg("cleptomano.call.dropped", event=type(effect.event).__name__,
                   error=error if isinstance(error, Msg) else str(error)), WARNING
    words = _SAY.get(type(effect))
    return words(effect) if words is not None else None


def wins_words(round_wins):
    """``Ana 2, Ben 0`` (each player's round wins): a tally, joined by commas."""
    return _joined((Msg("cleptomano.banner.wins_pair", name=name, wins=wins)
                    for name, wins in round_wins), N_("cleptomano.list.comma"))


def _banner(kind, lines, **params):
    return BannerView(kind, Msg(BANNER_WORDS[kind], **params), tuple(lines))


def _banner_turn_ended(e):
    turn = e.turn
    if turn.caught:
        return _banner(BannerKind.CAUGHT, (caught_words(turn.thief, turn.reason),))
    if turn.tiebreak:
        return _banner(BannerKind.TIEBREAK, (tiebreak_line(turn),))
    return _banner(BannerKind.ESCAPED, (haul_words(turn),))


def _banner_haul(e):
    cut = haul_cut_words(e.turn)
    return _banner(BannerKind.ESCAPED, (haul_words(e.turn),) + ((cut,) if cut else ()))


def _banner_resumed(e):
    if e.thief is None:
        return _banner(BannerKind.RESUMED, (Msg("cleptomano.banner.rig_restarted"),))
    return _banner(BannerKind.RESUMED, (Msg("cleptomano.banner.turn_void", thief=e.thief),))


def _banner_title(e):
    if e.title:
        return BannerView(BannerKind.TITLE, title_msg(e.title), (title_msg(e.title),))
    return BannerView(BannerKind.TITLE, Msg("cleptomano.banner.no_title"),
                      (Msg("cleptomano.banner.no_title_line"),))


_BANNERS = {
    ev.TurnEnded: _banner_turn_ended,
    ev.HaulConfirmed: _banner_haul,
    ev.RoundWon: lambda e: _banner(BannerKind.ROUND, (
        Msg("cleptomano.banner.won_by", winners=tuple(e.winners)),), number=e.number),
    ev.MatchWon: lambda e: _banner(BannerKind.MATCH, (
        Msg("cleptomano.banner.round_wins", wins=wins_words(e.round_wins)),), winner=e.winner),
    ev.TiebreakCalled: lambda e: _banner(BannerKind.TIEBREAK, (
        Msg("cleptomano.banner.contenders", names=tuple(e.contenders)),)),
    ev.TitleEarned: _banner_title,
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
        title = outcome.get("title")
        said = (Msg("cleptomano.outcome.solo", title=title_msg(title)) if title
                else Msg("cleptomano.outcome.solo_no_title"))
    elif outcome.code == "won":
        said = Msg("cleptomano.outcome.won", winner=outcome.winners[0])
    elif outcome.over:
        said = Msg("cleptomano.outcome.no_winner")
    else:
        said = Msg("cleptomano.outcome.no_winner_yet")
    wins = ", ".join("%s %d" % pair for pair in outcome.get("round_wins"))
    scores = " | ".join("R%d %s" % (number, " ".join("%s:%d" % kv for kv in scores))
                        for number, scores in outcome.get("rounds"))
    if wins:
        said = Msg("cleptomano.outcome.wins", said=said, wins=wins)
    if scores:
        said = Msg("cleptomano.outcome.rounds", said=said, rounds=scores)
    return said
