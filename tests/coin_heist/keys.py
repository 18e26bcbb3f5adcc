"""The coin heist's keys at the rig: call heads or tails for the thief whose call it is.

Pure (no pygame, no clock); the machinery is :class:`rig.display.keymodes.Mode`.  ``MODE`` is
what the faces read (README "Adding a game"); Space (and so the museum's start button) calls
heads.
"""

from rig.display.keymodes import Mode

from . import rules as coin


class CoinHeistKeys(Mode):
    KEYS = {"space": "heads", "[+]": "heads", "t": "tails", "[-]": "tails"}
    HELP = ("Space, Num+: call heads", "T, Num-: call tails")

    def begin(self, action):
        return coin.Call(0.0, None, action), None

    def more(self, name, text, digit):
        return None, None            # every call is one key: nothing is ever half-typed


MODE = CoinHeistKeys
