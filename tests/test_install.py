"""The one-command installer, run into a scratch root the way CI can run it.

``install.sh --root DIR`` writes every file under DIR and records, instead of running, each
command that would change the live system (apt-get, useradd, pip, udevadm, systemctl) in
DIR/install.log. These tests read what a Pi would end up with: the unit, the udev rules, the
config, and the commands in order.
"""

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
GROUPS = "gpio,i2c,dialout,video,render,input,audio"


@pytest.fixture
def repo(tmp_path):
    """A copy of the parts of the clone the installer reads.

    The default config (wiring/rig.example.toml) comes from the real clone; a placeholder stands
    in, in this copy only, while that file does not exist yet.
    """
    copy = tmp_path / "clone"
    shutil.copytree(REPO / "systemd", copy / "systemd",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "pyproject.toml", copy / "pyproject.toml")
    wiring = copy / "wiring"
    wiring.mkdir()
    for toml in (REPO / "wiring").glob("*.toml"):
        shutil.copy2(toml, wiring / toml.name)
    example = wiring / "rig.example.toml"
    if not example.exists():
        example.write_text("# placeholder default config for the installer tests\n")
    # Any *.rules file in systemd/ is installed, whoever wrote it.
    (copy / "systemd" / "50-cleptomano-test.rules").write_text(
        'SUBSYSTEM=="input", TAG+="cleptomano-test"\n')
    return copy


def install(repo, *args):
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET",)}
    return subprocess.run(["bash", str(repo / "systemd" / "install.sh"), *map(str, args)],
                          capture_output=True, text=True, timeout=60, env=env)


def recorded(root):
    return [line for line in (root / "install.log").read_text().splitlines()
            if not line.startswith("#")]


