"""Stolen Paintings' keys at the rig: the exhibition's start, the thief's entry, the detectives'
marks (kept secret: the prompt counts them, never shows which).

Pure (no pygame, no clock); the machinery is :class:`rig.display.keymodes.Mode`.
"""

from ...display.keymodes import CANCEL_WORDS, CONFIRM, Mode, chosen_words, toggle
from . import rules as sp


class StolenPaintingsKeys(Mode):
    KEYS = {"s": "start", "space": "start", "[+]": "start", "t": "steal", "[/]": "steal",
            "m": "mark", "[*]": "mark"}
    HELP = ("S, Space, Num+: start the exhibition",
            "T, Num/, then places 1-8, Enter: the thief's entry (final)",
            "M, Num*, a detective 1-9, places 1-8, Enter: their marks", "Esc: cancel")

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
            return ("THIEF %s: which places of the row hold the new cards? 1-8 toggles: %s. "
                    "Enter sends (final)   (%s)" % (who, chosen_words(chosen), CANCEL_WORDS))
        return ("MARKS of %s (kept secret): %d chosen. 1-8 toggles, Enter sends   (%s)"
                % (who, len(chosen), CANCEL_WORDS))

    def more(self, name, text, digit):
        what, who, chosen = self.state
        if what == "who":
            who, prompt = self.player(digit, "MARKS: which detective?")
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
