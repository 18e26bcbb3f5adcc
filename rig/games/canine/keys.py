"""Canine Kleptomaniacs' keys at the rig: cards drawn and played, the die, doggies, an empty pile,
a player's Hiding Places (kept secret: the prompt counts them, never shows which).

Pure (no pygame, no clock); the machinery is :class:`rig.display.keymodes.Mode`.
"""

from ...core.gamekit import listing
from ...display.keymodes import CANCEL_WORDS, CONFIRM, Mode
from . import rules as canine
from .rules.dice import PARITIES


_CARD_KEYS = {"k": "key", "b": "badger", "s": "squirrel", "c": "charm"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class CanineKeys(Mode):
    KEYS = {"d": "draw", "[+]": "draw", "r": "roll", "space": "roll", "[.]": "roll",
            "p": "play", "[*]": "play", "o": "doggy", "e": "empty", "[-]": "empty",
            "v": "reveal", "[/]": "reveal"}
    HELP = ("D, Num+: an Action card drawn", "R, Space, Num.: roll the die",
            "P, Num*, a player, K/B/S/C: play Key, Badger, Squirrel, Charm",
            "O, a player, a doggy: the doggy taken", "E, Num-, then A or C: a pile ran out",
            "V, Num/, a player: their Hiding Places", "Esc: cancel")

    def _choices(self, key):
        return list((getattr(self.screen, "choices", None) or {}).get(key, ()))

    def begin(self, action):
        if action == "draw":
            return canine.DrawAction(0.0, None), None
        if action == "roll":
            return canine.Roll(0.0, None), None
        if action == "empty":
            self.state = {"step": "empty"}
            return None, self.prompt()
        self.state = {"step": "who", "for": action}
        return None, self.player(None, self._who_words())[1]

    def _who_words(self):
        return {"play": "PLAY a card: who plays it?", "doggy": "DOGGY: who took it?",
                "reveal": "HIDING PLACES: whose?", "thief": "CHARM OFFENSIVE: who steals?"
                }[self.state["for"]]

    def prompt(self):
        s = self.state
        step = s["step"]
        if step == "empty":
            words = "A PILE RAN OUT: A the Action pile, C the Collectables pile"
        elif step == "doggy":
            words = "DOGGY of %s: %s" % (s["who"], ", ".join(
                "%d %s" % (i + 1, d) for i, d in enumerate(self._choices("doggies")[:9])))
        elif step == "face":
            words = "DOGGY %s for %s: U face up, Enter face down" % (s["doggy"], s["who"])
        elif step == "card":
            words = "%s PLAYS: K Key, B Rancid Badger Poo, S Squirrel, C Charm Offensive" % (
                s["who"])
        elif step == "parity":
            words = "KEY: O odd or E even, as the card says"
        elif step == "discards":
            words = "KEY (%s): Collectables discarded for more rolls? press 0-9" % s["parity"]
        elif step == "power":
            words = "CHARM OFFENSIVE against %s: P with the doggy's power, Enter without" % (
                s["thief"])
        else:
            return self._reveal_prompt()
        return "%s   (%s)" % (words, CANCEL_WORDS)

    def _reveal_prompt(self):
        s = self.state
        places = s["places"]
        cards = self._choices("cards")
        hidden = sum(len(p[0]) for p in places)
        flags = [w for w, on in (("Paw", s["paw"]), ("Poo Pizza", s["poo"])) if on]
        return ("HIDING PLACES of %s (kept secret): %d place%s, %d card%s hidden, %d face up%s. "
                "%s add a card to place %d (%s); Space: next place; 1 Ultimate, 2 face-up "
                "mode%s, 3 Paw, 4 Poo Pizza; Enter sends   (%s)" % (
                    s["who"], len(places), "" if len(places) == 1 else "s", hidden,
                    "" if hidden == 1 else "s", len(s["face_up"]),
                    (", " + listing(flags)) if flags else "",
                    "%s-%s" % (_LETTERS[0], _LETTERS[max(0, len(cards) - 1)]), len(places),
                    ", ".join("%s %s" % (_LETTERS[i], c) for i, c in enumerate(cards[:26])),
                    " (on)" if s["face_mode"] else "", CANCEL_WORDS))

    def more(self, name, text, digit):
        s = self.state
        step = s["step"]
        done = name in CONFIRM
        if step == "who":
            who, prompt = self.player(digit, self._who_words())
            if who is None:
                return None, prompt
            return self._after_who(who)
        if step == "empty":
            deck = {"a": "action", "c": "collectables"}.get(name)
            if deck is not None:
                self.state = None
                return canine.DeckEmpty(0.0, None, deck), None
        elif step == "doggy":
            doggies = self._choices("doggies")
            if digit is not None and 1 <= digit <= min(len(doggies), 9):
                s.update(step="face", doggy=doggies[digit - 1])
        elif step == "face":
            if name == "u" or done:
                self.state = None
                return canine.ChooseDoggy(0.0, s["who"], s["doggy"], name == "u"), None
        elif step == "card":
            card = _CARD_KEYS.get(name)
            if card in ("badger", "squirrel"):
                self.state = None
                return canine.PlayCard(0.0, s["who"], card), None
            if card == "key":
                s["step"] = "parity"
            elif card == "charm":
                s.update(step="who", **{"for": "thief"})
                return None, self.player(None, self._who_words())[1]
        elif step == "parity":
            parity = {"o": "odd", "e": "even"}.get(name)
            if parity in PARITIES:
                s.update(step="discards", parity=parity)
        elif step == "discards":
            if digit is not None:
                self.state = None
                return canine.PlayCard(0.0, s["who"], "key", s["parity"], digit), None
        elif step == "power":
            if name == "p" or done:
                self.state = None
                return canine.PlayCard(0.0, s["who"], "charm", thief=s["thief"],
                                       power=name == "p"), None
        else:
            return self._reveal_key(name, done, digit)
        return None, self.prompt()

    def _after_who(self, who):
        s = self.state
        if s["for"] == "thief":
            s.update(step="power", thief=who)
        elif s["for"] == "play":
            s.update(step="card", who=who)
        elif s["for"] == "doggy":
            s.update(step="doggy", who=who)
        else:
            s.update(step="reveal", who=who, places=[((), False)], face_up=[], paw=False,
                     poo=False, face_mode=False)
        return None, self.prompt()

    def _reveal_key(self, name, done, digit):
        s = self.state
        if done:
            self.state = None
            places = tuple(canine.HidingPlace(cards, ultimate) for cards, ultimate in s["places"]
                           if cards)
            return canine.Reveal(0.0, s["who"], canine.Holdings(
                places, tuple(s["face_up"]), s["paw"], s["poo"])), None
        cards = self._choices("cards")
        index = _LETTERS.find(name) if len(name) == 1 else -1
        if 0 <= index < len(cards):
            if s["face_mode"]:
                s["face_up"].append(cards[index])
            else:
                held, ultimate = s["places"][-1]
                s["places"][-1] = (held + (cards[index],), ultimate)
        elif name == "space":
            s["places"].append(((), False))
        elif digit == 1:
            held, ultimate = s["places"][-1]
            s["places"][-1] = (held, not ultimate)
        elif digit == 2:
            s["face_mode"] = not s["face_mode"]
        elif digit == 3:
            s["paw"] = not s["paw"]
        elif digit == 4:
            s["poo"] = not s["poo"]
        return None, self.prompt()


#: The face's one way in (README "Adding a game"): this game's key mode.
MODE = CanineKeys
