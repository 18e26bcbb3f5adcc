"""One small picture for each Stop Thief! clue, drawn with shapes (no image files, no glyphs
the built-in font lacks): a bell for the alarm, footprints, a loudspeaker, an open door, a
cracked window, a car in the street, a musical note for hold music.

Each icon has its own colour too, but never only a colour: the shape and the word carry it.
"""

import math

from ...draw.kit import DARK, load_pygame

ICON_COLOURS = {
    "crime": (235, 55, 55),
    "inside": (235, 205, 150),
    "subway": (90, 150, 245),
    "door": (200, 130, 70),
    "window": (150, 220, 245),
    "outside": (170, 180, 200),
    "stayed": (190, 150, 240),
}


def draw_clue_icon(surface, kind, box, colour=None):
    """Draw the icon of clue ``kind`` inside ``box`` (x, y, w, h); unknown kinds draw a
    question-mark ring."""
    pg = load_pygame()
    x, y, w, h = box
    u = min(w, h)
    if u < 6:
        return
    ox, oy = x + (w - u) / 2, y + (h - u) / 2
    colour = colour or ICON_COLOURS.get(kind, (150, 156, 178))
    line = max(2, int(u * 0.08))

    def p(fx, fy):
        return (int(ox + fx * u), int(oy + fy * u))

    def rect(fx, fy, fw, fh):
        return pg.Rect(int(ox + fx * u), int(oy + fy * u), max(1, int(fw * u)), max(1, int(fh * u)))

    if kind == "crime":                       # an alarm bell with its clapper, ringing
        pg.draw.polygon(surface, colour, [p(0.22, 0.72), p(0.3, 0.38), p(0.5, 0.2), p(0.7, 0.38),
                                          p(0.78, 0.72)])
        pg.draw.rect(surface, colour, rect(0.16, 0.70, 0.68, 0.09))
        pg.draw.circle(surface, colour, p(0.5, 0.86), int(u * 0.07))
        for side in (-1, 1):
            for r in (0.36, 0.46):
                cx, cy = ox + (0.5 + side * 0.02) * u, oy + 0.48 * u
                pts = [(int(cx + side * r * u * math.cos(a)), int(cy - r * u * math.sin(a)))
                       for a in (math.radians(d) for d in range(-25, 30, 10))]
                pg.draw.lines(surface, colour, False, pts, max(1, line // 2))
    elif kind == "inside":                    # two footprints, one ahead of the other
        for fx, fy in ((0.33, 0.52), (0.62, 0.2)):
            pg.draw.ellipse(surface, colour, rect(fx - 0.1, fy, 0.2, 0.3))
            pg.draw.ellipse(surface, colour, rect(fx - 0.08, fy + 0.33, 0.16, 0.13))
    elif kind == "subway":                    # a loudspeaker and its sound
        pg.draw.rect(surface, colour, rect(0.14, 0.38, 0.16, 0.24))
        pg.draw.polygon(surface, colour, [p(0.3, 0.38), p(0.52, 0.18), p(0.52, 0.82),
                                          p(0.3, 0.62)])
        for r in (0.16, 0.28):
            arc = rect(0.5 - r, 0.5 - r, 2 * r, 2 * r)
            pg.draw.arc(surface, colour, arc, -0.8, 0.8, line)
    elif kind == "door":                      # a door frame, the door swung open
        pg.draw.rect(surface, colour, rect(0.22, 0.12, 0.56, 0.78), line)
        pg.draw.polygon(surface, colour, [p(0.22, 0.12), p(0.56, 0.2), p(0.56, 0.84),
                                          p(0.22, 0.9)])
        pg.draw.circle(surface, DARK, p(0.48, 0.54), max(1, int(u * 0.04)))
    elif kind == "window":                    # a window pane with a crack through it
        pg.draw.rect(surface, colour, rect(0.14, 0.14, 0.72, 0.72), line)
        pg.draw.line(surface, colour, p(0.5, 0.14), p(0.5, 0.86), max(1, line // 2))
        pg.draw.line(surface, colour, p(0.14, 0.5), p(0.86, 0.5), max(1, line // 2))
        pg.draw.lines(surface, colour, False, [p(0.2, 0.24), p(0.36, 0.4), p(0.3, 0.52),
                                               p(0.5, 0.62), p(0.44, 0.74), p(0.62, 0.84)], line)
    elif kind == "outside":                   # a car in the street
        pg.draw.rect(surface, colour, rect(0.1, 0.46, 0.8, 0.22), border_radius=int(u * 0.06))
        pg.draw.polygon(surface, colour, [p(0.26, 0.47), p(0.36, 0.28), p(0.64, 0.28),
                                          p(0.74, 0.47)])
        for fx in (0.3, 0.7):
            pg.draw.circle(surface, colour, p(fx, 0.72), int(u * 0.1))
            pg.draw.circle(surface, DARK, p(fx, 0.72), int(u * 0.045))
    elif kind == "stayed":                    # a musical note
        pg.draw.ellipse(surface, colour, rect(0.22, 0.62, 0.26, 0.2))
        pg.draw.line(surface, colour, p(0.46, 0.7), p(0.46, 0.16), line)
        pg.draw.polygon(surface, colour, [p(0.46, 0.16), p(0.74, 0.3), p(0.74, 0.42),
                                          p(0.46, 0.3)])
    else:
        pg.draw.circle(surface, colour, p(0.5, 0.5), int(u * 0.38), line)
