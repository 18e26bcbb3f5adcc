"""The Stop Thief! crime scanner: the game's public view drawn on one pygame Surface.

:func:`draw` paints :func:`rig.games.stop_thief.rules.views.public_view` and the board it is
played on, sized from the surface (the 7-inch 800x480 panel or a 1080p TV):

* the town map (after an arrest, the caught thief's whole path on it, until the next clue);
* the thief card: which thief, its reward and the crime-wave money on it;
* every player's money, with a bar towards the cash to retire, and whose turn it is;
* the clues since this thief started, each as its icon (the sound) and what it means (the
  newest at the bottom, so the table reads them like a list);
* under the map, where the last thief was caught and what the player whose turn it is does
  next;
* the last calls on the message strip, and the winner over everything once someone retires.

It draws only what the view holds, so it can show nothing the view does not: the thief's
position is not in the view before an arrest (see ``views.py``).  Pure drawing, with the
display kit (:mod:`rig.draw.kit`); the view is a plain dict and a bad value draws as a dash.

Every word is a code of the ``stop_thief`` catalog, said in the table's language.  A translation
is longer than the English (the pseudo-locale 40 % longer): the header's parts are as wide as
their words, and the longer lines are blocks (:func:`put_block`) that take a second line rather
than a smaller font.
"""

from ...core.msg import Msg
from ...draw.kit import (AMBER, BG, DARK, DIM, GOLD, GREEN, PANEL, PANEL_2, RED, TEXT, as_dict,
                            MIN_FONT, as_text, as_tuple, boxes, draw_panel, fit_size, get_font,
                            NAME_MARK, floor_of, line_size, load_pygame, put_label, put_name,
                            put_name_in, put_text, say, wrap_lines)
from .icons import ICON_COLOURS, draw_clue_icon
from .rules.calls import CLUE_MEANINGS, clue_meaning
from .townmap import draw_town

WIN_BANNER = (215, 160, 20)


def regions(size):
    """The scanner's layout for a window of ``size``: name -> (x, y, w, h) in pixels."""
    return boxes(size, {
        "header": (0.0, 0.0, 1.0, 0.085),
        "map": (0.005, 0.09, 0.6, 0.7),
        "hint": (0.015, 0.795, 0.585, 0.12),
        "thief": (0.615, 0.095, 0.375, 0.2),
        "players": (0.615, 0.305, 0.375, 0.28),
        "clues": (0.615, 0.595, 0.375, 0.315),
        "message": (0.0, 0.92, 1.0, 0.08),
    })


def _said(message):
    """A :class:`Msg` said in the screen's language (:func:`rig.draw.kit.as_text`)."""
    return as_text(message, 400)


def money(amount):
    """A money parameter: whole dollars, or a dash for a bad value (the catalog writes $)."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        return "–"
    return amount


def dollars(amount):
    """``$15,000`` in the screen's language (its digit grouping, its place for the $)."""
    return _said(Msg("stop_thief.screen.money", amount=money(amount)))


def numeral(x):
    """A thief's or a space's number as the screen writes it (a dash for a bad value)."""
    return str(x) if isinstance(x, int) and not isinstance(x, bool) else "–"


# Every text a block drew smaller than its rows' size since the last :func:`shrunk` call: a
# translation too long for its block even on all its rows (tests/games/stop_thief/test_stop_thief_screen.py).
_shrunk = []


def shrunk(clear=True):
    """The blocks drawn below their rows' size since the last call: ``[(text, size, full)]``."""
    found = list(_shrunk)
    if clear:
        _shrunk.clear()
    return found


def put_block(surface, text, box, colour, rows, align="left", cap=None):
    """``text`` on up to ``rows`` lines of ``box`` at the size its rows' height gives (at most
    ``cap``), whatever the language: a longer translation takes another line instead of a
    smaller font.  Only a text too long for every row is drawn smaller (and reported by
    :func:`shrunk`).  Returns the size drawn."""
    text = as_text(text, 400)
    x, y, w, h = box
    if not text or rows < 1 or h < rows:
        return 0
    row = h // rows
    size = full = line_size(row, cap)
    while True:
        lines = wrap_lines(text, size, w, rows)
        if size <= MIN_FONT or all(get_font(size).size(line)[0] <= w for line in lines):
            break
        size -= 1
    if size < full and len(_shrunk) < 200:
        _shrunk.append((text, size, full))
    top = y + (h - row * len(lines)) // 2 if len(lines) < rows and align == "center" else y
    for i, line in enumerate(lines):
        put_text(surface, line, (x, top + i * row, w, row), colour, align=align, size=size)
    return size


