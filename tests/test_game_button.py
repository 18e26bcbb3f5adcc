"""The museum's start button in the companion games: a press is the game's primary action (Space
at the keys), debounced on the edges' stamps as in a match, refused with its reason on the strip.

The button is a real gpiozero input (the rig's :mod:`rig.table.pins`) on the simulator's mock
pins in virtual time, driven through the pin map as the museum wires it; one test runs it on
gpiozero's own lgpio factory with a press delivered as the kernel's edges, late.  What is
asserted is what the table notices: the screen, the sounds, the recording, the log.
"""

import json
import logging
import os
import threading
import time

import pytest

from rig.cli import main
from rig.table.debounce import DetectSettings
from rig.display.game_keys import key_help, primary
from rig.shell.build import game_button
from rig.words import english
from rig.core.msg import Msg
from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.shell.gamehost import GameHost
from rig.games import game as game_named
from rig.games import at_table, games
from rig.shell.session import RecordingSession
from sim.clock import VirtualClock
from sim.frames import strip_shown
from sim.gamehost import Speakers
from sim.pins import Museum, VirtualFactory
from sim.realpins import PI_4B, contact_edges, play, simulated_pi

GAMES = tuple(g.name for g in games() if not at_table(g))    # the games the game host hosts

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

CONFIG = load_config(None)
BUTTON_PIN = CONFIG.pinmap.inputs["button"].pin


class Table:
    """A game hosted on the virtual clock, with the museum's start button on mock pins."""

    def __init__(self, directory, game, players, seed=7, detect=None):
        self.clock = VirtualClock()
        self.factory = VirtualFactory(self.clock)
        self.museum = Museum(self.factory, CONFIG.pinmap)
        self.display = Speakers()
        self.host = GameHost(game_named(game), players, clock=self.clock,
                             session=RecordingSession(directory, clock=self.clock),
                             display=self.display, seed=seed, key_help=key_help(game),
                             button=primary(game), detect=detect)
        self.host.start()
        self.button = game_button(CONFIG, self.clock, self.host.button_edge, self.factory)
        self.clock.advance(0.2)

    def keys(self, *keys):
        for key in keys:
            self.display.press(key)
        self.clock.advance(0.5)
        return self

    def edges(self, *steps):
        """The button's contact as a player's thumb makes it: (value, then seconds) pairs."""
        for value, hold_s in steps:
            self.museum.set("button", value)
            self.clock.advance(hold_s)
        return self

    def press(self, hold_s=0.08):
        return self.edges((1, hold_s), (0, 0.5))

    @property
    def view(self):
        return self.display.board.view

    def commands(self):
        """The recording's command lines, without their times."""
        lines = self.host.recording_path.read_text("utf-8").splitlines()[1:]
        return [{k: v for k, v in json.loads(x).items() if k != "t"} for x in lines]

    def stop(self):
        self.button.close()
        self.host.stop()


def test_stop_thief_turns_go_round_the_table_with_the_start_button_alone(tmp_path):
    table = Table(tmp_path, "stop-thief", ("Ana", "Ben", "Caro"))
    players = table.host.players
    first = players.index(table.view["turn"])
    assert table.view["clues"] == [] and table.display.heard == []
    for n in range(1, 7):
        table.press()
        whose = players[(first + n - 1) % 3]          # press 1: the first player's clue ...
        assert table.view["turn"] == whose and table.view["clue_taken"]
        assert len(table.display.heard) == n          # ... each press one clue sound ...
        assert [c["by"] for c in table.view["clues"]] == [
            players[(first + i) % 3] for i in range(n)]   # ... and then the next player's turn
        assert len(table.commands()) == n
    assert table.host.refused == 0
    table.stop()


#: Keys that bring each game to where its primary action is allowed.
BEFORE = {"stop-thief": (), "stolen-paintings": (), "chest-heist": (),
          "canine": ("d", "p", "1", "b")}          # an Action card drawn, the Badger played


def timeless(view):
    """A view without its clock readings (a key is read on the display's period, a press is
    known 1 ms after it began: the exhibition's countdown starts a little apart)."""
    return {k: v for k, v in view.items() if not k.endswith(("_s", "_t"))}


