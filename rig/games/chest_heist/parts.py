"""What this game uses of the table (:mod:`rig.table.parts`): the museum's start button alone (a
press is the game's own command, as Space is at the keys); nothing else of the box is opened."""

from rig.table.parts import Part, TableParts

PARTS = TableParts(uses=frozenset({Part.BUTTON}))