def draw(surface, view, board, now_s=None):
    """Draw ``view`` (a public view dict) of a game on ``board`` onto ``surface``."""
    load_pygame()
    W, H = surface.get_size()
    surface.fill(BG)
    if W < 160 or H < 96:
        return
    r = regions((W, H))
    view = view if isinstance(view, dict) else {}
    arrest = view.get("arrest") if isinstance(view.get("arrest"), dict) else None
    _draw_header(surface, view, r["header"])
    path = arrest.get("path") if arrest else None
    draw_town(surface, board, r["map"], path=path if isinstance(path, list) else None,
              font_scale=1.0, floor=floor_of(surface))
    _draw_hint(surface, view, arrest, r["hint"])
    if arrest:
        _draw_arrest(surface, arrest, r["thief"])
    else:
        _draw_thief(surface, as_dict(view.get("thief")), r["thief"])
    _draw_players(surface, view, r["players"])
    _draw_clues(surface, as_tuple(view.get("clues")), r["clues"], as_dict(view.get("thief")),
                introduce=arrest is not None)
    _draw_message(surface, view.get("message"), r["message"])
    if view.get("winner"):
        _draw_winner(surface, view, r["map"])


def _draw_header(surface, view, box):
    """The title, the board's name (where there is room for it) and whose turn it is: one line
    at one size, each part as wide as its words."""
    pg = load_pygame()
    x, y, w, h = box
    pg.draw.rect(surface, PANEL, pg.Rect(x, y, w, h))
    pad = int(h * 0.15)
    size = line_size(h - 2 * pad)
    font = get_font(size)
    title = _said(Msg("stop_thief.screen.title"))
    turn = as_text(view.get("turn"), 30)
    if view.get("winner"):
        right = _said(Msg("stop_thief.screen.game_over"))
    elif turn:
        right = _said(Msg("stop_thief.screen.turn", player=turn.upper()))
    else:
        right = ""
    left_w = min(font.size(title)[0], w // 2)
    right_w = min(font.size(right)[0], w - left_w - 3 * pad) if right else 0
    put_text(surface, title, (x + pad, y + pad, left_w, h - 2 * pad), RED, align="left",
             size=size if font.size(title)[0] <= left_w else None)
    if right:
        put_text(surface, right, (x + w - pad - right_w, y + pad, right_w, h - 2 * pad),
                 AMBER if view.get("clue_taken") else TEXT, align="right",
                 size=size if font.size(right)[0] <= right_w else None)
    board = as_text(view.get("board"), 40)
    room = w - left_w - right_w - 6 * pad
    if board and font.size(board)[0] <= room:        # decoration: left out when it does not fit
        put_text(surface, board, (x + left_w + 3 * pad, y + pad, room, h - 2 * pad), DIM,
                 align="left", size=size)


def _draw_hint(surface, view, arrest, box):
    """Under the map: where the last thief was caught, and what the player whose turn it is
    does next (get a clue; or play a card, then arrest or pass)."""
    said = []
    if arrest:
        said.append(_said(Msg("stop_thief.screen.caught", space=numeral(arrest.get("space")))))
    turn = as_text(view.get("turn"), 30)
    if turn and not view.get("winner"):
        said.append(_said(Msg("stop_thief.screen.hint_card", player=turn)
                          if view.get("clue_taken") else
                          Msg("stop_thief.screen.hint_clue", player=turn)))
    put_block(surface, " ".join(said), box, AMBER if view.get("clue_taken") else TEXT, rows=2,
              cap=30)


def _draw_thief(surface, thief, box):
    x, y, w, h = box
    draw_panel(surface, box, PANEL, 0.08)
    pad = int(h * 0.08)
    number = thief.get("number")
    put_text(surface, Msg("stop_thief.screen.at_large", number=numeral(number)),
             (x + pad, y + pad, w - 2 * pad, int(h * 0.2)), DIM, align="left")
    put_label(surface, as_text(thief.get("name"), 40) or "–",
              (x + pad, y + int(h * 0.28), w - 2 * pad, int(h * 0.34)), TEXT, align="left")
    wave = thief.get("crime_wave")
    if wave:
        line = Msg("stop_thief.screen.reward_wave", reward=money(thief.get("reward")),
                   wave=money(wave), total=money(thief.get("total")))
    else:
        line = Msg("stop_thief.screen.reward", reward=money(thief.get("reward")))
    put_text(surface, line, (x + pad, y + int(h * 0.68), w - 2 * pad, int(h * 0.24)),
             RED if wave else GOLD, align="left")


def _draw_arrest(surface, arrest, box):
    x, y, w, h = box
    draw_panel(surface, box, (22, 70, 40), 0.08, border=GREEN)
    pad = int(h * 0.08)
    put_name_in(surface, say("stop_thief.screen.arrested_by", by=NAME_MARK),
                as_text(arrest.get("by"), 30), (x + pad, y + pad, w - 2 * pad, int(h * 0.22)),
                GREEN, align="left")
    put_label(surface, as_text(arrest.get("name"), 40),
              (x + pad, y + int(h * 0.3), w - 2 * pad, int(h * 0.32)), TEXT, align="left")
    wave = arrest.get("crime_wave")
    if wave:
        paid = Msg("stop_thief.screen.paid_wave", paid=money(arrest.get("paid")),
                   wave=money(wave))
    else:
        paid = Msg("stop_thief.screen.paid", paid=money(arrest.get("paid")))
    put_text(surface, paid, (x + pad, y + int(h * 0.68), w - 2 * pad, int(h * 0.24)), GOLD,
             align="left")


def _draw_players(surface, view, box):
    pg = load_pygame()
    x, y, w, h = box
    players = [p for p in as_tuple(view.get("players")) if isinstance(p, dict)][:6]
    retire = view.get("retire")
    put_text(surface, Msg("stop_thief.screen.retire_at", money=money(retire)),
             (x, y, w, int(h * 0.16)), DIM, align="left")
    if not players:
        return
    top = y + int(h * 0.18)
    row = (y + h - top) // max(4, len(players))
    name_size = fit_size([as_text(p.get("name"), 30) for p in players], w * 0.42, row * 0.62)
    money_size = fit_size([dollars(88888)], w * 0.3, row * 0.62)
    winner = view.get("winner")
    for i, p in enumerate(players):
        ry = top + i * row
        turn = bool(p.get("turn"))
        pg.draw.rect(surface, PANEL_2 if turn else (PANEL if i % 2 == 0 else BG),
                     pg.Rect(x, ry, w, row - 2))
        mark = int(row * 0.3)
        if turn:
            pg.draw.polygon(surface, AMBER, [(x + mark // 2, ry + row // 2 - mark),
                                             (x + mark // 2, ry + row // 2 + mark),
                                             (x + mark * 2, ry + row // 2)])
        name = as_text(p.get("name"), 30)
        colour = GOLD if winner and name == winner else (AMBER if turn else TEXT)
        put_name(surface, name, (x + mark * 2 + 4, ry, int(w * 0.42), row), colour,
                 align="left", size=name_size)
        cash = p.get("money")
        put_text(surface, dollars(cash), (x + int(w * 0.5), ry, int(w * 0.3), row), colour,
                 align="right", size=money_size)
        bar = (x + int(w * 0.83), ry + row // 3, int(w * 0.15), row // 3)
        pg.draw.rect(surface, DARK, pg.Rect(bar))
        if isinstance(cash, int) and isinstance(retire, int) and retire > 0:
            fill = int(bar[2] * max(0.0, min(1.0, cash / retire)))
            pg.draw.rect(surface, GOLD, pg.Rect(bar[0], bar[1], fill, bar[3]))
        pg.draw.rect(surface, DIM, pg.Rect(bar), 1)


def _draw_clues(surface, clues, box, thief, introduce=False):
    """This thief's clues; ``introduce`` names the new thief (its card is hidden by the
    arrest panel)."""
    x, y, w, h = box
    clues = [c for c in clues if isinstance(c, dict)]
    head = _said(Msg("stop_thief.screen.clues_for", number=numeral(thief.get("number"))))
    put_text(surface, head, (x, y, w, int(h * 0.14)), DIM, align="left")
    top = y + int(h * 0.16)
    rows = 6
    row = (y + h - top) // rows
    if not clues:
        put_text(surface, Msg("stop_thief.screen.no_clues"), (x, top, w, row), DIM,
                 align="left")
        if introduce and thief.get("at_large") and thief.get("name"):
            put_block(surface, Msg("stop_thief.screen.new_thief",
                                   name=as_text(thief.get("name"), 40),
                                   reward=money(thief.get("reward"))),
                      (x, top + row, w, 2 * row), GOLD, rows=2)
        return
    shown = clues[-rows:]
    if len(clues) > rows:
        shown = clues[-(rows - 1):]
    lines = []
    for c in shown:                  # the icon says the sound; the words say what it means
        kind = c.get("kind")
        meaning = clue_meaning(kind) if kind in CLUE_MEANINGS else c.get("words")
        lines.append("%s  %s" % (c.get("number", ""), as_text(meaning, 60)))
    size = fit_size(lines, w - row * 1.3, row * 0.6)
    start = top
    if len(clues) > rows:
        put_text(surface, Msg("stop_thief.screen.earlier_clues", n=len(clues) - len(shown)),
                 (x, start, w, row), DIM, align="left", size=size)
        start += row
    for i, (c, line) in enumerate(zip(shown, lines)):
        ry = start + i * row
        kind = c.get("kind")
        draw_clue_icon(surface, kind, (x, ry + row // 10, row * 8 // 10, row * 8 // 10))
        newest = i == len(shown) - 1
        put_text(surface, line, (x + row, ry, w - row, row),
                 ICON_COLOURS.get(kind, TEXT) if newest else TEXT, align="left", size=size)


def _draw_message(surface, message, box):
    text = as_text(message, 400)
    if not text:
        return
    pg = load_pygame()
    x, y, w, h = box
    pg.draw.rect(surface, (52, 44, 12), pg.Rect(x, y, w, h))
    one = fit_size([text], w * 0.96, h * 0.8)
    two = fit_size(["Ag"], w * 0.96, h * 0.46)
    if one < two:                     # a long call reads better on two lines than shrunk
        lines = wrap_lines(text, two, w * 0.96, 2)
        size = fit_size(lines, w * 0.96, h * 0.46)
        for i, line in enumerate(lines):
            put_text(surface, line, (x + int(w * 0.02), y + i * h // 2, int(w * 0.96), h // 2),
                     (255, 220, 90), align="left", size=size)
        return
    put_text(surface, text, (x + int(w * 0.02), y + int(h * 0.1), int(w * 0.96), int(h * 0.8)),
             (255, 220, 90), align="left", size=one)


def _draw_winner(surface, view, area):
    """The winner over the top of the map; the money stays in view beside it."""
    ax, ay, aw, ah = area
    box = (ax + aw // 20, ay + ah // 20, aw * 9 // 10, ah // 2)
    x, y, w, h = box
    draw_panel(surface, box, WIN_BANNER, 0.08, border=DARK)
    winner = as_text(view.get("winner"), 30)
    cash = next((p.get("money") for p in as_tuple(view.get("players"))
                  if isinstance(p, dict) and p.get("name") == view.get("winner")), None)
    put_text(surface, Msg("stop_thief.screen.retires", player=winner.upper()),
             (x + w // 20, y + h // 12, w * 9 // 10, h * 4 // 10), DARK)
    put_block(surface, Msg("stop_thief.screen.beach", money=money(cash)),
              (x + w // 20, y + h // 2, w * 9 // 10, h * 45 // 100), DARK, rows=2, cap=36,
              align="center")


def draw_screen(surface, snapshot, now_s=None):
    """The face's one way in (README "Adding a game"): draw the host's snapshot (a
    :class:`~rig.core.gamekit.GameScreen`) of this game onto ``surface``."""
    draw(surface, snapshot.view, snapshot.board, now_s)
