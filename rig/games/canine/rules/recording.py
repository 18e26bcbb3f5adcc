"""Canine Kleptomaniacs' recordings: JSON Lines, a header then one command a line.

The header holds everything a replay needs, the card table included, so a recording scores the
same wherever it is replayed::

    {"recording": "canine-kleptomaniacs", "version": 1, "players": ["Ana", "Ben", "Caro"],
     "seed": 7, "optional_rule": "off", "longer_game": false, "action_pile": 46,
     "cards": {...the card table as JSON...}}

Each line after it has ``t`` (seconds since the start, never decreasing), an optional ``by``
(who sent it) and one of::

    {"t": 1.0, "by": "Ana", "doggy": "Doggy A", "face_up": false}
    {"t": 2.0, "by": "Ana", "draw": "action"}
    {"t": 3.0, "by": "Ana", "play": "key", "parity": "odd", "discards": 1}
    {"t": 3.5, "by": "Ana", "roll": 4}          (the face the rig rolled, checked on replay)
    {"t": 9.0, "by": "Ben", "empty": "collectables"}
    {"t": 60.0, "by": "Ana", "reveal": {"hiding_places": [...], "face_up": [...],
                                        "paw": false, "poo_pizza": false}}

``play`` also takes ``thief`` and ``power`` (the Charm Offensive).  Pure: text in, values out;
every error is a :class:`~rig.core.errors.RecordingError` naming the line.
"""

import json

from rig.core.errors import ConfigError, IllegalMove, RecordingError
from rig.core.jsonl import line_head, read_lines
from . import effects as fx
from . import game as g
from .calls import outcome_words
from .cards import card_table_from_obj, card_table_to_obj
from .scoring import holdings_from_json, holdings_to_json, line_to_json

VERSION = 1
_HEADER_KEYS = ("recording", "version", "players", "seed", "optional_rule", "longer_game",
                "action_pile", "cards")
_LINE_KEYS = {kind: {"t", "by", kind, *more} for kind, more in (
    ("doggy", ("face_up",)), ("draw", ()), ("empty", ()),
    ("play", ("parity", "discards", "thief", "power")), ("roll", ()), ("reveal", ()))}


# --- writing ------------------------------------------------------------------------------------

def header(game):
    """The header line (a dict) that :func:`replay_lines` turns back into ``game``'s start."""
    return {"recording": g.GAME, "version": VERSION, "players": list(game.players),
            "seed": game.seed, "optional_rule": game.optional_rule,
            "longer_game": game.longer_game, "action_pile": game.first_pile,
            "cards": card_table_to_obj(game.table)}


def command_line(command, effects=()):
    """The recording line (a dict) for an accepted ``command``; a roll's face comes from the
    :class:`~.effects.Rolled` among the ``effects`` its step returned."""
    out = {"t": command.t}
    if command.by is not None:
        out["by"] = command.by
    kind = type(command)
    if kind is g.ChooseDoggy:
        out.update(doggy=command.doggy, face_up=command.face_up)
    elif kind is g.DrawAction:
        out["draw"] = "action"
    elif kind is g.DeckEmpty:
        out["empty"] = command.deck
    elif kind is g.PlayCard:
        out["play"] = command.card
        if command.card == "key":
            out.update(parity=command.parity, discards=command.discards)
        elif command.card == "charm":
            out.update(thief=command.thief, power=command.power)
    elif kind is g.Roll:
        faces = [e.face for e in effects if isinstance(e, fx.Rolled)]
        if command.face is None and not faces:
            raise ValueError("a roll is recorded with its face: pass the effects its step "
                             "returned")
        out["roll"] = command.face if command.face is not None else faces[0]
    elif kind is g.Reveal:
        out["reveal"] = holdings_to_json(command.holdings)
    else:
        raise TypeError("cannot record %r" % (command,))
    return out


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


# --- reading --------------------------------------------------------------------------------------

def _fail(message, line):
    raise RecordingError(message, line=line)


