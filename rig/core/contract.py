"""The contract every game of the rig answers, Cleptómano first: declared once, here.

The registry (:mod:`rig.games`) lists the games; each game is one folder
(``rig/games/<game>/``) whose package exposes ``GAME``, an object answering :class:`Game`.
The host, the faces, ``cleptomano replay``, ``history``, the game night and the phones know a
game only through this contract, never by its name.

The conventions the rules of every game keep (its ``rules/`` folder, pure like the rest of
:mod:`rig.core`):

* **State** is frozen dataclasses; :meth:`Game.new_game` makes the first one from the game's
  settings (validated there, each error naming the value, what is allowed and the fix).
* **Commands** are frozen dataclasses carrying ``t`` (seconds since the recording began) and
  ``by`` (who sent it: a player's or a phone's name, or None).  :meth:`Game.step` returns
  ``(state, effects)``; a command the rulebook forbids raises
  :class:`~rig.core.errors.IllegalMove` with the reason, and the caller keeps its old state.
  A timed phase says its :meth:`Game.deadline` and advances on the game's :meth:`Game.tick`
  command: nothing in a game reads a clock.
* **Chance** is seeded: the recording's header holds the seed, and the n-th draw of a game is a
  pure function of (seed, n), so a replay rolls the same dice.
* **Effects** are frozen values (what happened, never sentences); :meth:`Game.words` turns one
  into words, in one place a game.  What the table hears is decided here too: the effects a
  step returns include a :class:`~rig.core.effects.Sound` for each sound to play.  The host
  performs only the shared effects of :mod:`rig.core.effects`; :meth:`Game.table_effects`
  turns a step's own effects into those.
* **Views**: :meth:`Game.view` is what the table's screen may show (never a secret);
  :meth:`Game.player_view` adds what that player's own phone may show.  Both are JSON-ready
  dicts.  :meth:`Game.secrets` says what of a state is secret, and whose, so that one test
  (tests/test_contract.py) proves of every game that no view shows what it must not.
* **Recordings** are JSON Lines: a header ``{"recording": GAME, "version": 1, ...settings,
  "seed": N}`` then one command a line; :meth:`Game.replay` re-plays them and returns the
  result as a JSON-ready dict, raising :class:`~rig.core.errors.RecordingError` naming the line
  for bad input.
* **How it ended** is one :class:`Outcome` for every game.
* **The phones** (:mod:`rig.web`, one page and one API for every game) read a game through the
  names of the group "the phones" below: its snapshot as JSON, which commands a phone may
  send and as whom, a pure check a phone may ask for, a recording's entry in the listings and
  when the game night may not switch away (docs/games/phones.md).

Beyond ``GAME``, a game's folder may hold **parts**: modules the faces, the config loader, the
tournament's link and the tools load through the registry (:func:`rig.games.part`), each
answering one interface declared below (:data:`PARTS`: :class:`Screen`, :class:`Keys`,
:class:`Sounds`, :class:`Samples`, :class:`Settings`, :class:`Crash`, :class:`Commands`,
:class:`Tournament`), and the data file ``phone.js`` (:data:`PHONE_JS`).  Every part is
optional; a game without one is simply not drawn, keyed, heard... by that face.

**Checked when it registers** (as pluggy checks a plugin's hooks against their specs when it
is registered): :mod:`rig.games.checks` compares ``GAME`` with :class:`Game` (every attribute
there, of its kind; every method there, callable with the declared arguments) and each part
with its interface, and refuses a game that does not answer with one
:class:`~rig.core.errors.ConfigError` naming the game, everything it lacks and the fix.
Everything here is declaration: the names, the kinds and what each is for; this module checks
nothing itself (the core stays pure: the checks need :mod:`inspect`).
"""

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Optional, Protocol, Sequence, Tuple, runtime_checkable


@dataclass(frozen=True)
class Outcome:
    """How a game ended, or how it stands: the same value for every game (as python-chess's
    ``Outcome``).  ``over`` whether it has ended; ``winners`` who won (none while it runs, and
    none for a game that ended without one); ``scores`` each player with their score, in the
    game's own order of standing; ``code`` the game's word for the way it ended or stands
    (``"won"``, ``"unfinished"``, ...), and ``detail`` what that code's words need, as
    ``(name, value)`` pairs.  Words come from the game (:meth:`Game.outcome_words`), never from
    here."""
    over: bool
    winners: Tuple[str, ...] = ()
    scores: Tuple[Tuple[str, Any], ...] = ()
    code: str = ""
    detail: Tuple[Tuple[str, Any], ...] = ()

    def get(self, name, default=None):
        """One of the ``detail`` values by its name."""
        return dict(self.detail).get(name, default)


