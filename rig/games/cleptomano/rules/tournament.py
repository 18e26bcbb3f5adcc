"""The tournament's public contract, Cleptómano's part: what a match message carries of the match
(its recording's header and replay, re-refereed) and the live snapshot; where the rigs publish
and the envelope of a message (topics, sizes, sha256, the order of versions) are
:mod:`rig.core.tournament`'s, re-exported here.

Topics, one tree per rig (``<rig_id>`` is ``[tournament] rig_id``)::

    cleptomano/rigs/<rig_id>/status               retained, QoS 1: online (version, current match)
                                                  or offline (also the rig's last will)
    cleptomano/rigs/<rig_id>/live                 QoS 0, at most 5 a second: the display snapshot
    cleptomano/rigs/<rig_id>/matches/<match_id>   retained, QoS 1: a decided or closed match

``match_id`` is the recording's file name without ``.jsonl`` (``match-20250614-193002``, with
``-2``... when two matches start within a second).  The rig names the file when the match starts
and appends to that one file until the match closes, across crashes and restarts, so the id never
changes; a rig's matches are told apart by it and two rigs' by the topic.

A match message carries the recording's header, the replay output (``cleptomano replay``), the
recording's size and sha256, whether it is closed (its end line written) and, up to
:data:`MAX_EMBEDDED_RECORDING_BYTES`, the recording itself (always, up to that size).  A
recording only grows, so of two messages about one match the one of the larger recording is the
newer (:func:`newer`), and a newer version's recording begins with the older one
(:func:`supersedes`).

Everything from the broker is untrusted: :func:`parse_message` checks its size, its shape, every
value the standings read, that a recording that could be embedded is, its sha256 and its replay
(re-refereed), and that the replay's figures agree with each other (:func:`contradiction`).
Pure.
"""

import json
from dataclasses import dataclass, field
from typing import Optional

from rig.games.cleptomano.rules import recording
from rig.core.errors import PayloadError, RecordingError
from rig.core.text import control_character
from rig.core.tournament import (  # noqa: F401 (the contract's names, as they always were here)
    DEFAULT_PORTS, LIVE, LIVE_PER_S, MATCHES, MAX_EMBEDDED_RECORDING_BYTES, MAX_LIVE_BYTES,
    MAX_MATCH_BYTES, MAX_NESTING, MAX_RECORDING_BYTES, MAX_STATUS_BYTES, OFFLINE, ONLINE, PREFIX,
    RIG_ID_RULE, SHA256_HEX, STATUS, SUBSCRIPTIONS, Broker, Status, check_object, check_rig_id,
    dumps, is_rig_id, kept_json, live_topic, load_payload, match_id_of, match_payload,
    match_topic, newer, parse_broker, parse_status, parse_topic, result_digest, sha256,
    status_payload, status_topic, supersedes, version_of)
from .replay import replay


def decided(result):
    """Whether a match counts in the standings: it has a winner, or it is a solo heist whose
    attempt is over."""
    if len(result["players"]) == 1:
        return any(t["outcome"] != "unfinished" for t in result["turns"])
    return result["winner"] is not None


@dataclass(frozen=True)
class MatchRecord:
    """One version of one rig's match, as the standings take it."""
    rig: str
    match_id: str
    size: int                  # bytes of recording: the larger, the newer
    sha256: str
    closed: bool
    header: dict               # the recording's first line
    result: dict               # the replay output
    #: the embedded recording's text, as the message carried it (None when it did not): what
    #: :func:`supersedes` checks a newer version against; not part of the record's identity
    recording: Optional[str] = field(default=None, compare=False, repr=False)

    @property
    def key(self):
        return self.rig, self.match_id

    @property
    def decided(self):
        return decided(self.result)


@dataclass(frozen=True)
class Live:
    """What the leaderboard shows of a rig's live snapshot: :data:`LIVE_FIELDS`, checked."""
    rig: str
    board: dict


#: The snapshot's fields (``board_json``, :mod:`rig.games.cleptomano.rules.view`) the leaderboard
#: shows live.
LIVE_FIELDS = ("phase", "players", "round", "level", "thief", "guard", "tiebreak",
               "remaining_s", "elapsed_s", "touches", "turn_score", "round_wins", "winner",
               "title")
