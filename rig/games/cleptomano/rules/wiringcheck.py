"""The wiring check in Cleptómano's words: the check itself is the table's, below the games
(:mod:`rig.table.wiringcheck`: the steps, the verdicts, the screen's view); this module hands
it the codes of Cleptómano's catalog (:data:`WORDS`) and keeps the names its folder, the
simulator and the tests use (:class:`WiringCheck`, :func:`wiring_check`, :class:`CheckWiring`...).
"""

from rig.core.msg import Msg, N_
from rig.games.cleptomano.rules.calls import commas, part, semicolons
from rig.table import wiringcheck as table
from rig.table.wiringcheck import (ACTIONS, HAND, RELIC_PLACES, SKIP, START, STOP,  # noqa: F401
                                   CheckWiring, WiringStep, WiringView, check_order, family,
                                   pin_places, relic_step)

#: The table's wiring check's keys (:class:`rig.table.wiringcheck.WiringWords`) -> the codes.
CODES = {
    "prompt": N_("cleptomano.wiring.prompt"),
    "not_at_rest": N_("cleptomano.wiring.not_at_rest"),
    "reads": N_("cleptomano.wiring.reads"),
    "reads_hand": N_("cleptomano.wiring.reads_hand"),
    "reads_relic": N_("cleptomano.wiring.reads_relic"),
    "ok": N_("cleptomano.wiring.ok"),
    "wrong": N_("cleptomano.wiring.wrong"),
    "timed_out": N_("cleptomano.wiring.timed_out"),
    "skipped": N_("cleptomano.wiring.skipped"),
    "answered": N_("cleptomano.wiring.answered"),
    "no_answer": N_("cleptomano.wiring.no_answer"),
    "mixup": N_("cleptomano.wiring.mixup"),
    "mixups": N_("cleptomano.wiring.mixups"),
    "do.touch": N_("cleptomano.wiring.do.touch"),
    "do.press": N_("cleptomano.wiring.do.press"),
    "do.seat": N_("cleptomano.wiring.do.seat"),
    "do.painting": N_("cleptomano.wiring.do.painting"),
    "do.hand": N_("cleptomano.wiring.do.hand"),
    "do.relic": N_("cleptomano.wiring.do.relic"),
    "do.change": N_("cleptomano.wiring.do.change"),
    "cell.button": N_("cleptomano.wiring.cell.button"),
    "cell.guard": N_("cleptomano.wiring.cell.guard"),
    "cell.laser": N_("cleptomano.wiring.cell.laser"),
    "cell.seat": N_("cleptomano.wiring.cell.seat"),
    "cell.painting": N_("cleptomano.wiring.cell.painting"),
    "cell.relic": N_("cleptomano.wiring.cell.relic"),
    "cell.hand": N_("cleptomano.wiring.cell.hand"),
    "cell.other": N_("cleptomano.wiring.cell.other"),
    "relic": N_("cleptomano.part.relic"),
}


def _say(key, **params):
    return Msg(CODES[key], **params)


#: The check's words: Cleptómano's codes, its parts' names and its lists.
WORDS = table.WiringWords(say=_say, part=part, commas=commas, semicolons=semicolons)


class WiringCheck(table.WiringCheck):
    """The table's :class:`rig.table.wiringcheck.WiringCheck` in Cleptómano's words."""

    def __init__(self, steps, where, threshold_mm=400, timeout_s=30.0):
        super().__init__(steps, where, threshold_mm, timeout_s, WORDS)


def wiring_check(pinmap, tof, hand_threshold_mm, hand, relics, timeout_s, inputs=None):
    """:func:`rig.table.wiringcheck.wiring_check` in Cleptómano's words."""
    return table.wiring_check(pinmap, tof, hand_threshold_mm, hand, relics, timeout_s, WORDS,
                              inputs)
