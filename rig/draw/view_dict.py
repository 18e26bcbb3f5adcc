"""Reading a game's view (a JSON-ready dict) for drawing: a missing or malformed entry reads
as empty, so a bad view draws what it can and never raises; and boxes as window fractions."""


def get(view, key):
    return view.get(key) if isinstance(view, dict) else None


def items(view, key):
    value = get(view, key)
    return list(value) if isinstance(value, (list, tuple)) else []


def mapping(view, key):
    value = get(view, key)
    return value if isinstance(value, dict) else {}


def box(W, H, fx, fy, fw, fh):
    """A box (x, y, w, h) in pixels given as fractions of a W x H window."""
    return (int(fx * W), int(fy * H), max(1, int(fw * W)), max(1, int(fh * H)))
