"""The final score's title: the rulebook's table, in its original French and an English gloss.

    <10 Loupé, 10-12 Voleur à la tire, 13-15 Arnaqueur, 16-18 Le Chat Cambrioleur,
    19-21 Braqueur de Banque, 22+ Panthère Rose
"""

from rig.core.errors import RulesError
from rig.core.gamekit import is_whole

# (lowest score, French, English), lowest first.
TITLES = (
    (0, "Loupé", "Missed"),
    (10, "Voleur à la tire", "Pickpocket"),
    (13, "Arnaqueur", "Swindler"),
    (16, "Le Chat Cambrioleur", "The Cat Burglar"),
    (19, "Braqueur de Banque", "Bank Robber"),
    (22, "Panthère Rose", "Pink Panther"),
)


def title_for(score):
    """``(french, english)`` for a final score of 0 or more."""
    if not is_whole(score, 0, 10 ** 6):
        raise RulesError("score %r is not a final score; it is a whole number, 0 or more "
                         "(1 per diamond and per unused skimmer)" % (score,))
    french, english = next((fr, en) for low, fr, en in reversed(TITLES) if score >= low)
    return french, english
