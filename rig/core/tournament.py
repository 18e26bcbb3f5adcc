"""The tournament's link, the part that is no game's: where the rigs publish on the MQTT broker
and the envelope of what they publish.  Pure.

Topics, one tree per rig (``<rig_id>`` is ``[tournament] rig_id``)::

    cleptomano/rigs/<rig_id>/status               retained, QoS 1: online (version, current match)
                                                  or offline (also the rig's last will)
    cleptomano/rigs/<rig_id>/live                 QoS 0, at most 5 a second: the display snapshot
    cleptomano/rigs/<rig_id>/matches/<match_id>   retained, QoS 1: a decided or closed match

Here: the broker's address (:func:`parse_broker`) and a rig's id (:func:`check_rig_id`), the
topics, the status messages, and a match message's envelope: its size and sha256, how two
versions of one match are ordered (:func:`newer`) and when a newer one may replace the one held
(:func:`supersedes`), how a match message is made (:func:`match_payload`) and kept.

What a match message carries of the game (its recording's header and replay, checked by
re-refereeing) and how the standings are made is the tournament's game's: the ``tournament``
part of its folder (:class:`rig.core.contract.Tournament`; Cleptómano's
``rig/games/cleptomano/tournament.py``), which :mod:`rig.links` reaches through the registry.
"""

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Optional

from .bounded import load_json
from .errors import ConfigError, PayloadError
from .text import control_character

#: What a rig id may be: one topic level, an ACL user name (also in a recording's header).
RIG_ID_RULE = "1-32 letters, digits, '-' or '_', starting with a letter or digit"
_RIG_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}\Z")


def is_rig_id(value):
    return isinstance(value, str) and bool(_RIG_ID.match(value))
PREFIX = "cleptomano/rigs"
#: What the leaderboard subscribes to: every rig's tree.
SUBSCRIPTIONS = (PREFIX + "/+/status", PREFIX + "/+/live", PREFIX + "/+/matches/+")
STATUS, LIVE, MATCHES = "status", "live", "matches"
ONLINE, OFFLINE = "online", "offline"
LIVE_PER_S = 5
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}

MAX_STATUS_BYTES = 4096
MAX_LIVE_BYTES = 64 * 1024
MAX_MATCH_BYTES = 2 * 2 ** 20
#: A longer recording is left out of its match message (which then carries its sha256 only).
MAX_EMBEDDED_RECORDING_BYTES = 2 ** 20
#: The largest recording a match message may claim (about 30 hours of a table's every input);
#: a claim beyond it would outgrow every real version of that match.
MAX_RECORDING_BYTES = 64 * 2 ** 20
MAX_NESTING = 16

_MATCH_ID = re.compile(r"match-\d{8}-\d{6}(?:-\d{1,6})?\Z")
SHA256_HEX = re.compile(r"[0-9a-f]{64}\Z")
_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}\Z|\[[0-9A-Fa-f:.]{2,45}\]\Z")


# --- ids and the broker's address ----------------------------------------------------------

def check_rig_id(value):
    """``value`` if it can be a rig id (one topic level, an ACL user name), else ConfigError."""
    if not is_rig_id(value):
        raise ConfigError("%s is not a rig id; give %s, e.g. \"table-3\""
                          % (json.dumps(value, ensure_ascii=False), RIG_ID_RULE))
    return value


def match_id_of(name):
    """The match id of a recording's file name (``match-20250614-193002.jsonl``), or None when
    the name is not one the rig gives its recordings."""
    stem = name[:-len(".jsonl")] if name.endswith(".jsonl") else None
    return stem if stem is not None and _MATCH_ID.match(stem) else None


@dataclass(frozen=True)
class Broker:
    """Where the broker listens: ``mqtt://host:1883`` or, over TLS, ``mqtts://host:8883``."""
    scheme: str
    host: str
    port: int

    @property
    def tls(self):
        return self.scheme == "mqtts"

    @property
    def url(self):
        return "%s://%s:%d" % (self.scheme, self.host, self.port)

    @property
    def connect_host(self):
        """The host as a socket takes it (an IPv6 literal without its brackets)."""
        return self.host.strip("[]")


