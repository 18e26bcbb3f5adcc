"""stop_thief: one game of the rig (see rig.games)."""
