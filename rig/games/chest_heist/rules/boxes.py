"""The score sheet's boxes, as the rulebook names them, and how a player or a sheet file
writes one: ``"7"`` (a numbered box), ``"P"`` (pair: one even die), ``"I"`` (impair: one odd
die), ``"x2"`` (a pair of identical dice), ``"x2:6"`` (a pair of identical dice making 6, i.e.
two 3s) and ``"#"`` (black: already ticked by the previous burglar; sheet files only).

The x2 box with a number is how the rig reads the rulebook's example: for an x2 box showing 6,
"6 & 6, 5+1 and 4+2 will not work" (6 & 6 make 12; 5+1 and 4+2 are not identical), so only
3 & 3 ticks it.
"""

from dataclasses import dataclass
from typing import Optional

from rig.core.errors import IllegalMove
from rig.core.msg import Msg

NUMBER, EVEN, ODD, PAIR, BLACK = "number", "even", "odd", "pair", "black"
LARGEST = 99                # the largest number a box may carry


@dataclass(frozen=True)
class Box:
    kind: str
    number: Optional[int] = None

    @property
    def label(self):
        """The box as written on the sheet."""
        if self.kind == NUMBER:
            return str(self.number)
        if self.kind == PAIR:
            return "x2" if self.number is None else "x2:%d" % self.number
        return {EVEN: "P", ODD: "I", BLACK: "#"}[self.kind]


#: How a box is written, for the builder's sheet file errors (a player reads the code's words).
SPEC_HELP = ('a number 1 to %d, "P" (one even die), "I" (one odd die), "x2" (two identical '
             'dice) or "x2:N" (two identical dice making N, an even number 2 to '
             '12)' % LARGEST)  # not words: the sheet file's errors, for the builder


def parse_box(spec, black=False):
    """The :class:`Box` a spec names; ``black`` allows ``"#"`` (sheet files).  IllegalMove
    naming the spec and what is allowed otherwise (a code)."""
    if isinstance(spec, int) and not isinstance(spec, bool):
        spec = str(spec)
    if not isinstance(spec, str):
        raise IllegalMove(Msg("chest_heist.refuse.not_a_box", box=repr(spec)[:20], most=LARGEST))
    text = spec.strip().upper()
    if text == "P":
        return Box(EVEN)
    if text == "I":
        return Box(ODD)
    if text == "X2":
        return Box(PAIR)
    if text == "#":
        if black:
            return Box(BLACK)
        raise IllegalMove(Msg("chest_heist.refuse.black_spec"))
    if text.startswith("X2:"):
        n = text[3:]
        if n.isascii() and n.isdigit() and int(n) in range(2, 13, 2):
            return Box(PAIR, int(n))
        raise IllegalMove(Msg("chest_heist.refuse.x2_number", box=repr(spec)[:20]))
    if text.isascii() and text.isdigit() and 1 <= int(text) <= LARGEST:
        return Box(NUMBER, int(text))
    raise IllegalMove(Msg("chest_heist.refuse.not_a_box", box=repr(spec)[:20], most=LARGEST))
