"""What every game of the registry shares: the defaults of :class:`rig.core.contract.Game`.

A game's ``GAME`` (its folder's ``game.py``) is an instance of a subclass of :class:`GameBase`;
the defaults are those of a game without a timer, a map, an end line or choices for the keys,
played at human pace (reading none of the table's inputs).  Pure, like the rules it speaks for: the host owns the
clock, the files and the seed's randomness.
"""

from dataclasses import asdict

from ..core import gamekit
from ..core.contract import Outcome
from ..core.effects import Fault, Message, Say, Sound
from ..core.msg import Msg
from ..core.phones import public
from . import title_words

__all__ = ["GameBase", "Outcome"]


class GameBase:
    name = ""            # the command-line name
    title = ""           # the log's and the command line's name (a brand, in English)
    #: The name a player reads, a code said in their language (:func:`rig.games.title_words`);
    #: None: the ``title`` is a proper name, the same in every language (docs/glossary.md).
    title_msg = None
    #: The attract screen's how-to-play (issue 31): 2-4 codes of the game's catalog, each a
    #: short line in the project's own words from the rulebook; none: the title alone.
    howto = ()
    recording = ""       # the header's "recording" value
    prefix = ""          # the recording file's name starts with this
    section = ""         # the rig config's table of this game (an attribute of the config)
    streams_replay = False   # replay() is handed the recording's lines as a list
    min_players = 1
    max_players = 8
    seed_bound = 2 ** 63
    shows_calls = False  # the game's screen already shows the last calls itself
    solo = False         # one player: the first of the list plays
    #: The commands that carry a player's secret (a ballot, a hand): when one is refused, the
    #: reason goes to that player's phone alone; the table hears only that it was refused.
    secret_commands = ()
    #: The commands still taken once the game is over (:meth:`over`): a correction of what was
    #: played (a count, a touch), the set-up of the next game; every other is refused then.
    taken_when_over = ()
    #: Whether the game hides something while it runs (a secret of ``secrets(state)``, or dice
    #: its seed will roll): then its recording, its seed and its replay are served to the
    #: phones only once it is over (README "Security").  Only a game with neither may say
    #: False (Cleptómano: everything is on the table, nothing left to chance); the contract
    #: test (tests/test_secrets_http.py) holds a game that says False to that.
    hides = True
    #: The table's inputs (rig.table's names: ``button``, ``laser.4``, ``tof``...) whose
    #: changes the game's ``step`` takes, each as its :meth:`reading` command; empty: the game
    #: reads none (the host then debounces the start button into the game's primary command).
    table_inputs = ()
    #: The words the rig answers with on a line, never sent by a phone.
    ANSWERS = ()
    #: Example commands for the API's messages that say what to send.
    example = ""

    def audit(self, lines, path=None):
        """What one recording's ``lines`` say for the audits (docs/contracts/cli.md): the game-neutral
        part, from the replay: ``matches`` (``started`` 1, ``finished`` 1 once decided,
        ``closed`` None: the shell tells a cut-off game by its marker, ``empty`` False), no
        per-input counts.  A game with inputs to count (Cleptómano) gives its own.  Bad input
        is the replay's RecordingError."""
        result = self.replay(lines, path)
        over = bool(self.outcome(result).over)
        return {"matches": {"started": 1, "finished": int(over), "closed": None,
                            "empty": False},
                "touches": {}, "levels": {}, "last_t": {}, "turns": [], "restarts": 0,
                "devices": {}, "end_t": 0.0}

    def end_line(self, t):
        return None

    def deadline(self, state):
        return None

    def tick(self, t):
        raise NotImplementedError("%s has no timer" % self.title)

    def restore(self, lines, path=None):
        """The state an unfinished recording's lines leave (the museum's game is resumed by
        its own host, :class:`rig.shell.daemon.Rig`)."""
        raise NotImplementedError("%s is resumed by the museum's host" % self.title)

    # --- what the table's host asks of a match it runs (rig.shell.daemon) -------------------
    #: No wiring check of the game's own on the screen.
    check_command = check_start = check_stop = None

    def _not_at_the_table(self, what):
        raise NotImplementedError("%s is run by the game host, not the table's (%s)"
                                  % (self.title, what))

    def new_match(self, players, level, first_thief, detect):
        self._not_at_the_table("new_match")

    def match_header(self, set_up, players, level, first_thief, detect, rig=None):
        self._not_at_the_table("match_header")

    def opened_words(self, players, level, path):
        return None

    def closed(self, state):
        return False

    def set_up_of(self, state):
        self._not_at_the_table("set_up_of")

    def match_decided(self, state):
        return self.over(state)

    def live_result(self, state, t):
        return self.result(state)

    def sounds_at_once(self, state, command):
        return False

    def foresee_at(self, state):
        return None

    def foresee(self, state):
        return None

    def refused(self, t, error):
        return Message(t, error)

    def host_words(self, moment, params):
        """The host's own moments are said by the game that has them: none here."""
        return None

    def refusal_words(self, effect):
        return getattr(effect, "text", None)

    def fault_effect(self, t, source, words, active):
        return Fault(t, source, words, active)

    def table_fault(self, t, source, words, active):
        return Fault(t, source, words, active)

    def device_change(self, t, device, state):
        return None

    def state_faults(self, state):
        return ()

    def input_values(self, state):
        return {}

    def carried_inputs(self, state):
        return {}

    def correcting_player(self, state):
        return None

    def playing(self, state):
        return None

    def screen_state(self, state, now_t, faults=(), banner=None, message=None, key_help=(),
                     roster=(), wiring=None):
        self._not_at_the_table("screen_state")

    def new_wiring_check(self, config, hand, relics, timeout_s):
        self._not_at_the_table("new_wiring_check")

    def check_words(self, lines):
        return " ".join(map(str, lines))

    # --- a recording read and written by the host's files (rig.shell.session/storage) ------
    def read_recording(self, lines, path=None):
        """A recording's lines as ``(header, items)``: only a game whose recordings the
        shell reads item by item has it (the others are read by :meth:`replay`)."""
        raise NotImplementedError("%s's recordings are read by its replay" % self.title)

    def parse_line(self, obj, line=0):
        """One recording line's JSON value as its item (see :meth:`read_recording`)."""
        raise NotImplementedError("%s's recordings are read by its replay" % self.title)

    def item_line(self, item):
        """The text of one item's recording line (see :meth:`read_recording`)."""
        raise NotImplementedError("%s writes its lines with line()" % self.title)

    def end_item(self, t):
        """The item of the line that ends a recording (None: written by :meth:`end_line`)."""
        return None

    def follow(self, path):
        """A recording read as it grows (only a game with a tournament follows one)."""
        raise NotImplementedError("%s's recordings are not followed" % self.title)

    def pick_resume(self, store, directory, players, level):
        """Which unfinished recording a start takes up, chosen by the game (None: the host
        takes up the newest cut-off one, :func:`rig.shell.session.unfinished`)."""
        return None

    def restart_item(self, state):
        """The item a recording taken up by :meth:`pick_resume` goes on with (None)."""
        return None

    def step_owned(self, state, command):
        """:meth:`step` on a state the caller gives up: the same result; a game whose state is
        costly to copy may go on in place (the default steps as :meth:`step`)."""
        return self.step(state, command)

    def reflex_inputs(self, state):
        """The table inputs whose active edge may buzz at once now (none by default)."""
        return frozenset()

    def reading(self, t, name, value):
        """A change of one of :attr:`table_inputs` as the game's command (None: not read)."""
        return None

    def table_effects(self, state, t, effects):
        """A step's effects as the host's shared ones (:mod:`rig.core.effects`): each effect's
        words said at ``t`` (the command's time), each :class:`~rig.core.effects.Sound`
        played, and the last words on the screen a while unless the game's screen lists its
        calls itself (``shows_calls``)."""
        said = [Say(t, words) for words in map(self.words, effects) if words]
        out = said + [effect for effect in effects if isinstance(effect, Sound)]
        if said and not self.shows_calls:
            out.append(Message(t, said[-1].text))
        return tuple(out)

    def secrets(self, state):
        """Nothing is secret (see :meth:`rig.core.contract.Game.secrets`): a game with a
        secret, a hand, a ballot, says what and whose."""
        return ()

    def board(self, state):
        return None

    def choices(self, state):
        return None

    def map_json(self, state):
        """The game's board map for the phones (JSON-ready), or None for a game without one."""
        return None

    def players_in(self, result):
        """Who played the game a replay ``result`` is of (a solo game names its one player)."""
        return tuple(result.get("players") or [result.get("player") or "solo"])

    def command_from_json(self, obj):
        """A phone's command: one recording line of this game without ``t`` and ``by`` (the
        host stamps the one, the paired phone is the other), and without what the rig answers
        on that line; a roll is ``{"roll": true}`` (the rig rolls).  RecordingError names what
        is wrong."""
        for key in ("t", "by") + self.ANSWERS:
            if key in obj:
                gamekit.fail("leave %r out of a command: the rig %s" % (key, {
                    "t": "stamps the time", "by": "adds the paired player's name"}.get(
                        key, "answers it")), 1)
        return self.parse_command(dict(obj, t=0.0))

    # --- the phones (rig.core.contract.Game's group "the phones") ------------------------------
    #: Every command a phone may send is one its parse_command reads.
    phone_commands = None
    #: A phone plays as the player its name names.
    seated_phones = True
    #: No check of the game's own on the phones' API.
    phone_checks = ()

    def phone_json(self, screen):
        """What anyone may read of the game on the rig (a :class:`rig.core.gamekit.GameScreen`):
        its name, public view, message line, players, the phones' pairing without its code,
        and whether it is over (then its result in words)."""
        return {"game": screen.game, "view": screen.view, "message": screen.message,
                "players": list(screen.players),
                "phones": None if screen.phones is None else asdict(public(screen.phones)),
                "over": screen.over, "outcome": screen.outcome}

    def same_snapshot(self, a, b):
        return a == b

    def switch_refusal(self, screen, end):
        """A game in progress is left only when the phone ends it (``"end": true``)."""
        if end or (screen is not None and screen.over):
            return None
        return Msg("rig.night.in_progress", game=title_words(self),
                   tick=Msg("rig.night.end_now"))

    def recording_entry(self, result, finished, live=False):
        """Its game, title, players and result in the words ``cleptomano history`` prints."""
        return {"game": self.name, "title": title_words(self),
                "players": list(self.players_in(result)),
                "outcome": self.outcome_words(self.outcome(result))}

    def __repr__(self):
        return "<game %s>" % self.name
