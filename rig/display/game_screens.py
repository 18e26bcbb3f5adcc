"""The companion games on the rig's screen: a :class:`~rig.core.gamekit.GameScreen` drawn
by its game's own renderer, with the host's message strip in its own band at the foot (the
game laid out above it, never under it) and, when its ``phones`` are to be shown, the phones'
QR code and pairing code over the game.

The strip says what the table must not miss and the game's screen has no place for: a refused
command's reason, the last call (for a game whose screen does not list calls), and while keys
are being typed, their prompt.  :func:`cues` (pure) says which sounds a new snapshot calls for.
"""

from .kit import MIN_FONT, as_text, fit_size, load_pygame, put_text, wrap_lines
from .parts import face_part
from .phones import draw_phones

STRIP = (52, 44, 12)
STRIP_TEXT = (255, 220, 90)
MAX_LINES = 5            # a longer text is shrunk onto this many lines


def draw(surface, screen, now_s=None):
    """Draw ``screen`` onto ``surface``: the game (its folder's ``screen.draw_screen``) in the
    band above the message strip, then the strip if there is a message."""
    drawn = face_part(screen.game, "screen")

    def game(band):
        if drawn is not None:
            drawn.draw_screen(band, screen, now_s)
        if screen.phones is not None:
            bw, bh = band.get_size()
            draw_phones(band, screen.phones, (int(bw * 0.4), int(bh * 0.12), int(bw * 0.58),
                                              int(bh * 0.42)))

    draw_banded(surface, screen.message, game)


def draw_banded(surface, message, draw_game):
    """``draw_game(band)`` and the strip saying ``message`` (a code, text or None) below it.
    The strip has its own band at the foot of the window: the game is laid out in what is left
    (a subsurface: nothing the game draws is ever under the strip), and keeps the window's
    legibility floor (:func:`rig.display.kit.floor_of`)."""
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


def cues(prev, screen):
    """The sounds ``screen`` calls for after ``prev`` (the snapshot shown before it, or None):
    each numbered sound newer than ``prev``'s newest.  A first snapshot plays nothing (a
    display that starts late must not replay old sounds).  Pure."""
    if prev is None or getattr(prev, "game", None) != getattr(screen, "game", None):
        return []
    heard = max((n for n, _ in getattr(prev, "sounds", ())), default=0)
    return [name for n, name in getattr(screen, "sounds", ()) if n > heard]


def extra_sounds(game):
    """The sounds ``game`` brings beyond the rig's own, as name -> ``make(sample_rate)``: its
    folder's ``sounds.extra_sounds()`` (Stop Thief!'s seven clues, Canine Kleptomaniacs' own
    roll of the die in place of the dice game's rattle); none for a game without sounds.
    Made once when the display opens, off the host's thread."""
    sounds = face_part(game, "sounds")
    return dict(sounds.extra_sounds()) if sounds is not None else {}
