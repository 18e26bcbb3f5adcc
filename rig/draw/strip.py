"""The host's message strip: its own band at the foot of the window, the game laid out above it
(never under it), saying what the table must not miss and the game's screen has no place for: a
refused command's reason, the last call (for a game whose screen does not list calls), and while
keys are being typed, their prompt.  The faces draw every game's snapshot with it
(:mod:`rig.display.game_screens`); a game's sample screens show a refusal on it
(:func:`with_strip`).
"""

from .kit import MIN_FONT, as_text, fit_size, load_pygame, put_text, wrap_lines

STRIP = (52, 44, 12)
STRIP_TEXT = (255, 220, 90)
MAX_LINES = 5            # a longer text is shrunk onto this many lines


def draw_banded(surface, message, draw_game):
    """``draw_game(band)`` and the strip saying ``message`` (a code, text or None) below it.
    The strip has its own band at the foot of the window: the game is laid out in what is left
    (a subsurface: nothing the game draws is ever under the strip), and keeps the window's
    legibility floor (:func:`rig.draw.kit.floor_of`)."""
    load_pygame()
    W, H = surface.get_size()
    text = as_text(message, 400)
    h = strip_layout(W, H, text)[2] if text else 0
    band = surface.subsurface((0, 0, W, H - h)) if 0 < h < H else surface
    draw_game(band)
    if text:
        draw_strip(surface, text)


def with_strip(draw_game, message):
    """A sample's ``draw(surface, thing)`` with the host's strip saying ``message`` below it:
    the sample screens a refusal is shown over (``paintings-reveal-strip``...)."""
    return lambda surface, thing: draw_banded(surface, message,
                                              lambda band: draw_game(band, thing))


def strip_layout(W, H, text):
    """The message strip for ``text`` in a ``W`` x ``H`` window: ``(size, lines, height)``,
    one line when it fits, else wrapped onto more lines (up to :data:`MAX_LINES`, smaller
    when more would be needed), so that a long prompt stays legible from across the table."""
    inner = int(W * 0.96)
    line_h = H * 0.062
    size = fit_size(["Ag"], inner, line_h)
    lines = wrap_lines(text, size, inner, 99)
    while len(lines) > MAX_LINES and size > MIN_FONT:
        size = max(MIN_FONT, int(size * 0.9))
        lines = wrap_lines(text, size, inner, 99)
    if len(lines) > MAX_LINES:        # (no empty last line: the strip as tall as its words)
        lines = lines[:MAX_LINES - 1] + [" ".join(lines[MAX_LINES - 1:])]
    return size, lines, min(H, int(line_h * len(lines) + H * 0.025))


def draw_strip(surface, text):
    """``text`` on an amber strip across the foot of the window (its band:
    :func:`strip_layout`)."""
    pg = load_pygame()
    W, H = surface.get_size()
    size, lines, h = strip_layout(W, H, as_text(text, 400))
    inner = int(W * 0.96)
    line_h = H * 0.062
    y = H - h
    pg.draw.rect(surface, STRIP, pg.Rect(0, y, W, h))
    for i, line in enumerate(lines):
        put_text(surface, line, (int(W * 0.02), y + int(H * 0.0125 + i * line_h), inner,
                                 int(line_h)), STRIP_TEXT, "left", size=size)
