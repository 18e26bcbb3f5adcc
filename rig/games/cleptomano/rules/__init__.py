"""Cleptómano's pure rules that live beside its game (see rig.games.cleptomano): the referee over a
match, the replay of a recording, the table's layout, the relic hub's frames, and the tournament
of Cleptómano matches with its standings. Pure like rig.core: standard library, rig.core and this
folder only (tests/test_purity.py walks it)."""
