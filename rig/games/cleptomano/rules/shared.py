"""Cleptómano's effects as the host's shared ones (:mod:`rig.core.effects`), pure.

The referee's effects say what happened (a turn ended, a touch counted, a fault began); the host
knows none of them.  :func:`shared` turns one step's effects into what the host performs, in the
order the table must feel them: first the buzzer and the turn lamp, effect after effect (a
turn's end buzz never waits for anything else); then, again in the effects' order, what the
screen keeps (faults, banners, messages) and the lines said, the ready lamp (whether a start
press would start a turn now), and last the next match when one opens.
"""

from ....core.effects import Banner, Buzz, Fault, Lamp, Message, NextGame, Say, Sync
from . import banners, calls, engine as rules
from . import events as ev
from ....table.names import BUTTON


def fault(effect):
    """A fault (a stuck contact, a device's, the recording's) as the shared :class:`Fault`."""
    return Fault(effect.t, effect.source, calls.fault_text(effect), effect.active,
                 Say(effect.t, *calls.say(effect)))


def shared(effects, match, problems=(), t=0.0):
    """The shared effects of ``effects`` (one step's, in order), made as they are taken (a
    generator: the host sounds the buzzer before the words of the step are even made):
    ``match`` the match after it, ``problems`` what keeps the museum from being ready now (or a
    function that says it, asked only between turns) and ``t`` the match's time, which together
    say the ready lamp.  Nothing at all while a turn runs and the step did nothing."""
    if not effects and match.current is not None:
        return
    for effect in effects:           # what the table feels, first, in the effects' order
        kind = type(effect)
        if kind is ev.Feedback:
            yield Buzz(effect.t, ev.Pattern.TOUCH if effect.on else None, effect.source)
        elif kind is ev.Buzz:
            yield Buzz(effect.t, effect.pattern)
        elif kind is ev.TurnStarted:
            yield Lamp(effect.t, "turn", True)
        elif kind is ev.TurnEnded:
            yield Lamp(effect.t, "turn", False)
    opens = []
    for effect in effects:           # then what the screen keeps and what is said
        kind = type(effect)
        if kind is ev.Feedback:
            continue
        if kind is ev.Durable:
            yield Sync(effect.t)
        elif isinstance(effect, ev.Fault):
            yield fault(effect)
            continue
        elif kind is ev.TurnStarted:
            yield Banner(effect.t, cut=True)
        elif kind is ev.MatchSetUp:
            opens.append(NextGame(effect.t, setup=effect))
            yield Message(effect.t, calls.say(effect)[0])
        elif kind is ev.Refused:
            if effect.code is ev.Refusal.MATCH_OVER:
                opens.append(NextGame(effect.t, pressed={BUTTON: 0}))
            else:
                yield Message(effect.t, calls.refusal_text(effect))
        elif kind is ev.HaulConfirmed:
            cut = calls.haul_cut_words(effect.turn)
            if cut:       # the guard counted more than the sensors allow: say why at once
                yield Message(effect.t, cut)
        banner = calls.banner(effect)
        if banner is not None:
            yield Banner(effect.t, banner, banners.moment(effect), banners.duration_s(banner))
        words = calls.say(effect)
        if words is not None:
            yield Say(effect.t, *words)
    # Between turns the ready lamp says whether a start press would start a turn.
    ready = match.current is None and not rules.is_over(match) and not (
        problems() if callable(problems) else problems)
    yield Lamp(t, "ready", ready)
    yield from opens
