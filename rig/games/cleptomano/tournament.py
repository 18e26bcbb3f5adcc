"""Cleptómano as the game a tournament carries: the ``tournament`` part of its folder
(:class:`rig.core.contract.Tournament`), through which :mod:`rig.links` (the rig's publisher,
the leaderboard's feed) and ``cleptomano leaderboard`` reach the match messages' contract and
the standings without importing the game: what a match message holds of the match and how it is
checked (:mod:`.rules.tournament`, re-refereeing the embedded recording), the standings
(:mod:`.rules.standings`), a recording re-refereed (:func:`replay`, :func:`ends_match`) and the
live snapshot a rig publishes (:func:`live`).  Pure, as the rules it gathers."""

from .rules.recording import ends_match  # noqa: F401
from .rules.replay import replay  # noqa: F401
from .rules.standings import standings  # noqa: F401
from .rules.tournament import (  # noqa: F401
    SUBSCRIPTIONS, Live, MatchRecord, decided, from_kept, parse_message, supersedes)
from .rules.view import board_json as live  # noqa: F401
