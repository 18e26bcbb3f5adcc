"""``[canine]``: the card table, the optional rule and the longer game (README "Canine
Kleptomaniacs")."""

from dataclasses import dataclass, field
from typing import Optional

from ...core.errors import ConfigError
from ...core.settings import Key, Section
from .rules import parse_card_table
from .rules.scoring import OPTIONAL_RULES


@dataclass(frozen=True)
class CanineConfig:
    """``[canine]``: the card table (None: the example, its numbers placeholders), the
    optional rule and the longer game."""
    table: object = field(default=None, compare=False)
    cards_path: Optional[object] = None
    optional_rule: str = "off"
    longer_game: bool = False


def _cards(t, key, context, path):
    text = context.text(t, key.name, path)
    try:
        return parse_card_table(text)
    except ConfigError as exc:
        raise t.error(key.name, "%s: %s" % (path, exc)) from None


def _build(values, t, context):
    path, table = values["cards"]
    return CanineConfig(table=table, cards_path=path, optional_rule=values["optional_rule"],
                        longer_game=values["longer_game"])


SECTION = Section("canine", (
    Key("cards", "file", None, "your card table (TOML); \"\" is the example, its numbers "
                               "placeholders", what="a card table file (TOML)", parse=_cards,
        attr=None),
    Key("optional_rule", "choice", CanineConfig.optional_rule, "\"off\", \"all-hidden\" or "
        "\"that-kind\"", choices=OPTIONAL_RULES),
    Key("longer_game", "boolean", CanineConfig.longer_game,
        "true: the longer game, with a second Action pile"),
), value=CanineConfig, build=_build, doc="--game canine")
