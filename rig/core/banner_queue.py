"""The banner queue every host keeps: each big moment gets the screen for its time, one after
another (pure).

A step that ends a round may bring three big moments at once; shown as "the newest wins", the
table would only ever see the last.  The :class:`BannerQueue` is a value the host keeps and
advances with its clock: each banner is shown for its own ``seconds`` (the game says how long:
:class:`rig.core.effects.Banner`), in the order they came, and the next starts the moment the
last one's time is up (so how often the screen is redrawn changes nothing).  A cut (a new turn
starts) empties the queue: what is about to be played matters more than what was.

A banner is about a *moment* (its ``key``): a newer banner about a moment already on screen or
waiting replaces it, shown for its full time, and one that says nothing new about its moment is
not shown again.  Every banner that leaves the screen is reported as a :class:`Shown` (which
banner, from when to when, whether it was cut short).  Times are seconds on the game's clock.
"""

from dataclasses import dataclass, replace
from typing import Any, Optional, Tuple


@dataclass(frozen=True)
class Shown:
    """A banner that was on the screen from ``from_s`` to ``until_s`` (game seconds); ``cut``
    when a cut (or a newer banner about its moment) took the screen before its time."""
    banner: Any
    from_s: float
    until_s: float
    cut: bool = False


@dataclass(frozen=True)
class BannerQueue:
    """The banner on screen (``showing``, up since ``since_s``) and those waiting, each as
    ``(key, banner, seconds)``; ``last`` the newest banner of each moment put up or queued."""
    showing: Optional[Tuple[Any, Any, float]] = None
    since_s: float = 0.0
    waiting: Tuple[Tuple[Any, Any, float], ...] = ()
    last: Tuple[Tuple[Any, Any], ...] = ()

    @property
    def until_s(self):
        """When the banner on screen runs out (None: nothing is shown)."""
        if self.showing is None:
            return None
        return round(self.since_s + self.showing[2], 6)


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


def add(queue, key, banner, seconds, t):
    """The banner about moment ``key`` at ``t``, shown for ``seconds``: up at once, or in the
    queue behind those waiting.  Returns ``(queue, shown)``."""
    queue, shown = advance(queue, t)
    last = dict(queue.last)
    if last.get(key) == banner:
        return queue, shown                      # nothing new about this moment
    last[key] = banner
    queue = replace(queue, last=tuple(last.items()))
    entry = (key, banner, seconds)
    if queue.showing is not None and queue.showing[0] == key:
        left = Shown(queue.showing[1], queue.since_s, t, cut=True)
        return replace(queue, showing=entry, since_s=t), shown + (left,)
    keys = [k for k, _, _ in queue.waiting]
    if key in keys:
        waiting = list(queue.waiting)
        waiting[keys.index(key)] = entry
        return replace(queue, waiting=tuple(waiting)), shown
    if queue.showing is None:
        return replace(queue, showing=entry, since_s=t), shown
    return replace(queue, waiting=queue.waiting + (entry,)), shown


def cut(queue, t):
    """The screen gives way at ``t`` (a turn starts): the banner on screen leaves and those
    waiting are dropped.  Returns ``(queue, shown)``."""
    queue, shown = advance(queue, t)
    if queue.showing is not None:
        shown += (Shown(queue.showing[1], queue.since_s, t, cut=True),)
    return replace(queue, showing=None, waiting=()), shown
