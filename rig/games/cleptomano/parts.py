"""What Cleptómano uses of the table (:mod:`rig.table.parts`): the whole museum box, and the
touch-to-buzzer reflex on the rods (a touch on a rod in play buzzes at once, before the rules
count it: :mod:`rig.table.reflex`).  The guard's touch is not in the reflex: the rules buzz for
no guard touch on its first edge."""

from rig.table.names import LASERS, laser
from rig.table.outputs import PATTERNS, TOUCH
from rig.table.parts import Part, TableParts
from rig.table.reflex import ReflexRule

PARTS = TableParts(
    uses=frozenset(Part),
    reflex=ReflexRule(inputs=frozenset(laser(n) for n in LASERS), output="buzzer",
                      on_s=PATTERNS[TOUCH][0][0]))