def parse_broker(url):
    """``mqtt://host[:port]`` or ``mqtts://host[:port]`` as a :class:`Broker`; ConfigError
    naming what is wrong otherwise (a user name or a path in it, another scheme, a bad port)."""
    fix = "give mqtt://HOST:1883 or mqtts://HOST:8883 (TLS)"  # not words: the broker's payload err
    if not isinstance(url, str) or control_character(url) is not None:
        raise ConfigError("%s is not a broker address; %s" % (json.dumps(url), fix))
    scheme, sep, rest = url.strip().partition("://")
    if not sep or scheme.lower() not in DEFAULT_PORTS:
        raise ConfigError("%s is not an MQTT address (the scheme must be mqtt:// or "
                          "mqtts://); %s" % (json.dumps(url), fix))
    if any(c in rest for c in "/?#@"):
        raise ConfigError("%s holds more than a host and a port; put the user name in "
                          "username and the password in password or password_file; %s"
                          % (json.dumps(url), fix))
    host, port = rest, DEFAULT_PORTS[scheme.lower()]
    found = re.fullmatch(r"(.*):(\d{1,5})", rest)
    if found and not (rest.startswith("[") and not found.group(1).endswith("]")):
        host, port = found.group(1), int(found.group(2))
    if not _HOST.match(host) or not 1 <= port <= 65535:
        raise ConfigError("%s has no valid host and port (port 1-65535); %s"
                          % (json.dumps(url), fix))
    return Broker(scheme.lower(), host, port)


# --- topics ---------------------------------------------------------------------------------

def status_topic(rig_id):
    return "%s/%s/%s" % (PREFIX, rig_id, STATUS)


def live_topic(rig_id):
    return "%s/%s/%s" % (PREFIX, rig_id, LIVE)


def match_topic(rig_id, match_id):
    return "%s/%s/%s/%s" % (PREFIX, rig_id, MATCHES, match_id)


def parse_topic(topic):
    """``(rig_id, kind, match_id)`` of a topic of the contract (match_id None but for a
    match); PayloadError for any other topic."""
    parts = topic.split("/") if isinstance(topic, str) else []
    if len(parts) >= 4 and "/".join(parts[:2]) == PREFIX and is_rig_id(parts[2]):
        rig, kind = parts[2], parts[3]
        if len(parts) == 4 and kind in (STATUS, LIVE):
            return rig, kind, None
        if len(parts) == 5 and kind == MATCHES and _MATCH_ID.match(parts[4]):
            return rig, kind, parts[4]
    raise PayloadError("topic %s is not one of the tournament's (%s/<rig_id>/status, live or "
                       "matches/<match_id>)" % (json.dumps(topic)[:120], PREFIX))


# --- the messages' envelope ------------------------------------------------------------------

def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def status_payload(rig_id, online, version=None, match_id=None):
    if not online:
        return dumps({"status": OFFLINE, "rig": rig_id})
    return dumps({"status": ONLINE, "rig": rig_id, "version": version, "match": match_id})


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def result_digest(result):
    """A short fingerprint of a replay output: two versions of a match with the same one
    decide the same standings."""
    return sha256(json.dumps(result, sort_keys=True).encode("utf-8"))[:32]


