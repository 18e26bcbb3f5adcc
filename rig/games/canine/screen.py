"""Drawing Canine Kleptomaniacs' screen: one public view (a dict) onto one pygame Surface.

:func:`draw` paints :func:`rig.games.canine.rules.views.public_view` and nothing else, so the
screen can never show a secret: while the game runs, the die (its face drawn with pips, big
enough to read across the table), the card it was rolled for, whose roll it is and the rolls so
far; beside it the end tracker (the Action pile's count and what ends the game) and who has
chosen a doggy and entered their Hiding Places; once every score is in, the final score table,
one column per kind of line of the breakdown.  The layout is fractions of the surface and the
text is fitted with the display kit (:mod:`rig.draw.kit`), so 800x480 and 1920x1080 both work.
Every word comes from the ``canine`` catalog (:func:`~rig.draw.kit.say`, or a code in the view)
in the table's language.
"""

from ...core.msg import N_
from .rules.dice import SQUIRREL_PICKS
from ...draw.kit import (AMBER, BG, DARK, DIM, GOLD, GREEN, IVORY, PANEL, PANEL_2, TEXT,
                            as_dict, as_int, as_text, as_tuple, draw_check, draw_panel, fit_size,
                            floor_of, get_font, load_pygame, put_big, put_name, put_text, say,
                            wrap_lines)

FELT = (20, 70, 52)             # the dice tray
#: What the end tracker says when a pile ran out, by pile.
PILE_RAN_OUT = {"action": N_("canine.screen.action_ran_out"),
                "collectables": N_("canine.screen.collectables_ran_out")}
PIP = (25, 25, 32)
WON = (40, 185, 90)
LOST = (200, 60, 60)

#: Pip positions (fractions of the die's side) for faces 1-6; other faces are drawn as digits.
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}
#: The final table's columns: heading (a code; "|" in its words breaks the line) and the
#: breakdown items each sums.
COLUMNS = ((N_("canine.screen.col_hidden"), ("hiding-place",)),
           (N_("canine.screen.col_all_of_a_kind"), ("all-of-a-kind",)),
           (N_("canine.screen.col_face_up"), ("face-up",)),
           (N_("canine.screen.col_doggy"), ("doggy",)),
           (N_("canine.screen.col_paw_poo"), ("paw", "poo-pizza")))


