"""Stop Thief!'s packaged resources: the sample town, Port Pilfer (``rules/data``)."""

from importlib import resources

from .rules.board import parse_board

SAMPLE_TOWN = "sample_town.toml"


def sample_town_text():
    """The sample town's TOML text, as packaged with the rig."""
    return resources.files("rig.games.stop_thief.rules").joinpath(
        "data", SAMPLE_TOWN).read_text(encoding="utf-8")


def sample_town():
    """The sample town, Port Pilfer."""
    return parse_board(sample_town_text(), "toml")
