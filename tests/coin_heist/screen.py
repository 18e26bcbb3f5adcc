"""Drawing the coin heist's table screen: each thief's jewels (a gold gem per jewel stolen, an
outline per jewel still to steal), whose call it is, and the last flip as a coin: gold heads,
blue tails.  ``draw_screen`` is what the faces read (README "Adding a game"); pure drawing
with the display kit, and a malformed view draws what it can and never raises.  Every word is
a code of the ``coin_heist`` catalog (a Msg), said in the table's language by the kit."""

from rig.core.msg import Msg
from rig.draw.kit import (AMBER, BG, DIM, GOLD, GREEN, PANEL, TEXT, as_int, as_text,
                             draw_panel, fit_size, get_font, legible_size, load_pygame,
                             put_text, wrap_lines)
from rig.draw.view_dict import box, get, mapping

from .rules import side_words

HEADS = (230, 180, 20)       # the coin, heads up
TAILS = (60, 110, 220)       # the coin, tails up
JEWEL = GOLD
ROWS = (0.04, 0.16, 0.56, 0.80)     # the thieves' rows (x, y, w, h fractions of the window)
COIN = (0.64, 0.22, 0.32, 0.50)     # the last flip
WORDS_BOTTOM = 0.96                 # the coin's words go no lower (the thieves' rows' foot)
MAX_LINES = 3                       # the coin's words, wrapped in a longer language


def draw(surface, view):
    """Draw ``view`` (a coin heist public view) onto ``surface``, filling all of it."""
    pg = load_pygame()
    W, H = surface.get_size()
    surface.fill(BG)
    if W < 8 or H < 8:
        return
    winner = as_text(get(view, "winner"), 40)
    turn = as_text(get(view, "turn"), 40)
    title = (Msg("coin_heist.screen.wins", player=winner.upper()) if winner else
             Msg("coin_heist.screen.call", player=turn.upper()) if turn else
             Msg("coin_heist.screen.title"))
    put_text(surface, title, box(W, H, 0.02, 0.02, 0.96, 0.10), AMBER if winner else DIM)
    jewels = mapping(view, "jewels")
    target = max(1, min(as_int(get(view, "target"), 3), 9))
    x, y, w, h = box(W, H, *ROWS)
    rows = list(jewels.items())[:4]
    row_h = h // max(1, len(rows))
    for i, (name, count) in enumerate(rows):
        top = y + i * row_h
        draw_panel(surface, (x, top + 4, w, row_h - 8), PANEL, 0.1,
                   border=GREEN if name == turn else None)
        put_text(surface, as_text(name, 20), (x + w // 40, top + row_h // 4, w * 3 // 10, row_h // 2),
                 TEXT, "left")
        gem = min((w * 3 // 5) // (target + 1), row_h // 2)
        for n in range(target):
            cx = x + w * 2 // 5 + n * (gem + gem // 3) + gem // 2
            cy = top + row_h // 2
            points = [(cx, cy - gem // 2), (cx + gem // 2, cy), (cx, cy + gem // 2),
                      (cx - gem // 2, cy)]
            if n < as_int(count):
                pg.draw.polygon(surface, JEWEL, points)
            else:
                pg.draw.polygon(surface, DIM, points, max(1, gem // 12))
    last = get(view, "last")
    cx, cy, cw, ch = box(W, H, *COIN)
    if isinstance(last, dict):
        side = as_text(last.get("flipped"), 8)
        r = min(cw, ch) * 2 // 5
        pg.draw.circle(surface, HEADS if side == "heads" else TAILS, (cx + cw // 2, cy + r), r)
        said = Msg("coin_heist.screen.last", player=as_text(last.get("player"), 20),
                   called=side_words(as_text(last.get("called"), 8)), side=side_words(side))
        top = cy + 2 * r + ch // 20
        put_lines(surface, said, (cx, top, cw, int(H * WORDS_BOTTOM) - top), ch // 6, TEXT)
    else:
        top = cy + ch // 3
        put_lines(surface, Msg("coin_heist.screen.call_the_coin"),
                  (cx, top, cw, int(H * WORDS_BOTTOM) - top), ch // 6, DIM)


def put_lines(surface, text, box, line_h, colour):
    """``text`` in the coin's narrow column ``box``: on one line ``line_h`` px tall when it fits
    there at a legible size, else wrapped onto up to :data:`MAX_LINES` lines at the legibility
    floor (a longer language takes more lines, never a smaller font), from the box's top."""
    text = as_text(text, 400)
    x, y, w, h = box
    floor = legible_size(surface.get_height())
    if fit_size([text], w, line_h) >= floor:
        put_text(surface, text, (x, y, w, line_h), colour)
        return
    step = get_font(floor).get_linesize()
    lines = wrap_lines(text, floor, w, max(1, min(MAX_LINES, h // max(1, step))))
    for i, line in enumerate(lines):
        put_text(surface, line, (x, y + i * step, w, step), colour, size=floor)


def draw_screen(surface, snapshot, now_s=None):
    """Draw the host's snapshot (a :class:`~rig.core.gamekit.GameScreen`) of this game."""
    draw(surface, snapshot.view)
