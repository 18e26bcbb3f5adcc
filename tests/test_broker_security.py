"""The tournament trusts no claim it can check, against the real Mosquitto with the shipped
configuration (systemd/mosquitto, paths and ports for the test's folder: sim/broker.py).

A table's login is not trusted to be honest or sane: a forged result without its recording, a
result that contradicts itself, an old version of a match published again and junk (on topics
outside the contract, too large, or without end) are each refused or bounded.  The venue's
network is hostile: the broker speaks TLS with the CA the install step makes, and plain MQTT on
the broker's own loopback only.
"""

import dataclasses
import json
import socket
import ssl
import time

import pytest

from rig.games.cleptomano.rules import recording
from rig.games.cleptomano.rules import tournament as tm
from rig.games.cleptomano.rules.replay import replay
from rig.links import mqtt
from rig.links.feed import Feed, record_of
from sim import broker as sim_broker
from sim.tournament import LightRig, forged_result, library

pytestmark = [pytest.mark.skipif(sim_broker.available() is not None,
                                 reason=str(sim_broker.available())),
              pytest.mark.heavy]       # a real broker for seconds each

WAIT_S = 15.0
MATCHES = library()
SHIPPED_CONF = sim_broker.SHIPPED / "cleptomano.conf"


def wait_until(predicate, timeout_s=WAIT_S):
    """Poll a real-world condition (the broker, the network) within a bound."""
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def broker(tmp_path):
    made = sim_broker.Broker(tmp_path / "broker")
    yield made.start()
    made.stop()


def feed_of(broker, state_file=None):
    feed = Feed(tm.parse_broker(broker.url), password=broker.passwords["leaderboard"],
                state_file=state_file).start()
    assert feed.connected.wait(WAIT_S)
    return feed


