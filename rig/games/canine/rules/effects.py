"""What a step of the game asks the shell to make happen: structured values, never sentences.

:mod:`.calls` turns each into the words the screen and the phones show; a shell plays the dice
sound on :class:`Rolled` and the fanfare on :class:`FinalScores`.
"""

from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class Effect:
    t: float


@dataclass(frozen=True)
class DoggyChosen(Effect):
    """A player told the rig their doggy card (``face_up`` False: only their phone shows it)."""
    player: str = ""
    doggy: str = ""
    face_up: bool = False


@dataclass(frozen=True)
class ActionDrawn(Effect):
    """An Action card was drawn; ``left`` cards remain in Action pile number ``pile``."""
    player: Optional[str] = None
    pile: int = 1
    left: int = 0


@dataclass(frozen=True)
class PileRanOut(Effect):
    """A draw pile ran out: ``deck`` is ``action`` or ``collectables``; ``then`` is
    ``reshuffle`` (the longer game's second Action pile, ``size`` cards), ``game-over`` or
    ``play-on`` (the Collectables pile outside the longer game's second pile)."""
    deck: str = "action"
    then: str = "game-over"
    size: int = 0


@dataclass(frozen=True)
class CallStarted(Effect):
    """An action card that needs the die is being carried out; ``call`` is the
    :class:`~.dice.DiceCall` as it starts."""
    call: object = None


@dataclass(frozen=True)
class Rolled(Effect):
    """The rig rolled the die: roll number ``number`` of the game, for ``call`` (as it stands
    after the roll)."""
    player: str = ""
    face: int = 0
    number: int = 0
    call: object = None


@dataclass(frozen=True)
class CallDecided(Effect):
    """The die has decided the call: see :class:`~.dice.DiceCall` ``won``/``holder``/``winner``."""
    call: object = None


@dataclass(frozen=True)
class GameOver(Effect):
    """The game has ended (``reason``: ``action`` or ``collectables``, the pile that ran out):
    each player now enters their Hiding Places on their phone."""
    reason: str = "action"


@dataclass(frozen=True)
class Revealed(Effect):
    """A player's Hiding Places are in (``again`` True: a correction of an earlier entry)."""
    player: str = ""
    again: bool = False


@dataclass(frozen=True)
class FinalScores(Effect):
    """Every player's Hiding Places are in: ``standings`` (player, total), best first, and the
    ``winners`` (everyone tied for the most Pooch Points: the rulebook breaks no tie)."""
    standings: Tuple[Tuple[str, int], ...] = ()
    winners: Tuple[str, ...] = ()
