"""Reading drawn frames as the table sees them: pixels of a colour in a box, a frame drawn
headless at a size, whether the host's message strip is showing.  Shared by the screen tests
(tests never import each other)."""

import pygame

from rig.draw.strip import STRIP

#: The two window sizes every screen is drawn at: the Pi's 7-inch panel and a 1080p TV.
SIZES = [(800, 480), (1920, 1080)]


def count(surface, box, colour, tol=30):
    """Pixels of ``colour`` (within ``tol`` per channel) inside ``box``."""
    sub = surface.subsurface(pygame.Rect(box).clip(surface.get_rect()))
    return pygame.mask.from_threshold(sub, colour, (tol, tol, tol, 255)).count()


def area(box):
    """The pixels a box (x, y, w, h) holds."""
    return box[2] * box[3]


def draw_frame(draw, view, size):
    """``draw(surface, view)`` on a fresh headless surface of ``size``; the surface."""
    surface = pygame.Surface(size)
    draw(surface, view)
    return surface


def strip_shown(frame):
    """Whether the message strip is drawn across the frame's foot."""
    w, h = frame.get_size()
    return tuple(frame.get_at((w // 2, h - 3)))[:3] == STRIP
