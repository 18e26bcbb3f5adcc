"""``[match]``: who plays Cleptómano and at which level (the rulebook's table, or a level of
one's own), declared once here as every game's section is in its folder; the rig config
(:mod:`rig.shell.config`) collects it through the registry.  Its table comes first in
``rig.toml`` (``before="pins"``), and once the pin map is read (``[pins]``) the level is
checked against the rods it wires.  Every key and message as when it lived in the shell.
"""

from dataclasses import dataclass
from typing import Tuple

from ...core.errors import InvalidChoice, LevelError
from ...core.names import normal
from ...core.settings import Key, Section, is_number, show
from ...table import names as museum
from .rules import engine as rules, levels


@dataclass(frozen=True)
class MatchConfig:
    """Who plays and at which level.  One player is a solo heist."""
    players: Tuple[str, ...] = ("Ana", "Ben", "Caro")
    first_thief: str = "Ana"
    level: levels.Level = levels.PRESETS["normal"]

    @property
    def solo(self):
        return len(self.players) == 1


def _match(values, t, context):
    players = values["players"]
    if isinstance(players, list):
        players = [normal(p) for p in players]      # NFC, stripped (rig.core.names)
    try:
        names = list(rules.check_players(players))
    except InvalidChoice as exc:
        raise t.error("players", "%s, e.g. players = [\"Ana\", \"Ben\"]" % exc) from None
    first = t.data.get("first_thief", names[0])
    if not isinstance(first, str) or first.strip() not in names:
        raise t.error("first_thief", "%s is not one of the players (%s); give one of their "
                                     "names, the one with the biggest hands (default: the first "
                                     "player)" % (show(first), ", ".join(names)))
    return MatchConfig(players=tuple(names), first_thief=first.strip(), level=_level(t))


#: A turn's time limit in the config, in seconds: a second (a quick test of the rig) to an
#: hour (far beyond any table's patience); anything else is a typo, never a level.
TIMER_S = (1, 3600)


def _level(t):
    difficulty = t.data.get("difficulty", MATCH.key("difficulty").default)
    overrides = []
    if t.has("timer_s"):
        timer = t.data["timer_s"]
        if isinstance(timer, str):
            if timer.strip().lower() != "none":
                raise t.error("timer_s", "%s is not a time limit; give seconds above 0 (30 "
                                         "hard, 60 normal), or \"none\" for no time limit"
                              % show(timer))
            timer = None
        elif is_number(timer) and not TIMER_S[0] <= timer <= TIMER_S[1]:   # NaN, inf too
            raise t.error("timer_s", "%s is out of range; give seconds from %d to %d (30 hard, "
                                     "60 normal), or \"none\" for no time limit"
                          % (show(timer), TIMER_S[0], TIMER_S[1]))
        overrides.append(("timer_s", timer))
    for key in ("lasers", "corridor"):
        if t.has(key):
            overrides.append((key, t.data[key]))
    # Build the level one setting at a time, so an error names the key that caused it.
    level = _make_level(t, "difficulty", difficulty, {})
    kwargs = {}
    for key, value in overrides:
        kwargs[key] = value
        level = _make_level(t, key, difficulty, kwargs)
    return level


def _make_level(t, key, difficulty, kwargs):
    try:
        return levels.make_level(difficulty, **kwargs)
    except LevelError as exc:
        # TOML has no null: the config file says "none" where Python says None.
        message = str(exc).replace("or null for", "or \"none\" for")
        raise t.error(key, message) from None


def _check_level_wired(t, match, context):
    """The level's added rods are wired in the pin map (read with ``[pins]``), or one error
    naming ``[match]``'s key that asked for them."""
    level, pinmap = match.level, context.pinmap
    missing = [n for rod in level.added_rods for n in (museum.laser(rod), museum.seat(rod))
               if n not in pinmap.inputs]
    if missing:
        key = "lasers" if t.has("lasers") else "difficulty"
        raise t.error(key, "%d added lasers need %s in the pin map %s, which lacks them; wire "
                           "and add them there, or lower lasers to %d"
                      % (level.lasers, ", ".join(missing), pinmap.path or "(given)",
                         len(pinmap.added_rods)))


MATCH = Section("match", (
    Key("players", "checked", list(MatchConfig.players), "1 to 8 different names; a single "
        "name plays a solo heist", attr=None),
    Key("difficulty", "checked", MatchConfig.level.name, "\"easy\", \"normal\" or \"hard\" (the "
        "rulebook's table)", attr=None),
    Key("timer_s", "checked", None, "seconds from 1 to 3600, or \"none\" for no time limit "
        "(default: the difficulty's)", attr=None, example="60"),
    Key("lasers", "checked", None, "added laser rods, 3 to 5 (default: the difficulty's)",
        unit="rods", attr=None, example="4"),
    Key("corridor", "checked", None, "\"wide\" or \"narrow\" (default: the difficulty's)",
        attr=None, example='"wide"'),
    Key("first_thief", "checked", None, "one of players (default: the first)", attr=None,
        example='"Ana"'),
), value=MatchConfig, build=_match, doc="Who plays and at which level.", before="pins",
    checks=(("pins", _check_level_wired),))
SECTION = MATCH
