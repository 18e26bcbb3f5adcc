"""What the table's screen, the player's phone and a replay see of a chest heist.

The one secret is the dice to come: neither view holds the seed or the count of dice drawn.
All three return JSON-ready dicts.
"""

from rig.core.msg import Msg
from .model import DICE, REROLLS, TURNS
from .sheet import CHESTS, box_id, sheet_to_json
from .titles import title_code

GAME = "chest-heist"


def _title(game):
    title = game.title
    return None if title is None else {"fr": title[0], "en": title[1]}


def _title_words(game):
    """The title's code as JSON (each face says it in its reader's language), or None."""
    code = None if game.title is None else title_code(game.title[0])
    return None if code is None else Msg(code).as_json()


def _chests(game):
    sheet = {} if game.sheet is None else {x.letter: x for x in game.sheet.chests}
    out = []
    for letter in CHESTS:
        chest = sheet.get(letter)
        out.append({"chest": letter, "locked": letter in game.locked,
                    "opened": letter in game.opened,
                    "line": None if chest is None else chest.where,
                    "diamonds": None if chest is None else chest.diamonds})
    return out


def _grid(game):
    if game.sheet is None:
        return None
    rows = []
    for r, row in enumerate(game.sheet.rows, 1):
        rows.append([{"box": box_id(r, c), "label": box.label, "kind": box.kind,
                      "ticked": box_id(r, c) in game.ticked}
                     for c, box in enumerate(row, 1)])
    return rows


def _action_json(action):
    return {"kind": action.kind, "target": action.target, "dice": list(action.dice),
            "values": list(action.values), "skimmers": list(action.skimmers),
            "formula": action.formula}


def public_view(game):
    turn = game.turn
    last = turn if turn is not None else game.turns[-1] if game.turns else None
    used = turn.used if turn is not None else frozenset()
    phase = "over" if game.over else "play" if turn.rolled else "roll"
    return {
        "game": GAME,
        "player": game.player,
        "phase": phase,
        "turn": last.number if last is not None else 1,
        "turns": TURNS,
        "dice": [] if turn is None else [
            {"die": i, "value": v, "used": i in used} for i, v in enumerate(turn.dice, 1)],
        "actions": [] if last is None else [_action_json(a) for a in last.actions],
        "rerolls_left": game.rerolls_left,
        "rerolls": REROLLS,
        "skimmers": [{"skimmer": i, "value": s.value, "charged": s.charged, "used": s.used}
                     for i, s in enumerate(game.skimmers, 1)],
        "next_lock": game.next_lock,
        "chests": _chests(game),
        "sheet": _grid(game),
        "diamonds": game.diamonds,
        "unused_skimmers": game.unused_skimmers,
        "score": game.score,
        "title": _title(game),
        "title_words": _title_words(game),
    }


def player_view(game, player=None):
    """The player's phone: the public view and what may be sent now."""
    view = public_view(game)
    view["you"] = player
    turn = game.turn
    if game.over:
        actions = ["count_diamonds"] if game.sheet is None else []
    elif not turn.rolled:
        actions = ["roll"]
    else:
        free = len(turn.used) < DICE
        actions = (["reroll"] if free and game.rerolls_left else []) + ["mark"] \
            + (["charge"] if free and any(not s.used for s in game.skimmers) else []) \
            + ["end_turn"]
    view["can"] = actions
    return view


def result(game):
    """The replay's output: every turn's rolls and actions, the locks, and the score."""
    turns = game.turns + ((game.turn,) if game.turn is not None and game.turn.rolled else ())
    return {
        "game": GAME,
        "player": game.player,
        "seed": game.seed,
        "sheet": None if game.sheet is None else sheet_to_json(game.sheet),
        "turns": [{"turn": x.number, "rolls": [list(r) for r in x.rolls],
                   "rerolled": [list(p) for p in x.rerolled],
                   "actions": [_action_json(a) for a in x.actions]} for x in turns],
        "rerolls_left": game.rerolls_left,
        "skimmers": [{"skimmer": i, "value": s.value, "used_turn": s.used_turn}
                     for i, s in enumerate(game.skimmers, 1)],
        "locked": list(game.locked),
        "ticked": sorted(game.ticked),
        "opened": list(game.opened),
        "over": game.over,
        "diamonds": game.diamonds,
        "unused_skimmers": game.unused_skimmers,
        "score": game.score,
        "title": _title(game),
    }