_PHASES = ("turn", "between", "over")


def _name(value):
    return isinstance(value, str) and 0 < len(value) <= 40 and control_character(value) is None


def live_summary(obj):
    """The :data:`LIVE_FIELDS` of a live snapshot, each checked (PayloadError for a bad one);
    a field the snapshot lacks is None."""
    check_object(obj, "the live snapshot")  # not words: the broker's payload errors
    out = {key: obj.get(key) for key in LIVE_FIELDS}
    players = out["players"]
    if not (isinstance(players, list) and len(players) <= 8 and all(map(_name, players))):
        raise PayloadError("live players %r are not a list of names" % (players,))
    checks = {
        "phase": lambda v: v in _PHASES,
        "round": lambda v: _is_count(v, 1000),
        "level": _name,
        "thief": lambda v: v in players, "guard": lambda v: v in players,
        "winner": lambda v: v in players,
        "tiebreak": lambda v: isinstance(v, bool),
        "remaining_s": _is_seconds, "elapsed_s": _is_seconds,
        "touches": lambda v: _is_count(v, 100000), "turn_score": lambda v: _is_count(v, 7),
        "round_wins": lambda v: isinstance(v, dict) and set(v) <= set(players)
        and all(_is_count(n, 1000) for n in v.values()),
        "title": lambda v: isinstance(v, str) and len(v) <= 80
        and control_character(v) is None,
    }
    for key, check in checks.items():
        if out[key] is not None and not check(out[key]):
            raise PayloadError("live %s %r is not valid" % (key, out[key]))
    return out


_MATCH_KEYS = {"match", "rig", "closed", "bytes", "sha256", "header", "replay"}


def parse_message(topic, payload):
    """A message from the broker as a :class:`Status`, :class:`Live` or :class:`MatchRecord`;
    PayloadError naming the topic and what is wrong for anything else."""
    rig, kind, match_id = parse_topic(topic)
    try:
        limit = {STATUS: MAX_STATUS_BYTES, LIVE: MAX_LIVE_BYTES}.get(kind, MAX_MATCH_BYTES)
        obj = load_payload(payload, limit)
        if kind == STATUS:
            return parse_status(rig, obj)
        if kind == LIVE:
            return Live(rig, live_summary(obj))
        return _match(rig, match_id, obj)
    except PayloadError as exc:
        raise PayloadError("%s: %s" % (topic, exc)) from None


def _match(rig, match_id, obj, kept=False):
    check_object(obj, "a match")
    missing = sorted(_MATCH_KEYS - set(obj))
    if missing:
        raise PayloadError("the match lacks %s" % ", ".join(missing))
    if obj["rig"] != rig or obj["match"] != match_id:
        raise PayloadError("the match names %r/%r, not the topic's %s/%s"
                           % (obj["rig"], obj["match"], rig, match_id))
    size, digest, closed = obj["bytes"], obj["sha256"], obj["closed"]
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise PayloadError("bytes %r is not a size" % (size,))
    if size > MAX_RECORDING_BYTES:
        raise PayloadError("bytes %d is more than the %d a recording may have"
                           % (size, MAX_RECORDING_BYTES))
    if not isinstance(digest, str) or not SHA256_HEX.match(digest):
        raise PayloadError("sha256 %r is not a hex digest" % (digest,))
    if not isinstance(closed, bool):
        raise PayloadError("closed %r is not true or false" % (closed,))
    try:
        header = recording.parse_header(obj["header"])
    except RecordingError as exc:
        raise PayloadError("header: %s" % exc.detail) from None
    if header.rig != rig:
        raise PayloadError("the header was recorded by rig %r, not %r" % (header.rig, rig))
    result = obj["replay"]
    text = obj.get("recording")
    if text is None and size <= MAX_EMBEDDED_RECORDING_BYTES and not kept:
        raise PayloadError("the match carries no recording although its %d bytes are within "
                           "the %d embedded in every match message: its replay cannot be "
                           "checked" % (size, MAX_EMBEDDED_RECORDING_BYTES))
    if text is not None:
        result = _rereferee(text, size, digest, closed, obj["header"], result)
    check_result(result, header.players)
    return MatchRecord(rig, match_id, size, digest, closed, obj["header"], result,
                       text if not kept else None)


