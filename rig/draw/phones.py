"""The phones' corner of the screen between turns: a QR code of the rig's address, the
pairing code in big digits (or the lock-out, while pairing is locked) and the paired phones.

The QR code is drawn module by module with pygame rectangles (segno only computes the matrix),
dark on a white quiet zone as phone cameras expect, and as large as the panel allows in whole
pixels per module so that no module blurs.  The matrix is cached by its text: the address
changes when the network does, not every frame.
"""

from functools import lru_cache

from ..core.phones import pair_link, screen_lines
from . import kit

QUIET_MODULES = 2          # the quiet zone around the code; phone cameras read 2 fine
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


@lru_cache(maxsize=4)
def qr_matrix(text):
    """The QR code of ``text`` as rows of booleans (True: a dark module), error correction M
    (a scuffed or glare-struck screen still scans)."""
    import segno
    code = segno.make(text, error="m", boost_error=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def qr_side(text, room):
    """The side in pixels of the QR code of ``text`` drawn in a ``room`` px square: whole
    pixels a module, quiet zone included (0 when not even one pixel a module fits)."""
    n = len(qr_matrix(text)) + 2 * QUIET_MODULES
    return (max(0, int(room)) // n) * n


def draw_qr(surface, text, box):
    """Draw the QR code of ``text`` centred in ``box`` (x, y, w, h); returns the square it
    took, or None when the box is too small for one pixel a module."""
    pg = kit.load_pygame()
    matrix = qr_matrix(text)
    n = len(matrix) + 2 * QUIET_MODULES
    x, y, w, h = box
    side = qr_side(text, min(w, h))
    if side < n:
        return None
    px = side // n
    left, top = x + (w - side) // 2, y + (h - side) // 2
    pg.draw.rect(surface, WHITE, pg.Rect(left, top, side, side))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                pg.draw.rect(surface, BLACK, pg.Rect(left + (c + QUIET_MODULES) * px,
                                                     top + (r + QUIET_MODULES) * px, px, px))
    return (left, top, side, side)


def draw_phones(surface, view, box):
    """The phones' panel for ``view`` (a :class:`~rig.core.phones.PhonesView`) in ``box``.

    The QR code takes the panel's height at the left, in whole pixels a module; the words take
    the column to its right: the heading at the top and the paired phones at the bottom, in
    one small size set by the panel's height (the same in every language), each wrapped onto a
    second line rather than shrunk when a language's words (or the phones' names) are longer;
    the address under the heading, and the code (or the lock-out) as large as the rest leaves
    it."""
    x, y, w, h = box
    kit.draw_panel(surface, box, kit.PANEL, 0.05)
    pad = max(2, int(h * 0.05))
    room = h - 2 * pad
    link = pair_link(view)          # the address and the code: a scan pairs (docs/games/phones.md)
    qr = qr_side(link, room) if link else 0
    if qr:                          # no address yet while the server starts: no code to scan
        draw_qr(surface, link, (x + pad, y + pad, qr, room))
    tx = x + 2 * pad + (qr or room)
    tw = x + w - pad - tx
    if tw < 2 or room < 4:
        return
    heading, where, code, paired = screen_lines(view)
    locked = view.locked_s is not None
    small = kit.line_size(room * 0.125)
    line_h = kit.get_font(small).get_linesize()
    gap = max(1, room // 40)
    top, bottom = y + pad, y + pad + room
    top += _put_lines(surface, heading, (tx, top, tw, 2 * line_h), small,
                      kit.RED if locked else kit.DIM) + gap
    paired_lines = _lines(paired, small, tw)
    bottom -= len(paired_lines) * line_h
    _put_lines(surface, paired, (tx, bottom, tw, 2 * line_h), small,
               kit.TEXT if view.phones else kit.DIM)
    where_h = min(int(line_h * 1.2), max(0, bottom - top))
    kit.put_text(surface, where, (tx, top, tw, where_h), kit.TEXT, "left")
    top += where_h + gap
    kit.put_text(surface, code, (tx, top, tw, max(0, bottom - gap - top)),
                 kit.RED if locked else kit.GOLD, "left")


def _lines(text, size, w, max_lines=2):
    """``text`` (a code or words) word-wrapped at font ``size`` into at most ``max_lines``
    lines ``w`` px wide (a last line still too long is cut, and reported, when drawn)."""
    return kit.wrap_lines(kit.as_text(text, 200), size, w, max_lines) or [""]


def _put_lines(surface, text, box, size, colour):
    """``text`` wrapped (:func:`_lines`) into ``box`` (x, y, w, h), top down, left aligned, at
    font ``size``; returns the height its lines took."""
    x, y, w, h = box
    line_h = kit.get_font(size).get_linesize()
    lines = _lines(text, size, w, max(1, h // line_h))
    for i, line in enumerate(lines):
        kit.put_text(surface, line, (x, y + i * line_h, w, line_h), colour, "left", size=size)
    return len(lines) * line_h
