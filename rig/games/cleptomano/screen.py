"""Drawing the score display: one :class:`rig.games.cleptomano.rules.view.Scoreboard` onto one
pygame Surface.

Pure drawing: :func:`draw` reads the snapshot and the surface's size and paints; it keeps no game
state, reads no clock (``now_s`` is passed in, only for blinking) and opens nothing, so the same
code renders the live window, headless screenshots and test frames.

Everything is sized from the surface (players read it from 2 m on a 7-inch 800x480 panel or a
1080p TV): :func:`regions` gives the layout as fractions of the window, and every text is fitted
into its box with the display kit (:mod:`rig.draw.kit`: palette, fonts, shapes).  What the
table reads from across it (player names, the museum's checklist) never shrinks below :func:`legible_size`: a name too long
for its box is abbreviated, a long checklist item wraps, and what does not fit is counted.  The
font has no "∞" glyph, so the infinity sign is drawn as a curve.  pygame is imported inside the
functions so importing this module (for :func:`countdown_text`, :func:`regions`) never needs
pygame.
"""

from typing import Dict

from ...core.gamekit import own_view
from ...core.msg import N_

from .rules.calls import corridor_word, guard_note, level_name
from .rules.titles import title_msg
from .rules.view import Scoreboard, shouted
from ...draw.kit import (AMBER, BG, BROKEN, CANVAS, DARK, DIM, GOLD, GREEN, IVORY, PANEL,
                            PANEL_2, RED, TEXT, Box, as_dict, as_finite, as_int, as_text,
                            as_tuple, boxes, clock_text, countdown_text, draw_check, draw_cross,
                            draw_infinity, draw_painting_icon, draw_panel, draw_relic_icon,
                            fit_size, floor_of, get_font, is_last_seconds, line_size,
                            load_pygame, put_big, put_name, put_text, say,
                            wrap_lines)
from ...draw.phones import draw_phones


BANNER_COLOURS = {
    "caught": (200, 22, 30),
    "escaped": (22, 150, 70),
    "round": (40, 90, 205),
    "match": (215, 160, 20),
    "tiebreak": (130, 50, 185),
    "title": (15, 125, 140),
    "resumed": (70, 80, 115),
}
BANNER_DEFAULT = (70, 80, 115)
_DARK_TEXT_BANNERS = ("match",)

STRIKES = 3
_MAIN_TOP, _MAIN_BOTTOM = 0.115, 0.835


def regions(size, top=None) -> Dict[str, Box]:
    """The layout for a window of ``size`` (w, h): name -> (x, y, w, h) in pixels.

    ``top`` (a fraction of the height) moves the top of the screen's content down, squeezing
    it, so that fault badges taller than the header cover nothing.  Tests use it to check
    pixels in the right places; :func:`draw` uses it to paint."""
    edge = {
        "header": (0.0, 0.0, 1.0, 0.10),
        "round_info": (0.02, 0.0, 0.56, 0.10),
        "faults": (0.59, 0.012, 0.40, 0.076),
        "message": (0.0, 0.845, 1.0, 0.075),
        "keyhelp": (0.0, 0.922, 1.0, 0.078),
    }
    content = {
        "main": (0.02, 0.115, 0.96, 0.72),
        # turn
        "countdown": (0.02, 0.115, 0.52, 0.50),
        "people": (0.02, 0.63, 0.52, 0.205),
        "strikes": (0.57, 0.115, 0.41, 0.185),
        "loot": (0.57, 0.315, 0.41, 0.305),
        "score": (0.57, 0.635, 0.41, 0.20),
        # between
        "checklist": (0.02, 0.115, 0.50, 0.44),
        "next": (0.02, 0.575, 0.50, 0.26),
        "table": (0.54, 0.115, 0.44, 0.72),
        # over
        "over_title": (0.02, 0.115, 0.96, 0.14),
        "over_table": (0.02, 0.27, 0.96, 0.565),
    }
    if top is not None and top > _MAIN_TOP:
        k = (_MAIN_BOTTOM - top) / (_MAIN_BOTTOM - _MAIN_TOP)
        content = {name: (x, top + (y - _MAIN_TOP) * k, w, h * k)
                   for name, (x, y, w, h) in content.items()}
    r = boxes(size, dict(edge, **content))
    # Three strike marks under the "LASER TOUCHES" label.
    sx, sy, sw, sh = r["strikes"]
    label_h = int(sh * 0.34)
    mark = min(int((sh - label_h) * 0.92), int(sw / 4.2))
    gap = (sw - STRIKES * mark) // (STRIKES + 1)
    for i in range(STRIKES):
        r["strike%d" % i] = (sx + gap + i * (mark + gap), sy + label_h + (sh - label_h - mark) // 2,
                             mark, mark)
    # Five loot slots.
    lx, ly, lw, lh = r["loot"]
    label_h = int(lh * 0.2)
    slot_w = lw // 5
    for i in range(5):
        r["piece%d" % i] = (lx + i * slot_w, ly + label_h, slot_w, lh - label_h)
    return r