def from_kept(obj):
    """A :class:`MatchRecord` kept by :func:`kept_json`, checked as a message is but for its
    recording (checked when it came); PayloadError otherwise."""
    check_object(obj, "a kept match")  # not words: a reason in the leaderboard's log
    rig, kind, match_id = parse_topic(obj.get("topic"))
    if kind != MATCHES:
        raise PayloadError("%s is not a match's topic" % obj.get("topic"))
    return _match(rig, match_id, obj.get("message"), kept=True)


def _rereferee(text, size, digest, closed, header, claimed):
    """The replay of the embedded recording, which must be the one the message describes."""
    if not isinstance(text, str):
        raise PayloadError("recording must be the recording's text")
    data = text.encode("utf-8", "surrogatepass")
    if len(data) != size or sha256(data) != digest:
        raise PayloadError("the recording is not the one of that size and sha256")
    try:
        head, items = recording.parse_lines(text.split("\n"))
        result = replay(head, items)
    except RecordingError as exc:
        raise PayloadError("the recording does not replay: %s" % exc) from None
    if head.to_json() != recording.parse_header(header).to_json():
        raise PayloadError("the header is not the recording's")
    if closed != any(recording.ends_match(item) for _, item in items):
        raise PayloadError("closed does not say whether the recording has its end (or "
                           "new_match) line")
    if result != claimed:
        raise PayloadError("the replay is not what the recording replays to")
    return result


def _is_count(value, top):
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= top


def _is_seconds(value):
    return (not isinstance(value, bool) and isinstance(value, (int, float))
            and 0 <= value < 1e9)


def check_result(result, players):
    """The replay output, checked for every value the standings read (a message whose
    recording is too long to be embedded carries only this)."""
    check_object(result, "replay")
    if result.get("players") != list(players):
        raise PayloadError("replay players %r are not the header's" % (result.get("players"),))
    turns, wins, attempts = result.get("turns"), result.get("round_wins"), result.get("tiebreak")
    if not isinstance(turns, list) or len(turns) > 100000:
        raise PayloadError("replay turns must be a list")
    for turn in turns:
        if (not isinstance(turn, dict) or turn.get("thief") not in players
                or turn.get("outcome") not in ("escaped", "caught", "unfinished")
                or not (turn.get("score") is None or _is_count(turn["score"], 7))):
            raise PayloadError("replay turn %r is not a turn of these players"
                               % (json.dumps(turn)[:80],))
    if not isinstance(wins, dict) or set(wins) - set(players) \
            or not all(_is_count(v, 1000) for v in wins.values()):
        raise PayloadError("replay round_wins %r is not a count per player" % (wins,))
    if attempts is not None:
        if not isinstance(attempts, list):
            raise PayloadError("replay tiebreak must be null or a list of attempts")
        for a in attempts:
            if (not isinstance(a, dict) or a.get("thief") not in players
                    or not isinstance(a.get("caught"), bool)
                    or not (a.get("adjusted_s") is None or _is_seconds(a["adjusted_s"]))):
                raise PayloadError("replay tiebreak attempt %r is not valid"
                                   % (json.dumps(a)[:80],))
    if result.get("winner") is not None and result["winner"] not in players:
        raise PayloadError("replay winner %r is not a player" % (result["winner"],))
    title = result.get("title")
    if title is not None and not (isinstance(title, str) and len(title) <= 80):
        raise PayloadError("replay title %r is not a title" % (title,))
    problem = contradiction(result, players)
    if problem is not None:
        raise PayloadError("the replay contradicts itself: %s" % problem)
    return result


