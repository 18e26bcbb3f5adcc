"""The leaderboard's side of a tournament: every rig's messages from the broker, checked, kept,
and turned into the standings -- or the same standings from the recordings alone.

:class:`Feed` subscribes to every rig's tree
(:data:`rig.core.tournament.SUBSCRIPTIONS`) as the broker's ``leaderboard`` user,
which may only read.  Each message is untrusted input: it is parsed by the tournament game's
``parse_message`` (:func:`rig.games.tournament`; size limits, shape, every value the standings
read, the embedded recording's sha256 and replay); a bad one is logged, counted in
``skipped`` and dropped, and the feed goes on.  Of several versions of a match the newest is
kept, so a message the broker delivers twice (QoS 1 may) or a rig republishes counts once; a
match's versions only move forward (:func:`rig.core.tournament.supersedes`):
an old version sent again, or one whose recording does not extend the one held, is refused.

With ``state_file`` the feed keeps every match it took (without the recording, checked when it
came) in that file, written whole and renamed over the old, and reads it back at start: a
restarted leaderboard holds every version it had seen, and an old retained message replayed to
the broker meanwhile does not take it back.

:func:`records_from` reads recordings folders into the same records: ``cleptomano leaderboard
--from DIR...`` audits a tournament, or rebuilds it after any failure, without the broker.
"""

import dataclasses
import json
import logging
import os
import secrets
import threading
from pathlib import Path

from .. import games
from ..core import tournament as tm
from ..core.errors import PayloadError, RecordingError
from .. import files
from ..core.bounded import load_json
from ..shell.storage import read, sync_directory, through_line
from . import mqtt


def _game():
    """The tournament's game (its ``tournament`` part, through the registry): what a match
    message holds of the match, its re-refereeing and the standings."""
    return games.tournament()

log = logging.getLogger("cleptomano")

STATE_FORMAT = "cleptomano-leaderboard-state"


