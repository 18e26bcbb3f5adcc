"""Broken and hostile files through the real command line (issue 12, findings 4, 11 and 12).

The contract for a file a person hands the rig (``cleptomano replay FILE``, and every command
that reads a config: here ``history --config FILE``, which reads the config and its pin map and
nothing else of weight): exit status 0, or exit status 2 with exactly one line on stderr that
names FILE:LINE (a recording), FILE: KEY or FILE: line N (a config), or FILE alone when the file
itself cannot be read, and says what is wrong; nothing on stdout; never a traceback.

The cases the adversarial pass found are here by name; hypothesis then mutates the real
recordings (tests/recordings/**.jsonl) and the real config and pin map (wiring/), value by value
and byte by byte.  The commands run in this process through ``rig.cli.main`` (an exception that
escapes it fails the test), and the cases that used to hang or exhaust memory also run in a
child process with a time limit.
"""

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rig.core.errors import ConfigError
from rig.table.names import INPUT_NAMES
from rig.shell import config as cfg
from rig.shell.config import load_config
from sim.cli import run, run_child

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = sorted((ROOT / "tests" / "recordings").rglob("*.jsonl"))
EXAMPLE_CONFIG = (ROOT / "wiring" / "rig.example.toml").read_text("utf-8")
PINMAP = (ROOT / "wiring" / "pinmap.toml").read_text("utf-8")
FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Text that breaks lines, parsers or terminals, for names, keys and values.
NASTY = ["\u2028", "\u2029", "\x85", "\n", "\r", "\x00", "\x1b[2J", "\x7f", "\t", "\ufeff",
         "\u202e", "[", "{", "]", "}", '"', "\\", ".", ",", ":", "=", "#", "1e309", "-0",
         "0x1F", "NaN", "Infinity"]
nasty_text = st.lists(st.sampled_from(NASTY) | st.characters(blacklist_categories=("Cs",)),
                      max_size=4).map("".join)


def refused(result, where):
    """The command refused its input as the contract says, naming ``where`` first."""
    code, out, err = result
    assert (code, out) == (2, ""), result
    assert err.endswith("\n") and len(err.splitlines()) == 1, err  # splitlines: U+2028 too
    assert "Traceback" not in err
    assert err.startswith("cleptomano: %s" % where), err
    return err


# === replay ========================================================================================

HEADER = ('{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"], '
          '"difficulty": "normal"}')
PRESS = '{"t": 1.0, "input": "button", "value": 1}'


def header(**change):
    obj = json.loads(HEADER)
    obj.update(change)
    return json.dumps(obj, ensure_ascii=False)


BEYOND_A_FLOAT = "1" + "0" * 309          # an integer JSON allows and no float holds

BAD_RECORDINGS = {
    # what: (the file's lines, the line named, words the message holds)
    "t an integer beyond a float": (
        [HEADER, '{"t": %s, "input": "button", "value": 1}' % BEYOND_A_FLOAT], 2, "t 1000"),
    "t of more than 4300 digits": (
        [HEADER, '{"t": %s, "input": "button", "value": 1}' % ("7" * 4400)], 2, "4300 digits"),
    "100,000 nested arrays": ([HEADER, "[" * 100000 + "]" * 100000], 2, "nest more than"),
    "nested objects as a value": (
        [HEADER, '{"t": 1.0, "input": "tof", "value": %s1%s}' % ('{"a": ' * 50, "}" * 50)], 2,
        "nest more than"),
    "brackets inside strings are text": (
        [HEADER, '{"t": 1.0, "input": "%s"}' % ("[" * 5000)], 2, "input '[[[["),
    "difficulty a list": ([header(difficulty=[])], 1, "difficulty [] is not a level"),
    "corridor an object": ([header(corridor={})], 1, "corridor {}"),
    "lasers a list": ([header(lasers=[4])], 1, "lasers [4]"),
    "timer beyond a float": ([header(timer_s=10 ** 309)], 1, "timer_s 1000"),
    "detect beyond a float": ([header(detect={"glitch_s": 10 ** 309})], 1, "detect.glitch_s"),
    "first thief a list": ([header(first_thief=[])], 1, "first_thief []"),
    "players a list of lists": ([header(players=[["Ana"]])], 1, "players: "),
    "a tilt beyond a float": (
        [HEADER, '{"t": 1.0, "input": "relic.1.tilt", "value": %s}' % BEYOND_A_FLOAT], 2,
        "relic.1.tilt"),
    "t NaN": ([HEADER, '{"t": NaN, "input": "button", "value": 1}'], 2, "t nan"),
    "t Infinity": ([HEADER, '{"t": Infinity, "input": "button", "value": 1}'], 2, "t inf"),
    "a name with U+2028": ([header(players=["Ana", "Be\u2028n"])], 1, "U+2028"),
    "a name with U+0085": ([header(players=["Ana", "Be\x85n"])], 1, "U+0085"),
    "a name with a newline": ([header(players=["Ana", "Be\nn"])], 1, "U+000A"),
    "a line of 2 MB": ([HEADER, '{"t": 1.0, "by": "%s"}' % ("x" * (2 << 20))], 2,
                       "longer than 1048576 bytes"),
    "an empty file": ([], 1, "empty"),
    "blank lines only": (["", "  ", "\r"], 1, "empty"),
    "U+2028 in a line splits nothing": (
        [HEADER, '{"t": 1.0, "input": "button", "value": 1}',
         '{"t": 1.1, "input": "button", "value": 0}',
         '{"t": 2.0, "choose": "thief", "player": "Ana\u2028Ben"}'], 4, "Ana\\u2028Ben"),
}


