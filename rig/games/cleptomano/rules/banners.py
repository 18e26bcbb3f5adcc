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

Every banner that leaves the screen is reported as a :class:`Shown` (which banner, from when to
when, whether a turn's start cut it): the daemon keeps them as the banner log tests read.  All
times are seconds on the match's clock (the calls' own timestamps), so a replay of the recording
would schedule the very same banners.
"""

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from . import events as ev
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


@dataclass(frozen=True)
class Shown:
    """A banner that was on the screen from ``from_s`` to ``until_s`` (match seconds); ``cut``
    when a turn's start (or a newer call about its moment) took the screen before its time."""
    banner: BannerView
    from_s: float
    until_s: float
    cut: bool = False


@dataclass(frozen=True)
class BannerQueue:
    """The banner on screen (``showing``, up since ``since_s``) and those waiting, each as
    ``(moment, banner)``; ``last`` is the newest banner of each moment put up or queued."""
    showing: Optional[Tuple[tuple, BannerView]] = None
    since_s: float = 0.0
    waiting: Tuple[Tuple[tuple, BannerView], ...] = ()
    last: Tuple[Tuple[tuple, BannerView], ...] = ()

    @property
    def until_s(self):
        """When the banner on screen runs out (None: nothing is shown)."""
        if self.showing is None:
            return None
        return round(self.since_s + duration_s(self.showing[1]), 6)


EMPTY = BannerQueue()


def advance(queue, t):
    """The queue at ``t``: banners whose time is up leave, the next one starting the moment
    the last one's ran out.  Returns ``(queue, shown)``, ``shown`` the banners that left."""
    shown = []
    while queue.showing is not None and queue.until_s <= t:
        end = queue.until_s
        shown.append(Shown(queue.showing[1], queue.since_s, end))
        nxt = queue.waiting[0] if queue.waiting else None
        queue = replace(queue, showing=nxt, since_s=end, waiting=queue.waiting[1:])
    return queue, tuple(shown)


def on_screen(queue, t):
    """The banner shown at ``t`` (None: none), without changing the queue."""
    showing = advance(queue, t)[0].showing
    return showing[1] if showing is not None else None


def add(queue, key, banner, t):
    """The call about moment ``key`` at ``t`` puts ``banner`` up, or in the queue behind those
    waiting.  Returns ``(queue, shown)``."""
    queue, shown = advance(queue, t)
    last = dict(queue.last)
    if last.get(key) == banner:
        return queue, shown                      # nothing new about this moment
    last[key] = banner
    queue = replace(queue, last=tuple(last.items()))
    if queue.showing is not None and queue.showing[0] == key:
        left = Shown(queue.showing[1], queue.since_s, t, cut=True)
        return replace(queue, showing=(key, banner), since_s=t), shown + (left,)
    keys = [k for k, _ in queue.waiting]
    if key in keys:
        waiting = list(queue.waiting)
        waiting[keys.index(key)] = (key, banner)
        return replace(queue, waiting=tuple(waiting)), shown
    if queue.showing is None:
        return replace(queue, showing=(key, banner), since_s=t), shown
    return replace(queue, waiting=queue.waiting + ((key, banner),)), shown


def cut(queue, t):
    """A turn starts at ``t``: the banner on screen leaves and those waiting are dropped.
    Returns ``(queue, shown)``."""
    queue, shown = advance(queue, t)
    if queue.showing is not None:
        shown += (Shown(queue.showing[1], queue.since_s, t, cut=True),)
    return replace(queue, showing=None, waiting=()), shown
