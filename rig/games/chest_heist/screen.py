"""Drawing the chest heist's table screen: one ``public_view`` dict onto one pygame Surface.

Pure drawing, with the display kit :mod:`rig.draw.kit` (fitted text, panels, palette).
On the left, the turn's five dice (each with the face it rolled written over it, as the phone's
buttons show it, so "the 5" is the same die on both; a used die is dimmed and says USED), the
three skimmers (empty, charged with their value, or
switched off) and the turn's last move in arithmetic.  On the right, the sheet's grid with its
ticked boxes and each line's chest, or, without a sheet, the twelve chests: locked (red, with a
padlock), opened (gold, with its diamonds), the next to lock (amber).  When chest L has locked,
the score and the title, in French with its English gloss.

The view comes from :func:`rig.games.chest_heist.rules.public_view`; a malformed view draws what
it can and never raises.
"""

from ...core.msg import N_, Msg
from ...draw.kit import (AMBER, BG, DARK, DIM, GOLD, GREEN, IVORY, PANEL, PANEL_2, RED, TEXT,
                            as_int, as_text, draw_check, draw_cross, draw_panel, fit_size, get_font,
                            line_size, load_pygame, put_big, put_para, put_text, words)
from ...draw.view_dict import box, get, items, mapping
from .rules.checker import plain_formula

# Boxes the tests look into, as fractions of the window (x, y, w, h).
DICE = (0.02, 0.12, 0.49, 0.30)
SKIMMERS = (0.02, 0.46, 0.49, 0.22)
RIGHT = (0.54, 0.12, 0.44, 0.84)

LOCKED = (150, 30, 36)
WOOD = (120, 78, 40)
PIPS = {1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)],
        3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
        5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
        6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)]}


def _say(message):
    """``message`` (a code of the game's catalog) in the screen's language."""
    return words().text(message)


def draw(surface, view):
    """Draw ``view`` (a chest heist public view) onto ``surface``, filling all of it."""
    load_pygame()
    W, H = surface.get_size()
    surface.fill(BG)
    if W < 8 or H < 8:
        return
    _header(surface, view, W, H)
    if get(view, "phase") == "over":
        _over(surface, view, W, H)
        return
    _dice(surface, view, box(W, H, *DICE))
    _skimmers(surface, view, box(W, H, *SKIMMERS))
    _last_move(surface, view, box(W, H, 0.02, 0.70, 0.49, 0.09))
    _score_line(surface, view, box(W, H, 0.02, 0.80, 0.49, 0.19), most=3)
    right = box(W, H, *RIGHT)
    if items(view, "sheet"):
        _sheet(surface, view, right)
    else:
        _chest_tiles(surface, view, right)


