"""The table's screen never hides nor cuts (issue 30): the font draws no gap inside a word, names
shrink to the legibility floor and then end in "…" (never break inside a word), the host's
message strip has its own band below the game, labels are at least the floor, and every sample
screen fits a long real name of each language and the pseudo-locale."""

import pytest

from rig.draw import kit


@pytest.fixture(scope="module")
def pygame():
    pg = kit.load_pygame()
    yield pg
    kit.use_words("en")


# --- "PREPAR ACIÓN": the built-in font's kerning table -------------------------------------------

@pytest.mark.parametrize("word", ["PREPARACIÓN", "puntuación", "exposición", "RA", "tu", "xp"])
def test_the_screen_font_puts_no_gap_inside_a_word(pygame, word):
    """FreeSans Bold's kerning table pushes t-u, R-A, x-p apart (+77..+89 thousandths of an em):
    a word is drawn no wider than its letters side by side."""
    for size in (32, 64, 120):
        f = kit.get_font(size)
        assert f.size(word)[0] <= sum(f.size(ch)[0] for ch in word) + 1, (word, size)


def test_the_kernless_font_measures_lines_as_pygame_s_own(pygame):
    """Only the kerning is gone: a size's line height is pygame's built-in font's."""
    for size in (6, 20, 32, 48, 100):
        assert kit.get_font(size).get_height() == pygame.font.Font(None, size).get_height()


# --- the host's message strip: a band of its own -------------------------------------------------

SIZE = (800, 480)
STRIP_SHOTS = ("paintings-reveal-strip", "paintings-over-strip", "chests-nosheet-strip",
               "canine-final-strip", "stop-thief-clues-strip")


@pytest.fixture
def strips(monkeypatch):
    """The texts the host's strip says, as drawn (``draw_strip`` watched)."""
    from rig.draw import strip
    said, real = [], strip.draw_strip
    monkeypatch.setattr(strip, "draw_strip",
                        lambda surface, text: said.append(text) or real(surface, text))
    return said


def _strip_top(surface, text):
    """The first row of the strip saying ``text`` at the window's foot; checked on the pixels:
    the strip's colour from there down at the window's left edge."""
    from rig.draw.strip import STRIP, strip_layout
    W, H = surface.get_size()
    top = H - strip_layout(W, H, text)[2]
    assert all(tuple(surface.get_at((1, y)))[:3] == STRIP for y in range(top, H))
    return top


def _band(top):
    """The top ``top`` rows of an 800x480 window (the window's legibility floor kept)."""
    return kit.load_pygame().Surface(SIZE).subsurface((0, 0, SIZE[0], top))


def _game_alone(name, top):
    """The sample's game drawn alone (no strip) in the window's top ``top`` rows."""
    from rig.display.samples import shot_of
    draw, thing = shot_of(name[:-len("-strip")])
    band = _band(top)
    draw(band, thing)
    return band


@pytest.mark.parametrize("lang", ["en", "ro", "pseudo"])
@pytest.mark.parametrize("name", STRIP_SHOTS)
def test_a_message_never_covers_the_game(pygame, strips, name, lang):
    """The reveal's points row, the final table's last row, the chests I to L: everything the
    game draws is seen whole above the strip, as the game draws it in that band alone."""
    from rig.display.samples import shot_of
    kit.use_words(lang)
    draw, thing = shot_of(name)
    surface = pygame.Surface(SIZE)
    draw(surface, thing)
    top = _strip_top(surface, strips[-1])
    assert SIZE[1] * 0.75 < top < SIZE[1] - 20          # a strip of one to three lines
    alone = _game_alone(name, top)
    shown = surface.subsurface((0, 0, SIZE[0], top))
    assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(alone, "RGB"), (
        "%s in %s: the strip covers part of the game" % (name, lang))


def test_the_host_draws_a_game_above_its_strip_never_under_it(pygame, strips):
    """The real path: a game host's snapshot with a refusal (rig.display.game_screens.draw)."""
    from rig.core.gamekit import GameScreen
    from rig.core.msg import Msg
    from rig.display import game_screens
    from rig.games.chest_heist import samples, screen
    view = samples.SAMPLES["chests-nosheet"][1]
    snap = GameScreen(game="chest-heist", view=view,
                      message=Msg("chest_heist.refuse.die_ticked", die=2, value=6, box="4"))
    kit.use_words("es")
    surface = pygame.Surface(SIZE)
    game_screens.draw(surface, snap)
    top = _strip_top(surface, strips[-1])
    alone = _band(top)
    screen.draw(alone, view)
    assert pygame.image.tobytes(surface.subsurface((0, 0, SIZE[0], top)), "RGB") == \
        pygame.image.tobytes(alone, "RGB")
    # a one-line message: a strip one line tall (no empty line below it)
    surface = pygame.Surface(SIZE)
    game_screens.draw(surface, GameScreen(game="chest-heist", view=view, message="OK"))
    assert SIZE[1] - _strip_top(surface, "OK") <= int(SIZE[1] * (0.062 + 0.025)) + 1


# --- the chest heist's dice: the faces rolled ----------------------------------------------------

def _drawn_texts(pygame, monkeypatch, draw, thing):
    drawn, real = [], kit.render_text
    monkeypatch.setattr(kit, "render_text",
                        lambda text, size, colour: drawn.append(text) or real(text, size, colour))
    draw(pygame.Surface(SIZE), thing)
    return drawn