@pytest.mark.parametrize("what", sorted(BAD_RECORDINGS))
def test_a_bad_recording_is_one_line_naming_the_file_and_line(tmp_path, what):
    lines, line, words = BAD_RECORDINGS[what]
    path = tmp_path / "match.jsonl"
    path.write_text("".join(text + "\n" for text in lines), encoding="utf-8")
    err = refused(run("replay", path), "%s:%d: " % (path, line))
    assert words in err


@pytest.mark.parametrize("data, line", [
    (HEADER.encode() + b"\n" + PRESS.encode() + b"\n" + b'{"t": 2.0, "by": "\xff"}\n', 3),
    (b"\x00" * 100, 1),
    (b"\xef\xbb\xbf" + HEADER.encode() + b"\n", 1),        # a byte-order mark is not JSON
    (HEADER.encode() + b"\r\n" + PRESS.encode() + b"\r\n{\r\n", 3),
])
def test_bytes_that_are_not_a_recording_are_named_by_line(tmp_path, data, line):
    path = tmp_path / "match.jsonl"
    path.write_bytes(data)
    refused(run("replay", path), "%s:%d: " % (path, line))


def test_windows_line_ends_still_replay(tmp_path):
    path = tmp_path / "match.jsonl"
    path.write_bytes(b"".join(line.encode() + b"\r\n" for line in (
        RECORDINGS[0].read_text("utf-8").split("\n")) if line))
    code, out, err = run("replay", path)
    assert (code, err) == (0, "") and json.loads(out)["players"]


