"""Every game's key modes: key names in, game commands out.  Pure (no pygame, no clock).

The key names every mode reads (:func:`digit_of`, :func:`pretty_key`, :func:`keypad_name`) and
:class:`Mode`, the machinery the games' keys share; each game's own mode lives in its folder
(``rig/games/<game>/keys.py``, its ``MODE``) and :mod:`rig.display.game_keys` finds it.  A
command is a short sequence typed blind, its commands carry ``t=0.0`` (the host stamps them),
Esc or Backspace drops a half-typed sequence, and whether a command is allowed is the game's
call: the host shows a refusal's reason on the screen.  A digit picks a player by their place in the player list (1 =
first); ``H`` shows the game's keys, ``Tab`` the phones' QR code and pairing code, ``F7`` then a
paired phone's number makes that phone the table's host (``0``: no host; issue 31).

Secret input (Stolen Paintings' steal and marks, Canine Kleptomaniacs' Hiding Places) can be
typed at the rig; the prompt then shows how many were chosen, never which (the phone companion
is where secrets belong).
"""

from dataclasses import dataclass
from typing import Optional

from ..core.msg import Msg
from ..core.phones import MakeHost

# SDL scancodes of the keypad: with NumLock off some systems report "end", "down"...; the
# scancode still says which keypad key it was.
KEYPAD_SCANCODES = {84: "[/]", 85: "[*]", 86: "[-]", 87: "[+]", 88: "enter", 98: "[0]",
                    99: "[.]"}
KEYPAD_SCANCODES.update({88 + d: "[%d]" % d for d in range(1, 10)})

_DIGITS = {str(d): d for d in range(10)}
_DIGITS.update({"[%d]" % d: d for d in range(10)})

_PRETTY = {
    "return": "Enter", "enter": "Num Enter", "escape": "Esc", "backspace": "Bksp",  # not words: key caps
    "space": "Space", "tab": "Tab", "delete": "Del",
}


def digit_of(key_name: str) -> Optional[int]:
    """The digit a key stands for (``"3"`` or keypad ``"[3]"`` -> 3), else None."""
    return _DIGITS.get(key_name)


def pretty_key(key_name: str) -> str:
    """A key name as printed on the key: ``"t"`` -> ``"T"``, ``"[+]"`` -> ``"Num+"``."""
    if key_name in _PRETTY:
        return _PRETTY[key_name]
    if len(key_name) >= 3 and key_name.startswith("[") and key_name.endswith("]"):
        return "Num" + key_name[1:-1]
    if len(key_name) == 1:
        return key_name.upper()
    return key_name.capitalize()


def keypad_name(key_name: str, scancode: Optional[int] = None) -> str:
    """The key's name for a key mode's ``feed``: keypad keys by their scancode ("[1]" even when
    NumLock is off and SDL calls it "end"), any other key by its pygame name."""
    if scancode in KEYPAD_SCANCODES:
        return KEYPAD_SCANCODES[scancode]
    return key_name


CONFIRM = ("return", "enter")
CANCEL = ("escape", "backspace")
CANCEL_WORDS = Msg("rig.keys.esc_cancels")
HELP_KEY = "h"          # shows the game's keys on the message strip
PHONES_KEY = "tab"      # shows (or hides) the phones' QR code and pairing code (shown by
                        # itself while no phone is paired: docs/games/phones.md)
HOST_KEY = "f7"         # then a phone's number: the table's host phone (docs/games/phones.md)
HOST_STATE = "host"     # a mode's state while F7 waits for the phone's number


def paired_phones(snapshot):
    """The phones paired now, as the screen lists them (at most 9: one digit each)."""
    view = getattr(snapshot, "phones", None)
    return tuple(getattr(view, "phones", ()) or ())[:9]


def host_prompt(phones):
    """F7's prompt: the paired phones by number, 0 for no host; a line saying none is paired
    when none is."""
    if not phones:
        return Msg("rig.keys.host_no_phone", cancel=CANCEL_WORDS)
    return Msg("rig.keys.make_host", phones=", ".join(
        "%d %s" % (i + 1, p) for i, p in enumerate(phones)), cancel=CANCEL_WORDS)


def host_choice(phones, digit):
    """The command F7 then ``digit`` gives: :class:`~rig.core.phones.MakeHost` of that phone
    (``0``: no host), or None (not a phone's number: the prompt stays)."""
    if digit == 0:
        return MakeHost()
    if digit is not None and 1 <= digit <= len(phones):
        return MakeHost(name=phones[digit - 1])
    return None


