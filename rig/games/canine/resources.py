"""Canine Kleptomaniacs' packaged resources: the example card table (``rules/data``)."""

from importlib import resources

from .rules.cards import parse_card_table

EXAMPLE_CARDS = "example_cards.toml"


def example_cards():
    """The packaged example card table (its numbers are placeholders)."""
    return parse_card_table(resources.files("rig.games.canine.rules").joinpath(
        "data", EXAMPLE_CARDS).read_text(encoding="utf-8"))
