"""The companion games' key modes: key names in, game commands out.  Pure (no pygame, no clock).

:class:`Mode` is the machinery every game's keys share; each game's own mode lives in its folder
(``rig/games/<game>/keys.py``) and :mod:`rig.display.game_keys` says which mode a game uses.
As with Cleptómano's keys (:mod:`rig.display.keys`), a command is a short sequence typed blind,
its commands carry ``t=0.0`` (the host stamps them), Esc or Backspace drops a half-typed
sequence, and whether a command is allowed is the game's call: the host shows a refusal's reason
on the screen.  A digit picks a player by their place in the player list (1 = first); ``H``
shows the game's keys, ``Tab`` the phones' QR code and pairing code.

Secret input (Stolen Paintings' steal and marks, Canine Kleptomaniacs' Hiding Places) can be
typed at the rig; the prompt then shows how many were chosen, never which (the phone companion
is where secrets belong).
"""

from ..core.gamekit import listing
from .keys import digit_of

CONFIRM = ("return", "enter")
CANCEL = ("escape", "backspace")
CANCEL_WORDS = "Esc cancels"
HELP_KEY = "h"          # shows the game's keys on the message strip
PHONES_KEY = "tab"      # shows (or hides) the phones' QR code and pairing code


class Mode:
    """One game's keys.  ``KEYS``: key name -> action; a subclass's ``begin(action)`` starts a
    sequence (or returns a command at once) and ``more(name, text, digit)`` takes its next key.
    Both return ``(command or None, prompt or None)``."""

    KEYS = {}
    HELP = ()
    game = ""

    def __init__(self):
        self.state = None
        self.screen = None
        self.show_phones = False

    @property
    def players(self):
        return tuple(getattr(self.screen, "players", ()) or ())

    @property
    def view(self):
        return getattr(self.screen, "view", None) or {}

    def observe(self, screen):
        self.screen = screen

    def help(self):
        return self.HELP

    def feed(self, key_name, text=None):
        name = str(key_name or "").lower()
        if name in CANCEL:
            self.state = None
            return None, None
        if self.state is None and name == HELP_KEY:
            return None, "KEYS: %s; Tab: the phones' QR code" % "; ".join(self.HELP)
        if self.state is None and name == PHONES_KEY:
            self.show_phones = not self.show_phones
            return None, None
        if self.state is None:
            action = self.KEYS.get(name)
            return (None, None) if action is None else self.begin(action)
        return self.more(name, text, digit_of(name))

    def player(self, digit, then):
        """The player at place ``digit`` (1-9), or a prompt saying who is who."""
        players = self.players[:9]
        if digit is None or not 1 <= digit <= len(players):
            return None, "%s: press %s   (%s)" % (then, ", ".join(
                "%d %s" % (i + 1, p) for i, p in enumerate(players)), CANCEL_WORDS)
        return players[digit - 1], None


def toggle(chosen, digit, least, most):
    """``chosen`` (a sorted tuple) with ``digit`` added or taken away, if it is from ``least``
    to ``most``."""
    if digit is not None and least <= digit <= most:
        return tuple(sorted(set(chosen) ^ {digit}))
    return chosen


def chosen_words(chosen):
    """The numbers chosen so far, in words for a prompt ("1, 3 and 5", or "none yet")."""
    return listing(map(str, chosen)) or "none yet"