def supersedes(new, old):
    """Why version ``new`` of a match may not replace ``old`` (None: nothing yet), in words;
    None when it may.  A match's versions only move forward: the newer is the larger
    recording, and when ``new`` carries its recording, the first ``old.size`` bytes of it hash
    to ``old.sha256`` (it extends ``old``, not a recording of its own).  An old version sent
    again (a replayed retained message) is refused, and so is one that rewrites the past."""
    if old is None:
        return None
    if new.size == old.size and new.sha256 == old.sha256:
        return "it is the version already held"  # not words: a reason in the leaderboard's log
    if new.size <= old.size:
        return ("it is %d bytes of recording, not more than the %d bytes of the version "  # not words: a reason in the leaderboard's log
                "already held (an older version sent again?)" % (new.size, old.size))
    if new.recording is not None:
        data = new.recording.encode("utf-8", "surrogatepass")
        if sha256(data[:old.size]) != old.sha256:
            return ("its recording does not begin with the %d bytes of the version already "  # not words: a reason in the leaderboard's log
                    "held (sha256 %s...): a recording only grows" % (old.size, old.sha256[:12]))
    return None


def newer(a, b):
    """Whether version ``a`` of a match replaces ``b`` (None: nothing yet): the larger
    recording, and of two the same size (which one rig never writes) the higher digest, so
    every reader picks the same one whatever order they came in."""
    return b is None or (a.size, a.sha256) > (b.size, b.sha256)


def match_payload(record, text=None):
    """The message of a match version; ``text`` (the recording, as the sha256 was taken of its
    UTF-8 bytes) is embedded when it is at most :data:`MAX_EMBEDDED_RECORDING_BYTES`."""
    out = {"match": record.match_id, "rig": record.rig, "closed": record.closed,
           "bytes": record.size, "sha256": record.sha256, "header": record.header,
           "replay": record.result}
    if text is not None and len(text.encode("utf-8")) <= MAX_EMBEDDED_RECORDING_BYTES:
        out["recording"] = text
    return dumps(out)


def version_of(payload):
    """``(bytes, sha256)`` of a match message as it stands (its values unchecked), or None
    when it is not one (an empty retained message, junk): what a rig compares with the version
    the broker acknowledged."""
    try:
        obj = load_payload(payload, MAX_MATCH_BYTES)
    except PayloadError:
        return None
    if not isinstance(obj, dict):
        return None
    return obj.get("bytes"), obj.get("sha256")


@dataclass(frozen=True)
class Status:
    rig: str
    online: bool
    version: Optional[str] = None
    match_id: Optional[str] = None


def load_payload(payload, limit):
    if not isinstance(payload, (bytes, bytearray)):
        raise PayloadError("the payload is not bytes")
    if len(payload) > limit:
        raise PayloadError("%d bytes is more than the %d a message of this kind may have"
                           % (len(payload), limit))
    try:
        text = bytes(payload).decode("utf-8")
    except UnicodeDecodeError:
        raise PayloadError("the payload is not UTF-8 text") from None
    return load_json(text, PayloadError, "a tournament message is one JSON object of the "  # not words
                     "contract (README \"Tournament\")", max_depth=MAX_NESTING,
                     nests="the JSON nests", syntax="the payload is not JSON (%s)")  # not words


def check_object(obj, what):
    if not isinstance(obj, dict):
        raise PayloadError("%s must be a JSON object" % what)
    return obj


def parse_status(rig, obj):
    check_object(obj, "a status")
    if obj.get("rig") != rig:
        raise PayloadError("the status names rig %r, not the topic's %r" % (obj.get("rig"), rig))
    state = obj.get("status")
    if state == OFFLINE:
        return Status(rig, False)
    if state != ONLINE:
        raise PayloadError("status %r is neither %r nor %r" % (state, ONLINE, OFFLINE))
    version, match_id = obj.get("version"), obj.get("match")
    if version is not None and not (isinstance(version, str) and len(version) <= 40
                                    and control_character(version) is None):
        raise PayloadError("version %r is not a short version string" % (version,))
    if match_id is not None and not (isinstance(match_id, str) and _MATCH_ID.match(match_id)):
        raise PayloadError("match %r is not a match id" % (match_id,))
    return Status(rig, True, version, match_id)


def kept_json(record):
    """``record`` as the leaderboard keeps it across its restarts (:func:`from_kept`): the
    match message without the recording, which was checked when it came."""
    return {"topic": match_topic(record.rig, record.match_id),
            "message": json.loads(match_payload(record))}
