"""The game host: one of the companion games run on the rig, as the daemon runs Cleptómano.

One thread (:class:`GameHost`, the one host loop of :mod:`rig.shell.host` with a game plugged
in) owns the game value and everything around it:

* commands arrive on an :class:`~rig.shell.inbox.Inbox` from any thread (the keys through the
  display, later the phones), stamped with the host's clock; the game's own rules decide;
* every accepted command is written to the recording, flushed and fsynced **before** the host
  acts on it (:class:`~rig.shell.session.RecordingSession`, the same writer Cleptómano's
  recordings use); the header holds the seed, drawn from :mod:`secrets`.  A disk that refuses
  the line refuses the command (:data:`~rig.shell.host.FULL_DISK`): nothing is acted on that
  the recording does not hold, and the command given again once there is space is taken;
* a game cut off by a crash is taken up again at the next start (``resume``): the newest
  recording of the game, when it had no clean end (no end line, or its open marker left
  beside it, :func:`rig.shell.session.cut_off`) and its game is not over, is replayed through
  the game's own ``step`` (a torn last line cut first), appended to, and the game's clock goes
  on from its last line's ``t``: nothing elapses while the rig is down;
* a refused command changes nothing: its reason goes on the screen and into the log;
* the museum's start button, when the game has one (``button``), gives the game's primary
  command: its pin callback only puts the stamped edge on the inbox (:meth:`GameHost.button_edge`);
  the host's thread debounces the edges on their stamps as a match does
  (:class:`~rig.table.debounce.StartButton`) and submits the command when a press is
certain;
* a timer the game has (Stolen Paintings' exhibition) is stepped as a ``Tick`` when the clock
  reaches it; Ticks are not recorded, since a replay ends the countdown at its deadline too;
* the display gets a :class:`~rig.core.gamekit.GameScreen` after every change and a few
  times a second (a countdown moves); the sounds a step calls for travel in it, numbered.

The game itself is one of the registry's (:mod:`rig.games`, answering
:class:`rig.core.contract.Game`), given with its settings (its config table).  The clock is
injected, so tests drive the host on the simulator's virtual clock and never sleep.
"""

import logging
import secrets
import time
from dataclasses import replace

from ..core.errors import RulesError
from ..core.gamekit import GameScreen, SetLanguage
from ..core.jsonl import dumps
from ..core.msg import Msg
from ..words import check_language
from .host import FULL_DISK, Host
from .inbox import Answer, Reading
from .session import marks_open

MESSAGE_S = 6.0
DISPLAY_PERIOD_S = 0.1      # the countdown moves and the keys are read this often

log = logging.getLogger("cleptomano")


