"""The chest heist's keys at the rig: roll, reroll, tick a box, charge a skimmer, end the turn,
the diamonds counted without a sheet.

Pure (no pygame, no clock); the machinery is :class:`rig.display.keymodes.Mode`.
"""

from ...display.keymodes import CANCEL_WORDS, CONFIRM, Mode, chosen_words, toggle
from . import rules as ch


_BOX_CHARS = set("0123456789pixrc:")


class ChestHeistKeys(Mode):
    KEYS = {"r": "roll", "space": "roll", "[+]": "roll", "e": "reroll", "[/]": "reroll",
            "m": "box", "[*]": "box", "k": "skimmer", "[-]": "skimmer", "n": "end",
            "[.]": "end", "d": "diamonds"}
    HELP = ("R, Space, Num+: roll", "E, Num/, dice 1-5, Enter: reroll",
            "M, Num*, the box, Enter, dice 1-5, Enter, skimmers 1-3, Enter: tick a box",
            "K, Num-, a skimmer 1-3, dice 1-5, Enter: charge it", "N, Num.: end the turn",
            "D, the count, Enter: diamonds (no sheet)", "Esc: cancel")

    def begin(self, action):
        if action == "roll":
            return ch.Roll(0.0), None
        if action == "end":
            return ch.EndTurn(0.0), None
        self.state = action
        self.text, self.box, self.dice, self.skimmers, self.skimmer = "", None, (), (), None
        return None, self.prompt()

    def prompt(self):
        s = self.state
        if s == "reroll":
            words = "REROLL which dice? 1-5 toggles: %s. Enter rerolls" % chosen_words(self.dice)
        elif s == "box":
            words = ("TICK which box? type it (11, P, I, x2, x2:6, or r2c3 with a sheet): %s. "
                     "Enter" % (self.text or "_"))
        elif s == "dice":
            words = "TICK %s with dice (1-5 toggles): %s. Enter" % (self.box,
                                                                   chosen_words(self.dice))
        elif s == "skimmers":
            words = "TICK %s: add skimmers? 1-3 toggles: %s. Enter ticks" % (
                self.box, chosen_words(self.skimmers))
        elif s == "skimmer":
            words = "CHARGE which skimmer? press 1-3"
        elif s == "charge":
            words = "CHARGE skimmer %d with dice (1-5 toggles): %s. Enter" % (
                self.skimmer, chosen_words(self.dice))
        else:
            words = "DIAMONDS won: %s. Enter" % (self.text or "_")
        return "%s   (%s)" % (words, CANCEL_WORDS)

    def more(self, name, text, digit):
        s, done = self.state, name in CONFIRM
        command = None
        if s == "box":
            char = str(digit) if digit is not None else \
                (text or (name if len(name) == 1 else ""))[:1].lower()
            if done and self.text:
                self.box = self.text.upper() if self.text in ("p", "i") else self.text
                self.state = "dice"
            elif char and char in _BOX_CHARS and len(self.text) < 6:
                self.text += char
        elif s == "skimmer":
            if digit is not None and 1 <= digit <= 3:
                self.skimmer, self.state = digit, "charge"
        elif s == "diamonds":
            if done and self.text:
                command = ch.CountDiamonds(0.0, None, int(self.text))
            elif digit is not None and len(self.text) < 3:
                self.text += str(digit)
        elif s == "skimmers":
            if done:
                command = ch.Mark(0.0, None, self.box, self.dice, self.skimmers)
            self.skimmers = toggle(self.skimmers, digit, 1, 3)
        elif done and s == "dice":
            self.state = "skimmers"
        elif done and self.dice:
            command = (ch.Reroll(0.0, None, self.dice) if s == "reroll"
                       else ch.Charge(0.0, None, self.skimmer, self.dice))
        else:
            self.dice = toggle(self.dice, digit, 1, 5)
        if command is not None:
            self.state = None
            return command, None
        return None, self.prompt()


#: The face's one way in (README "Adding a game"): this game's key mode.
MODE = ChestHeistKeys