def parse_header(obj, line=1):
    """The game at its start, from the header object."""
    if not isinstance(obj, dict) or obj.get("recording") != g.GAME:
        _fail('the first line must be the header {"recording": "%s", "version": 1, "players": '
              '[...], "seed": N, "cards": {...}}' % g.GAME, line)
    unknown = sorted(set(obj) - set(_HEADER_KEYS))
    if unknown:
        _fail("header key %r is not known; allowed keys: %s" % (unknown[0],
                                                                ", ".join(_HEADER_KEYS)), line)
    if obj.get("version") != VERSION:
        _fail("version %r is not supported; this rig reads version %d"
              % (obj.get("version"), VERSION), line)
    players = obj.get("players")
    if not isinstance(players, list):
        _fail("players %r must be a list of names in seating order" % (players,), line)
    try:
        table = card_table_from_obj(obj.get("cards"))
    except ConfigError as exc:
        _fail("header cards: %s" % exc, line)
    try:
        return g.new_game(players, table, seed=obj.get("seed"),
                          optional_rule=obj.get("optional_rule", "off"),
                          longer_game=obj.get("longer_game", False),
                          action_pile=obj.get("action_pile"))
    except IllegalMove as exc:
        _fail(_refused(exc, "header"), line)


def parse_item(obj, line, last_t=0.0):
    """One line after the header -> a command."""
    t, kind, by = line_head(obj, line, last_t, _LINE_KEYS)
    value = obj[kind]
    if kind == "doggy":
        return g.ChooseDoggy(t, by, _text(value, "doggy", line), obj.get("face_up", False))
    if kind == "draw":
        if value != "action":
            _fail("draw %r is not known; the rig counts \"action\" draws" % (value,), line)
        return g.DrawAction(t, by)
    if kind == "empty":
        return g.DeckEmpty(t, by, _text(value, "empty", line))
    if kind == "play":
        return g.PlayCard(t, by, _text(value, "play", line), obj.get("parity"),
                          obj.get("discards", 0), obj.get("thief"), obj.get("power", False))
    if kind == "roll":
        if isinstance(value, bool) or not isinstance(value, int):
            _fail("roll %r must be the face the rig rolled, a whole number" % (value,), line)
        return g.Roll(t, by, value)
    try:
        return g.Reveal(t, by, holdings_from_json(value))
    except IllegalMove as exc:
        _fail(_refused(exc, "reveal"), line)


def _refused(exc, where=None):
    """What a recording's line the rules refuse says: the refusal's code (the builder's terminal
    says it in English, :func:`rig.words.english_error`), or its text after ``where``."""
    if exc.msg is not None:
        return exc.msg
    return "%s: %s" % (where, exc) if where else str(exc)


def _text(value, key, line):
    if not isinstance(value, str):
        _fail("%s %r must be a name" % (key, value), line)
    return value


def parse_lines(lines, path=None):
    """A whole recording -> ``(game at its start, [(line number, command), ...])``."""
    return read_lines(lines, parse_header, parse_item, path)


def restore_lines(lines, path=None):
    """The game as a recording's lines leave it (the host resumes an unfinished one so).
    Raises RecordingError naming FILE:LINE for a bad line or a command the game refuses."""
    game, items = parse_lines(lines, path)
    for line, command in items:
        try:
            game, _ = g.step(game, command)
        except IllegalMove as exc:
            raise RecordingError(_refused(exc), path=path, line=line) from None
    return game


def replay_lines(lines, path=None):
    """Re-play a recording; the result (see :func:`result`).  Raises RecordingError naming
    FILE:LINE for a bad line or a command the game refuses."""
    return result(restore_lines(lines, path))


# --- the result ----------------------------------------------------------------------------------

def _call_json(call):
    return {"card": call.card, "by": call.by, "thief": call.thief,
            "rolls": [{"player": p, "face": f} for p, f in call.rolls], "won": call.won,
            "holder": call.holder, "winner": call.winner,
            "words": outcome_words(call).as_json() if call.decided else None}


def result(game):
    """The game as a JSON-ready dict: every roll, every call and what it decided, the end
    tracker, each entered player's score with its breakdown, and the winners once final."""
    return {
        "game": g.GAME,
        "players": list(game.players),
        "seed": game.seed,
        "rolls": [{"number": n, "player": p, "card": c, "face": f}
                  for n, (p, c, f) in enumerate(game.rolls)],
        "calls": [_call_json(c) for c in game.calls],
        "open_call": _call_json(game.call) if game.call else None,
        "end": {"pile": game.pile, "left": game.left, "over": game.over},
        "scores": {p: {"total": s.total, "lines": [line_to_json(x) for x in s.lines]}
                   for p, s in g.scores(game).items()},
        "final": g.is_final(game),
        "standings": [list(pt) for pt in g.standings(game)],
        "winners": list(g.winners(game)),
    }