def special_files(tmp_path):
    """Paths that are not regular files: what ``replay`` and ``--config`` must not read."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "a-directory").mkdir()
    return {"missing": (tmp_path / "missing.jsonl", "No such file"),
            "directory": (tmp_path / "a-directory", "it is a directory"),
            "fifo": (fifo, "it is a named pipe (FIFO)"),
            "/dev/zero": (Path("/dev/zero"), "it is a character device")}


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo", "/dev/zero"])
def test_a_path_that_is_no_recording_file_is_named(tmp_path, kind):
    path, words = special_files(tmp_path)[kind]
    err = refused(run("replay", path), "%s: cannot be read: " % path)
    assert words in err and "match-*.jsonl" in err


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_the_real_command_neither_blocks_nor_runs_out_of_memory(tmp_path, kind):
    path, words = special_files(tmp_path)[kind]
    assert words in refused(run_child("replay", path, timeout_s=30), "%s: " % path)


@pytest.mark.parametrize("what", ["t an integer beyond a float", "100,000 nested arrays",
                                  "a name with U+2028"])
def test_the_real_command_names_the_line(tmp_path, what):
    lines, line, words = BAD_RECORDINGS[what]
    path = tmp_path / "match.jsonl"
    path.write_text("".join(text + "\n" for text in lines), encoding="utf-8")
    assert words in refused(run_child("replay", path), "%s:%d: " % (path, line))


def test_the_real_command_replays_a_real_recording():
    code, out, err = run_child("replay", RECORDINGS[0])
    assert (code, err) == (0, "") and out.count("\n") == 1 and json.loads(out)["players"]


# --- fuzz: the real recordings, mutated ------------------------------------------------------------

KEYS = ["t", "input", "value", "choose", "player", "loot", "paintings", "relics", "undo", "by",
        "end", "restart", "recording", "version", "players", "difficulty", "timer_s", "lasers",
        "corridor", "first_thief", "detect", "glitch_s"]
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10), st.integers(),
    st.sampled_from([10 ** 309, -10 ** 309, 10 ** 4000, 2 ** 63, 1e308, 1e-320, [], {}, [[]],
                     "", "\u2028", float("nan"), float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
    nasty_text,
    st.sampled_from(sorted(INPUT_NAMES) + ["thief", "guard", "touch", "Ana", "Ben", "Caro",
                                           "easy", "hard", "narrow", "cleptomano"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(KEYS), inner, max_size=3),
                           max_leaves=6)


@st.composite
def mutated_recording(draw):
    """The bytes of a real recording after a few changes to its values, lines and bytes."""
    objects = [json.loads(line) for line in
               draw(st.sampled_from(RECORDINGS)).read_text("utf-8").split("\n") if line]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.just(0) | st.integers(0, len(objects) - 1))     # the header, often
        how = draw(st.sampled_from(["set", "set", "set", "drop key", "drop line", "copy line",
                                    "swap lines", "replace line"]))
        obj = objects[i]
        if how == "set" and isinstance(obj, dict):
            key = draw(st.sampled_from(sorted(obj) or KEYS) | st.sampled_from(KEYS))
            target = obj[key] if isinstance(obj.get(key), dict) and draw(st.booleans()) else obj
            if target is not obj:
                key = draw(st.sampled_from(sorted(target) or KEYS) | st.sampled_from(KEYS))
            target[key] = draw(json_values)
        elif how == "drop key" and isinstance(obj, dict) and obj:
            del obj[draw(st.sampled_from(sorted(obj)))]
        elif how == "drop line" and len(objects) > 1:
            del objects[i]
        elif how == "copy line":
            objects.insert(draw(st.integers(0, len(objects))), json.loads(json.dumps(obj)))
        elif how == "swap lines":
            j = draw(st.integers(0, len(objects) - 1))
            objects[i], objects[j] = objects[j], objects[i]
        elif how == "replace line":
            objects[i] = draw(json_values)
    data = "".join(json.dumps(obj, ensure_ascii=False) + "\n" for obj in objects).encode(
        "utf-8", "surrogatepass")
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["insert", "cut", "truncate"]))
        if how == "insert":
            piece = draw(st.sampled_from(NASTY).map(str.encode) | st.binary(max_size=4))
            data = data[:at] + piece + data[at:]
        elif how == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 40)):]
        else:
            data = data[:at]
    return data


@FUZZ
@given(data=mutated_recording())
def test_fuzz_replay_of_mutated_recordings_keeps_the_contract(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "match.jsonl"
    path.write_bytes(data)
    code, out, err = result = run("replay", path)
    if code == 0:
        # Exit 0 may carry one warning: a torn last line (issue 13), named by FILE:LINE.
        assert err == "" or re.fullmatch(r"cleptomano: warning: %s:\d+: the last line is torn "
                                         r"[^\n]*\n" % re.escape(str(path)), err), err
        assert out.endswith("\n") and out.count("\n") == 1
        assert set(json.loads(out)) >= {"players", "turns", "winner"}
    else:
        assert re.match(r"%s:\d+: \S" % re.escape(str(path)), refused(result, "")[12:]), err


# === the config ====================================================================================

def config_dir(tmp_path, rig_text=EXAMPLE_CONFIG, pinmap_text=PINMAP):
    """A config and the pin map it names (``map = "pinmap.toml"``, next to it)."""
    (tmp_path / "pinmap.toml").write_text(pinmap_text, encoding="utf-8")
    path = tmp_path / "rig.toml"
    path.write_bytes(rig_text.encode("utf-8", "surrogateescape"))   # "\udcff": the byte 0xFF
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home of its own: the example's recordings_dir ("~/...") is read by ``history``."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def set_line(text, start, line):
    """``text`` with its line starting ``start`` replaced by ``line``."""
    found = re.search(r"^%s.*$" % re.escape(start), text, flags=re.M)
    assert found, start
    return text[:found.start()] + line + text[found.end():]


HUGE_HEX = "0x" + "f" * 4000           # more digits in decimal than Python prints
BAD_CONFIGS = {
    # what: (rig.toml's line that starts with .., the line instead, the key, words)
    "timer beyond a float": ("timer_s =", "timer_s = " + BEYOND_A_FLOAT, "match.timer_s",
                             "out of range"),
    "seconds beyond a float": ("merge_window_s =", "merge_window_s = " + BEYOND_A_FLOAT,
                               "detect.merge_window_s", "out of range; give seconds from 0 to 1"),
    "a whole number beyond a float": ("fps =", "fps = -" + BEYOND_A_FLOAT, "display.fps",
                                      "out of range"),
    "hexadecimal too long to print": ("timer_s =", "timer_s = " + HUGE_HEX, "match.timer_s",
                                      "more than 4300 digits"),
    "lasers too long to print": ("lasers =", "lasers = " + HUGE_HEX, "match.lasers",
                                 "more than 4300 digits"),
    "a newline in a name": ("players =", r'players = ["Ana", "Be\nn"]', "match.players",
                            "U+000A (a control character)"),
    "U+2028 in a name": ("players =", r'players = ["Ana", "Be\u2028n"]', "match.players",
                         "U+2028 (a line separator)"),
    "U+0085 in a name": ("players =", r'players = ["Ana", "Be\u0085n"]', "match.players",
                         "U+0085"),
    "difficulty a list": ("difficulty =", "difficulty = []", "match.difficulty",
                          "use one of easy, hard, normal"),
    "NUL in the recordings directory": ("recordings_dir =", r'recordings_dir = "rec\u0000"',
                                        "storage.recordings_dir", "U+0000"),
    "NUL in the pin map's path": ("map =", r'map = "pinmap.toml\u0000"', "pins.map", "U+0000"),
    "a newline in the hub's url": ("url =", r'url = "/dev/tty\n"', "hub.url", "U+000A"),
    "a newline in a key": ("glitch_s =", r'"glitch\ns" = 0.001', r"detect.glitch\ns",
                           "unknown key"),
    "a newline in a section": ("[detect]", r'["det\nect"]', r"det\nect", "unknown section"),
}


@pytest.mark.parametrize("what", sorted(BAD_CONFIGS))
def test_a_bad_config_is_one_line_naming_the_file_and_key(tmp_path, home, what):
    start, line, key, words = BAD_CONFIGS[what]
    path = config_dir(tmp_path, set_line(EXAMPLE_CONFIG, start, line))
    err = refused(run("history", "--config", path), "%s: %s: " % (path, key))
    assert words in err


PINMAP_LINE = 'button = { pin = 16, pull = "up", active = "low" }'
BAD_PINMAPS = {
    "pin a list": ("button = { pin = [16], pull = \"up\", active = \"low\" }",
                   "inputs.button.pin", "[16] is not a header GPIO"),
    "pin an inline table": ("button = { pin = {}, pull = \"up\", active = \"low\" }",
                            "inputs.button.pin", "{} is not a header GPIO"),
    "pin beyond a float": ("button = { pin = %s, pull = \"up\", active = \"low\" }"
                           % BEYOND_A_FLOAT, "inputs.button.pin", "a number of about 310 digits"),
    "pull with a control character": ("button = { pin = 16, pull = \"u\\u001bp\", active = "
                                      "\"low\" }", "inputs.button.pull",
                                      '"u\\u001bp" is not allowed'),
}


@pytest.mark.parametrize("what", sorted(BAD_PINMAPS))
def test_a_bad_pin_map_is_one_line_naming_its_file_and_key(tmp_path, home, what):
    line, key, words = BAD_PINMAPS[what]
    path = config_dir(tmp_path, pinmap_text=PINMAP.replace(PINMAP_LINE, line))
    err = refused(run("history", "--config", path), "%s: %s: " % (tmp_path / "pinmap.toml", key))
    assert words in err


BAD_TOML = {
    # what: (text put in place of the example's [hub] section, its line named, words)
    "an integer of 5000 digits": ("[hub]\nbaudrate = %s\n" % ("9" * 5000), 2, "4300 digits"),
    "100,000 nested arrays": ("[hub]\nbaudrate = %s1%s\n" % ("[" * 100000, "]" * 100000), 2,
                              "nest more than 32 deep"),
    "arrays nested across lines": ("[hub]\nbaudrate = %s1%s\n" % ("[\n" * 5000, "]\n" * 5000),
                                   34, "nest more than 32 deep"),
    "100,000 inline tables": ("[hub]\nx = %s1%s\n" % ("{a = " * 100000, "}" * 100000), 2,
                              "nest more than 32 deep"),
    "a dotted key of 100,000 parts": ("[hub]\n%s = 1\n" % ".".join(["a"] * 100000), 2,
                                      "more than 64 dots"),
    "a table of 100,000 parts": ("[%s]\n" % ".".join(["a"] * 100000), 1, "more than 64 dots"),
    "not UTF-8": ("[hub]\nurl = \"\udcff\"\n", 2, "is not UTF-8"),
}


@pytest.mark.parametrize("what", sorted(BAD_TOML))
def test_toml_that_would_exhaust_the_parser_is_refused_by_line(tmp_path, home, what):
    text, offset, words = BAD_TOML[what]
    before = re.sub(r"^\[hub\].*?(?=^\[)", "", EXAMPLE_CONFIG, flags=re.M | re.S)
    path = config_dir(tmp_path, before + text)
    line = before.count("\n") + offset
    assert words in refused(run("history", "--config", path), "%s: line %d: " % (path, line))


@pytest.mark.parametrize("kind", ["directory", "fifo", "/dev/zero"])
def test_a_config_that_is_no_file_is_named(tmp_path, home, kind):
    path, words = special_files(tmp_path)[kind]
    assert words in refused(run("history", "--config", path), "%s: cannot read the rig config"
                            % path)


def test_a_pin_map_that_is_a_fifo_is_named_by_the_real_command(tmp_path, home):
    fifo, words = special_files(tmp_path)["fifo"]
    path = config_dir(tmp_path, set_line(EXAMPLE_CONFIG, "map =", 'map = "fifo"'))
    code, out, err = result = run_child("history", "--config", path, timeout_s=30)
    assert words in refused(result, "%s: cannot read the pin map" % fifo)


def test_a_config_of_megabytes_is_refused_unread(tmp_path, home):
    path = config_dir(tmp_path, EXAMPLE_CONFIG + "# padding\n" * 200000)
    assert "longer than 1048576 bytes" in refused(run("history", "--config", path),
                                                  "%s: " % path)


@pytest.mark.parametrize("what", ["timer beyond a float", "a newline in a name"])
def test_the_real_command_names_the_config_key(tmp_path, home, what):
    start, line, key, words = BAD_CONFIGS[what]
    path = config_dir(tmp_path, set_line(EXAMPLE_CONFIG, start, line))
    result = run_child("run", "--config", path, "--sim", "--headless", "--duration-s", "0")
    assert words in refused(result, "%s: %s: " % (path, key))


def test_the_example_config_is_accepted(tmp_path, home):
    code, out, err = run("history", "--config", config_dir(tmp_path))
    assert (code, err) == (0, "") and out.startswith("No recordings in ")


# --- fuzz: the real config and pin map, mutated ------------------------------------------------

def toml_value(value):
    """``value`` written in TOML (what a builder could have typed)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "0x%x" % value if value > 10 ** 4000 else str(value)
    if isinstance(value, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(value), repr(value))
    if isinstance(value, str):
        return '"%s"' % "".join(
            "\\u%04x" % ord(c) if ord(c) < 0x20 or c in '"\\\x7f' else c for c in value)
    if isinstance(value, list):
        return "[%s]" % ", ".join(toml_value(v) for v in value)
    if isinstance(value, dict):
        return "{ %s }" % ", ".join("%s = %s" % (toml_key(k), toml_value(v))
                                    for k, v in value.items())
    return value.isoformat()


