"""The phone companion's real server: uvicorn in its thread on 127.0.0.1, spoken to by a real
HTTP client and a real WebSocket client, started and stopped within bounds; the addresses it
listens on and those it refuses.  Traffic goes to the loopback only."""

import http.client
import ipaddress
import json
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from rig.core.errors import HardwareError
from rig.shell.config import WebConfig
from rig.web.face import WebFace
from rig.web.pairing import Pairing
from rig.web.server import WebServer, local_addresses
from sim.harness import Harness, wait_until

LOOPBACK = ipaddress.ip_address("127.0.0.1")


@pytest.fixture
def served(tmp_path):
    face = WebFace(WebConfig(bind=("127.0.0.1",), port=0), tmp_path, static_dir=tmp_path,
                   pairing=Pairing())
    table = Harness(recordings_dir=tmp_path, display=face, phones=face.pairing)
    table.start()
    face.start(table.rig, timeout_s=30.0)
    try:
        yield table, face, face.server.bound[0][1]
    finally:
        face.stop(10.0)
        table.stop()


def request(port, method, path, body=None, cookie=None, host="127.0.0.1"):
    conn = http.client.HTTPConnection(host, port, timeout=5)
    headers = {"Origin": "http://%s:%d" % (host, port)}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if cookie:
        headers["Cookie"] = cookie
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers=headers)
    response = conn.getresponse()
    out = response.status, json.loads(response.read() or b"null"), response.getheader(
        "set-cookie")
    conn.close()
    return out


def test_the_real_server_serves_pairs_commands_and_pushes(served):
    table, face, port = served
    assert face.pairing.url == "http://127.0.0.1:%d/" % port
    status, state, _ = request(port, "GET", "/api/state")
    assert status == 200 and state["players"] == ["Ana", "Ben", "Caro"]
    with connect("ws://127.0.0.1:%d/api/live" % port, open_timeout=5,
                 origin="http://127.0.0.1:%d" % port) as ws:
        first = json.loads(ws.recv(timeout=5))
        assert first["type"] == "state" and first["state"]["next_thief"] == "Ana"
        status, body, cookie = request(port, "POST", "/api/pair",
                                       {"code": face.pairing.view().code, "name": "Ben"})
        assert status == 200 and "HttpOnly" in cookie
        session = cookie.split(";")[0]
        status, state, _ = request(port, "POST", "/api/command",
                                   {"choose": "thief", "player": "Caro"}, session)
        assert status == 200 and state["next_thief"] == "Caro"
        table.advance(0.2)           # the referee shows the snapshot: pushed to the phone
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=5))
            if message["type"] == "state" and message["state"]["next_thief"] == "Caro":
                break
        else:
            pytest.fail("the change was never pushed")
        status, body, _ = request(port, "POST", "/api/command", {"undo": "touch"})
        assert status == 401
    assert table.recorded()[-1]["by"] == "Ben"


def test_a_websocket_message_over_the_limit_closes_that_socket_only(served):
    table, face, port = served
    origin = "http://127.0.0.1:%d" % port
    with connect("ws://127.0.0.1:%d/api/live" % port, origin=origin) as ws:
        ws.recv(timeout=5)
        ws.send("x" * 10000)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):
                ws.recv(timeout=5)
        assert closed.value.rcvd.code == 1009        # message too big
    assert request(port, "GET", "/api/state")[0] == 200


def test_stopping_is_bounded_and_closes_the_phones_sockets(tmp_path):
    face = WebFace(WebConfig(bind=("127.0.0.1",), port=0), tmp_path, static_dir=tmp_path)
    table = Harness(recordings_dir=tmp_path, display=face, phones=face.pairing)
    table.start()
    try:
        face.start(table.rig)
        port = face.server.bound[0][1]
        with connect("ws://127.0.0.1:%d/api/live" % port,
                     origin="http://127.0.0.1:%d" % port) as ws:
            ws.recv(timeout=5)
            assert face.stop(10.0)          # True: stopped within its bound
            assert not face.server._thread.is_alive()
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(10):
                    ws.recv(timeout=2)
            assert closed.value.rcvd.code == 1001            # going away
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        table.stop()


def test_an_address_this_machine_does_not_have_is_one_clear_error(tmp_path):
    server = WebServer(None, ("192.168.254.254",), 0, addresses=lambda: set())
    with pytest.raises(HardwareError, match="192.168.254.254.*check \\[web\\] bind"):
        server.start(5.0)
    assert not server._thread.is_alive()


def test_local_follows_the_addresses_as_they_come_and_go(tmp_path):
    """A Pi whose Wi-Fi comes up after the rig started: served on it at the next look."""
    have = {(LOOPBACK, 0)}
    face = WebFace(WebConfig(port=0), tmp_path, static_dir=tmp_path, addresses=lambda: set(have),
                   rescan_s=0.05)
    table = Harness(recordings_dir=tmp_path, display=face, phones=face.pairing)
    table.start()
    try:
        face.start(table.rig)
        assert [a for a, _ in face.server.bound] == [LOOPBACK]
        have.add((ipaddress.ip_address("127.0.0.2"), 0))
        assert wait_until(lambda: len(face.server.bound) == 2)
        port = dict(face.server.bound)[ipaddress.ip_address("127.0.0.2")]
        assert request(port, "GET", "/api/state", host="127.0.0.2")[0] == 200
        have.discard((LOOPBACK, 0))
        assert wait_until(lambda: [a for a, _ in face.server.bound]
                          == [ipaddress.ip_address("127.0.0.2")])
        # The QR code follows: the address that is left is the one to open.
        assert wait_until(lambda: face.pairing.url == "http://127.0.0.2:%d/" % port)
    finally:
        face.stop(3.0)
        table.stop()


def test_this_machines_local_addresses_are_never_public():
    found = local_addresses()
    assert (LOOPBACK, 0) in found
    for address, _ in found:
        assert address.is_private or address.is_link_local or address.is_loopback
        assert not address.is_unspecified