def fitted_lines(text, w, h, cap=None, keep=None):
    """How ``text`` best fills a ``w`` x ``h`` box: ``(lines, size)``: one line, or two when one
    line would shrink for its width and two lines are larger (a longer translation).  ``keep``:
    a one-line size at least this stays one line (the English look, when it is legible)."""
    text = as_text(text, 300)
    one = fit_size([text], w, h, cap)
    if one >= fit_size([text], 10 ** 6, h, cap) or " " not in text or (keep and one >= keep):
        return [text], one
    lines = wrap_lines(text, fit_size([text], 2 * w, h // 2, cap), w, 2)
    two = fit_size(lines, w, h // 2, cap)
    return (lines, two) if two > one and len(lines) == 2 else ([text], one)


def put_fitted(surface, text, box, colour=TEXT, align="center", cap=None, keep=None):
    """``text`` in ``box`` as :func:`fitted_lines` lays it out; returns the number of lines."""
    x, y, w, h = box
    lines, size = fitted_lines(text, w, h, cap, keep)
    if len(lines) == 1:
        put_text(surface, lines[0], box, colour, align, cap=cap)
        return 1
    for i, line in enumerate(lines):
        # The first line is fitted (capped at the shared size) so the kit records one fit for
        # the text whether it took one line or two (the languages test pairs fits in order).
        put_text(surface, line, (x, y + i * (h // 2), w, h // 2), colour, align,
                 **({"cap": size} if i == 0 else {"size": size}))
    return 2


def _dicts(x):
    """The dicts among ``x`` (a view from a bad host must not crash the screen)."""
    return [d for d in as_tuple(x) if isinstance(d, dict)]


def regions(size):
    """The layout for a window of ``size``: name -> (x, y, w, h) in pixels."""
    W, H = int(size[0]), int(size[1])

    def box(fx, fy, fw, fh):
        return (int(round(fx * W)), int(round(fy * H)), max(1, int(round(fw * W))),
                max(1, int(round(fh * H))))

    return {
        "header": box(0.02, 0.0, 0.96, 0.10),
        "dice": box(0.02, 0.115, 0.58, 0.72),
        "end": box(0.62, 0.115, 0.36, 0.30),
        "players": box(0.62, 0.43, 0.36, 0.405),
        "table": box(0.02, 0.115, 0.96, 0.72),
        "message": box(0.0, 0.855, 1.0, 0.12),
    }


def draw(surface, view):
    """Draw ``view`` (a public view dict) onto ``surface``, filling all of it."""
    load_pygame()
    W, H = surface.get_size()
    surface.fill(BG)
    if W < 8 or H < 8 or not isinstance(view, dict):
        return
    r = regions((W, H))
    _draw_header(surface, view, r["header"])
    phase = view.get("phase")
    if phase == "final":
        _draw_final(surface, view, r["table"])
        winners = tuple(as_text(p, 40) for p in as_tuple(view.get("winners")))
        if len(winners) == 1:
            message = say(N_("canine.screen.wins"), player=winners[0])
        else:
            message = say(N_("canine.screen.share_the_win"), players=winners)
    else:
        if phase == "scoring":
            _draw_scoring(surface, view, r["dice"])
            message = say(N_("canine.screen.scores_when_all_in"))
        else:
            _draw_dice(surface, view, r["dice"])
            dice = as_dict(view.get("dice"))
            message = dice.get("words") or say(N_("canine.screen.rig_rolls_for"))
        # A heading too long for one line grows the end tracker into the players' panel.
        extra = _end_extra(surface, view, r["end"])
        ex, ey, ew, eh = r["end"]
        px, py, pw, ph = r["players"]
        _draw_end(surface, view, (ex, ey, ew, eh + extra), extra)
        _draw_players(surface, view, (px, py + extra, pw, ph - extra))
    _draw_message(surface, message, r["message"])


def _draw_header(surface, view, box):
    """The title, and beside it the amber pill that says the card values are placeholders.  The
    pill is at least as wide as its words need at the legibility floor; the title takes the rest,
    on two lines if one would be too small (a longer translation)."""
    x, y, w, h = box
    floor = floor_of(surface)
    title = say(N_("canine.screen.title"))
    if not view.get("placeholder"):
        put_text(surface, title, (x, y + int(h * 0.15), w, int(h * 0.7)), TEXT, align="left")
        return
    words = say(N_("canine.screen.placeholder"))
    pill_h = int(h * 0.8)
    margin = pill_h // 4
    need = get_font(floor).size(words)[0] + 2 * margin + 2
    pill_w = min(int(w * 0.7), max(int(w * 0.55), need))
    gap = int(w * 0.01)
    title_w = w - pill_w - gap
    if len(fitted_lines(title, title_w, int(h * 1.1), keep=floor)[0]) == 1:
        put_text(surface, title, (x, y + int(h * 0.15), title_w, int(h * 0.7)), TEXT, align="left")
    else:
        # Two lines take the gap down to the panels too: accented capitals render taller.
        put_fitted(surface, title, (x, y + int(h * 0.04), title_w, int(h * 1.1)), TEXT,
                   align="left", keep=floor)
    pill = (x + w - pill_w, y + int(h * 0.1), pill_w, pill_h)
    draw_panel(surface, pill, AMBER, 0.3)
    put_fitted(surface, words, (pill[0] + margin, pill[1] + pill_h // 10, pill_w - 2 * margin,
                                pill_h * 4 // 5), DARK)


def draw_die(surface, box, face, colour=IVORY, pip=PIP):
    """A die showing ``face`` in the square that fits ``box`` (None: a blank die, not rolled)."""
    pg = load_pygame()
    x, y, w, h = box
    side = min(w, h)
    dx, dy = x + (w - side) // 2, y + (h - side) // 2
    rect = pg.Rect(dx, dy, side, side)
    pg.draw.rect(surface, colour, rect, border_radius=max(2, side // 6))
    if face is None:
        put_text(surface, "?", (dx, dy + side // 6, side, side * 2 // 3), DIM)
        return rect
    if face in PIPS:
        radius = max(2, side // 11)
        for fx, fy in PIPS[face]:
            pg.draw.circle(surface, pip, (dx + int(fx * side), dy + int(fy * side)), radius)
    else:
        put_big(surface, str(face), (dx + side // 6, dy + side // 6, side * 2 // 3,
                                     side * 2 // 3), pip)
    return rect


def _need_words(dice):
    need = dice.get("need")
    if need == "odd":
        return say(N_("canine.screen.needs_odd"))
    if need == "even":
        return say(N_("canine.screen.needs_even"))
    if need == "six" and dice.get("thief"):
        return say(N_("canine.screen.six_stops"), player=as_text(dice.get("thief"), 30))
    if need == "six":
        return say(N_("canine.screen.needs_six"))
    rolls = _dicts(dice.get("rolls"))
    if rolls:
        return say(N_("canine.screen.passed"), n=as_int(rolls[0].get("face")))
    return say(N_("canine.screen.passes"))


def _draw_dice(surface, view, box):
    x, y, w, h = box
    draw_panel(surface, box, FELT, 0.05)
    dice = as_dict(view.get("dice"))
    pad = int(min(w, h) * 0.06)
    if not dice:
        put_text(surface, say(N_("canine.screen.no_dice")),
                 (x + pad, y + int(h * 0.3), w - 2 * pad, int(h * 0.2)), TEXT)
        put_fitted(surface, say(N_("canine.screen.dice_here")),
                   (x + pad, y + int(h * 0.55), w - 2 * pad, int(h * 0.18)), DIM)
        return
    put_fitted(surface, as_text(dice.get("name"), 60).upper(),
               (x + pad, y + pad // 2, w - 2 * pad, int(h * 0.15)), GOLD,
               keep=floor_of(surface))
    rolls = _dicts(dice.get("rolls"))
    history = rolls[-8:] if len(rolls) > 1 or dice.get("card") == "squirrel" else []
    face = as_int(rolls[-1].get("face"), None) if rolls else None
    die_h = int(h * (0.46 if history else 0.62))
    draw_die(surface, (x + pad, y + int(h * 0.2), int(w * 0.42), die_h), face)
    # Whose roll, or how it ended
    tx, tw = x + int(w * 0.48), int(w * 0.5) - pad
    if dice.get("decided"):
        put_text(surface, _verdict(dice), (tx, y + int(h * 0.2), tw, int(h * 0.2)),
                 WON if dice.get("won") else LOST, align="left")
    else:
        who = as_text(dice.get("whose_roll"), 40)
        put_text(surface, say(N_("canine.screen.whose_roll"), player=who).upper(),
                 (tx, y + int(h * 0.2), tw, int(h * 0.2)), TEXT, align="left")
    put_fitted(surface, _need_words(dice), (tx, y + int(h * 0.4), tw, int(h * 0.14)), DIM,
               align="left")
    tries = as_int(dice.get("tries"), 0)
    if tries > 1:
        shown = len(rolls) if dice.get("decided") else len(rolls) + 1
        put_fitted(surface, say(N_("canine.screen.roll_of"), roll=shown, tries=tries),
                   (tx, y + int(h * 0.56), tw, int(h * 0.1)), DIM, align="left")
    # The rolls so far, oldest first, with who rolled each
    cell = min(int(h * 0.2), (w - 2 * pad) // 8)
    top = y + int(h * 0.7)
    for i, roll in enumerate(history):
        cx = x + pad + i * cell
        draw_die(surface, (cx + cell // 10, top, cell * 8 // 10, cell * 8 // 10),
                 as_int(roll.get("face"), None))
        if dice.get("card") != "squirrel":      # the try's number: the same in every language
            put_text(surface, str(len(rolls) - len(history) + i + 1),
                     (cx, top + int(cell * 0.82), cell, int(cell * 0.4)), TEXT)
    if history and dice.get("card") == "squirrel":
        # who rolled each, in order, on one line under the dice (a cell is too narrow for a name)
        put_fitted(surface, " · ".join(as_text(r.get("player"), 20) for r in history),
                   (x + pad, top + int(cell * 0.82), w - 2 * pad, int(cell * 0.45)), TEXT,
                   align="left")


def _verdict(dice):
    card, won = dice.get("card"), dice.get("won")
    if card == "key":
        return say(N_("canine.screen.unlocked") if won else N_("canine.screen.locked"))
    if card == "badger":
        return say(N_("canine.screen.badger_to"), player=as_text(dice.get("holder"), 40)).upper()
    if card == "squirrel":
        return say(N_("canine.screen.squirrel_cards"), player=as_text(dice.get("winner"), 40),
                   n=SQUIRREL_PICKS).upper()
    return say(N_("canine.screen.stopped") if won else N_("canine.screen.no_six"))


def _end_label(view):
    """The end tracker's heading: the Action pile, and which of how many when there are two."""
    end = as_dict(view.get("end"))
    piles = as_int(end.get("piles"), 1)
    if piles == 1:
        return say(N_("canine.screen.action_pile"))
    return say(N_("canine.screen.action_pile_of"), pile=as_int(end.get("pile"), 1), piles=piles)


def _end_pad(box):
    return int(min(box[2], box[3]) * 0.08)


def _end_extra(surface, view, box):
    """How many pixels the end tracker in ``box`` grows downwards (the players' panel gives
    them up): 0, or a second line's room when its heading is too long for one legible line."""
    x, y, w, h = box
    label = _end_label(view)
    label_w, label_h = w - 2 * _end_pad(box), int(h * 0.23)
    one = fit_size([label], label_w, label_h)
    if one >= floor_of(surface) or one >= fit_size([label], 10 ** 6, label_h):
        return 0
    return int(h * 0.2)


def _draw_end(surface, view, box, extra=0):
    """The end tracker in ``box`` (grown by ``extra`` px, see :func:`_end_extra`): which Action
    pile, the cards left in it (a count and a bar) or that a pile ran out (no bar: its words
    take the bar's room), and what ends the game."""
    pg = load_pygame()
    x, y, w, h = box
    draw_panel(surface, box, PANEL, 0.06)
    h -= extra                          # the rows below the heading keep their English sizes
    end = as_dict(view.get("end"))
    pad = _end_pad((x, y, w, h))
    floor = floor_of(surface)
    label = _end_label(view)
    label_box = (x + pad, y + pad // 3, w - 2 * pad, int(h * 0.23) + extra)
    if extra:
        put_fitted(surface, label, label_box, DIM, align="left", keep=floor)
    else:
        put_text(surface, label, label_box, DIM, align="left")
    y += extra
    left, size = as_int(end.get("left")), max(1, as_int(end.get("size"), 1))
    over = end.get("over")
    if over:
        put_fitted(surface, say(PILE_RAN_OUT.get(over, PILE_RAN_OUT["action"])),
                   (x + pad, y + int(h * 0.26), w - 2 * pad, int(h * 0.48)), AMBER,
                   align="left")
    else:
        put_big(surface, str(left), (x + pad, y + int(h * 0.26), int(w * 0.38), int(h * 0.36)),
                TEXT)
        put_fitted(surface, say(N_("canine.screen.left_of"), n=left, size=size),
                   (x + int(w * 0.45), y + int(h * 0.3), int(w * 0.55) - pad, int(h * 0.28)),
                   DIM, align="left")
        bar = pg.Rect(x + pad, y + int(h * 0.66), w - 2 * pad, max(3, int(h * 0.08)))
        pg.draw.rect(surface, PANEL_2, bar, border_radius=bar.h // 2)
        filled = bar.copy()
        filled.w = int(bar.w * min(1.0, max(0, left) / size))
        if filled.w:
            pg.draw.rect(surface, GOLD, filled, border_radius=bar.h // 2)
    put_fitted(surface, as_text(end.get("ends"), 120), (x + pad // 2, y + int(h * 0.75), w - pad,
                                                        int(h * 0.24)), DIM, align="left")


def _draw_players(surface, view, box):
    """One row a player: their name, a doggy card mark (chosen or not), and their entry."""
    x, y, w, h = box
    doggies = _dicts(view.get("doggies"))[:10]
    revealed = {as_text(p, 30) for p in as_tuple(view.get("revealed"))}
    scoring = view.get("phase") == "scoring"
    put_text(surface, say(N_("canine.screen.hiding_places_in") if scoring else
                          N_("canine.screen.doggy_cards")),
             (x, y, w, int(h * 0.16)), DIM, align="left")
    if not doggies:
        return
    top = y + int(h * 0.18)
    row = min(int(h * 0.2), (y + h - top) // len(doggies))
    names = [as_text(d.get("player"), 30) for d in doggies]
    size = fit_size(names, w * 0.5, row * 0.7)
    for i, dog in enumerate(doggies):
        ry = top + i * row
        draw_panel(surface, (x, ry, w, row - 2), PANEL if i % 2 == 0 else PANEL_2, 0.1)
        put_name(surface, names[i], (x + int(w * 0.04), ry, int(w * 0.5), row), TEXT,
                 align="left", size=size)
        done = names[i] in revealed if scoring else bool(dog.get("chosen"))
        words = say(N_("canine.screen.not_chosen"))
        if dog.get("chosen"):
            words = as_text(dog.get("doggy"), 30) or say(N_("canine.screen.face_down"))
        if scoring:
            words = say(N_("canine.screen.entry_in") if done else N_("canine.screen.waiting"))
        mark = (x + int(w * 0.56), ry + row // 4, row // 2, row // 2)
        if done:
            draw_check(surface, mark, GREEN, max(2, row // 10))
        put_fitted(surface, words, (x + int(w * 0.56) + row // 2 + 4, ry, int(w * 0.42) - row // 2,
                                    row), TEXT if done else AMBER, align="left", cap=int(row * 0.6))


def _draw_scoring(surface, view, box):
    x, y, w, h = box
    draw_panel(surface, box, PANEL, 0.05, border=AMBER)
    pad = int(min(w, h) * 0.08)
    put_text(surface, say(N_("canine.screen.game_over")),
             (x + pad, y + pad, w - 2 * pad, int(h * 0.24)), AMBER)
    revealed = {as_text(p, 30) for p in as_tuple(view.get("revealed"))}
    waiting = [as_text(p, 30) for p in as_tuple(view.get("players"))
               if as_text(p, 30) not in revealed]
    put_text(surface, say(N_("canine.screen.enter_hiding_places")),
             (x + pad, y + int(h * 0.4), w - 2 * pad, int(h * 0.14)), TEXT)
    put_text(surface, say(N_("canine.screen.on_your_phone")),
             (x + pad, y + int(h * 0.55), w - 2 * pad, int(h * 0.12)), TEXT)
    if waiting:
        put_text(surface, say(N_("canine.screen.waiting_for"), players=tuple(waiting)),
                 (x + pad, y + int(h * 0.75), w - 2 * pad, int(h * 0.09)), DIM)


def _draw_final(surface, view, box):
    """The score table: a row a player, best first, a column per kind of breakdown line."""
    pg = load_pygame()
    x, y, w, h = box
    rows = _dicts(view.get("scores"))[:10]
    settings = as_dict(view.get("settings"))
    columns = [c for c in COLUMNS
               if c[1] != ("all-of-a-kind",) or settings.get("optional_rule", "off") != "off"]
    name_w = int(w * 0.24)
    total_w = int(w * 0.14)
    col_w = (w - name_w - total_w) // len(columns)
    row_h = min(int(h / (len(rows) + 1.2)), int(h * 0.2)) if rows else int(h * 0.2)
    heads = [say(c[0]).split("|") for c in columns] + [[say(N_("canine.screen.col_total"))]]
    head_size = fit_size([part for head in heads for part in head], col_w * 0.92, row_h * 0.36)
    for j, head in enumerate(heads):
        hx, hw = (x + name_w + j * col_w, col_w) if j < len(columns) else (x + w - total_w,
                                                                            total_w)
        part_h = int(row_h * 0.4)
        top = y + (row_h - part_h * len(head)) // 2
        for k, part in enumerate(head):
            put_text(surface, part, (hx, top + k * part_h, hw, part_h), DIM, size=head_size)
    names = [as_text(s.get("player"), 30) for s in rows]
    name_size = fit_size(names or ["?"], name_w * 0.9, row_h * 0.6)
    cell_size = fit_size(["-888"], col_w * 0.8, row_h * 0.55)
    for i, score in enumerate(rows):
        ry = y + int(row_h * (i + 1.1))
        winner = bool(score.get("winner"))
        pg.draw.rect(surface, PANEL if i % 2 == 0 else PANEL_2, pg.Rect(x, ry, w, row_h))
        put_name(surface, names[i], (x + int(name_w * 0.05), ry, int(name_w * 0.9), row_h),
                 GOLD if winner else TEXT, align="left", size=name_size)
        lines = _dicts(score.get("lines"))
        for j, (_, items) in enumerate(columns):
            found = [line for line in lines if line.get("item") in items]
            points = sum(as_int(line.get("points")) for line in found)
            signed = items[0] in ("all-of-a-kind", "doggy", "paw")
            text = "%+d" % points if signed else str(points)
            put_text(surface, text if found else "–",
                     (x + name_w + j * col_w, ry, col_w, row_h),
                     (LOST if points < 0 else TEXT) if found else DIM, size=cell_size)
        cell = (x + w - total_w, ry, total_w, row_h)
        if winner:
            inset = int(row_h * 0.1)
            draw_panel(surface,
                       (cell[0] + inset, ry + inset, total_w - 2 * inset, row_h - 2 * inset),
                       GOLD, 0.25)
        put_text(surface, str(as_int(score.get("total"))), cell, DARK if winner else TEXT,
                 size=cell_size)


def _draw_message(surface, message, box):
    """The call in words, wrapped onto two lines rather than shrunk out of reach."""
    pg = load_pygame()
    x, y, w, h = box
    pg.draw.rect(surface, (52, 44, 12), pg.Rect(x, y, w, h))
    tw = int(w * 0.96)
    lines = [as_text(message, 300)]
    size = fit_size(lines, tw, h * 0.7)
    if size < h * 0.45:
        lines = wrap_lines(lines[0], fit_size(lines, tw * 2, h * 0.4), tw, 2)
        size = fit_size(lines, tw, h * 0.4)
    line_h = int(h * 0.84) // len(lines)
    for i, line in enumerate(lines):
        put_text(surface, line, (x + int(w * 0.02), y + int(h * 0.08) + i * line_h, tw, line_h),
                 (255, 220, 90), size=size)


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw the host's snapshot (a
    :class:`~rig.core.gamekit.GameScreen`) of this game onto ``surface``."""
    draw(surface, snapshot.view)
