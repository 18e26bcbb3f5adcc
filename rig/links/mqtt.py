"""paho-mqtt, opened the one way the tournament uses it: MQTT 5 (a PUBACK says whether the
broker took a message, so a publish the ACL refuses is known as refused), a user and password,
TLS for ``mqtts://``, paho's own network thread reconnecting with a short back-off.

paho-mqtt is imported here only, when a link opens: a rig without a tournament never needs it.
"""

import ssl

from ..files import load_ca_file

RECONNECT_S = (0.5, 5.0)     # paho's back-off between connection attempts: first, longest
KEEPALIVE_S = 10             # the broker gives a silent client up (and sends its will) after 15 s


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
