"""stolen_paintings: one game of the rig (see rig.games)."""
