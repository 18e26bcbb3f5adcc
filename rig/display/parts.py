"""The faces' one way to a game's own face parts: through the registry (:mod:`rig.games`), by
the game's command-line name, so a game registered from outside ``rig/`` is shown, keyed, heard
and screenshot with no edit to the faces.

Each part answers one interface, the same for every game (README "Adding a game"):

* ``screen.draw_screen(surface, snapshot, now_s=None)`` draws the game's snapshot;
* ``keys.MODE``: its key mode, a :class:`rig.draw.keymodes.Mode` subclass;
* ``sounds.extra_sounds()``: the sounds it brings beyond the rig's own, name ->
  ``make(sample_rate)``;
* ``samples.SHOTS`` (the state names ``cleptomano screenshot`` knows) and
  ``samples.shot(name)`` -> ``(draw, thing)``, ``draw(surface, thing)``.
"""

from ..games import games, part


def face_part(game, name):
    """The module ``name`` (``"screen"``, ``"keys"``, ``"sounds"``, ``"samples"``) of the
    registered game whose command-line name is ``game``; None for a game the registry does not
    know or one without that part."""
    for g in games():
        if g.name == game:
            return part(g, name)
    return None


def every_part(name):
    """``(game, module)`` for each registered game with a part ``name``, in registry order."""
    return tuple((g, found) for g, found in ((g, part(g, name)) for g in games())
                 if found is not None)