def _header(surface, view, W, H):
    turn, turns = as_int(get(view, "turn"), 1), as_int(get(view, "turns"), 12)
    if get(view, "phase") == "over":
        left = _say(Msg("chest_heist.screen.header_over"))
    else:
        left = _say(Msg("chest_heist.screen.header", turn=turn, turns=turns))
    nxt = as_text(get(view, "next_lock"), 2)
    right = _say(Msg("chest_heist.screen.locks_next", chest=nxt)) if nxt else ""
    rerolls = _say(Msg("chest_heist.screen.rerolls"))
    left_n = as_int(get(view, "rerolls_left"))
    total = max(0, min(as_int(get(view, "rerolls"), 3), 6))
    # The header's line, right to left: the reroll dots, their word, the next lock; the title
    # takes what is left.
    x, y, w, h = box(W, H, 0.02, 0.015, 0.96, 0.07)
    font = get_font(line_size(h))
    r = max(2, h // 3)
    dots_w = total * (2 * r + 2)
    word_w = min(font.size(rerolls)[0], int(w * 0.2))
    next_w = min(font.size(right)[0], int(w * 0.34)) if right else 0
    gap = int(w * 0.02)
    dots_x = x + w - dots_w
    put_text(surface, rerolls, (dots_x - gap // 2 - word_w, y, word_w, h), DIM, align="right")
    if right:
        put_text(surface, right, (dots_x - gap * 2 - word_w - next_w, y, next_w, h), AMBER,
                 align="right")
    left_w = w - dots_w - word_w - next_w - gap * (4 if right else 2)
    put_text(surface, left, (x, y, left_w, h), DIM, align="left")
    for i in range(total):
        cx = dots_x + r + i * (2 * r + 2)
        centre = (cx, y + h // 2)
        if i < left_n:
            load_pygame().draw.circle(surface, GOLD, centre, r)
        else:
            load_pygame().draw.circle(surface, DIM, centre, r, max(1, r // 4))


# --- the left column ------------------------------------------------------------------------------

def _die(surface, area, value, used):
    pg = load_pygame()
    x, y, w, h = area
    side = min(w, h)
    rect = pg.Rect(x + (w - side) // 2, y + (h - side) // 2, side, side)
    face, pip = (PANEL_2, DIM) if used else (IVORY, DARK)
    pg.draw.rect(surface, face, rect, border_radius=side // 6)
    for fx, fy in PIPS.get(value, []):
        pg.draw.circle(surface, pip, (rect.x + int(fx * side), rect.y + int(fy * side)),
                       max(2, side // 11))
    return rect


def _dice(surface, view, area):
    x, y, w, h = area
    dice = items(view, "dice")
    if not dice:
        draw_panel(surface, area, PANEL, 0.08, border=AMBER)
        put_text(surface, _say(Msg("chest_heist.screen.roll")),
                 (x + w // 20, y + h // 6, w * 9 // 10, h * 2 // 5), AMBER)
        put_para(surface, _say(Msg("chest_heist.screen.on_phone")),
             (x + w // 20, y + h * 3 // 5, w * 9 // 10, h // 3), DIM, most=1)
        return
    slot = w // 5
    label_h = int(h * 0.2)
    used_word = _say(Msg("chest_heist.screen.used"))
    size = fit_size([used_word, "5"], slot * 0.95, label_h * 0.9)
    for i, d in enumerate(dice[:5]):
        d = d if isinstance(d, dict) else {}
        used = bool(d.get("used"))
        sx = x + i * slot
        face = as_int(d.get("value"))       # the face rolled, not the die's place (issue 30)
        put_text(surface, str(face) if 1 <= face <= 6 else "–", (sx, y, slot, label_h),
                 DIM if used else TEXT, size=size)
        _die(surface, (sx + slot // 10, y + label_h, slot * 8 // 10, h - 2 * label_h),
             as_int(d.get("value")), used)
        if used:
            put_text(surface, used_word, (sx, y + h - label_h, slot, label_h), DIM, cap=size)


def _skimmers(surface, view, area):
    x, y, w, h = area
    cw = w // 3
    names = {n: _say(Msg("chest_heist.screen.skimmer", skimmer=n)) for n in (1, 2, 3)}
    states = {k: _say(Msg(code)) for k, code in (
        ("off", N_("chest_heist.screen.off")), ("charged", N_("chest_heist.screen.charged")),
        ("empty", N_("chest_heist.screen.empty")))}
    label = fit_size(list(names.values()) + list(states.values()), cw - 20, h * 0.2)
    for i, s in enumerate(items(view, "skimmers")[:3]):
        s = s if isinstance(s, dict) else {}
        cx = x + i * cw
        used, charged = bool(s.get("used")), bool(s.get("charged"))
        colour = PANEL_2 if used else (60, 48, 14) if charged else PANEL
        draw_panel(surface, (cx + 4, y, cw - 8, h), colour, 0.1,
                   border=GOLD if charged else None)
        number = as_int(s.get("skimmer"), i + 1)
        put_text(surface, names.get(number) or str(number),
                 (cx + 8, y + int(h * 0.04), cw - 16, int(h * 0.22)), DIM, cap=label)
        value = as_int(s.get("value"))
        put_big(surface, str(value), (cx + cw // 4, y + int(h * 0.30), cw // 2, int(h * 0.40)),
                DIM if used else GOLD if charged else TEXT)
        word = states["off" if used else "charged" if charged else "empty"]
        put_text(surface, word, (cx + 8, y + int(h * 0.74), cw - 16, int(h * 0.22)),
                 DIM if used else GOLD if charged else DIM, cap=label)
        if used:
            draw_cross(surface, (cx + cw // 4, y + int(h * 0.3), cw // 2, int(h * 0.4)), RED,
                       max(2, h // 30))


def _last_move(surface, view, area):
    moves = [m for m in items(view, "actions") if isinstance(m, dict)]
    if not moves:
        return
    m = moves[-1]
    formula = plain_formula(as_text(m.get("formula"), 80))
    if m.get("kind") == "charge":
        text = Msg("chest_heist.screen.charged_move", skimmer=as_text(m.get("target"), 4),
                   formula=formula)
    else:
        text = Msg("chest_heist.screen.ticked_move", box=as_text(m.get("target"), 12),
                   formula=formula)
    put_para(surface, _say(text), area, TEXT, most=1, align="left")


def _score_line(surface, view, area, align="left", most=1):
    unused = Msg("chest_heist.screen.unused", n=as_int(get(view, "unused_skimmers")))
    diamonds = get(view, "diamonds")
    if diamonds is None:
        text = Msg("chest_heist.screen.counted_at_end", unused=unused)
    else:
        text = Msg("chest_heist.screen.diamonds_plus", n=as_int(diamonds), unused=unused)
        if align == "left":
            text = Msg("chest_heist.screen.score_line", score=as_int(get(view, "score")),
                       parts=text)
    put_para(surface, _say(text), area, GOLD if diamonds is not None else DIM, most=most,
         align=align)


# --- the right column -----------------------------------------------------------------------------

def _chests(view):
    return {as_text(c.get("chest"), 2): c for c in items(view, "chests") if isinstance(c, dict)}


def _diamond(surface, area, colour):
    pg = load_pygame()
    x, y, w, h = area
    s = min(w, h)
    cx, cy = x + w // 2, y + h // 2
    pg.draw.polygon(surface, colour, [(cx, cy - s // 2), (cx + s // 2, cy), (cx, cy + s // 2),
                                      (cx - s // 2, cy)])


def _padlock(surface, area, colour):
    pg = load_pygame()
    x, y, w, h = area
    s = min(w, h)
    ox, oy = x + (w - s) // 2, y + (h - s) // 2
    pg.draw.rect(surface, colour, pg.Rect(ox + s // 8, oy + s * 2 // 5, s * 3 // 4, s * 3 // 5),
                 border_radius=max(1, s // 10))
    pg.draw.arc(surface, colour, pg.Rect(ox + s // 4, oy, s // 2, s * 3 // 5), 0, 3.1416,
                max(2, s // 9))


def _tag(surface, area, chest, nxt):
    """A chest's label: its letter, and locked (padlock), opened (diamonds) or next to lock
    (amber border)."""
    x, y, w, h = area
    letter = as_text(chest.get("chest"), 2)
    locked, opened = bool(chest.get("locked")), bool(chest.get("opened"))
    colour = GOLD if opened else LOCKED if locked else WOOD
    draw_panel(surface, area, colour, 0.18, border=AMBER if letter == nxt else None)
    fg = DARK if opened else TEXT
    half = (x, y, w // 2, h) if locked or opened else area
    put_text(surface, letter, half, fg, size=fit_size(["W"], half[2] * 0.8, half[3] * 0.8))
    if opened:
        n = chest.get("diamonds")
        u = min(w // 2, h)
        _diamond(surface, (x + w // 2, y + (h - u // 2) // 2, u // 2, u // 2), DARK)
        if n is not None:
            room = (x + w // 2 + u // 2, y, w // 2 - u // 2 - 2, h)
            put_text(surface, str(as_int(n)), room, fg, size=fit_size(["20"], room[2], h * 0.8))
        if locked:          # burgled first, locked since: the diamonds stay won
            _padlock(surface, (x + 2, y + 2, h // 3, h // 3), LOCKED)
    elif locked:
        _padlock(surface, (x + w // 2, y + h // 5, w // 2 - 4, h * 3 // 5), TEXT)


def _sheet(surface, view, area):
    """The grid; each row's chest on its right, each column's below it."""
    pg = load_pygame()
    x, y, w, h = area
    rows = [r[:12] for r in items(view, "sheet")[:12] if isinstance(r, (list, tuple)) and r]
    if not rows:
        return
    n_rows, n_cols = len(rows), max(len(r) for r in rows)
    cell = int(min(w / (n_cols + 1.6), h / (n_rows + 1.1)))
    gx = x + (w - int(cell * (n_cols + 1.6))) // 2
    gy = y
    size = fit_size(["x2:8", "12"], cell * 0.8, cell * 0.5)
    for r, row in enumerate(rows):
        for c, b in enumerate(row):
            b = b if isinstance(b, dict) else {}
            rect = pg.Rect(gx + c * cell + 1, gy + r * cell + 1, cell - 2, cell - 2)
            if b.get("kind") == "black":
                pg.draw.rect(surface, DARK, rect)
                continue
            ticked = bool(b.get("ticked"))
            pg.draw.rect(surface, (14, 60, 32) if ticked else IVORY, rect)
            put_text(surface, as_text(b.get("label"), 5), (rect.x, rect.y, rect.w, rect.h),
                     GREEN if ticked else DARK, size=size)
            if ticked:
                draw_check(surface, (rect.right - cell * 2 // 5, rect.y + cell // 16, cell // 3,
                                     cell // 3), GREEN, max(2, cell // 14))
    chests = _chests(view)
    nxt = as_text(get(view, "next_lock"), 2)
    pad = max(2, cell // 12)
    for chest in chests.values():
        line = as_text(chest.get("line"), 12).split(" ")
        if len(line) != 2 or not line[1].isdigit():
            continue
        i = int(line[1]) - 1
        if line[0] == "row":
            tag = (gx + n_cols * cell + pad * 2, gy + i * cell + pad,
                   int(cell * 1.6) - 3 * pad, cell - 2 * pad)
        else:
            tag = (gx + i * cell + pad, gy + n_rows * cell + pad * 2, cell - 2 * pad,
                   int(cell * 1.1) - 3 * pad)
        _tag(surface, tag, chest, nxt)


def _chest_tiles(surface, view, area):
    """No sheet: the twelve chests, A to L, in three rows of four."""
    x, y, w, h = area
    put_para(surface, _say(Msg("chest_heist.screen.no_sheet")), (x, y, w, int(h * 0.22)), DIM,
         most=3)
    y, h = y + int(h * 0.23), h - int(h * 0.23)
    cw, chh = w // 4, h // 3
    nxt = as_text(get(view, "next_lock"), 2)
    for i, chest in enumerate(list(_chests(view).values())[:12]):
        r, c = divmod(i, 4)
        _tag(surface, (x + c * cw + 4, y + r * chh + 4, cw - 8, chh - 8), chest, nxt)


def _over(surface, view, W, H):
    title = mapping(view, "title")
    score = get(view, "score")
    if score is None:
        put_text(surface, _say(Msg("chest_heist.screen.l_locked")),
                 box(W, H, 0.05, 0.14, 0.90, 0.16), GOLD)
        put_para(surface, _say(Msg("chest_heist.screen.count_diamonds")),
             box(W, H, 0.03, 0.36, 0.94, 0.18), TEXT)
        unused = as_int(get(view, "unused_skimmers"))
        put_para(surface, _say(Msg("chest_heist.screen.score_rule", n=unused)),
             box(W, H, 0.03, 0.58, 0.94, 0.18), DIM)
        return
    put_text(surface, _say(Msg("chest_heist.screen.your_title")),
             box(W, H, 0.05, 0.12, 0.90, 0.07), DIM)
    french = as_text(title.get("fr"), 40)
    said = as_text(get(view, "title_words"), 60) or french
    put_text(surface, said, box(W, H, 0.04, 0.20, 0.92, 0.22), GOLD)
    if french and said != french:           # the rulebook's own title, under its translation
        put_text(surface, "(%s)" % french, box(W, H, 0.05, 0.43, 0.90, 0.09), TEXT)
    put_big(surface, str(as_int(score)), box(W, H, 0.40, 0.56, 0.20, 0.20), GOLD)
    _score_line(surface, view, box(W, H, 0.05, 0.80, 0.90, 0.08), "center")
    opened = [c for c in _chests(view).values() if c.get("opened")]
    if opened:
        put_para(surface, _say(Msg("chest_heist.screen.opened", chests=", ".join(
            as_text(c.get("chest"), 2) for c in opened))), box(W, H, 0.05, 0.89, 0.90, 0.09),
            DIM, most=1)


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw the host's snapshot (a
    :class:`~rig.core.gamekit.GameScreen`) of this game onto ``surface``."""
    draw(surface, snapshot.view)