@runtime_checkable
class Game(Protocol):
    """What a game answers.  Every method is pure (the host owns the clock, the files and the
    threads); ``state`` is the game's own frozen value."""

    #: The command-line name (``cleptomano run --game NAME``), the night's and the phones'.
    name: str
    #: Shown on the screen, the phones and in ``history``.
    title: str
    #: The title a player reads, a :class:`~rig.core.msg.Msg` of the game's catalog said in
    #: each reader's language (:func:`rig.games.title_words`); None: ``title`` is a proper name,
    #: the same in every language.
    title_msg: Optional[Any]
    #: The recording header's ``"recording"`` value (how ``replay`` knows the game).
    recording: str
    #: The recording file's name starts with this (``stop-thief-20261201-201500.jsonl``).
    prefix: str
    #: The fewest and most players; a solo game is played by its first player alone.
    min_players: int
    max_players: int
    #: The largest seed + 1 the host may draw for the header.
    seed_bound: int
    #: Whether the game hides something while it runs (a secret, or dice not rolled yet): its
    #: recording, seed and replay reach the phones only once it is over.
    hides: bool
    #: Commands that carry a player's secret (a ballot, a hand): a refusal's reason goes to
    #: that player's phone alone, the table hears only whose entry was refused.
    secret_commands: Tuple[type, ...]
    #: Commands still taken once :meth:`over` says the game is over: a correction of what was
    #: played (Cleptómano's guard's haul count, a touch undone: the outcome may then change),
    #: the set-up of the next game (its new match); every other command is refused then.
    taken_when_over: Tuple[type, ...]
    #: The game's screen lists the calls itself (else the host shows the last one a while).
    shows_calls: bool
    #: The rig config's table of this game (``[stop_thief]``: ``"stop_thief"``), an attribute
    #: of the loaded config; its folder's ``settings`` part declares it (:class:`Settings`).
    #: ``""``: the game has no settings of its own.
    section: str
    #: Whether :meth:`replay` takes a recording's lines as they are read (an iterable: its
    #: first bad line is the one it names, before a later line is even read); False: it is
    #: handed them all, as a list.
    streams_replay: bool
    #: One player: the first of the list plays (the host, the night's list of games).
    solo: bool
    #: Example commands (JSON, never words) for the API's answer to a command it cannot read.
    example: str
    #: The table's inputs (``button``, ``laser.4``, ``tof``, ``relic.1.tilt``...) whose changes
    #: the game's :meth:`step` takes, each made a command by :meth:`reading` and recorded as
    #: any other; empty: the game reads none (the host debounces the start button into the
    #: game's primary command instead).  A game that reads some is played at the table
    #: (:func:`rig.games.at_table`): on a host given the table's pins it is refereed at their
    #: pace, its matches listed as the museum's (:class:`rig.shell.host.Host`).
    table_inputs: Tuple[str, ...]

    def new_game(self, players: Sequence[str], seed: int, settings: Any = None) -> Any:
        """The first state; ``settings`` the game's config section (None: every default)."""

    def header(self, state) -> dict:
        """The recording's first line."""

    def reading(self, t: float, name: str, value: float) -> Any:
        """The command a change of the table input ``name`` (one of :attr:`table_inputs`) to
        ``value`` at ``t`` is, for :meth:`step` and the recording; None: the game does not
        read it."""

    def reflex_inputs(self, state) -> frozenset:
        """The table inputs (of :attr:`table_inputs`) whose active edge may sound the buzzer at
        once now, before the rules have spoken: the host arms the table's touch-to-buzzer
        reflex with them after every step (Cleptómano: the rods in play while a turn runs).
        :class:`rig.games.base.GameBase`'s default: none."""

    def step(self, state, command) -> Tuple[Any, tuple]:
        """``(new state, effects)``, or IllegalMove (a RulesError) with the reason."""

    def step_owned(self, state, command) -> Tuple[Any, tuple]:
        """:meth:`step` on a ``state`` the caller gives up (it keeps no reference to it): the
        same result, but the game may change that state in place rather than copy it (the
        host steps the table's inputs and the ticks so, on the touch-to-buzzer path).
        :class:`rig.games.base.GameBase`'s default is :meth:`step`."""

    def line(self, command, state, effects) -> Optional[dict]:
        """The recording line of an accepted ``command`` (``state`` after it); None: none."""

    def end_line(self, t: float) -> Optional[dict]:
        """The line a clean stop writes last, or None when the game writes none."""

    def deadline(self, state) -> Optional[float]:
        """When the game must be ticked next (seconds since it began), or None."""

    def tick(self, t: float) -> Any:
        """The command that moves a timed phase on at ``t``."""

    def view(self, state, now_t: Optional[float] = None) -> dict:
        """The table's view: never a secret."""

    def player_view(self, state, player: str, now_t: Optional[float] = None) -> dict:
        """``player``'s own view: their secrets only; IllegalMove for someone not playing."""

    def secrets(self, state) -> Tuple[Tuple[Optional[str], Any], ...]:
        """What of ``state`` no screen may show now, as ``(owner, value)`` pairs: ``owner`` the
        one player whose own view may show it (None: nobody's, as the thief's whereabouts),
        ``value`` JSON-ready, in the shape a view would carry it (a list, a string, a dict:
        never a bare number, which a view may hold for another reason).  Neither
        :meth:`view` nor another player's :meth:`player_view` may hold it.  Empty for a game
        without secrets (:class:`rig.games.base.GameBase`'s default)."""

    def words(self, effect) -> Optional[str]:
        """An effect in words (None: it says nothing)."""

    def table_effects(self, state, t: float, effects: tuple) -> Iterable:
        """The effects a step returned (``state`` the state after it, ``t`` the command's time)
        as the host's shared effects (:mod:`rig.core.effects`: buzz, lamp, sound, say, banner,
        message, fault, sync, next game), in the order the host performs them.  The host knows
        no game's own effects: this is where a game says what its effects make happen.  Any
        iterable: a generator's first effects (the buzzer) are performed before the rest are
        built.  :class:`rig.games.base.GameBase`'s default says each effect's :meth:`words`, plays its
        sounds and shows the last words a while."""

    def over(self, state) -> bool:
        """Whether nothing more can be played."""

    def result(self, state) -> dict:
        """The live game's result, in the shape its replay prints."""

    def outcome(self, result: dict) -> Outcome:
        """A result (live or replayed) as the one :class:`Outcome`."""

    def outcome_words(self, outcome: Outcome) -> str:
        """An outcome as ``history`` and the after-game say it."""

    def players_in(self, result: dict) -> Tuple[str, ...]:
        """Who played the game a result is of."""

    def parse_command(self, obj: dict) -> Any:
        """A phone's command (a recording line without ``t`` and ``by``), or RecordingError."""

    def command_from_json(self, obj: dict) -> Any:
        """A phone's command as ``POST /api/game/command`` receives it: ``obj`` without ``t``
        and ``by`` (the host stamps the one, the paired phone is the other) nor what the rig
        answers on that line; RecordingError naming what is wrong (GameBase's checks and then
        calls :meth:`parse_command`)."""

    def board(self, state) -> Any:
        """What the game's screen draws beside :meth:`view` (None: the view is enough)."""

    def choices(self, state) -> Any:
        """The choices the keys may offer now (None: none)."""

    def map_json(self, state) -> Optional[dict]:
        """The game's board map for the phones (JSON-ready), or None for a game without one."""

    def replay(self, lines, path=None) -> dict:
        """Re-play a recording's lines (the header first); its result."""

    def restore(self, lines, path=None) -> Any:
        """The state a recording's lines leave, as :meth:`replay` plays them (the host resumes
        an unfinished game from it: the same ``step`` calls, so exactly where it was)."""

    # What the host asks of the match it runs at the table (rig.shell.daemon; the defaults
    # in rig.games.base say "not this game's": a game without them runs on the game host).
    def new_match(self, players, level, first_thief, detect) -> Any:
        """The state of a match of ``players`` at ``level`` (its first thief or None), with
        the ``[detect]`` settings."""

    def match_header(self, set_up, players, level, first_thief, detect, rig=None) -> Any:
        """The header (``to_json()``) of a new match's recording: from the command ``set_up``
        that set it up (None: from its players, level and first thief)."""

    def opened_words(self, players, level, path) -> Any:
        """The log's line (a code) for a match opened with its recording at ``path``."""

    def closed(self, state) -> bool:
        """Whether the match was closed (by the next one): it takes nothing more."""

    def set_up_of(self, state) -> tuple:
        """``(players, level, first_thief)`` of the match ``state`` (a resumed one)."""

    def match_decided(self, state) -> bool:
        """Whether the match's result is settled."""

    def live_result(self, state, t: float) -> dict:
        """The result of the match running at ``t`` (the replay output's shape)."""

    def sounds_at_once(self, state, command) -> bool:
        """Whether an input change held back by the pins' edge delay buzzes at once."""

    def foresee_at(self, state) -> Optional[float]:
        """When to work out the turn's end ahead (the host does ``FORESEE_S`` before), or None."""

    def foresee(self, state) -> None:
        """Work out the turn's end ahead on ``state`` (so its buzz waits only for its line)."""

    def refused(self, t: float, error) -> Any:
        """The game's effect of a command refused at ``t`` with ``error`` (a code)."""

    def host_words(self, moment: str, params: dict) -> Any:
        """The words (a :class:`~rig.core.msg.Msg` of the game's catalog) the host says for
        one of its own moments at this game's table, one of :data:`HOST_MOMENTS` with its
        ``params`` (a dict); None: the host says nothing then."""

    def refusal_words(self, effect) -> Any:
        """The answer's words for a refusal effect."""

    def fault_effect(self, t: float, source: str, words, active: bool) -> Any:
        """A device's fault (or its clearing) as the game's effect."""

    def table_fault(self, t: float, source: str, words, active: bool) -> Any:
        """The same as a shared :class:`rig.core.effects.Fault`."""

    def device_change(self, t: float, device: str, state: str) -> Any:
        """A table device (``hub``, ``tof``) ``lost``, ``back`` or ``reinit`` at ``t`` as the
        item the host records (before anything acts on it) and steps the game with, for the
        audits (docs/audits31.md); None: the game records no device lines."""

    def state_faults(self, state) -> tuple:
        """The faults the match itself sees (a stuck contact), in words."""

    def input_values(self, state) -> dict:
        """The table inputs' values as the match believes them."""

    def carried_inputs(self, state) -> dict:
        """The inputs (not on pins) a next match takes over from this one."""

    def correcting_player(self, state) -> Optional[str]:
        """Whose name a correction from the keypad (``by`` "guard") is recorded under."""

    def playing(self, state) -> Optional[str]:
        """Who plays a turn now (None between turns)."""

    def screen_state(self, state, now_t: float, faults=(), banner=None, message=None,
                     key_help=(), roster=(), wiring=None) -> Any:
        """The screen's snapshot at ``now_t``, with the host's ``faults``, ``banner``,
        ``message``, ``key_help``, ``roster`` and ``wiring``."""

    #: The wiring check the keys run on the screen: its command type and its two actions.
    check_command: Optional[type]
    check_start: Optional[str]
    check_stop: Optional[str]

    def new_wiring_check(self, config, hand: bool, relics: bool, timeout_s: float) -> Any:
        """The wiring check of ``config``'s pins, the hand sensor if ``hand``, the relics if
        ``relics`` (``begin``, ``feed``, ``expire``, ``skip``, ``prompt``, ``summary``...)."""

    def check_words(self, lines) -> Any:
        """The wiring check's summary lines as sentences."""

    # A recording the host's files read and write item by item (a game whose ``line`` alone
    # does not say it: Cleptómano's; the defaults in rig.games.base say "not this game's").
    def read_recording(self, lines, path=None) -> Tuple[Any, list]:
        """A recording's lines as ``(header, items)``; RecordingError naming the line."""

    def parse_line(self, obj: dict, line: int = 0) -> Any:
        """One recording line's JSON value as its item."""

    def item_line(self, item) -> str:
        """The text (no newline) of one item's recording line."""

    def end_item(self, t: float) -> Any:
        """The item of the line that ends a recording at ``t`` (None: see ``end_line``)."""

    def follow(self, path) -> Any:
        """A recording read as it grows: ``feed(text)`` each whole line, ``header``, ``done``
        (its match ended), ``number``, ``end_t`` and ``result()`` (the replay so far)."""

    def pick_resume(self, store, directory, players, level) -> Optional[tuple]:
        """Which unfinished recording in ``directory`` a start of this set-up takes up:
        ``(path, state, torn)``, or None.  ``store`` is the shell's recordings module (the
        game opens no file itself)."""

    def restart_item(self, state) -> Any:
        """The item a recording taken up by ``pick_resume`` goes on with."""

    # --- the phones (rig.web): every game served by one page, one face, one API ------------
    #: The command types a phone may send (None: every command :meth:`parse_command` reads).
    phone_commands: Optional[Tuple[type, ...]]
    #: Whether a phone commands as the player its name names (its seat: ``by`` is that
    #: player, a phone no player's is refused, ``GET /api/game/me`` is its view), or as itself
    #: (False: ``by`` is the phone's name, whoever holds it, as Cleptómano's guard's phone).
    seated_phones: bool
    #: Pure checks a phone may ask of the game, nothing recorded: ``(name, keys, answer)``,
    #: each served as ``POST /api/<name>`` with a JSON object of ``keys``;
    #: ``answer(obj, english)`` returns the JSON-ready answer (``english(msg)`` gives a code's
    #: English words) or raises RequestError.
    phone_checks: Tuple[Tuple[str, Tuple[str, ...], Callable], ...]

    def phone_json(self, screen) -> dict:
        """The host's screen state ``screen`` as the phones read it (``GET /api/state``, the
        pushes): JSON-ready, its codes as :class:`~rig.core.msg.Msg` or their JSON, never the
        pairing code nor a secret."""

    def same_snapshot(self, a, b) -> bool:
        """Whether the phones would show screen states ``a`` and ``b`` alike (then ``b`` is not
        pushed)."""

    def switch_refusal(self, screen, end: bool) -> Optional[Any]:
        """Why the game night may not switch away from this game now, as ``screen`` (None:
        none shown yet) shows it, as a :class:`~rig.core.msg.Msg`, or None; ``end``: the phone
        asks to end a game in progress."""

    def recording_entry(self, result: dict, finished: bool, live: bool = False) -> Optional[dict]:
        """A recording's entry in the phones' listings beside its id and date (JSON-ready):
        ``result`` its replay, ``finished`` whether its end line was written, ``live`` whether
        it is the recording being written now; None leaves it out of the listing (a match
        nobody played)."""

