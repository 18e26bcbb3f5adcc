"""The rig's web face: the phones at the table, as a face of the rig like the screen.

To the referee it is a face (:mod:`rig.shell.faces`): ``show(board)`` stores the newest
snapshot and nudges the push channel, ``hear`` passes on each call; neither waits for anything.
To the phones it is the app (:mod:`rig.web.app`) on the server's thread
(:mod:`rig.web.server`): it reads those snapshots, and puts the paired phones' commands on the
rig's inbox (:meth:`rig.shell.host.Host.submit`), waiting (bounded) for the referee's answer.

One face for every game (docs/games/phones.md): what it says of a game it reads through the contract
(:class:`rig.core.contract.Game`, its group "the phones"): the snapshot's JSON
(``phone_json``), whether two snapshots look the same (``same_snapshot``).  The game is the
host's (its ``adapter``, the contract-level name every host gives its game) once the face is
given one, else the one it was made for (``game``: a name; the registry's first by default).

What it asks of the host it is given (``face.rig``): ``submit(command, reply)``,
``recording_path``; and for a game whose phones hold a seat: ``players``,
``player_view(player)``, ``adapter`` and ``game`` (the state, for the board map).
"""

import asyncio
import logging
from pathlib import Path

from ..core.errors import RequestError
from ..core.msg import Msg
from ..core.phones import spaced
from ..games import game as game_named
from ..games import games
from .app import build_app
from .language import plain
from .live import Live
from .pairing import Pairing, told_bound
from .server import WebServer

log = logging.getLogger("cleptomano")

STATIC_DIR = Path(__file__).resolve().parent / "static"
#: How long a phone's request waits for the rig a starting game is about to hand the face.
RIG_WAIT_S = 2.0
#: ``WebFace(game=...)``'s default: the registry's first game.
FIRST = "first"


