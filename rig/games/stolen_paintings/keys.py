"""Stolen Paintings' keys at the rig: the exhibition's start, the thief's entry, the detectives'
marks (kept secret: the prompt counts them, never shows which).

Pure (no pygame, no clock); the machinery is :class:`rig.draw.keymodes.Mode`.
"""

from ...core.msg import Msg
from ...draw.keymodes import CANCEL_WORDS, CONFIRM, Mode, toggle
from . import rules as sp


def chosen_words(chosen):
    """The places chosen so far, for a prompt: a list ("1, 3 and 5"), or "none yet"."""
    return tuple(chosen) if chosen else Msg("stolen_paintings.keys.none_yet")


class StolenPaintingsKeys(Mode):
    KEYS = {"s": "start", "space": "start", "[+]": "start", "t": "steal", "[/]": "steal",
            "m": "mark", "[*]": "mark"}
    HELP = (Msg("stolen_paintings.keys.help_start"), Msg("stolen_paintings.keys.help_steal"),
            Msg("stolen_paintings.keys.help_mark"), Msg("stolen_paintings.keys.help_cancel"))

    def begin(self, action):
        if action == "start":
            return sp.Start(0.0, None), None
        if action == "steal":
            self.state = ("steal", self.view.get("thief"), ())
            return None, self.prompt()
        self.state = ("who", None, ())
        return self.more("", None, None)

    def prompt(self):
        what, who, chosen = self.state
        if what == "steal":
            return Msg("stolen_paintings.keys.steal", thief=str(who or ""),
                       chosen=chosen_words(chosen), cancel=CANCEL_WORDS)
        return Msg("stolen_paintings.keys.marks", detective=str(who), n=len(chosen),
                   cancel=CANCEL_WORDS)

    def more(self, name, text, digit):
        what, who, chosen = self.state
        if what == "who":
            who, prompt = self.player(digit, Msg("stolen_paintings.keys.which_detective"))
            if who is None:
                return None, prompt
            self.state = ("mark", who, ())
            return None, self.prompt()
        if name in CONFIRM and chosen:
            self.state = None
            make = sp.Steal if what == "steal" else sp.Mark
            return make(0.0, who, chosen), None
        self.state = (what, who, toggle(chosen, digit, 1, 8))
        return None, self.prompt()


#: The face's one way in (README "Adding a game"): this game's key mode.
MODE = StolenPaintingsKeys