#: The host's own moments a game words (:meth:`Game.host_words`), each with its parameters:
#: a match taken up again (``path``), every phone unpaired from the keys, the wiring check
#: started, one of its lines (``line``), its end (``summary``), refused while a turn runs
#: (``thief``), the recording working again, and how the recording stands while the disk
#: fails (lines kept: ``n``, ``span_s``; held: ``error``, ``kept``, ``room``; full: ``error``,
#: ``kept``, ``n``).
HOST_MOMENTS = ("resumed_from", "phones_unpaired", "wiring_started", "wiring_line",
                "wiring_done", "wiring_waits", "recording_works", "recording_kept",
                "recording_held", "recording_full")


# --- The parts of a game's folder -------------------------------------------------------------

class Screen(Protocol):
    """``screen.py``: the game on the table's screen (loaded by :mod:`rig.display` only)."""

    def draw_screen(self, surface, snapshot, now_s=None) -> None:
        """Draw ``snapshot`` (a :class:`rig.core.gamekit.GameScreen` whose ``view`` is
        :meth:`Game.view`) onto the pygame ``surface``; ``now_s`` the screen's clock."""


class Keys(Protocol):
    """``keys.py``: the game at the rig's keys."""

    #: The key mode's class (a :class:`rig.draw.keymodes.Mode` subclass), made as
    #: ``MODE(bindings, keypad)`` with the rig's ``[keys]`` and the display's keypad option; its
    #: ``HELP`` the keys' help lines, its ``KEYS`` what each key begins.
    MODE: type

    def key_help(self, bindings=None, keypad=True, phones=True) -> Tuple[str, ...]:
        """Optional: the keys' help lines with the rig's ``[keys]`` ``bindings`` (a dict),
        ``keypad`` whether the keypad's keys are named, ``phones`` whether the key that unpairs
        the phones is (the museum's game's, Cleptómano's: ``cleptomano run`` shows them)."""


