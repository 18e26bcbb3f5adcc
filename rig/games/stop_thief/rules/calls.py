"""Stop Thief!'s effects in English words, in one place (the screen, the phones and the log).

Words come from effects alone, and no effect names the thief's space before an arrest, so no
call can give the thief away.
"""

from rig.core.gamekit import Sound
from . import events as ev

#: What the table hears for each clue kind, and what it means (the rulebook's board guide).
CLUE_SOUNDS = {
    "crime": "alarm",
    "inside": "footsteps",
    "subway": "muffled loudspeaker",
    "door": "creaking door",
    "window": "breaking glass",
    "outside": "street commotion",
    "stayed": "hold music",
}
CLUE_MEANINGS = {
    "crime": "a crime scene",
    "inside": "inside a building",
    "subway": "a subway space",
    "door": "through a door",
    "window": "through a window",
    "outside": "outside, in the street",
    "stayed": "the thief stayed put",
}


def dollars(amount):
    return "$" + format(amount, ",")


def clue_words(kind):
    """``footsteps: inside a building``."""
    return "%s: %s" % (CLUE_SOUNDS[kind], CLUE_MEANINGS[kind])


def words(effect):
    """The call for one effect, as a sentence (None for a sound: it says nothing)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, ev.TurnBegan):
        return "%s's turn: get a clue." % effect.player
    if isinstance(effect, ev.NewThief):
        return "A crime! Thief %d, %s, is at large: reward %s." % (
            effect.number, effect.name, dollars(effect.reward))
    if isinstance(effect, ev.ClueGiven):
        if effect.replay:
            return "Clue %d again: %s." % (effect.number, clue_words(effect.kind))
        return "Clue %d for %s: %s." % (effect.number, effect.by, clue_words(effect.kind))
    if isinstance(effect, ev.CrimeWave):
        return "Crime wave! %s more on the thief's card: %s to whoever catches them." % (
            dollars(effect.bonus), dollars(effect.total))
    if isinstance(effect, ev.WrongArrest):
        paid = "pays the bank %s" % dollars(effect.fine) if effect.fine else \
            "has no money to pay"
        return "Wrong! The thief is not on space %d; %s %s." % (effect.space, effect.by, paid)
    if isinstance(effect, ev.Arrested):
        extra = (" (%s reward + %s crime wave)" % (dollars(effect.reward),
                                                   dollars(effect.crime_wave))
                 if effect.crime_wave else "")
        return "Arrested! %s was on space %d: %s collects %s%s." % (
            effect.name, effect.space, effect.by, dollars(effect.paid), extra)
    if isinstance(effect, ev.DeckReshuffled):
        return "Every thief card is used: the %d caught thieves are shuffled into a new deck." \
            % effect.cards
    if isinstance(effect, ev.Retired):
        return "%s has %s and retires to a sunny Caribbean beach: %s wins!" % (
            effect.player, dollars(effect.money), effect.player)
    raise TypeError("no words for %r" % (effect,))


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ana  Ana $15,000, Ben $9,000``."""
    won = ("winner %s" % outcome.winners[0]) if outcome.code == "won" else "no winner yet"
    return "%s  %s" % (won, ", ".join("%s %s" % (p, dollars(m)) for p, m in outcome.scores))
