"""Cleptómano's sounds part (README "Adding a game"): the museum's sounds are the rig's own
(rig/display/sounds.py: the buzzer, the ticks, the siren), so it brings none; what the voice
renders ahead of time for it (rig/display/voice.py) is its Caught! and Escaped! banners."""

from .rules.calls import BANNER_WORDS
from .rules.view import BannerKind

#: The codes the voice renders ahead of time, in the table's language: said the moment the
#: banner goes up, with a hand still between the lasers.
SPOKEN_AHEAD = (BANNER_WORDS[BannerKind.CAUGHT], BANNER_WORDS[BannerKind.ESCAPED])


def extra_sounds():
    """No sound beyond the rig's own."""
    return {}
