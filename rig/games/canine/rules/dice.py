"""The dice the action cards call for: seeded rolls, and what each roll decides.

The n-th roll of a game is a pure function of (seed, n) (:func:`die_face`), so a replay rolls
the same dice and a recording that claims another face is caught.  A :class:`DiceCall` is one
action card being carried out with the die; its rolls are commands, one per press of "roll",
so the screen can say whose roll it is:

* Key to the Master's Bedroom: the card asks for odd or even; one roll, plus one more for each
  Collectables card discarded (chosen before rolling, as the rulebook reads); stops at success.
  Success takes the top Master's Bedroom card.
* Rancid Badger Poo: one roll; the card passes that many players clockwise, and the player left
  holding it discards two Collectables (never the Poo Pizza).
* Squirrel: everyone rolls in turn, clockwise from the player who drew it (the rulebook does not
  say the order), until the first six; that player picks up five Collectables.
* Charm Offensive: its holder, someone trying to steal from their hand, has three tries to roll a
  six (five with the doggy power); a six prevents the steal.
"""

import hashlib
from dataclasses import dataclass
from typing import Optional, Tuple

from rig.core.msg import Msg, N_
from .cards import SIX

CARDS = ("key", "badger", "squirrel", "charm")
#: Each card's name, as a code: say ``card_title(card)``.
CARD_NAMES = {"key": N_("canine.card.key"), "badger": N_("canine.card.badger"),
              "squirrel": N_("canine.card.squirrel"), "charm": N_("canine.card.charm")}
PARITIES = ("odd", "even")
#: What the Key asks for, as a code (an adjective: "an {parity} number").
PARITY_WORDS = {"odd": N_("canine.parity.odd"), "even": N_("canine.parity.even")}
CHARM_TRIES = 3
CHARM_POWER_EXTRA = 2
SQUIRREL_PICKS = 5
BADGER_DISCARDS = 2


def card_title(card):
    """The name of the action ``card`` (one of :data:`CARDS`), as a :class:`Msg`."""
    return Msg(CARD_NAMES[card])


def parity_word(parity):
    """``odd`` or ``even`` as a :class:`Msg` (the Key's need)."""
    return Msg(PARITY_WORDS[parity])


def die_face(seed, n, faces=SIX):
    """The face (1..faces) of roll number ``n`` (from 0) of the game seeded ``seed``."""
    digest = hashlib.sha256(b"canine-kleptomaniacs:%d:%d" % (seed, n)).digest()
    return 1 + int.from_bytes(digest[:8], "big") % faces


@dataclass(frozen=True)
class DiceCall:
    """One action card carried out with the die.  ``order`` is who rolls, in turn (the
    Squirrel: everyone, clockwise from ``by``; the Badger: the seating from ``by``, used to pass
    the card); ``tries`` None rolls until a six."""
    card: str
    by: str
    order: Tuple[str, ...]
    tries: Optional[int]
    parity: Optional[str] = None
    discards: int = 0
    thief: Optional[str] = None
    power: bool = False
    rolls: Tuple[Tuple[str, int], ...] = ()

    def meets(self, face):
        """Whether ``face`` is what the card asks for (any face for the Badger)."""
        if self.card == "key":
            return face % 2 == (1 if self.parity == "odd" else 0)
        if self.card == "badger":
            return True
        return face == SIX

    @property
    def won(self):
        """The last roll met the card's need (the Key opened, the six came, the steal was
        prevented)."""
        return bool(self.rolls) and self.meets(self.rolls[-1][1])

    @property
    def decided(self):
        return self.won or (self.tries is not None and len(self.rolls) >= self.tries)

    @property
    def whose_roll(self):
        if self.decided:
            return None
        if self.card == "squirrel":
            return self.order[len(self.rolls) % len(self.order)]
        return self.by

    @property
    def tries_left(self):
        return None if self.tries is None else self.tries - len(self.rolls)

    @property
    def holder(self):
        """The Badger: who is left holding the card (the roll passes it that many players)."""
        if self.card != "badger" or not self.rolls:
            return None
        return self.order[self.rolls[0][1] % len(self.order)]

    @property
    def winner(self):
        """The Squirrel: who rolled the first six."""
        if self.card != "squirrel" or not self.won:
            return None
        return self.rolls[-1][0]


def new_call(players, card, by, parity=None, discards=0, thief=None, power=False):
    """The call for ``card`` played by ``by`` (checked by the game before it calls this)."""
    start = players.index(by)
    seating = players[start:] + players[:start]
    if card == "key":
        return DiceCall(card, by, (by,), 1 + discards, parity=parity, discards=discards)
    if card == "badger":
        return DiceCall(card, by, seating, 1)
    if card == "squirrel":
        return DiceCall(card, by, seating, None)
    tries = CHARM_TRIES + (CHARM_POWER_EXTRA if power else 0)
    return DiceCall(card, by, (by,), tries, thief=thief, power=power)
