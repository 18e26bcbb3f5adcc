"""The display kit: what every screen of the rig draws with (the scoreboard, the setup screens,
each game's screen in its folder ``rig/games/<game>/screen.py``).

* the palette (each state has a colour AND a shape or a word, never colour alone);
* countdown and clock texts (:func:`countdown_text`, :func:`is_last_seconds`);
* tolerant readers for snapshot values from a bad daemon (:func:`as_text`, :func:`as_int`,
  :func:`as_tuple`, :func:`as_dict`, :func:`as_finite`);
* layout as fractions of the window (:func:`boxes`) and the legibility floor
  (:func:`legible_size`);
* fonts and text, cached (:func:`load_pygame`, :func:`get_font`, :func:`render_text`,
  :func:`fit_size`, :func:`put_text`, :func:`put_big`, :func:`wrap_lines`, :func:`put_para`,
  :func:`put_name`, :func:`put_label`, :func:`put_name_in`, :func:`names_size`);
* shapes (:func:`draw_panel`, :func:`draw_cross`, :func:`draw_check`, :func:`draw_infinity`,
  :func:`draw_painting_icon`, :func:`draw_relic_icon`);
* a headless screenshot of any screen's ``draw`` (:func:`save_png`).

Everything is sized from the surface, with pygame's built-in font (no font files).  pygame is
imported inside the functions, so importing this module (for :func:`countdown_text`,
:func:`boxes`) never needs pygame.
"""

import math
import os
from collections import OrderedDict
from typing import Dict, Optional, Tuple

from ..core.errors import DisplayError


# --- Palette: each state has a colour AND a shape or a word, never colour alone ---------------
BG = (14, 16, 28)
PANEL = (30, 34, 54)
PANEL_2 = (40, 45, 70)
TEXT = (242, 242, 246)
DIM = (150, 156, 178)
RED = (235, 40, 40)            # the countdown's last 10 s, laser strikes
GREEN = (40, 185, 90)
GOLD = (245, 190, 40)          # taken loot, round winners
AMBER = (255, 165, 0)          # faults, prompts, awaiting the haul
BROKEN = (200, 50, 200)        # broken relics (magenta, with a cross and the word BROKEN)
IVORY = (228, 226, 212)        # loot in place
CANVAS = (70, 120, 190)
DARK = (20, 20, 24)

LAST_SECONDS = 10             # the countdown turns red (and ticks) from here
# The legibility floor.  On the Raspberry Pi 7-inch panel (800x480, 85.9 mm tall) a pixel is
# 0.18 mm.  A 20/20 eye reads capitals that subtend 5 arcminutes: 2.9 mm from 2 m, 16 px, which
# pygame's built-in font draws at size 32 (its capitals are half the size).  So names and the
# checklist stay at 32 px or more at 800x480: the window's height / 15 at any size.
LEGIBLE_FRAC = 1 / 15
_EPS = 1e-6                   # so 30.000000001 left (float noise) still shows 30, not 31
MIN_FONT = 6


# --- Pure helpers ------------------------------------------------------------------------------

