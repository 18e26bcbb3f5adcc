"""One clear line, never a traceback (issue 28): every duration and timeout of the command line
and of the config is finite and within its documented bounds, a CA file is loaded and checked
at start-up, and a bad setting stops `cleptomano run` with exit status 2, which the systemd
unit does not restart on (no crash loop burying the line)."""

import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rig import cli
from rig.core.errors import ConfigError
from rig.shell.config import load_config, sections

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "cleptomano.service"
NOT_SECONDS = ["nan", "inf", "-inf", "-1", "1e308", "1e-300", "ten", ""]


def one_line(capsys):
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


# --- The command line ----------------------------------------------------------------------------

@pytest.mark.parametrize("value", NOT_SECONDS)
@pytest.mark.parametrize("command, option, low, high", [
    ("run", "--duration-s", 0, 604800),
    ("check-wiring", "--timeout-s", 1, 3600),
])
def test_a_duration_option_is_finite_seconds_within_bounds(command, option, low, high, value,
                                                           capsys):
    """`run --duration-s nan` ran forever, `check-wiring --timeout-s nan` never timed out."""
    if value == "1e-300" and low == 0:
        return                                  # 0 is allowed there: so is next to nothing
    with pytest.raises(SystemExit) as stopped:        # the options are read, nothing runs
        cli._parser().parse_args([command, "%s=%s" % (option, value), "--sim"])
    assert stopped.value.code == cli.EXIT_BAD_INPUT
    line = one_line(capsys)
    assert line.startswith("cleptomano %s: argument %s: " % (command, option)), line
    assert repr(value) in line or value in line
    assert "give seconds from %g to %g" % (low, high) in line


@pytest.mark.heavy
def test_run_for_nan_seconds_is_refused_not_run_forever(tmp_path):
    """The reproducer, as a builder types it: `cleptomano run --duration-s nan` never stopped."""
    done = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--sim", "--headless",
                           "--duration-s", "nan", "--recordings", str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == cli.EXIT_BAD_INPUT
    assert done.stderr.strip() == (
        "cleptomano run: argument --duration-s: nan is out of range; give seconds from 0 to "
        "604800, e.g. 3600 (`cleptomano run --help` lists the options)")


def test_the_shared_seconds_parser_keeps_what_is_in_bounds():
    import argparse
    seconds = cli.seconds_option(0.5, 10, 2)
    assert [seconds(v) for v in ("0.5", "10", "2.25", " 3 ")] == [0.5, 10.0, 2.25, 3.0]
    above = cli.seconds_option(0, 600, 3, low_open=True)        # e.g. a wait that must be one
    assert above("1e-3") == 0.001
    for text in ("0", "-0", "nan", "600.5"):
        with pytest.raises(argparse.ArgumentTypeError, match="give seconds above 0, at most 600"):
            above(text)


# --- The config: every declared number, and the one checked by the rules -------------------------

def declared_numbers():
    for section in sections().values():
        for key in section.keys:
            if key.kind in ("number", "whole"):
                yield section.name, key


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "-1e308"])
@pytest.mark.parametrize("section, key", list(declared_numbers()),
                         ids=lambda x: getattr(x, "name", x))
