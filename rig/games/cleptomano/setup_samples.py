"""Sample set-up screens and a sample wiring check, made by pressing the guard's keys on the real
key map and feeding real readings to the real check, so every sample is a state the rig reaches.

``cleptomano screenshot setup-players OUT.png`` renders one headless (see
:func:`rig.display.samples.screenshot`); :data:`SAMPLES` maps a state name to ``(draw
function, thing)``.
"""

from ...table.debounce import DetectSettings
from ...table.settings import shipped_pinmap
from .rules.view import Scoreboard
from .rules.wiringcheck import wiring_check
from .keys import KeyMapper
from .setup_screen import draw_setup, draw_wiring

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")
ROSTER = PLAYERS + ("Elena", "Félix", "Maximiliano", "Inés")
BOARD = Scoreboard(players=PLAYERS, roster=ROSTER)


def _setup():
    """One guard setting up tonight's match, stopped at each page."""
    out = {}
    mapper = KeyMapper()
    mapper.observe(BOARD)

    def press(*keys, text=None):
        for key in keys:
            mapper.feed(key, text)

    def keep(name):
        out[name] = (draw_setup, mapper.setup_view())

    press("s")
    keep("setup-menu")
    press("1", "2", "7")               # Bruno drops out, Maximiliano joins
    keep("setup-players")
    for char in "Zoe":
        press(char.lower(), text=char)
    keep("setup-name")
    press("return", "return")
    keep("setup-level")
    press("4", "4", "5", "return", "5")
    keep("setup-corridor")
    press("2", "2")                    # narrow corridor; Carla steals first
    press("1", "5", "3", "8", "4", "2", "6", "2", "2", "4")
    keep("setup-layout")
    press("backspace", "backspace", "backspace", "backspace", "6", "7", "2", "6")
    keep("setup-layout-legal")
    press("return")
    keep("setup-confirm")
    return out


def _wiring():
    """The check on the rig's screen, five inputs in, a mix-up of lasers 5 and 6 found: on the
    pin map the rig ships, the hand sensor where it says, the default hand threshold."""
    pinmap = shipped_pinmap()
    check = wiring_check(pinmap, (pinmap.i2c_bus, pinmap.tof_address),
                         DetectSettings().hand_threshold_mm, hand=True, relics=True,
                         timeout_s=30.0)
    check.begin(0.0, {})
    for t, name in enumerate(("button", "laser.1", "laser.2", "laser.3", "laser.4", "laser.6"),
                             1):
        check.feed(t, name, 1)
        check.feed(t + 0.1, name, 0)
    check.feed(7.0, "tof", 150)
    board = Scoreboard(players=PLAYERS, wiring=check.view(now=12.4))
    return {"wiring-check": (draw_wiring, board)}


SAMPLES = dict(_setup(), **_wiring())
STATES = tuple(SAMPLES)
