"""Which version of each match the broker acknowledged (PUBACK), kept in the rig's state
directory next to the recordings (``/var/lib/cleptomano`` under systemd), so a restarted rig
publishes what it had not, and nothing it had.

One JSON file, ``tournament-acks.json``, written whole to a temporary file, fsynced and renamed
over the old one: a power cut leaves the old list or the new, never half of one.  Acknowledgements
are kept per broker address and rig id: a rig moved to another broker (or given another id)
publishes every match again there.  A file that cannot be read is set aside (renamed with
``.bad``) and the rig starts afresh: at worst it publishes matches again, which the leaderboard
counts once.
"""

import json
import logging
import os

from ..core.bounded import load_json
from ..shell.storage import sync_directory

log = logging.getLogger("cleptomano")

FILE = "tournament-acks.json"
FORMAT = "cleptomano-tournament-acks"


class AckStore:
    def __init__(self, directory, broker_url, rig_id):
        self.path = directory / FILE
        self.key = "%s %s" % (broker_url, rig_id)
        self._all = self._load()
        self.acked = self._all.setdefault(self.key, {})

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = load_json(f.read(), ValueError, "it is set aside")
            if data.get("format") != FORMAT or not isinstance(data.get("brokers"), dict):
                raise ValueError("not a %s file" % FORMAT)
            return {k: v for k, v in data["brokers"].items() if isinstance(v, dict)}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, AttributeError) as exc:
            log.warning("Tournament: %s cannot be read (%s); it is set aside and every finished "
                        "match is published again", self.path, exc)
            try:
                os.replace(self.path, self.path.with_suffix(".json.bad"))
            except OSError:
                pass
            return {}

    def get(self, match_id):
        return self.acked.get(match_id)

    def put(self, match_id, entry):
        """Remember ``entry`` (a JSON object) for ``match_id``, on disk before returning."""
        self.acked[match_id] = entry
        tmp = self.path.with_suffix(".json.tmp")
        data = json.dumps({"format": FORMAT, "version": 1, "brokers": self._all},
                          indent=1, sort_keys=True).encode("utf-8")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        sync_directory(self.path.parent)
