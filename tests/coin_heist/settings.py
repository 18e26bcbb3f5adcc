"""``[coin_heist]``: how many jewels win (README "Adding a game", the worked example)."""

from rig.core.settings import Key, Section

SECTION = Section("coin_heist", (
    Key("target", "whole", 3, "1-9 jewels to win", unit="jewels", low=1, high=9),
), class_name="CoinHeistConfig", module=__name__,
    doc="``[coin_heist]``: how many jewels win (the test suite's own game).")
CoinHeistConfig = SECTION.value
