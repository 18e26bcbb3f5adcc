"""The rig's links to the world beyond its table: the tournament's MQTT broker.

* :mod:`.mqtt` -- the one place paho-mqtt is opened (imported lazily: the core and the rig run
  without it until a ``[tournament]`` is configured);
* :mod:`.acks` -- which version of each match the broker acknowledged, kept next to the
  recordings;
* :mod:`.publisher` -- the rig's side: status, live snapshots and finished matches, on a thread
  of its own, the recordings the source of truth;
* :mod:`.feed` -- the leaderboard's side: every rig's messages, checked, into the standings.

The contract itself (topics, messages, standings) is pure and lives in :mod:`rig.games.cleptomano.rules.tournament`
and :mod:`rig.games.cleptomano.rules.standings`.
"""