class GameHost(Host):
    """One game from start to stop, on the one host loop (:class:`rig.shell.host.Host`).
    ``game`` a game of :mod:`rig.games` (kept as ``adapter``) and ``settings`` its config
    table (None: every default, see :func:`rig.games.settings`); every other part injected:
    ``clock``, ``session`` (its recordings directory), ``display`` (a face,
    :mod:`rig.shell.faces`), ``seed`` (None: a fresh one from :mod:`secrets` below the game's
    ``seed_bound``), ``phones`` (the phone companion's
    :class:`rig.web.pairing.Pairing`, shown on the screen; None: no phones), ``button`` (the
    command a press of the start button gives, as Space's at the keys
    (:func:`rig.display.game_keys.primary`); None: presses do nothing) and ``detect`` its
    debounce (the config's ``[detect]``, a
    :class:`~rig.table.debounce.DetectSettings`; None: the defaults); ``resume``
    (default True): take up the game's unfinished recording, if there is one, instead of beginning a
    new game (its players, seed and settings are the recording's); ``language`` the table's
    (``[table] language``): what the screen says the game's codes in."""

    MESSAGE_S = MESSAGE_S
    DISPLAY_PERIOD_S = DISPLAY_PERIOD_S

    def __init__(self, game, players, *, clock, session, settings=None, display=None,
                 seed=None, key_help=(), phones=None, button=None, detect=None, resume=True,
                 language="en"):
        super().__init__(clock=clock, session=session, display=display, phones=phones,
                         key_help=key_help, button=button, detect=detect, language=language)
        self.adapter = game
        self.settings = settings
        self.players = tuple(players)[:1] if game.solo else tuple(players)
        self.seed = seed
        self.resume = resume
        self.resumed = None           # the Unfinished recording taken up, if one was
        self.game = None
        self.refused = 0

    # --- life cycle ------------------------------------------------------------------------------
    def start(self, timeout_s=5.0):
        """Take up the game's unfinished recording (``resume``), or begin a new game (its
        header written and synced); then start the host's thread."""
        self.session.prepare()
        found = self.session.resume_game(self.adapter) if self.resume else None
        if found is not None:
            self._resume(found)
        else:
            self._begin()
        self._begin_frames()
        self._start_loop(timeout_s)
        self._await_loop(timeout_s)
        return self

    def _begin(self):
        if self.seed is None:       # the operating system's randomness, kept in the header
            self.seed = secrets.randbelow(self.adapter.seed_bound)
        self.game = self.adapter.new_game(self.players, self.seed, self.settings)
        self.t0 = self.clock.now()
        header = dumps(self.adapter.header(self.game))
        path = self.session.open_text(header, prefix=self.adapter.prefix,
                                      marked=marks_open(self.adapter))
        self.session.sync_now()
        self._say(0.0, "New game of %s: %s. Recording to %s"
                  % (self.adapter.title, ", ".join(self.players), path))

    def _resume(self, found):
        """Go on with the game ``found`` (a :class:`~rig.shell.session.Unfinished`): its
        state, its players, its seed; the clock goes on from its last line's ``t``."""
        self.resumed = found
        self.game = found.state
        players = tuple(self.adapter.players_in(self.adapter.result(found.state)))
        if players != self.players:
            log.info("The recording's players play on (%s), not those given (%s).",
                     ", ".join(players), ", ".join(self.players))
        self.players = players
        self.seed = found.header.get("seed", self.seed)
        self.t0 = self.clock.now() - found.last_t
        words = "Game resumed from %s." % found.path.name
        self._say(found.last_t, "Game resumed from %s." % found.path)
        self._show_message(words)

    def stop(self, timeout_s=3.0, clean=True):
        """Stop the thread (bounded) and close the recording: with the game's end line when
        ``clean``; as a crash would leave it (cut off after the last line) otherwise.  A host
        whose game never began has nothing to close."""
        if self.t0 is None:
            return True
        self._stop_loop(time.monotonic() + timeout_s)
        if clean:
            t = self.now_t()
            end = self.adapter.end_line(t)
            self.session.close(t, end_line=None if end is None else dumps(end))
        else:
            self.session.abandon()
        return not self.alive()

    def now_t(self):
        """Seconds since the game began, on the host's clock."""
        return round(self.clock.now() - self.t0, 6)

    def result(self):
        """The live game's result, in the shape its replay prints."""
        return self.adapter.result(self.game)

    def player_view(self, player):
        """What ``player``'s phone shows now (their secrets only); IllegalMove for a name that
        is not a player of this game.  Any thread: the game is a value, read once."""
        game = self.game
        return self.adapter.player_view(game, player, self.now_t())

    # --- the game on the host's loop -------------------------------------------------------------
    def _deadlines(self):
        yield self._deadline_abs()
        yield from super()._deadlines()

    def _deadline_abs(self):
        deadline = self.adapter.deadline(self.game)
        return None if deadline is None else self.t0 + deadline

    def _handle(self, item):
        if type(item) is Reading:
            self._button_edge(item)
        else:
            self._command(item)

    def _fire_parts(self, now):
        deadline = self.adapter.deadline(self.game)
        if deadline is not None and self.t0 + deadline <= now:
            self._apply(self.adapter.tick(deadline))

    def _command(self, order):
        command = order.command
        if type(command) is SetLanguage:       # the screen's language: nothing recorded
            self.language = check_language(command.lang)
            self._remember(language=self.language)
            self._refresh_soon()
            if order.reply is not None:
                order.reply(Answer(True, None, self.screen()))
            return
        private = (order.reply is not None and getattr(command, "by", None) is not None
                   and isinstance(command, self.adapter.secret_commands))
        reason = self._apply(replace(command, t=round(order.t_abs - self.t0, 6)), private)
        if order.reply is not None:
            order.reply(Answer(reason is None, reason, self.screen()))

    def _apply(self, command, private=False):
        """Step the game; record the accepted command (synced) before acting on it.  Returns
        None, or the reason it was refused.  ``private``: a refusal's reason would tell the
        table what the entry held (a hand, a ballot), so the screen and the calls say only
        whose entry was refused, and the reason goes back to the sender's phone alone."""
        before = self.game
        try:
            after, effects = self.adapter.step(before, command)
        except RulesError as exc:
            reason = exc.msg if exc.msg is not None else str(exc)
            if private:
                self._refuse(command.t, Msg("rig.host.private_entry", player=command.by))
                return reason
            return self._refuse(command.t, reason)
        line = self.adapter.line(command, after, effects)
        if line is not None:
            if not self.session.record_whole(dumps(line), command.t):
                return self._refuse(command.t, FULL_DISK)
            self.session.sync_now()
        self.game = after
        self._perform(command.t, effects)
        return None

    def _refuse(self, t, reason):
        self.refused += 1
        said = Msg("rig.host.refused", reason=reason)
        self._say(t, said)
        self._show_message(said)
        return reason

    def _state(self):
        return self.game

    def _perform(self, t, effects):
        """The step's effects, as the game turns them into the shared ones
        (:meth:`rig.core.contract.Game.table_effects`), performed by the host."""
        self._perform_shared(self.adapter.table_effects(self.game, t, effects))

    # --- the display -----------------------------------------------------------------------------
    def screen(self, now=None):
        """What the display shows now (also what tests read)."""
        now = self.clock.now() if now is None else now
        message = self._message_at(now)
        over = self.adapter.over(self.game)
        return GameScreen(
            game=self.adapter.name, view=self.adapter.view(self.game, round(now - self.t0, 6)),
            board=self.adapter.board(self.game), message=message, sounds=tuple(self._sounds),
            players=self.players, choices=self.adapter.choices(self.game),
            key_help=self.key_help,
            phones=self.phones.view() if self.phones is not None else None, over=over,
            outcome=self.adapter.outcome_words(self.adapter.outcome(self.result()))
            if over else None, language=self.language)

    def _frame(self, now):
        return self.screen(now), self.DISPLAY_PERIOD_S
