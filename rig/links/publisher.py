"""The rig's side of a tournament: its status, its live snapshot and its matches on the broker.

The recordings are the source of truth.  The link reads only what the recording session has made
durable (it is told each fsync and each close, with the size then on disk), follows each
recording as it grows (:class:`rig.shell.storage.Follower`: the new lines only, refereed as
``cleptomano replay`` would), and publishes a match (retained, QoS 1) when it is decided or
closed, and again when that changes what it decides (a corrected haul) or when it closes: the
closed version is the whole recording.  A restart line or a late input after the decision
changes nothing worth a message until the close.

A message counts as delivered when the broker acknowledges it (PUBACK); only then is it noted in
:class:`~rig.links.acks.AckStore`.  Whatever was not acknowledged -- the broker down, the
network out, the rig switched off -- is published when the link is back: at start the link looks
at every recording of the folder and publishes what the store does not hold.  One version of a
match is in flight at a time, so the broker's retained message is always the newest.

Everything runs on the link's own thread (and paho's network thread): the referee thread only
drops its newest snapshot in a slot and the session's notices in a queue, so the link never
delays the buzzer.
"""

import logging
import queue
import threading
from importlib import metadata
from pathlib import Path

from .. import games
from ..core import tournament as tm
from ..core.errors import PayloadError
from ..shell.clock import MonotonicClock
from ..shell.storage import Follower, is_finished
from . import mqtt
from .acks import AckStore

log = logging.getLogger("cleptomano")


def _game():
    """The tournament's game (its ``tournament`` part, through the registry)."""
    return games.tournament()

DRAIN_S = 2.0          # a clean stop waits this long for the broker to acknowledge what is sent
LIVE_PERIOD_S = 1.0 / tm.LIVE_PER_S


def rig_version():
    try:
        return metadata.version("cleptomano-rig")
    except metadata.PackageNotFoundError:
        return "unknown"


class LiveFace:
    """The link as a face of the rig (:mod:`rig.shell.faces`): it wants a snapshot every fifth
    of a second and keeps the newest, for the link's thread to send at most 5 a second."""

    headless = True
    wants_frames = True
    frame_period_s = LIVE_PERIOD_S

    def __init__(self):
        self.board = None

    def show(self, board):
        self.board = board

    def poll_commands(self):
        return []

    def stop(self, timeout_s=1.0):
        return True