def as_finite(x) -> Optional[float]:
    """``x`` as a float, or None when it is not a usable number (None, NaN, inf, text)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    x = float(x)
    if x != x or x in (float("inf"), float("-inf")):
        return None
    return x


def countdown_seconds(remaining_s) -> Optional[int]:
    """Whole seconds to show, rounded UP: 59.01 -> 60, 0.2 -> 1, 0 -> 0 (0 only at expiry).

    None when there is no usable number (no time limit, or a bad value)."""
    x = as_finite(remaining_s)
    if x is None:
        return None
    if x <= 0:
        return 0
    return max(1, math.ceil(x - _EPS))


def countdown_text(remaining_s) -> str:
    """The countdown as shown: plain seconds below 100 ("60", "7"), else minutes ("2:05")."""
    n = countdown_seconds(remaining_s)
    if n is None:
        return "--"
    if n < 100:
        return str(n)
    return "%d:%02d" % divmod(n, 60)


def clock_text(elapsed_s) -> str:
    """A running clock for levels without a limit: "0:07", "1:23", "1:02:03"."""
    x = as_finite(elapsed_s)
    if x is None or x < 0:
        x = 0.0
    n = int(min(x, 359999.0))
    h, rest = divmod(n, 3600)
    m, s = divmod(rest, 60)
    return "%d:%02d:%02d" % (h, m, s) if h else "%d:%02d" % (m, s)


def is_last_seconds(remaining_s) -> bool:
    """True in the last 10 s of a timed turn (the countdown is red and ticks)."""
    n = countdown_seconds(remaining_s)
    return n is not None and n <= LAST_SECONDS


# --- Words: the language the screen speaks ----------------------------------------------------
# The display draws from one thread; the face sets the table's language before each frame
# (:func:`use_words`), and every text drawn through :func:`as_text` that is a code (a
# :class:`rig.core.msg.Msg`, or its JSON form from the display process's pipe) is said in it.
_words = [None]


def use_words(words):
    """Say every code drawn from now on with ``words`` (a :class:`rig.words.Words`, or a
    language code); returns the previous one."""
    if isinstance(words, str):
        from ..words import Words
        words = Words(words)
    before = _words[0]
    _words[0] = words
    return before


def words():
    """The :class:`rig.words.Words` the screen speaks now (English until a face chooses)."""
    if _words[0] is None:
        from ..words import Words
        _words[0] = Words()
    return _words[0]


def say(code, /, **params) -> str:
    """A code of a catalog (``rig.keys.start``, ``stop_thief.screen.money``) in the screen's
    language: every word a screen draws comes through here or :func:`as_text`."""
    return words().say(code, **params)


def as_text(x, limit=200) -> str:
    """Any value as one line of text (snapshots from a bad daemon must not crash the screen); a
    code is said in the screen's language."""
    if x is None:
        return ""
    if not isinstance(x, str):
        from ..core.msg import Msg, from_json, is_msg_json
        if is_msg_json(x):
            try:
                x = from_json(x)
            except (TypeError, ValueError):
                x = ""
        if isinstance(x, Msg):
            x = words().text(x)
    s = x if isinstance(x, str) else str(x)
    # str.split() also splits on the no-break spaces French puts in numbers and before ":"
    # (Babel's CLDR formats), which the screen's font has no glyph for: they become spaces.
    s = " ".join(s[:limit * 4].split())
    if not s.isprintable():   # NUL and control characters make pygame raise; drop them
        s = "".join(ch for ch in s if ch.isprintable())
    if any("\ud800" <= ch <= "\udfff" for ch in s):
        s = "".join(ch for ch in s if not "\ud800" <= ch <= "\udfff")
    return s[:limit]


def as_int(x, default=0) -> int:
    """``x`` as a whole number (clamped to +-10**9), or ``default`` when it is not a number."""
    v = as_finite(x)
    if v is None:
        return default
    return int(max(-10 ** 9, min(10 ** 9, v)))


def as_tuple(x) -> tuple:
    """``x`` as a tuple of its items; () for None, text or anything not iterable."""
    if x is None or isinstance(x, (str, bytes)):
        return ()
    try:
        return tuple(x)
    except TypeError:
        return ()


def as_dict(x) -> dict:
    """A copy of ``x`` if it is a dict, else {}."""
    return dict(x) if isinstance(x, dict) else {}


# --- Layout: named boxes as fractions of the window ---------------------------------------------

Box = Tuple[int, int, int, int]


def boxes(size, fractions) -> Dict[str, Box]:
    """``fractions`` (name -> (x, y, w, h) as fractions of the window) in pixels for a window
    of ``size`` (w, h): every screen of the rig lays itself out this way."""
    W, H = int(size[0]), int(size[1])
    return {name: (int(round(fx * W)), int(round(fy * H)), max(1, int(round(fw * W))),
                   max(1, int(round(fh * H))))
            for name, (fx, fy, fw, fh) in fractions.items()}


# --- Fonts and text (cached: the Pi redraws the same words 30 times a second) ---------------------

_fonts: Dict[int, object] = {}
_surfaces: "OrderedDict[tuple, object]" = OrderedDict()
_surface_bytes = [0]
_CACHE_BYTES = 48 * 1024 * 1024


def load_pygame():
    """pygame, its font module started (the caches are emptied after a pygame.quit())."""
    import pygame
    if not pygame.font.get_init():
        pygame.font.init()
        _fonts.clear()          # fonts from before a pygame.quit() are dead
        _surfaces.clear()
        _surface_bytes[0] = 0
    return pygame


# pygame's built-in font (FreeSans Bold, freesansbold.ttf) carries a broken kerning table: 1291
# of its 1535 pairs push letters APART (t-u +77, R-A +87, x-p +89 thousandths of an em), so
# "PREPARACIÓN" read "PREPAR ACIÓN" and "puntuación" "punt uación" on the screen (issue 30).
# The kit draws with the same font, its "kern" table hidden from FreeType (its tag renamed in the
# font's table directory, in memory): every letter at its own advance, as the font's glyphs were
# drawn. pygame scales its built-in font to 0.6875 of the size asked (a size is the height of a
# line): so does the kit, so every size measures as before.
_DEFAULT_SCALE = 0.6875
_font_bytes = []