def test_every_declared_number_refuses_what_is_not_finite_and_in_range(tmp_path, section, key,
                                                                       value):
    path = tmp_path / "rig.toml"
    path.write_text("[%s]\n%s = %s\n" % (section, key.name, value), "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert caught.value.key == "%s.%s" % (section, key.name) and "\n" not in message
    assert "out of range" in message or "is not a whole number" in message, message


@pytest.mark.parametrize("value", ["1e-300", "0.5", "nan", "inf", "-inf", "1e308", "3601", "-1"])
def test_a_turns_time_limit_is_1_to_3600_seconds(tmp_path, value):
    """`timer_s = 1e-300` made a level whose every turn ended before it began."""
    path = tmp_path / "rig.toml"
    path.write_text("[match]\ntimer_s = %s\n" % value, "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == "match.timer_s"
    assert "give seconds from 1 to 3600 (30 hard, 60 normal), or \"none\"" in str(caught.value)


@pytest.mark.parametrize("value, seconds", [("1", 1.0), ("3600", 3600.0), ("\"none\"", None)])
def test_a_turns_time_limit_within_bounds_is_taken(tmp_path, value, seconds):
    path = tmp_path / "rig.toml"
    path.write_text("[match]\ntimer_s = %s\n" % value, "utf-8")
    assert load_config(path).match.level.timer_s == seconds


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e308", "1e-300", "0"])
def test_a_games_duration_is_refused_out_of_its_bounds(tmp_path, value):
    path = tmp_path / "rig.toml"
    path.write_text("[stolen_paintings]\nexhibition_s = %s\n" % value, "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == "stolen_paintings.exhibition_s" and "\n" not in str(caught.value)


# --- A bad setting under systemd: one line, exit 2, no restart -------------------------------------

def unit_settings():
    settings = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_restarts_a_crash_but_never_a_bad_setting():
    settings = unit_settings()
    assert settings["Restart"] == ["always"]                        # a crash is restarted
    prevented = " ".join(settings["RestartPreventExitStatus"]).split()
    assert str(cli.EXIT_BAD_INPUT) in prevented
    assert "1" not in prevented                                    # a traceback's status


@pytest.mark.heavy
@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
@pytest.mark.parametrize("content", [b"not a certificate\n", b"-----BEGIN CERTIFICATE-----\n"])
def test_a_ca_file_that_is_no_certificate_stops_run_with_one_line_and_exit_2(tmp_path, content):
    """The reproducer: a readable [tournament] ca_file that is no certificate made `cleptomano
    run` die with an ssl.SSLError traceback (exit 1: systemd restarted it every 5 s, and no
    game was refereed).  Run as the unit runs it: the one line, then the status it stops on."""
    (tmp_path / "ca.crt").write_bytes(content)
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nenabled = false\n[tournament]\nbroker = "mqtts://127.0.0.1:8883"'
                      '\nrig_id = "table-1"\npassword = "pw"\nca_file = "ca.crt"\n', "utf-8")
    done = subprocess.run([sys.executable, "-m", "rig.cli", "run", "--sim", "--headless",
                           "--config", str(config), "--recordings", str(tmp_path / "rec"),
                           "--duration-s", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == cli.EXIT_BAD_INPUT, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("cleptomano: %s: tournament.ca_file: %s is not a CA certificate ("
                               % (config, tmp_path / "ca.crt")), lines[0]
    assert "give the CA certificate (PEM" in lines[0]
    prevented = " ".join(unit_settings()["RestartPreventExitStatus"]).split()
    assert str(done.returncode) in prevented                        # the unit stays stopped
    assert not (tmp_path / "rec").exists()                          # refused before anything


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_systemd_analyze_reads_the_restart_settings_as_meant(tmp_path):
    stub = tmp_path / "cleptomano"
    stub.write_text("#!/bin/sh\nexit 2\n")
    stub.chmod(0o755)
    unit = tmp_path / "cleptomano.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(
        "/opt/cleptomano/venv/bin/cleptomano", str(stub)), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


# --- Fuzzed: outside text never gets past the parsers, nor raises anything else --------------------

from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.floats().map(repr),
                 st.integers(min_value=-10 ** 400, max_value=10 ** 400).map(str)))
def test_the_seconds_parser_gives_a_number_in_bounds_or_refuses_it(text):
    import argparse
    seconds = cli.seconds_option(*cli.RUN_DURATION_S, 3600)
    try:
        value = seconds(text)
    except argparse.ArgumentTypeError as exc:
        assert "give seconds from 0 to 604800" in str(exc) and "\n" not in str(exc)
        return
    assert math.isfinite(value) and 0 <= value <= 604800


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=3000))
def test_a_ca_file_of_any_bytes_is_taken_or_one_config_error(tmp_path_factory, data):
    from rig.links.mqtt import load_ca_file
    path = tmp_path_factory.mktemp("ca") / "ca.crt"
    path.write_bytes(data)
    try:
        load_ca_file(path, key="--ca-file")
    except ConfigError as exc:
        assert "not a CA certificate" in str(exc) or "holds no certificate" in str(exc)
        assert "\n" not in str(exc)
