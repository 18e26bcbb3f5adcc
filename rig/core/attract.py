"""The attract screen's decisions: when the rig's screen, left alone, shows its games to the
room, and what it shows (issue 31).

Pure: the host feeds :class:`Idle` what happened and when (on its own clock), and asks it at
each frame whether the attract screen is due; nothing here reads a clock or a file.

* :class:`Idle` -- nobody played for ``idle_s`` seconds (0: never) and no turn or set-up runs:
  the attract screen is shown; any touch, key or phone wakes it (:func:`seen`).
* :class:`AttractView` -- what the screen draws meanwhile: one :class:`Card` a game (its title,
  a short how-to-play), the last night's standings, the phones' join QR.  The screen cycles
  the cards by itself (:func:`card_at`, every :data:`CARD_S`), each at a place that drifts
  (:func:`drift`), so nothing stays lit on one spot of the panel.
* :class:`Wake` -- the command the screen sends its host when a key woke it.
"""

from dataclasses import dataclass, replace
from typing import Tuple

from .errors import ConfigError
from .msg import Msg
from .service import SERVICE

#: ``[table] attract_after_s``: (default, low, high); 0 is never.
IDLE_S = (300, 0, 3600)
#: How long each card stays on the screen.
CARD_S = 8.0
#: The render loop's pace while the attract screen is shown (frames drawn: one a card, and
#: what a key or a new snapshot asks), against the display's ``fps`` otherwise.
ATTRACT_LOOP_HZ = 4
#: How dim the attract screen is: its colours are scaled by this (burn-in, power).
DIM = 0.55
#: The standings shown: at most this many players.
STANDINGS_ROWS = 5


def check_idle_s(value, key="table.attract_after_s"):
    """``value`` as the idle seconds before the attract screen: one ConfigError naming it."""
    default, low, high = IDLE_S
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError("%s is %r; give whole seconds from %d to %d (0: never show the "
                          "attract screen; default %d)" % (key, value, low, high, default),
                          key=key)
    return value


@dataclass(frozen=True)
class Wake:
    """The screen's command to its host: a key woke the attract screen.  Never recorded (it
    changes nothing in a game)."""
    t: float = 0.0


@dataclass(frozen=True)
class Card:
    """One card of the attract screen: ``kind`` ``"game"`` (``title`` the game's name,
    ``lines`` its how-to-play), ``"standings"`` (``rows``: ``(name, wins)``, ``title`` the
    night's day) or ``"join"`` (the phones' QR: drawn from the view's ``phones``)."""
    kind: str
    title: object = None
    lines: Tuple[object, ...] = ()
    rows: Tuple[Tuple[str, int], ...] = ()


@dataclass(frozen=True)
class AttractView:
    """What the attract screen shows: its ``cards`` in order, the phones' pairing (``phones``, a
    :class:`rig.core.phones.PhonesView`; None: no phones) and the table's ``language``."""
    cards: Tuple[Card, ...]
    phones: object = None
    language: str = "en"


@dataclass(frozen=True)
class Idle:
    """Whether the attract screen is shown: ``idle_s`` (0: never), ``last`` the host's clock
    when someone last did something (or a turn last ran), ``shown`` whether it is up now."""
    idle_s: int = IDLE_S[0]
    last: float = 0.0
    shown: bool = False

    def due_at(self):
        """When the attract screen is due if nothing happens (None: never, or shown)."""
        if not self.idle_s or self.shown:
            return None
        return self.last + self.idle_s


def seen(idle, t):
    """Someone touched, typed or opened a phone at ``t``: the attract screen wakes (if up) and
    the idle time counts from ``t``."""
    return replace(idle, last=max(idle.last, t), shown=False)


def judge(idle, now, busy):
    """The idle state at ``now``: ``busy`` (a turn or a set-up runs: see :func:`busy`) counts as
    someone playing; else the attract screen is up from ``idle_s`` after the last activity."""
    if busy:
        return seen(idle, now)
    if not idle.idle_s:
        return replace(idle, shown=False)
    return idle if idle.shown else replace(idle, shown=now - idle.last >= idle.idle_s)


def busy(snapshot):
    """Whether ``snapshot`` (any game's screen value) shows a turn, a match's set-up or a
    check running, a banner, or the service mode: never the attract screen then.
    Cleptómano's Scoreboard: its ``phase`` "turn", its wiring check, a banner; a companion
    game's GameScreen: its game until it is over."""
    if snapshot is None:
        return False
    if getattr(snapshot, "game", None) == SERVICE:     # the builder's service mode is open
        return True
    phase = getattr(snapshot, "phase", None)
    if phase is not None:
        return (phase == "turn" or getattr(snapshot, "wiring", None) is not None
                or getattr(snapshot, "banner", None) is not None)
    return not getattr(snapshot, "over", True)


def card_at(view, now_s):
    """The index of the card shown at ``now_s`` (any seconds: the screen's own clock)."""
    n = len(view.cards)
    if not n or now_s is None:
        return 0
    return int(now_s // CARD_S) % n


#: The places a card takes in turn, on a 3 x 3 grid over the room left around it (column, row):
#: the centre first, then a walk that never stays put.
_PLACES = ((1, 1), (0, 0), (2, 2), (2, 0), (0, 2), (1, 0), (1, 2), (0, 1), (2, 1))


def drift(now_s, room_x, room_y):
    """Where a card sits at ``now_s``: ``(dx, dy)`` pixels within ``room_x`` by ``room_y``, a
    new place each card (None: the centre)."""
    step = 0 if now_s is None else int(now_s // CARD_S)
    col, row = _PLACES[step % len(_PLACES)]
    return room_x * col // 2, room_y * row // 2


def tally(outcomes, rows=STANDINGS_ROWS):
    """The standings of a night: ``outcomes`` (:class:`rig.core.contract.Outcome` of the
    night's games, any game) to ``(name, wins)`` rows, the most wins first, then by name; a
    name counted once however its case is written (the first spelling kept)."""
    wins, spelled = {}, {}
    for outcome in outcomes:
        for name in getattr(outcome, "winners", ()) or ():
            key = str(name).strip().casefold()
            if not key:
                continue
            spelled.setdefault(key, str(name).strip())
            wins[key] = wins.get(key, 0) + 1
    ordered = sorted(wins.items(), key=lambda kv: (-kv[1], spelled[kv[0]].casefold()))
    return tuple((spelled[k], n) for k, n in ordered[:rows])


def cards(games, standings=(), day=None, phones=None):
    """The attract screen's cards: one for each of ``games`` (``(title, lines)``: the game's
    title and its how-to-play, codes), the last night's ``standings`` (``(name, wins)`` rows
    of ``day``, ``"YYYY-MM-DD"``; no card without one) and the join card when there are
    ``phones``."""
    out = [Card("game", title, tuple(lines)) for title, lines in games]
    if standings:
        out.append(Card("standings", Msg("rig.attract.last_night", day=day or ""),
                        rows=tuple(standings)))
    if phones is not None:
        out.append(Card("join", Msg("rig.attract.join")))
    return tuple(out)


def view(cards_, phones=None, language="en"):
    """The :class:`AttractView` of ``cards_``; None without a card."""
    return AttractView(tuple(cards_), phones, language) if cards_ else None

