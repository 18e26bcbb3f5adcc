"""The companion games on the rig's screen: a :class:`~rig.core.gamekit.GameScreen` drawn
by its game's own renderer (found through the registry), with the host's message strip in its
own band at the foot (:mod:`rig.draw.strip`: the game laid out above it, never under it) and,
when its ``phones`` are to be shown, the phones' QR code and pairing code over the game.
:func:`cues` (pure) says which sounds a new snapshot calls for.
"""

from ..draw.phones import draw_phones
from ..draw.strip import draw_banded
from .parts import face_part


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
