"""``[stolen_paintings]``: the exhibition's length and the marking rule (README "Stolen
Paintings"); the rules' :func:`check_settings` checks them together."""

from ...core.settings import Key, Section, rules_checked
from .rules.model import check_settings


def _build(values, t, context):
    s = rules_checked(t, check_settings, values)
    return SECTION.value(s.exhibition_s, s.max_marks, s.wrong_mark_cost)


SECTION = Section("stolen_paintings", (
    Key("exhibition_s", "checked", 60.0, "5-600 seconds of exhibition (the hourglass)"),
    Key("max_marks", "checked", 3, "1-8 paintings a detective may mark", unit=""),
    Key("wrong_mark_cost", "checked", 0, "0-9 points a wrong mark costs; at least 2 when "
                                         "max_marks > 3", unit="points"),
), class_name="StolenPaintingsConfig", module=__name__, build=_build,
    doc="``[stolen_paintings]``: the exhibition's length and the marking rule.")
StolenPaintingsConfig = SECTION.value
