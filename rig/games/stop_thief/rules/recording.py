"""Stop Thief!'s recordings: JSON Lines like Cleptómano's, self-contained, and their replay.

The header holds everything a replay needs, the board included (so a recording still replays
after the board file changed; ``board_sha256`` names the board version)::

    {"recording": "stop-thief", "version": 1, "players": ["Ana", "Ben"], "seed": 7,
     "settings": {"stay_chance": 0.15, ...}, "board": {...}, "board_sha256": "..."}

then one command a line, each with ``t`` (seconds since the start, never decreasing) and ``by``
(optional: who pressed)::

    {"t": 4.2, "clue": true, "by": "Ana", "heard": "inside"}
    {"t": 9.0, "replay": true}
    {"t": 31.5, "arrest": 12, "by": "Ana", "paid": -1000}
    {"t": 33.0, "end_turn": true, "by": "Ben"}
    {"t": 60.0, "end": true}

``heard`` (the clue the rig gave) and ``paid`` (the reward collected, or minus the fine) are
what the live rig saw; a replay checks them, so a recording that replays differently fails on
the line where it parts.  The header's seed decides where the thief goes: a shell must never
show a recording to the table while its game is being played.

Pure: lines in, values out; every error is a RecordingError naming the line.
"""

import json
from dataclasses import dataclass
from functools import cached_property

from rig.core.errors import RecordingError, RulesError
from rig.core.jsonl import line_head, read_lines
from . import events as ev
from . import rules
from .board import BoardError, board_from_dict, board_sha256, board_to_dict
from .thief import CLUES, Settings, make_settings

FORMAT = "stop-thief"
VERSION = 1
_HEADER_KEYS = {"recording", "version", "players", "seed", "settings", "board", "board_sha256"}
_COMMANDS = {"clue": ev.GetClue, "replay": ev.ReplayClue, "end_turn": ev.EndTurn}
_LINE_KEYS = {"clue": {"t", "clue", "by", "heard"}, "replay": {"t", "replay", "by"},
              "arrest": {"t", "arrest", "by", "paid"}, "end_turn": {"t", "end_turn", "by"},
              "end": {"t", "end"}}


@dataclass(frozen=True)
class Header:
    board: object
    players: tuple
    seed: int
    settings: Settings = Settings()

    @cached_property
    def game(self):
        """The game as it begins (a fresh one each header: games are values)."""
        return rules.new_game(self.board, self.players, self.seed, self.settings)


def header_json(game):
    """The header line for ``game`` (a game as :func:`rules.new_game` made it)."""
    return {"recording": FORMAT, "version": VERSION, "players": list(game.players),
            "seed": game.seed, "settings": game.settings.to_json(),
            "board": board_to_dict(game.board), "board_sha256": board_sha256(game.board)}


def item_json(command, effects=()):
    """The line for ``command``, with what the rig answered (``heard``, ``paid``) from
    ``effects``, the effects :func:`rules.step` returned for it."""
    if isinstance(command, ev.Arrest):
        out = {"t": command.t, "arrest": command.space}
    else:
        name = next((k for k, cls in _COMMANDS.items() if isinstance(command, cls)), None)
        if name is None:
            raise TypeError("cannot record %r" % (command,))
        out = {"t": command.t, name: True}
    if command.by is not None:
        out["by"] = command.by
    for e in effects:
        if isinstance(e, ev.ClueGiven) and not e.replay and isinstance(command, ev.GetClue):
            out["heard"] = e.kind
        elif isinstance(e, ev.Arrested):
            out["paid"] = e.paid
        elif isinstance(e, ev.WrongArrest):
            out["paid"] = -e.fine
    return out


def end_json(t):
    return {"t": t, "end": True}