class Client:
    """A plain paho client of ``user``, as anyone holding that login could run it: each
    publish's broker answer (PUBACK reason code) is kept, and whether it was thrown out."""

    def __init__(self, broker, user, name="intruder"):
        self.acks, self.lost, self.heard = {}, [], []
        self.client = mqtt.open_client(
            tm.parse_broker(broker.url), "test-%s-%s" % (name, user), username=user,
            password=broker.passwords[user],
            on_publish=lambda c, u, mid, rc, p: self.acks.__setitem__(mid, rc),
            on_disconnect=lambda c, u, f, rc, p: self.lost.append(rc),
            on_message=lambda c, u, msg: self.heard.append((msg.topic, msg.payload)))
        assert wait_until(self.client.is_connected)

    def publish(self, topic, payload, retain=True):
        """The broker's answer: True taken, False refused, None no answer (thrown out)."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        if not wait_until(lambda: info.mid in self.acks or self.lost, 5.0):
            return None
        if info.mid not in self.acks:
            return None
        return not mqtt.is_failure(self.acks[info.mid])

    def close(self):
        mqtt.disconnect(self.client)


def one_version(tmp_path, rig, match_id, lines):
    """The message of a match version whose recording is ``lines``, as its rig would publish
    it."""
    header = dict(json.loads(lines[0]), rig=rig)
    text = "".join([json.dumps(header) + "\n"] + lines[1:])
    head, items = recording.parse_lines(text.split("\n"))
    data = text.encode("utf-8")
    record = tm.MatchRecord(rig, match_id, len(data), tm.sha256(data),
                            any(recording.ends_match(i) for _, i in items), head.to_json(),
                            replay(head, items))
    return tm.match_topic(rig, match_id), tm.match_payload(record, text), record


# --- forged and contradicting results --------------------------------------------------------

def test_a_forged_result_a_contradicting_one_and_an_impossible_size_are_refused(broker,
                                                                                 tmp_path):
    """Reproducers: "Mallory" (never at any table) reached rank 1 with 21 points from a match
    message without its recording; a self-contradicting result and ``bytes: 10**18`` were
    taken, the last freezing that match against every later real version."""
    feed = feed_of(broker)
    table = Client(broker, "table-1")
    lines = [json.dumps(o) + "\n" for o in MATCHES[0]]
    topic, payload, real = one_version(tmp_path, "table-1", "match-20261207-200000", lines)
    forged = forged_result(real.header, real.match_id, "table-1")
    big = json.loads(tm.match_payload(dataclasses.replace(
        real, size=tm.MAX_EMBEDDED_RECORDING_BYTES + 10)))
    big["replay"]["winner"] = next(p for p in big["replay"]["players"]
                                   if p != real.result["winner"])          # contradicts
    huge = dict(json.loads(payload), bytes=10 ** 18)
    huge.pop("recording")
    for bad in (forged, big, huge):
        assert table.publish(topic, tm.dumps(bad)) is True        # the broker takes it...
    assert wait_until(lambda: feed.skipped == 3)                 # ...the leaderboard does not
    assert feed.standings()["players"] == []
    assert table.publish(topic, payload) is True                 # the real one still counts
    assert wait_until(lambda: [r.sha256 for r in feed.records()] == [real.sha256])
    assert "Mallory" not in json.dumps(feed.standings())
    table.close()
    feed.stop()


# --- a replayed old version ------------------------------------------------------------------

def test_an_old_version_published_again_never_wins(broker, tmp_path):
    """Reproducer: re-publishing an old retained message downgraded the broker's copy, so a
    restarted leaderboard showed the older version.  Now the running leaderboard refuses it,
    the table's rig publishes its newest version over it, and a leaderboard restarted while
    the rig is away keeps the newest from its state file."""
    state = tmp_path / "leaderboard.json"
    feed = feed_of(broker, state)
    rig = LightRig("table-2", tmp_path / "t2", broker.url,
                   broker.passwords["table-2"]).start(WAIT_S)
    match_id = rig.play(MATCHES[1])
    newest = record_of(rig.dir / (match_id + ".jsonl"))
    assert wait_until(lambda: [r.sha256 for r in feed.records()] == [newest.sha256])
    lines = (rig.dir / (match_id + ".jsonl")).read_text(encoding="utf-8").splitlines(True)
    topic, old, _ = one_version(tmp_path, "table-2", match_id, lines[:len(lines) // 2])

    intruder = Client(broker, "table-2")
    assert intruder.publish(topic, old) is True
    assert wait_until(lambda: feed.skipped == 1)
    # The rig hears it and puts its newest version back: a fresh leaderboard sees that one.
    assert wait_until(lambda: rig.link.stats["acked"] >= 2)
    fresh = feed_of(broker)
    assert wait_until(lambda: [r.sha256 for r in fresh.records()] == [newest.sha256])
    fresh.stop()

    rig.stop()                                     # the table goes home; the old one again
    assert intruder.publish(topic, old) is True
    feed.stop()
    restarted = feed_of(broker, state)             # the leaderboard restarted meanwhile
    assert wait_until(lambda: restarted.skipped >= 1)
    assert [r.sha256 for r in restarted.records()] == [newest.sha256]
    intruder.close()
    restarted.stop()


# --- junk ---------------------------------------------------------------------------------------

def test_a_table_writes_only_its_own_three_kinds_of_topic(broker):
    table = Client(broker, "table-3")
    for topic in ("cleptomano/rigs/table-3/junk/1", "cleptomano/rigs/table-3/status/x",
                  "cleptomano/rigs/table-3/matches/a/b", "cleptomano/rigs/table-3",
                  "cleptomano/rigs/table-4/status", "cleptomano/other", "junk"):
        assert table.publish(topic, b"x" * 1000) is False, topic
    for topic in (tm.status_topic("table-3"), tm.live_topic("table-3"),
                  tm.match_topic("table-3", "match-20261207-200000")):
        assert table.publish(topic, b"{}") is True, topic
    # It reads its own matches back (to mend them), and nothing of another table's.
    mqtt.subscribe(table.client, "cleptomano/rigs/+/matches/+")
    mqtt.subscribe(table.client, "cleptomano/rigs/#")
    other = Client(broker, "table-4", name="honest")
    assert other.publish(tm.match_topic("table-4", "match-20261207-200000"), b"{}") is True
    assert other.publish(tm.status_topic("table-4"), b"{}") is True
    time.sleep(0.5)                 # anything delivered would be here by now (a bounded look)
    assert {t for t, _ in table.heard} <= {tm.match_topic("table-3", "match-20261207-200000")}
    other.close()
    table.close()


def test_an_oversized_message_goes_nowhere(broker):
    """A message over the shipped max_packet_size (a match's 2 MiB and its topic) throws its
    sender out and is retained nowhere."""
    watcher = Client(broker, "leaderboard", name="watcher")
    mqtt.subscribe(watcher.client, "cleptomano/rigs/#")
    table = Client(broker, "table-5")
    topic = tm.match_topic("table-5", "match-20261207-200000")
    assert table.publish(topic, b"x" * (tm.MAX_MATCH_BYTES + 64 * 1024)) is None
    assert wait_until(lambda: table.lost)
    time.sleep(0.5)
    assert watcher.heard == []
    table.close()
    watcher.close()


def test_retained_junk_is_bounded_by_the_brokers_memory(tmp_path):
    """Reproducer: a table's login retained 20 MiB of junk in 1.5 s, without end.  The shipped
    memory_limit bounds what the broker holds (here scaled down to 48 MiB for the test: the
    shipped 512 MiB works the same way); past it each publish is refused and its sender thrown
    out, and an honest table still gets its match through once the junk is gone."""
    limit = 48 * 2 ** 20
    assert "memory_limit 536870912" in SHIPPED_CONF.read_text()
    with sim_broker.Broker(tmp_path / "broker", memory_limit=limit) as broker:
        junk = b"j" * 2 ** 20
        taken = refused = 0
        table = Client(broker, "table-6")
        for n in range(200):
            if not table.client.is_connected():
                refused += 1
                if refused > 3:
                    break
                table.close()
                table = Client(broker, "table-6")
                continue
            answer = table.publish(tm.match_topic("table-6", "match-20261207-%06d" % n), junk)
            taken += answer is True
            if answer is not True:
                refused += 1
                if refused > 3:
                    break
        table.close()
        assert refused > 3, "the broker took 200 MiB of retained junk"
        assert taken * len(junk) <= limit


# --- the network: TLS, and plain on loopback only ---------------------------------------------

def test_the_shipped_broker_speaks_plain_mqtt_on_loopback_only():
    """Reproducer: the shipped configuration was plain MQTT on every interface, so a table's
    password crossed the venue's network in clear."""
    listeners = [line.split() for line in SHIPPED_CONF.read_text().splitlines()
                 if line.startswith("listener")]
    assert ["listener", "1883", "127.0.0.1"] in listeners
    assert ["listener", "8883"] in listeners and len(listeners) == 2
    after = SHIPPED_CONF.read_text().split("listener 8883", 1)[1]
    for key in ("cafile", "certfile", "keyfile"):
        assert "\n%s /etc/mosquitto/certs/" % key in after


def test_make_users_hands_every_table_the_ca(tmp_path):
    certificates = sim_broker.make_certificates(tmp_path / "certs")
    users = sim_broker.make_users(sim_broker.SHIPPED / "cleptomano.acl", tmp_path / "users",
                                  ca=certificates.ca)
    assert (users.files / "ca.crt").read_bytes() == certificates.ca.read_bytes()
    assert {"leaderboard", "table-1", "table-20"} <= set(users.passwords)
    mqtt.load_ca_file(users.files / "ca.crt")       # what a rig's ca_file then loads


def test_tls_with_the_made_ca_works_and_plain_mqtt_from_another_host_is_refused(tmp_path):
    certificates = sim_broker.make_certificates(tmp_path / "certs")      # the shipped script
    assert certificates.ca.read_text().startswith("-----BEGIN CERTIFICATE-----")
    with sim_broker.Broker(tmp_path / "broker", tls=certificates) as broker:
        assert broker.url.startswith("mqtts://")
        feed = Feed(tm.parse_broker(broker.url), password=broker.passwords["leaderboard"],
                    ca_file=certificates.ca).start()
        assert feed.connected.wait(WAIT_S)
        rig = LightRig("table-7", tmp_path / "t7", broker.url, broker.passwords["table-7"],
                       ca_file=certificates.ca).start(WAIT_S)
        assert rig.link.connected
        rig.play(MATCHES[2])
        rig.stop()
        assert wait_until(lambda: [r.rig for r in feed.records()] == ["table-7"])
        feed.stop()
        # The TLS port speaks TLS only, and its certificate is the made CA's.
        context = mqtt.load_ca_file(certificates.ca)
        with socket.create_connection(("127.0.0.1", broker.tls_port), timeout=5) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                assert tls.version() in ("TLSv1.2", "TLSv1.3")
        with pytest.raises(ssl.SSLError):
            with socket.create_connection(("127.0.0.1", broker.tls_port), timeout=5) as raw:
                ssl.create_default_context().wrap_socket(raw, server_hostname="127.0.0.1")
        # Plain MQTT answers on the broker's own loopback address, and nowhere else: another
        # address of this host (127.0.0.2, as another machine would reach it) is refused.
        socket.create_connection(("127.0.0.1", broker.port), timeout=5).close()
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.2", broker.port), timeout=5).close()
        plain = []
        client = mqtt.open_client(tm.parse_broker("mqtt://127.0.0.2:%d" % broker.port),
                                  "test-plain", username="table-8",
                                  password=broker.passwords["table-8"],
                                  on_connect=lambda c, u, f, rc, p: plain.append(rc))
        time.sleep(1.0)                   # a bounded look: it never gets in
        assert plain == [] and not client.is_connected()
        client.loop_stop()
