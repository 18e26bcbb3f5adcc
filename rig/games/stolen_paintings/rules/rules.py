"""Stolen Paintings refereed: ``step(game, command) -> (game, effects)``.

Every command first lets time pass to its ``t``: an exhibition whose countdown is over ends
then (at its own deadline), before the command is looked at, so a host that sends a command
late and a replay agree.  A command the rules refuse raises
:class:`~rig.core.errors.IllegalMove` naming what is wrong and what to do; the game passed in
is never changed (it is an immutable value).
"""

from dataclasses import replace

from rig.core.errors import IllegalMove
from rig.core.gamekit import Sound, check_time, handler_for, numbers
from . import commands as cmd
from . import effects as fx
from .model import MOST_STOLEN, PAINTINGS, Round
from .scoring import round_points, standings, totals


def next_deadline(game):
    """When the game next needs a :class:`~.commands.Tick` (the exhibition's end), or None."""
    r = game.current
    return r.ends_t if r is not None and r.phase == "exhibition" else None


def step(game, command):
    handler = handler_for(_HANDLERS, command, "Stolen Paintings")
    t = check_time(game.t, command.t)
    effects = []
    game = _pass_time(replace(game, t=t), t, effects)
    if handler is not _on_tick:
        if game.over:
            raise IllegalMove("the game is over: everyone has been thief; start a new game")
        if command.by is not None and command.by not in game.players:
            raise IllegalMove("%r is not a player in this game; players are %s"
                              % (command.by, ", ".join(game.players)))
    game = handler(game, command, effects)
    return game, tuple(effects)


def _pass_time(game, t, effects):
    deadline = next_deadline(game)
    if deadline is None or t < deadline:
        return game
    r = game.current
    effects.append(Sound(deadline, "gong"))
    effects.append(fx.EyesClosed(deadline, r.number, r.thief))
    return replace(game, current=replace(r, phase="swap"))


def _on_tick(game, command, effects):
    return game


def _on_start(game, command, effects):
    r = game.current
    if r.phase != "setup":
        raise IllegalMove("round %d's exhibition has already started; it runs once a round"
                          % r.number)
    if command.by not in (None, r.thief):
        raise IllegalMove("%s is a detective this round; the thief, %s, starts the exhibition "
                          "once the 24 paintings are laid out" % (command.by, r.thief))
    ends_t = round(command.t + game.settings.exhibition_s, 6)
    effects.append(fx.ExhibitionStarted(command.t, r.number, r.thief, ends_t))
    return replace(game, current=replace(r, phase="exhibition", started_t=command.t,
                                         ends_t=ends_t))


def _on_steal(game, command, effects):
    r = game.current
    if command.by != r.thief:
        raise IllegalMove("only the thief, %s, enters the stolen paintings, from their own "
                          "phone; this came from %s" % (r.thief, command.by or "the table"))
    if r.phase in ("setup", "exhibition"):
        raise IllegalMove("the exhibition is not over yet; %s enters the stolen paintings "
                          "after the detectives close their eyes" % r.thief)
    if r.phase != "swap":
        raise IllegalMove("%s has already entered the stolen paintings for round %d"
                          % (r.thief, r.number))
    stolen = numbers(command.paintings, "stolen paintings", 1, PAINTINGS, 1, MOST_STOLEN)
    effects.append(fx.EyesOpened(command.t, r.number, game.detectives(r.thief)))
    return replace(game, current=replace(r, phase="auction", stolen=frozenset(stolen)))


def _on_mark(game, command, effects):
    r = game.current
    who = command.by
    if who is None or who == r.thief:
        raise IllegalMove("%s cannot mark: each detective marks on their own phone (the thief "
                          "this round is %s)" % (who or "the table", r.thief))
    if r.phase != "auction":
        raise IllegalMove("detectives mark once %s has swapped the paintings and they have "
                          "opened their eyes" % r.thief)
    limit = game.settings.max_marks
    marks = frozenset(numbers(command.paintings, "%s's marks" % who, 1, PAINTINGS, 1, limit,
                              why=" (the max_marks setting)" if limit < PAINTINGS else ""))
    changed = r.ballot(who) is not None
    ballots = dict(r.ballots)
    ballots[who] = marks
    detectives = game.detectives(r.thief)
    r = replace(r, ballots=tuple((p, ballots[p]) for p in detectives if p in ballots))
    waiting = tuple(p for p in detectives if p not in ballots)
    effects.append(fx.BallotIn(command.t, r.number, who, changed, waiting))
    if waiting:
        return replace(game, current=r)
    return _reveal(game, replace(r, revealed_t=command.t), effects)


def _reveal(game, r, effects):
    t = r.revealed_t
    points = round_points(r, game.players, game.settings.wrong_mark_cost)
    effects.append(fx.Revealed(t, r.number, r.thief, tuple(sorted(r.stolen)),
                               tuple((p, tuple(sorted(m))) for p, m in r.ballots),
                               tuple(points.items())))
    number = r.number + 1
    following = Round(number, game.players[number - 1]) if number <= len(game.players) else None
    game = replace(game, rounds=game.rounds + (r,), current=following)
    if following is None:
        winners, decided_by = standings(game)
        effects.append(Sound(t, "fanfare"))
        effects.append(fx.GameOver(t, winners, tuple(totals(game).items()), decided_by))
    return game


_HANDLERS = {
    cmd.Tick: _on_tick,
    cmd.Start: _on_start,
    cmd.Steal: _on_steal,
    cmd.Mark: _on_mark,
}
