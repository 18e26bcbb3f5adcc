"""The chest heist refereed: ``step(game, command) -> (game, effects)``.

What the rig decides where the rulebook is silent (README, "The chest heist"):

* dice already used this turn cannot be rerolled;
* charging a skimmer is an action like ticking a box: the dice charged are used, and the same
  turn may tick boxes with other dice; a skimmer charged this turn may be used this turn; a used
  skimmer is switched off for good (it cannot be charged again);
* skimmers tick numbered boxes only (P, I and x2 boxes take dice only);
* a chest opens the moment the last box of its line is ticked, if it has not locked yet; black
  boxes count as ticked;
* the turn ends when the player says so (dice may be left over; charged skimmers may still be
  used alone before that).

A command the rules refuse raises :class:`~rig.core.errors.IllegalMove` with the reason; the
game passed in is never changed.  The game has no timed phase (no ``next_deadline``).
"""

from dataclasses import replace

from rig.core.errors import IllegalMove, RulesError
from rig.core.gamekit import Sound, check_time, handler_for, is_whole
from rig.core.msg import Msg
from . import commands as cmd
from . import effects as fx
from .boxes import BLACK, parse_box
from .checker import Verdict, check
from .dice import draw
from .model import DICE, REROLLS, SKIMMERS, TURNS, Action, Skimmer, Turn
from .sheet import CHESTS, MOST_DIAMONDS


def step(game, command):
    handler = handler_for(_HANDLERS, command, "chest heist")  # not words: a bug's report
    t = check_time(game.t, command.t)
    if command.by is not None and game.player is not None and command.by != game.player:
        raise IllegalMove(Msg("chest_heist.refuse.not_the_player", by=str(command.by),
                              player=game.player))
    if game.over and handler is not _on_count:
        raise IllegalMove(Msg("chest_heist.refuse.over"))
    effects = []
    game = handler(replace(game, t=t), command, effects)
    return game, tuple(effects)


# --- checks shared by the moves ------------------------------------------------------------------

def _rolled_turn(game):
    turn = game.turn
    if not turn.rolled:
        raise IllegalMove(Msg("chest_heist.refuse.not_rolled", turn=turn.number))
    return turn