def contradiction(result, players):
    """What in a replay output (its values already checked one by one, :func:`check_result`)
    disagrees with the rest of it, in words; None when its figures agree as the referee's
    always do: a caught turn scores 0 and an unfinished one nothing, only the last turn may be
    unfinished, each round's scores are its thieves' turn scores and its winners the best of
    them, each player's round wins count the rounds they won, the winner is the one player
    with two (or the tiebreak's, among those tied), and a solo heist has no rounds."""
    turns, wins = result["turns"], result["round_wins"]
    for n, turn in enumerate(turns):
        outcome, score = turn["outcome"], turn["score"]
        if (outcome == "caught" and score != 0) or (outcome == "unfinished" and score is not None) \
                or (outcome == "escaped" and score is None):
            return "turn %d is %s with score %r" % (n + 1, outcome, score)  # not words: a reason in the leaderboard's log
        if outcome == "unfinished" and n != len(turns) - 1:
            return "turn %d is unfinished but another turn follows it" % (n + 1)  # not words: a reason in the leaderboard's log
    rounds = result.get("rounds", [])
    if not isinstance(rounds, list):
        return "rounds is not a list"  # not words: a reason in the leaderboard's log
    if len(players) == 1:
        if rounds or wins or result["winner"] is not None or result["tiebreak"] is not None \
                or len(turns) > 1:
            return "a solo heist has one turn, no rounds, round wins, tiebreak or winner"  # not words: a reason in the leaderboard's log
        return None
    counted = {p: 0 for p in players}
    for r in rounds:
        if not (isinstance(r, dict) and isinstance(r.get("scores"), dict)
                and isinstance(r.get("winners"), list)):
            return "round %r is not a round" % (json.dumps(r)[:60],)  # not words: a reason in the leaderboard's log
        scores = {p: 0 for p in players}
        for turn in turns:
            if turn.get("round") == r.get("round"):
                scores[turn["thief"]] += turn["score"] or 0
        if r["scores"] != scores:
            return "round %r scores %r, but its turns %r" % (r.get("round"), r["scores"], scores)  # not words: a reason in the leaderboard's log
        best = max(scores.values())
        if sorted(r["winners"], key=str) != sorted(p for p in players if scores[p] == best):
            return "round %r is won by %r, not by its best score" % (r.get("round"),  # not words: a reason in the leaderboard's log
                                                                     r["winners"])
        for p in r["winners"]:
            counted[p] += 1
    if any(wins.get(p, 0) != counted[p] for p in players):
        return "round_wins %r are not the rounds won, %r" % (wins, counted)  # not words: a reason in the leaderboard's log
    top = max(counted.values())
    leaders = [p for p in players if counted[p] == top and top >= 2]
    winner, tiebreak = result["winner"], result["tiebreak"]
    if tiebreak is None:
        expected = leaders[0] if len(leaders) == 1 else None
        if winner != expected:
            return "the winner is %r, but the round wins make it %r" % (winner, expected)  # not words: a reason in the leaderboard's log
    else:
        if len(leaders) < 2 or any(a["thief"] not in leaders for a in tiebreak):
            return "a tiebreak is played only among players tied on two round wins or more"  # not words: a reason in the leaderboard's log
        expected = _tiebreak_winner(tiebreak, leaders)
        if expected is False:
            return "the tiebreak's attempts are not series of those still tied"  # not words: a reason in the leaderboard's log
        if winner is not None and winner != expected:      # None: not yet declared
            return "the winner is %r, but the tiebreak makes it %r" % (winner, expected)  # not words: a reason in the leaderboard's log
    return None


def _tiebreak_winner(attempts, tied):
    """Who the tiebreak's ``attempts`` make the winner (None: not yet), or False when they are
    not series of one attempt per player still tied: the fastest adjusted time of those not
    caught wins; an exact tie, or no success, plays another series among those still tied."""
    remaining, at = list(tied), 0
    while at < len(attempts):
        series = attempts[at:at + len(remaining)]
        thieves = [a["thief"] for a in series]
        if len(set(thieves)) != len(thieves) or not set(thieves) <= set(remaining):
            return False
        if len(series) < len(remaining):
            return None                          # a series under way
        at += len(series)
        times = {a["thief"]: a["adjusted_s"] for a in series
                 if not a["caught"] and a["adjusted_s"] is not None}
        if times:
            best = min(times.values())
            remaining = [p for p in remaining if times.get(p) == best]
        if len(remaining) == 1:
            return remaining[0] if at == len(attempts) else False
    return None
