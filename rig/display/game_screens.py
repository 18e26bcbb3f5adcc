"""The companion games on the rig's screen: a :class:`~rig.core.gamekit.GameScreen` drawn
by its game's own renderer, with the host's message strip over its foot (and, when its
``phones`` are to be shown, the phones' QR code and pairing code over it).

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
    """Draw ``screen`` onto ``surface``: the game (its folder's ``screen.draw_screen``), then
    the message strip if there is one."""
    load_pygame()
    drawn = face_part(screen.game, "screen")
    if drawn is not None:
        drawn.draw_screen(surface, screen, now_s)
    if screen.phones is not None:
        W, H = surface.get_size()
        draw_phones(surface, screen.phones, (int(W * 0.4), int(H * 0.12), int(W * 0.58),
                                             int(H * 0.42)))
    text = as_text(screen.message, 400)
    if text:
        draw_strip(surface, text)


def draw_strip(surface, text):
    """``text`` on an amber strip across the foot of the window: one line when it fits, else
    wrapped onto more lines (up to :data:`MAX_LINES`), the strip growing with them, so that a
    long prompt stays legible from across the table."""
    pg = load_pygame()
    W, H = surface.get_size()
    inner = int(W * 0.96)
    line_h = H * 0.062
    size = fit_size(["Ag"], inner, line_h)
    lines = wrap_lines(text, size, inner, 99)
    while len(lines) > MAX_LINES and size > MIN_FONT:
        size = max(MIN_FONT, int(size * 0.9))
        lines = wrap_lines(text, size, inner, 99)
    lines = lines[:MAX_LINES - 1] + [" ".join(lines[MAX_LINES - 1:])]
    h = int(line_h * len(lines) + H * 0.025)
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
