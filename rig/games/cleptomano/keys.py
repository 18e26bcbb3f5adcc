"""The guard's key controls: key names in, rig commands out.  Pure (no pygame, no clock).

The guard drives the match from a keyboard or a cheap USB numeric keypad plugged into the Pi.
Each command is a short key sequence so it can be typed blind from 2 m away:

=================  ==========================================  ===============================
what               keys (defaults)                             command
=================  ==========================================  ===============================
next thief         ``T`` or keypad ``/``, then 1-9             ``Choose(t, "thief", player)``
round's guard      ``G`` or keypad ``*``, then 1-9             ``Choose(t, "guard", player)``
haul               ``L`` or keypad ``+``, paintings 0-2,       ``ConfirmLoot(t, p, r, "guard")``
                   relics 0-3, then Enter
undo last touch    ``U`` or keypad ``-``                       ``UndoTouch(t, by="guard")``
why (after an      a digit 1-5 while the screen asks "Why?"   ``Why(t, reason, by="guard")``
override)          (1 misfire, 2 wrong player, 3 sensor
                   fault, 4 rules dispute, 5 other)
cancel             ``Esc`` or ``Backspace``                    (drops the half-typed sequence)
set-up screen      ``S`` or keypad ``.``, between turns        ``NewMatch(...)``, the wiring
                                                               check (:mod:`.setup_flow`)
unpair phones      ``F8``, then Enter                          ``RevokePhones()``: every phone
                                                               unpaired, a new pairing code
unpair one phone   ``F8``, then its number 1-9 on the screen   ``RevokePhones(name=...)``: its
                                                               seat free (docs/games/phones.md)
host phone         ``F7``, then its number 1-9 (0: none)       ``MakeHost(name=...)``: the
                                                               table's host phone (issue 31)
=================  ==========================================  ===============================

After an override (an undo, a haul counted otherwise than the sensors counted it, by the keys
or a phone) the screen asks why, the reasons one digit each (issue 31): the override is already
made; a digit records its reason, ``Esc`` or any other command leaves it "unspecified".

The digit picks a player by their place in the match's player list (1 = first).  Key names are
pygame's (``pygame.key.name``): ``"t"``, ``"return"``, keypad keys ``"[1]"``, ``"[+]"``,
``"enter"``.  Commands carry ``t=0.0``: the daemon stamps them with its match clock.  Whether a
command is allowed by the rules is the daemon's call (it shows the refusal in ``board.message``);
this module only turns keys into well-formed commands.
"""

from dataclasses import replace
from typing import Dict, Iterable, Optional, Sequence, Tuple, Union

from ...core.errors import ConfigError
from ...core.gamekit import own_view
from ...core.msg import Msg, N_
from .rules.calls import count_paintings, count_relics
from .rules.events import Choose, ConfirmLoot, Role, UndoTouch, Why
from .rules.overrides import REASONS, pick_prompt
from rig.table.names import PAINTINGS, RELICS
from ...core.phones import RevokePhones
from .rules.wiringcheck import SKIP, STOP, CheckWiring
from ...draw.keymodes import (HOST_KEY, HOST_STATE, digit_of, host_choice, host_prompt,
                              paired_phones, pretty_key)
from .setup_flow import SetupFlow

ACTIONS = ("thief", "guard", "loot", "undo", "confirm", "cancel", "setup", "revoke")

MAIN_KEYS: Dict[str, Tuple[str, ...]] = {
    "thief": ("t",), "guard": ("g",), "loot": ("l",), "undo": ("u",),
    "confirm": ("return",), "cancel": ("escape",), "setup": ("s",), "revoke": ("f8",),
}
# A USB numeric keypad works alongside whatever keys are configured (unless a key is taken).
# Unpairing the phones has no keypad key: the keypad is passed around the table.
KEYPAD_KEYS: Dict[str, Tuple[str, ...]] = {
    "thief": ("[/]",), "guard": ("[*]",), "loot": ("[+]",), "undo": ("[-]",),
    "confirm": ("enter",), "cancel": ("backspace",), "setup": ("[.]",), "revoke": (),
}
DEFAULT_BINDINGS: Dict[str, Tuple[str, ...]] = {a: MAIN_KEYS[a] + KEYPAD_KEYS[a]
                                                for a in ACTIONS}

MAX_PAINTINGS = len(PAINTINGS)
MAX_RELICS = len(RELICS)


