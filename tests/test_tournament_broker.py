"""The tournament against a real broker: Debian's Mosquitto with the shipped configuration
(systemd/mosquitto: no anonymous clients, a password per user, the ACL), started by the test on
127.0.0.1 on a free port and stopped after it (sim/broker.py).

Twenty rigs play while the broker restarts twice and one rig is killed mid-match; afterwards
the leaderboard's standings equal those rebuilt from every rig's recordings: nothing lost,
nothing counted twice.  A rig offline for a whole match publishes it when it is back; a
leaderboard started late gets every retained match; a rig writing under another rig's id is
refused and counted nowhere.  The counts are scaled to fit ``make test``; ``make bench --only
tournament`` runs the full size.
"""

import json
import random
import shutil
import threading
import time
from pathlib import Path

import pytest

from rig.games.cleptomano.rules import standings as sd
from rig.games.cleptomano.rules import tournament as tm
from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules import replay as rereferee
from rig.links import mqtt
from rig.links.acks import FILE as ACKS_FILE
from rig.links.feed import Feed, records_from
from sim import broker as sim_broker
from sim.tournament import LightRig, SimRig, library

pytestmark = pytest.mark.skipif(sim_broker.available() is not None,
                                reason=str(sim_broker.available()))

WAIT_S = 15.0
MATCHES = library()


@pytest.fixture
def broker(tmp_path):
    made = sim_broker.Broker(tmp_path / "broker")
    yield made.start()
    made.stop()


