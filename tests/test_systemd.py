"""sd_notify, the watchdog and the service unit, checked the way systemd would see them.

The notifier is exercised over real AF_UNIX datagram sockets (a file in tmp_path and an abstract
name), so a message that systemd would not parse shows up here. The watchdog runs on an injected
wait, so nothing sleeps. The unit is checked by systemd-analyze where it is installed.
"""

import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from rig.shell.systemd import Notifier, Watchdog, watchdog_interval_s
from sim.sdnotify import Listener

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "cleptomano.service"
TIMEOUT_S = 2.0


# --- A stand-in for systemd's notification socket ---------------------------------------------

@pytest.fixture
def socket_path(tmp_path):
    # AF_UNIX paths are limited to 108 bytes; deep pytest temp dirs can exceed that.
    path = tmp_path / "notify.sock"
    if len(os.fsencode(path)) < 100:
        yield str(path)
        return
    short = tempfile.mkdtemp(prefix="sd")
    try:
        yield os.path.join(short, "notify.sock")
    finally:
        shutil.rmtree(short, ignore_errors=True)


@pytest.fixture
def systemd(socket_path):
    listener = Listener(socket_path)
    yield listener
    listener.sock.close()


def notifier_for(address):
    return Notifier(environ={"NOTIFY_SOCKET": address})


# --- Notifier ----------------------------------------------------------------------------------

def test_ready_status_and_watchdog_reach_systemd_over_a_socket_file(systemd, socket_path):
    with notifier_for(socket_path) as notifier:
        assert notifier.enabled
        assert notifier.ready()
        assert systemd.recv() == ["READY=1"]
        assert notifier.status("waiting for player 2")
        assert systemd.recv() == ["STATUS=waiting for player 2"]
        assert notifier.watchdog_ping()
        assert systemd.recv() == ["WATCHDOG=1"]
        assert notifier.stopping()
        assert systemd.recv() == ["STOPPING=1"]


def test_ready_can_carry_a_status_in_the_same_message(systemd, socket_path):
    notifier_for(socket_path).ready(status="round 1, player 1")
    assert systemd.recv() == ["READY=1", "STATUS=round 1, player 1"]


def test_a_multi_line_status_stays_one_field(systemd, socket_path):
    notifier_for(socket_path).status("hub lost\nretrying")
    assert systemd.recv() == ["STATUS=hub lost retrying"]


def test_reloading_carries_the_monotonic_timestamp_newer_systemd_requires(systemd, socket_path):
    notifier_for(socket_path).reloading()
    fields = systemd.recv()
    assert fields[0] == "RELOADING=1"
    assert re.fullmatch(r"MONOTONIC_USEC=\d+", fields[1])


def test_abstract_namespace_socket():
    name = "cleptomano-test-%s" % uuid.uuid4().hex
    listener = Listener("\0" + name)
    try:
        assert notifier_for("@" + name).ready()
        assert listener.recv() == ["READY=1"]
    finally:
        listener.sock.close()


def test_without_notify_socket_every_call_is_a_silent_no_op(caplog):
    notifier = Notifier(environ={})
    assert not notifier.enabled
    with caplog.at_level(logging.DEBUG, logger="rig.shell.systemd"):
        assert notifier.ready() is False
        assert notifier.status("x") is False
        assert notifier.watchdog_ping() is False
        assert notifier.stopping() is False
        assert notifier.reloading() is False
    assert caplog.records == []
    assert notifier.watchdog_interval_s() is None


def test_an_unreachable_socket_never_raises_and_is_logged_once(tmp_path, caplog):
    notifier = notifier_for(str(tmp_path / "nobody-listens.sock"))
    with caplog.at_level(logging.WARNING, logger="rig.shell.systemd"):
        for _ in range(3):
            assert notifier.watchdog_ping() is False
        assert notifier.ready() is False
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "NOTIFY_SOCKET" in warnings[0].getMessage()


@pytest.mark.parametrize("value", ["vsock:2:1234", "relative/notify", "@", "/"])
def test_an_unsupported_notify_socket_disables_notifications_with_a_warning(value, caplog):
    with caplog.at_level(logging.WARNING, logger="rig.shell.systemd"):
        notifier = notifier_for(value)
        assert notifier.ready() is False
    assert not notifier.enabled
    assert value in caplog.text


def test_close_turns_later_calls_into_no_ops(systemd, socket_path):
    notifier = notifier_for(socket_path)
    notifier.close()
    assert notifier.ready() is False
    assert systemd.pending() == []


def test_unset_environment_keeps_children_from_inheriting_the_socket(monkeypatch, systemd,
                                                                     socket_path):
    monkeypatch.setenv("NOTIFY_SOCKET", socket_path)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier(unset_environment=True)
    assert "NOTIFY_SOCKET" not in os.environ
    assert "WATCHDOG_USEC" not in os.environ
    assert notifier.watchdog_interval_s() == 10.0  # read before the variables were removed
    assert notifier.ready()
    assert systemd.recv() == ["READY=1"]


