"""The builder's service mode on the screen (issue 31): its keys, its drawing, its sounds and
the key combination that opens it.

* :data:`OPEN_KEY` pressed :data:`OPEN_PRESSES` times in a row at the screen opens the service
  mode (:class:`OpenCombo`; the face sends an :class:`~rig.core.service.OpenService`).  F12 is on
  no keypad and bound to nothing in any game (``rig/games/*/keys.py``), so a player never hits
  it three times by accident;
* :class:`ServiceMode`, the key mode while a :class:`~rig.core.service.ServiceScreen` is shown:
  the arrows (or the keypad's 8, 2, 4, 6) move and change, P (or keypad ``*``) cycles the
  presets, F (or keypad ``/``) puts the factory value back, T or Space (keypad 0) plays the
  test, Enter opens a page, Esc (or Backspace) goes back and, on the menu, leaves;
* :func:`draw` draws the page; :func:`cues` applies the sound levels and plays the tests;
* :data:`SHOTS` and :func:`shot`: the sample screens ``service`` and ``switch-test``.
"""

from dataclasses import replace

from ..core.msg import N_, Msg
from ..core.service import (SERVICE, OpenService, ServiceKey, ServiceScreen, check_tuning,
                            factory_values, heard, open_desk, press, screen, tuned)
from ..draw import kit
from ..draw.keymodes import Mode
from ..draw.strip import draw_banded

OPEN_KEY = "f12"
OPEN_PRESSES = 3

#: Keyboard and keypad keys -> the service mode's keys (rig.core.service.KEYS).
KEYMAP = {
    "up": "up", "[8]": "up", "down": "down", "[2]": "down",
    "left": "less", "[4]": "less", "-": "less", "[-]": "less",
    "right": "more", "[6]": "more", "+": "more", "=": "more", "[+]": "more",
    "return": "enter", "enter": "enter",
    "escape": "back", "backspace": "back",
    "p": "preset", "[*]": "preset", "f": "factory", "[/]": "factory",
    "t": "test", "space": "test", "[0]": "test",
}
#: Each page's keys, said at the foot of the screen.
HELP = {"menu": Msg("rig.service.keys.menu"), "switch-test": Msg("rig.service.keys.switch_test"),
        "sound": Msg("rig.service.keys.settings"),
        "sensitivity": Msg("rig.service.keys.settings"),
        "audits": Msg("rig.service.keys.audits")}


class OpenCombo:
    """Counts :data:`OPEN_KEY` pressed in a row; any other key starts the count again."""

    def __init__(self):
        self.count = 0

    def key(self, name):
        """True when ``name`` completes the combination."""
        if str(name or "").lower() != OPEN_KEY:
            self.count = 0
            return False
        self.count += 1
        if self.count >= OPEN_PRESSES:
            self.count = 0
            return True
        return False


def open_command():
    return OpenService(0.0, "screen")


class ServiceMode(Mode):
    """The keys while the service mode is on the screen."""

    HELP = ()

    def feed(self, key_name, text=None):
        key = KEYMAP.get(str(key_name or "").lower())
        if key is None:
            return None, None
        return ServiceKey(0.0, key), None

    def look(self):
        return None

    def shown(self, snapshot, prompt):
        return draw_service, snapshot


def mode():
    m = ServiceMode()
    m.game = SERVICE
    return m


# --- drawing ----------------------------------------------------------------------------------

LIT = (255, 220, 60)
SELECTED = (52, 60, 96)
ROWS_SHOWN = 5
#: Each page's name and value columns, as fractions of the width (the rest: the factory value,
#: or the last edge's age).
COLUMNS = {"switch-test": (0.36, 0.31), "sound": (0.36, 0.26), "sensitivity": (0.2, 0.38)}


def draw_service(surface, board, now_s=None):
    """The service page ``board`` (a :class:`~rig.core.service.ServiceScreen`) with the host's
    message strip below it when there is a message."""
    draw_banded(surface, getattr(board, "message", None), lambda band: _page(band, board))