def font_bytes() -> bytes:
    """The screen's font file (pygame's freesansbold.ttf) with its kerning table hidden."""
    if not _font_bytes:
        import pygame
        path = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
        with open(path, "rb") as f:
            data = bytearray(f.read())
        tables = int.from_bytes(data[4:6], "big")
        for i in range(tables):
            at = 12 + 16 * i
            if data[at:at + 4] == b"kern":
                data[at:at + 4] = b"xern"     # a tag FreeType does not know: no kerning
        _font_bytes.append(bytes(data))
    return _font_bytes[0]


def get_font(size):
    """pygame's built-in font at ``size`` (at least :data:`MIN_FONT`; without its broken
    kerning, :func:`font_bytes`), cached."""
    size = max(MIN_FONT, int(size))
    found = _fonts.get(size)
    if found is None:
        if len(_fonts) > 96:
            _fonts.clear()
        import io
        data = io.BytesIO(font_bytes())      # kept with the font: FreeType reads glyphs late
        found = (load_pygame().font.Font(data, max(1, int(size * _DEFAULT_SCALE))), data)
        _fonts[size] = found
    return found[0]


def render_text(text, size, colour):
    """``text`` rendered (antialiased) at ``size`` in ``colour``: a Surface, cached (least
    recently used first out, within :data:`_CACHE_BYTES`).  Every glyph run goes through here."""
    key = (text, int(size), tuple(colour))
    s = _surfaces.get(key)
    if s is not None:
        _surfaces.move_to_end(key)
        return s
    try:
        s = get_font(size).render(text, True, colour)
    except load_pygame().error:     # only zero-width characters (U+200B...): nothing to draw
        s = load_pygame().Surface((0, get_font(size).get_height()))
    _surfaces[key] = s
    w, h = s.get_size()
    _surface_bytes[0] += w * h * 4
    while _surface_bytes[0] > _CACHE_BYTES and len(_surfaces) > 1:
        _, old = _surfaces.popitem(last=False)
        ow, oh = old.get_size()
        _surface_bytes[0] -= ow * oh * 4
    return s


def fit_size(texts, w, h, cap=None) -> int:
    """The largest font size at which every text of ``texts`` fits a ``w`` x ``h`` box."""
    texts = [t for t in texts if t] or ["0"]
    w, h = max(1, int(w)), max(1, int(h))
    size = max(MIN_FONT, int(h / 0.69))
    if cap:
        size = max(MIN_FONT, min(size, int(cap)))
    for _ in range(8):
        f = get_font(size)
        tw = max(f.size(t)[0] for t in texts)
        th = f.get_height()
        if (tw <= w and th <= h) or size <= MIN_FONT:
            break
        scale = min(w / max(1, tw), h / max(1, th))
        size = max(MIN_FONT, min(size - 1, int(size * scale)))
    return size


# --- What did not fit ----------------------------------------------------------------------------
# Every text the kit had to cut (ellipsized) since the last :func:`clips` call, and the size every
# fitted text got (:func:`fits`): what the pseudo-locale test reads
# (tests/test_languages_screens.py), so a translation too long for its box is found, not
# guessed: it must neither be cut nor drawn smaller than the English below the legibility floor.
_clips = []
_fits = []
_names = []
_MAX_CLIPS = 2000


def _clipped(text, why):
    if len(_clips) < _MAX_CLIPS:
        _clips.append((why, text))


def clips(clear=True):
    """The texts cut since the last call: ``[("cut", text), ...]``."""
    found = list(_clips)
    if clear:
        _clips.clear()
    return found


def fits(clear=True):
    """Every text :func:`put_text` fitted since the last call, in drawing order: ``[(text,
    size, floor, narrowed), ...]``: the font size it got, the legibility floor of the surface,
    and whether its box's width (not its height) set the size."""
    found = list(_fits)
    if clear:
        _fits.clear()
    return found


def ellipsize(text, size, w):
    """``text`` cut with "…" to fit ``w`` px at font ``size`` ("" when not even "…" fits)."""
    f = get_font(size)
    if f.size(text)[0] <= w:
        return text
    _clipped(text, "cut")
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.size(text[:mid] + "…")[0] <= w:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…" if lo else ""


