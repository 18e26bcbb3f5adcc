"""A Stop Thief! board drawn from its data: buildings and rooms, footprint paths, spaces.

The board file gives only where each space is; rooms are drawn around their inside spaces (half
a grid step out, so doors and windows sit on the walls), buildings around their rooms, and the
board's labels (building and street names) where the board puts them.  Every
space kind has its own shape as well as its colour: round street spaces, square rooms, a
door-shaped door, a window with its cross bars, the subway's double ring, small dots for the
unnumbered circles; crime scenes wear a thick red ring.  A caught thief's path is drawn along the
footprints, with arrows, from its crime scene (a red dot) to where it was caught (a gold ring).

Pure drawing, with :mod:`rig.draw.kit`: nothing here holds state or reads a clock.
"""

import math
from dataclasses import dataclass

from ...core.msg import N_, Msg
from ...draw.kit import (DARK, GOLD, RED, TEXT, as_text, fit_size, get_font, load_pygame,
                            put_text)
from .icons import draw_clue_icon

BUILDING_COLOURS = ((92, 72, 58), (58, 84, 96), (84, 64, 96), (60, 92, 70), (100, 86, 52),
                    (96, 58, 66), (56, 70, 104), (80, 88, 60))
STREET = (58, 64, 84)
FOOTPRINT = (128, 134, 156)
PAPER = (244, 240, 228)
INSIDE = (236, 228, 206)
OUTSIDE = (150, 160, 182)
SUBWAY = (40, 96, 200)
DOOR = (160, 100, 52)
WINDOW = (160, 215, 238)
CIRCLE = (200, 204, 216)
PATH = GOLD
START_MARK = Msg("stop_thief.map.start")
MIN_LABEL = 9           # pixels: smaller names are clutter, not text


@dataclass(frozen=True)
class TownMap:
    """Where the board lands in a box: ``px(at)`` gives a space's pixel centre."""
    scale: float           # pixels per board unit
    ox: float
    oy: float
    unit: float            # the board's grid step, in board units
    radius: int            # a numbered space's radius in pixels

    def px(self, at):
        return (int(round(self.ox + at[0] * self.scale)), int(round(self.oy + at[1] * self.scale)))