@pytest.mark.parametrize("game", GAMES)
def test_a_press_is_what_space_is_at_the_keys(game, tmp_path):
    by_key = Table(tmp_path / "keys", game, ("Ana", "Ben")).keys(*BEFORE[game])
    by_button = Table(tmp_path / "button", game, ("Ana", "Ben")).keys(*BEFORE[game])
    before = by_button.commands()
    by_key.keys("space")
    by_button.press()
    assert by_button.commands() == by_key.commands() != before
    assert len(by_button.commands()) == len(before) + 1
    assert timeless(by_button.view) == timeless(by_key.view)
    assert by_button.display.heard == by_key.display.heard
    assert by_button.host.refused == 0
    by_key.stop()
    by_button.stop()


def test_a_bouncing_press_is_one_clue_and_a_glitch_none(tmp_path):
    table = Table(tmp_path, "stop-thief", ("Ana", "Ben"))
    # Contacts chattering for 12 ms, then held, then a bounce on release: one press.
    table.edges((1, 0.002), (0, 0.003), (1, 0.0005), (0, 0.004), (1, 0.002), (0, 0.0005),
                (1, 0.15), (0, 0.004), (1, 0.001), (0, 0.5))
    assert len([c for c in table.commands() if "clue" in c]) == 1
    assert len(table.display.heard) == 1
    table.edges((1, 0.0004), (0, 0.5))              # 0.4 ms: noise on the wire, not a press
    assert len(table.commands()) == 1
    table.press()                                   # a real second press still counts
    assert len(table.commands()) == 2 and len(table.display.heard) == 2
    table.stop()


def test_the_configs_merge_window_is_the_buttons(tmp_path):
    table = Table(tmp_path, "stop-thief", ("Ana", "Ben"),
                  detect=DetectSettings(merge_window_s=0.3))
    table.edges((1, 0.05), (0, 0.2), (1, 0.05), (0, 0.5))   # released 0.2 s: still one press
    assert len(table.commands()) == 1
    table.stop()


def test_a_refused_press_shows_its_reason_on_the_strip_and_changes_nothing(tmp_path):
    table = Table(tmp_path, "canine", ("Ana", "Ben"))
    view = table.view
    table.press()                                   # nothing calls for the die yet
    message = table.display.board.message
    assert message == Msg("rig.host.refused", reason=Msg("canine.refuse.no_call"))
    assert english(message).casefold().startswith("refused: nothing calls for the die now")
    assert strip_shown(table.display.frame())
    assert table.view == view and table.commands() == [] and table.host.refused == 1
    table.stop()