class Sounds(Protocol):
    """``sounds.py``: what the game's table hears beyond the rig's own sounds."""

    #: Optional: sound name -> the catalog code said aloud when that sound plays (the voice).
    SPOKEN: Dict[str, str]
    #: Optional: the codes the voice should render ahead of time.
    SPOKEN_AHEAD: Tuple[str, ...]

    def extra_sounds(self) -> Dict[str, Callable]:
        """The game's own sounds: name -> ``make(sample_rate)`` returning the samples."""


class Samples(Protocol):
    """``samples.py``: the game's sample screens (``cleptomano screenshot``, the docs' pictures,
    the legibility tests)."""

    #: Every sample's name, unique across the registry (``coin-heist-won``).
    SHOTS: Tuple[str, ...]

    def shot(self, name: str) -> Tuple[Callable, Any]:
        """``(draw, thing)`` for the sample ``name``: ``draw(surface, thing)`` draws it."""


class Settings(Protocol):
    """``settings.py``: the game's table of the rig config (``rig.toml``)."""

    #: A :class:`rig.core.settings.Section` whose ``name`` is :attr:`Game.section`: its keys,
    #: kinds, defaults and doc lines, from which the loader reads the table, the example config
    #: and the configuration reference are made (``python -m rig.configdocs``).
    SECTION: Any


