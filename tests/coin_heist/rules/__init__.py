"""Coin heist: the sixth game, played only by the test suite (README "Adding a game").

Two to four thieves take turns calling a coin before the rig flips it: a right call steals a
jewel.  The first thief to hold ``target`` jewels wins.  The n-th flip of a game is a pure
function of (seed, n), so a replay flips the same coin.  Pure, like every game's rules.

What a player reads is said in codes of the ``coin_heist`` catalog (``../locale``), never in
sentences: a call's words, a refusal's reason (``IllegalMove(Msg(...))``), the outcome.  The
recording and the views keep the sides as data (``"heads"``, ``"tails"``); :func:`side_words`
is how a face says one.  A builder's errors (a seed, a target, a recording line: ``not words``
below) stay English, as README "Languages" allows.

Recording::

    {"recording": "coin-heist", "version": 1, "players": ["Ana", "Ben"], "target": 3,
     "seed": 7}
    {"t": 2.5, "call": "heads", "by": "Ana", "flipped": "tails"}
"""

import hashlib
from dataclasses import dataclass, replace
from typing import Optional, Tuple

from rig.core.errors import IllegalMove, RulesError
from rig.core.gamekit import (Sound, check_header, check_players, check_time, command_line,
                              fail, handler_for, is_whole, read_kind, read_lines, replay_items)
from rig.core.msg import Msg, N_

GAME = "coin-heist"
SIDES = ("heads", "tails")
#: Each side's word, by side (the recording's value): what the faces say for it.
SIDE_WORDS = {"heads": N_("coin_heist.side.heads"), "tails": N_("coin_heist.side.tails")}
SEED_MAX = 2 ** 48 - 1


@dataclass(frozen=True)
class State:
    players: Tuple[str, ...]
    seed: int
    target: int = 3
    jewels: Tuple[int, ...] = ()
    turn: int = 0               # whose call it is: an index into players
    flips: Tuple[Tuple[str, str, str], ...] = ()    # (player, called, flipped)
    last_t: float = 0.0
    winner: Optional[str] = None


@dataclass(frozen=True)
class Call:
    """A thief calls the coin (``side``: heads or tails); the rig flips it."""
    t: float
    by: Optional[str] = None
    side: str = "heads"


@dataclass(frozen=True)
class Flipped:
    """The effect of a call: the coin came down ``side``; ``won`` whether the call was right."""
    t: float
    player: str
    called: str
    side: str
    won: bool


@dataclass(frozen=True)
class Won:
    t: float
    player: str


def new_game(players, seed, target=3):
    players = check_players(players, 2, 4)
    if not is_whole(seed, 0, SEED_MAX):
        why = "seed %r is not usable; give a whole number from 0 to %d"  # not words: builder's
        raise RulesError(why % (seed, SEED_MAX))
    if not is_whole(target, 1, 9):
        why = "target %r is not usable; give 1 to 9 jewels to win"  # not words: builder's
        raise RulesError(why % (target,))
    return State(players, seed, target, (0,) * len(players))


def flip(seed, n):
    """The n-th flip (from 0) of the game of ``seed``: heads or tails."""
    return SIDES[hashlib.sha256(b"coin-heist:%d:%d" % (seed, n)).digest()[0] % 2]


def _call(state, command):
    if state.winner is not None:
        raise IllegalMove(Msg("coin_heist.refuse.over", winner=state.winner))
    if command.side not in SIDES:
        raise IllegalMove(Msg("coin_heist.refuse.not_a_side", side=str(command.side)))
    player = state.players[state.turn]
    if command.by is not None and command.by != player:
        raise IllegalMove(Msg("coin_heist.refuse.not_your_call", player=player,
                              by=str(command.by)))
    t = check_time(state.last_t, command.t)
    side = flip(state.seed, len(state.flips))
    won = side == command.side
    jewels = list(state.jewels)
    jewels[state.turn] += won
    effects = [Flipped(t, player, command.side, side, won), Sound(t, "dice")]
    winner = player if jewels[state.turn] >= state.target else None
    if winner is not None:
        effects += [Won(t, winner), Sound(t, "fanfare")]
    return replace(state, jewels=tuple(jewels), turn=(state.turn + 1) % len(state.players),
                   flips=state.flips + ((player, command.side, side),), last_t=t,
                   winner=winner), tuple(effects)