def toml_key(key):
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_value(key)


def to_toml(data):
    lines = ["%s = %s" % (toml_key(k), toml_value(v)) for k, v in data.items()
             if not isinstance(v, dict)]
    for name, table in data.items():
        if isinstance(table, dict):
            lines.append("[%s]" % toml_key(name))
            lines += ["%s = %s" % (toml_key(k), toml_value(v)) for k, v in table.items()]
    return "\n".join(lines) + "\n"


toml_nasty = st.sampled_from([10 ** 309, -10 ** 309, 2 ** 63, [], {}, [16], "\x00", "\n",
                              "\u2028", float("nan")])
toml_scalars = st.one_of(
    toml_nasty, toml_nasty, st.booleans(), st.integers(-3, 100), st.integers(),
    st.just(4000).map(lambda digits: 16 ** digits),      # hexadecimal Python cannot print
    st.floats(allow_nan=True, allow_infinity=True),
    nasty_text,
    st.sampled_from(["none", "easy", "hard", "narrow", "up", "down", "high", "low", "sim", "Ana",
                     "pinmap.toml", "", "~", "/"]))
toml_values = st.recursive(toml_scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(["pin", "pull", "active", "a"]),
                                             inner, max_size=3), max_leaves=5)
CONFIG_DATA = tomllib.loads(EXAMPLE_CONFIG)
PINMAP_DATA = tomllib.loads(PINMAP)


