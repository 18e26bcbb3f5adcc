"""Stop Thief! in the tables' languages: a turn's calls and a refusal said in Spanish (the
rulebook's own words), Romanian's three plural forms, the clue kinds the voice speaks, and the
scanner's screen holding every language's longer words without shrinking them."""

import pytest

from rig.core.errors import IllegalMove
from rig.core.msg import Msg
from rig.draw import kit
from rig.games.stop_thief import screen
from rig.games.stop_thief.rules import events as ev
from rig.games.stop_thief.rules.calls import CLUE_MEANINGS, calls, words
from rig.games.stop_thief.rules.rules import new_game, step
from rig.games.stop_thief.rules.thief import CLUES
from rig.games.stop_thief.samples import SHOTS, shot
from rig.words import LANGUAGES, PSEUDO, Words, english

from stop_thief_support import tiny

ES, RO = Words("es"), Words("ro")


def test_a_turn_is_called_in_spanish_with_the_rulebooks_words():
    game = new_game(tiny(), ["Ana", "Ben"], seed=4)
    said = ES.text(calls(game.last))
    assert said.startswith("¡Un crimen! El ladrón 1, ")
    assert said.endswith("Turno de %s: obtén una pista." % game.player)
    wave = None
    for t in range(1, 60):                    # clues until the thief robs a crime scene again
        game, effects = step(game, ev.GetClue(float(t)))
        wave = next((e for e in effects if isinstance(e, ev.CrimeWave)), None)
        if wave:
            break
    assert wave is not None
    assert ES.text(words(wave)).startswith("¡Ola de crímenes! $1000 más en la carta del ladrón")
    clue = next(e for e in effects if isinstance(e, ev.ClueGiven))
    assert ES.text(words(clue)) == "Pista %d para %s: alarma: una escena del crimen." % (
        clue.number, clue.by)


def test_a_refusal_is_said_in_spanish_and_logged_in_english():
    game = new_game(tiny(), ["Ana", "Ben"], seed=4)
    other = next(p for p in game.players if p != game.player)
    with pytest.raises(IllegalMove) as info:
        step(game, ev.EndTurn(1.0, other))
    assert ES.error(info.value) == "es el turno de %s, no de %s; espera tu turno" % (
        game.player, other)
    assert english(info.value.msg) == "it is %s's turn, not %s's; wait for your turn" % (
        game.player, other)
    assert str(info.value).startswith("stop_thief.refuse.not_your_turn(")   # the log's form


@pytest.mark.parametrize("n, said", [
    (1, "Toate cărțile cu hoți au fost folosite: 1 hoț prins e amestecat într-un pachet nou."),
    (3, "Toate cărțile cu hoți au fost folosite: cei 3 hoți prinși sunt amestecați într-un "
        "pachet nou."),
    (20, "Toate cărțile cu hoți au fost folosite: cei 20 de hoți prinși sunt amestecați "
         "într-un pachet nou."),
])
def test_romanian_says_a_count_in_its_three_plural_forms(n, said):
    assert RO.text(words(ev.DeckReshuffled(0.0, n))) == said


def test_each_clue_kind_has_its_meaning_for_the_voice_in_every_language():
    assert sorted(CLUE_MEANINGS) == sorted(CLUES)
    for kind in CLUES:
        code = "stop_thief.clue." + kind
        assert CLUE_MEANINGS[kind] == code
        said = {lang: Words(lang).text(Msg(code)) for lang in LANGUAGES}
        assert all(text and text != code for text in said.values()), said
    assert Words("es").text(Msg("stop_thief.clue.inside")) == "dentro de un edificio"


@pytest.mark.parametrize("lang", tuple(LANGUAGES) + (PSEUDO,))
def test_the_screens_blocks_take_a_line_rather_than_a_smaller_font(lang):
    pg = kit.load_pygame()
    screen.shrunk()
    try:
        for name in SHOTS:
            draw, thing = shot(name)
            kit.use_words(lang)
            draw(pg.Surface((800, 480)), thing)
            assert not kit.clips(), (lang, name)
        assert screen.shrunk() == []
    finally:
        kit.use_words("en")