_HANDLERS = {Call: _call}


def step(state, command):
    return handler_for(_HANDLERS, command, GAME)(state, command)


def public_view(state):
    """Everything is public in a coin heist: whose call it is, the jewels, the last flip."""
    last = state.flips[-1] if state.flips else None
    return {"players": list(state.players), "jewels": dict(zip(state.players, state.jewels)),
            "target": state.target, "turn": None if state.winner else state.players[state.turn],
            "last": None if last is None else {"player": last[0], "called": last[1],
                                               "flipped": last[2]},
            "flips": len(state.flips), "winner": state.winner}


def player_view(state, player):
    if player not in state.players:
        raise IllegalMove(Msg("coin_heist.refuse.not_a_thief", player=str(player),
                              thieves=state.players))
    view = public_view(state)
    view["me"] = player
    view["may_call"] = state.winner is None and state.players[state.turn] == player
    return view


def result(state):
    return {"players": list(state.players), "target": state.target,
            "jewels": dict(zip(state.players, state.jewels)), "winner": state.winner,
            "flips": [list(f) for f in state.flips]}


def side_words(side):
    """The words of a side of the coin (``"heads"``): a Msg; a value that is no side is said as
    it is (a malformed view draws what it can)."""
    code = SIDE_WORDS.get(side)
    return Msg(code) if code is not None else str(side)


def words(effect):
    """What the table hears and reads for ``effect``: a Msg, or None (a sound says nothing)."""
    if isinstance(effect, Flipped):
        said = dict(player=effect.player, called=side_words(effect.called),
                    side=side_words(effect.side))
        if effect.won:
            return Msg("coin_heist.call.stolen", **said)
        return Msg("coin_heist.call.missed", **said)
    if isinstance(effect, Won):
        return Msg("coin_heist.call.won", player=effect.player)
    return None


def outcome_words(winner, jewels, flips):
    """How a heist ended: ``winner`` (or None: unfinished after ``flips`` flips), each thief's
    ``jewels`` as ``(player, count)`` pairs, most first."""
    scores = tuple(Msg("coin_heist.outcome.score", player=p, jewels=j) for p, j in jewels)
    if winner is not None:
        return Msg("coin_heist.outcome.won", winner=winner, scores=scores)
    return Msg("coin_heist.outcome.unfinished", n=flips, scores=scores)


# --- the recording ---------------------------------------------------------------------------

def header(state):
    return {"recording": GAME, "version": 1, "players": list(state.players),
            "target": state.target, "seed": state.seed}


def line(command, effects):
    flipped = next(e.side for e in effects if isinstance(e, Flipped))
    return command_line(command, call=command.side, flipped=flipped)


def _parse_header(obj, number):
    check_header(obj, GAME, ("players", "target", "seed"), number)
    try:
        return new_game(obj.get("players"), obj.get("seed"), obj.get("target", 3))
    except RulesError as exc:
        fail(str(exc), number)


def parse_item(obj, number, last_t=0.0):
    read_kind(obj, {"call": ("flipped",)}, number, last_t)
    if obj["call"] not in SIDES:
        fail("call %r is not heads or tails" % (obj["call"],), number)
    return Call(obj["t"], obj.get("by"), obj["call"]), obj.get("flipped")


def _check(state, said):
    flipped = state.flips[-1][2]
    return None if said == flipped else (
        "the line says the coin came down %s, the replay flipped %s"  # not words: replay's
        % (said, flipped))


def restore_lines(lines, path=None):
    """The state a recording's lines leave (what a crash left: the host resumes from it)."""
    state, items = read_lines(lines, _parse_header, parse_item, path)
    return replay_items(state, items, step, _check, path)


def replay_lines(lines, path=None):
    return result(restore_lines(lines, path))