class Crash(Protocol):
    """``crash.py``: the game's scripted game for the crash tests (``python -m sim.gamecrash``,
    the kill sweep): pure, built by stepping the game's own rules."""

    def script(self) -> Tuple[Sequence[str], int, Sequence[Tuple[float, Callable]]]:
        """``(players, seed, moves)``: each move ``(t, make)``, ``make(state)`` the command
        to give at ``t`` seconds of the game's clock (its ``t`` is replaced by the host's)."""


class Commands(Protocol):
    """``commands.py``: the game's own subcommands of ``cleptomano`` (their options are the
    command line's, declared in :mod:`rig.cli`; the part gives what they do)."""

    #: subcommand name -> ``run(args, say)``: ``args`` the parsed options, ``say(line)`` prints
    #: one line; returns the exit status.  RigError for bad input.
    COMMANDS: Dict[str, Callable]


class Tournament(Protocol):
    """``tournament.py``: the game a tournament carries (Cleptómano's matches): what a match
    message holds of the match, how it is checked, and the standings made of them
    (:mod:`rig.links` and ``cleptomano leaderboard`` reach it through the registry,
    :func:`rig.games.tournament`).  The topics and a message's envelope are no game's:
    :mod:`rig.core.tournament`."""

    #: One version of one rig's match (``rig``, ``match_id``, ``size``, ``sha256``, ``closed``,
    #: ``header``, ``result``, ``recording``; ``key``, ``decided``), as the standings take it.
    MatchRecord: type
    #: What the leaderboard shows of a rig's live snapshot (``rig``, ``board``).
    Live: type

    def parse_message(self, topic: str, payload: bytes) -> Any:
        """A message from the broker, checked: a :class:`rig.core.tournament.Status`, a
        ``Live`` or a ``MatchRecord`` (its embedded recording re-refereed); PayloadError naming
        the topic and what is wrong."""

    def from_kept(self, obj: dict) -> Any:
        """A ``MatchRecord`` the leaderboard kept (:func:`rig.core.tournament.kept_json`),
        checked again; PayloadError otherwise."""

    def decided(self, result: dict) -> bool:
        """Whether a match (its replay output) counts in the standings."""

    def standings(self, records, statuses=(), lives=()) -> dict:
        """The standings (JSON-ready) from the matches' records, the rigs' statuses and lives."""

    def replay(self, header, items, path=None) -> dict:
        """A recording's header and items (:func:`rig.shell.storage.read`) re-refereed: its
        replay output."""

    def ends_match(self, item) -> bool:
        """Whether a recording's item closes its match (its end, or a new match)."""

    def live(self, board) -> dict:
        """What a rig publishes live of its screen's snapshot ``board`` (JSON-ready)."""


#: Every part a game's folder may hold: module name -> its interface.
PARTS = {"screen": Screen, "keys": Keys, "sounds": Sounds, "samples": Samples,
         "settings": Settings, "crash": Crash, "commands": Commands, "tournament": Tournament}

#: Names of a part that a game may leave out (the face then does without them).
OPTIONAL = {"sounds": ("SPOKEN", "SPOKEN_AHEAD"), "keys": ("key_help",)}

#: ``phone.js``, the game's part of the one phone page (served as ``/games/phone/<name>.js``,
#: with the folder's optional ``phone.html`` and ``phone.css``: docs/games/phones.md): a script that
#: registers, under the game's command-line name, ``window.GamePhones[name] = (kit) => ...``
#: (what the page shows of the running game, made with the page's kit) and, optionally,
#: ``window.GameCommands[name]`` (the bodies its buttons send).  Its words are codes of the
#: game's catalogs, said with ``t(code, params)``.
PHONE_JS = "phone.js"
#: What a ``phone.js`` must name (checked when the game registers; ``GameCommands`` is
#: optional: a game whose page builds its bodies itself leaves it out).
PHONE_JS_NAMES = ("window.GamePhones",)