# --- The screens ----------------------------------------------------------------------------------

def draw(surface, board, now_s=None) -> None:
    """Draw ``board`` (a :class:`rig.games.cleptomano.rules.view.Scoreboard`) onto ``surface``,
    filling all of it.

    ``now_s`` (any monotonic seconds) only drives blinking; None draws a still frame."""
    load_pygame()
    W, H = surface.get_size()
    if W < 8 or H < 8:
        surface.fill(BG)
        return
    r, faults = layout(surface, board)
    now = as_finite(now_s)
    banner = board.banner
    if banner is not None:
        _draw_banner(surface, banner, _below(faults, H))
    else:
        surface.fill(BG)
        _draw_header(surface, board, r)
        phase = board.phase
        if phase == "turn":
            _draw_turn(surface, board, r, now)
        elif phase == "over":
            _draw_over(surface, board, r)
        else:
            _draw_between(surface, board, r)
        _draw_keyhelp(surface, board, r)
    _draw_message(surface, board, r)
    _draw_faults(surface, faults)


def layout(surface, board):
    """Where ``board`` is drawn on ``surface``: ``(regions, fault badges)``.  Fault badges
    that reach below the header move the content down, so that they cover nothing."""
    W, H = surface.get_size()
    r = regions((W, H))
    faults = _fault_badges(surface, board, r)
    if _below(faults, H) > r["main"][1]:
        r = regions((W, H), _below(faults, H) / H)
    return r, faults


def _below(badges, H):
    """The first row clear of the fault badges (0 without any)."""
    if not badges:
        return 0
    x, y, w, h = badges[-1][0]
    return y + h + int(H * 0.015)


