"""Headless screenshots of every game's sample screens.

``cleptomano screenshot STATE OUT.png`` renders one without a display, so builders can check
the layout on a laptop and the README can show real frames.  Each game's samples are its
folder's (``samples.SHOTS`` and ``samples.shot``, found through the registry: Cleptómano's
scoreboards, set-up screens and wiring check first); the tests render the same samples.
"""

from ..core.errors import DisplayError
from ..draw.kit import save_png, use_words
from .parts import every_part


def shot_of(state_name: str):
    """``(draw, thing)`` for the sample ``state_name`` of any registered game (DisplayError
    naming every sample for an unknown one)."""
    from . import service
    games = every_part("samples")
    for _, samples in games:
        if state_name in samples.SHOTS:
            return samples.shot(state_name)
    if state_name in service.SHOTS:     # the rig's own: the builder's service mode (issue 31)
        return service.shot(state_name)
    raise DisplayError("%r is not a sample screen; use one of %s" % (
        state_name, ", ".join(sum((samples.SHOTS for _, samples in games), service.SHOTS))))


def screenshot(state_name: str, out_path, size=(800, 480), lang="en"):
    """Render the sample ``state_name`` at ``size`` (w, h) into the PNG ``out_path``, headless,
    its words in ``lang`` (a table language, or ``pseudo``): one of a registered game's
    ``samples.SHOTS`` (``turn``, ``setup-menu``..., ``paintings-...``, ``chests-...``,
    ``stop-thief-NAME``, ``canine-NAME``).

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