def dumps(obj):
    """One recording line (no newline)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


# --- Parsing ------------------------------------------------------------------------------------

def _fail(message, line):
    raise RecordingError(message, line=line)


def parse_header(obj, line=1):
    if not isinstance(obj, dict) or obj.get("recording") != FORMAT:
        _fail('the first line must be the header {"recording": "stop-thief", "version": 1, '
              '"players": [...], "seed": N, "board": {...}}', line)
    unknown = sorted(set(obj) - _HEADER_KEYS)
    if unknown:
        _fail("header key %r is not known; allowed keys: %s"
              % (unknown[0], ", ".join(sorted(_HEADER_KEYS))), line)
    if obj.get("version") != VERSION:
        _fail("version %r is not supported; this rig reads version %d"
              % (obj.get("version"), VERSION), line)
    if "board" not in obj:
        _fail("the header has no board; a Stop Thief! recording embeds its board", line)
    try:
        board = board_from_dict(obj["board"])
    except BoardError as exc:
        _fail("board: %s" % exc, line)
    sha = obj.get("board_sha256")
    if sha is not None and sha != board_sha256(board):
        _fail("board_sha256 %r does not match the embedded board (%s); the board was edited "
              "after recording, restore it or drop board_sha256" % (sha, board_sha256(board)),
              line)
    settings = obj.get("settings", {})
    if not isinstance(settings, dict):
        _fail("settings %r must be an object of thief settings" % (settings,), line)
    players = obj.get("players")
    try:
        header = Header(board, tuple(players) if isinstance(players, list) else players,
                        obj.get("seed"), make_settings(**settings))
        header.game                     # the players and the seed are checked by starting it
    except RulesError as exc:
        _fail(exc.msg if exc.msg is not None else str(exc), line)   # said in English by the CLI
    return header


@dataclass(frozen=True)
class Line:
    """One line after the header: its command (None on the ``end`` line) and what the live
    rig answered on it (``heard`` / ``paid``), for the replay to check."""
    t: float
    command: object
    expected: dict


def parse_item(obj, line, last_t=0.0):
    """One line after the header -> a :class:`Line`."""
    t, kind, by = line_head(obj, line, last_t, _LINE_KEYS)
    expected = {k: obj[k] for k in ("heard", "paid") if k in obj}
    if "heard" in expected and expected["heard"] not in CLUES:
        _fail("heard %r is not a clue; clues are %s" % (expected["heard"], ", ".join(CLUES)),
              line)
    paid = expected.get("paid")
    if paid is not None and (isinstance(paid, bool) or not isinstance(paid, int)):
        _fail("paid %r must be whole dollars (minus for a fine)" % (paid,), line)
    if kind == "arrest":
        space = obj["arrest"]
        if isinstance(space, bool) or not isinstance(space, int):
            _fail("arrest %r must be a space number" % (space,), line)
        return Line(t, ev.Arrest(t, space, by), expected)
    if obj[kind] is not True:
        _fail("%s must be true, got %r" % (kind, obj[kind]), line)
    return Line(t, None if kind == "end" else _COMMANDS[kind](t, by), expected)


def parse_lines(lines, path=None):
    """A whole recording -> ``(header, items)``, items as ``(line, command, expected)``; stops
    at the ``end`` line.  Raises RecordingError naming FILE:LINE."""
    header, items = read_lines(lines, parse_header, parse_item, path,
                               stop=lambda item: item.command is None)
    return header, [(n, item.command, item.expected) for n, item in items
                    if item.command is not None]


# --- Replay -------------------------------------------------------------------------------------

def play(header, items, path=None):
    """Play the parsed items from the header's new game; returns the game at the end."""
    game = header.game
    for line, command, expected in items:
        try:
            game, effects = rules.step(game, command)
        except RulesError as exc:
            raise RecordingError(exc.msg if exc.msg is not None else str(exc), path=path,
                                 line=line) from None
        got = item_json(command, effects)
        for key, value in expected.items():
            if got.get(key) != value:
                raise RecordingError("the recording says %s %r but the replay gives %r; the "
                                     "recording does not match this board, seed or rig version"
                                     % (key, value, got.get(key)), path=path, line=line)
    return game


def restore_lines(lines, path=None):
    """The game as a recording's lines leave it (the host resumes an unfinished one so)."""
    header, items = parse_lines(lines, path)
    return play(header, items, path)


def replay_lines(lines, path=None):
    """Re-play a recording's lines; the result as a JSON-ready dict (see :func:`result`)."""
    return result(restore_lines(lines, path))


def result(game):
    """The replay output: money, winner, every thief (the caught ones with their whole path,
    the one at large without), every arrest attempt."""
    thieves = []
    for case in game.caught + (() if game.case.caught_by else (game.case,)):
        card = game.card(case)
        entry = {"number": case.number, "name": card.name, "reward": card.reward,
                 "crime_wave": case.crime_wave, "clues": [c.kind for c in case.clues],
                 "caught_by": case.caught_by}
        if case.caught_by is not None:
            entry["path"] = list(case.thief.path)
        thieves.append(entry)
    return {
        "game": FORMAT,
        "board": game.board.name,
        "board_sha256": board_sha256(game.board),
        "seed": game.seed,
        "players": list(game.players),
        "money": dict(zip(game.players, game.money)),
        "winner": game.winner,
        "turn": None if game.over else game.player,
        "thieves": thieves,
        "arrests": [{"t": a.t, "by": a.by, "space": a.space, "thief": a.thief,
                     "right": a.right, "paid": a.paid} for a in game.attempts],
    }