def put_text(surface, text, box, colour=TEXT, align="center", size=None, cap=None):
    """Fit ``text`` into ``box`` (x, y, w, h) and blit it; returns the pixel rect it covers."""
    pg = load_pygame()
    text = as_text(text, 400)
    x, y, w, h = box
    if not text or w < 2 or h < 2:
        return pg.Rect(x, y, 0, 0)
    if size is None:
        size = fit_size([text], w, h, cap)
        if len(_fits) < _MAX_CLIPS:
            _fits.append((text, size, floor_of(surface),
                          size < fit_size([text], 10 ** 6, h, cap)))
    text = ellipsize(text, size, w)
    if not text:
        return pg.Rect(x, y, 0, 0)
    s = render_text(text, size, colour)
    sw, sh = s.get_size()
    if align == "left":
        tx = x
    elif align == "right":
        tx = x + w - sw
    else:
        tx = x + (w - sw) // 2
    ty = y + (h - sh) // 2
    return surface.blit(s, (tx, ty))


def put_big(surface, text, box, colour):
    """Big digits filling ``box``: fitted on the glyphs' ink (not the line box), centred."""
    pg = load_pygame()
    x, y, w, h = box
    if not text or w < 4 or h < 4:
        return pg.Rect(x, y, 0, 0)
    ref = 100
    ink = render_text(text, ref, colour).get_bounding_rect()
    if ink.w == 0 or ink.h == 0:
        return pg.Rect(x, y, 0, 0)
    size = max(MIN_FONT, int(ref * min(w / ink.w, h / ink.h) * 0.97))
    s = render_text(text, size, colour)
    ink = s.get_bounding_rect()
    # Rounding can leave the ink a few pixels too big: crop it to the box rather than overflow.
    ink.w, ink.h = min(ink.w, w), min(ink.h, h)
    return surface.blit(s, (x + (w - ink.w) // 2, y + (h - ink.h) // 2), ink)


def wrap_lines(text, size, w, max_lines=3):
    """Greedy word wrap of ``text`` at font ``size`` into at most ``max_lines`` lines."""
    f = get_font(size)
    words = as_text(text, 400).split(" ")
    lines, cur = [], ""
    for word in words:
        trial = (cur + " " + word).strip()
        if not cur or f.size(trial)[0] <= w:
            cur = trial
        else:
            lines.append(cur)
            cur = word
    if cur:
        lines.append(cur)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [" ".join(lines[max_lines - 1:])]
    return lines


def put_para(surface, text, area, colour, most=2, align="center"):
    """``text`` word-wrapped into at most ``most`` lines filling ``area``, all at one size: as
    large as the lines' height allows, smaller only while a line is too wide and the size is
    above the legibility floor (a text still too wide is then shrunk by the kit, which reports
    it: :func:`clips`)."""
    x, y, w, h = area
    text = as_text(text, 400)
    if not text or w < 4 or h < 4:
        return
    line_h = h // most
    size = line_size(line_h)
    floor = floor_of(surface)
    while True:
        lines = wrap_lines(text, size, w, most)
        if size <= floor or all(get_font(size).size(line)[0] <= w for line in lines):
            break
        size -= 1
    top = y + (h - len(lines) * line_h) // 2
    for i, line in enumerate(lines):
        put_text(surface, line, (x, top + i * line_h, w, line_h), colour, align, cap=size)


def legible_size(height) -> int:
    """The smallest font size the table reads from 2 m on a window ``height`` px tall (32 at
    800x480; see :data:`LEGIBLE_FRAC`)."""
    return max(MIN_FONT, int(round(as_int(height) * LEGIBLE_FRAC)))


def floor_of(surface) -> int:
    """The legibility floor of ``surface``: :func:`legible_size` of the WINDOW it is part of (a
    game drawn in the band above the host's message strip, a subsurface, keeps the window's
    floor: the table's eyes are as far as ever)."""
    try:
        root = surface.get_abs_parent()
    except AttributeError:
        root = surface
    return legible_size(root.get_height())


def line_size(h, cap=None) -> int:
    """The largest font size whose lines fit ``h`` px (whatever the width)."""
    return fit_size(["Hg"], 10 ** 6, h, cap)


def name_forms(name):
    """A name and its shorter forms, longest first: ``"Maximiliano Rodriguez"``,
    ``"Maximiliano R."``, ``"Maximiliano"``."""
    words = name.split()
    forms = [name]
    if len(words) > 1:
        forms += [words[0] + " " + " ".join(word[0] + "." for word in words[1:]), words[0]]
    return forms


def short_name(name, size, w) -> str:
    """``name`` in the longest of its forms (:func:`name_forms`) that fits ``w`` px at font
    ``size``, else cut with "…"."""
    f = get_font(size)
    for form in name_forms(name):
        if f.size(form)[0] <= w:
            return form
    return ellipsize(name, size, w)


def put_name(surface, name, box, colour=TEXT, align="left", cap=None, suffix="", size=None,
             forms=True, prefix=""):
    """A player's name in ``box``: the one way every screen draws a name (and, through
    :func:`put_label`, a label).  As large as fits (up to ``cap``; or at ``size``, a column's
    common size, :func:`names_size`), never below the legibility floor (:func:`floor_of`; the
    box's own line height when the box is shorter): a name too long at the floor is shortened
    (``forms``: "Maximiliano R.", :func:`name_forms`), then ends in "…".  Never broken nor cut
    inside a word but by that final "…".  ``prefix`` and ``suffix`` (``"ARRESTED by "``,
    ``" (own turn)"``) are kept whole."""
    name = as_text(name, 60)
    x, y, w, h = box
    floor = min(floor_of(surface), line_size(h, cap))
    if size is not None:
        size = max(int(size), floor)
        width = w - get_font(size).size(prefix + suffix)[0]
        shown = short_name(name, size, width) if forms else ellipsize(name, size, width)
    else:
        shown = None
        for form in (name_forms(name) if forms else [name]):
            size = fit_size([prefix + form + suffix], w, h, cap)
            if size >= floor:
                shown = form
                break
        if shown is None:
            size = floor
            width = w - get_font(size).size(prefix + suffix)[0]
            shown = short_name(name, size, width) if forms else ellipsize(name, size, width)
    if len(_names) < _MAX_CLIPS:
        _names.append((name, shown, size, floor))
    return put_text(surface, prefix + shown + suffix, box, colour, align, size=size)


#: Where a name goes in a sentence about it (:func:`put_name_in`): a private-use character.
NAME_MARK = "\ue000"


def put_name_in(surface, said, name, box, colour=TEXT, align="left", cap=None):
    """A sentence about a player (``said``: its words with :data:`NAME_MARK` where the name
    goes, ``say(code, player=NAME_MARK)``) in ``box``: the name drawn by :func:`put_name`, the
    sentence's other words kept whole around it ("ARRESTED by Maximil…")."""
    prefix, mark, suffix = said.partition(NAME_MARK)
    if not mark:
        return put_label(surface, said, box, colour, align, cap)
    return put_name(surface, name, box, colour, align, cap, suffix=suffix, prefix=prefix)


def put_label(surface, text, box, colour=TEXT, align="left", cap=None, size=None):
    """A label (a thief's card, a column's head, a state) in ``box`` as :func:`put_name` draws
    a name: as large as fits, never below the legibility floor, then ending in "…" (no name
    forms: a label is not abbreviated)."""
    return put_name(surface, text, box, colour, align, cap, size=size, forms=False)


def names_size(surface, names, w, h, cap=None) -> int:
    """One size for a column of ``names`` in boxes ``w`` x ``h``: the largest at which all fit,
    but never below the legibility floor (a name still too long there is shortened by
    :func:`put_name`)."""
    return max(fit_size([as_text(n, 60) for n in names], w, h, cap),
               min(floor_of(surface), line_size(h, cap)))


def names(clear=True):
    """Every name (and label) :func:`put_name` drew since the last call: ``[(name, shown,
    size, floor)]``; ``shown`` is what was drawn of it (a shorter form, or cut with "…")."""
    found = list(_names)
    if clear:
        _names.clear()
    return found


# --- Shapes ---------------------------------------------------------------------------------------

def draw_panel(surface, box, colour=PANEL, radius_frac=0.08, border=None):
    """A filled rounded rectangle over ``box``, with a ``border`` colour if given."""
    pg = load_pygame()
    x, y, w, h = box
    rad = max(0, int(min(w, h) * radius_frac))
    pg.draw.rect(surface, colour, pg.Rect(x, y, w, h), border_radius=rad)
    if border:
        pg.draw.rect(surface, border, pg.Rect(x, y, w, h), max(1, int(min(w, h) * 0.03)),
                     border_radius=rad)


def draw_infinity(surface, box, colour):
    """The "∞" sign as a thick lemniscate (the built-in font has no glyph for it)."""
    pg = load_pygame()
    x, y, w, h = box
    a = min(w / 2.3, h / 1.1)
    thick = max(2, int(a * 0.11))
    cx, cy = x + w / 2, y + h / 2
    steps = 160
    for i in range(steps):
        t = 2 * math.pi * i / steps
        d = 1 + math.sin(t) ** 2
        px = cx + a * math.cos(t) / d
        py = cy + a * math.sin(t) * math.cos(t) / d
        pg.draw.circle(surface, colour, (int(px), int(py)), thick)


def draw_cross(surface, box, colour, width):
    """An X across ``box`` (a strike, a wrong mark)."""
    pg = load_pygame()
    x, y, w, h = box
    pg.draw.line(surface, colour, (x, y), (x + w, y + h), width)
    pg.draw.line(surface, colour, (x + w, y), (x, y + h), width)


def draw_check(surface, box, colour, width):
    """A tick mark in ``box`` (done, found)."""
    pg = load_pygame()
    x, y, w, h = box
    pts = [(x + w * 0.12, y + h * 0.55), (x + w * 0.4, y + h * 0.85), (x + w * 0.9, y + h * 0.15)]
    pg.draw.lines(surface, colour, False, [(int(a), int(b)) for a, b in pts], width)


def draw_painting_icon(surface, box, frame, canvas, portrait):
    """A framed painting centred in ``box`` (upright if ``portrait``); returns its rect."""
    pg = load_pygame()
    x, y, w, h = box
    if portrait:
        pw, ph = w * 0.5, h * 0.8
    else:
        pw, ph = w * 0.8, h * 0.55
    r = pg.Rect(int(x + (w - pw) / 2), int(y + (h - ph) / 2), int(pw), int(ph))
    pg.draw.rect(surface, canvas, r)
    pg.draw.rect(surface, frame, r, max(2, int(min(pw, ph) * 0.14)))
    return r


def draw_relic_icon(surface, box, colour, tipped=False):
    """A vase: round body, neck and foot.  ``tipped`` draws it lying on its side."""
    pg = load_pygame()
    x, y, w, h = box
    u = min(w, h)
    cx, cy = x + w / 2, y + h / 2
    if not tipped:
        body = pg.Rect(int(cx - u * 0.28), int(cy - u * 0.12), int(u * 0.56), int(u * 0.46))
        neck = pg.Rect(int(cx - u * 0.11), int(cy - u * 0.36), int(u * 0.22), int(u * 0.28))
        lip = pg.Rect(int(cx - u * 0.18), int(cy - u * 0.40), int(u * 0.36), int(u * 0.08))
    else:
        body = pg.Rect(int(cx - u * 0.12), int(cy - u * 0.06), int(u * 0.46), int(u * 0.46))
        neck = pg.Rect(int(cx - u * 0.40), int(cy + u * 0.06), int(u * 0.30), int(u * 0.22))
        lip = pg.Rect(int(cx - u * 0.44), int(cy + u * 0.0), int(u * 0.08), int(u * 0.34))
    pg.draw.ellipse(surface, colour, body)
    pg.draw.rect(surface, colour, neck)
    pg.draw.rect(surface, colour, lip)
    return body.union(neck).union(lip)


# --- Headless screenshots -------------------------------------------------------------------------

def save_png(draw, thing, out_path, size=(800, 480)):
    """``draw(surface, thing)`` on a headless surface of ``size`` (w, h), saved as the PNG
    ``out_path`` (any screen's renderer: the Scoreboard's, or another game's view)."""
    try:
        w, h = (int(size[0]), int(size[1]))
        ok = len(size) == 2 and 160 <= w <= 8192 and 96 <= h <= 8192
    except (TypeError, ValueError, IndexError):
        ok = False
    if not ok:
        raise DisplayError("screenshot size %r is not usable; give (width, height) in pixels, "
                           "each 160x96 to 8192x8192, e.g. (800, 480) or (1920, 1080)" % (size,))
    out_path = os.fspath(out_path)
    if not out_path.lower().endswith(".png"):
        raise DisplayError("screenshot file %r must end in .png (the only format written)"
                           % out_path)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame
    surface = pygame.Surface((w, h))
    draw(surface, thing)
    try:
        pygame.image.save(surface, out_path)
    except (pygame.error, OSError) as e:
        raise DisplayError("cannot write the screenshot %r: %s; check that the folder exists "
                           "and is writable" % (out_path, e)) from None
    return out_path
