"""Drawing Stolen Paintings' table screen: one ``public_view`` dict onto one pygame Surface.

Pure drawing, with the display kit :mod:`rig.draw.kit` (fitted text, panels, palette):
it reads the view and the surface's size and paints, for every phase of a round:

* setup: who steals next and the standings, or the last round's reveal;
* exhibition: the countdown in big digits (red in its last 10 s) beside the 4x6 grid;
* swap: a dark screen, "DETECTIVES, CLOSE YOUR EYES" (the screen is the table's cue too);
* auction: "OPEN YOUR EYES", the 8 numbered paintings and whose marks are in (never what they
  say: the view holds no secret);
* over: the winners and the final standings.

The view comes from :func:`rig.games.stolen_paintings.rules.public_view` (with ``now_t`` so it
carries ``remaining_s``); a malformed view draws what it can and never raises.
"""

import math

from ...core.msg import N_, Msg
from ...draw.kit import (AMBER, BG, CANVAS, DARK, DIM, GOLD, GREEN, PANEL, PANEL_2, RED, TEXT,
                            as_int, as_text, countdown_text, draw_check, draw_cross,
                            draw_painting_icon, draw_panel, fit_size, get_font, is_last_seconds,
                            NAME_MARK, line_size, load_pygame, put_big, put_name, put_para,
                            put_text, words)
from ...draw.view_dict import box, get, items, mapping

FRAME = (196, 160, 96)
NIGHT = (6, 6, 12)

# Boxes the tests look into, as fractions of the window (x, y, w, h).
COUNTDOWN = (0.02, 0.12, 0.55, 0.70)
AUCTION_ROW = (0.02, 0.31, 0.96, 0.34)
REVEAL_ROW = (0.02, 0.20, 0.96, 0.44)


def draw(surface, view):
    """Draw ``view`` (a Stolen Paintings public view) onto ``surface``, filling all of it."""
    load_pygame()
    W, H = surface.get_size()
    phase = as_text(get(view, "phase"), 20)
    surface.fill(NIGHT if phase == "swap" else BG)
    if W < 8 or H < 8:
        return
    _header(surface, view, phase, W, H)
    if phase == "exhibition":
        _exhibition(surface, view, W, H)
    elif phase == "swap":
        _swap(surface, view, W, H)
    elif phase == "auction":
        _auction(surface, view, W, H)
    elif phase == "over":
        _over(surface, view, W, H)
    elif get(view, "last_round"):
        _reveal(surface, view, W, H)
    else:
        _setup(surface, view, W, H)


def _say(message):
    """``message`` (a code of the game's catalog) in the screen's language."""
    return words().text(message)


def _header(surface, view, phase, W, H):
    rounds = as_int(get(view, "rounds"))
    number = as_int(get(view, "round"))
    thief = as_text(get(view, "thief"), 40)
    if phase != "over" and number:
        left = _say(Msg("stolen_paintings.screen.header_round", round=number, rounds=rounds))
    else:
        left = _say(Msg("stolen_paintings.screen.header"))
    right = _say(Msg("stolen_paintings.screen.thief", thief=thief.upper())) \
        if thief and phase != "over" else ""
    # The name of the game and the round take the room the thief's name leaves.
    x, y, w, h = box(W, H, 0.02, 0.015, 0.96, 0.07)
    size = line_size(h)
    gap = int(w * 0.03)
    right_w = min(get_font(size).size(right)[0], int(w * 0.45)) if right else 0
    put_text(surface, left, (x, y, w - right_w - gap, h), DIM, align="left")
    if right:
        put_text(surface, right, (x + w - right_w, y, right_w, h), GOLD, align="right")


# --- the phases ---------------------------------------------------------------------------------

def _setup(surface, view, W, H):
    thief = as_text(get(view, "thief"), 40)
    draw_panel(surface, box(W, H, 0.02, 0.12, 0.52, 0.78), PANEL, 0.05)
    put_para(surface, _say(Msg("stolen_paintings.screen.is_thief", thief=thief.upper())),
         box(W, H, 0.04, 0.14, 0.48, 0.16), GOLD)
    _grid_icon(surface, box(W, H, 0.14, 0.32, 0.24, 0.22))
    lay_out = Msg("stolen_paintings.screen.lay_out", thief=thief, paintings=24, rows=4, columns=6)
    put_para(surface, _say(lay_out), box(W, H, 0.03, 0.56, 0.50, 0.33), TEXT, most=4)
    _standings(surface, view, box(W, H, 0.57, 0.12, 0.41, 0.78),
               _say(Msg("stolen_paintings.screen.scores")))


