"""The chest heist's keys at the rig: roll, reroll, tick a box, charge a skimmer, end the turn,
the diamonds counted without a sheet.

Pure (no pygame, no clock); the machinery is :class:`rig.draw.keymodes.Mode`.
"""

from ...core.msg import Msg
from ...draw.keymodes import CANCEL_WORDS, CONFIRM, Mode, toggle
from . import rules as ch


def chosen_words(chosen):
    """The numbers chosen so far, for a prompt: a list ("1, 3 and 5"), or "none yet"."""
    return tuple(chosen) if chosen else Msg("chest_heist.keys.none_yet")


_BOX_CHARS = set("0123456789pixrc:")


class ChestHeistKeys(Mode):
    KEYS = {"r": "roll", "space": "roll", "[+]": "roll", "e": "reroll", "[/]": "reroll",
            "m": "box", "[*]": "box", "k": "skimmer", "[-]": "skimmer", "n": "end",
            "[.]": "end", "d": "diamonds"}
    HELP = (Msg("chest_heist.keys.help_roll"), Msg("chest_heist.keys.help_reroll"),
            Msg("chest_heist.keys.help_tick"), Msg("chest_heist.keys.help_charge"),
            Msg("chest_heist.keys.help_end"), Msg("chest_heist.keys.help_diamonds"),
            Msg("chest_heist.keys.help_cancel"))

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
            return Msg("chest_heist.keys.reroll", chosen=chosen_words(self.dice),
                       cancel=CANCEL_WORDS)
        if s == "box":
            return Msg("chest_heist.keys.box", typed=self.text or "_", cancel=CANCEL_WORDS)
        if s == "dice":
            return Msg("chest_heist.keys.dice", box=self.box, chosen=chosen_words(self.dice),
                       cancel=CANCEL_WORDS)
        if s == "skimmers":
            return Msg("chest_heist.keys.skimmers", box=self.box,
                       chosen=chosen_words(self.skimmers), cancel=CANCEL_WORDS)
        if s == "skimmer":
            return Msg("chest_heist.keys.skimmer", cancel=CANCEL_WORDS)
        if s == "charge":
            return Msg("chest_heist.keys.charge", skimmer=self.skimmer,
                       chosen=chosen_words(self.dice), cancel=CANCEL_WORDS)
        return Msg("chest_heist.keys.diamonds", typed=self.text or "_", cancel=CANCEL_WORDS)

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
