"""The keys of the companion games: key names in, game commands out.  Pure (no pygame, no clock).

Each game has a mode (:func:`mode_for`), used by the display's :class:`~rig.display.face.Face`
when the host shows a :class:`~rig.core.gamekit.GameScreen`.  As with Cleptómano's keys
(:mod:`rig.display.keys`), a command is a short sequence typed blind, its commands carry
``t=0.0`` (the host stamps them), Esc or Backspace drops a half-typed sequence, and whether a
command is allowed is the game's call: the host shows a refusal's reason on the screen.  A
digit picks a player by their place in the player list (1 = first); ``H`` shows the game's
keys, ``Tab`` the phones' QR code and pairing code.

Secret input (Stolen Paintings' steal and marks, Canine Kleptomaniacs' Hiding Places) can be
typed at the rig; the prompt then shows how many were chosen, never which (the phone companion
is where secrets belong).
"""

from typing import Optional

from ..games.canine import rules as canine
from ..games.chest_heist import rules as ch
from ..games.stolen_paintings import rules as sp
from ..games.canine.rules.dice import CARDS, PARITIES
from ..games.stop_thief.rules import events as st
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


def _toggle(chosen, digit, least, most):
    if digit is not None and least <= digit <= most:
        return tuple(sorted(set(chosen) ^ {digit}))
    return chosen


def _numbers(chosen):
    return listing(map(str, chosen)) or "none yet"


# --- Stop Thief! ---------------------------------------------------------------------------------

class StopThiefKeys(Mode):
    KEYS = {"c": "clue", "space": "clue", "[+]": "clue", "r": "replay", "[.]": "replay",
            "a": "arrest", "[*]": "arrest", "n": "end", "[-]": "end"}
    HELP = ("C, Space, Num+: get a clue", "R, Num.: replay the clue",
            "A, Num*, then the space, Enter: arrest", "N, Num-: end the turn", "Esc: cancel")

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
        return "ARREST on space: %s   (type the number, Enter arrests; %s)" % (
            self.state or "_", CANCEL_WORDS)

    def more(self, name, text, digit):
        if digit is not None and len(self.state) < 3:
            self.state += str(digit)
        elif name in CONFIRM and self.state:
            space, self.state = int(self.state), None
            return st.Arrest(0.0, space), None
        return None, self.prompt()


# --- Stolen Paintings ----------------------------------------------------------------------------

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
                    "Enter sends (final)   (%s)" % (who, _numbers(chosen), CANCEL_WORDS))
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
        self.state = (what, who, _toggle(chosen, digit, 1, 8))
        return None, self.prompt()


# --- The chest heist -------------------------------------------------------------------------------

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
            words = "REROLL which dice? 1-5 toggles: %s. Enter rerolls" % _numbers(self.dice)
        elif s == "box":
            words = ("TICK which box? type it (11, P, I, x2, x2:6, or r2c3 with a sheet): %s. "
                     "Enter" % (self.text or "_"))
        elif s == "dice":
            words = "TICK %s with dice (1-5 toggles): %s. Enter" % (self.box,
                                                                   _numbers(self.dice))
        elif s == "skimmers":
            words = "TICK %s: add skimmers? 1-3 toggles: %s. Enter ticks" % (
                self.box, _numbers(self.skimmers))
        elif s == "skimmer":
            words = "CHARGE which skimmer? press 1-3"
        elif s == "charge":
            words = "CHARGE skimmer %d with dice (1-5 toggles): %s. Enter" % (
                self.skimmer, _numbers(self.dice))
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
            self.skimmers = _toggle(self.skimmers, digit, 1, 3)
        elif done and s == "dice":
            self.state = "skimmers"
        elif done and self.dice:
            command = (ch.Reroll(0.0, None, self.dice) if s == "reroll"
                       else ch.Charge(0.0, None, self.skimmer, self.dice))
        else:
            self.dice = _toggle(self.dice, digit, 1, 5)
        if command is not None:
            self.state = None
            return command, None
        return None, self.prompt()


# --- Canine Kleptomaniacs --------------------------------------------------------------------------

_CARD_KEYS = {"k": "key", "b": "badger", "s": "squirrel", "c": "charm"}
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class CanineKeys(Mode):
    KEYS = {"d": "draw", "[+]": "draw", "r": "roll", "space": "roll", "[.]": "roll",
            "p": "play", "[*]": "play", "o": "doggy", "e": "empty", "[-]": "empty",
            "v": "reveal", "[/]": "reveal"}
    HELP = ("D, Num+: an Action card drawn", "R, Space, Num.: roll the die",
            "P, Num*, a player, K/B/S/C: play Key, Badger, Squirrel, Charm",
            "O, a player, a doggy: the doggy taken", "E, then A or C: a pile ran out",
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


MODES = {"stop-thief": StopThiefKeys, "stolen-paintings": StolenPaintingsKeys,
         "chest-heist": ChestHeistKeys, "canine": CanineKeys}


def mode_for(game: str) -> Optional[Mode]:
    """A fresh key mode for the game named ``game`` (None for a name no mode knows)."""
    cls = MODES.get(game)
    if cls is None:
        return None
    mode = cls()
    mode.game = game
    return mode


def key_help(game: str):
    """The game's keys as short ``"KEYS: action"`` strings (the screen's help, the README)."""
    cls = MODES.get(game)
    return cls.HELP if cls is not None else ()


def primary(game: str):
    """The command Space gives in the game named ``game`` (its main action: get a clue, start
    the exhibition, roll): what a press of the museum's start button gives too.  None for a
    name no mode knows."""
    mode = mode_for(game)
    if mode is None:
        return None
    command, _ = mode.begin(mode.KEYS["space"])
    return command