def numbers(value, what, most, fewest, largest):
    """``value`` as a tuple of distinct whole numbers 1 to ``most`` (``fewest`` to ``largest``
    of them), or IllegalMove naming ``what`` (a code: the dice, the skimmers) and the number
    that is wrong."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise IllegalMove(Msg("chest_heist.refuse.not_numbers", what=what, most=most))
    value = tuple(value)
    for x in value:
        if not is_whole(x, 1, most):
            raise IllegalMove(Msg("chest_heist.refuse.no_such_number", what=what,
                                  value=repr(x)[:20], most=most))
    for x in value:
        if value.count(x) > 1:
            raise IllegalMove(Msg("chest_heist.refuse.twice", what=what, value=x))
    if not fewest <= len(value) <= largest:
        raise IllegalMove(Msg("chest_heist.refuse.how_many", what=what, given=len(value),
                              fewest=fewest, largest=largest))
    return value


def _free_dice(turn, places, fewest):
    """The places ``places`` as a tuple, each a die not used yet this turn."""
    places = numbers(places, Msg("chest_heist.what.dice"), DICE, fewest, DICE)
    for p in places:
        if p in turn.used:
            action = next(a for a in turn.actions if p in a.dice)
            if action.kind == "mark":
                raise IllegalMove(Msg("chest_heist.refuse.die_ticked", die=p,
                                      value=turn.dice[p - 1], box=str(action.target)))
            raise IllegalMove(Msg("chest_heist.refuse.die_charged", die=p,
                                  value=turn.dice[p - 1], skimmer=action.target))
    return places


def _box(game, spec):
    """(box id or spec as given, :class:`~.boxes.Box`) for a box the player names."""
    sheet = game.sheet
    if sheet is None:
        box = parse_box(spec)
        return box.label, box
    box = sheet.box(spec)
    if box is None:
        h, w = sheet.size
        raise IllegalMove(Msg("chest_heist.refuse.not_on_sheet", box=repr(spec)[:20], rows=h,
                              columns=w))
    if box.kind == BLACK:
        raise IllegalMove(Msg("chest_heist.refuse.black", box=spec))
    if spec in game.ticked:
        raise IllegalMove(Msg("chest_heist.refuse.ticked", box=spec, label=box.label))
    return spec, box


def _charged(game, chosen):
    """The skimmers ``chosen`` as (number, value) pairs, each charged and not switched off."""
    chosen = numbers(chosen, Msg("chest_heist.what.skimmers"), SKIMMERS, 0, SKIMMERS)
    out = []
    for n in chosen:
        s = game.skimmers[n - 1]
        if s.used:
            raise IllegalMove(Msg("chest_heist.refuse.skimmer_off", skimmer=n, turn=s.used_turn))
        if not s.charged:
            raise IllegalMove(Msg("chest_heist.refuse.skimmer_empty", skimmer=n))
        out.append((n, s.value))
    return tuple(out)


def _plan_mark(game, command):
    """Everything a Mark needs, checked: (box id or spec, box, places, values, skimmers,
    verdict).  IllegalMove for anything the rules refuse, the combination included."""
    turn = _rolled_turn(game)
    target, box = _box(game, command.box)
    places = _free_dice(turn, command.dice, 0)
    skimmers = _charged(game, command.skimmers)
    values = tuple(turn.dice[p - 1] for p in places)
    verdict = check(box, values, skimmers)
    if not verdict.ok:
        name = target if target == box.label else "%s (%s)" % (target, box.label)
        raise IllegalMove(Msg("chest_heist.refuse.box", box=name, reason=verdict.reason))
    return target, box, places, values, skimmers, verdict


def may_mark(game, box, dice=(), skimmers=()):
    """Would ``Mark(box, dice, skimmers)`` be accepted now?  A :class:`~.checker.Verdict`
    with the arithmetic, or the reason it would be refused (for a phone's live hint)."""
    if game.over:
        return Verdict(False, reason=Msg("chest_heist.refuse.locked"))
    try:
        verdict = _plan_mark(game, cmd.Mark(game.t, None, box, dice, skimmers))[-1]
    except RulesError as exc:
        return Verdict(False, reason=exc.msg if exc.msg is not None else Msg(
            "chest_heist.refuse.other", text=str(exc)))
    return verdict


# --- the moves -----------------------------------------------------------------------------------

def _on_roll(game, command, effects):
    turn = game.turn
    if turn.rolled:
        raise IllegalMove(Msg("chest_heist.refuse.rolled", turn=turn.number,
                              n=game.rerolls_left))
    dice = draw(game.seed, game.draws, DICE)
    effects.append(Sound(command.t, "dice"))
    effects.append(fx.Rolled(command.t, turn.number, dice, (), game.rerolls_left))
    return replace(game, turn=replace(turn, rolls=(dice,)), draws=game.draws + DICE)


def _on_reroll(game, command, effects):
    turn = _rolled_turn(game)
    if game.rerolls_left == 0:
        raise IllegalMove(Msg("chest_heist.refuse.no_rerolls", rerolls=REROLLS))
    places = tuple(sorted(_free_dice(turn, command.dice, 1)))
    fresh = draw(game.seed, game.draws, len(places))
    dice = list(turn.dice)
    for place, value in zip(places, fresh):
        dice[place - 1] = value
    dice = tuple(dice)
    left = game.rerolls_left - 1
    effects.append(Sound(command.t, "dice"))
    effects.append(fx.Rolled(command.t, turn.number, dice, places, left))
    turn = replace(turn, rolls=turn.rolls + (dice,), rerolled=turn.rerolled + (places,))
    return replace(game, turn=turn, draws=game.draws + len(places), rerolls_left=left)


def _on_mark(game, command, effects):
    target, box, places, values, skimmers, verdict = _plan_mark(game, command)
    turn = game.turn
    used = tuple(n for n, _ in skimmers)
    action = Action("mark", target, places, values, used, verdict.formula)
    states = list(game.skimmers)
    for n in used:
        states[n - 1] = replace(states[n - 1], used_turn=turn.number)
    game = replace(game, turn=replace(turn, actions=turn.actions + (action,)),
                   skimmers=tuple(states))
    effects.append(fx.Ticked(command.t, turn.number, target, box.label, verdict.formula, used))
    if game.sheet is not None:
        game = _tick_on_sheet(game, target, command.t, effects)
    return game


def _tick_on_sheet(game, ident, t, effects):
    ticked = game.ticked | {ident}
    opened = list(game.opened)
    for chest in game.sheet.chests_through(ident):
        if chest.letter in game.locked or chest.letter in opened:
            continue
        if game.sheet.complete(chest, ticked):
            opened.append(chest.letter)
            effects.append(fx.ChestOpened(t, chest.letter, chest.diamonds))
    return replace(game, ticked=ticked, opened=tuple(opened))


def _on_charge(game, command, effects):
    turn = _rolled_turn(game)
    n = command.skimmer
    if not is_whole(n, 1, SKIMMERS):
        raise IllegalMove(Msg("chest_heist.refuse.no_such_skimmer", skimmer=repr(n)[:20],
                              most=SKIMMERS))
    s = game.skimmers[n - 1]
    if s.used:
        raise IllegalMove(Msg("chest_heist.refuse.charge_off", skimmer=n, turn=s.used_turn))
    places = _free_dice(turn, command.dice, 1)
    values = tuple(turn.dice[p - 1] for p in places)
    value = s.value + sum(values)
    terms = ([str(s.value)] if s.value else []) + [str(v) for v in values]
    formula = " + ".join(terms) + (" = %d" % value if len(terms) > 1 else "")
    action = Action("charge", n, places, values, (), formula)
    states = list(game.skimmers)
    states[n - 1] = Skimmer(value)
    effects.append(fx.Charged(command.t, turn.number, n, values, value))
    return replace(game, turn=replace(turn, actions=turn.actions + (action,)),
                   skimmers=tuple(states))


def _on_end_turn(game, command, effects):
    turn = _rolled_turn(game)
    chest = CHESTS[turn.number - 1]
    effects.append(fx.ChestLocked(command.t, turn.number, chest, chest in game.opened))
    game = replace(game, locked=game.locked + (chest,), turns=game.turns + (turn,))
    if turn.number < TURNS:
        return replace(game, turn=Turn(turn.number + 1))
    game = replace(game, turn=None)
    _final_score(game, command.t, effects)
    return game


def _on_count(game, command, effects):
    if game.sheet is not None:
        raise IllegalMove(Msg("chest_heist.refuse.counted", n=game.diamonds))
    if not game.over:
        raise IllegalMove(Msg("chest_heist.refuse.count_later", turn=game.turn.number,
                              turns=TURNS))
    most = len(CHESTS) * MOST_DIAMONDS
    if not is_whole(command.diamonds, 0, most):
        raise IllegalMove(Msg("chest_heist.refuse.not_a_count", value=repr(command.diamonds)[:20],
                              most=most))
    game = replace(game, counted=command.diamonds)
    _final_score(game, command.t, effects)
    return game


def _final_score(game, t, effects):
    if game.score is not None:
        effects.append(Sound(t, "fanfare"))
    effects.append(fx.FinalScore(t, game.diamonds, game.unused_skimmers, game.score,
                                 game.title))


_HANDLERS = {
    cmd.Roll: _on_roll,
    cmd.Reroll: _on_reroll,
    cmd.Mark: _on_mark,
    cmd.Charge: _on_charge,
    cmd.EndTurn: _on_end_turn,
    cmd.CountDiamonds: _on_count,
}