def test_a_busy_button_pin_is_one_warning_and_the_game_plays_on_at_the_keys(tmp_path, caplog):
    from gpiozero import DigitalInputDevice
    clock = VirtualClock()
    factory = VirtualFactory(clock)
    holder = DigitalInputDevice(BUTTON_PIN, pin_factory=factory)   # another program's
    host = GameHost(game_named("chest-heist"), ("Ana",), clock=clock,
                    session=RecordingSession(tmp_path, clock=clock), display=Speakers(),
                    seed=7, button=primary("chest-heist"))
    host.start()
    with caplog.at_level(logging.WARNING, logger="cleptomano"):
        assert game_button(CONFIG, clock, host.button_edge, factory) is None
    (warning,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    words = warning.getMessage()
    assert "start button" in words and "GPIO%d" % BUTTON_PIN in words
    assert "gpioinfo" in words and "goes on with the keys and the phones" in words
    # The keys are read against the screen shown: the host's first frame first (its thread
    # shows it; on a loaded machine after this thread reached here: issue 27).
    clock.advance(0.2)
    host.display.press("r")
    clock.advance(0.5)
    assert host.display.board.view["dice"]           # rolled at the keys
    host.stop()
    holder.close()


@pytest.fixture
def no_phones(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[web]\nenabled = false\n", "utf-8")
    return str(path)


@pytest.mark.parametrize("backend, words", [
    ("--sim", "Simulator: no start button to open"),
    ("--real", "Start button: no GPIO pin library could be loaded"),
])
def test_run_game_says_once_why_there_is_no_button_and_plays_on(backend, words, tmp_path,
                                                                capsys, caplog, no_phones,
                                                                monkeypatch):
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    with caplog.at_level(logging.INFO, logger="cleptomano"):
        assert main(["run", "--game", "chest-heist", backend, "--headless", "--duration-s",
                     "0.2", "--recordings", str(tmp_path), "--config", no_phones]) == 0
    said = [r.getMessage() for r in caplog.records if words in r.getMessage()]
    assert len(said) == 1 and "the keys and the phones" in said[0], caplog.text
    assert "Press H at the screen" in capsys.readouterr().err
    assert len(list(tmp_path.glob("chest-heist-*.jsonl"))) == 1


@pytest.mark.parametrize("busy, words", [
    (False, "Start button: on GPIO%d; a press is what Space is at the keys" % BUTTON_PIN),
    (True, "the start button (button) on GPIO%d: 'GPIO busy'; if another program" % BUTTON_PIN),
])
def test_run_game_on_a_pi_opens_the_start_button_or_warns_once(busy, words, tmp_path, caplog,
                                                                 no_phones, monkeypatch):
    from gpiozero import Device
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    with simulated_pi(revision=PI_4B) as kernel:
        if busy:
            kernel.hold(BUTTON_PIN)
        try:
            with caplog.at_level(logging.INFO, logger="cleptomano"):
                assert main(["run", "--game", "stop-thief", "--real", "--headless",
                             "--duration-s", "0.2", "--recordings", str(tmp_path),
                             "--config", no_phones]) == 0
            if busy:        # the other program lets go: the pin opens at the next try
                kernel.let_go(BUTTON_PIN)
                again = game_button(CONFIG, MonotonicClock(), lambda value, t_abs: None)
                assert again is not None and kernel.mode(BUTTON_PIN) == "alert"
                again.close()
        finally:
            if Device.pin_factory is not None:
                Device.pin_factory.close()
        assert kernel.mode(BUTTON_PIN) is None or busy      # closed when the game stopped
    said = [r for r in caplog.records if r.getMessage().startswith("Start button")]
    assert len(said) == 1 and words in said[0].getMessage(), caplog.text
    assert (said[0].levelno == logging.WARNING) == busy


class Clued(Speakers):
    """A display that tells a thread waiting in real time when the first clue is shown."""

    def __init__(self):
        super().__init__()
        self.clued = threading.Event()

    def show(self, board):
        super().show(board)
        if board.view["clues"]:
            self.clued.set()


def test_a_bouncing_press_through_gpiozeros_lgpio_factory_is_one_clue(tmp_path):
    """The real stack: gpiozero's LGPIOFactory and LGPIOPin over the lgpio stand-in; the press
    bounces and its edges reach the callbacks 30 ms late, in one burst, as lg delivers them."""
    with simulated_pi() as kernel:
        from gpiozero.pins.lgpio import LGPIOFactory
        factory = LGPIOFactory()
        clock = MonotonicClock()
        display = Clued()
        host = GameHost(game_named("stop-thief"), ("Ana", "Ben"), clock=clock,
                        session=RecordingSession(tmp_path, clock=clock), display=display,
                        seed=7, button=primary("stop-thief"))
        host.start()
        button = game_button(CONFIG, clock, host.button_edge, factory)
        try:
            assert button is not None
            claimed = {name: kernel.mode(spec.pin) for name, spec in CONFIG.pinmap.inputs.items()
                       | CONFIG.pinmap.outputs.items()}
            assert claimed.pop("button") == "alert" and set(claimed.values()) == {None}
            ms = 1_000_000
            start = time.monotonic_ns() - 90 * ms
            edges = contact_edges(CONFIG.pinmap, [("button", start, 2 * ms),
                                                  ("button", start + 3 * ms, 55 * ms)])
            play(kernel, edges)
            assert kernel.deliver() == 4
            assert display.clued.wait(5.0), "the press gave no clue"
            lines = host.recording_path.read_text("utf-8").splitlines()
            assert [json.loads(x).get("clue") for x in lines[1:]] == [True]
            assert len(display.board.view["clues"]) == 1 and len(display.heard) == 1
        finally:
            host.stop()
            button.close()
            factory.close()