class Feed:
    """The messages of every rig on ``broker``
    (:class:`rig.core.tournament.Broker`), kept newest first; :meth:`standings` is
    the leaderboard's JSON.  ``on_change()`` is called (on paho's thread) after each message that
    changed anything."""

    def __init__(self, broker, *, username="leaderboard", password=None, ca_file=None,
                 open_client=None, on_change=None, state_file=None):
        self.broker = broker
        self.username, self.password, self.ca_file = username, password, ca_file
        self.on_change = on_change
        self._open_client = open_client or mqtt.open_client
        self._lock = threading.Lock()
        self._records = {}           # (rig, match id) -> the newest MatchRecord
        self._statuses = {}          # rig -> Status
        self._lives = {}             # rig -> Live
        self._client = None
        self.connected = threading.Event()
        self.was_connected = False   # the broker let it in at least once
        self.problem = None          # why the broker did not (or no longer) let it in, in words
        self._stopping = False       # stop() asked: the broker's goodbye is no loss
        self.skipped = 0
        self.received = 0
        self.state_file = Path(state_file) if state_file is not None else None
        self._kept_all = {}          # broker url -> [kept_json...] (other brokers' untouched)
        if self.state_file is not None:
            self._load_state()

    # --- what it keeps across restarts -------------------------------------------------------
    def _load_state(self):
        path = self.state_file
        try:
            with files.open_regular(path) as f:
                data = load_json(f.read().decode("utf-8"), ValueError, "it is set aside")
            if not isinstance(data, dict) or data.get("format") != STATE_FORMAT \
                    or not isinstance(data.get("brokers"), dict):
                raise ValueError("not a %s file" % STATE_FORMAT)
        except FileNotFoundError:
            return
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            log.warning("Leaderboard: %s cannot be read (%s); it is set aside and the "
                        "standings start from the broker's retained matches", path, exc)
            try:
                os.replace(path, path.with_name(path.name + ".bad"))
            except OSError:
                pass
            return
        self._kept_all = {k: v for k, v in data["brokers"].items() if isinstance(v, list)}
        for obj in self._kept_all.get(self.broker.url, []):
            try:
                record = _game().from_kept(obj)
            except PayloadError as exc:
                log.warning("Leaderboard: %s: a kept match is left out: %s", path, exc)
                continue
            if tm.supersedes(record, self._records.get(record.key)) is None:
                self._records[record.key] = record

    def _save_state(self):
        """Every match held, on disk before returning (called under the lock)."""
        self._kept_all[self.broker.url] = [tm.kept_json(r) for r in self._records.values()]
        data = json.dumps({"format": STATE_FORMAT, "version": 1, "brokers": self._kept_all},
                          ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        path = self.state_file
        tmp = path.with_name(path.name + ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
            sync_directory(path.parent)
        except OSError as exc:
            log.error("Leaderboard: cannot keep the standings in %s (%s); they hold until the "
                      "leaderboard stops", path, exc)

    def start(self):
        self._client = self._open_client(
            self.broker, "cleptomano-leaderboard-" + secrets.token_hex(4),
            username=self.username, password=self.password, ca_file=self.ca_file,
            on_connect=self._on_connect, on_disconnect=self._on_disconnect,
            on_message=lambda client, userdata, msg: self.take(msg.topic, msg.payload))
        return self

    def stop(self):
        if self._client is not None:
            self._stopping = True
            mqtt.disconnect(self._client)
            self._client = None

    def _on_connect(self, client, userdata, flags, rc, props):
        if mqtt.is_failure(rc):
            self.problem = "it refused user %r: %s" % (self.username, rc)
            log.error("Leaderboard: the broker %s refused user %r: %s; check --username and "
                      "--password-file against the broker's password file",
                      self.broker.url, self.username, rc)
            return
        # A new session each time: subscribe again, and the broker sends every retained match.
        client.subscribe([(topic, 1) for topic in tm.SUBSCRIPTIONS])
        log.info("Leaderboard: following every rig on %s", self.broker.url)
        self.problem = None
        self.was_connected = True
        self.connected.set()

    def _on_disconnect(self, client, userdata, flags, rc, props):
        if self._stopping:           # a clean stop (issue 30: it logged "lost the broker")
            if self.connected.is_set():
                log.info("Leaderboard: left the broker %s", self.broker.url)
        elif self.connected.is_set():
            self.problem = "it closed the connection (%s)" % (rc,)
            log.warning("Leaderboard: lost the broker %s (%s); reconnecting", self.broker.url,
                        rc)
        self.connected.clear()

    def take(self, topic, payload):
        """One message from the broker; never raises (a bad one is logged and skipped)."""
        try:
            message = _game().parse_message(topic, payload)
        except PayloadError as exc:
            self.skipped += 1
            log.warning("Leaderboard: skipped a message: %s", exc)
            return
        except Exception:            # a bug must not stop the leaderboard either
            self.skipped += 1
            log.exception("Leaderboard: skipped a message on %r", str(topic)[:120])
            return
        with self._lock:
            self.received += 1
            changed = self._keep(message)
        if changed and self.on_change is not None:
            self.on_change()

    def _keep(self, message):
        if isinstance(message, tm.Status):
            if not message.online:
                self._lives.pop(message.rig, None)
            changed = self._statuses.get(message.rig) != message
            self._statuses[message.rig] = message
            return changed
        if isinstance(message, _game().Live):
            changed = self._lives.get(message.rig) != message
            self._lives[message.rig] = message
            return changed
        refused = tm.supersedes(message, self._records.get(message.key))
        if refused is not None:
            if not refused.startswith("it is the version already held"):
                self.skipped += 1
                log.warning("Leaderboard: skipped %s: %s",
                            tm.match_topic(message.rig, message.match_id), refused)
            return False
        self._records[message.key] = dataclasses.replace(message, recording=None)
        if self.state_file is not None:
            self._save_state()
        return True

    def records(self):
        with self._lock:
            return list(self._records.values())

    def standings(self):
        with self._lock:
            return _game().standings(self._records.values(), self._statuses.values(),
                                self._lives.values())


#: Why :func:`record_of` leaves a readable recording out (the ``why`` it is told).
NOT_A_MATCH, NO_RIG, NOT_YET = "not a match's file name", "no rig", "not decided nor closed"
UNREADABLE = "unreadable"      # (said by ``warn``, file by file)


def record_of(path, why=None):
    """The ``MatchRecord`` (the tournament game's) of a recording file, as its
    rig publishes it: its whole lines (a torn last line left out, as the rig's link leaves it),
    re-refereed as :func:`rig.shell.storage.replay_file` does.  None when it is not a tournament's
    (no rig id in its header, or not a match's file name) or when its rig would not publish it yet
    (neither decided nor closed): ``why`` (a list, if given) is then told which
    (:data:`NO_RIG`...).  RecordingError or OSError when it cannot be read."""
    path = Path(path)
    match_id = tm.match_id_of(path.name)
    if match_id is None:
        if why is not None:
            why.append(NOT_A_MATCH)
        return None
    with files.open_regular(path) as f:
        data = f.read()
    torn = []
    header, items = read(path, torn)
    if header.rig is None:
        if why is not None:
            why.append(NO_RIG)
        return None
    if torn:
        data = data[:data.rfind(b"\n") + 1]
    result = _game().replay(header, items, path)
    closed = bool(items) and _game().ends_match(items[-1][1])
    if closed:                  # the match ends with its closing line, as the link reads it
        data = through_line(data, items[-1][0])
    if not (closed or _game().decided(result)):
        if why is not None:
            why.append(NOT_YET)
        return None
    return _game().MatchRecord(header.rig, match_id, len(data), tm.sha256(data), closed,
                          header.to_json(), result)


def records_from(directories, warn=None, left_out=None):
    """The records of every tournament recording in ``directories`` (each a rig's recordings
    folder, or a folder of them: searched through); ``warn(line)`` is told of each recording
    that cannot be read, which is left out; ``left_out`` (a Counter, if given) counts the
    readable ones left out, by why (:data:`NO_RIG`, :data:`NOT_YET`)."""
    records = []
    for directory in directories:
        for path in sorted(Path(directory).rglob("match-*.jsonl")):
            if not path.is_file():
                continue
            why = []
            try:
                record = record_of(path, why)
            except (RecordingError, OSError) as exc:
                if warn is not None:
                    warn("%s is left out: %s" % (path, exc))
                if left_out is not None:
                    left_out[UNREADABLE] += 1
                continue
            if record is not None:
                records.append(record)
            elif left_out is not None:
                left_out.update(why)
    return records
