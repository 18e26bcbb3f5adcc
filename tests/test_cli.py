"""The command line as a builder meets it: screenshot, check-wiring, replay, run."""

import json
import threading
from pathlib import Path

import pygame
import pytest

from rig import cli
from rig.shell.build import Backend
from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.shell.storage import replay_file
from rig.shell.wiring import run_check as run_wiring_check
from sim.backend import DemoBuilder
from sim.pins import Museum, VirtualFactory
from sim.script import demo_match
from sim.broker import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("state", ["turn", "caught", "table", "setup-players", "setup-layout",
                                   "wiring-check", "phones"])
def test_the_readme_screenshots_are_what_the_command_renders(tmp_path, state):
    out = tmp_path / (state + ".png")
    assert cli.main(["screenshot", state, str(out)]) == 0
    made = pygame.image.load(str(out))
    shown = pygame.image.load(str(ROOT / "docs" / "screenshots" / (state + ".png")))
    assert made.get_size() == shown.get_size() == (800, 480)
    assert pygame.image.tobytes(made, "RGB") == pygame.image.tobytes(shown, "RGB")
    shown_in = "\n".join(p.read_text("utf-8") for p in (ROOT / "docs").glob("*/*.md"))
    assert "../screenshots/%s.png" % state in shown_in


def test_screenshot_of_an_unknown_state_is_bad_input(tmp_path, capsys):
    assert cli.main(["screenshot", "dancing", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "dancing" in err[0] and "turn" in err[0]


def run_check(config, wiring=None, silent=(), timeout_s=2.0):
    """The wiring check of the pins alone (no hand sensor, no relic hub) on mock pins, in real
    time: the builder answers each prompt at once, so ``timeout_s`` (each input's) is spent only
    on an input that stays silent, and a loaded machine cannot make a prompt time out."""
    factory = VirtualFactory()
    stop = threading.Event()
    builder = DemoBuilder(Museum(factory, config.pinmap), None, None, stop, wiring, silent)
    lines = []
    try:
        check = run_wiring_check(config, Backend(factory, MonotonicClock()), lines.append,
                                 timeout_s=timeout_s, stop=stop, builder=builder)
    finally:
        builder.close()
        factory.reset()
    return check, lines


def test_check_wiring_passes_when_every_input_answers_in_turn():
    config = load_config(None)
    check, lines = run_check(config)
    assert check.ok, lines
    count = len(config.pinmap.inputs)
    assert lines[-1] == "%d of %d inputs answered." % (count, count)
    assert not [line for line in lines if "Not at rest" in line]
    assert sum(line.startswith("  OK: ") for line in lines) == count


def test_check_wiring_names_a_swapped_pair_and_a_silent_input():
    config = load_config(None)
    pinmap = config.pinmap
    check, lines = run_check(config, wiring={"laser.4": "laser.5", "laser.5": "laser.4"},
                             silent=("painting.2",), timeout_s=0.8)
    assert not check.ok
    text = "\n".join(lines)
    assert "waiting for laser 4 (GPIO%d) but laser 5 (GPIO%d) changed" % (
        pinmap.inputs["laser.4"].pin, pinmap.inputs["laser.5"].pin) in text
    assert "waiting for laser 5 (GPIO%d) but laser 4" % pinmap.inputs["laser.5"].pin in text
    assert "No answer from: laser 4, laser 5, painting 2." in text
    assert "%d of %d inputs answered." % (len(pinmap.inputs) - 3, len(pinmap.inputs)) in text


@pytest.mark.heavy      # five seconds of real time: `make test-heavy` (and .ci/run)
def test_check_wiring_on_the_simulator_walks_every_input_in_80_columns(capsys):
    """The demo a builder runs first: the pins, the hand sensor through its poller and the
    relics through the virtual relic hub's real frames, with no false alarm, in a terminal of
    80 columns."""
    assert cli.main(["check-wiring", "--sim", "--timeout-s", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "21 of 21 inputs answered.", out
    assert not [line for line in out if "Not at rest" in line or "Fault" in line], out
    assert max(len(line) for line in out) <= 80
    assert "  OK: the hand sensor answers on I2C bus 1, 0x29." in out
    for n, place in ((1, "I2C0 0x18"), (2, "I2C0 0x19"), (3, "I2C1 0x18")):
        assert "  OK: relic %d answers on hub %s." % (n, place) in out


def test_long_check_wiring_lines_wrap_at_80_columns():
    line = ("  Wrong input: waiting for laser 4 (GPIO22) but laser 5 (GPIO10) changed. Check "
            "that its wire goes to GPIO22, or that the two are not swapped.")
    wrapped = cli.terminal_line(line).split("\n")
    assert len(wrapped) == 2 and all(len(w) <= 80 for w in wrapped)
    assert wrapped[1].startswith("    ") and " ".join(w.strip() for w in wrapped) == line.strip()


# --- layout --------------------------------------------------------------------------------------

def test_layout_prints_a_legal_layout_and_exits_0(capsys):
    assert cli.main(["layout", "4: L-I R-II; 5: L-III table-R; 6: R-I L-II", "--lasers",
                     "3"]) == 0
    assert capsys.readouterr().out == "legal: 4: L-I R-II; 5: L-III table-R; 6: R-I L-II\n"


def test_layout_lists_every_broken_rule_one_a_line_and_exits_1(capsys):
    assert cli.main(["layout", "4: L-II R-II; 5: L-II table-R; 6: L-II L-I; 7: R-I R-III",
                     "--lasers", "3"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "the level adds 3 lasers; the layout declares 4",
        "laser 6 rests on the left wall at both ends; a laser must span both walls or go from "
        "one wall to the table beside/under the other",
        "laser 7 is not in play; the level adds 3 lasers, numbered 4 to 6",
        "laser 7 rests on the right wall at both ends; a laser must span both walls or go from "
        "one wall to the table beside/under the other",
        "zone II of the left wall holds 3 laser ends; at most 2 (laser 4, laser 5, laser 6); "
        "move an end to another zone",
        "4 lasers need 2 ends on the table; this layout has 1 (laser 5); rest another end on "
        "the table by the other wall"]


@pytest.mark.parametrize("args, words", [
    (["4: L-IV R-II"], "'L-IV' is not a laser end"),
    (["4: L-IV R-II; x: L-I R-I"], "2 syntax errors: laser 4: 'L-IV'"),
    (["4: L-I R-II; 5: L-III table-R; 6: R-I L-II", "--lasers", "6"],
         "6 is not a number of added lasers; the rulebook adds 3 to 5"),
])
def test_layout_that_cannot_be_read_is_one_line_and_exit_2(capsys, args, words):
    assert cli.main(["layout"] + args) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert captured.out == "" and len(err) == 1 and words in err[0], err


def test_replay_prints_the_result_json_on_stdout(tmp_path, capsys):
    path = demo_match().write(tmp_path / "demo.jsonl")
    assert cli.main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)
    assert out.endswith("\n") and out.count("\n") == 1
    assert result["winner"] == "Caro"
    assert set(result) == {"players", "turns", "rounds", "round_wins", "tiebreak", "winner",
                           "title"}


# Seconds of real time each: the run with the phones' server is in `make test-heavy`.
@pytest.mark.parametrize("phones", [pytest.param(True, marks=pytest.mark.heavy), False],
                         ids=["phones", "no phones"])
def test_run_plays_a_recording_on_the_simulator_and_records_it(tmp_path, capsys, caplog,
                                                               phones):
    web = ('[web]\nbind = ["127.0.0.1"]\nport = %d\n' % free_port() if phones
           else "[web]\nenabled = false\n")
    path = demo_match()
    short = tmp_path / "short.jsonl"
    lines = [line for line in path.lines() if json.loads(line).get("t", 0) <= 3.5]
    short.write_text("\n".join(lines) + "\n")
    rec = tmp_path / "rec"
    config = tmp_path / "rig.toml"
    config.write_text('[match]\nplayers = ["Solo"]\n' + web)
    with caplog.at_level("INFO", logger="cleptomano"):
        assert cli.main(["run", "--sim", "--headless", "--demo", str(short), "--config",
                         str(config), "--recordings", str(rec), "--duration-s", "30"]) == 0
    err = capsys.readouterr().err
    assert "Recording: " in err
    told = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Phones: ")]
    assert bool(told) == phones                          # [web] enabled = false: no server
    # The recording's players play, and the builder hears that the config's do not.
    assert "plays its own players (Ana, Ben, Caro), not the config's (Solo)" in err
    recorded = list(rec.glob("match-*.jsonl"))
    assert len(recorded) == 1
    turn = replay_file(recorded[0])["turns"][0]
    assert (turn["thief"], turn["outcome"]) == ("Ana", "unfinished")
    # The demo's touch is played on the pins in real time: its pin changes are recorded
    # whatever the load; whether a starved player's pulse still passes the glitch filter is
    # timing (touches are counted exactly on the virtual clock: tests/test_daemon.py).
    played = [json.loads(line) for line in recorded[0].read_text("utf-8").splitlines()]
    assert any(str(o.get("input", "")).startswith("laser.") for o in played)


def test_run_on_real_pins_without_a_pin_library_is_a_clear_error(tmp_path, capsys):
    assert cli.main(["run", "--real", "--headless", "--recordings", str(tmp_path),
                     "--duration-s", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err        # gpiozero's fallback warnings are folded into the one line
    assert "no GPIO pin library could be loaded" in err[0] and "--sim" in err[0]
    assert "lgpio" in err[0] and "native" in err[0]     # why each library was passed over


# --- issue 13 #9, #10: errors a newcomer meets, and a power-cut recording copied off the Pi -------

TORN_HEADER = ('{"recording": "cleptomano", "version": 1, "players": ["Ana", "Ben"], '
               '"difficulty": "normal"}\n')


def _torn_recording(tmp_path, tail):
    from sim.harness import Recording
    s = Recording(players=("Ana", "Ben"))
    s.heist(1.0, paintings=1)
    path = tmp_path / "match-20260101-000000.jsonl"
    path.write_text("\n".join(s.lines()) + "\n" + tail, encoding="utf-8")
    return path


def test_a_torn_last_line_is_reported_as_torn_and_what_came_before_is_replayed(tmp_path, capsys):
    path = _torn_recording(tmp_path, '{"t": 12.5, "input": "tof", "val')
    lines = len(path.read_text().split("\n"))
    assert cli.main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["turns"][0]["outcome"] == "escaped" and result["turns"][0]["paintings"] == 1
    warnings = err.strip().splitlines()
    assert len(warnings) == 1
    assert warnings[0].startswith("cleptomano: warning: %s:%d: the last line is torn"
                                  % (path, lines))


def test_a_complete_last_line_without_its_newline_is_read_as_a_line(tmp_path, capsys):
    path = _torn_recording(tmp_path, '{"t": 12.5, "end": true}')
    assert cli.main(["replay", str(path)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("bad", [
    '{"t": 12.5, "input": "tof", "val\n',          # ends with its newline: not a torn write
    '{"t": 12.5, "input": "tof", "val\n{"t": 13.0, "end": true}\n',   # not the last line
])
def test_any_other_bad_line_is_still_exit_2(tmp_path, capsys, bad):
    path = _torn_recording(tmp_path, bad)
    assert cli.main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "not JSON" in err


def test_history_lists_a_torn_recording_with_its_result(tmp_path, capsys):
    _torn_recording(tmp_path, '{"t": 12.5, "inp')
    assert cli.main(["history", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "unreadable" not in out and "torn last line" in out and "Ana, Ben" in out


def test_history_of_a_folder_that_does_not_exist_is_an_error_naming_it(tmp_path, capsys):
    missing = tmp_path / "nowhere"
    assert cli.main(["history", "--dir", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(missing) in err[0] and "does not exist" in err[0]


@pytest.mark.parametrize("argv", [["replay", "{missing}"],
                                  ["run", "--sim", "--headless", "--demo", "{missing}"]])
def test_a_missing_recording_is_named(tmp_path, capsys, argv):
    missing = str(tmp_path / "gone.jsonl")
    assert cli.main([a.format(missing=missing) for a in argv]) == 2
    err = [line for line in capsys.readouterr().err.splitlines()
           if line.startswith("cleptomano:")]
    assert len(err) == 1 and missing in err[0] and "No such file" in err[0]


def test_a_key_name_the_keyboard_does_not_know_is_refused(tmp_path, capsys):
    config = tmp_path / "rig.toml"
    config.write_text('[keys]\nthief = "tee"\n')
    assert cli.main(["history", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "keys.thief" in err[0] and '"tee"' in err[0]


def test_a_recording_of_nine_players_is_refused_as_the_config_would(tmp_path, capsys):
    path = tmp_path / "nine.jsonl"
    names = ["P%d" % i for i in range(9)]
    path.write_text(json.dumps({"recording": "cleptomano", "version": 1, "players": names,
                                "difficulty": "normal"}) + "\n")
    assert cli.main(["replay", str(path)]) == 2
    assert "1 to 8 names" in capsys.readouterr().err


def test_phones_prints_the_address_the_phones_open(tmp_path, capsys, monkeypatch):
    import ipaddress
    from rig.web import server
    monkeypatch.setattr(server, "local_addresses", lambda: {
        (ipaddress.ip_address("127.0.0.1"), 0), (ipaddress.ip_address("fe80::1"), 2),
        (ipaddress.ip_address("192.168.1.20"), 0)})
    assert cli.main(["phones"]) == 0
    assert capsys.readouterr().out == ("Phones: open http://192.168.1.20:8080/ at the table (the "
                                       "pairing code is on the rig's screen).\n")
    config = tmp_path / "rig.toml"
    config.write_text('[web]\nbind = ["fe80::1%1"]\nport = 8443\n', "utf-8")
    assert cli.main(["phones", "--config", str(config)]) == 0
    assert "open http://[fe80::1]:8443/" in capsys.readouterr().out
    config.write_text("[web]\nenabled = false\n", "utf-8")
    assert cli.main(["phones", "--config", str(config)]) == 0
    assert "The phone companion is off" in capsys.readouterr().out


def test_replay_prints_names_in_utf8_and_the_same_json(tmp_path, capfdbinary):
    """Issue 30: ``cleptomano replay`` printed "Jos\\u00e9"; it prints José in UTF-8 (the
    output is a public contract: the JSON parsed is the very same as before)."""
    from sim.harness import Recording
    s = Recording(["José", "Zoë"])
    s.heist(1.0, paintings=1)
    path = tmp_path / "accents.jsonl"
    path.write_text(s.text(), encoding="utf-8")
    assert cli.main(["replay", str(path)]) == 0
    out = capfdbinary.readouterr().out
    assert "José".encode("utf-8") in out and b"\\u00e9" not in out
    assert json.loads(out.decode("utf-8")) == json.loads(json.dumps(replay_file(path)))


def test_history_says_a_stopped_companion_game_ended_not_unfinished(tmp_path):
    """Issue 30: ``history`` said "no winner yet" for a Stop Thief! game the rig had ended
    (its end line) and "unfinished" for a chest heist stopped cleanly (no open marker left);
    a game cut off by a crash (Stop Thief!: no end line; the chest heist: its marker) is still
    unfinished: the rig takes it up again."""
    from rig import games as registry
    from rig.core.jsonl import dumps
    from rig.shell import storage
    made = {}
    for name, players in (("stop-thief", ("Ana", "Ben")), ("chest-heist", ("Ana",))):
        g = registry.game(name)
        state = g.new_game(players, 7, None)
        for k, ended in enumerate((True, False)):
            path = tmp_path / ("%s-20261207-10000%d.jsonl" % (g.prefix, k))
            lines = [dumps(g.header(state))]
            if ended and g.end_line(0.0) is not None:
                lines.append(dumps(g.end_line(5.0)))
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            if not ended and g.end_line(0.0) is None:
                storage.mark_open(path)
            made[path.name] = ended
    said = {line.split("  ")[0]: line for line in cli.history_lines(tmp_path)}
    assert set(said) == set(made)
    for name, ended in made.items():
        line = said[name]
        if name.startswith("stop-thief"):
            assert ("ended without a winner" in line) is ended and \
                ("no winner yet" in line) is not ended, line
        else:
            assert ("ended early (0 of 12 chests locked)" in line) is ended and \
                ("unfinished" in line) is not ended, line


def test_history_leaves_out_matches_in_which_nobody_played(tmp_path):
    """Issue 30: every start, restart and switch added an empty "no winner" match (7 of 12
    lines of an evening); they are counted in one line, not listed."""
    from sim.harness import Recording
    played = Recording(["Ana", "Ben"])
    played.heist(1.0, paintings=1)
    (tmp_path / "match-20261207-100000.jsonl").write_text(played.text(), encoding="utf-8")
    for k in range(3):
        empty = Recording(["Ana", "Ben"])
        empty.line({"t": 1.0, "end": True})
        (tmp_path / ("match-20261207-10010%d.jsonl" % k)).write_text(empty.text(),
                                                                      encoding="utf-8")
    lines = cli.history_lines(tmp_path)
    assert len(lines) == 2 and lines[0].startswith("match-20261207-100000.jsonl")
    assert lines[1] == "(3 matches in which nobody played a turn not listed)"
