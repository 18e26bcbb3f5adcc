"""The config loader: defaults, the example file, and one test per kind of mistake a builder makes.

Every error must name the file and the key, so the tests check ``err.path``/``err.key`` and a
fragment of the words that tell the user what to do.
"""

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rig.shell import config as cfg
from rig.shell.config import Config, load_config, load_pinmap, pinmap_from_dict
from rig.core.errors import ConfigError
from rig.games.cleptomano.rules.levels import Level

REPO = Path(__file__).resolve().parent.parent
PINMAP_TEXT = (REPO / "wiring" / "pinmap.toml").read_text(encoding="utf-8")


def write(tmp_path, text, name="rig.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- Defaults and the example file ----------------------------------------------------------------

def test_defaults_are_the_documented_ones():
    c = load_config()
    assert c.match.players == ("Ana", "Ben", "Caro")
    assert c.match.first_thief == "Ana"
    assert (c.match.level.name, c.match.level.timer_s, c.match.level.lasers) == ("normal", 60.0, 4)
    assert c.pins.backend == "auto"
    assert c.pins.map == REPO / "wiring" / "pinmap.toml"
    assert dataclasses.astuple(c.detect) == (0.1, 0.001, 0.25, 0.3, 400, 5.0, (), ())
    assert (c.tof.i2c_bus, c.tof.address, c.tof.io_timeout_s) == (1, 0x29, 0.5)
    assert (c.tof.poll_interval_s, c.tof.timing_budget_us) == (0.02, 20000)
    assert c.tof.retry_backoff_s == (0.1, 2.0)
    assert (c.hub.url, c.hub.heartbeat_timeout_s, c.hub.baudrate) == (
        "/dev/cleptomano-hub", 1.0, 115200)
    assert c.hub.enabled
    assert c.display == cfg.DisplayConfig(True, True, (800, 480), 30, False, True)
    assert (c.keys.thief, c.keys.confirm, c.keys.cancel) == ("t", "return", "escape")
    assert c.storage.recordings_dir == Path("~/.local/state/cleptomano").expanduser()
    assert c.pinmap.inputs["laser.1"] == cfg.InputPin(4, "none", "high")
    assert c.web == cfg.WebConfig(True, ("local",), 8080)


def test_example_file_loads_and_documents_exactly_the_defaults():
    example = REPO / "wiring" / "rig.example.toml"
    loaded = load_config(example)
    assert dataclasses.replace(loaded, path=None) == load_config()
    text = example.read_text(encoding="utf-8")
    for section in cfg.sections().values():
        # A section that is off when absent ([tournament]) is documented commented out.
        mark = "# " if section.optional else ""
        assert "\n%s[%s]" % (mark, section.name) in text
        for key in section.names:
            assert "\n%s%s = " % (mark, key) in text, "%s.%s is not documented" % (section.name,
                                                                                  key)


def test_a_full_custom_config(tmp_path):
    pinmap = write(tmp_path, PINMAP_TEXT, "mymap.toml")
    path = write(tmp_path, """
[match]
players = ["Zoe"]
difficulty = "hard"
timer_s = "none"
[pins]
map = "mymap.toml"
backend = "sim"
[hub]
url = ""
[storage]
recordings_dir = "recs"
[web]
enabled = false
bind = ["192.168.1.20", "fe80::1%eth0", "127.0.0.1"]
port = 8443
""")
    c = load_config(path)
    assert c.match.solo and c.match.first_thief == "Zoe"
    assert c.match.level == Level("custom", None, 5, "narrow")
    assert c.pins.map == pinmap  # relative to the config file, not the working directory
    assert not c.hub.enabled
    assert c.storage.recordings_dir == tmp_path / "recs"
    assert c.web == cfg.WebConfig(False, ("192.168.1.20", "fe80::1%eth0", "127.0.0.1"), 8443)


def test_dotted_keys_in_the_pin_map_are_accepted(tmp_path):
    text = PINMAP_TEXT.replace('"laser.1" = {', "laser.1 = {")
    assert load_pinmap(write(tmp_path, text, "map.toml")) == load_pinmap()


def test_tof_bus_and_address_follow_the_pin_map_unless_set(tmp_path):
    text = PINMAP_TEXT.replace("tof_address = 0x29", "tof_address = 0x30")
    write(tmp_path, text, "map.toml")
    c = load_config(write(tmp_path, '[pins]\nmap = "map.toml"\n'))
    assert c.tof.address == 0x30
    c = load_config(write(tmp_path, '[pins]\nmap = "map.toml"\n[tof]\naddress = 0x31\n'))
    assert c.tof.address == 0x31


# --- Every kind of config mistake ----------------------------------------------------------------

CONFIG_ERRORS = [
    # (what is wrong, TOML, key, words the message must contain)
    ("unknown section", "[detekt]\nglitch_s = 0.001", "detekt", "did you mean [detect]"),
    ("unknown key", "[detect]\nmerge_windw_s = 0.1", "detect.merge_windw_s",
     "did you mean merge_window_s"),
    ("section not a table", "detect = 3", "detect", "[detect] section"),
    ("wrong type", '[detect]\nmerge_window_s = "fast"', "detect.merge_window_s",
     '"fast" is not a number; give seconds from 0 to 1 (default 0.1)'),
    ("bool is not a number", "[detect]\nglitch_s = true", "detect.glitch_s", "not a number"),
    ("out of range", "[detect]\nmerge_window_s = -1", "detect.merge_window_s",
     "-1 is out of range; give seconds from 0 to 1 (default 0.1)"),
    ("infinite", "[detect]\nstuck_contact_s = inf", "detect.stuck_contact_s", "out of range"),
    ("not whole", "[detect]\nhand_threshold_mm = 400.5", "detect.hand_threshold_mm",
     "not a whole number"),
    ("timeout zero", "[tof]\nio_timeout_s = 0", "tof.io_timeout_s", "wait forever"),
    ("bad address", "[tof]\naddress = 0x80", "tof.address", "0x08 to 0x77"),
    ("bad backoff", "[tof]\nretry_backoff_s = [2.0, 0.1]", "tof.retry_backoff_s",
     "first <= longest"),
    ("budget too short", "[tof]\ntiming_budget_us = 10000", "tof.timing_budget_us",
     "from 20000"),
    ("bad choice", '[pins]\nbackend = "gpio"', "pins.backend", '"auto", "real", "sim"'),
    ("bad bool", '[display]\nenabled = "yes"', "display.enabled", "true or false"),
    ("bad size", "[display]\nsize = [800]", "display.size", "[width, height]"),
    ("fps too high", "[display]\nfps = 60", "display.fps", "from 1 to 30"),
    ("key bound twice", '[keys]\nundo = "T"', "keys.undo", "already bound to thief"),
    ("unknown key name", '[keys]\nloot = "banana"', "keys.loot",
     '"banana" is not a key name the keyboard knows; use pygame key names'),
    ("empty key", '[keys]\nloot = " "', "keys.loot", "empty"),
    ("empty url type", "[hub]\nurl = 5", "hub.url", "quotes"),
    ("no players", "[match]\nplayers = []", "match.players", "1 to 8 names"),
    ("too many players", "[match]\nplayers = %s" % [str(i) for i in range(9)],
     "match.players", "1 to 8 names"),
    ("blank player", '[match]\nplayers = ["Ana", " "]', "match.players", "empty name"),
    ("same player twice", '[match]\nplayers = ["Ana", "ana"]', "match.players", "same name"),
    ("same player with an accent", '[match]\nplayers = ["Ana", "Aná"]', "match.players",
     "same name"),
    ("zero-width player", '[match]\nplayers = ["Ana", "Ana\\u200b"]', "match.players",
     "U+200B"),
    ("player of marks only", '[match]\nplayers = ["Ana", "\\u0301"]', "match.players",
     "no letter or digit"),
    ("first thief not playing", '[match]\nfirst_thief = "Dora"', "match.first_thief",
     "not one of the players (Ana, Ben, Caro)"),
    ("timer word", '[match]\ntimer_s = "forever"', "match.timer_s", '"none"'),
    ("newline in a name", '[match]\nplayers = ["Ana", "Be\\nn"]', "match.players",
     "U+000A"),
    ("line separator in a name", '[match]\nplayers = ["Ana", "Be\\u2028n"]', "match.players",
     "U+2028 (a line separator)"),
    ("timer beyond a float", "[match]\ntimer_s = 1%s" % ("0" * 309), "match.timer_s",
     "out of range"),
    ("seconds beyond a float", "[detect]\nseat_open_s = 1%s" % ("0" * 309),
     "detect.seat_open_s", "out of range; give seconds from 0 to 5"),
    ("whole number beyond a float", "[tof]\nlost_after = -1%s" % ("0" * 400), "tof.lost_after",
     "out of range"),
    ("a game's number beyond a float", "[stolen_paintings]\nexhibition_s = 1%s" % ("0" * 400),
     "stolen_paintings.exhibition_s", "a number of about 401 digits is out of range"),
    ("a thief's number beyond a float", "[stop_thief]\nstay_chance = 1%s" % ("0" * 400),
     "stop_thief.stay_chance", "a number of about 401 digits is out of range"),
    ("difficulty a list", "[match]\ndifficulty = []", "match.difficulty", "easy, hard, normal"),
    ("corridor a table", "[match]\ncorridor = {}", "match.corridor", '"wide" or "narrow"'),
    ("first thief a list", "[match]\nfirst_thief = []", "match.first_thief", "not one of"),
    ("empty storage", '[storage]\nrecordings_dir = ""', "storage.recordings_dir", "empty"),
    ("public bind", '[web]\nbind = "8.8.8.8"', "web.bind", "8.8.8.8 is not a local address"),
    ("public bind in a list", '[web]\nbind = ["192.168.1.20", "2001:db8::1"]', "web.bind",
     "2001:db8::1 is not a local address"),
    ("every interface", '[web]\nbind = "0.0.0.0"', "web.bind", "every interface"),
    ("every IPv6 interface", '[web]\nbind = ["::"]', "web.bind", "every interface"),
    ("bind a host name", '[web]\nbind = "rig.example.com"', "web.bind",
     "not an IP address"),
    ("bind empty list", "[web]\nbind = []", "web.bind", 'bind = "local"'),
    ("bind a number", "[web]\nbind = 8080", "web.bind", "not an address"),
    ("privileged port", "[web]\nport = 80", "web.port", "from 1024 to 65535"),
    ("port text", '[web]\nport = "http"', "web.port",
     "not a whole number; give whole TCP port numbers"),
    ("web enabled text", '[web]\nenabled = "no"', "web.enabled", "true or false"),
]


@pytest.mark.parametrize("what,text,key,words", CONFIG_ERRORS, ids=[c[0] for c in CONFIG_ERRORS])
def test_config_mistakes_name_file_key_and_fix(tmp_path, what, text, key, words):
    path = write(tmp_path, text + "\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    err = caught.value
    assert err.path == path and err.key == key
    assert words in str(err)
    assert str(err).startswith("%s: %s: " % (path, key))
    assert len(str(err).splitlines()) == 1, str(err)


def test_the_brief_s_example_message_word_for_word(tmp_path):
    path = write(tmp_path, "[detect]\nmerge_window_s = -1\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == ("%s: detect.merge_window_s: -1 is out of range; give seconds "
                                 "from 0 to 1 (default 0.1)" % path)


LEVEL_ERRORS = [
    ("difficulty", '"insane"', "use one of easy, hard, normal"),
    ("lasers", "7", "3 to 5"),
    ("lasers", "4.0", "not a whole number"),
    ("corridor", '"medium"', '"wide" or "narrow"'),
    ("timer_s", "-5", 'or "none" for no time limit'),
]


@pytest.mark.parametrize("key,value,words", LEVEL_ERRORS)
def test_level_errors_are_re_raised_with_the_key(tmp_path, key, value, words):
    path = write(tmp_path, "[match]\n%s = %s\n" % (key, value))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == "match." + key
    assert words in str(caught.value)
    assert isinstance(caught.value.__cause__, type(None))  # one clear message, no chained noise


def test_a_level_needing_rods_the_pin_map_lacks(tmp_path):
    text = PINMAP_TEXT
    for line in PINMAP_TEXT.splitlines():
        if line.startswith(('"laser.8"', '"seat.8"')):
            text = text.replace(line + "\n", "")
    write(tmp_path, text, "map.toml")
    assert load_config(write(tmp_path, '[pins]\nmap = "map.toml"\n[match]\nlasers = 4\n'))
    path = write(tmp_path, '[pins]\nmap = "map.toml"\n[match]\nlasers = 5\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.key == "match.lasers"
    assert "laser.8, seat.8" in str(caught.value) and "lower lasers to 4" in str(caught.value)


def test_toml_syntax_error_names_file_and_line(tmp_path):
    path = write(tmp_path, "[detect]\nglitch_s = 0.001\nmerge_window_s = = 2\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.path == path and caught.value.line == 3
    assert str(caught.value).startswith("%s: line 3: TOML syntax error" % path)


def test_missing_file_says_how_to_create_it(tmp_path):
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "nope.toml")
    assert "rig.example.toml" in str(caught.value)
    path = write(tmp_path, '[pins]\nmap = "gone.toml"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.path == tmp_path / "gone.toml"


def test_from_dict_accepts_a_given_pin_map():
    pm = load_pinmap()
    c = Config.from_dict({"match": {"players": ["Ana", "Ben"]}}, pinmap=pm)
    assert c.pinmap is pm and c.match.players == ("Ana", "Ben")


# --- Every kind of pin-map mistake ---------------------------------------------------------------

def edit(old, new):
    assert old in PINMAP_TEXT
    return PINMAP_TEXT.replace(old, new, 1)


PINMAP_ERRORS = [
    ("duplicate pin", edit('"seat.5" = { pin = 23', '"seat.5" = { pin = 18'),
     "inputs.seat.5.pin", "GPIO18 is already used by seat.4"),
    ("duplicate with output", edit("buzzer = { pin = 13", "buzzer = { pin = 16"),
     "outputs.buzzer.pin", "already used by button"),
    ("unknown input", edit('"laser.8"', '"laser.9"'), "inputs.laser.9", "did you mean laser.8"),
    ("unknown output", edit('"led.turn"', '"led.blue"'), "outputs.led.blue", "unknown output"),
    ("reserved pin", edit("pin = 4,", "pin = 2,"), "inputs.laser.1.pin", "I2C1 SDA"),
    ("header position", edit("pin = 4,", "pin = 40,"), "inputs.laser.1.pin", "BCM number"),
    ("bad pull", edit('pull = "none", active = "high" }    # printed, left',
                      'pull = "pullup", active = "high" }  # printed, left'),
     "inputs.laser.1.pull", '"up", "down", "none"'),
    ("missing active", edit('button = { pin = 16, pull = "up", active = "low" }',
                            'button = { pin = 16, pull = "up" }'),
     "inputs.button.active", "missing"),
    ("missing pin", edit('button = { pin = 16, pull = "up", active = "low" }',
                         'button = { pull = "up", active = "low" }'),
     "inputs.button.pin", "missing"),
    ("unknown entry key", edit('button = { pin = 16,', 'button = { pin = 16, debounce = 1,'),
     "inputs.button.debounce", "allowed keys: pin, pull, active"),
    ("entry not a table", edit('button = { pin = 16, pull = "up", active = "low" }',
                               "button = 16"), "inputs.button", "button = { pin = ..."),
    ("required input missing", edit('guard = { pin = 6, pull = "none", active = "high" }', ""),
     "inputs.guard", "every rig needs it"),
    ("rod without seat", edit('"seat.8" = { pin = 8, pull = "up", active = "low" }', ""),
     "inputs.laser.8", "add \"seat.8\""),
    ("no buzzer", edit('buzzer = { pin = 13, active = "high" }', ""), "outputs.buzzer",
     "missing"),
    ("unknown section", PINMAP_TEXT + "\n[spi]\nbus = 0\n", "spi", "[i2c], [inputs]"),
    ("bad tof address", edit("tof_address = 0x29", "tof_address = 300"), "i2c.tof_address",
     "0x08 to 0x77"),
    ("pin a list", edit("button = { pin = 16,", "button = { pin = [16],"), "inputs.button.pin",
     "[16] is not a header GPIO"),
    ("pin a table", edit("buzzer = { pin = 13,", "buzzer = { pin = {},"), "outputs.buzzer.pin",
     "{} is not a header GPIO"),
    ("pin beyond a float", edit("buzzer = { pin = 13,", "buzzer = { pin = 1%s," % ("0" * 309)),
     "outputs.buzzer.pin", "is not a header GPIO"),
]


@pytest.mark.parametrize("what,text,key,words", PINMAP_ERRORS, ids=[c[0] for c in PINMAP_ERRORS])
def test_pin_map_mistakes_name_file_key_and_fix(tmp_path, what, text, key, words):
    path = write(tmp_path, text, "map.toml")
    with pytest.raises(ConfigError) as caught:
        load_pinmap(path)
    assert caught.value.path == path and caught.value.key == key
    assert words in str(caught.value)
    assert len(str(caught.value).splitlines()) == 1, str(caught.value)


def test_pin_map_errors_surface_through_load_config(tmp_path):
    write(tmp_path, edit('"seat.5" = { pin = 23', '"seat.5" = { pin = 18'), "map.toml")
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, '[pins]\nmap = "map.toml"\n'))
    assert caught.value.path == tmp_path / "map.toml"


def test_empty_pin_map_is_refused():
    with pytest.raises(ConfigError) as caught:
        pinmap_from_dict({}, "map.toml")
    assert caught.value.key == "inputs"


# --- The declarations: every key once, the games' sections from their folders -------------------

def test_each_game_brings_its_own_section_and_config_py_names_none():
    found = {s.name: s.value.__module__ for s in cfg.sections().values()}
    for game in ("stop_thief", "stolen_paintings", "chest_heist", "canine"):
        assert found[game] == "rig.games.%s.settings" % game
    source = (REPO / "rig" / "shell" / "config.py").read_text(encoding="utf-8")
    for word in ("stop_thief", "stolen_paintings", "chest_heist", "canine", "import pygame"):
        assert word not in source, word
    assert list(cfg.sections())[5:10] == ["display", "table", "sound", "keys", "storage"]
    assert list(cfg.sections())[9:11] == ["storage", "stop_thief"]   # the file's order
    # Cleptómano's [match] too, first in the file (before="pins"), read from its folder.
    assert found["match"] == "rig.games.cleptomano.settings" and list(cfg.sections())[0] == "match"
    assert "MATCH" not in source and "first_thief" not in source


def test_a_registered_game_s_section_is_read(tmp_path, monkeypatch):
    package = tmp_path / "heistgame"
    package.mkdir()
    (package / "__init__.py").write_text(       # a whole game (the registry checks it)
        "from rig.games.chest_heist import GAME as CHEST\n"
        "class Heist(type(CHEST)):\n"
        "    name = recording = prefix = 'heist'\n"
        "    section = 'heistgame'\n"
        "GAME = Heist()\n")
    (package / "settings.py").write_text(
        "from rig.core.settings import Key, Section\n"
        "SECTION = Section('heistgame', (Key('rounds', 'whole', 3, 'rounds a night', "
        "unit='rounds', low=1, high=9),), class_name='HeistConfig', module=__name__)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("rig.games.REGISTRY", cfg_registry() + ["heistgame"])
    c = Config.from_dict({"heistgame": {"rounds": 5}}, pinmap=load_pinmap())
    assert c.heistgame.rounds == 5 and load_config().heistgame.rounds == 3
    with pytest.raises(ConfigError, match="heistgame.rounds: 10 is out of range; give whole "
                                          r"rounds from 1 to 9 \(default 3\)"):
        Config.from_dict({"heistgame": {"rounds": 10}}, pinmap=load_pinmap())


def cfg_registry():
    import rig.games
    return list(rig.games.REGISTRY)


def test_loading_a_config_never_imports_pygame():
    import subprocess
    import sys
    code = ("import sys; from rig.shell.config import load_config; c = load_config(); "
            "assert c.keys.thief == 't'; print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, timeout=60, check=True).stdout
    assert out.strip() == "False"


#: The configuration reference (the table of docs/builder/configuration.md) and the games'
#: config tables ("**Config tables.**", on the same page): every declared key must be named there.
PAGE = (REPO / "docs" / "builder" / "configuration.md").read_text(encoding="utf-8")
REFERENCE = PAGE[:PAGE.index("## The games' config tables")]
GAME_TABLES = PAGE[PAGE.index("**Config tables.**"):]
GAME_TABLES = GAME_TABLES[:GAME_TABLES.index("```", GAME_TABLES.index("```toml") + 3)]
#: Keys the configuration page does not document yet: the lead adds them.
README_GAPS = set()


def documented(section, key):
    rows = [line for line in REFERENCE.splitlines() if line.startswith("| `%s." % section)]
    if any("`%s.%s`" % (section, key) in r or "/ `%s`" % key in r for r in rows):
        return True
    block = GAME_TABLES[GAME_TABLES.find("[%s]" % section):]
    return "[%s]" % section in GAME_TABLES and ("\n%s = " % key) in block.split("\n\n")[0]


def test_every_declared_key_has_one_line_of_doc():
    for s in cfg.sections().values():
        for key in s.keys:
            assert key.doc.strip() and "\n" not in key.doc, "%s.%s" % (s.name, key.name)


def test_every_declared_key_is_in_the_config_reference():
    keys = [(s.name, k) for s in cfg.sections().values() for k in s.names]
    missing = {"%s.%s" % sk for sk in keys if not documented(*sk)}
    assert missing == README_GAPS, "document these keys in docs/builder/configuration.md: %s" % (
        sorted(missing),)


def test_every_declared_number_s_range_and_default_is_in_the_example_file():
    text = (REPO / "wiring" / "rig.example.toml").read_text(encoding="utf-8")
    for s in cfg.sections().values():
        for key in s.keys:
            if key.kind in ("number", "whole") and key.default_from is None:
                line = next(l for l in text.splitlines() if l.startswith(key.name + " = "))
                value = line.split("=", 1)[1].split("#")[0].strip()
                assert float(value) == key.default, line
                assert cfg_num(key.low) in line and cfg_num(key.high) in line, line


def cfg_num(x):
    return str(x) if isinstance(x, int) else "%g" % x


FUZZ_DIR = Path(__import__("tempfile").mkdtemp(prefix="config-fuzz-"))
DECLARED = [(s.name, k) for s in cfg.sections().values() for k in s.names]
TOML_VALUES = st.recursive(
    st.one_of(st.booleans(), st.integers(), st.integers(-2 ** 2000, 2 ** 2000),
              st.floats(allow_nan=True), st.text(max_size=12),
              st.sampled_from(["none", "local", "mqtt://h", "mqtts://h", "t", "return", "real",
                               "all-hidden", "narrow", "hard", "../x", "/", "~", ""])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=4), inner, max_size=2)),
    max_leaves=5)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(entries=st.dictionaries(st.sampled_from(DECLARED), TOML_VALUES, max_size=5))
def test_fuzz_any_values_under_the_declared_keys_give_a_config_or_one_config_error(entries):
    data = {}
    for (section, key), value in entries.items():
        data.setdefault(section, {})[key] = value
    try:
        Config.from_dict(data, FUZZ_DIR / "rig.toml", pinmap=FUZZ_PINMAP)
    except ConfigError as exc:
        message = str(exc)
        assert len(message.splitlines()) == 1, message
        assert exc.key is not None and exc.key.split(".")[0] in data, message


FUZZ_PINMAP = load_pinmap()
