"""chest_heist: one game of the rig (see rig.games)."""
