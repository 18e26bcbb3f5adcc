"""The final score's title: the rulebook's table, in its original French, with an English gloss
and the code its words have in every language (the French catalog says the rulebook's title,
the others translate it).

    <10 Loupé, 10-12 Voleur à la tire, 13-15 Arnaqueur, 16-18 Le Chat Cambrioleur,
    19-21 Braqueur de Banque, 22+ Panthère Rose

The French and English pair stays in the replay's JSON (``{"fr": ..., "en": ...}``), as the
recording and the history have always had it.
"""

from rig.core.errors import RulesError
from rig.core.gamekit import is_whole
from rig.core.msg import N_

# (lowest score, French, English, code), lowest first.  The names are the rulebook's titles,
# kept as the replay writes them; a player reads the code's words.
TITLES = (
    (0, "Loupé", "Missed", N_("chest_heist.title.missed")),
    (10, "Voleur à la tire", "Pickpocket",  # not words: the rulebook's title (code below)
     N_("chest_heist.title.pickpocket")),
    (13, "Arnaqueur", "Swindler", N_("chest_heist.title.swindler")),
    (16, "Le Chat Cambrioleur", "The Cat Burglar",  # not words: the rulebook's title
     N_("chest_heist.title.cat_burglar")),
    (19, "Braqueur de Banque", "Bank Robber",  # not words: the rulebook's title
     N_("chest_heist.title.bank_robber")),
    (22, "Panthère Rose", "Pink Panther",  # not words: the rulebook's title
     N_("chest_heist.title.pink_panther")),
)


def title_for(score):
    """``(french, english)`` for a final score of 0 or more."""
    if not is_whole(score, 0, 10 ** 6):
        raise RulesError("score %r is not a final score; it is a whole number, 0 or more "
                         "(1 per diamond and per unused skimmer)"  # not words: a bug's report
                         % (score,))
    french, english = next((fr, en) for low, fr, en, _ in reversed(TITLES) if score >= low)
    return french, english


def title_code(french):
    """The code of the title whose French name is ``french`` (as a result's ``title`` says
    it), or None for a name the table does not hold."""
    return next((code for _, fr, _, code in TITLES if fr == french), None)