@pytest.mark.parametrize("name", ["chests-nosheet", "chests-sheet"])
def test_the_chest_heist_screen_writes_each_die_s_face_not_its_place(pygame, monkeypatch, name):
    from rig.display.samples import shot_of
    kit.use_words("en")
    draw, view = shot_of(name)
    faces = [str(d["value"]) for d in view["dice"]]
    assert faces != ["1", "2", "3", "4", "5"]
    used = kit.say("chest_heist.screen.used")
    drawn = [t for t in _drawn_texts(pygame, monkeypatch, draw, view) if t != used]
    runs = [drawn[i:i + 5] for i in range(len(drawn) - 4)]
    assert faces in runs, drawn[:20]


# --- the longest real name of each language, on every sample screen ------------------------------

#: The longest first name a table of each language is likely to bring; the pseudo-locale's table
#: brings an English one (its words are the catalog's, accented and 40 % longer).
LONGEST = {"en": "Christopher", "es": "Maximiliano", "fr": "Marie-Éléonore",
           "ro": "Constantina", "pseudo": "Bartholomew"}


def _every_shot():
    from rig.display.parts import every_part
    return [name for _, samples in every_part("samples") for name in samples.SHOTS]


@pytest.mark.parametrize("lang", sorted(LONGEST))
def test_every_sample_screen_takes_the_longest_name_of_each_language(pygame, lang):
    """Ana's seat taken by the language's longest name: a name is drawn by the kit's one
    function (put_name) at the legibility floor or above, shortened or ending in "…" only
    there; nothing else is cut, and no text holding the name is shrunk below the floor to fit
    its width."""
    from rig.display.samples import shot_of
    from sim.renamed import renamed
    long = LONGEST[lang]
    kit.use_words(lang)
    problems, drawn_somewhere = [], 0
    for name in _every_shot():
        draw, thing = shot_of(name)
        kit.clips(), kit.fits(), kit.names()
        draw(pygame.Surface(SIZE), renamed(thing, {"Ana": long}))
        named = kit.names()
        cut_names = {shown[:-1] for whole, shown, size, floor in named if shown.endswith("…")}
        for whole, shown, size, floor in named:
            drawn_somewhere += whole == long
            if size < floor:
                problems.append("%s: %r drawn at %d, under its floor %d" % (name, whole, size,
                                                                          floor))
        for why, text in kit.clips():
            if not any(text.startswith(c) for c in cut_names) and long not in text:
                problems.append("%s: %r cut" % (name, text))
            elif not any(w == text or long in w for w, _, _, _ in named):
                problems.append("%s: %r cut by other than put_name" % (name, text))
        for text, size, floor, narrowed in kit.fits():
            if long in text and narrowed and size < floor:
                problems.append("%s: %r shrunk to %d (floor %d)" % (name, text, size, floor))
    assert not problems, "\n".join(problems[:30])
    assert drawn_somewhere > 10           # the names are drawn by the kit's one function


# --- Stop Thief!'s map: labels at the floor, or not at all ---------------------------------------

@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
@pytest.mark.parametrize("name", ["stop-thief-clues", "stop-thief-arrest"])
def test_stop_thief_s_map_labels_are_at_least_the_floor(pygame, monkeypatch, name, size):
    """A space's number was 7 px tall at 800x480: the map writes no label under the kit's
    floor, and names each crime scene (and the caught thief's path's ends) on a tag at it."""
    from rig.display.samples import shot_of
    from rig.games.stop_thief import townmap
    from rig.games.stop_thief.rules.views import public_view
    kit.use_words("en")
    _, game = shot_of(name)
    drawn, real = [], kit.render_text
    monkeypatch.setattr(kit, "render_text",
                        lambda text, size, colour: drawn.append((text, size)) or
                        real(text, size, colour))
    surface = pygame.Surface(size)
    floor = kit.floor_of(surface)
    arrest = public_view(game).get("arrest")
    townmap.draw_town(surface, game.board, (0, 0, int(size[0] * 0.6), int(size[1] * 0.7)),
                      path=arrest["path"] if arrest else None, floor=floor)
    assert drawn and all(s >= floor for _, s in drawn), sorted(drawn, key=lambda d: d[1])[:5]
    crimes = {str(s.key) for s in game.board.spaces if s.crime and s.numbered}
    assert crimes and crimes <= {t for t, _ in drawn}
    if arrest:
        assert str(arrest["space"]) in {t for t, _ in drawn}


# --- "ganador José José": a result's parts run together ------------------------------------------

# The outcome templates once separated their parts by two spaces, which every face collapses
# (HTML, kit.as_text): "gana {winner}  {totals}" read "gana José José 3, Ana 1".  They say " · ".


@pytest.mark.parametrize("lang", ["en", "es", "fr", "ro"])
def test_a_result_never_reads_as_the_winner_s_name_said_twice(lang):
    from rig.core.contract import Outcome
    from rig.games.stolen_paintings.rules.calls import game_outcome_words
    from rig.words import Words
    outcome = Outcome(True, ("José",), (("José", 3), ("Ana", 1)), "won")
    said = kit.as_text(Words(lang).text(game_outcome_words(outcome)))
    assert "José José" not in said, said


def test_no_catalog_entry_separates_its_parts_by_a_run_of_spaces():
    from babel.messages.pofile import read_po
    from rig import catalogs
    found = []
    for po in catalogs.po_files():
        with open(po, "rb") as f:
            for message in read_po(f):
                strings = message.string if isinstance(message.string, tuple) \
                    else (message.string,)
                found += ["%s: %s %r" % (po.name, message.id if isinstance(message.id, str)
                                         else message.id[0], s)
                          for s in strings if s and "  " in s.strip()]
    assert found == [], "\n".join(found)
