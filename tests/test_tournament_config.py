"""``[tournament]`` in the rig config: off when absent, every bad value one clear line naming the
file, the key and the fix."""

import shutil
import subprocess

import pytest

from rig.core.errors import ConfigError
from rig.shell.config import load_config

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None,
                                   reason="openssl is not installed")


@pytest.fixture(scope="module")
def real_ca(tmp_path_factory):
    """A CA certificate (PEM) made by openssl, as a tournament's install step makes one."""
    d = tmp_path_factory.mktemp("ca")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=test CA",
                    "-keyout", str(d / "ca.key"), "-out", str(d / "ca.crt")],
                   check=True, timeout=60, capture_output=True)
    return (d / "ca.crt").read_bytes()


def write(tmp_path, text, name="rig.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def tournament(tmp_path, body):
    return load_config(write(tmp_path, "[tournament]\n" + body)).tournament


def test_off_when_absent():
    assert load_config().tournament is None


def test_a_plain_broker_with_the_rig_id_as_user(tmp_path):
    t = tournament(tmp_path, 'broker = "mqtt://10.0.0.5"\nrig_id = "table-3"\npassword = "s3"\n')
    assert (t.broker.url, t.broker.tls, t.rig_id, t.username, t.password) == (
        "mqtt://10.0.0.5:1883", False, "table-3", "table-3", "s3")
    assert "s3" not in repr(t)           # a password never reaches a log line


@needs_openssl
def test_tls_with_a_ca_file_and_a_password_file_next_to_the_config(tmp_path, real_ca):
    (tmp_path / "ca.crt").write_bytes(real_ca)
    (tmp_path / "pw").write_text("correct horse\n")
    t = tournament(tmp_path, 'broker = "mqtts://broker.lan"\nrig_id = "T_1"\nusername = "rigs"\n'
                             'password_file = "pw"\nca_file = "ca.crt"\n')
    assert (t.broker.url, t.broker.tls, t.username, t.password) == (
        "mqtts://broker.lan:8883", True, "rigs", "correct horse")
    assert t.ca_file == tmp_path / "ca.crt"


@pytest.mark.parametrize("body, key, words", [
    ('rig_id = "t"\n', "broker", "missing; a [tournament] needs broker"),
    ('broker = "mqtt://h"\n', "rig_id", "missing"),
    ('broker = "http://h"\nrig_id = "t"\n', "broker", "scheme must be mqtt:// or mqtts://"),
    ('broker = "mqtt://u:p@h"\nrig_id = "t"\n', "broker", "put the user name in username"),
    ('broker = "mqtt://h:70000"\nrig_id = "t"\n', "broker", "port 1-65535"),
    ('broker = 1883\nrig_id = "t"\n', "broker", "is not the broker's address"),
    ('broker = "mqtt://h"\nrig_id = "table/3"\n', "rig_id", "is not a rig id; give 1-32 letters"),
    ('broker = "mqtt://h"\nrig_id = "#"\n', "rig_id", "is not a rig id"),
    ('broker = "mqtt://h"\nrig_id = ""\n', "rig_id", "is not a rig id"),
    ('broker = "mqtt://h"\nrig_id = "t"\npassword = "a"\npassword_file = "f"\n', "password_file",
     "either password or password_file"),
    ('broker = "mqtt://h"\nrig_id = "t"\npassword_file = "nothere"\n', "password_file",
     "cannot be read"),
    ('broker = "mqtt://h"\nrig_id = "t"\nca_file = "ca.crt"\n', "ca_file", "is for a TLS broker"),
    ('broker = "mqtts://h"\nrig_id = "t"\nca_file = "nothere.crt"\n', "ca_file",
     "cannot be read (No such file or directory)"),
    ('broker = "mqtts://h"\nrig_id = "t"\nca_file = "."\n', "ca_file", "cannot be read (it is a "
     "directory"),
    ('broker = "mqtt://h"\nrig_id = "t"\npassword = "a\\nb"\n', "password", "control"),
    ('broker = "mqtt://h"\nrig_id = "t"\nport = 1883\n', "port", "unknown key"),
])
def test_every_bad_value_is_one_line_naming_the_key(tmp_path, body, key, words):
    with pytest.raises(ConfigError) as caught:
        tournament(tmp_path, body)
    message = str(caught.value)
    assert caught.value.key == "tournament.%s" % key, message
    assert words in message and "\n" not in message
    assert message.startswith(str(tmp_path / "rig.toml"))


@pytest.mark.parametrize("content", [
    b"", b"\n", b"-----BEGIN CERTIFICATE-----\n", b"not a certificate\n", b"\x00\xff" * 300,
    b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    b"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n"])
def test_a_ca_file_that_holds_no_certificate_is_one_line_at_load(tmp_path, content):
    """A readable file that is no certificate was an ``ssl.SSLError`` traceback when the
    tournament link first connected (``cleptomano run`` crashed, again and again under
    systemd): it is now loaded as the link will load it, when the config is read."""
    (tmp_path / "ca.crt").write_bytes(content)
    with pytest.raises(ConfigError) as caught:
        tournament(tmp_path, 'broker = "mqtts://h"\nrig_id = "t"\nca_file = "ca.crt"\n')
    message = str(caught.value)
    assert caught.value.key == "tournament.ca_file" and "\n" not in message
    assert "ca.crt is not a CA certificate" in message or "ca.crt holds no certificate" in message
    assert "give the CA certificate (PEM" in message


@pytest.mark.parametrize("content", [b"", b"\n", b"two\nlines\n", b"\xff\xfe", b"x" * 2000])
def test_a_password_file_holds_one_line(tmp_path, content):
    (tmp_path / "pw").write_bytes(content)
    with pytest.raises(ConfigError, match="does not hold one line of text"):
        tournament(tmp_path, 'broker = "mqtt://h"\nrig_id = "t"\npassword_file = "pw"\n')