def normalize_bindings(bindings: Optional[Dict[str, Union[str, Sequence[str]]]] = None,
                       keypad: bool = True) -> Dict[str, Tuple[str, ...]]:
    """The bindings to use: each action's keys from ``bindings`` (one key name or a list; an
    action left out keeps its default key), plus, with ``keypad``, the numeric keypad's keys
    (:data:`KEYPAD_KEYS`) that ``bindings`` does not use for something else.

    Raises :class:`ConfigError` (key = ``keys.ACTION``) for an unknown action, an empty or
    non-text key, a digit (digits choose players and counts), or one key bound to two actions.
    """
    chosen = {a: MAIN_KEYS[a] for a in ACTIONS}
    for action, keys in (bindings or {}).items():
        if action not in ACTIONS:
            raise ConfigError("%r is not a key action; use one of %s"
                              % (action, ", ".join(ACTIONS)), key="keys")
        if isinstance(keys, str):
            keys = (keys,)
        try:
            keys = tuple(keys)
        except TypeError:
            raise ConfigError("%r is not a key name or a list of key names; write e.g. "
                              "\"t\" or [\"t\", \"[/]\"]" % (keys,), key="keys.%s" % action)
        if not keys:
            raise ConfigError("no key is bound; give at least one key name such as \"t\"",
                              key="keys.%s" % action)
        clean = []
        for name in keys:
            if not isinstance(name, str) or not name.strip():
                raise ConfigError("%r is not a key name; use pygame key names such as \"t\", "
                                  "\"return\" or keypad \"[+]\"" % (name,),
                                  key="keys.%s" % action)
            name = name.strip().lower()
            if digit_of(name) is not None:
                raise ConfigError("key %r is a digit; digits 0-9 (and keypad [0]-[9]) are kept "
                                  "for choosing players and counts, bind another key" % name,
                                  key="keys.%s" % action)
            clean.append(name)
        chosen[action] = tuple(clean)
    owner = {}
    for action in ACTIONS:
        for name in chosen[action]:
            if name in owner and owner[name] != action:
                raise ConfigError("key %r is bound to both %r and %r; give each action its own "
                                  "keys" % (name, owner[name], action), key="keys.%s" % action)
            owner[name] = action
    merged = {}
    for action in ACTIONS:
        extra = tuple(k for k in KEYPAD_KEYS[action] if keypad and k not in owner)
        merged[action] = chosen[action] + extra
    return merged


def key_help(bindings: Optional[Dict[str, Union[str, Sequence[str]]]] = None,
             keypad: bool = True, phones: bool = True) -> Tuple[str, ...]:
    """The guard's key bindings as short ``"KEYS: action"`` strings for ``Scoreboard.key_help``
    (``phones`` False: the rig serves no phones, so no key unpairs them)."""
    b = normalize_bindings(bindings, keypad)

    def keys(action):
        return ", ".join(pretty_key(k) for k in b[action])

    confirm = pretty_key(b["confirm"][0])
    return (
        Msg("cleptomano.keys.help_thief", keys=keys("thief")),
        Msg("cleptomano.keys.help_guard", keys=keys("guard")),
        Msg("cleptomano.keys.help_haul", keys=keys("loot"), confirm=confirm),
        Msg("cleptomano.keys.help_undo", keys=keys("undo")),
        Msg("cleptomano.keys.help_cancel", keys=keys("cancel")),
        Msg("cleptomano.keys.help_setup", keys=keys("setup")),
    ) + ((Msg("cleptomano.keys.help_unpair", keys=keys("revoke"), confirm=confirm),)
         if phones else ())


