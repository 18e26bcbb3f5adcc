"""The rig's dice: the n-th die a game draws is a pure function of (seed, n).

A die is SHA-256 of ``"chest-heist:SEED:N"`` read as a number, modulo 6, plus 1 (the bias of
a 256-bit number modulo 6 is far below anything a table could notice).  No state, no clock and
no :mod:`random`, so a replay (or a reader with a pencil and ``sha256sum``) rolls the same dice.
"""

import hashlib

from rig.core.errors import RulesError
from rig.core.gamekit import is_whole

FACES = 6
SEED_MAX = 2 ** 63 - 1


def check_seed(seed):
    if not is_whole(seed, 0, SEED_MAX):
        raise RulesError("seed %r is not usable; give a whole number from 0 to %d (the shell "
                         "picks one at random for each game)"  # not words: for the builder
                         % (seed, SEED_MAX))
    return seed


def die(seed, n):
    """The ``n``-th die drawn in the game of ``seed`` (n from 0): 1 to 6."""
    digest = hashlib.sha256(b"chest-heist:%d:%d" % (seed, n)).digest()
    return int.from_bytes(digest, "big") % FACES + 1


def draw(seed, first, count):
    """Dice ``first`` .. ``first + count - 1`` of the game of ``seed``."""
    return tuple(die(seed, n) for n in range(first, first + count))
