"""``[stop_thief]``: the board and the thief's settings (see README "Stop Thief!")."""

from dataclasses import dataclass, field, fields
from typing import Optional

from ...core.settings import Key, Section, parsed_file, rules_checked
from .rules.thief import Settings, make_settings

_DOCS = {
    "stay_chance": "0-0.9: how often the thief stays put when it may",
    "crime_scene_weight": "0.1-10: how much likelier a neighbouring crime scene is",
    "crime_wave_on_stay": "true: a thief staying on a crime scene robs it again",
    "subway_loudspeaker": "true: subway spaces sound as a loudspeaker, not the street",
}


@dataclass(frozen=True)
class StopThiefConfig:
    """``[stop_thief]``: the board (None: the packaged sample town) and the thief's settings
    (a :class:`rig.games.stop_thief.rules.thief.Settings`)."""
    board: object = field(default=None, compare=False)
    board_path: Optional[object] = None
    settings: object = field(default_factory=make_settings)


def _thief(t, context=None):
    """The thief's settings: the rules check the keys given, in the file's order."""
    return rules_checked(t, make_settings, {k: v for k, v in t.data.items() if k != "board"})


def _build(values, t, context):
    path, board = values["board"], None
    if path is not None:
        from .resources import read_board
        board = parsed_file(t, "board", path, lambda: read_board(path))
    return StopThiefConfig(board=board, board_path=path, settings=_thief(t))


SECTION = Section("stop_thief", (
    Key("board", "file", None, "a board file (.toml or .json); \"\" is the sample town, "
                               "Port Pilfer", what="a board file (.toml or .json)", attr=None),
) + tuple(Key(f.name, "checked", f.default, _DOCS[f.name], attr=None) for f in fields(Settings)),
    value=StopThiefConfig, check=_thief, build=_build, doc="--game stop-thief")