# --- watchdog_interval_s -----------------------------------------------------------------------

PID = 4242


@pytest.mark.parametrize("environ, expected", [
    ({}, None),
    ({"WATCHDOG_USEC": "10000000"}, 10.0),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(PID)}, 10.0),
    ({"WATCHDOG_USEC": "2500000", "WATCHDOG_PID": str(PID)}, 2.5),
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": str(PID + 1)}, None),  # another process's
    ({"WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "main"}, None),
    ({"WATCHDOG_USEC": "ten seconds"}, None),
    ({"WATCHDOG_USEC": "0"}, None),
    ({"WATCHDOG_USEC": "-5"}, None),
    ({"WATCHDOG_PID": str(PID)}, None),
])
def test_watchdog_interval_parsing(environ, expected):
    assert watchdog_interval_s(environ, pid=PID) == expected


def test_watchdog_pid_defaults_to_this_process():
    environ = {"WATCHDOG_USEC": "4000000", "WATCHDOG_PID": str(os.getpid())}
    assert watchdog_interval_s(environ) == 4.0
    assert Notifier(environ=environ).watchdog_interval_s() == 4.0


# --- Watchdog ----------------------------------------------------------------------------------

class Flag:
    """A liveness check the test switches on and off."""

    def __init__(self, alive=True):
        self.alive = alive

    def __call__(self):
        return self.alive


def test_pings_only_while_every_check_passes(systemd, socket_path):
    loop, inputs = Flag(), Flag()
    watchdog = Watchdog(notifier_for(socket_path), interval_s=10)
    watchdog.add_check("referee loop alive", loop)
    watchdog.add_check("input threads alive", inputs)

    assert watchdog.tick() is True
    inputs.alive = False
    assert watchdog.tick() is False
    assert watchdog.failing_checks() == ["input threads alive"]
    loop.alive = False
    assert watchdog.tick() is False
    assert watchdog.failing_checks() == ["referee loop alive", "input threads alive"]
    loop.alive = inputs.alive = True
    assert watchdog.tick() is True

    assert systemd.pending() == [["WATCHDOG=1"], ["WATCHDOG=1"]]


def test_a_check_that_raises_counts_as_failing(systemd, socket_path, caplog):
    def broken():
        raise RuntimeError("sensor thread gone")

    watchdog = Watchdog(notifier_for(socket_path), interval_s=10)
    watchdog.add_check("sensor alive", broken)
    with caplog.at_level(logging.WARNING, logger="rig.shell.systemd"):
        assert watchdog.tick() is False
    assert "sensor alive" in caplog.text
    assert systemd.pending() == []


def test_a_failing_check_is_logged_when_it_starts_failing_not_every_round(caplog):
    check = Flag(alive=False)
    watchdog = Watchdog(Notifier(environ={}), interval_s=10)
    watchdog.add_check("referee loop alive", check)
    with caplog.at_level(logging.INFO, logger="rig.shell.systemd"):
        for _ in range(5):
            watchdog.tick()
        check.alive = True
        watchdog.tick()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "referee loop alive" in messages[0]
    assert "pass again" in messages[1]


def test_the_thread_pings_at_half_the_interval_and_stops(systemd, socket_path):
    waits = []
    done = threading.Event()

    def fake_wait(timeout_s):
        waits.append(timeout_s)
        if len(waits) == 3:
            done.set()
            return True  # "stop requested"
        return False

    environ = {"NOTIFY_SOCKET": socket_path, "WATCHDOG_USEC": "10000000"}
    watchdog = Watchdog(Notifier(environ=environ), wait=fake_wait)
    assert watchdog.ping_interval_s == 5.0
    assert watchdog.start() is True
    assert done.wait(TIMEOUT_S)
    assert watchdog.stop(timeout_s=TIMEOUT_S) is True
    assert waits == [5.0, 5.0, 5.0]
    assert [systemd.recv() for _ in range(3)] == [["WATCHDOG=1"]] * 3


def test_the_thread_withholds_pings_while_a_check_fails(systemd, socket_path):
    check = Flag(alive=False)
    rounds = []
    done = threading.Event()

    def fake_wait(timeout_s):
        rounds.append(timeout_s)
        check.alive = len(rounds) >= 2  # dead for two rounds, then alive for one
        if len(rounds) == 3:
            done.set()
            return True
        return False

    watchdog = Watchdog(notifier_for(socket_path), interval_s=1.0, wait=fake_wait)
    watchdog.add_check("referee loop alive", check)
    watchdog.start()
    assert done.wait(TIMEOUT_S)
    assert watchdog.stop(timeout_s=TIMEOUT_S) is True
    assert systemd.recv() == ["WATCHDOG=1"]
    assert systemd.pending() == []