def _draw_header(surface, board, r):
    x, y, w, h = r["round_info"]
    parts = []
    if board.tiebreak:
        bw, bh = int(w * 0.34), int(h * 0.72)
        by = y + int(h * 0.14)
        draw_panel(surface, (x, by, bw, bh), BANNER_COLOURS["tiebreak"], 0.2)
        put_text(surface, say(N_("cleptomano.screen.tiebreak")),
                 (x + bh // 3, by + bh // 8, bw - 2 * (bh // 3), bh * 3 // 4),
                 TEXT)
        x += bw + int(h * 0.3)
        w -= bw + int(h * 0.3)
    phase = board.phase
    if phase == "over":
        parts.append(say(N_("cleptomano.screen.match_over")))
    elif not board.tiebreak:
        parts.append(say(N_("cleptomano.screen.round"), number=as_int(board.round)))
    level = as_text(level_name(as_text(board.level, 20)), 40).upper()
    if level:
        parts.append(level)
    timer = as_finite(board.timer_s)
    parts.append(say(N_("cleptomano.screen.no_limit")) if timer is None
                 else say(N_("cleptomano.screen.seconds"), s=as_int(round(timer))))
    lasers = as_int(board.lasers)
    parts.append(say(N_("cleptomano.screen.lasers"), n=lasers))
    corridor = as_text(corridor_word(as_text(board.corridor, 20)), 40)
    if corridor:
        parts.append(corridor)
    if not as_tuple(board.faults):      # no fault badges: the line may take the whole header
        hx, _, hw, _ = r["header"]
        w = hx + int(hw * 0.98) - x
    box = (x, y + int(h * 0.18), w, int(h * 0.64))
    # A longer language's words stay legible: the last details (corridor, lasers) give way
    # before the line would shrink below the floor; the round and the level always stay.
    floor = min(floor_of(surface), line_size(box[3]))
    while len(parts) > 2 and fit_size([" · ".join(parts)], w, box[3]) < floor:
        parts.pop()
    put_text(surface, " · ".join(parts), box, DIM, align="left")


def _draw_turn(surface, board, r, now):
    pg = load_pygame()
    remaining = board.remaining_s
    timed = as_finite(remaining) is not None
    last = timed and is_last_seconds(remaining)
    # Countdown panel
    cx, cy, cw, ch = r["countdown"]
    flash = last and now is not None and (now % 1.0) < 0.5
    draw_panel(surface, r["countdown"], (70, 16, 20) if flash else PANEL, 0.06)
    pad = int(min(cw, ch) * 0.07)
    inner = (cx + pad, cy + pad, cw - 2 * pad, ch - 2 * pad)
    if timed:
        put_big(surface, countdown_text(remaining), inner, RED if last else TEXT)
    else:
        ix, iy, iw, ih = inner
        draw_infinity(surface, (ix, iy, iw, int(ih * 0.52)), TEXT)
        put_big(surface, clock_text(board.elapsed_s),
                (ix + iw // 6, iy + int(ih * 0.62), iw * 2 // 3, int(ih * 0.38)), DIM)
    # Thief and guard
    px, py, pw, ph = r["people"]
    row = ph // 2
    label_w = int(pw * 0.30)
    thief = as_text(board.thief, 60) or "—"
    guard = as_text(board.guard, 60) or "—"
    thief_word = say(N_("cleptomano.screen.thief"))
    guard_word = say(N_("cleptomano.screen.guard"))
    lsize = fit_size([thief_word, guard_word], label_w - 6, row * 0.5)
    put_text(surface, thief_word, (px, py, label_w, row), DIM, "left", size=lsize)
    put_text(surface, guard_word, (px, py + row, label_w, row), DIM, "left", size=lsize)
    pill_w = int(pw * 0.38)
    put_name(surface, thief, (px + label_w, py, pw - label_w - pill_w - 6, row), TEXT, "left",
             cap=int(row * 1.1))
    put_name(surface, guard, (px + label_w, py + row, pw - label_w, row), TEXT, "left",
             cap=int(row * 1.1), suffix=_note(thief, guard))
    inside = bool(board.hand_inside)
    pill = (px + pw - pill_w, py + int(row * 0.2), pill_w, int(row * 0.6))
    pill_text = (pill[0] + pill[3] // 6, pill[1] + pill[3] // 8, pill[2] - pill[3] // 3,
                 pill[3] * 3 // 4)
    if inside:
        draw_panel(surface, pill, AMBER, 0.3)
        put_text(surface, say(N_("cleptomano.screen.hand_in")), pill_text, DARK)
    else:
        draw_panel(surface, pill, BG, 0.3, border=DIM)
        put_text(surface, say(N_("cleptomano.screen.hand_out")), pill_text, DIM)
    # Strikes
    sx, sy, sw, sh = r["strikes"]
    touches = as_int(board.touches)
    put_text(surface, say(N_("cleptomano.screen.laser_touches")), (sx, sy, sw, int(sh * 0.30)), DIM)
    for i in range(STRIKES):
        mx, my, mw, mh = r["strike%d" % i]
        centre = (mx + mw // 2, my + mh // 2)
        rad = mw // 2
        if i < touches:
            pg.draw.circle(surface, RED, centre, rad)
            inset = int(rad * 0.42)
            draw_cross(surface, (mx + inset, my + inset, mw - 2 * inset, mh - 2 * inset), TEXT,
                       max(2, rad // 5))
        else:
            pg.draw.circle(surface, DIM, centre, rad, max(2, rad // 8))
    # Loot
    _draw_loot(surface, board, r)
    # Score
    x, y, w, h = r["score"]
    if board.tiebreak:
        # Tiebreak: fastest painting wins and each touch adds 1 s to the time mark.
        put_text(surface, say(N_("cleptomano.screen.penalty")), (x, y, int(w * 0.45), h), DIM)
        put_big(surface, "+%d s" % max(0, touches),
                (x + int(w * 0.48), y + int(h * 0.2), int(w * 0.5), int(h * 0.6)), GOLD)
    else:
        put_text(surface, say(N_("cleptomano.screen.score")), (x, y, int(w * 0.45), h), DIM)
        put_big(surface, str(as_int(board.turn_score)),
                (x + int(w * 0.48), y + int(h * 0.1), int(w * 0.5), int(h * 0.8)), GOLD)


_STATE_WORD = {"in place": N_("cleptomano.screen.in_place"),  # not words: a state's key
               "taken": N_("cleptomano.screen.taken"), "broken": N_("cleptomano.screen.broken")}


def _note(thief, guard):
    """The suffix after the guard's name when the guard steals (`` (own turn)``), or ""."""
    note = guard_note(thief, guard)
    return " " + as_text(note, 40) if note is not None else ""


def _draw_loot(surface, board, r):
    lx, ly, lw, lh = r["loot"]
    put_text(surface, say(N_("cleptomano.screen.loot")), (lx, ly, lw, int(lh * 0.18)), DIM)
    pieces = as_tuple(board.pieces)[:5]
    slot_w = r["piece0"][2]
    word_size = fit_size([say(code) for code in _STATE_WORD.values()], slot_w * 0.92,
                         r["piece0"][3] * 0.16)
    for i, piece in enumerate(pieces):
        x, y, w, h = r["piece%d" % i]
        kind = as_text(piece.kind, 20)
        number = as_int(piece.number)
        state = as_text(piece.state, 20)
        icon = (x + int(w * 0.08), y, int(w * 0.84), int(h * 0.58))
        name_box = (x, y + int(h * 0.60), w, int(h * 0.18))
        word_box = (x, y + int(h * 0.80), w, int(h * 0.18))
        if state == "taken":
            body, word_col = GOLD, GOLD
        elif state == "broken":
            body, word_col = BROKEN, BROKEN
        elif state == "in place":  # not words: a state's key
            body, word_col = IVORY, DIM
        else:
            body, word_col = DIM, DIM
        if kind == "painting":
            canvas = GOLD if state == "taken" else (
                CANVAS if state == "in place" else BG)  # not words: a state's key
            draw_painting_icon(surface, icon, body, canvas, portrait=(number % 2 == 0))
        else:
            draw_relic_icon(surface, icon, body, tipped=(state == "broken"))
        ix, iy, iw, ih = icon
        u = min(iw, ih)
        mark = (ix + (iw - u) // 2 + u // 6, iy + u // 6, u * 2 // 3, u * 2 // 3)
        if state == "broken":
            draw_cross(surface, mark, RED, max(3, u // 9))
        elif state == "taken":
            draw_check(surface, mark, GREEN, max(3, u // 8))
        short = ("P%d" if kind == "painting" else "R%d" if kind == "relic" else "?%d") % number
        put_text(surface, short, name_box, TEXT)
        code = _STATE_WORD.get(state)
        put_text(surface, say(code) if code else (state.upper() or "?"), word_box, word_col,
                 size=word_size)


def _draw_between(surface, board, r):
    x, y, w, h = r["checklist"]
    problems = [as_text(p, 120) for p in as_tuple(board.ready_problems)]
    problems = [p for p in problems if p]
    checklist = r["checklist"]
    if board.awaiting_loot:
        # The prompt takes the top of the panel; the checklist stays below it, so a painting
        # still off its stand shows before anyone presses START.
        _draw_haul_prompt(surface, (x, y, w, int(h * 0.40)))
        checklist = (x, y + int(h * 0.45), w, h - int(h * 0.45))
    health = [as_text(p, 160) for p in as_tuple(getattr(board, "health", ()))]
    health = [p for p in health if p]
    if problems:
        _draw_not_ready(surface, problems, checklist)
    else:
        if health:
            # The sensor health takes the lower part of the ready panel (issue 31).
            x, y, w, h = checklist
            split = int(h * 0.36)
            _draw_health(surface, health, (x, y + split + int(h * 0.03), w,
                                           h - split - int(h * 0.03)))
            checklist = (x, y, w, split)
        x, y, w, h = checklist
        draw_panel(surface, checklist, (14, 60, 32), 0.05, border=GREEN)
        pad = int(h * 0.08)
        put_text(surface, say(N_("cleptomano.screen.ready")),
                 (x + pad, y + pad, w - 2 * pad, int(h * 0.34)), GREEN)
        put_text(surface, say(N_("cleptomano.screen.press_start")),
                 (x + pad, y + int(h * 0.52), w - 2 * pad, int(h * 0.3)), TEXT)
    # Whose move
    x, y, w, h = r["next"]
    row = h // 2
    label_w = int(w * 0.42)
    next_word = say(N_("cleptomano.screen.next_thief"))
    guard_word = say(N_("cleptomano.screen.guard"))
    lsize = fit_size([next_word, guard_word], label_w - 6, row * 0.45)
    put_text(surface, next_word, (x, y, label_w, row), DIM, "left", size=lsize)
    put_text(surface, guard_word, (x, y + row, label_w, row), DIM, "left", size=lsize)
    nt = as_text(board.next_thief, 60)
    ng = as_text(board.next_guard, 60)
    if nt:
        put_name(surface, nt, (x + label_w, y, w - label_w, row), TEXT, cap=int(row * 1.05))
    else:
        put_text(surface, say(N_("cleptomano.screen.choose_thief")),
                 (x + label_w, y, w - label_w, row), AMBER, "left", cap=int(row * 0.5))
    if ng:
        put_name(surface, ng, (x + label_w, y + row, w - label_w, row), TEXT,
                 cap=int(row * 1.05), suffix=_note(nt, ng))
    else:
        put_text(surface, say(N_("cleptomano.screen.choose_guard")),
                 (x + label_w, y + row, w - label_w, row), AMBER, "left", cap=int(row * 0.5))
    table = r["table"]
    phones = getattr(board, "phones", None)
    if phones is not None:
        # The phones' QR code and pairing code take the lower part of the rounds' column.
        tx, ty, tw, th = table
        split = int(th * 0.56)
        table = (tx, ty, tw, split)
        draw_phones(surface, phones, (tx, ty + split + int(th * 0.03), tw,
                                      th - split - int(th * 0.03)))
    _draw_table(surface, board, table, say(N_("cleptomano.screen.rounds")))


def _draw_haul_prompt(surface, box):
    x, y, w, h = box
    draw_panel(surface, box, (70, 50, 10), 0.08, border=AMBER)
    pad = int(h * 0.1)
    put_text(surface, say(N_("cleptomano.screen.confirm_haul")),
             (x + pad, y + pad, w - 2 * pad, int(h * 0.42)), AMBER)
    put_text(surface, say(N_("cleptomano.screen.haul_keys")),
             (x + pad, y + int(h * 0.58), w - 2 * pad, int(h * 0.3)), TEXT)


def _draw_not_ready(surface, problems, box):
    """The red checklist: what keeps the museum from being ready, each item at a legible size
    (wrapped onto a second line if need be); what does not fit is counted ("… and 2 more")."""
    _draw_list(surface, say(N_("cleptomano.screen.not_ready")), problems, box, RED,
               (60, 18, 24))


def _draw_health(surface, warnings, box):
    """The sensor health's warnings on the ready page (the museum is ready; the box wants a
    look), amber, each named with its fix, as the red checklist is drawn."""
    _draw_list(surface, say(N_("rig.health.heading")), warnings, box, AMBER, (60, 42, 10))


def _draw_list(surface, title, problems, box, colour, fill):
    x, y, w, h = box
    draw_panel(surface, box, fill, 0.05, border=colour)
    pad = max(2, int(h * 0.05))
    title_h = max(int(h * 0.2), int(surface.get_height() * 0.06))
    put_text(surface, title, (x + pad, y + pad, w - 2 * pad, title_h), colour)
    top = y + pad + int(title_h * 1.2)
    room = y + h - pad - top
    line_h = max(1, min(int(h * 0.15), room // min(5, len(problems))))
    text_w = w - 2 * pad - line_h
    size = max(fit_size(problems[:5], text_w, line_h * 0.8), floor_of(surface))
    size = min(size, line_size(room))
    line_h = max(line_h, int(get_font(size).get_height() * 1.15))
    items = [wrap_lines(p, size, text_w, 2) for p in problems]
    fit = max(1, room // line_h)
    shown = len(items)
    while shown > 1 and sum(map(len, items[:shown])) + (shown < len(items)) > fit:
        shown -= 1
    rows = []
    for lines in items[:shown]:
        rows += [(i == 0, line) for i, line in enumerate(lines)]
    if shown < len(items):
        rows.append((False, say(N_("cleptomano.screen.more"), n=len(items) - shown)))
    for i, (first, line) in enumerate(rows[:fit]):
        ly = top + i * line_h
        if first:
            m = int(line_h * 0.5)
            draw_cross(surface, (x + pad, ly + (line_h - m) // 2, m, m), colour,
                       max(2, m // 5))
        put_text(surface, line, (x + pad + line_h, ly, text_w, line_h), TEXT, "left", size=size)


def _draw_over(surface, board, r):
    winner = as_text(board.winner, 60)
    title = board.title
    if isinstance(title, str):      # the engine's (and the tournament's) English title
        title = title_msg(title)
    title = as_text(title, 120)
    if winner:
        line, colour = say(N_("cleptomano.screen.wins_match"), winner=winner).upper(), GOLD
    elif title:
        line, colour = title, GOLD
    else:
        line, colour = say(N_("cleptomano.screen.match_over")), TEXT
    put_text(surface, line, r["over_title"], colour)
    _draw_table(surface, board, r["over_table"], None)


def _table_players(board):
    names = [as_text(p, 60) for p in as_tuple(board.players)]
    seen = set(names)
    for row in as_tuple(board.rounds):
        for p in as_dict(row.scores):
            p = as_text(p, 60)
            if p not in seen:
                seen.add(p)
                names.append(p)
    for p in as_dict(board.round_wins):
        p = as_text(p, 60)
        if p not in seen:
            seen.add(p)
            names.append(p)
    return names[:12]


def _draw_table(surface, board, box, heading):
    """Every player's score per round, the round winners highlighted, and the round wins."""
    pg = load_pygame()
    x, y, w, h = box
    if heading:
        put_text(surface, heading, (x, y, w, int(h * 0.09)), DIM)
        y += int(h * 0.1)
        h -= int(h * 0.1)
    players = _table_players(board)
    rows = [r for r in as_tuple(board.rounds) if r is not None]
    if not players:
        put_text(surface, say(N_("cleptomano.screen.no_players")), (x, y, w, int(h * 0.15)), DIM)
        return
    # "Maximiliano" fits at the legible floor; a longer name ("Marie-Éléonore") takes room from
    # the rounds' columns (up to 55 % of the table) before it is shortened.
    floor_size = min(floor_of(surface), line_size(min(int(h / (len(players) + 1)),
                                                      int(w * 0.16)) * 0.8))
    longest = max(get_font(floor_size).size(p)[0] for p in players)
    name_w = min(int(w * 0.55), max(int(w * 0.42), int(longest / 0.94) + 4))
    wins_w = int(w * 0.17)
    rest = w - name_w - wins_w
    max_cols = max(1, int(rest / max(1, w * 0.11)))
    shown = rows[-max_cols:]
    cut = len(rows) > len(shown)
    col_w = rest // max(1, len(shown)) if shown else rest
    row_h = min(int(h / (len(players) + 1)), int(w * 0.16))
    heads = ["R%d" % as_int(rw.number) for rw in shown]
    wins_word = say(N_("cleptomano.screen.wins"))
    size = fit_size(heads + [wins_word], min(col_w, wins_w) * 0.9, row_h * 0.55)
    # One size for every name, as large as the longest allows but never below the legible
    # floor: at the floor a longer name is shortened instead (put_name).
    name_size = fit_size(players, name_w * 0.94, row_h * 0.62)
    floor = floor_of(surface)
    if name_size < floor:
        name_size = min(floor, line_size(row_h * 0.8))
    put_text(surface, "…" if cut else "", (x, y, name_w, row_h), DIM, size=size)
    for j, head in enumerate(heads):
        put_text(surface, head, (x + name_w + j * col_w, y, col_w, row_h), DIM, size=size)
    put_text(surface, wins_word, (x + name_w + len(shown) * col_w, y, wins_w, row_h), DIM,
             size=size)
    wins = {as_text(k, 60): v for k, v in as_dict(board.round_wins).items()}
    winner = as_text(board.winner, 60)
    cell_size = fit_size(["88"], col_w * 0.8, row_h * 0.62)
    for i, p in enumerate(players):
        ry = y + (i + 1) * row_h
        pg.draw.rect(surface, PANEL if i % 2 == 0 else PANEL_2, pg.Rect(x, ry, w, row_h))
        put_name(surface, p, (x + int(name_w * 0.04), ry, int(name_w * 0.94), row_h),
                 GOLD if p and p == winner else TEXT, "left", size=name_size)
        for j, rw in enumerate(shown):
            cell = (x + name_w + j * col_w, ry, col_w, row_h)
            scores = {as_text(k, 60): v for k, v in as_dict(rw.scores).items()}
            won = p in [as_text(q, 60) for q in as_tuple(rw.winners)]
            score = scores.get(p)
            text = "–" if score is None or as_finite(score) is None else str(as_int(score))
            if won:
                inset = int(min(col_w, row_h) * 0.12)
                draw_panel(surface,
                           (cell[0] + inset, ry + inset, col_w - 2 * inset, row_h - 2 * inset),
                           GOLD, 0.25)
                put_text(surface, text, cell, DARK, size=cell_size)
            else:
                put_text(surface, text, cell, TEXT if score is not None else DIM, size=cell_size)
        n = as_int(wins.get(p, 0))
        put_text(surface, str(n), (x + name_w + len(shown) * col_w, ry, wins_w, row_h),
                 GOLD if n else TEXT, size=cell_size)


def _draw_banner(surface, banner, clear_top):
    """A full-screen banner in the kind's colour: the big word, then up to four detail lines,
    centred between ``clear_top`` (below any fault badges) and the message strip."""
    W, H = surface.get_size()
    kind = as_text(banner.kind, 20)
    colour = BANNER_COLOURS.get(kind, BANNER_DEFAULT)
    surface.fill(colour)
    fg = DARK if kind in _DARK_TEXT_BANNERS else TEXT
    title = shouted(kind, as_text(banner.title, 120))
    lines = [as_text(line, 160) for line in as_tuple(banner.lines)]
    lines = [line for line in lines if line and line != title][:4]
    heading_h = int(H * 0.12) if kind == "title" else 0
    title_h = int(H * (0.34 if lines else 0.5))
    gap = int(H * 0.04)
    line_h = min(int(H * 0.11), int(H * 0.4) // max(1, len(lines)))
    block = heading_h + title_h + (gap + line_h * len(lines) if lines else 0)
    room = int(H * 0.84) - int(clear_top)
    if clear_top and block > room:     # fault badges above: the banner shrinks to fit below
        k = room / block
        heading_h, title_h, gap, line_h = (int(v * k) for v in (heading_h, title_h, gap, line_h))
        block = heading_h + title_h + (gap + line_h * len(lines) if lines else 0)
    top = max(int(H * 0.03), int(clear_top) + (room - block) // 2)
    if heading_h:
        put_text(surface, say(N_("cleptomano.screen.your_title")),
                 (int(W * 0.05), top, int(W * 0.9), heading_h * 5 // 6), fg)
        top += heading_h
    tw = int(W * 0.92)
    size = fit_size([title], tw, title_h)
    if title and size < title_h * 0.6 and " " in title:
        # A long title (the solo heist's criminal titles): wrap it rather than shrink it away.
        size = fit_size([title], tw * 2.2, title_h * 0.5)
        wrapped = wrap_lines(title, size, tw, 3)
        size = fit_size(wrapped, tw, title_h / len(wrapped))
        lh = title_h // len(wrapped)
        for i, line in enumerate(wrapped):
            put_text(surface, line, (int(W * 0.04), top + i * lh, tw, lh), fg, size=size)
    else:
        put_text(surface, title, (int(W * 0.04), top, tw, title_h), fg, size=size)
    y = top + title_h + gap
    if lines:
        size = fit_size(lines, int(W * 0.9), line_h * 0.85)
        for i, line in enumerate(lines):
            put_text(surface, line, (int(W * 0.05), y + i * line_h, int(W * 0.9), line_h), fg,
                     size=size)


def _draw_message(surface, board, r):
    pg = load_pygame()
    msg = as_text(board.message, 300)
    if not msg:
        return
    x, y, w, h = r["message"]
    box = (x + int(w * 0.02), y + int(h * 0.1), int(w * 0.96), int(h * 0.8))
    floor = min(floor_of(surface), line_size(box[3]))
    size = fit_size([msg], box[2], box[3])
    # Drawn at a size chosen here, legible either way (one line at the floor or more, else two
    # lines at the floor): every language draws the message the same way for kit.fits().
    if size >= floor:
        pg.draw.rect(surface, (52, 44, 12), pg.Rect(x, y, w, h))
        put_text(surface, msg, box, (255, 220, 90), size=size)
        return
    # Too long for one legible line (a longer language): two lines, over the key help, for
    # the few seconds the message stays.
    kx, ky, kw, kh = r["keyhelp"]
    h = ky + kh - y
    pg.draw.rect(surface, (52, 44, 12), pg.Rect(x, y, w, h))
    row = h // 2
    size = min(floor, line_size(row * 0.9))
    lines = wrap_lines(msg, size, box[2], 2)
    size = min(size, fit_size(lines, box[2], row * 0.9))
    for i, line in enumerate(lines):
        put_text(surface, line, (box[0], y + i * row, box[2], row), (255, 220, 90), size=size)


def _draw_keyhelp(surface, board, r):
    """The guard's keys, in equal cells: one row when legible, else two."""
    items = [as_text(k, 60) for k in as_tuple(board.key_help)]
    items = [k for k in items if k][:8]
    if not items:
        return
    x, y, w, h = r["keyhelp"]
    x, w = x + int(w * 0.01), int(w * 0.98)
    cell_w = w // len(items)
    size = fit_size(items, cell_w * 0.94, h * 0.7)
    if size >= h * 0.75:
        for i, item in enumerate(items):
            put_text(surface, item, (x + i * cell_w, y, cell_w, h), DIM, size=size)
        return
    cols = (len(items) + 1) // 2
    cell_w = w // cols
    size = fit_size(items, cell_w * 0.94, h * 0.48)
    for i, item in enumerate(items):
        row, col = divmod(i, cols)
        put_text(surface, item, (x + col * cell_w, y + row * (h // 2), cell_w, h // 2), DIM,
                 size=size)


def draw_faults(surface, faults):
    """Draw ``faults`` (texts) as the fault badges of the top-right corner, on any screen of the
    rig (the set-up pages too); returns the first row clear of them."""
    badges = _badges(surface, faults, regions(surface.get_size()))
    _draw_faults(surface, badges)
    return _below(badges, surface.get_height())


def _fault_badges(surface, board, r):
    return _badges(surface, board.faults, r)


def _badges(surface, faults, r):
    """Where the sensor faults go: one amber badge each, stacked down from the top-right corner
    (over banners too: the referee must see them).  Each fault wraps onto two lines and is cut
    short ("…") rather than shrunk to an unreadable size; the log has every word.  Returns
    ``[(box, lines, size, line_h)]``."""
    faults = [as_text(f, 120) for f in as_tuple(faults)]
    faults = [f for f in faults if f]
    if not faults:
        return []
    shown = faults[:3]
    if len(faults) > 3:
        shown = faults[:2] + [say(N_("cleptomano.screen.more_faults"), n=len(faults) - 2)]
    x, y, w, _ = r["faults"]
    H = surface.get_height()
    line_h = max(8, int(H * 0.042))
    pad = max(2, line_h // 5)
    tw = int(w * 0.94)
    size = fit_size([say(N_("cleptomano.screen.fault_word"))], w, line_h)
    # Up to four lines each: a longer language's words are not cut where the English fits.
    wrapped = [wrap_lines(say(N_("cleptomano.screen.fault"), fault=f), size, tw, 4) for f in shown]
    badges = []
    for lines in wrapped:
        bh = len(lines) * line_h + 2 * pad
        badges.append(((x, y, w, bh), lines, size, line_h))
        y += bh + pad
    return badges


def _draw_faults(surface, badges):
    for (x, y, w, h), lines, size, line_h in badges:
        draw_panel(surface, (x, y, w, h), AMBER, 0.12)
        pad = (h - line_h * len(lines)) // 2
        for i, line in enumerate(lines):
            put_text(surface, line, (x + int(w * 0.03), y + pad + i * line_h, int(w * 0.94),
                                     line_h), DARK, "left", size=size)


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw Cleptómano's snapshot (a
    :class:`~rig.games.cleptomano.rules.view.Scoreboard`, or the screen state that carries it
    as its view) onto ``surface``."""
    draw(surface, own_view(snapshot), now_s)


def waiting(message):
    """What the screen shows before the host's first snapshot: an empty scoreboard with
    ``message`` (the faces ask the registry's first game for it: :mod:`rig.display.face`)."""
    return Scoreboard(message=message)
