"""Drawing the chest heist's table screen: one ``public_view`` dict onto one pygame Surface.

Pure drawing, with the display kit :mod:`rig.display.kit` (fitted text, panels, palette).
On the left, the turn's five dice (each with its place, 1 to 5, the number the phone sends; a
used die is dimmed and says USED), the three skimmers (empty, charged with their value, or
switched off) and the turn's last move in arithmetic.  On the right, the sheet's grid with its
ticked boxes and each line's chest, or, without a sheet, the twelve chests: locked (red, with a
padlock), opened (gold, with its diamonds), the next to lock (amber).  When chest L has locked,
the score and the title, in French with its English gloss.

The view comes from :func:`rig.games.chest_heist.rules.public_view`; a malformed view draws what
it can and never raises.
"""

from ...display.kit import (AMBER, BG, DARK, DIM, GOLD, GREEN, IVORY, PANEL, PANEL_2, RED, TEXT,
                            as_int, as_text, draw_check, draw_cross, draw_panel, fit_size,
                            load_pygame, put_big, put_text)
from ...display.view_dict import box, get, items, mapping

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
    _last_move(surface, view, box(W, H, 0.02, 0.71, 0.49, 0.09))
    _score_line(surface, view, box(W, H, 0.02, 0.82, 0.49, 0.08))
    right = box(W, H, *RIGHT)
    if items(view, "sheet"):
        _sheet(surface, view, right)
    else:
        _chest_tiles(surface, view, right)


