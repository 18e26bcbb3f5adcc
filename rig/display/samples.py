"""Headless screenshots of every game's sample screens.

``cleptomano screenshot STATE OUT.png`` renders one without a display, so builders can check
the layout on a laptop and the README can show real frames.  Each game's samples are its
folder's (``samples.SHOTS`` and ``samples.shot``, found through the registry: Cleptómano's
scoreboards, set-up screens and wiring check first); the tests render the same samples.
"""

from ..core.errors import DisplayError
from ..draw.kit import save_png, use_words
from .parts import every_part


#: The rig's own sample screens, whatever the game: the attract screen (issue 31), each of its
#: kinds of card (a game's how-to-play: Cleptómano's, the first; the last night's winners; the
#: phones' QR code).
RIG_SHOTS = ("attract", "attract-standings", "attract-join")

#: The attract screen's sample standings and phones.
SAMPLE_ROWS = (("Ana", 3), ("Ben", 2), ("Carla", 1))
SAMPLE_DAY = "2026-12-05"


def attract_sample():
    """The attract screen's sample view: every registered game's card, the sample standings
    and the phones' join card."""
    from ..core import attract
    from ..core.phones import PhonesView
    from ..shell.attract import game_cards
    phones = PhonesView(url="http://cleptomano.local:8080/", code="123456",
                        phones=("Ana",))
    return attract.view(attract.cards(game_cards(), SAMPLE_ROWS, SAMPLE_DAY, phones), phones)


def _attract_shot(state_name):
    from ..core.attract import CARD_S
    from ..draw.attract import draw_attract
    view = attract_sample()
    kinds = [card.kind for card in view.cards]
    index = {"attract": 0, "attract-standings": kinds.index("standings"),
             "attract-join": kinds.index("join")}[state_name]
    at = CARD_S * index + CARD_S / 2

    def draw(surface, thing, now_s=None):
        draw_attract(surface, thing, at)
    return draw, view


def shot_of(state_name: str):
    """``(draw, thing)`` for the sample ``state_name``: the rig's own (:data:`RIG_SHOTS`, the
    service mode's) or any registered game's (DisplayError naming every sample for an unknown
    one)."""
    from . import service
    if state_name in RIG_SHOTS:
        return _attract_shot(state_name)
    games = every_part("samples")
    for _, samples in games:
        if state_name in samples.SHOTS:
            return samples.shot(state_name)
    if state_name in service.SHOTS:     # the rig's own: the builder's service mode (issue 31)
        return service.shot(state_name)
    raise DisplayError("%r is not a sample screen; use one of %s" % (
        state_name, ", ".join(sum((samples.SHOTS for _, samples in games),
                                  RIG_SHOTS + service.SHOTS))))


def screenshot(state_name: str, out_path, size=(800, 480), lang="en"):
    """Render the sample ``state_name`` at ``size`` (w, h) into the PNG ``out_path``, headless,
    its words in ``lang`` (a table language, or ``pseudo``): one of a registered game's
    ``samples.SHOTS`` (``turn``, ``setup-menu``..., ``paintings-...``, ``chests-...``,
    ``stop-thief-NAME``, ``canine-NAME``) or one of the rig's own (:data:`RIG_SHOTS`:
    ``attract``...).

    Returns ``out_path``.  Raises :class:`DisplayError` for an unknown state, a bad size or a
    file that cannot be written, ConfigError for a language the rig does not speak."""
    from ..words import check_language
    check_language(lang, key="--lang", allow_pseudo=True)
    draw, thing = shot_of(state_name)
    before = use_words(lang)
    try:
        return save_png(draw, thing, out_path, size)
    finally:
        use_words(before if before is not None else "en")