class KeyMapper:
    """Turns the guard's key presses into commands, one key at a time.

    ``feed(key_name)`` returns ``(command, prompt)``: ``command`` is a
    rig.games.cleptomano.rules.events value when a sequence completes (else None); ``prompt`` is the
    text to show while a sequence is half typed (None when nothing is pending, so the screen clears
    the prompt).  Unknown keys are ignored and never lose a half-typed sequence; Esc/Backspace drop
    it.
    """

    def __init__(self, bindings: Optional[Dict[str, Union[str, Sequence[str]]]] = None,
                 players: Iterable[str] = (), keypad: bool = True):
        self.bindings = normalize_bindings(bindings, keypad)
        self._action_of = {k: a for a, keys in self.bindings.items() for k in keys}
        self.players = tuple(players)
        # None, "thief", "guard", "paintings", "relics", "confirm" or "revoke"
        self._state: Optional[str] = None
        self._paintings = 0
        self._relics = 0
        self.flow: Optional[SetupFlow] = None     # the set-up screen, while it is open
        self._board = None                        # the newest snapshot
        self._why_skipped = False                 # Esc said: no reason for this override
        self._why_over = None                     # the message the question may cover

    # -- state -------------------------------------------------------------------------------
    def set_players(self, players: Iterable[str]) -> None:
        """The match's players changed (the shell calls this with each snapshot's list)."""
        self.players = tuple(players)

    def observe(self, board) -> None:
        """The newest snapshot: its players, what the set-up screen starts from, whether the
        wiring check runs.  A turn that starts closes the set-up screen (the countdown
        matters more).  A screen state is read as the scoreboard it carries."""
        board = own_view(board)
        self.set_players(getattr(board, "players", ()))
        wanted = getattr(board, "reason_wanted", None)
        if wanted is None:
            self._why_skipped = False
            self._why_over = None
        elif getattr(self._board, "reason_wanted", None) is None:
            self._why_over = getattr(board, "message", None)     # the override's own call
        self._board = board
        if getattr(board, "phase", None) == "turn":
            self.flow = None

    def setup_view(self):
        """What the set-up screen shows (:class:`~.setup_flow.SetupView`), or None when it is
        closed."""
        return self.flow.view() if self.flow is not None else None

    def look(self):
        """What the keys add to the screen besides their prompt: the set-up screen, while open
        (the face draws again when it changes), else whether the reason an override wants is
        asked."""
        view = self.setup_view()
        return view if view is not None else self.why_asked()

    def why_asked(self):
        """Whether the screen asks the guard why (an override waits for its reason, no other
        sequence is half typed, the guard did not skip it)."""
        return (self._state is None and self.flow is None and not self._why_skipped
                and getattr(self._board, "reason_wanted", None) is not None)

    def shown(self, board, prompt):
        """``(draw, thing)``: the wiring check while one runs, the set-up screen while it is
        open, else the scoreboard with the half-typed key prompt."""
        from .screen import draw
        from .setup_screen import draw_setup, draw_wiring
        board = own_view(board)
        if getattr(board, "wiring", None) is not None:
            return draw_wiring, board
        setup = self.setup_view()
        if setup is not None:
            return draw_setup, replace(setup, faults=tuple(board.faults))
        if not prompt and self.why_asked() and board.message in (None, self._why_over):
            # The question covers the override's own call, never a newer one (a touch, a
            # refusal): that one is shown for its few seconds, then the question again.
            prompt = pick_prompt(pretty_key(self.bindings["cancel"][0]))
        if prompt:
            board = replace(board, message=prompt)
        return draw, board

    def _wiring(self):
        return getattr(self._board, "wiring", None)

    def idle(self):
        """No sequence half-typed, no set-up screen nor wiring check open: a key without a
        binding means nothing to the guard (the simulator's window gives it to the museum)."""
        return self._state is None and self.flow is None and self._wiring() is None

    @property
    def pending(self) -> Optional[str]:
        """The half-typed sequence: None, "thief", "guard", "paintings", "relics", "confirm",
        "revoke"."""
        return self._state

    def prompt(self) -> Optional[str]:
        """The prompt for the sequence in progress (None when idle)."""
        s = self._state
        if s in ("thief", "guard"):
            code = (N_("cleptomano.keys.choose_thief") if s == "thief"
                    else N_("cleptomano.keys.choose_guard"))
            return Msg(code, players=self._player_range(), cancel=self._cancel_name())
        if s == "paintings":
            return Msg("cleptomano.keys.haul_paintings", most=MAX_PAINTINGS,
                       cancel=self._cancel_name())
        if s == "relics":
            return Msg("cleptomano.keys.haul_relics", haul=count_paintings(self._paintings),
                       most=MAX_RELICS, cancel=self._cancel_name())
        if s == "confirm":
            return Msg("cleptomano.keys.haul_confirm", paintings=count_paintings(self._paintings),
                       relics=count_relics(self._relics),
                       key=pretty_key(self.bindings["confirm"][0]), cancel=self._cancel_name())
        if s == HOST_STATE:
            return host_prompt(paired_phones(self._board))
        if s == "revoke":
            phones = self._phones()
            if phones:                  # one seat by its number, or every phone (issue 30)
                return Msg("rig.keys.unpair_one", phones=", ".join(
                    "%d %s" % (i + 1, p) for i, p in enumerate(phones)),
                    key=pretty_key(self.bindings["confirm"][0]), cancel=self._cancel_name())
            return Msg("cleptomano.keys.unpair", key=pretty_key(self.bindings["confirm"][0]),
                       cancel=self._cancel_name())
        return None

    def _phones(self):
        """The phones paired now, as the screen lists them (at most 9: one digit each)."""
        view = getattr(self._board, "phones", None)
        return tuple(getattr(view, "phones", ()) or ())[:9]

    def _cancel_name(self):
        return Msg("cleptomano.keys.cancels", key=pretty_key(self.bindings["cancel"][0]))

    def _player_range(self):
        shown = self.players[:9]
        if not shown:
            return Msg("cleptomano.keys.no_players")
        return ", ".join("%d %s" % (i + 1, p) for i, p in enumerate(shown))

    # -- input -------------------------------------------------------------------------------
    def feed(self, key_name: str, text: Optional[str] = None):
        """One key press (a pygame key name, and the text it types when known) ->
        ``(command or None, prompt or None)``."""
        name = str(key_name).lower() if key_name is not None else ""
        action = self._action_of.get(name)
        digit = digit_of(name)

        if self.flow is not None:
            command, closed = self.flow.feed(name, text, action, digit)
            if closed:
                self.flow = None
            return command, None
        wiring = self._wiring()
        if wiring is not None:
            if action == "cancel" or (action == "confirm" and wiring.done):
                return CheckWiring(0.0, STOP), None
            if action == "confirm":
                return CheckWiring(0.0, SKIP), None
            return None, None
        if action == "setup":
            self._state = None
            if getattr(self._board, "phase", None) == "turn":
                return None, Msg("cleptomano.keys.setup_between_turns")
            self.flow = SetupFlow.from_board(self._board, pretty_key(self.bindings["confirm"][0]),
                                             pretty_key(self.bindings["cancel"][0]))
            return None, None
        if action == "cancel":
            if self.why_asked():
                self._why_skipped = True        # the override stays "unspecified"
            self._state = None
            return None, None
        if self.why_asked() and digit is not None:
            if 1 <= digit <= len(REASONS):
                self._why_skipped = True        # asked once: the rules take it or say why not
                return Why(0.0, REASONS[digit - 1], by="guard"), None
            return None, None
        if action == "undo":
            self._state = None
            return UndoTouch(0.0, by="guard"), None
        if action in ("thief", "guard"):
            self._state = action
            return None, self.prompt()
        if action == "loot":
            self._state = "paintings"
            self._paintings = self._relics = 0
            return None, self.prompt()
        if action == "revoke":
            self._state = "revoke"
            return None, self.prompt()
        if action is None and name == HOST_KEY and self._state is None:
            self._state = HOST_STATE
            return None, self.prompt()

        s = self._state
        if s is None:
            return None, None
        if s in ("thief", "guard"):
            if digit is None:
                return None, self.prompt()
            if not 1 <= digit <= min(len(self.players), 9):
                return None, Msg("cleptomano.keys.no_player", number=digit,
                                 prompt=self.prompt())
            self._state = None
            return Choose(0.0, Role(s), self.players[digit - 1]), None
        if s == "paintings":
            if digit is None:
                return None, self.prompt()
            if digit > MAX_PAINTINGS:
                return None, Msg("cleptomano.keys.only_paintings", most=MAX_PAINTINGS,
                                 prompt=self.prompt())
            self._paintings = digit
            self._state = "relics"
            return None, self.prompt()
        if s == "relics":
            if digit is None:
                return None, self.prompt()
            if digit > MAX_RELICS:
                return None, Msg("cleptomano.keys.only_relics", most=MAX_RELICS,
                                 prompt=self.prompt())
            self._relics = digit
            self._state = "confirm"
            return None, self.prompt()
        if s == "confirm":
            if action == "confirm":
                self._state = None
                return ConfirmLoot(0.0, self._paintings, self._relics, by="guard"), None
            return None, self.prompt()
        if s == HOST_STATE:
            command = host_choice(paired_phones(self._board), digit)
            if command is None:
                return None, self.prompt()
            self._state = None
            return command, None
        if s == "revoke":
            if action == "confirm":
                self._state = None
                return RevokePhones(), None
            phones = self._phones()
            if digit is not None and 1 <= digit <= len(phones):
                self._state = None
                return RevokePhones(name=phones[digit - 1]), None
            return None, self.prompt()
        self._state = None  # unreachable; keeps a corrupted state from sticking
        return None, None


class CleptomanoKeys(KeyMapper):
    """The guard's keys as the face makes every game's key mode: ``MODE(bindings, keypad)``."""

    def __init__(self, bindings=None, keypad=True):
        super().__init__(bindings, (), keypad)


#: The face's one way in (README "Adding a game"): Cleptómano's key mode.
MODE = CleptomanoKeys
