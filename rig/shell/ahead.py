"""A timed turn's end worked out before it is due (issue 27: the end buzz on time).

Shortly before a turn's time limit (``FORESEE_S``, when the game says the limit is the next thing
due: :meth:`rig.core.contract.Game.foresee_at`) the host works out the whole end on a copy of
the game's state: the state after it, its recording line already formatted, the shared effects
it makes (:mod:`rig.core.effects`) already built.  When the limit is due and nothing has changed
the state since, the host only writes and flushes that line, then performs those effects: the
lamp and the end buzz come a line's write after the wake, not a step of the rules, two JSON
formats and the building of the effects after it.

Whatever changes the host's state first (an input, a command, a device line) makes the worked-out
end worthless: the host drops it at that change and works the end out again from the new state
if there is time, else steps the game when the limit is due, as without it.  Either way the
same line is written and the same effects performed: the game's step is pure
(:meth:`rig.core.contract.Game.step` on a copy gives what :meth:`~rig.core.contract.Game.step_owned`
gives in place), so no recording, replay or golden changes.
"""

from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class Ahead:
    """A deadline's step worked out ahead: ``deadline`` (seconds since the match began),
    ``after`` the game's state after it, ``line`` its recording line (no newline; None: it
    writes none) at ``t``, ``effects`` the shared effects to perform, in order (None: none to
    perform, as :meth:`rig.shell.host.Host._perform` decides)."""
    deadline: float
    after: Any
    line: Optional[str]
    t: float
    effects: Optional[tuple]


def work_out(game, state, deadline):
    """The step of ``game`` at its ``deadline`` from ``state`` (left as it is), as the host
    would take it when due: its tick stepped on a copy, its line (a tick's only when it ended a
    turn) in the recording's text, its effects as the table's."""
    tick = game.tick(deadline)
    after, effects = game.step(state, tick)
    line = None
    if game.line(tick, after, effects) is not None:
        line = game.item_line(game.tick(after.t))
    shared = None
    if effects or game.playing(after) is None:
        shared = tuple(game.table_effects(after, after.t, effects))
    return Ahead(deadline, after, line, after.t, shared)