class WebFace:
    """The phone companion.  ``web`` is the config's ``[web]`` section; ``recordings_dir``
    holds the matches it lists; ``names`` the host names it answers to besides its addresses
    (tests); ``tell_code`` logs each new pairing code (the simulator without a screen: on a
    laptop nothing else shows it; a real rig never logs it); ``server_options`` go to
    :class:`~rig.web.server.WebServer`."""

    headless = True
    wants_frames = True
    shows_service = False     # the builder's service screen stays on the rig's screen (issue 31)

    def __init__(self, web, recordings_dir, *, game=FIRST, pairing=None, static_dir=STATIC_DIR,
                 names=None, tell_code=False, **server_options):
        self.web = web
        made = games()[0] if game == FIRST else (game_named(game) if game is not None else None)
        self._made = made               # the game it was made for (None: the host's)
        self.made_for = made.name if made is not None else None
        self.recordings_dir = Path(recordings_dir)
        self.pairing = pairing if pairing is not None else Pairing()
        self.live = Live(self.state)
        self.rig = None
        self.service = None             # open_service(by) injected, else the rig's own
        self.night = None               # the game night it belongs to (rig.shell.night)
        self.server = None
        self._board = None
        self._announced = None          # the snapshot the push channel was last told of
        self.tell_code = tell_code
        self._told = None               # the pairing code logged last
        self._server_options = server_options
        self.app = build_app(self, static_dir, names)

    # --- the face, on the referee's thread ---------------------------------------------------------
    def show(self, board):
        """The newest snapshot: ``GET /api/state`` answers it from now on; the phones are
        pushed it only when it looks different from the last pushed (the game's
        ``same_snapshot``: Cleptómano's compares the time in whole seconds, which their page
        counts on by itself), so their words and JSON are made once per change, not per
        frame."""
        announced, self._board = self._announced, board
        if announced is None or not self._game_of(board).same_snapshot(announced, board):
            self._announced = board
            self.live.changed()
        phones = board.phones
        if self.tell_code and phones is not None and phones.url \
                and phones.code not in (None, self._told):
            self._told = phones.code
            log.info("Phones: pairing code %s (no screen shows it in this simulator).",
                     spaced(self._told))

    def hear(self, t, text, severity):
        self.live.call(t, text, severity)

    def poll_commands(self):
        return []

    # --- life cycle ---------------------------------------------------------------------------------
    def start(self, rig=None, timeout_s=5.0):
        """Serve the phones, commanding ``rig`` (or the rig set as ``self.rig`` later: the
        command line starts the server before it builds the rig, so that the server's start-up
        never competes with a running match); raises HardwareError when no address can be
        served (the rig referees on without phones)."""
        logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
        if rig is not None:
            self.rig = rig
        self.server = WebServer(self.app, self.web.bind, self.web.port,
                                on_loop=self.live.attach, on_close=self.live.close,
                                on_bound=self._bound, **self._server_options)
        self.server.start(timeout_s)
        return self

    def _bound(self, bound):
        told_bound(self.pairing, bound, self.web.port)

    def stop(self, timeout_s=3.0):
        return self.server.stop(timeout_s) if self.server is not None else True

    # --- the game it serves ---------------------------------------------------------------------
    @property
    def playing(self):
        """The game this face serves (a :class:`rig.core.contract.Game`): its host's once it
        has one, else the one it was made for; None before either is known."""
        hosted = getattr(self.rig, "adapter", None)
        return hosted if hosted is not None else self._made

    @property
    def game(self):
        """The name of the game it serves (None before it is known)."""
        playing = self.playing
        return playing.name if playing is not None else None

    def _game_of(self, board):
        """The game ``board`` is a snapshot of: the face's, else the one it names."""
        playing = self.playing
        if playing is not None:
            return playing
        named = getattr(board, "game", None)
        return game_named(named) if isinstance(named, str) else games()[0]

    # --- what the app asks, on the server's thread -------------------------------------------------
    def state(self, board=None):
        """The snapshot as JSON-ready data (the newest, or ``board``), its codes as their JSON,
        which the app says in each phone's language (:func:`rig.web.language.said`); RequestError
        (503) before the referee showed one."""
        board = board if board is not None else self._board
        if board is None:
            raise RequestError(Msg("rig.web.starting" if self.made_for is not None
                                   else "rig.web.game_starting"), 503)
        return plain(self._game_of(board).phone_json(board))

    @property
    def open_service(self):
        """What opens service mode for the host phone (``POST /api/service``): the callable
        injected as :attr:`service`, else the rig's own ``open_service(by)`` (issue 31), else
        None (this rig has none: 503)."""
        if self.service is not None:
            return self.service
        return getattr(self.rig, "open_service", None)

    @property
    def board(self):
        """The newest snapshot the referee showed (None before the first)."""
        return self._board

    def recording_path(self):
        """The recording being written now (None before the rig starts)."""
        return self.rig.recording_path if self.rig is not None else None

    async def ready(self, timeout_s=RIG_WAIT_S):
        """The rig this face commands, waited for at most ``timeout_s`` (the command line
        sets it once the game has started, a moment after its first snapshot is shown): None
        if it did not come."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while self.rig is None and loop.time() < deadline:
            await asyncio.sleep(0.05)
        return self.rig

    async def command(self, command, timeout_s):
        """Put ``command`` on the rig's inbox and wait for the referee's
        :class:`~rig.shell.inbox.Answer`, at most ``timeout_s``."""
        rig = await self.ready()
        if rig is None:
            raise RequestError(Msg("rig.web.not_refereeing"), 503)
        loop = asyncio.get_running_loop()
        answered = loop.create_future()

        def settle(answer):
            if not answered.done():
                answered.set_result(answer)

        def reply(answer):              # the referee's thread
            try:
                loop.call_soon_threadsafe(settle, answer)
            except RuntimeError:        # the server stopped meanwhile: nobody waits
                pass

        rig.submit(command, reply)
        try:
            return await asyncio.wait_for(answered, timeout_s)
        except asyncio.TimeoutError:
            raise RequestError(Msg("rig.web.no_answer", seconds=float(timeout_s)),
                               503) from None


def GameWebFace(web, recordings_dir, **options):
    """The face of the game its host names once given (``WebFace(..., game=None)``): the name
    the companion games' face had when it was a face of its own."""
    return WebFace(web, recordings_dir, game=None, **options)
