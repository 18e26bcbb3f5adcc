"""Drawing the attract screen: one :class:`rig.core.attract.AttractView` onto one pygame
Surface (issue 31).

Pure drawing: ``now_s`` (the screen's own clock) picks the card (:func:`rig.core.attract.card_at`)
and where it sits (:func:`rig.core.attract.drift`); nothing else moves, so the render loop draws a
frame a card.  The whole frame is dimmed (:data:`rig.core.attract.DIM`) and the card takes
about two thirds of the panel at a place that changes each card: no pixel stays lit in one
place for long (burn-in), and the panel shows little light (power).
"""

from ..core import attract as core
from ..core.msg import Msg
from . import kit
from .phones import draw_phones

#: The card's share of the screen (the rest is the room it drifts in), and the share of the card
#: its foot takes (how to wake the screen, and which card of how many).
CARD_W, CARD_H = 0.80, 0.82
FOOT = 0.13


def draw_attract(surface, view, now_s=None):
    """Draw ``view`` (an AttractView) onto ``surface``, filling it: the card shown at
    ``now_s`` (None: the first, centred), dimmed."""
    pg = kit.load_pygame()
    W, H = surface.get_size()
    surface.fill((0, 0, 0))
    cards = kit.as_tuple(getattr(view, "cards", ()))
    if W < 16 or H < 16 or not cards:
        return
    shown = core.card_at(view, now_s) % len(cards)
    card = cards[shown]
    cw, ch = int(W * CARD_W), int(H * CARD_H)
    x, y = core.drift(now_s, W - cw, H - ch)
    foot = int(ch * FOOT)
    box = (x, y, cw, ch - foot)
    kind = getattr(card, "kind", "")
    if kind == "join" and getattr(view, "phones", None) is not None:
        _join(surface, card, view.phones, box)
    elif kind == "standings":
        _standings(surface, card, box)
    else:
        _game(surface, card, box)
    _foot(surface, len(cards), shown, (x, y + ch - foot, cw, foot))
    k = int(round(255 * core.DIM))
    surface.fill((k, k, k), special_flags=pg.BLEND_MULT)


def _foot(surface, n, shown, box):
    """Under every card: how to wake the screen, and a dot for each card (the one shown lit)."""
    pg = kit.load_pygame()
    x, y, w, h = box
    dots_h = h // 3
    kit.put_text(surface, kit.say("rig.attract.wake"), (x, y + dots_h, w, h - dots_h), kit.DIM)
    if n < 2:
        return
    r = max(2, dots_h // 4)
    gap = 4 * r
    left = x + (w - (n - 1) * gap) // 2
    for i in range(n):
        pg.draw.circle(surface, kit.TEXT if i == shown else kit.PANEL,
                       (left + i * gap, y + dots_h // 2 + r), r)


def _game(surface, card, box):
    x, y, w, h = box
    kit.draw_panel(surface, box, kit.PANEL, 0.05)
    pad = int(h * 0.05)
    inner = w - 4 * pad
    kit.put_text(surface, card.title, (x + 2 * pad, y + pad, inner, int(h * 0.2)), kit.GOLD)
    kit.put_text(surface, kit.say("rig.attract.how_to"),
                 (x + 2 * pad, y + pad + int(h * 0.21), inner, int(h * 0.08)), kit.DIM)
    lines = kit.as_tuple(card.lines)[:4]
    top = y + pad + int(h * 0.31)
    each = (y + h - pad - top) // max(len(lines), 3)
    for i, line in enumerate(lines):
        kit.put_para(surface, line, (x + 2 * pad, top + i * each, inner, each), kit.TEXT,
                     most=2)


def _standings(surface, card, box):
    x, y, w, h = box
    kit.draw_panel(surface, box, kit.PANEL, 0.05)
    pad = int(h * 0.05)
    kit.put_text(surface, card.title, (x + 2 * pad, y + pad, w - 4 * pad, int(h * 0.16)),
                 kit.GOLD)
    rows = kit.as_tuple(card.rows)[:core.STANDINGS_ROWS]
    top = y + pad + int(h * 0.22)
    row_h = (y + h - pad - top) // max(len(rows), 3)
    left = x + 2 * pad
    inner = w - 4 * pad
    names_w = int(inner * 0.62)
    for i, row in enumerate(rows):
        name, wins = row
        ry = top + i * row_h
        kit.put_text(surface, "%d." % (i + 1), (left, ry, int(inner * 0.08), row_h), kit.DIM,
                     "right", cap=int(row_h * 0.6))
        kit.put_name(surface, kit.as_text(name, 60),
                     (left + int(inner * 0.11), ry, names_w - int(inner * 0.11), row_h),
                     kit.GOLD if i == 0 else kit.TEXT, cap=int(row_h * 0.7))
        kit.put_text(surface, Msg("rig.attract.wins", n=kit.as_int(wins)),
                     (left + names_w, ry, inner - names_w, row_h), kit.TEXT, "right",
                     cap=int(row_h * 0.6))


def _join(surface, card, phones, box):
    x, y, w, h = box
    kit.put_text(surface, card.title, (x, y, w, int(h * 0.18)), kit.GOLD)
    draw_phones(surface, phones, (x, y + int(h * 0.2), w, h - int(h * 0.2)))
