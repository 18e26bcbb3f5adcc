"""Stolen Paintings refereed: ``step(game, command) -> (game, effects)``.

Every command first lets time pass to its ``t``: an exhibition whose countdown is over ends
then (at its own deadline), before the command is looked at, so a host that sends a command
late and a replay agree.  A command the rules refuse raises
:class:`~rig.core.errors.IllegalMove` naming what is wrong and what to do; the game passed in
is never changed (it is an immutable value).
"""

from dataclasses import replace

from rig.core.errors import IllegalMove
from rig.core.gamekit import Sound, check_time, handler_for, is_whole
from rig.core.msg import Msg
from . import commands as cmd
from . import effects as fx
from .model import MOST_STOLEN, PAINTINGS, Round
from .scoring import round_points, standings, totals


def next_deadline(game):
    """When the game next needs a :class:`~.commands.Tick` (the exhibition's end), or None."""
    r = game.current
    return r.ends_t if r is not None and r.phase == "exhibition" else None


def step(game, command):
    handler = handler_for(_HANDLERS, command, "Stolen Paintings")  # not words: a bug's report
    t = check_time(game.t, command.t)
    effects = []
    game = _pass_time(replace(game, t=t), t, effects)
    if handler is not _on_tick:
        if game.over:
            raise IllegalMove(Msg("stolen_paintings.refuse.over"))
        if command.by is not None and command.by not in game.players:
            raise not_a_player(game, command.by)
    game = handler(game, command, effects)
    return game, tuple(effects)


def not_a_player(game, who):
    """The refusal of a command (or a view) for someone who does not play this game."""
    return IllegalMove(Msg("stolen_paintings.refuse.not_a_player", player=str(who),
                           players=tuple(game.players)))


def paintings(value, what, most):
    """``value`` as a tuple of distinct places in the row, 1 to 8, one to ``most`` of them; or
    IllegalMove naming ``what`` (a code: the stolen paintings, a detective's marks) and the
    place that is wrong."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise IllegalMove(Msg("stolen_paintings.refuse.not_places", what=what, row=PAINTINGS))
    value = tuple(value)
    for x in value:
        if not is_whole(x, 1, PAINTINGS):
            raise IllegalMove(Msg("stolen_paintings.refuse.no_such_place", what=what,
                                  place=repr(x)[:20], row=PAINTINGS))
    for x in value:
        if value.count(x) > 1:
            raise IllegalMove(Msg("stolen_paintings.refuse.place_twice", what=what, place=x))
    if not 1 <= len(value) <= most:
        raise IllegalMove(Msg("stolen_paintings.refuse.how_many", what=what, given=len(value),
                              most=most))
    return value


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
        raise IllegalMove(Msg("stolen_paintings.refuse.started", round=r.number))
    if command.by not in (None, r.thief):
        raise IllegalMove(Msg("stolen_paintings.refuse.thief_starts", by=command.by,
                              thief=r.thief))
    ends_t = round(command.t + game.settings.exhibition_s, 6)
    effects.append(fx.ExhibitionStarted(command.t, r.number, r.thief, ends_t))
    return replace(game, current=replace(r, phase="exhibition", started_t=command.t,
                                         ends_t=ends_t))


def _on_steal(game, command, effects):
    r = game.current
    if command.by is None:
        raise IllegalMove(Msg("stolen_paintings.refuse.thief_steals_table", thief=r.thief))
    if command.by != r.thief:
        raise IllegalMove(Msg("stolen_paintings.refuse.thief_steals", thief=r.thief,
                              by=command.by))
    if r.phase in ("setup", "exhibition"):
        raise IllegalMove(Msg("stolen_paintings.refuse.steal_early", thief=r.thief))
    if r.phase != "swap":
        raise IllegalMove(Msg("stolen_paintings.refuse.stolen_already", thief=r.thief,
                              round=r.number))
    stolen = paintings(command.paintings, Msg("stolen_paintings.what.stolen"), MOST_STOLEN)
    effects.append(fx.EyesOpened(command.t, r.number, game.detectives(r.thief)))
    return replace(game, current=replace(r, phase="auction", stolen=frozenset(stolen)))


def _on_mark(game, command, effects):
    r = game.current
    who = command.by
    if who is None:
        raise IllegalMove(Msg("stolen_paintings.refuse.mark_table", thief=r.thief))
    if who == r.thief:
        raise IllegalMove(Msg("stolen_paintings.refuse.thief_marks", thief=r.thief))
    if r.phase != "auction":
        raise IllegalMove(Msg("stolen_paintings.refuse.mark_early", thief=r.thief))
    marks = frozenset(paintings(command.paintings, Msg("stolen_paintings.what.marks",
                                                       detective=who),
                                game.settings.max_marks))
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
