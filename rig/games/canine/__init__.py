"""canine: one game of the rig (see rig.games)."""