class Mode:
    """One game's keys.  ``KEYS``: key name -> action; a subclass's ``begin(action)`` starts a
    sequence (or returns a command at once) and ``more(name, text, digit)`` takes its next key.
    Both return ``(command or None, prompt or None)``.

    What the face asks of every game's key mode (a game's ``keys.MODE``, README "Adding a
    game"): ``MODE(bindings, keypad)`` (the display's key options, which a game without
    configurable keys ignores), :meth:`observe` each snapshot, :meth:`feed` each key,
    :meth:`look` (what the keys add to the screen besides their prompt: the face draws again
    when it changes) and :meth:`shown` (what the screen shows: ``(draw, thing)``)."""

    KEYS = {}
    HELP = ()
    game = ""
    #: How the face draws a game's snapshot (``draw(surface, snapshot, now_s)``: the game's own
    #: screen, the host's message strip, the phones): what :meth:`shown` gives.  The faces,
    #: which sit above the games and find each game's screen through the registry, hand it over
    #: (:mod:`rig.display.game_keys`); this kit, below the games, never imports a face.
    draw_game = None

    def __init__(self, bindings=None, keypad=True):
        self.state = None
        self.screen = None
        self.show_phones = None     # Tab's choice; None: shown while no phone is paired yet

    @property
    def players(self):
        return tuple(getattr(self.screen, "players", ()) or ())

    @property
    def view(self):
        return getattr(self.screen, "view", None) or {}

    def observe(self, screen):
        ended = getattr(screen, "over", False) and not getattr(self.screen, "over", False)
        self.screen = screen
        if ended:
            self.show_phones = None     # Tab's panel does not stay over the final scores

    def phones_shown(self, snapshot=None):
        """Whether the phones' QR code and pairing code are on the screen: Tab's choice, else
        while the game runs and no phone is paired yet (a new game: the table joins at once,
        docs/games/phones.md)."""
        if self.show_phones is not None:
            return self.show_phones
        screen = snapshot if snapshot is not None else self.screen
        phones = getattr(screen, "phones", None)
        return (phones is not None and not getattr(screen, "over", False)
                and not getattr(phones, "phones", ()))

    def help(self):
        return self.HELP

    def look(self):
        return self.phones_shown()

    def shown(self, snapshot, prompt):
        """``(draw, thing)``: the game's snapshot (a GameScreen) with the keys' prompt on the
        host's message strip and, while Tab shows them, the phones' QR code and pairing code."""
        from dataclasses import replace

        return type(self).draw_game, replace(snapshot, message=prompt or snapshot.message,
                                             phones=snapshot.phones if self.phones_shown(snapshot)
                                             else None)

    def feed(self, key_name, text=None):
        name = str(key_name or "").lower()
        if name in CANCEL:
            self.state = None
            return None, None
        if self.state is None and name == HELP_KEY:
            return None, Msg("rig.keys.help", keys=tuple(self.HELP))
        if self.state is None and name == PHONES_KEY:
            self.show_phones = not self.phones_shown()
            return None, None
        if self.state is None and name == HOST_KEY and name not in self.KEYS:
            self.state = HOST_STATE
            return None, host_prompt(paired_phones(self.screen))
        if self.state == HOST_STATE:
            phones = paired_phones(self.screen)
            command = host_choice(phones, digit_of(name))
            if command is None:
                return None, host_prompt(phones)
            self.state = None
            return command, None
        if self.state is None:
            action = self.KEYS.get(name)
            return (None, None) if action is None else self.begin(action)
        return self.more(name, text, digit_of(name))

    def player(self, digit, then):
        """The player at place ``digit`` (1-9), or a prompt saying who is who."""
        players = self.players[:9]
        if digit is None or not 1 <= digit <= len(players):
            places = tuple(_place(i + 1, p) for i, p in enumerate(players))
            return None, Msg("rig.keys.which_player", then=then, places=places,
                             cancel=CANCEL_WORDS)
        return players[digit - 1], None


def _place(place, player):
    return Msg("rig.keys.place", place=place, player=player)


def toggle(chosen, digit, least, most):
    """``chosen`` (a sorted tuple) with ``digit`` added or taken away, if it is from ``least``
    to ``most``."""
    if digit is not None and least <= digit <= most:
        return tuple(sorted(set(chosen) ^ {digit}))
    return chosen


def chosen_words(chosen):
    """The numbers chosen so far, for a prompt ("1, 3 and 5", or "none yet"), as a code."""
    if not chosen:
        return Msg("rig.keys.none_yet")
    return Msg("rig.keys.chosen", numbers=tuple(str(n) for n in chosen))


@dataclass(frozen=True)
class MuseumKey:
    """A key typed in the rig's window that the guard's keys leave unused, while the simulator
    plays the museum (the display's ``museum_keys``): ``key`` the character it types (``" "``
    for Space).  The simulator takes it as its terminal takes the same key (:mod:`sim.keyboard`);
    the rig never sees it as a command."""
    t: float
    key: str


def museum_key(key_name, text=None):
    """The character a window key gives the simulated museum, or None (a key typing nothing:
    the arrows, F-keys, Enter...)."""
    if str(key_name or "").lower() == "space":
        return " "
    if text and len(text) == 1 and text.isprintable() and not text.isspace():
        return text
    return None
