"""``[chest_heist]``: the score sheet (README "The chest heist")."""

from dataclasses import dataclass, field
from typing import Optional

from ...core.settings import Key, Section, parsed_file
from .rules import parse_sheet


@dataclass(frozen=True)
class ChestHeistConfig:
    """``[chest_heist]``: the score sheet (None: play without one, ticking on paper)."""
    sheet: object = field(default=None, compare=False)
    sheet_path: Optional[object] = None


def _build(values, t, context):
    path = values["sheet"]
    if path is None:
        return ChestHeistConfig()
    text = context.text(t, "sheet", path)
    sheet = parsed_file(t, "sheet", path, lambda: parse_sheet(text, str(path)))
    return ChestHeistConfig(sheet=sheet, sheet_path=path)


SECTION = Section("chest_heist", (
    Key("sheet", "file", None, "a score sheet file (JSON); \"\" plays without one, on paper",
        what="a score sheet file (JSON)", attr=None),
), value=ChestHeistConfig, build=_build, doc="--game chest-heist (solo: the first player plays)")