def tree(root):
    """Every file under root with a digest of its content."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_installs_unit_rules_and_config_under_root(repo, tmp_path):
    root = tmp_path / "root"
    result = install(repo, "--root", root)
    assert result.returncode == 0, result.stdout + result.stderr

    unit = root / "etc/systemd/system/cleptomano.service"
    assert unit.read_bytes() == (repo / "systemd/cleptomano.service").read_bytes()
    for rules in repo.glob("systemd/*.rules"):
        assert (root / "etc/udev/rules.d" / rules.name).read_bytes() == rules.read_bytes()
    example = (repo / "wiring/rig.example.toml").read_text()
    assert (root / "etc/cleptomano/rig.example.toml").read_text() == example
    # rig.toml is the example, with recordings kept where the unit lets the service write.
    assert (root / "etc/cleptomano/rig.toml").read_text() == re.sub(
        r"(?m)^recordings_dir\s*=.*$",
        'recordings_dir = "/var/lib/cleptomano"  # the service\'s StateDirectory', example)
    for toml in repo.glob("wiring/*.toml"):
        if toml.name != "rig.example.toml":  # the pin map and other shipped files
            assert (root / "etc/cleptomano" / toml.name).read_bytes() == toml.read_bytes()
    # pip builds from a copy, never from the clone itself
    assert (root / "opt/cleptomano/src/pyproject.toml").exists()
    assert oct(unit.stat().st_mode & 0o777) == "0o644"
    # Where the phones go: on the rig itself the installer runs `cleptomano phones`.
    assert "/opt/cleptomano/venv/bin/cleptomano phones --config /etc/cleptomano/rig.toml" \
        in result.stdout


def test_records_the_live_system_commands_in_order(repo, tmp_path):
    root = tmp_path / "root"
    assert install(repo, "--root", root).returncode == 0
    commands = recorded(root)
    useradd = next(c for c in commands if c.startswith("useradd "))
    assert "--system" in useradd and useradd.endswith(" cleptomano")
    assert "--groups " + GROUPS in useradd
    assert "--shell /usr/sbin/nologin" in useradd
    apt = next(c for c in commands if " apt-get install " in c)
    assert "python3-venv" in apt
    assert "raspi-config nonint do_i2c 0" in commands
    assert "python3 -m venv /opt/cleptomano/venv" in commands
    pip = next(c for c in commands if " -m pip install " in c)
    assert pip.endswith("/opt/cleptomano/src")
    order = [commands.index(c) for c in (
        "apt-get update", useradd, pip, "udevadm control --reload-rules",
        "systemctl daemon-reload", "systemctl enable cleptomano.service",
        "systemctl restart cleptomano.service")]
    assert order == sorted(order)


def test_running_twice_changes_nothing(repo, tmp_path):
    root = tmp_path / "root"
    assert install(repo, "--root", root).returncode == 0
    first = tree(root)
    second_run = install(repo, "--root", root)
    assert second_run.returncode == 0, second_run.stderr
    assert tree(root) == first
    assert "kept your" in second_run.stdout
    assert "unchanged:" in second_run.stdout


def test_an_existing_config_is_kept(repo, tmp_path):
    root = tmp_path / "root"
    mine = root / "etc/cleptomano/rig.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text("# my tuned rig\n")
    result = install(repo, "--root", root)
    assert result.returncode == 0, result.stderr
    assert mine.read_text() == "# my tuned rig\n"
    assert (root / "etc/cleptomano/rig.example.toml").read_bytes() == \
        (repo / "wiring/rig.example.toml").read_bytes()


def test_an_existing_user_gets_its_groups_instead_of_being_created(repo, tmp_path):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc/passwd").write_text(
        "cleptomano:x:998:998:Cleptomano referee:/var/lib/cleptomano:/usr/sbin/nologin\n")
    assert install(repo, "--root", root).returncode == 0
    commands = recorded(root)
    assert not any(c.startswith("useradd ") for c in commands)
    assert "usermod --append --groups %s cleptomano" % GROUPS in commands


def test_no_start_enables_without_starting(repo, tmp_path):
    root = tmp_path / "root"
    result = install(repo, "--root", root, "--no-start")
    assert result.returncode == 0, result.stderr
    commands = recorded(root)
    assert "systemctl enable cleptomano.service" in commands
    assert not any("restart" in c or "start cleptomano" in c for c in commands)


def test_dry_run_writes_nothing(repo, tmp_path):
    root = tmp_path / "root"
    result = install(repo, "--root", root, "--dry-run")
    assert result.returncode == 0, result.stderr
    assert not root.exists()
    assert "would run: systemctl restart cleptomano.service" in result.stdout
    assert "would write" in result.stdout


def test_a_missing_default_config_stops_the_install_with_the_fix(repo, tmp_path):
    (repo / "wiring/rig.example.toml").unlink()
    root = tmp_path / "root"
    result = install(repo, "--root", root)
    assert result.returncode == 1
    assert "wiring/rig.example.toml is missing" in result.stderr
    assert "git pull" in result.stderr
    assert not root.exists()


def test_an_unknown_option_is_refused(repo):
    result = install(repo, "--frobnicate")
    assert result.returncode == 1
    assert "unknown option '--frobnicate'" in result.stderr
    assert "--root DIR" in result.stderr  # the usage is shown


def test_root_needs_a_directory(repo):
    result = install(repo, "--root")
    assert result.returncode == 1
    assert "--root needs a directory" in result.stderr


def test_live_install_refuses_where_it_cannot_work(repo):
    # Only where it is sure to stop before touching anything: not root, or no systemd running.
    if os.geteuid() == 0 and os.path.isdir("/run/systemd/system"):
        pytest.skip("this machine could really be installed on; not running the live path")
    result = install(repo)
    assert result.returncode == 1
    assert "needs root" in result.stderr or "systemd is not running" in result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (Debian package 'shellcheck')")
def test_installer_is_shellcheck_clean():
    result = subprocess.run(["shellcheck", str(REPO / "systemd/install.sh")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout


def test_the_installed_config_keeps_recordings_in_the_state_directory(repo, tmp_path):
    (repo / "wiring/rig.example.toml").write_text(
        '[storage]\nrecordings_dir = "~/.local/state/cleptomano"  # under systemd...\n')
    root = tmp_path / "root"
    assert install(repo, "--root", root).returncode == 0
    installed = (root / "etc/cleptomano/rig.toml").read_text()
    assert 'recordings_dir = "/var/lib/cleptomano"' in installed
    assert "~/.local" not in installed


@pytest.mark.skipif(not (REPO / "wiring/rig.example.toml").exists(),
                    reason="wiring/rig.example.toml is not in the clone yet")
def test_the_installed_config_loads_with_its_pin_map(repo, tmp_path):
    from rig.shell.config import load_config

    root = tmp_path / "root"
    assert install(repo, "--root", root).returncode == 0
    config = load_config(str(root / "etc/cleptomano/rig.toml"))
    assert str(config.storage.recordings_dir) == "/var/lib/cleptomano"
    assert config.pinmap.inputs  # pinmap.toml was found next to rig.toml