def key_paths(table, above=()):
    """Every key of a parsed TOML file, as the path of names down to it, tables too."""
    for name, value in table.items():
        yield above + (name,)
        if isinstance(value, dict):
            yield from key_paths(value, above + (name,))


@st.composite
def mutated_value(draw, data):
    """``data`` (a parsed TOML file) with a key set, dropped or renamed, or a new one added."""
    data = json.loads(json.dumps(data))
    *above, key = draw(st.sampled_from(sorted(key_paths(data))))
    table = data
    for name in above:
        table = table[name]
    how = draw(st.sampled_from(["set", "set", "set", "add", "drop", "rename"]))
    if how == "add":
        key = draw(st.sampled_from(NASTY + ["pins", "laser.9", "pin", "sound", key + "s"]))
    if how in ("set", "add"):
        table[key] = draw(toml_nasty | toml_values)
    else:
        value = table.pop(key)
        if how == "rename":
            table[draw(st.sampled_from(NASTY + ["pins", "laser.9", key + "s"]))] = value
    return to_toml(data)


@st.composite
def mutated_text(draw, text):
    """``text`` with a few bytes of TOML's syntax, or of text that breaks lines, put in."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[at:]
        else:
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
    return text


@FUZZ
@given(files=st.one_of(
    st.tuples(mutated_value(CONFIG_DATA), st.just(PINMAP)),
    st.tuples(mutated_text(EXAMPLE_CONFIG), st.just(PINMAP)),
    st.tuples(st.just(EXAMPLE_CONFIG), mutated_value(PINMAP_DATA)),
    st.tuples(st.just(EXAMPLE_CONFIG), mutated_text(PINMAP))))
def test_fuzz_mutated_configs_and_pin_maps_keep_the_contract(tmp_path_factory, files):
    where = tmp_path_factory.mktemp("fuzz")
    path = config_dir(where, *files)
    # "~" in a recordings_dir, and the default one (resolved when the config is read), lead
    # into this example's own home: history lists what is there, nothing of the machine's.
    home = where / "home"
    with mock.patch.dict(os.environ, HOME=str(home)):
        code, out, err = result = run("history", "--config", path)
        if code == 0:
            assert err == "" and out.startswith("No recordings in "), result
            return
        refused(result, "")
        with pytest.raises(ConfigError) as caught:
            load_config(path)
    error = caught.value
    assert err == "cleptomano: %s\n" % error
    assert str(error).startswith("%s: " % error.path)
    if error.path in (path, where / "pinmap.toml"):     # the files given: a key or a line
        assert error.key is not None or getattr(error, "line", None), str(error)


# --- numbers too big for a float ----------------------------------------------------------------
# JSON and TOML both carry integers of any length; Python turns one into a float only up to
# about 1.8e308, and raised OverflowError (no RigError, a traceback) where a game checked such a
# number with math.isfinite.  Each reader answers with its one clear error instead.

HUGE = 10 ** 400


def test_a_game_command_at_a_time_too_big_for_a_float_is_refused():
    from rig.core.errors import IllegalMove
    from rig.core.gamekit import check_time
    with pytest.raises(IllegalMove, match="not a number of seconds"):
        check_time(0.0, HUGE)


def test_a_thief_setting_too_big_for_a_float_is_refused():
    from rig.core.errors import RulesError
    from rig.games.stop_thief.rules.thief import make_settings
    with pytest.raises(RulesError, match="stay_chance .* is out of range"):
        make_settings(stay_chance=HUGE)


def test_a_game_recording_line_too_big_for_a_float_names_its_line(tmp_path):
    path = tmp_path / "stolen-paintings-20261202-120000.jsonl"
    path.write_text('{"recording": "stolen-paintings", "version": 1, "players": ["Ana", "Ben", '
                    '"Caro"]}\n{"t": %d, "start": true}\n' % HUGE, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rig.cli", "replay", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert re.fullmatch(r"cleptomano: .*:2: .*\n", out.stderr), out.stderr
