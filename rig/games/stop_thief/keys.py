"""Stop Thief!'s keys at the rig: a clue, its replay, an arrest, the end of a turn.

Pure (no pygame, no clock); the machinery is :class:`rig.draw.keymodes.Mode`.  The key help
and the prompt are codes of the ``stop_thief`` catalog (the screen says them in the table's
language).
"""

from ...core.msg import Msg
from ...draw.keymodes import CONFIRM, Mode
from .rules import events as st


class StopThiefKeys(Mode):
    KEYS = {"c": "clue", "space": "clue", "[+]": "clue", "r": "replay", "[.]": "replay",
            "a": "arrest", "[*]": "arrest", "n": "end", "[-]": "end"}
    HELP = (Msg("stop_thief.keys.clue"), Msg("stop_thief.keys.replay"),
            Msg("stop_thief.keys.arrest"), Msg("stop_thief.keys.end"),
            Msg("stop_thief.keys.cancel"))

    def begin(self, action):
        if action == "clue":
            return st.GetClue(0.0), None
        if action == "replay":
            return st.ReplayClue(0.0), None
        if action == "end":
            return st.EndTurn(0.0), None
        self.state = ""
        return None, self.prompt()

    def prompt(self):
        return Msg("stop_thief.keys.arrest_prompt", typed=self.state or "_")

    def more(self, name, text, digit):
        if digit is not None and len(self.state) < 3:
            self.state += str(digit)
        elif name in CONFIRM and self.state:
            space, self.state = int(self.state), None
            return st.Arrest(0.0, space), None
        return None, self.prompt()


#: The face's one way in (README "Adding a game"): this game's key mode.
MODE = StopThiefKeys
