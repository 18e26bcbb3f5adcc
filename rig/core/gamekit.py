"""What the rig's other games share: checking names and times, the sound effect, and the JSON
Lines reader and replay loop of their recordings.

Each game keeps its own rules, commands and line vocabulary; this module holds only what would
otherwise be written once per game (the header's magic and version, one JSON object a line,
times that never go back, and a refused move in a recording reported as the line's error).
Pure: text in, values out.
"""

import json
from dataclasses import dataclass
from typing import Optional, Tuple

from .effects import Sound  # noqa: F401  (a shared effect; the games import it from here)
from .errors import IllegalMove, RecordingError, RulesError
from .jsonl import is_number, line_head
from .jsonl import read_lines as _read_lines
from .names import check_names

VERSION = 1


@dataclass(frozen=True)
class GameScreen:
    """What a game's host shows the display (:mod:`rig.shell.gamehost`), as the Scoreboard is
    Cleptómano's: plain values that pickle to the display process.

    ``view`` is the game's public view (never a secret); ``board`` the map Stop Thief!'s
    screen draws; ``message`` a refusal or the last call, for a few seconds; ``sounds`` the
    last few ``(number, name)`` the host played, numbered so that a display that missed a
    snapshot still plays each once; ``choices`` the names the keys pick from by place (the
    card table's doggies and cards); ``key_help`` the keys, one ``"KEYS: action"`` a line;
    ``phones`` the phone companion's pairing (None: no phones); ``over`` whether the game
    has ended (nothing more is played) and ``outcome`` then its result in words, as
    ``cleptomano history`` gives it (the phones' after-game shows both).  ``message`` and
    ``outcome`` are codes (:class:`rig.core.msg.Msg`), said by each face in its reader's
    language; ``language`` is the table's, the one the screen speaks.

    It is the one screen-state type every host shows and every face receives (issue 29).  A
    game whose view is a snapshot value of its own rather than a dict (Cleptómano's
    ``Scoreboard``, which ``GET /api/state`` is made of) gives it as ``view`` (see
    :func:`own_view`); the host copies its ``message``, ``phones``, ``players``, ``key_help``
    and ``language`` here, and what the screen state itself does not hold is read from it
    (``screen.phase`` is its scoreboard's)."""
    game: str
    view: dict
    board: object = None
    message: Optional[str] = None
    sounds: Tuple[Tuple[int, str], ...] = ()
    players: Tuple[str, ...] = ()
    choices: Optional[dict] = None
    key_help: Tuple[str, ...] = ()
    phones: object = None       # a rig.core.phones.PhonesView: the pairing the screen shows
    over: bool = False
    outcome: Optional[str] = None
    language: str = "en"        # the table's language: what the screen says its codes in

    def __getattr__(self, name):
        # Only for names the screen state lacks: its own view's (a game's own snapshot value).
        view = self.__dict__.get("view")
        if name.startswith("__") or view is None or isinstance(view, dict):
            raise AttributeError(name)
        return getattr(view, name)

    def looks_the_same(self, other):
        """Whether every face shows this screen state exactly as ``other``: the same fields,
        and a view that looks the same (its own ``looks_the_same``, else equal)."""
        if other is self:
            return True
        if type(other) is not GameScreen:
            return False
        for name in _SCREEN_FIELDS:
            if getattr(self, name) != getattr(other, name):
                return False
        view, seen = self.view, other.view
        same = getattr(view, "looks_the_same", None)
        return view == seen if same is None or isinstance(view, dict) else same(seen)


_SCREEN_FIELDS = ("game", "board", "message", "sounds", "players", "choices", "key_help",
                  "phones", "over", "outcome", "language")


def own_view(screen):
    """The game's own snapshot value a screen state carries as its ``view`` (Cleptómano's
    scoreboard), or None when its view is the plain dict of every other game's; a snapshot
    value given bare (a game's waiting screen) is its own."""
    if screen is None:
        return None
    if type(screen) is GameScreen:
        return None if isinstance(screen.view, dict) else screen.view
    return screen


@dataclass(frozen=True)
class SetLanguage:
    """A command to any game's host: the table's screen speaks ``lang`` (a table language, one
    of :data:`rig.words.CHOICES`, es_AR too) from now on (the set-up screen's language
    choice).  Never recorded: a recording is language-neutral, and the log stays English."""
    t: float
    lang: str


def listing(words, last="and"):
    """``["a", "b", "c"]`` -> ``"a, b and c"`` (``last`` "or" for a choice); "" for none."""
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return "%s %s %s" % (", ".join(words[:-1]), last, words[-1])


