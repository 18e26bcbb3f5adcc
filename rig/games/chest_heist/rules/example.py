"""An example score sheet, in the sheet file's format (:mod:`.sheet`), to try the rig with.

It is invented: the rulebook does not print the game's grid, and this is not it.  A 6x6 grid
whose rows open chests A, C, E, G, I, K and whose columns open B, D, F, H, J, L, the chests
that lock late holding more diamonds.  The README's screenshot, the tests and
``docs/chest-heist-sheet.json`` use it.
"""

EXAMPLE_SHEET = {
    "rows": [
        ["3", "P", "x2:6", "#", "11", "I"],
        ["I", "5", "12", "P", "7", "2"],
        ["8", "x2", "1", "9", "I", "4"],
        ["P", "10", "#", "6", "x2:8", "1"],
        ["2", "I", "7", "x2", "3", "P"],
        ["x2:4", "6", "P", "I", "5", "#"],
    ],
    "chests": {
        "A": {"row": 1, "diamonds": 1}, "B": {"column": 1, "diamonds": 1},
        "C": {"row": 2, "diamonds": 2}, "D": {"column": 2, "diamonds": 2},
        "E": {"row": 3, "diamonds": 2}, "F": {"column": 3, "diamonds": 3},
        "G": {"row": 4, "diamonds": 3}, "H": {"column": 4, "diamonds": 3},
        "I": {"row": 5, "diamonds": 4}, "J": {"column": 5, "diamonds": 4},
        "K": {"row": 6, "diamonds": 5}, "L": {"column": 6, "diamonds": 5},
    },
}