def test_stop_is_bounded_even_if_a_round_hangs():
    release = threading.Event()
    entered = threading.Event()

    def stuck_check():
        entered.set()
        release.wait(TIMEOUT_S)
        return True

    watchdog = Watchdog(Notifier(environ={}), interval_s=1.0, wait=lambda timeout_s: True)
    watchdog.add_check("stuck", stuck_check)
    watchdog.start()
    assert entered.wait(TIMEOUT_S)
    assert watchdog.stop(timeout_s=0.01) is False
    release.set()


def test_without_a_watchdog_start_runs_nothing():
    watchdog = Watchdog(Notifier(environ={}))
    assert watchdog.ping_interval_s is None
    assert watchdog.start() is False
    assert watchdog.stop() is True


def test_watchdog_rejects_bad_setup_with_clear_errors():
    notifier = Notifier(environ={})
    with pytest.raises(ValueError, match="interval_s=0"):
        Watchdog(notifier, interval_s=0)
    watchdog = Watchdog(notifier, interval_s=10)
    watchdog.add_check("referee loop alive", Flag())
    with pytest.raises(ValueError, match="already registered"):
        watchdog.add_check("referee loop alive", Flag())
    with pytest.raises(TypeError, match="not callable"):
        watchdog.add_check("inputs", True)
    watchdog.remove_check("referee loop alive")
    assert watchdog.failing_checks() == []


# --- The unit file -----------------------------------------------------------------------------

def unit_settings():
    """Every Key=value of the unit, values of repeated keys collected in order."""
    settings = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key, []).append(value)
    return settings


def test_unit_runs_the_daemon_as_a_watched_notify_service():
    settings = unit_settings()
    assert settings["ExecStart"] == [
        "/opt/cleptomano/venv/bin/cleptomano run --config /etc/cleptomano/rig.toml"]
    assert settings["Type"] == ["notify"]
    assert settings["NotifyAccess"] == ["main"]
    assert settings["WatchdogSec"] == ["10"]
    assert settings["Restart"] == ["always"]
    assert settings["User"] == ["cleptomano"]
    assert "SDL_VIDEODRIVER=kmsdrm" in settings["Environment"]
    assert "PYTHONUNBUFFERED=1" in settings["Environment"]
    # sd_notify is an AF_UNIX datagram; a unit without it would never become ready.
    assert "AF_UNIX" in settings["RestrictAddressFamilies"][0].split()
    assert settings["DevicePolicy"] == ["closed"]


def test_devices_whose_driver_loads_late_are_allowed_by_major_number():
    # systemd resolves a class name (char-ttyACM) through /proc/devices once, at unit start: a
    # relic hub whose driver (cdc_acm) loads when it is first plugged in would be refused.
    allowed = dict(entry.split() for entry in unit_settings()["DeviceAllow"])
    assert allowed["char-166"] == "rw"   # ttyACM, the relic hub
    assert allowed["char-89"] == "rw"    # i2c-dev, the hand sensor
    named = [spec for spec in allowed if not spec.split("-", 1)[1].isdigit()]
    assert named == ["char-gpiochip"]    # the one class without a fixed major (gpiolib: built in)


def test_the_network_is_the_phones_at_the_table_and_nobody_else():
    from ipaddress import ip_network
    from rig.core.addresses import LOCAL_NETWORKS
    settings = unit_settings()
    assert settings["PrivateNetwork"] == ["no"]        # the web server listens on the host's
    assert settings["IPAddressDeny"] == ["any"]
    allowed = [ip_network(n) for line in settings["IPAddressAllow"] for n in line.split()]
    assert sorted(allowed, key=str) == sorted(LOCAL_NETWORKS, key=str)   # as the config allows
    families = settings["RestrictAddressFamilies"][0].split()
    assert set(families) == {"AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"}


def fake_executable(directory):
    stub = directory / "cleptomano"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    return stub


needs_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (Debian package 'systemd'); the unit is not verified")


@needs_analyze
def test_systemd_analyze_verify_accepts_the_unit(tmp_path):
    # verify insists the ExecStart binary exists; point it at a stub (the rest is unchanged).
    stub = fake_executable(tmp_path)
    unit = tmp_path / "cleptomano.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(
        "/opt/cleptomano/venv/bin/cleptomano", str(stub)), encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", "systemd-analyze warns:\n" + result.stderr


@needs_analyze
def test_systemd_analyze_security_rates_the_unit_safe():
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager",
                             str(UNIT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    match = re.search(r"Overall exposure level for cleptomano\.service: (\d+\.\d+)",
                      result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= 2.5, result.stdout
