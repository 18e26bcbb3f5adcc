"""The coin heist's keys at the rig: call heads or tails for the thief whose call it is.

Pure (no pygame, no clock); the machinery is :class:`rig.draw.keymodes.Mode`.  ``MODE`` is
what the faces read (README "Adding a game"); Space (and so the museum's start button) calls
heads.  The key help is codes of the ``coin_heist`` catalog: the keys as printed on them
(:func:`rig.draw.keymodes.pretty_key`, the same in every language), then the words.
"""

from rig.core.msg import Msg
from rig.draw.keymodes import Mode, pretty_key

from . import rules as coin


def _keys(*names):
    """The keys ``names`` as printed on them, for a help line (``"Space, Num+"``)."""
    return ", ".join(pretty_key(name) for name in names)


class CoinHeistKeys(Mode):
    KEYS = {"space": "heads", "[+]": "heads", "t": "tails", "[-]": "tails"}
    HELP = (Msg("coin_heist.keys.heads", keys=_keys("space", "[+]")),
            Msg("coin_heist.keys.tails", keys=_keys("t", "[-]")))

    def begin(self, action):
        return coin.Call(0.0, None, action), None

    def more(self, name, text, digit):
        return None, None            # every call is one key: nothing is ever half-typed


MODE = CoinHeistKeys