def _exhibition(surface, view, W, H):
    remaining = get(view, "remaining_s")
    if remaining is None:
        remaining = mapping(view, "settings").get("exhibition_s")
    last = is_last_seconds(remaining)
    draw_panel(surface, box(W, H, *COUNTDOWN), (70, 16, 20) if last else PANEL, 0.05)
    put_big(surface, countdown_text(remaining), box(W, H, 0.06, 0.18, 0.47, 0.58),
            RED if last else TEXT)
    put_para(surface, _say(Msg("stolen_paintings.screen.exhibition")),
         box(W, H, 0.59, 0.12, 0.40, 0.10), GOLD, most=1)
    _grid_icon(surface, box(W, H, 0.63, 0.24, 0.32, 0.28))
    put_para(surface, _say(Msg("stolen_paintings.screen.memorise")),
         box(W, H, 0.59, 0.54, 0.40, 0.28), TEXT, most=3)
    put_para(surface, _say(Msg("stolen_paintings.screen.time_out")),
         box(W, H, 0.02, 0.84, 0.96, 0.14), DIM)


def _swap(surface, view, W, H):
    thief = as_text(get(view, "thief"), 40)
    put_text(surface, _say(Msg("stolen_paintings.screen.detectives")),
             box(W, H, 0.05, 0.12, 0.90, 0.16), TEXT)
    put_text(surface, _say(Msg("stolen_paintings.screen.close_eyes")),
             box(W, H, 0.03, 0.29, 0.94, 0.20), AMBER)
    _closed_eye(surface, box(W, H, 0.40, 0.52, 0.20, 0.12))
    put_para(surface, _say(Msg("stolen_paintings.screen.swap", thief=thief, most=3, row=8)),
         box(W, H, 0.03, 0.67, 0.94, 0.31), DIM, most=3)


def _auction(surface, view, W, H):
    settings = mapping(view, "settings")
    most = as_int(settings.get("max_marks"), 3)
    put_text(surface, _say(Msg("stolen_paintings.screen.open_eyes")),
             box(W, H, 0.03, 0.10, 0.94, 0.10), GOLD)
    cost = as_int(settings.get("wrong_mark_cost"))
    if most >= 8:
        rule = N_("stolen_paintings.screen.mark_any_cost") if cost else \
            N_("stolen_paintings.screen.mark_any")
    else:
        rule = N_("stolen_paintings.screen.mark_up_to_cost") if cost else \
            N_("stolen_paintings.screen.mark_up_to")
    put_para(surface, _say(Msg(rule, most=most, cost=cost)), box(W, H, 0.02, 0.20, 0.96, 0.13), TEXT)
    _row(surface, box(W, H, *AUCTION_ROW), {}, {})
    marked = [as_text(p, 30) for p in items(view, "marked")]
    people = [as_text(p, 30) for p in items(view, "detectives")][:8]
    _ballots(surface, box(W, H, 0.02, 0.70, 0.96, 0.20), people, marked)


def _reveal(surface, view, W, H):
    last = mapping(view, "last_round")
    stolen = {as_int(n) for n in items(last, "stolen")}
    marks = {as_text(p, 30): [as_int(n) for n in m] for p, m in mapping(last, "marks").items()
             if isinstance(m, (list, tuple))}
    marked_by = {n: [p for p, m in marks.items() if n in m] for n in range(1, 9)}
    head = Msg("stolen_paintings.screen.stole", round=as_int(get(last, "round")),
               thief=as_text(get(last, "thief"), 30).upper(), paintings=tuple(sorted(stolen)))
    put_text(surface, _say(head), box(W, H, 0.03, 0.10, 0.94, 0.09), GOLD)
    _row(surface, box(W, H, *REVEAL_ROW), stolen, marked_by)
    _round_points(surface, view, last, box(W, H, 0.02, 0.66, 0.96, 0.20))
    thief = as_text(get(view, "thief"), 40)
    put_para(surface, _say(Msg("stolen_paintings.screen.next", thief=thief)),
         box(W, H, 0.02, 0.87, 0.96, 0.12), DIM, most=1)


def _over(surface, view, W, H):
    winners = [as_text(p, 30) for p in items(view, "winners")]
    how = as_text(get(view, "decided_by"), 10)
    if len(winners) == 1:
        title = _say(Msg("stolen_paintings.screen.wins", winner=winners[0].upper()))
    else:
        title = _say(Msg("stolen_paintings.screen.share", winners=" & ".join(winners).upper()))
    put_text(surface, title, box(W, H, 0.03, 0.10, 0.94, 0.14), GOLD)
    why = {"total": N_("stolen_paintings.screen.why_total"),
           "thief": N_("stolen_paintings.screen.why_thief"),
           "shared": N_("stolen_paintings.screen.why_shared")}.get(how)
    if why:
        put_para(surface, _say(Msg(why)), box(W, H, 0.03, 0.24, 0.94, 0.08), DIM, most=1)
    _standings(surface, view, box(W, H, 0.12, 0.33, 0.76, 0.62), None)