class TournamentLink:
    """The link of one rig (``config``: :class:`rig.shell.config.TournamentConfig`) whose
    recordings are in ``directory``.  ``recording_written(path, size, closed)`` is the
    recording session's listener; ``face`` is shown the rig's snapshots; ``clock`` paces the
    live snapshots (real time: the network's, even on a simulated table)."""

    def __init__(self, config, directory, clock, *, version=None, open_client=None):
        self.config = config
        self.directory = Path(directory)
        self.clock = clock
        self.version = version or rig_version()
        self.face = LiveFace()
        self._open_client = open_client or mqtt.open_client
        self._events = queue.SimpleQueue()
        self._thread = None
        self._client = None
        self._connected = False
        self._problem = None           # the last connection problem logged (logged once)
        self._followers = {}           # path -> Follower
        self._open = None              # the recording being written (its match is current)
        self._inflight = {}            # mid -> (match_id, entry, path)
        self._sending = {}             # match_id -> mid: one version of a match in flight
        self._waiting = {}             # match_id -> path: to look at again after its PUBACK
        self._refused = set()          # match ids the broker refused (tried again on connect)
        self._stale = set()            # match ids whose retained copy is not the one acked
        self._sent_board = None
        self._live_due = 0.0
        self.store = None              # the AckStore, opened at start
        self.stats = {"published": 0, "acked": 0, "refused": 0, "live": 0}

    # --- what the rig calls (any thread; never blocks) --------------------------------------------
    def recording_written(self, path, size, closed):
        self._events.put(("written", Path(path), size, closed))

    @property
    def connected(self):
        """Whether the broker has the link now (as the link's thread last heard)."""
        return self._connected

    @property
    def running(self):
        return self._thread is not None and self._thread.is_alive()

    def start(self):
        broker = self.config.broker
        self.store = AckStore(self.directory, broker.url, self.config.rig_id)
        self._client = self._open_client(
            broker, "cleptomano-" + self.config.rig_id, username=self.config.username,
            password=self.config.password, ca_file=self.config.ca_file,
            will=(tm.status_topic(self.config.rig_id),
                  tm.status_payload(self.config.rig_id, False)),
            on_connect=lambda c, u, flags, rc, props: self._events.put(("connected", rc)),
            on_disconnect=lambda c, u, flags, rc, props: self._events.put(("lost", rc)),
            on_publish=lambda c, u, mid, rc, props: self._events.put(("acked", mid, rc)),
            on_message=lambda c, u, msg: self._events.put(("heard", msg.topic, msg.payload)))
        self._thread = threading.Thread(target=self._run, name="cleptomano-tournament",
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout_s=3.0, clean=True):
        """Stop the link.  ``clean``: first publish what the recordings hold that is not yet
        sent, wait (at most :data:`DRAIN_S`) for the broker to acknowledge it and say offline;
        else leave as a crashed rig would (the broker sends the will: offline)."""
        if self._thread is None:
            return True
        self._events.put(("stop", clean))
        self._thread.join(timeout_s + DRAIN_S)
        return not self._thread.is_alive()

    # --- the link's thread ------------------------------------------------------------------------
    def _run(self):
        try:
            self._scan()
        except Exception:
            log.exception("Tournament: looking through %s failed; the link goes on",
                          self.directory)
        while True:
            try:
                event = self._events.get(timeout=self._wait_s())
            except queue.Empty:
                event = None
            try:
                if event is not None and event[0] == "stop":
                    self._leave(event[1])
                    return
                if event is not None:
                    getattr(self, "_on_" + event[0])(*event[1:])
                self._send_live()
            except Exception:
                log.exception("Tournament: handling %r failed; the link goes on", event)

    def _wait_s(self):
        """How long the thread may wait for an event: while connected, until the next live
        snapshot may go (or, with none new, a live period: a snapshot comes without one)."""
        if not self._connected:
            return None
        if self.face.board is self._sent_board:
            return LIVE_PERIOD_S
        return max(0.0, self._live_due - self.clock.now())

    def _scan(self):
        """Every recording of the folder, once at start: publish what the broker has not
        acknowledged (a closed recording whose acknowledged version is the whole of it is not
        even read through)."""
        for path in sorted(self.directory.glob("match-*.jsonl")):
            match_id = tm.match_id_of(path.name)
            if match_id is None or not path.is_file():
                continue
            finished = is_finished(path)
            acked = self.store.get(match_id)
            if finished and acked and acked.get("closed") and acked.get("bytes") == \
                    path.stat().st_size:
                continue
            follower = self._followers[path] = Follower(path)
            follower.read(final=finished)
            self._consider(path)

    def _on_written(self, path, size, closed):
        follower = self._followers.get(path)
        if follower is None:
            follower = self._followers[path] = Follower(path)
        follower.read(upto=size, final=closed)
        current = None if closed else path
        if closed and self._open != path:
            current = self._open
        if current != self._open:
            self._open = current
            self._publish_status()
        self._consider(path)

    def _on_connected(self, rc):
        if mqtt.is_failure(rc):
            self._report("the broker %s refused the rig's user %r: %s; check [tournament] "
                         "username and password (or password_file) against the broker's "
                         "password file" % (self.config.broker.url, self.config.username, rc))
            return
        self._connected = True
        self._problem = None
        log.info("Tournament: connected to %s as %s", self.config.broker.url,
                 self.config.rig_id)
        self._publish_status()
        # The broker's retained copy of each match must stay the newest: another client with
        # this table's login may publish an old version again.  The link hears its own
        # matches' topics (not its own messages) and publishes the recording's version over
        # any other (_on_heard).
        mqtt.subscribe(self._client, tm.match_topic(self.config.rig_id, "+"), no_local=True)
        refused, self._refused = self._refused, set()
        for match_id in refused:
            path = self.directory / (match_id + ".jsonl")
            if path in self._followers:
                self._consider(path)

    def _on_heard(self, topic, payload):
        """A retained (or new) message on one of this rig's match topics: when it is not the
        version the broker acknowledged, publish that version again."""
        try:
            rig, kind, match_id = tm.parse_topic(topic)
        except PayloadError:
            return
        if rig != self.config.rig_id or kind != tm.MATCHES or match_id in self._sending:
            return
        acked = self.store.get(match_id)
        if acked is None or tm.version_of(payload) == (acked.get("bytes"), acked.get("sha256")):
            return
        path = self.directory / (match_id + ".jsonl")
        if not path.is_file():
            return
        log.warning("Tournament: the broker holds another version of %s than the one it "
                    "acknowledged (%d bytes of recording); publishing that one again",
                    match_id, acked.get("bytes") or 0)
        self._stale.add(match_id)
        if path not in self._followers:
            follower = self._followers[path] = Follower(path)
            follower.read(final=is_finished(path))
        self._consider(path)

    def _on_lost(self, rc):
        if self._connected:
            self._report("lost the broker %s (%s); finished matches wait for it and are "
                         "published when it is back" % (self.config.broker.url, rc))
        self._connected = False

    def _report(self, words):
        if words != self._problem:
            self._problem = words
            log.warning("Tournament: %s", words)

    def _on_acked(self, mid, rc):
        sent = self._inflight.pop(mid, None)
        if sent is None:
            return                        # a status: nothing to remember
        match_id, entry, path = sent
        del self._sending[match_id]
        if mqtt.is_failure(rc):
            self.stats["refused"] += 1
            self._refused.add(match_id)
            log.error("Tournament: the broker refused %s: %s; the broker's ACL must let user "
                      "%r write cleptomano/rigs/%s/# (is rig_id this table's own?)",
                      tm.match_topic(self.config.rig_id, match_id), rc, self.config.username,
                      self.config.rig_id)
            return
        self.stats["acked"] += 1
        self._stale.discard(match_id)
        self.store.put(match_id, entry)
        if self._waiting.pop(match_id, None) is not None:
            self._consider(path)
        elif entry["closed"]:
            self._followers.pop(path, None)     # nothing more will come of it

    # --- publishing ----------------------------------------------------------------------------
    def _publish_status(self):
        if not self._connected:
            return          # the next connection publishes the status as it then is
        match_id = tm.match_id_of(self._open.name) if self._open is not None else None
        self._client.publish(tm.status_topic(self.config.rig_id),
                             tm.status_payload(self.config.rig_id, True, self.version,
                                               match_id), qos=1, retain=True)

    def _consider(self, path):
        """Publish the match of ``path`` if its recording holds a version the broker should
        have: decided or closed, and deciding otherwise or closed since the last one sent."""
        follower = self._followers[path]
        match_id = tm.match_id_of(path.name)
        if follower.error is not None:
            self._report("%s is not published: %s" % (path.name, follower.error))
            return
        if follower.header is None or follower.header.rig != self.config.rig_id:
            return                         # not recorded for this tournament's table
        if match_id in self._refused:
            return
        result = follower.result()
        if not (follower.closed or _game().decided(result)):
            return
        entry = {"sha256": follower.sha256, "bytes": follower.size, "closed": follower.closed,
                 "result": tm.result_digest(result)}
        if match_id in self._sending:
            self._waiting[match_id] = path
            return
        last = self.store.get(match_id)
        if last is not None and match_id not in self._stale and \
                last.get("result") == entry["result"] and \
                (last.get("closed") or not entry["closed"]):
            return
        text = follower.text()
        if text is None:                  # changed underneath: read it again from the start
            del self._followers[path]
            follower = self._followers[path] = Follower(path)
            follower.read(final=is_finished(path))
            return self._consider(path)
        record = _game().MatchRecord(self.config.rig_id, match_id, follower.size, follower.sha256,
                                follower.closed, follower.header.to_json(), result)
        payload = tm.match_payload(record, text)
        if len(payload) > tm.MAX_MATCH_BYTES and follower.size > tm.MAX_EMBEDDED_RECORDING_BYTES:
            payload = tm.match_payload(record)
        if len(payload) > tm.MAX_MATCH_BYTES:
            self._report("%s is too big to publish (%d bytes); rebuild the standings from the "
                         "recordings (cleptomano leaderboard --from)" % (path.name, len(payload)))
            return
        info = self._client.publish(tm.match_topic(self.config.rig_id, match_id), payload,
                                    qos=1, retain=True)
        self._inflight[info.mid] = (match_id, entry, path)   # paho resends it until acked
        self._sending[match_id] = info.mid
        self.stats["published"] += 1

    def _send_live(self):
        board = self.face.board
        now = self.clock.now()
        if not self._connected or board is None or board is self._sent_board \
                or now < self._live_due:
            return
        self._sent_board = board
        self._live_due = now + LIVE_PERIOD_S
        self._client.publish(tm.live_topic(self.config.rig_id), tm.dumps(_game().live(board)),
                             qos=0)
        self.stats["live"] += 1

    def _leave(self, clean):
        client = self._client
        if not clean:
            mqtt.disconnect(client, with_will=True)
            return
        # Whatever the session told before the stop is read and published first.
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                break
            if event[0] != "stop":
                getattr(self, "_on_" + event[0])(*event[1:])
        deadline = self.clock.now() + DRAIN_S
        while self._inflight and self._connected and self.clock.now() < deadline:
            try:
                event = self._events.get(timeout=max(0.0, deadline - self.clock.now()))
            except queue.Empty:
                break
            if event[0] != "stop":
                getattr(self, "_on_" + event[0])(*event[1:])
        if self._inflight:
            log.warning("Tournament: %d match%s not yet acknowledged by the broker; they are "
                        "published at the next start", len(self._inflight),
                        "" if len(self._inflight) == 1 else "es")
        if self._connected:
            info = client.publish(tm.status_topic(self.config.rig_id),
                                  tm.status_payload(self.config.rig_id, False), qos=1,
                                  retain=True)
            try:
                info.wait_for_publish(max(0.1, deadline - self.clock.now()))
            except RuntimeError:
                pass              # the broker went away meanwhile: its will says offline
        mqtt.disconnect(client)


def tournament_link(config, directory, session):
    """The rig's link to the tournament's broker (``config``: ``[tournament]``), told of every
    recording ``session`` makes durable.  It paces itself in real time (the network's), even
    on a simulated table in virtual time."""
    link = TournamentLink(config, directory, MonotonicClock())
    session.listeners.append(link.recording_written)
    return link