def _page(surface, board):
    W, H = surface.get_size()
    surface.fill(kit.BG)
    head_h, foot_h = int(H * 0.12), int(H * 0.15)
    explain_h = int(H * 0.15)
    kit.put_label(surface, Msg("rig.service.title", page=board.title),
                  (int(W * 0.03), 0, int(W * 0.62), head_h), kit.GOLD)
    kit.put_label(surface, Msg("rig.service.by", name=board.by),
                  (int(W * 0.66), 0, int(W * 0.31), head_h), kit.DIM, align="right")
    if board.page == "audits":
        _audits(surface, board.audit, (0, head_h, W, H - head_h - foot_h))
        kit.put_para(surface, HELP.get(board.page), (int(W * 0.03), H - foot_h, int(W * 0.94),
                                                     foot_h), kit.DIM, most=2)
        return
    rows = tuple(board.rows)
    top, bottom = head_h, H - foot_h - explain_h
    row_h = max(1, (bottom - top) // ROWS_SHOWN)
    cursor = board.cursor % len(rows) if rows else 0
    first = min(max(0, cursor - ROWS_SHOWN // 2), max(0, len(rows) - ROWS_SHOWN))
    settings = board.page in ("sound", "sensitivity")
    for i, row in enumerate(rows[first:first + ROWS_SHOWN]):
        y = top + i * row_h
        selected = first + i == cursor
        if row.lit:
            kit.draw_panel(surface, (int(W * 0.02), y + 2, int(W * 0.96), row_h - 4), LIT,
                           radius_frac=0.15)
        elif selected:
            kit.draw_panel(surface, (int(W * 0.02), y + 2, int(W * 0.96), row_h - 4),
                           SELECTED, radius_frac=0.15)
        colour = kit.DARK if row.lit else kit.TEXT
        name = row.label if row.label is not None else row.name
        if board.page == "menu":
            kit.put_label(surface, name, (int(W * 0.05), y, int(W * 0.9), row_h), colour)
            continue
        name_w, value_w = COLUMNS.get(board.page, COLUMNS["switch-test"])
        kit.put_label(surface, name, (int(W * 0.04), y, int(W * name_w), row_h), colour)
        value_colour = colour if not row.changed else (kit.DARK if row.lit else kit.AMBER)
        x = 0.05 + name_w
        kit.put_label(surface, row.value, (int(W * x), y, int(W * value_w), row_h),
                      value_colour)
        extra = (Msg("rig.service.factory", value=row.factory) if settings else row.since)
        x += value_w + 0.01
        kit.put_label(surface, extra, (int(W * x), y, int(W * (0.97 - x)), row_h),
                      kit.DARK if row.lit else kit.DIM, align="right")
    if rows and rows[cursor].explain is not None:
        kit.put_para(surface, rows[cursor].explain, (int(W * 0.03), bottom, int(W * 0.94),
                                                     explain_h), kit.IVORY, most=2)
    kit.put_para(surface, HELP.get(board.page), (int(W * 0.03), H - foot_h, int(W * 0.94),
                                                 foot_h), kit.DIM, most=2)


def _audits(surface, audit, area):
    """The audits as a picture: the corridor with each rod's touches (a bar; the voided part
    amber) and faults (glitches and stuck periods, red, counted below), and the matches per
    night as a small chart, with the numbers beside."""
    x0, y0, w, h = area
    if audit is None or not audit.recordings:
        kit.put_para(surface, Msg("rig.service.audit.none"), (x0 + w // 10, y0, w * 8 // 10, h),
                     kit.DIM, most=2)
        return
    legend_h = h // 7
    cx, cw = x0 + int(w * 0.03), int(w * 0.58)
    cy, ch = y0 + 4, h - legend_h - 8
    kit.draw_panel(surface, (cx, cy, cw, ch), kit.PANEL, radius_frac=0.04)
    rods = audit.rods
    most = max([r[1] for r in rods] + [1])
    col = cw // max(1, len(rods))
    num_h = ch // 7
    bar_top, bar_bottom = cy + num_h + 4, cy + ch - 2 * num_h - 4
    pg = kit.load_pygame()
    for i, (name, touches, voided, glitches, stuck) in enumerate(rods):
        x = cx + i * col
        bar_w = max(4, col // 3)
        bx = x + (col - bar_w) // 2
        full = bar_bottom - bar_top
        height = int(full * touches / most)
        kept = int(full * (touches - voided) / most) if touches else 0
        pg.draw.line(surface, kit.DIM, (x + col // 2, bar_top), (x + col // 2, bar_bottom), 1)
        if height:
            pg.draw.rect(surface, kit.AMBER, pg.Rect(bx, bar_bottom - height, bar_w, height))
            pg.draw.rect(surface, kit.GREEN, pg.Rect(bx, bar_bottom - kept, bar_w, kept))
        kit.put_text(surface, str(touches), (x, cy + 2, col, num_h), kit.TEXT)
        kit.put_text(surface, name.split(".")[1], (x, bar_bottom + 2, col, num_h), kit.GOLD)
        faults = glitches + stuck
        kit.put_text(surface, str(faults) if faults else "-",
                     (x, bar_bottom + num_h + 2, col, num_h), kit.RED if faults else kit.DIM)
    third = cw // 3
    legend = ((N_("rig.service.audit.touches"), kit.GREEN),
              (N_("rig.service.audit.voided"), kit.AMBER),
              (N_("rig.service.audit.faults"), kit.RED))
    size = min(kit.fit_size([kit.as_text(Msg(code))], third - 8, legend_h)
               for code, _ in legend)      # one size for the three words
    for i, (code, colour) in enumerate(legend):
        kit.put_text(surface, Msg(code), (cx + i * third, cy + ch + 4, third, legend_h),
                     colour, size=size)
    # The matches per night: a small chart, the numbers above the bars.
    nx, nw = x0 + int(w * 0.64), int(w * 0.33)
    kit.put_label(surface, Msg("rig.service.audit.per_night"), (nx, y0, nw, legend_h),
                  kit.TEXT, align="center")
    nights = audit.nights
    top_n = max([n for _, n in nights] + [1])
    chart_top, chart_bottom = y0 + legend_h * 2, y0 + h - legend_h * 4
    col = nw // max(1, len(nights))
    for i, (day, n) in enumerate(nights):
        x = nx + i * col
        height = int((chart_bottom - chart_top) * n / top_n)
        pg.draw.rect(surface, kit.CANVAS, pg.Rect(x + col // 6, chart_bottom - height,
                                                  col * 2 // 3, height))
        kit.put_text(surface, str(n), (x, chart_bottom - height - legend_h, col, legend_h),
                     kit.TEXT)
        kit.put_text(surface, day[-2:], (x, chart_bottom + 2, col, legend_h * 3 // 4), kit.DIM)
    kit.put_para(surface, Msg("rig.service.audit.totals", started=audit.started,
                              finished=audit.finished, abandoned=audit.abandoned),
                 (nx, y0 + h - legend_h * 3, nw, legend_h * 3), kit.IVORY, most=3)


# --- sounds -----------------------------------------------------------------------------------

def cues(prev, board):
    """``(sounds, spoken)`` the service screen ``board`` calls for after ``prev``: the numbered
    sounds and spoken tests newer than ``prev``'s (none for a first service screen).  Pure."""
    if not isinstance(prev, ServiceScreen):
        return [], []
    heard_n = max([n for n, _ in prev.sounds] + [n for n, _ in prev.spoken], default=0)
    return ([name for n, name in board.sounds if n > heard_n],
            [msg for n, msg in board.spoken if n > heard_n])


def levels(board):
    """The sound levels the service screen ``board`` sets: ``(effects_volume, voice_volume,
    voice_on, spanish_voice)``."""
    from ..core.service import sound_levels
    return sound_levels(dict(board.levels))


def hear(prev, board, sounds, voice, lang):
    """Apply ``board``'s levels to the display's ``sounds`` (a SoundBank) and ``voice`` (a
    Voice, or None; the voice off is its volume 0 until the rig restarts without it), then
    play its new tests: each sound, and the spoken test said in ``lang`` (the screen's)."""
    effects, voice_volume, voice_on, _ = levels(board)
    set_volume = getattr(sounds, "set_volume", None)
    if set_volume is not None:
        set_volume(effects)
    if voice is not None:
        voice.volume = voice_volume if voice_on else 0.0
    played, spoken = cues(prev, board)
    for name in played:
        sounds.play(name)
    if voice is not None and voice_on and spoken:
        from ..words import Words
        words = Words(lang)
        for msg in spoken:
            voice.speak(words.text(msg))


# --- the sample screens -------------------------------------------------------------------------

SHOTS = ("service", "switch-test", "service-sound", "service-sensitivity", "service-audits")

_INPUTS = ("button", "laser.1", "laser.2", "laser.3", "laser.4", "laser.5", "laser.6", "guard",
           "seat.4", "seat.5", "seat.6", "painting.1", "painting.2", "tof", "relic.1.tilt",
           "relic.1.motion", "relic.2.tilt", "relic.2.motion", "relic.3.tilt", "relic.3.motion",
           "hub")


def _sample_desk():
    factory = factory_values(0.1, (1, 2, 3, 4, 5, 6), (1, 2, 3), {})
    values = {name: 0 for name in _INPUTS}
    values.update({"seat.4": 1, "seat.5": 1, "seat.6": 1, "painting.1": 1, "painting.2": 1,
                   "tof": 812, "relic.1.tilt": 2.5, "relic.2.tilt": 1.0, "relic.3.tilt": 3.5,
                   "hub": 1})
    tuning = check_tuning(tuned(tuned((), "merge.laser.4", 0.2), "tilt.relic.2", 45.0))
    return open_desk("Ana", _INPUTS, factory, tuning, values)


def shot(name):
    """``(draw, thing)`` for a sample service screen."""
    desk = _sample_desk()
    if name == "switch-test":
        desk = replace(desk, page="switch-test")
        desk, _ = heard(desk, 3.0, "guard", 1)
        desk, _ = heard(desk, 3.5, "guard", 0)
        desk, _ = heard(desk, 3.9, "seat.5", 0)
        desk, _ = heard(desk, 4.2, "laser.4", 1)
        board = screen(desk, now_s=4.6)
    elif name == "service-sound":
        desk = replace(desk, page="sound", cursor=0)
        board = screen(desk)
    elif name == "service-audits":
        from ..core.service import AuditView
        audit = AuditView(
            rods=(("laser.1", 41, 1, 0, 0), ("laser.2", 37, 0, 2, 0), ("laser.3", 22, 2, 0, 0),
                  ("laser.4", 58, 3, 0, 1), ("laser.5", 0, 0, 0, 0), ("laser.6", 19, 0, 14, 0)),
            nights=(("2026-11-13", 6), ("2026-11-20", 9), ("2026-11-27", 4),
                    ("2026-12-04", 11)),
            started=30, finished=27, abandoned=3, recordings=30)
        board = screen(replace(desk, page="audits", audit=audit))
    elif name == "service-sensitivity":
        desk = replace(desk, page="sensitivity", cursor=3)
        board = screen(desk)
    else:
        desk, _ = press(desk, "down")
        board = screen(desk)
    return (lambda surface, thing: draw_service(surface, thing)), board