# --- pieces ---------------------------------------------------------------------------------------

def _grid_icon(surface, area):
    """The exhibition: 4 rows of 6 small framed paintings."""
    x, y, w, h = area
    cw, ch = w / 6, h / 4
    for r in range(4):
        for c in range(6):
            draw_painting_icon(surface, (int(x + c * cw), int(y + r * ch), int(cw), int(ch)), FRAME,
                               CANVAS, portrait=(r + c) % 3 == 0)


def _row(surface, area, stolen, marked_by):
    """The 8 numbered paintings.  At the reveal (``marked_by`` given) the ``stolen`` ones are
    an empty gold frame over a gold number, and under each painting are the detectives who
    marked it: a green tick for a stolen one, a red cross for a wrong mark."""
    pg = load_pygame()
    x, y, w, h = area
    slot = w // 8
    reveal = bool(marked_by)
    names_h = int(h * 0.40) if reveal else 0
    word_h = 0
    icon_h = int((h - names_h - word_h) * 0.74)
    number_h = h - names_h - word_h - icon_h
    line_h = names_h // 3
    names = [p for who in marked_by.values() for p in who] or ["-"]
    size = fit_size(names, slot - line_h - slot * 0.12, line_h * 0.8) if reveal else 0
    for i in range(8):
        n, sx = i + 1, x + i * slot
        taken = n in stolen
        draw_painting_icon(surface, (sx, y, slot, icon_h), GOLD if taken else FRAME,
                           DARK if taken else CANVAS, portrait=True)
        put_text(surface, str(n), (sx, y + icon_h, slot, number_h), GOLD if taken else TEXT)
        who = marked_by.get(n, [])
        shown = who if len(who) <= 3 else who[:2] + [
            _say(Msg("stolen_paintings.screen.more", n=len(who) - 2))]
        top = y + icon_h + number_h + word_h
        for j, name in enumerate(shown):
            ly = top + j * line_h
            if j < len(who) and name == who[j]:
                mark = (sx + int(slot * 0.06), ly + line_h // 5, line_h * 3 // 5,
                        line_h * 3 // 5)
                if taken:
                    draw_check(surface, mark, GREEN, max(2, line_h // 6))
                else:
                    draw_cross(surface, mark, RED, max(2, line_h // 7))
            # Details read up close (who marked which painting), all at one size: shrunk
            # below the floor rather than cut (the points row below says each name at it).
            put_text(surface, name, (sx + int(slot * 0.06) + line_h, ly,
                                     slot - line_h - int(slot * 0.1), line_h),
                     GREEN if taken else DIM, align="left", size=size)
    line_y = y + icon_h + number_h + word_h
    pg.draw.line(surface, PANEL_2, (x, line_y), (x + w, line_y), max(1, h // 90))


def _ballots(surface, area, people, marked):
    """One chip per detective: ticked when their marks are in."""
    x, y, w, h = area
    if not people:
        return
    per_row = min(len(people), 4)
    rows = (len(people) + per_row - 1) // per_row
    cw, ch = w // per_row, h // rows
    marking, done_word = _say(Msg("stolen_paintings.screen.marking")), \
        _say(Msg("stolen_paintings.screen.marked"))
    size = fit_size(people + [marking], cw * 0.55, ch * 0.45)
    for i, name in enumerate(people):
        r, c = divmod(i, per_row)
        cx, cy = x + c * cw, y + r * ch
        done = name in marked
        draw_panel(surface, (cx + 4, cy + 4, cw - 8, ch - 8), (14, 60, 32) if done else PANEL, 0.2,
                   border=GREEN if done else AMBER)
        icon = (cx + ch // 4, cy + ch // 4, ch // 2, ch // 2)
        if done:
            draw_check(surface, icon, GREEN, max(2, ch // 12))
        put_name(surface, name, (cx + ch, cy, cw - ch - 8, ch // 2 + 4), TEXT, align="left",
                 size=size)
        put_text(surface, done_word if done else marking,
                 (cx + ch, cy + ch // 2 - 2, cw - ch - 8, ch // 2 - 4),
                 GREEN if done else AMBER, align="left", size=int(size * 0.8))


def _round_points(surface, view, last, area):
    """The round's points beside each total."""
    x, y, w, h = area
    points = mapping(last, "points")
    totals = mapping(view, "totals")
    thief = as_text(get(last, "thief"), 30)
    players = [as_text(p, 30) for p in items(view, "players")][:8]
    if not players:
        return
    cw = w // len(players)
    as_thief = _say(Msg("stolen_paintings.screen.name_thief", player=thief))
    before_name, _, after_name = _say(Msg("stolen_paintings.screen.name_thief",
                                          player=NAME_MARK)).partition(NAME_MARK)
    size = fit_size(players + [as_thief], cw * 0.9, h * 0.28)
    for i, name in enumerate(players):
        cx = x + i * cw
        draw_panel(surface, (cx + 3, y, cw - 6, h), PANEL if i % 2 == 0 else PANEL_2, 0.1)
        label = (cx + 4, y + int(h * 0.04), cw - 8, int(h * 0.28))
        if name != thief:
            put_name(surface, name, label, TEXT, align="center", size=size)
        else:                          # "Maximil… (thief)": the name shortened, its role whole
            put_name(surface, name, label, GOLD, align="center", size=size, prefix=before_name,
                     suffix=after_name)
        gained = as_int(points.get(name))
        put_big(surface, "%+d" % gained, (cx + cw // 4, y + int(h * 0.36), cw // 2,
                                          int(h * 0.34)), GREEN if gained > 0 else DIM)
        total = Msg("stolen_paintings.screen.total", total=as_int(totals.get(name)))
        put_text(surface, _say(total),
                 (cx + 4, y + int(h * 0.74), cw - 8, int(h * 0.24)), DIM, size=int(size * 0.9))


def _standings(surface, view, area, heading):
    """Every player's total and score as thief, best first; the winners gold."""
    pg = load_pygame()
    x, y, w, h = area
    if heading:
        put_text(surface, heading, (x, y, w, int(h * 0.1)), DIM)
        y, h = y + int(h * 0.11), h - int(h * 0.11)
    totals = mapping(view, "totals")
    as_thief = mapping(view, "thief_scores")
    winners = {as_text(p, 30) for p in items(view, "winners")}
    players = [as_text(p, 30) for p in items(view, "players")][:8]
    players.sort(key=lambda p: (-as_int(totals.get(p)), -as_int(as_thief.get(p), -1)))
    row_h = min(h // (len(players) + 1), int(w * 0.16)) if players else h
    name_w, thief_w = int(w * 0.5), int(w * 0.25)
    heads = (_say(Msg("stolen_paintings.screen.as_thief")),
             _say(Msg("stolen_paintings.screen.totals")))
    head = fit_size(heads, thief_w * 0.9, row_h * 0.45)
    put_text(surface, heads[0], (x + name_w, y, thief_w, row_h), DIM, size=head)
    put_text(surface, heads[1], (x + name_w + thief_w, y, w - name_w - thief_w, row_h), DIM,
             size=head)
    size = fit_size(players or ["-"], name_w * 0.9, row_h * 0.6)
    for i, name in enumerate(players):
        ry = y + (i + 1) * row_h
        pg.draw.rect(surface, PANEL if i % 2 == 0 else PANEL_2, pg.Rect(x, ry, w, row_h))
        colour = GOLD if name in winners else TEXT
        put_name(surface, name, (x + int(w * 0.03), ry, name_w, row_h), colour, align="left",
                 size=size)
        played = as_thief.get(name)
        put_text(surface, "-" if played is None else str(as_int(played)),
                 (x + name_w, ry, thief_w, row_h), DIM if played is None else TEXT, size=size)
        put_text(surface, str(as_int(totals.get(name))),
                 (x + name_w + thief_w, ry, w - name_w - thief_w, row_h), colour, size=size)


def _closed_eye(surface, area):
    """A closed eye: the lid's curve and its lashes."""
    pg = load_pygame()
    x, y, w, h = area
    width = max(3, h // 10)
    points = [(x + w * i / 40, y + h * 0.3 + h * 0.35 * math.sin(math.pi * i / 40))
              for i in range(41)]
    pg.draw.lines(surface, AMBER, False, [(int(a), int(b)) for a, b in points], width)
    for k in range(1, 6):
        px, py = points[k * 40 // 6]
        pg.draw.line(surface, AMBER, (int(px), int(py)),
                     (int(px + (k - 3) * w * 0.03), int(py + h * 0.3)), width)


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw the host's snapshot (a
    :class:`~rig.core.gamekit.GameScreen`) of this game onto ``surface``."""
    draw(surface, snapshot.view)
