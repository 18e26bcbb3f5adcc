"""Stop Thief!'s effects as codes, in one place (the screen, the phones, the voice and the log).

Every call is a :class:`rig.core.msg.Msg` of the ``stop_thief`` catalog
(``rig/games/stop_thief/locale``): each face says it in its reader's language, the log in
English.  Money is a whole-dollar parameter (the catalog writes the dollar sign, the language
groups the digits); space numbers are text, so a space 1234 is never written "1,234".

Words come from effects alone, and no effect names the thief's space before an arrest, so no
call can give the thief away.
"""

from rig.core.gamekit import Sound
from rig.core.msg import N_, Msg
from . import events as ev

#: What each clue kind means (the rulebook's board guide): ``stop_thief.clue.<kind>``, the
#: words the voice speaks when the clue's sound plays.
CLUE_MEANINGS = {
    "crime": N_("stop_thief.clue.crime"),
    "inside": N_("stop_thief.clue.inside"),
    "subway": N_("stop_thief.clue.subway"),
    "door": N_("stop_thief.clue.door"),
    "window": N_("stop_thief.clue.window"),
    "outside": N_("stop_thief.clue.outside"),
    "stayed": N_("stop_thief.clue.stayed"),
}
#: What the table hears for each clue kind, in words: ``stop_thief.sound.<kind>``.
CLUE_SOUNDS = {
    "crime": N_("stop_thief.sound.crime"),
    "inside": N_("stop_thief.sound.inside"),
    "subway": N_("stop_thief.sound.subway"),
    "door": N_("stop_thief.sound.door"),
    "window": N_("stop_thief.sound.window"),
    "outside": N_("stop_thief.sound.outside"),
    "stayed": N_("stop_thief.sound.stayed"),
}


def clue_meaning(kind):
    """What a clue of ``kind`` means: ``Msg("stop_thief.clue.inside")``."""
    return Msg(CLUE_MEANINGS[kind])


def clue_sound(kind):
    """What a clue of ``kind`` sounds like, in words: ``Msg("stop_thief.sound.inside")``."""
    return Msg(CLUE_SOUNDS[kind])


def clue_words(kind):
    """The sound and its meaning: ``footsteps: inside a building`` in English."""
    return Msg("stop_thief.words.clue", sound=clue_sound(kind), meaning=clue_meaning(kind))


def words(effect):
    """The call for one effect, a :class:`Msg` (None for a sound: it says nothing)."""
    if isinstance(effect, Sound):
        return None
    if isinstance(effect, ev.TurnBegan):
        return Msg("stop_thief.call.turn", player=effect.player)
    if isinstance(effect, ev.NewThief):
        return Msg("stop_thief.call.new_thief", number=effect.number, name=effect.name,
                   reward=effect.reward)
    if isinstance(effect, ev.ClueGiven):
        if effect.replay:
            return Msg("stop_thief.call.clue_again", number=effect.number,
                       clue=clue_words(effect.kind))
        return Msg("stop_thief.call.clue", number=effect.number, by=effect.by,
                   clue=clue_words(effect.kind))
    if isinstance(effect, ev.CrimeWave):
        return Msg("stop_thief.call.crime_wave", bonus=effect.bonus, total=effect.total)
    if isinstance(effect, ev.WrongArrest):
        if effect.fine:
            return Msg("stop_thief.call.wrong_fined", space=str(effect.space), by=effect.by,
                       fine=effect.fine)
        return Msg("stop_thief.call.wrong_broke", space=str(effect.space), by=effect.by)
    if isinstance(effect, ev.Arrested):
        if effect.crime_wave:
            return Msg("stop_thief.call.arrested_wave", name=effect.name,
                       space=str(effect.space), by=effect.by, paid=effect.paid,
                       reward=effect.reward, wave=effect.crime_wave)
        return Msg("stop_thief.call.arrested", name=effect.name, space=str(effect.space),
                   by=effect.by, paid=effect.paid)
    if isinstance(effect, ev.DeckReshuffled):
        return Msg("stop_thief.call.reshuffled", n=effect.cards)
    if isinstance(effect, ev.Retired):
        return Msg("stop_thief.call.retired", player=effect.player, money=effect.money)
    raise TypeError("no words for %r" % (effect,))


def calls(effects):
    """The calls of a step's ``effects``, one after the other, as one :class:`Msg` (None when
    they say nothing): what the message strip shows."""
    said = [m for m in (words(e) for e in effects) if m is not None]
    if not said:
        return None
    joined = said[-1]
    for m in reversed(said[:-1]):
        joined = Msg("stop_thief.call.then", first=m, then=joined)
    return joined


def game_outcome_words(outcome):
    """How a game ended or stands (a :class:`rig.core.contract.Outcome`), as ``history`` and
    the after-game say it: ``winner Ana: Ana $15,000 and Ben $9,000`` in English."""
    scores = tuple(Msg("stop_thief.outcome.score", player=p, money=m) for p, m in outcome.scores)
    if outcome.code == "won":
        return Msg("stop_thief.outcome.won", winner=outcome.winners[0], scores=scores)
    if outcome.over:        # its end line: the rig stopped the game before anyone won
        return Msg("stop_thief.outcome.ended", scores=scores)
    return Msg("stop_thief.outcome.unfinished", scores=scores)
