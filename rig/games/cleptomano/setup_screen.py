"""Drawing the set-up screen (:class:`~rig.games.cleptomano.setup_flow.SetupView`) and the
wiring check on the rig's own screen (:class:`~rig.games.cleptomano.rules.view.WiringView`).

Both are read from 2 m like the score display: the question and the choices are big, every
choice shows the key that picks it, and the keys' meanings run along the bottom.  Sizes come
from the surface (:func:`rig.draw.kit.boxes`), so the 7-inch panel and a TV look alike.
Sensor faults keep their corner, as on every screen.
"""

import re
from dataclasses import replace

from ...core.msg import Msg, N_
from ...draw.kit import (AMBER, BG, DARK, DIM, GOLD, GREEN, MIN_FONT, PANEL, PANEL_2, RED,
                            TEXT, as_text, boxes, fit_size, get_font, put_label, put_text, say,
                            wrap_lines)
from .screen import draw_faults, regions

LIVE = (90, 200, 255)          # an input away from rest right now
_WALL = (120, 110, 95)
_LASER = (225, 225, 235)       # a laser no rule names (all of them turn green when legal)

_LAYOUT = {
    "title": (0.02, 0.0, 0.70, 0.10),
    "step": (0.74, 0.0, 0.24, 0.10),
    "question": (0.02, 0.11, 0.96, 0.09),
    "body": (0.02, 0.215, 0.96, 0.615),
    "note": (0.0, 0.845, 1.0, 0.075),
    "keys": (0.0, 0.922, 1.0, 0.078),
}


def _rect(surface, box, colour, width=0, radius=0.12):
    import pygame
    x, y, w, h = box
    pygame.draw.rect(surface, colour, pygame.Rect(x, y, w, h), width,
                     border_radius=int(min(w, h) * radius))


def _strip(surface, box, items, colour=DIM):
    """Short texts side by side in equal cells (the keys' meanings)."""
    items = [i for i in items if i]
    if not items:
        return
    x, y, w, h = box
    cell = w // len(items)
    size = fit_size(items, cell * 0.94, h * 0.62)
    for i, item in enumerate(items):
        put_text(surface, item, (x + i * cell, y, cell, h), colour, size=size)


def _note(surface, box, note):
    if not note:
        return
    x, y, w, h = box
    _rect(surface, box, (52, 44, 12), radius=0)
    put_text(surface, note, (x + int(w * 0.02), y + int(h * 0.1), int(w * 0.96), int(h * 0.8)),
             (255, 220, 90))


def _frame(surface, title, step, question, note, keys, faults):
    """What every set-up page shares; returns the body's box."""
    r = boxes(surface.get_size(), _LAYOUT)
    surface.fill(BG)
    _rect(surface, (0, 0, surface.get_width(), r["title"][3]), PANEL, radius=0)
    put_text(surface, title, r["title"], GOLD, "left")
    put_text(surface, step, r["step"], DIM, "right")
    put_text(surface, question, r["question"], TEXT, "left")
    _note(surface, r["note"], note)
    _strip(surface, r["keys"], keys)
    draw_faults(surface, faults)
    return r["body"]


# --- the set-up pages ------------------------------------------------------------------------

def _said(x):
    """A view's words (messages, or their tuples) said in the screen's language."""
    if isinstance(x, tuple):
        return tuple(_said(v) for v in x)
    if x is None or isinstance(x, str):
        return x
    return as_text(x, 400)


def _said_view(view):
    return replace(view, title=_said(view.title), question=_said(view.question),
                   note=_said(view.note), keys=_said(view.keys), summary=_said(view.summary),
                   choices=tuple(replace(c, label=_said(c.label), detail=_said(c.detail))
                                 for c in view.choices))