def _header(surface, view, W, H):
    turn, turns = as_int(get(view, "turn"), 1), as_int(get(view, "turns"), 12)
    left = "CHEST HEIST · TURN %d OF %d" % (turn, turns)
    if get(view, "phase") == "over":
        left = "CHEST HEIST · CHEST L HAS LOCKED"
    put_text(surface, left, box(W, H, 0.02, 0.015, 0.58, 0.07), DIM, align="left")
    nxt = as_text(get(view, "next_lock"), 2)
    if nxt:
        put_text(surface, "LOCKS NEXT: %s" % nxt, box(W, H, 0.62, 0.015, 0.20, 0.07), AMBER,
                 align="right")
    left_n = as_int(get(view, "rerolls_left"))
    total = max(0, min(as_int(get(view, "rerolls"), 3), 6))
    x, y, w, h = box(W, H, 0.84, 0.015, 0.14, 0.07)
    put_text(surface, "REROLLS", (x, y, int(w * 0.55), h), DIM, align="left")
    r = max(2, min(h // 3, int(w * 0.45) // (2 * max(1, total)) - 1))
    for i in range(total):
        cx = x + int(w * 0.58) + r + i * (2 * r + 2)
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
        put_text(surface, "ROLL THE DICE", (x + w // 10, y + h // 5, w * 8 // 10, h * 2 // 5),
                 AMBER)
        put_text(surface, "on your phone", (x + w // 4, y + h * 3 // 5, w // 2, h // 4), DIM)
        return
    slot = w // 5
    label_h = int(h * 0.2)
    size = fit_size(["USED", "5"], slot * 0.8, label_h * 0.9)
    for i, d in enumerate(dice[:5]):
        d = d if isinstance(d, dict) else {}
        used = bool(d.get("used"))
        sx = x + i * slot
        put_text(surface, str(as_int(d.get("die"), i + 1)), (sx, y, slot, label_h), DIM, size=size)
        _die(surface, (sx + slot // 10, y + label_h, slot * 8 // 10, h - 2 * label_h),
             as_int(d.get("value")), used)
        put_text(surface, "USED" if used else "", (sx, y + h - label_h, slot, label_h), DIM,
                 size=size)


def _skimmers(surface, view, area):
    x, y, w, h = area
    cw = w // 3
    label = fit_size(["SKIMMER 3", "CHARGED", "EMPTY", "OFF"], cw * 0.8, h * 0.2)
    for i, s in enumerate(items(view, "skimmers")[:3]):
        s = s if isinstance(s, dict) else {}
        cx = x + i * cw
        used, charged = bool(s.get("used")), bool(s.get("charged"))
        colour = PANEL_2 if used else (60, 48, 14) if charged else PANEL
        draw_panel(surface, (cx + 4, y, cw - 8, h), colour, 0.1,
                   border=GOLD if charged else None)
        put_text(surface, "SKIMMER %d" % as_int(s.get("skimmer"), i + 1),
                 (cx + 8, y + int(h * 0.04), cw - 16, int(h * 0.22)), DIM, size=label)
        value = as_int(s.get("value"))
        put_big(surface, str(value), (cx + cw // 4, y + int(h * 0.30), cw // 2, int(h * 0.40)),
                DIM if used else GOLD if charged else TEXT)
        word = "OFF" if used else "CHARGED" if charged else "EMPTY"
        put_text(surface, word, (cx + 8, y + int(h * 0.74), cw - 16, int(h * 0.22)),
                 DIM if used else GOLD if charged else DIM, size=label)
        if used:
            draw_cross(surface, (cx + cw // 4, y + int(h * 0.3), cw // 2, int(h * 0.4)), RED,
                       max(2, h // 30))


def _last_move(surface, view, area):
    moves = [m for m in items(view, "actions") if isinstance(m, dict)]
    if not moves:
        return
    m = moves[-1]
    if m.get("kind") == "charge":
        text = "Skimmer %s charged: %s" % (as_text(m.get("target"), 4), as_text(m.get("formula")))
    else:
        text = "Box %s ticked: %s" % (as_text(m.get("target"), 12), as_text(m.get("formula")))
    put_text(surface, text, area, TEXT, align="left")


def _score_line(surface, view, area, align="left"):
    skimmers = as_int(get(view, "unused_skimmers"))
    diamonds = get(view, "diamonds")
    unused = "%d unused skimmer%s" % (skimmers, "" if skimmers == 1 else "s")
    if diamonds is None:
        text = "%s; the diamonds are counted at the end" % unused
    else:
        text = "%d diamond%s + %s" % (as_int(diamonds), "" if as_int(diamonds) == 1 else "s",
                                      unused)
        if align == "left":
            text = "SCORE %d: %s" % (as_int(get(view, "score")), text)
    put_text(surface, text, area, GOLD if diamonds is not None else DIM, align)


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
            put_text(surface, str(as_int(n)), (x + w // 2 + u // 2, y, w // 2 - u // 2 - 2, h),
                     fg)
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
    put_text(surface, "THE CHESTS (no sheet: tick your boxes on paper)",
             (x, y, w, int(h * 0.08)), DIM)
    y, h = y + int(h * 0.1), h - int(h * 0.1)
    cw, chh = w // 4, h // 3
    nxt = as_text(get(view, "next_lock"), 2)
    for i, chest in enumerate(list(_chests(view).values())[:12]):
        r, c = divmod(i, 4)
        _tag(surface, (x + c * cw + 4, y + r * chh + 4, cw - 8, chh - 8), chest, nxt)


def _over(surface, view, W, H):
    title = mapping(view, "title")
    score = get(view, "score")
    if score is None:
        put_text(surface, "CHEST L HAS LOCKED", box(W, H, 0.05, 0.16, 0.90, 0.16), GOLD)
        put_text(surface, "Count the diamonds on your sheet and enter them on your phone.",
                 box(W, H, 0.05, 0.40, 0.90, 0.08), TEXT)
        unused = as_int(get(view, "unused_skimmers"))
        put_text(surface, "Your score: 1 point per diamond, and %d for unused skimmers."
                 % unused, box(W, H, 0.05, 0.55, 0.90, 0.08), DIM)
        return
    put_text(surface, "YOUR TITLE", box(W, H, 0.05, 0.12, 0.90, 0.07), DIM)
    put_text(surface, as_text(title.get("fr"), 40), box(W, H, 0.04, 0.20, 0.92, 0.22), GOLD)
    put_text(surface, "(%s)" % as_text(title.get("en"), 40), box(W, H, 0.05, 0.43, 0.90, 0.09),
             TEXT)
    put_big(surface, str(as_int(score)), box(W, H, 0.40, 0.56, 0.20, 0.20), GOLD)
    _score_line(surface, view, box(W, H, 0.05, 0.80, 0.90, 0.08), "center")
    opened = [c for c in _chests(view).values() if c.get("opened")]
    if opened:
        put_text(surface, "Chests opened: %s" % ", ".join(
            as_text(c.get("chest"), 2) for c in opened), box(W, H, 0.05, 0.89, 0.90, 0.07), DIM)


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw the host's snapshot (a
    :class:`~rig.core.gamekit.GameScreen`) of this game onto ``surface``."""
    draw(surface, snapshot.view)
