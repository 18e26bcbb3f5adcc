"""paho-mqtt, opened the one way the tournament uses it: MQTT 5 (a PUBACK says whether the
broker took a message, so a publish the ACL refuses is known as refused), a user and password,
TLS for ``mqtts://``, paho's own network thread reconnecting with a short back-off.

paho-mqtt is imported here only, when a link opens: a rig without a tournament never needs it.
"""

import ssl

from ..core.errors import ConfigError
from ..shell import files

RECONNECT_S = (0.5, 5.0)     # paho's back-off between connection attempts: first, longest
KEEPALIVE_S = 10             # the broker gives a silent client up (and sends its will) after 15 s


#: A CA file is a few certificates: a larger file is not one.
MAX_CA_FILE_BYTES = 256 * 1024


def load_ca_file(path, key=None):
    """The TLS context that trusts the CA certificates (PEM) of the file at ``path`` and no
    other, checking the broker's name; ConfigError naming ``key``, the file and the fix when
    it cannot be read or holds no certificate.  Called at start-up (a rig's ``[tournament]
    ca_file``, the leaderboard's ``--ca-file``), so a bad file is one line, never a crash at
    the first connection."""
    fix = ("give the CA certificate (PEM, \"-----BEGIN CERTIFICATE-----\") that signed the "
           "broker's certificate: make-users.sh puts it beside each password as ca.crt")
    try:
        with files.open_regular(path) as f:
            raw = f.read(MAX_CA_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError("%s cannot be read (%s); %s" % (path, exc.strerror or exc, fix),
                          key=key) from None
    if len(raw) > MAX_CA_FILE_BYTES:
        raise ConfigError("%s is more than %d KiB, not a CA certificate; %s"
                          % (path, MAX_CA_FILE_BYTES // 1024, fix), key=key)
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        text = None
    fresh = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)       # trusts nothing until told
    fresh.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        if text is None or "-----BEGIN CERTIFICATE-----" not in text:
            raise ValueError("no PEM certificate in it")
        fresh.load_verify_locations(cadata=text)
    except (ssl.SSLError, ValueError) as exc:
        raise ConfigError("%s is not a CA certificate (%s); %s"
                          % (path, getattr(exc, "reason", None) or exc, fix), key=key) from None
    if not fresh.cert_store_stats().get("x509"):
        raise ConfigError("%s holds no certificate; %s" % (path, fix), key=key)
    return fresh


def open_client(broker, client_id, *, username=None, password=None, ca_file=None, will=None,
                on_connect=None, on_disconnect=None, on_publish=None, on_message=None):
    """A paho client for ``broker`` (:class:`rig.core.tournament.Broker`), connecting in the
    background on its own thread; ``will`` is ``(topic, payload)`` (retained, QoS 1).  The
    callbacks are paho's (version 2 signatures) and run on paho's thread."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                         protocol=mqtt.MQTTv5)
    if username is not None:
        client.username_pw_set(username, password)
    if broker.tls:
        client.tls_set_context(load_ca_file(ca_file) if ca_file is not None
                               else ssl.create_default_context(ssl.Purpose.SERVER_AUTH))
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    client.reconnect_delay_set(*RECONNECT_S)
    client.on_connect, client.on_disconnect = on_connect, on_disconnect
    client.on_publish, client.on_message = on_publish, on_message
    client.connect_async(broker.connect_host, broker.port, keepalive=KEEPALIVE_S)
    client.loop_start()
    return client


def subscribe(client, topic, no_local=False):
    """Subscribe ``client`` to ``topic`` (QoS 1); ``no_local``: not to its own messages."""
    from paho.mqtt.subscribeoptions import SubscribeOptions
    client.subscribe(topic, options=SubscribeOptions(qos=1, noLocal=no_local))


def is_failure(reason_code):
    """Whether paho's reason code (or a plain int) means the broker refused."""
    return bool(getattr(reason_code, "is_failure", reason_code))


def disconnect(client, with_will=False):
    """Leave the broker: cleanly (its status stays as last published), or as a rig that
    crashed would (MQTT 5's "disconnect with will message": the broker publishes the will)."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.reasoncodes import ReasonCode
    code = ReasonCode(PacketTypes.DISCONNECT,
                      "Disconnect with will message" if with_will else "Normal disconnection")
    client.disconnect(reasoncode=code)
    client.loop_stop()