def wait_until(predicate, timeout_s=WAIT_S):
    """Poll a real-world condition (the broker, the network) within a bound."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def feed_of(broker):
    feed = Feed(tm.parse_broker(broker.url), password=broker.passwords["leaderboard"]).start()
    assert feed.connected.wait(WAIT_S)
    return feed


def client(broker, user, **callbacks):
    """A plain paho client of ``user`` (None: anonymous), connecting in the background."""
    return mqtt.open_client(tm.parse_broker(broker.url), "test-%s" % user, username=user,
                            password=broker.passwords.get(user), **callbacks)


def light_rig(broker, tmp_path, n, rig_id=None):
    rig_id = rig_id or "table-%d" % n
    return LightRig(rig_id, tmp_path / "rigs" / ("table-%d" % n), broker.url,
                    broker.passwords["table-%d" % n])


def agree(feed, directories):
    """A test that the feed's standings equal those of the recordings in ``directories`` as
    they are now (the rigs' statuses aside)."""
    rebuilt = sd.standings(records_from(directories))

    def test():
        mine = feed.standings()
        return (mine["players"], mine["matches"]) == (rebuilt["players"], rebuilt["matches"])
    return test


def test_twenty_rigs_through_two_broker_restarts_and_a_kill_lose_nothing(broker, tmp_path):
    rigs = [light_rig(broker, tmp_path, n).start(WAIT_S) for n in range(1, 21)]
    per_rig = 2
    feed = feed_of(broker)
    done = []
    lock = threading.Lock()

    def play(rig, n):
        rng = random.Random(n)
        for k in range(per_rig):
            kill_at = 30 if (n, k) == (7, 1) else None
            rig.play(rng.choice(MATCHES), kill_at=kill_at)
            with lock:
                done.append(rig.rig_id)

    threads = [threading.Thread(target=play, args=(rig, n), daemon=True)
               for n, rig in enumerate(rigs, 1)]
    for thread in threads:
        thread.start()
    total = per_rig * len(rigs)
    for share in (1, 2):
        assert wait_until(lambda: len(done) >= total * share // 3)
        broker.restart()
    for thread in threads:
        thread.join(WAIT_S * 2)
    assert len(done) == total and broker.starts == 3
    assert wait_until(agree(feed, [rig.dir for rig in rigs])), "the leaderboard lost matches"
    standings = feed.standings()
    assert len(standings["matches"]) == total                 # zero lost
    assert len({(m["rig"], m["match"]) for m in standings["matches"]}) == total
    assert all(m["closed"] for m in standings["matches"])
    assert [m["decided"] for m in standings["matches"] if m["rig"] == "table-7"].count(
        False) == 1                                           # the one killed mid-match
    assert sum(p["matches_played"] for p in standings["players"]) == sum(
        len(m["players"]) for m in standings["matches"] if m["decided"])   # zero twice
    assert feed.skipped == 0
    assert wait_until(lambda: {r["rig"]: r["status"] for r in feed.standings()["rigs"]} == {
        rig.rig_id: "online" for rig in rigs})              # every rig back after the restarts
    for rig in rigs:
        rig.stop()
    feed.stop()

    late = feed_of(broker)                      # started late: every retained match
    assert wait_until(lambda: late.standings()["matches"] == standings["matches"])
    assert late.standings()["players"] == standings["players"]
    assert wait_until(lambda: {r["status"] for r in late.standings()["rigs"]} == {"offline"})
    late.stop()


def test_a_rig_offline_for_a_whole_match_publishes_it_when_it_is_back(broker, tmp_path):
    rig = light_rig(broker, tmp_path, 1)
    broker.stop()
    rig.start()
    rig.play(MATCHES[0])                          # the broker down the whole match, and the
    rig.stop()                                    # rig switched off before it is back
    assert not (rig.dir / ACKS_FILE).exists()
    broker.start()
    feed = feed_of(broker)
    broker.stop()
    seen = []

    def broker_back():                          # the rig running when the broker comes back
        broker.start()
        seen.append(wait_until(lambda: len(feed.records()) == 2))

    rig.start()
    rig.play(MATCHES[1], hold=(len(MATCHES[1]), broker_back))
    rig.stop()
    assert seen == [True]                         # the first at the link's start, the second
    assert wait_until(agree(feed, [rig.dir]))  # once the broker was back
    assert all(r.closed for r in feed.records())
    acked = json.loads((rig.dir / ACKS_FILE).read_text())["brokers"]
    assert [len(v) for v in acked.values()] == [2]
    feed.stop()


def decided_at(match):
    """How many lines of ``match`` decide it (refereed as the link does, line by line), and
    whether its later lines (a haul corrected) change the result."""
    header, items = recording.parse_lines([json.dumps(obj) for obj in match])
    ref, first = rereferee.new_referee(header), None
    for n, (line, item) in enumerate(items, 1):
        rereferee.feed(ref, line, item)
        result = rereferee.result(ref.finish(item.t))
        if first is None and tm.decided(result):
            first = n, result
    return first[0], first[1] != result


def test_a_corrected_haul_republishes_and_a_restart_republishes_nothing(broker, tmp_path):
    n, match = next((decided_at(m)[0], m) for m in MATCHES if decided_at(m)[1])
    rig = light_rig(broker, tmp_path, 2).start(WAIT_S)
    feed = feed_of(broker)

    def first_version():
        assert wait_until(lambda: [(r.closed, r.decided) for r in feed.records()] == [
            (False, True)])
        seen.append(feed.records()[0])

    seen = []
    match_id = rig.play(match, hold=(n, first_version))
    rig.stop()
    assert wait_until(agree(feed, [rig.dir]))
    final = feed.records()[0]
    assert (final.match_id, final.closed) == (match_id, True) == (seen[0].match_id, True)
    assert final.result != seen[0].result                # same match id, newer content
    assert rig.link.stats["acked"] >= 2
    rig.start()                                          # a restart republishes nothing
    rig.stop()
    assert rig.link.stats["published"] == 0
    feed.stop()


def test_a_rig_writing_under_another_rigs_id_is_refused_and_counted_nowhere(
        broker, tmp_path, caplog):
    feed = feed_of(broker)
    honest = light_rig(broker, tmp_path, 1).start(WAIT_S)
    honest.play(MATCHES[0])
    honest.stop()
    impostor = light_rig(broker, tmp_path, 3, rig_id="table-1")   # table-3's password
    impostor.dir = tmp_path / "rigs" / "impostor"
    impostor.config = impostor.config.__class__(
        broker=impostor.config.broker, rig_id="table-1", username="table-3",
        password=broker.passwords["table-3"])
    impostor.start(WAIT_S)
    impostor.play(MATCHES[1])
    impostor.stop()
    assert impostor.link.stats["refused"] >= 1 and impostor.link.stats["acked"] == 0
    assert "the broker refused cleptomano/rigs/table-1/matches/" in caplog.text
    assert wait_until(agree(feed, [honest.dir]))
    time.sleep(0.2)                           # anything that got through would be here by now
    assert [r.key for r in feed.records()] == [("table-1", honest.closed_at.popitem()[0])]
    feed.stop()


def test_anonymous_clients_and_a_publishing_leaderboard_are_refused(broker):
    results = []
    anonymous = client(broker, None, on_connect=lambda c, u, f, rc, p: results.append(rc))
    assert wait_until(lambda: results)
    assert mqtt.is_failure(results[0])
    mqtt.disconnect(anonymous)
    acks = []
    feed = feed_of(broker)
    spy = client(broker, "leaderboard", on_publish=lambda c, u, mid, rc, p: acks.append(rc))
    assert wait_until(lambda: spy.is_connected())
    spy.publish(tm.status_topic("table-5"), tm.status_payload("table-5", True, "9"), qos=1)
    assert wait_until(lambda: acks) and mqtt.is_failure(acks[0])
    mqtt.disconnect(spy)
    assert feed.standings()["rigs"] == []
    feed.stop()


def test_bad_payloads_from_a_rig_are_logged_and_skipped(broker, caplog):
    feed = feed_of(broker)
    acks = []
    rig = client(broker, "table-4", on_publish=lambda c, u, mid, rc, p: acks.append(rc))
    assert wait_until(lambda: rig.is_connected())
    for topic, payload in [(tm.status_topic("table-4"), b"\xff"),
                           (tm.match_topic("table-4", "match-20261201-190000"), b"{}"),
                           (tm.live_topic("table-4"), b"[" * 5000),
                           (tm.status_topic("table-4"), tm.status_payload("table-4", True))]:
        rig.publish(topic, payload, qos=1)
    # The broker's acknowledgements say nothing of the feed's delivery: wait for what it shows.
    def shown():
        return [r["status"] for r in feed.standings()["rigs"]] == ["online"]
    assert wait_until(lambda: len(acks) == 4 and feed.skipped == 3 and shown())
    assert "Leaderboard: skipped a message: cleptomano/rigs/table-4/matches/" in caplog.text
    mqtt.disconnect(rig)
    feed.stop()


def test_a_whole_rig_killed_mid_match_resumes_and_its_live_board_is_paced(broker, tmp_path,
                                                                         monkeypatch):
    """The real daemon (build_rig's link, every thread) on the simulated table.  The pace is
    read on the link's own clock, the one that gates it: arrivals at the broker bunch up on a
    loaded machine, so they are counted, not timed."""
    from rig.links import publisher
    sent = {}                               # each link (the one killed, the resumed) -> times
    send_live = publisher.TournamentLink._send_live

    def stamped(self):
        before = self.stats["live"]
        send_live(self)
        if self.stats["live"] > before:     # the time the link decided to send, as it noted it
            sent.setdefault(id(self), []).append(self._live_due - publisher.LIVE_PERIOD_S)

    monkeypatch.setattr(publisher.TournamentLink, "_send_live", stamped)
    feed = feed_of(broker)
    lives = []
    watcher = client(broker, "leaderboard",
                     on_connect=lambda c, u, f, rc, p: c.subscribe(tm.live_topic("table-9"), 0),
                     on_message=lambda c, u, msg: lives.append(msg.topic))
    rig = SimRig("table-9", tmp_path / "t9", broker.url, broker.passwords["table-9"])
    solo = [json.loads(line) for line in (Path(__file__).parent / "recordings" /
                                          "solo_rulebook_example.jsonl").read_text().splitlines()]
    rig.play(solo, kill_at=8)
    rig.play(solo)
    assert wait_until(agree(feed, [rig.dir]))
    assert [m["decided"] for m in feed.standings()["matches"]] == [False, True]
    assert wait_until(lambda: lives), "no live snapshot reached the broker"
    assert sent
    for times in sent.values():             # at most 5 a second, on the clock that paces them
        assert all(b - a >= 1.0 / tm.LIVE_PER_S - 1e-9 for a, b in zip(times, times[1:])), times
    mqtt.disconnect(watcher)
    feed.stop()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_over_tls_a_rig_with_the_brokers_ca_publishes_and_one_without_cannot_connect(tmp_path):
    certificates = sim_broker.make_certificates(tmp_path / "tls")
    with sim_broker.Broker(tmp_path / "broker", tls=certificates) as broker:
        assert broker.url.startswith("mqtts://")
        feed = Feed(tm.parse_broker(broker.url), password=broker.passwords["leaderboard"],
                    ca_file=certificates.ca).start()
        assert feed.connected.wait(WAIT_S)
        rig = LightRig("table-1", tmp_path / "t1", broker.url, broker.passwords["table-1"],
                       ca_file=certificates.ca).start(WAIT_S)
        assert rig.link.connected
        rig.play(MATCHES[0])
        rig.stop()
        assert wait_until(agree(feed, [rig.dir]))
        stranger = LightRig("table-2", tmp_path / "t2", broker.url,
                            broker.passwords["table-2"]).start(1.0)   # the system's CAs only
        assert not stranger.link.connected
        stranger.stop()
        assert [r.rig for r in feed.records()] == ["table-1"]
        feed.stop()


def test_a_clean_stop_is_not_logged_as_a_lost_broker(broker, caplog):
    """Issue 30: the leaderboard's clean stop logged "lost the broker ... reconnecting"."""
    import logging
    caplog.set_level(logging.INFO, logger="cleptomano")
    feed = feed_of(broker)
    feed.stop()
    said = [r.getMessage() for r in caplog.records]
    assert not any("lost the broker" in line for line in said), said
    assert feed.was_connected and feed.problem is None
