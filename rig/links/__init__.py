"""The rig's links to the world beyond its table: the tournament's MQTT broker.

* :mod:`.mqtt` -- the one place paho-mqtt is opened (imported lazily: the core and the rig run
  without it until a ``[tournament]`` is configured);
* :mod:`.acks` -- which version of each match the broker acknowledged, kept next to the
  recordings;
* :mod:`.publisher` -- the rig's side: status, live snapshots and finished matches, on a thread
  of its own, the recordings the source of truth;
* :mod:`.feed` -- the leaderboard's side: every rig's messages, checked, into the standings.

The contract itself is pure: the topics and a message's envelope in :mod:`rig.core.tournament`;
what a match message holds of the match and the standings are the tournament's game's, its
``tournament`` part (:class:`rig.core.contract.Tournament`), reached through the registry
(:func:`rig.games.tournament`): no module here imports a game.
"""