# --- settings and moves ----------------------------------------------------------------------

def check_players(players, least, most):
    """``players`` as a tuple of names (the one rule of :mod:`rig.core.names`: no two the
    same name), ``least`` to ``most`` of them, or RulesError naming what is wrong."""
    if isinstance(players, str) or not isinstance(players, (list, tuple)):
        raise RulesError("players %r must be a list of names; give %d to %d names"
                         % (players, least, most))
    players = tuple(players)
    if not least <= len(players) <= most:
        raise RulesError("%d player%s given (%s); this game is played by %d to %d"
                         % (len(players), "" if len(players) == 1 else "s",
                            ", ".join(map(str, players)) or "none", least, most))
    return check_names(players, as_given=True)    # the one rule for names (rig.core.names)


def handler_for(handlers, command, game):
    """The rule that handles ``command`` (``handlers``: command class -> function), or
    IllegalMove naming the commands ``game`` knows."""
    handler = handlers.get(type(command))
    if handler is None:
        raise IllegalMove("%r is not a %s command; send %s"
                          % (command, game, listing((c.__name__ for c in handlers), "or")))
    return handler


def check_time(last_t, t):
    """``t`` as a float if it is a time at or after ``last_t`` (a command's clock never goes
    back), else IllegalMove."""
    if not is_number(t) or t < 0:
        raise IllegalMove("time %r is not a number of seconds since the game began (0 or more)"
                          % (t,))
    if t < last_t:
        raise IllegalMove("time %r is before the game's last move at %r; a move's time never "
                          "goes back" % (t, last_t))
    return float(t)


def is_whole(value, least, most):
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


# --- recordings --------------------------------------------------------------------------------

def fail(message, line):
    raise RecordingError(message, line=line)


def check_header(obj, game, keys, line=1):
    """Check the magic, the version and the keys of a game's header line ``obj``."""
    if not isinstance(obj, dict) or obj.get("recording") != game:
        fail('the first line must be the header {"recording": "%s", "version": %d, ...}'
             % (game, VERSION), line)
    unknown = sorted(set(obj) - set(keys) - {"recording", "version"})
    if unknown:
        fail("header key %r is not known; allowed keys: %s"
             % (unknown[0], ", ".join(sorted(set(keys) | {"recording", "version"}))), line)
    if obj.get("version") != VERSION:
        fail("version %r is not supported; this rig reads version %d"
             % (obj.get("version"), VERSION), line)


def read_kind(obj, kinds, line, last_t):
    """The kind of a game's line ``obj`` after :func:`rig.core.jsonl.line_head` has checked
    its ``t`` (against the line before's ``last_t``) and keys; every line of a game may say
    ``by``, who sent the move."""
    expected = {k: {"t", k, "by"} | set(v) for k, v in kinds.items()}
    return line_head(obj, line, last_t, expected)[1]


def read_lines(lines, parse_header, parse_item, path=None, stop=None):
    """Parse a game's recording: ``(header, [(line number, item), ...])``, as Cleptómano's
    (:func:`rig.core.jsonl.read_lines`): ``parse_header(obj, line)`` reads the first object,
    ``parse_item(obj, line, last_t)`` each later one, up to the first item ``stop`` accepts
    (a game's end line: nothing after it counts).  Errors name FILE:LINE."""
    return _read_lines(lines, parse_header, parse_item, path, stop)


def replay_items(state, items, step, check=None, path=None):
    """Step ``state`` through ``items`` (``(line, item)`` pairs, an item being the command or
    ``(command, what the line says it did)``); a move the rules refuse is a RecordingError
    naming its line.  ``check(state, said)`` compares what the line says happened with what
    the replay did and returns what differs in words, or None."""
    for line, item in items:
        command, said = item if isinstance(item, tuple) else (item, None)
        try:
            state, _ = step(state, command)
        except RulesError as exc:
            raise RecordingError(exc.msg if exc.msg is not None else str(exc), path=path,
                                 line=line) from None
        problem = check(state, said) if check is not None and said is not None else None
        if problem:
            raise RecordingError(problem, path=path, line=line)
    return state


def command_line(command, **body):
    """A recording line: ``t``, what the command says (``body``), and ``by`` when known."""
    out = dict({"t": command.t}, **body)
    if command.by is not None:
        out["by"] = command.by
    return out


def dumps(obj):
    """One recording line: compact JSON, UTF-8 names kept as they are."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))
