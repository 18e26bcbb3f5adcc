"""The banner queue: every big moment gets the screen for its time, one after another (pure).

A turn that ends the round ends with three calls at once (ESCAPED, the round's winner, the
match's winner); shown as "the newest wins", the table would only ever see the last.  The
:class:`BannerQueue` is a value the shell keeps and advances with its clock: each banner is
shown for :func:`duration_s`, in the order the calls came, and the next starts the moment the
last one's time is up (so how often the screen is redrawn changes nothing).  A new turn's start
cuts the queue short (:func:`cut`): the countdown matters more than a round's result.

Banners are about a *moment* (:func:`moment`: this turn's end, round 2, the match): a call
about a moment already on screen or waiting replaces it (the guard corrected the haul while
ESCAPED was up: the corrected one is shown, for its full time), and a call that says nothing new
about its moment (a haul confirmed as the sensors counted it) is not shown again.

The queue itself is the one every host keeps (:mod:`rig.core.banner_queue`); here are
Cleptómano's moments and how long each kind stays up.  Every banner that leaves the screen is
reported as a :class:`Shown` (which banner, from when to when, whether a turn's start cut it):
the host keeps them as the banner log tests read.  All times are seconds on the match's clock
(the calls' own timestamps), so a replay of the recording
would schedule the very same banners.
"""

from . import events as ev
from ....core import banner_queue as _queue
from ....core.banner_queue import EMPTY, BannerQueue, Shown, advance, cut, on_screen  # noqa: F401
from .view import BannerKind, BannerView

#: How long each kind of banner stays up: a turn's end and a round's result are a big word and
#: one line of about eight words (read in 3 s by a table glancing up from 2 m); the match and the
#: solo heist's title close the game and stay longer.
BASE_S = {
    BannerKind.CAUGHT: 3.0,
    BannerKind.ESCAPED: 3.0,
    BannerKind.TIEBREAK: 3.0,
    BannerKind.ROUND: 3.0,
    BannerKind.RESUMED: 4.0,
    BannerKind.MATCH: 6.0,
    BannerKind.TITLE: 6.0,
}
DEFAULT_S = 3.0
EXTRA_LINE_S = 1.5      # each detail line beyond the first (a corrected haul's reason)


def duration_s(banner):
    """How long ``banner`` stays on the screen."""
    return BASE_S.get(banner.kind, DEFAULT_S) + EXTRA_LINE_S * max(0, len(banner.lines) - 1)


def moment(effect):
    """What a call's banner is about: the same key for calls about the same moment."""
    kind = type(effect)
    if kind in (ev.TurnEnded, ev.HaulConfirmed):
        turn = effect.turn
        return ("turn", turn.tiebreak, turn.start_t)
    if kind is ev.RoundWon:
        return ("round", effect.number)
    if kind is ev.TiebreakCalled:
        return ("tiebreak", effect.series)
    if kind in (ev.MatchWon, ev.TitleEarned):
        return (kind.__name__,)
    return (kind.__name__, effect.t)


def add(queue, key, banner, t):
    """The call about moment ``key`` at ``t`` puts ``banner`` up for :func:`duration_s`, or in
    the queue behind those waiting.  Returns ``(queue, shown)``."""
    return _queue.add(queue, key, banner, duration_s(banner), t)