def grid_step(board):
    """The board's typical distance between neighbouring spaces (its grid step)."""
    points = [s.at for s in board.spaces]
    nearest = []
    for a in points:
        d = min((math.dist(a, b) for b in points if b != a), default=1.0)
        nearest.append(d)
    nearest.sort()
    return nearest[len(nearest) // 2] or 1.0


def fit(board, box):
    """The :class:`TownMap` that fits ``board`` (its rooms and labels) in ``box``."""
    x, y, w, h = box
    unit = grid_step(board)
    points = [s.at for s in board.spaces] + [lb.at for lb in board.labels]
    margin = unit * 0.75
    x0, x1 = min(p[0] for p in points) - margin, max(p[0] for p in points) + margin
    y0, y1 = min(p[1] for p in points) - margin, max(p[1] for p in points) + margin
    scale = min(w / max(1e-9, x1 - x0), h / max(1e-9, y1 - y0))
    ox = x + (w - (x1 - x0) * scale) / 2 - x0 * scale
    oy = y + (h - (y1 - y0) * scale) / 2 - y0 * scale
    return TownMap(scale, ox, oy, unit, max(3, int(unit * scale * 0.34)))


def rooms(board):
    """Each room's box in board units, by (building, room name), in board order."""
    out = {}
    for s in board.spaces:
        if s.kind == "inside":
            out.setdefault((s.building, s.area), []).append(s.at)
    pad = grid_step(board) / 2
    return {key: (min(p[0] for p in pts) - pad, min(p[1] for p in pts) - pad,
                  max(p[0] for p in pts) + pad, max(p[1] for p in pts) + pad)
            for key, pts in out.items()}


def route(board, a, b):
    """The footprint route from numbered space ``a`` to its thief-neighbour ``b``, through
    unnumbered circles only (so a drawn path follows the footprints)."""
    todo, came = [a], {a: None}
    while todo:
        here = todo.pop(0)
        if here == b:
            break
        for k in board.footprints.get(here, ()):
            if k not in came and (k == b or not board.by_key[k].numbered):
                came[k] = here
                todo.append(k)
    if b not in came:
        return [a, b]
    out = [b]
    while out[-1] != a:
        out.append(came[out[-1]])
    return out[::-1]


def draw_town(surface, board, box, path=None, font_scale=1.0, paper=False, floor=None):
    """Draw ``board`` into ``box``, with ``path`` (a caught thief's spaces) along the
    footprints; ``paper`` draws names in dark ink, for a light page to print.

    ``floor`` (the table's screen: :func:`rig.draw.kit.floor_of`) is the smallest size a
    label is drawn at: a label that would be smaller (a space's number at 800x480 is 7 px tall)
    is left out, and the numbers that matter now -- each crime scene, and the caught thief's
    first and last space -- are written beside their space on a tag at the floor."""
    pg = load_pygame()
    m = fit(board, box)
    r = m.radius
    ink = DARK if paper else TEXT
    # Buildings, then their rooms with a wall around each (names are the board's labels).
    by_building = {}
    for (building, name), box_units in rooms(board).items():
        by_building.setdefault(building, []).append(box_units)
    wall = max(2, r // 6)
    for i, parts in enumerate(by_building.values()):
        colour = BUILDING_COLOURS[i % len(BUILDING_COLOURS)]
        (px0, py0) = m.px((min(p[0] for p in parts), min(p[1] for p in parts)))
        (px1, py1) = m.px((max(p[2] for p in parts), max(p[3] for p in parts)))
        pg.draw.rect(surface, colour, pg.Rect(px0, py0, px1 - px0, py1 - py0))
        for x0, y0, x1, y1 in parts:
            (qx0, qy0), (qx1, qy1) = m.px((x0, y0)), m.px((x1, y1))
            pg.draw.rect(surface, DARK, pg.Rect(qx0, qy0, qx1 - qx0, qy1 - qy0), wall)
    # Footprint paths: dotted, like footprints.
    step = max(4, int(r * 0.55))
    for a, b in board.paths:
        pa, pb = m.px(board.by_key[a].at), m.px(board.by_key[b].at)
        length = math.dist(pa, pb)
        for k in range(1, int(length // step)):
            f = k * step / length
            pg.draw.circle(surface, FOOTPRINT, (int(pa[0] + (pb[0] - pa[0]) * f),
                                                int(pa[1] + (pb[1] - pa[1]) * f)),
                           max(1, r // 7))
    if path:
        draw_path(surface, board, m, path)
    # Labels (buildings, streets), then the spaces, over the paths.
    lh = int(r * 0.8 * font_scale)
    least = MIN_LABEL if floor is None else line_height(floor)
    for label in board.labels if lh >= least else ():
        cx, cy = m.px(label.at)
        put_text(surface, label.text, (cx - 6 * r, cy - lh // 2, 12 * r, lh), ink, cap=lh)
    number_size = fit_size(["88"], r * 1.5, r * 1.1)
    numbers = floor is None or number_size >= floor
    for s in board.spaces:
        _draw_space(surface, board, s, m.px(s.at), r, number_size if numbers else None,
                    font_scale, ink, least)
    if path:
        mark_path(surface, board, m, path)
    if not numbers:
        keys = [s.key for s in board.spaces if s.crime and s.numbered]
        walk = _walk(board, path or [])
        keys += [k for k in walk[:1] + walk[-1:] if k not in keys]
        for key in keys:
            _number_tag(surface, board, m, key, floor, box)
    return m


def line_height(size):
    """The pixel height of a line of text at font ``size``."""
    return get_font(size).get_height()


def _number_tag(surface, board, m, key, size, box):
    """Space ``key``'s number on a dark tag beside it, at ``size``, kept inside ``box``: above
    it, else below, left or right, wherever it hides least of a caught thief's gold path."""
    pg = load_pygame()
    text = str(key)
    tw, th = get_font(size).size(text)
    w, h = tw + th // 2, th
    cx, cy = m.px(board.by_key[key].at)
    clear = m.radius + max(6, m.radius * 2 // 3) + 4      # outside a caught thief's gold ring
    area = pg.Rect(box).clip(surface.get_rect())
    best = None
    for x, y in ((cx - w // 2, cy - clear - h), (cx - w // 2, cy + clear),
                 (cx - clear - w, cy - h // 2), (cx + clear, cy - h // 2)):
        rect = pg.Rect(x, y, w, h).clamp(area)
        hidden = pg.mask.from_threshold(surface.subsurface(rect.clip(area)), PATH,
                                        (30, 30, 30, 255)).count()
        if best is None or hidden < best[0]:
            best = (hidden, rect)
        if hidden == 0:
            break
    rect = best[1]
    radius = max(2, h // 5)
    pg.draw.rect(surface, DARK, rect, border_radius=radius)
    pg.draw.rect(surface, TEXT, rect, max(1, h // 14), border_radius=radius)
    put_text(surface, text, tuple(rect), TEXT, size=size)


def _draw_space(surface, board, s, centre, r, number_size, font_scale, tag_ink,
                least=MIN_LABEL):
    pg = load_pygame()
    cx, cy = centre
    ink = DARK
    if s.kind == "circle":
        pg.draw.circle(surface, CIRCLE, centre, max(2, int(r * 0.42)))
        return
    if s.kind == "inside":
        pg.draw.rect(surface, INSIDE, pg.Rect(cx - r, cy - r, 2 * r, 2 * r),
                     border_radius=max(1, r // 3))
    elif s.kind == "door":
        pg.draw.rect(surface, DOOR, pg.Rect(cx - r * 3 // 4, cy - r, r * 3 // 2, 2 * r),
                     border_top_left_radius=r // 2, border_top_right_radius=r // 2)
        ink = TEXT
    elif s.kind == "window":
        rect = pg.Rect(cx - r, cy - r * 3 // 4, 2 * r, r * 3 // 2)
        pg.draw.rect(surface, WINDOW, rect)
        pg.draw.rect(surface, DARK, rect, max(1, r // 6))
    elif s.kind == "subway":
        pg.draw.circle(surface, TEXT, centre, r + max(2, r // 4))
        pg.draw.circle(surface, SUBWAY, centre, r)
        ink = TEXT
    else:
        pg.draw.circle(surface, OUTSIDE, centre, r)
    if s.crime:
        pg.draw.circle(surface, RED, centre, r + max(3, r // 3), max(3, r // 4))
    if number_size is not None:
        put_text(surface, str(s.key), (cx - r, cy - r, 2 * r, 2 * r), ink, size=number_size)
    tag = s.label
    if board.investigators_start == s.key:
        tag = as_text(Msg("stop_thief.map.start_label", label=tag) if tag else START_MARK, 120)
    lh = int(r * 0.9 * font_scale)
    if tag and lh >= least:
        put_text(surface, tag, (cx - 5 * r, cy + r + max(3, r // 3), 10 * r, lh), tag_ink, cap=lh)


def _walk(board, path):
    """The path's moves (stays dropped), keeping only the board's numbered spaces."""
    path = [n for n in path if n in board.by_key and board.by_key[n].numbered]
    return [n for i, n in enumerate(path) if i == 0 or path[i - 1] != n]


def draw_path(surface, board, m, path):
    """A caught thief's walk, under the spaces: gold along the footprints, with an arrow on
    each move."""
    pg = load_pygame()
    r = m.radius
    walk = _walk(board, path)
    width = max(3, r // 3)
    for a, b in zip(walk, walk[1:]):
        points = [m.px(board.by_key[k].at) for k in route(board, a, b)]
        pg.draw.lines(surface, DARK, False, points, width + 4)
        pg.draw.lines(surface, PATH, False, points, width)
        _arrow(surface, points[-2], points[-1], r)


def mark_path(surface, board, m, path):
    """Over the spaces: a red badge on the thief's crime scene, a gold ring where it was
    caught (the numbers stay readable)."""
    pg = load_pygame()
    r = m.radius
    walk = _walk(board, path)
    if not walk:
        return
    sx, sy = m.px(board.by_key[walk[0]].at)
    badge = max(3, r // 2)
    pg.draw.circle(surface, DARK, (sx + r, sy - r), badge + 2)
    pg.draw.circle(surface, RED, (sx + r, sy - r), badge)
    end = m.px(board.by_key[walk[-1]].at)
    ring = r + max(6, r * 2 // 3)
    pg.draw.circle(surface, DARK, end, ring + 2, max(3, r // 3) + 4)
    pg.draw.circle(surface, PATH, end, ring, max(3, r // 3))


def _arrow(surface, a, b, r):
    """An arrowhead halfway from ``a`` to ``b``, pointing at ``b``."""
    pg = load_pygame()
    length = math.dist(a, b)
    if length < 1:
        return
    dx, dy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    tip = (a[0] + dx * (length / 2 + r * 0.5), a[1] + dy * (length / 2 + r * 0.5))
    size = r * 0.75
    left = (tip[0] - dx * size - dy * size * 0.6, tip[1] - dy * size + dx * size * 0.6)
    right = (tip[0] - dx * size + dy * size * 0.6, tip[1] - dy * size - dx * size * 0.6)
    pts = [(int(p[0]), int(p[1])) for p in (tip, left, right)]
    pg.draw.polygon(surface, DARK, pts, 0)
    pg.draw.polygon(surface, PATH, [(int((p[0] * 3 + tip[0]) / 4), int((p[1] * 3 + tip[1]) / 4))
                                    if p != tip else p for p in pts])


#: Each clue kind and its line of the printed board's legend (what it sounds like).
LEGEND = tuple((kind, Msg(code)) for kind, code in (
    ("crime", N_("stop_thief.legend.crime")), ("inside", N_("stop_thief.legend.inside")),
    ("door", N_("stop_thief.legend.door")), ("window", N_("stop_thief.legend.window")),
    ("outside", N_("stop_thief.legend.outside")), ("subway", N_("stop_thief.legend.subway")),
    ("stayed", N_("stop_thief.legend.stayed"))))


def draw_legend(surface, box, ink=TEXT):
    """What each clue sounds like, with its icon, in rows (for the printed board)."""
    x, y, w, h = box
    cols = 4
    rows = (len(LEGEND) + cols - 1) // cols
    cell_w, cell_h = w // cols, h // rows
    texts = [(kind, as_text(line, 120)) for kind, line in LEGEND]
    size = fit_size([t for _, t in texts], cell_w - cell_h * 1.3, cell_h * 0.45)
    for i, (kind, text) in enumerate(texts):
        row, col = divmod(i, cols)
        cx, cy = x + col * cell_w, y + row * cell_h
        tile = (cx, cy + cell_h // 10, cell_h * 8 // 10, cell_h * 8 // 10)
        pg = load_pygame()
        pg.draw.rect(surface, STREET, pg.Rect(tile), border_radius=cell_h // 8)
        draw_clue_icon(surface, kind, tile)
        put_text(surface, text, (cx + cell_h, cy, cell_w - cell_h, cell_h), ink, align="left",
                 size=size)
