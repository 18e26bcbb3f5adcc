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
from rig.core.gamekit import Sound, check_time, handler_for, is_whole, numbers
from . import commands as cmd
from . import effects as fx
from .boxes import BLACK, parse_box
from .checker import Verdict, check
from .dice import draw
from .model import DICE, SKIMMERS, TURNS, Action, Skimmer, Turn
from .sheet import CHESTS, MOST_DIAMONDS


def step(game, command):
    handler = handler_for(_HANDLERS, command, "chest heist")
    t = check_time(game.t, command.t)
    if command.by is not None and game.player is not None and command.by != game.player:
        raise IllegalMove("%r is not this game's player; %s plays this solo game"
                          % (command.by, game.player))
    if game.over and handler is not _on_count:
        raise IllegalMove("the game is over: chest L has locked; start a new game")
    effects = []
    game = handler(replace(game, t=t), command, effects)
    return game, tuple(effects)


# --- checks shared by the moves ------------------------------------------------------------------

def _rolled_turn(game):
    turn = game.turn
    if not turn.rolled:
        raise IllegalMove("turn %d's dice are not rolled yet; roll them first" % turn.number)
    return turn


def _free_dice(turn, places, fewest):
    """The places ``places`` as a tuple, each a die not used yet this turn."""
    places = numbers(places, "dice", 1, DICE, fewest, DICE)
    for p in places:
        if p in turn.used:
            action = next(a for a in turn.actions if p in a.dice)
            what = ("ticked box %s" % action.target if action.kind == "mark"
                    else "charged skimmer %d" % action.target)
            raise IllegalMove("die %d (a %d) is already used this turn: it %s; each die is "
                              "used once a turn" % (p, turn.dice[p - 1], what))
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
        raise IllegalMove("box %r is not on the sheet; its boxes are r1c1 to r%dc%d (row, "
                          "then column)" % (spec, h, w))
    if box.kind == BLACK:
        raise IllegalMove("box %s is black: the previous burglar already ticked it" % spec)
    if spec in game.ticked:
        raise IllegalMove("box %s (%s) is already ticked" % (spec, box.label))
    return spec, box


def _charged(game, chosen):
    """The skimmers ``chosen`` as (number, value) pairs, each charged and not switched off."""
    chosen = numbers(chosen, "skimmers", 1, SKIMMERS, 0, SKIMMERS)
    out = []
    for n in chosen:
        s = game.skimmers[n - 1]
        if s.used:
            raise IllegalMove("skimmer %d was used on turn %d and is switched off; each "
                              "skimmer is used once" % (n, s.used_turn))
        if not s.charged:
            raise IllegalMove("skimmer %d is not charged yet (it is at 0); charge it with "
                              "dice before using it" % n)
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
        raise IllegalMove("box %s: %s" % (name, verdict.reason))
    return target, box, places, values, skimmers, verdict


def may_mark(game, box, dice=(), skimmers=()):
    """Would ``Mark(box, dice, skimmers)`` be accepted now?  A :class:`~.checker.Verdict`
    with the arithmetic, or the reason it would be refused (for a phone's live hint)."""
    if game.over:
        return Verdict(False, reason="the game is over: chest L has locked")
    try:
        verdict = _plan_mark(game, cmd.Mark(game.t, None, box, dice, skimmers))[-1]
    except RulesError as exc:
        return Verdict(False, reason=str(exc))
    return verdict


# --- the moves -----------------------------------------------------------------------------------

def _on_roll(game, command, effects):
    turn = game.turn
    if turn.rolled:
        left = game.rerolls_left
        raise IllegalMove("turn %d's dice are already rolled; reroll some (%d reroll%s left) "
                          "or end the turn" % (turn.number, left, "" if left == 1 else "s"))
    dice = draw(game.seed, game.draws, DICE)
    effects.append(Sound(command.t, "dice"))
    effects.append(fx.Rolled(command.t, turn.number, dice, (), game.rerolls_left))
    return replace(game, turn=replace(turn, rolls=(dice,)), draws=game.draws + DICE)


def _on_reroll(game, command, effects):
    turn = _rolled_turn(game)
    if game.rerolls_left == 0:
        raise IllegalMove("no rerolls left: the 3 rerolls are for the whole game")
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
        raise IllegalMove("skimmer %r is not one of 1 to %d" % (n, SKIMMERS))
    s = game.skimmers[n - 1]
    if s.used:
        raise IllegalMove("skimmer %d was used on turn %d and is switched off; charge another "
                          "one" % (n, s.used_turn))
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
        raise IllegalMove("the rig counts the diamonds from the sheet (%d won); there is "
                          "nothing to enter" % game.diamonds)
    if not game.over:
        raise IllegalMove("diamonds are counted once chest L has locked (the game is at turn "
                          "%d of %d)" % (game.turn.number, TURNS))
    most = len(CHESTS) * MOST_DIAMONDS
    if not is_whole(command.diamonds, 0, most):
        raise IllegalMove("diamonds %r is not a count; give the diamonds won, a whole number "
                          "from 0 to %d" % (command.diamonds, most))
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