def draw_setup(surface, view, now_s=None):
    """Draw one set-up page (a :class:`~rig.games.cleptomano.setup_flow.SetupView`), its words
    in the screen's language."""
    view = _said_view(view)
    body = _frame(surface, view.title, view.step, view.question, view.note, view.keys,
                  view.faults)
    x, y, w, h = body
    if view.layout is not None:
        legend_w = int(w * 0.30)
        _choices(surface, (x, y, legend_w, h), view.choices, legend=True)
        _layout(surface, (x + legend_w + int(w * 0.02), y, w - legend_w - int(w * 0.02), h),
                view.layout)
        return
    used = 0
    if view.field is not None:
        fh = int(h * 0.30)
        _rect(surface, (x, y, w, fh), PANEL_2)
        _rect(surface, (x, y, w, fh), AMBER, max(2, fh // 20))
        put_text(surface, view.field + "_", (x + fh // 4, y, w - fh // 2, fh), TEXT, "left",
                 cap=int(fh * 0.8))
        used = fh + int(h * 0.06)
    if view.summary:
        lines = view.summary
        line_h = min(int(h * 0.2), (h - used) // max(1, len(lines) + (1 if view.choices else 0)))
        colour = TEXT if not view.choices and view.field is None else DIM
        for i, line in enumerate(lines):
            put_text(surface, line, (x, y + used + i * line_h, w, line_h), colour, "left",
                     cap=int(line_h * 0.75))
        used += line_h * len(lines) + int(h * 0.04)
    if view.choices:
        columns = 1 if len(view.choices) <= 5 else 2
        _choices(surface, (x, y + used, w, h - used), view.choices, columns)


def _choices(surface, box, choices, columns=1, legend=False):
    """Each choice on its row: its key in a square, its words, a tick and its place when
    picked; the one Enter keeps is outlined.  A choice's words (a player's name...) are a label
    (:func:`rig.draw.kit.put_label`: never below the legibility floor, then "…"), but in the
    laser layout's narrow ``legend`` beside the corridor, where they shrink to fit."""
    put = put_text if legend else put_label
    if not choices:
        return
    x, y, w, h = box
    rows = -(-len(choices) // columns)
    details = [c.detail for c in choices if c.detail]
    # A choice with a detail gets two lines: its words, then the detail below them.
    row_h = min(h // rows, int(surface.get_height() * (0.17 if details else 0.13)))
    col_w = w // columns
    labels = [c.label for c in choices]
    label_h = row_h * (0.5 if details else 0.62)
    label_size = fit_size(labels, col_w - row_h * 1.4, label_h)
    detail_size = fit_size(details, col_w - row_h * 1.4, row_h * 0.3) if details else None
    for i, choice in enumerate(choices):
        col, row = divmod(i, rows)
        cx, cy = x + col * col_w, y + row * row_h
        pad = max(2, row_h // 10)
        cell = (cx, cy + pad // 2, col_w - pad, row_h - pad)
        picked = choice.picked is not None
        _rect(surface, cell, (40, 52, 34) if picked else PANEL)
        if choice.current:
            _rect(surface, cell, GOLD, max(2, row_h // 16))
        k = row_h - 2 * pad
        key_box = (cx + pad, cy + pad, k, k - pad // 2)
        _rect(surface, key_box, AMBER)
        put_text(surface, choice.key, key_box, DARK)
        tx = cx + pad * 2 + k
        if picked:
            badge = (cell[0] + cell[2] - k - pad, cy + pad, k, k - pad // 2)
            _rect(surface, badge, GREEN, radius=0.5)
            put_text(surface, str(choice.picked), badge, DARK)
        text_w = cell[0] + cell[2] - tx - (k + 2 * pad if picked else pad)
        if details:
            put(surface, choice.label, (tx, cy + pad // 2, text_w, int(row_h * 0.58)),
                TEXT, "left", size=label_size)
            put_text(surface, choice.detail, (tx, cy + int(row_h * 0.56), text_w,
                                              int(row_h * 0.36)), DIM, "left", size=detail_size)
        else:
            put(surface, choice.label, (tx, cy, text_w, row_h), TEXT, "left", size=label_size)


# --- the laser layout: the corridor from above --------------------------------------------------

def _layout(surface, box, layout):
    """The corridor seen from above (the gallery at the top, zone I by the entrance), each
    typed laser drawn from end to end, and the rulebook's verdict below it."""
    import pygame
    x, y, w, h = box
    plan_h = int(h * 0.62)
    wall_w = max(4, int(w * 0.05))
    left_x, right_x = x + int(w * 0.12), x + w - int(w * 0.12) - wall_w
    zone_h = plan_h // 3
    label_size = fit_size(["III"], w * 0.1, zone_h * 0.35)
    for i, zone in enumerate(("III", "II", "I")):
        zy = y + i * zone_h
        for wx in (left_x, right_x):
            _rect(surface, (wx, zy + 2, wall_w, zone_h - 4), _WALL, radius=0.3)
        put_text(surface, zone, (x, zy, left_x - x - 4, zone_h), DIM, size=label_size)
        put_text(surface, zone, (right_x + wall_w + 4, zy, x + w - right_x - wall_w - 4, zone_h),
                 DIM, size=label_size)

    def point(end, partner=None):
        """Where an end rests: a wall zone's middle, or on the table by a wall (at the
        height of the laser's other end)."""
        inner = {"left": left_x + wall_w, "right": right_x}
        if end.on_table:
            px = inner[end.wall] + (wall_w if end.wall == "left" else -wall_w)
            row = ("III", "II", "I").index(partner.zone) if partner is not None and \
                not partner.on_table else 1
            return px, y + row * zone_h + zone_h // 2 + zone_h // 5
        row = ("III", "II", "I").index(end.zone)
        return inner[end.wall], y + row * zone_h + zone_h // 2

    named = set()
    for problem in layout.problems:
        if isinstance(problem, Msg):
            named.update(n for n in (problem.get("laser"),) if isinstance(n, int))
        else:
            named.update(int(n) for n in re.findall(r"\blaser (\d+)\b", problem))
    width = max(3, int(w * 0.012))
    number_size = fit_size(["8"], zone_h * 0.35, zone_h * 0.35)
    for i in range(layout.lasers):
        a, b = layout.ends[2 * i], layout.ends[2 * i + 1]
        number = 4 + i
        if a is None:
            continue
        pa = point(a, b)
        if b is None:
            pygame.draw.circle(surface, _LASER, pa, width * 2)
            continue
        pb = point(b, a)
        colour = RED if number in named else GREEN if layout.legal else _LASER
        pygame.draw.line(surface, colour, pa, pb, width)
        for p, end in ((pa, a), (pb, b)):
            if end.on_table:
                pygame.draw.circle(surface, colour, p, width * 2, max(2, width // 2))
            else:
                pygame.draw.circle(surface, colour, p, width)
        # Each number at its own place along its laser, so crossing lasers keep theirs.
        along = 0.25 + 0.5 * i / max(1, layout.lasers - 1)
        mx, my = int(pa[0] + (pb[0] - pa[0]) * along), int(pa[1] + (pb[1] - pa[1]) * along)
        s = int(zone_h * 0.4)
        _rect(surface, (mx - s // 2, my - s // 2, s, s), DARK, radius=0.5)
        put_text(surface, str(number), (mx - s // 2, my - s // 2, s, s), TEXT, size=number_size)
    _verdict(surface, (x, y + plan_h + int(h * 0.03), w, h - plan_h - int(h * 0.03)), layout)


def _verdict(surface, box, layout):
    x, y, w, h = box
    typed = sum(1 for e in layout.ends if e is not None)
    if not layout.complete:
        laser = 4 + typed // 2
        code = (N_("cleptomano.setup.next_first_end") if typed % 2 == 0
                else N_("cleptomano.setup.next_second_end"))
        put_text(surface, Msg(code, laser=laser), (x, y, w, int(h * 0.4)), AMBER, "left")
        return
    if layout.legal:
        put_text(surface, say(N_("cleptomano.setup.legal_layout")), (x, y, w, int(h * 0.45)),
                 GREEN, "left")
        put_text(surface, say(N_("cleptomano.setup.check_by_eye")),
                 (x, y + int(h * 0.5), w, int(h * 0.35)), DIM, "left")
        return
    _paragraphs(surface, box, layout.problems, RED)


def _paragraphs(surface, box, texts, colour, most=0.34):
    """``texts`` word-wrapped into ``box`` at the largest size that fits them all (a line at
    most ``most`` of the box high); the lines' colours come from ``colour(text)`` when it is
    callable."""
    x, y, w, h = box
    size = fit_size(["Mg"], w, h * most)
    while True:
        lines = [(text, line) for text in texts for line in wrap_lines(text, size, w, 4)]
        line_h = get_font(size).get_linesize()
        if len(lines) * line_h <= h or size <= MIN_FONT:
            break
        size -= 1
    for i, (text, line) in enumerate(lines):
        if (i + 1) * line_h > h:
            break
        put_text(surface, line, (x, y + i * line_h, w, line_h),
                 colour(text) if callable(colour) else colour, "left", size=size)


# --- the wiring check ---------------------------------------------------------------------------

_STATE_COLOURS = {"ok": (24, 90, 48), "skipped": (60, 60, 70), "asked": (90, 64, 10),
                  "to do": PANEL}  # not words: the steps' states


def draw_wiring(surface, board, now_s=None):
    """The wiring check of ``board`` (its
    :attr:`~rig.games.cleptomano.rules.view.Scoreboard.wiring`): what to do now, where it is wired,
    every input's cell (green answered, grey skipped, amber asked, blue while it is away from rest,
    a red frame for a mix-up) and the latest verdicts."""
    view = board.wiring
    answered = sum(1 for s in view.steps if s.state == "ok")
    step = "%d/%d" % (answered, len(view.steps))
    keys = ((say(N_("cleptomano.wiring.key.back")),) if view.done else
            (say(N_("cleptomano.wiring.key.skip")), say(N_("cleptomano.wiring.key.stop"))))
    question = say(N_("cleptomano.wiring.all_done_title")) if view.done else as_text(
        view.instruction, 200)
    body = _frame(surface, say(N_("cleptomano.wiring.title")), step,
                  question.upper() if not view.done else question, None, keys, board.faults)
    x, y, w, h = body
    top_h = int(h * 0.18)
    if view.done:
        lines = tuple(as_text(line, 200) for line in view.summary)
    else:
        lines = (say(N_("cleptomano.wiring.wired_to"), where=view.where),) if view.where else ()
        if view.left_s is not None:
            # The step skipped unanswered in so many seconds, beside where it is wired.
            lines = lines + (say(N_("cleptomano.wiring.skip_in"), s=int(view.left_s + 0.999)),)
    if lines:
        size = fit_size(lines, w, top_h / len(lines) * 0.8)
        for i, line in enumerate(lines):
            put_text(surface, line, (x, y + i * top_h // len(lines), w, top_h // len(lines)),
                     AMBER if not view.done else TEXT, "left", size=size)
    grid_y = y + top_h + int(h * 0.03)
    verdict_h = int(h * 0.2)
    _wiring_grid(surface, (x, grid_y, w, h - top_h - verdict_h - int(h * 0.06)), view.steps)
    if view.lines:
        last = view.lines[-1]
        code = last.code if isinstance(last, Msg) else ""
        colour = (GREEN if code == "cleptomano.wiring.ok" else
                  RED if code == "cleptomano.wiring.wrong" else DIM)
        _paragraphs(surface, (x, y + h - verdict_h, w, verdict_h), (as_text(last, 400),),
                    colour, most=0.5)


def _wiring_grid(surface, box, steps):
    import pygame
    if not steps:
        return
    x, y, w, h = box
    columns = 6 if len(steps) > 12 else 4
    rows = -(-len(steps) // columns)
    cw, ch = w // columns, h // rows
    labels = [as_text(s.label, 40) for s in steps]
    size = fit_size(labels, cw * 0.8, ch * 0.5)
    for i, step in enumerate(steps):
        row, col = divmod(i, columns)
        cell = (x + col * cw + 2, y + row * ch + 2, cw - 4, ch - 4)
        _rect(surface, cell, LIVE if step.live else _STATE_COLOURS.get(step.state, PANEL))
        if step.state == "asked":
            _rect(surface, cell, AMBER, max(2, ch // 12))
        if step.mixed:
            _rect(surface, cell, RED, max(2, ch // 12))
        colour = DARK if step.live else TEXT if step.state in ("ok", "asked") else DIM
        drawn = put_text(surface, labels[i], cell, colour, size=size)
        if step.state == "skipped":
            pygame.draw.line(surface, DIM, (drawn.left, drawn.centery),
                             (drawn.right, drawn.centery), max(2, ch // 14))
