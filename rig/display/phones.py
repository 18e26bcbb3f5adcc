"""The phones' corner of the screen between turns: a QR code of the rig's address, the
pairing code in big digits (or the lock-out, while pairing is locked) and the paired phones.

The QR code is drawn module by module with pygame rectangles (segno only computes the matrix),
dark on a white quiet zone as phone cameras expect, and as large as the panel allows in whole
pixels per module so that no module blurs.  The matrix is cached by its text: the address
changes when the network does, not every frame.
"""

from functools import lru_cache

from ..core.phones import screen_lines
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


def draw_qr(surface, text, box):
    """Draw the QR code of ``text`` centred in ``box`` (x, y, w, h); returns the square it
    took, or None when the box is too small for one pixel a module."""
    pg = kit.load_pygame()
    matrix = qr_matrix(text)
    n = len(matrix) + 2 * QUIET_MODULES
    x, y, w, h = box
    px = min(w, h) // n
    if px < 1:
        return None
    side = px * n
    left, top = x + (w - side) // 2, y + (h - side) // 2
    pg.draw.rect(surface, WHITE, pg.Rect(left, top, side, side))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                pg.draw.rect(surface, BLACK, pg.Rect(left + (c + QUIET_MODULES) * px,
                                                     top + (r + QUIET_MODULES) * px, px, px))
    return (left, top, side, side)


def draw_phones(surface, view, box):
    """The phones' panel for ``view`` (a :class:`~rig.core.phones.PhonesView`) in ``box``."""
    x, y, w, h = box
    kit.draw_panel(surface, box, kit.PANEL, 0.05)
    pad = max(2, int(h * 0.05))
    qr_side = h - 2 * pad
    if view.url:                    # no address yet while the server starts: no code to scan
        draw_qr(surface, view.url, (x + pad, y + pad, qr_side, qr_side))
    tx = x + 2 * pad + qr_side
    tw = x + w - pad - tx
    heading, where, code, paired = screen_lines(view)
    locked = view.locked_s is not None
    kit.put_text(surface, heading, (tx, y + pad, tw, int(h * 0.14)),
                 kit.RED if locked else kit.DIM, "left")
    kit.put_text(surface, where, (tx, y + pad + int(h * 0.15), tw, int(h * 0.16)),
                 kit.TEXT, "left")
    kit.put_text(surface, code, (tx, y + pad + int(h * 0.34), tw, int(h * 0.30)),
                 kit.RED if locked else kit.GOLD, "left")
    kit.put_text(surface, paired, (tx, y + pad + int(h * 0.68), tw, int(h * 0.2)),
                 kit.TEXT if view.phones else kit.DIM, "left")
