"""Canine Kleptomaniacs' keys at the rig: cards drawn and played, the die, doggies, an empty pile,
a player's Hiding Places (kept secret: the prompt counts them, never shows which).

Pure (no pygame, no clock); the machinery is :class:`rig.draw.keymodes.Mode`.  Every prompt
is a code (:class:`rig.core.msg.Msg`) the screen says in the table's language; the keys
themselves (K, B, S, C, O, E, U, P...) stay the same in every language.
"""

from ...core.msg import Msg, N_
from ...draw.keymodes import CANCEL_WORDS, CONFIRM, Mode
from . import rules as canine
from .rules.cards import PAW, POO_PIZZA, card_name
from .rules.dice import PARITIES, parity_word


_CARD_KEYS = {"k": "key", "b": "badger", "s": "squirrel", "c": "charm"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Who a player key picks, by what it is for.
_WHO = {"play": N_("canine.keys.who_plays"), "doggy": N_("canine.keys.who_took_doggy"),
        "reveal": N_("canine.keys.whose_hiding_places"), "thief": N_("canine.keys.who_steals")}


class CanineKeys(Mode):
    KEYS = {"d": "draw", "[+]": "draw", "r": "roll", "space": "roll", "[.]": "roll",
            "p": "play", "[*]": "play", "o": "doggy", "e": "empty", "[-]": "empty",
            "v": "reveal", "[/]": "reveal"}
    HELP = (Msg("canine.keys.help_draw"), Msg("canine.keys.help_roll"),
            Msg("canine.keys.help_play"), Msg("canine.keys.help_doggy"),
            Msg("canine.keys.help_empty"), Msg("canine.keys.help_reveal"),
            Msg("canine.keys.help_cancel"))

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
        return Msg(_WHO[self.state["for"]])

    def prompt(self):
        s = self.state
        step = s["step"]
        if step == "empty":
            words = Msg("canine.keys.which_pile")
        elif step == "doggy":
            doggies = tuple(Msg("canine.keys.numbered", number=i + 1, name=card_name(d))
                            for i, d in enumerate(self._choices("doggies")[:9]))
            words = Msg("canine.keys.which_doggy", player=s["who"], doggies=doggies)
        elif step == "face":
            words = Msg("canine.keys.doggy_face", doggy=card_name(s["doggy"]), player=s["who"])
        elif step == "card":
            words = Msg("canine.keys.which_card", player=s["who"])
        elif step == "parity":
            words = Msg("canine.keys.key_parity")
        elif step == "discards":
            words = Msg("canine.keys.key_discards", parity=parity_word(s["parity"]))
        elif step == "power":
            words = Msg("canine.keys.charm_power", thief=s["thief"])
        else:
            words = self._reveal_prompt()
        return Msg("canine.keys.with_cancel", prompt=words, cancel=CANCEL_WORDS)

    def _reveal_prompt(self):
        s = self.state
        places = s["places"]
        cards = self._choices("cards")
        hidden = sum(len(p[0]) for p in places)
        held = tuple(card_name(name) for name, on in ((PAW, s["paw"]), (POO_PIZZA, s["poo"]))
                     if on)
        return Msg(
            "canine.keys.hiding_places", player=s["who"], places=Msg("canine.keys.places",
                                                                      n=len(places)),
            hidden=Msg("canine.keys.hidden", n=hidden),
            face_up=Msg("canine.keys.face_up_count", count=len(s["face_up"])),
            held=Msg("canine.keys.held", cards=held) if held else "",
            letters="%s-%s" % (_LETTERS[0], _LETTERS[max(0, len(cards) - 1)]),
            place=len(places),
            cards=tuple(Msg("canine.keys.lettered", letter=_LETTERS[i], name=card_name(c))
                        for i, c in enumerate(cards[:26])),
            mode=Msg("canine.keys.on") if s["face_mode"] else "")

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
