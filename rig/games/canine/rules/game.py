"""The game of Canine Kleptomaniacs as the rig keeps it: a pure state and the commands that
change it.

The table plays the cards; the rig does what the table would argue about: it rolls the die the
action cards call for and says what each roll decides, it counts the Action pile down to the
game's end, and it scores every player from the Hiding Places they enter on their phones.

``step(game, command) -> (game, effects)``; a command the rulebook (or the rig's part in it)
does not allow raises :class:`~rig.core.errors.IllegalMove` with the reason, and the caller keeps
its old state.  How the rig learns the deck counts: the Action pile's size follows from the card
table at set-up (its Action cards plus the Hiding Places dealt in), each draw is a command, and
the table may say "the Action pile is empty" at any time (it wins over the rig's count).  The
Collectables pile is never counted: the table says when it runs out.
"""

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from rig.core.errors import IllegalMove, RulesError
from rig.core.gamekit import Sound
from rig.core.names import check_names
from rig.core.msg import Msg, N_
from . import effects as fx
from .cards import PAW, POO_PIZZA, CardTable, card_name
from .dice import CARDS, PARITIES, DiceCall, card_title, die_face, new_call
from .scoring import Holdings, check_doggy, check_optional_rule, check_supply, score_holdings

GAME = "canine-kleptomaniacs"
MIN_PLAYERS, MAX_PLAYERS = 2, 10
#: Up to this many players the ordinary rules apply; more play one single round with the
#: Hiding Places dealt out evenly ("More Than 5 Players?").
ORDINARY_MAX_PLAYERS = 5
DEALT_HIDING_PLACES = 1          # Step 1: one face up in everyone's playing area
DECK_HIDING_PLACES = 2           # ... and two more per player into the Action deck
LONGER_GAME_HIDING_PLACES = 1    # the longer game adds one more per player
MAX_SEED = 2 ** 63 - 1
DECKS = ("action", "collectables")
#: Each draw pile's name, as a code.
DECK_NAMES = {"action": N_("canine.deck.action"), "collectables": N_("canine.deck.collectables")}


# --- commands (each with ``t`` and ``by``) ------------------------------------------------------

@dataclass(frozen=True)
class ChooseDoggy:
    """A player tells the rig which doggy card they took (face down: only their phone shows it)."""
    t: float
    by: str
    doggy: str
    face_up: bool = False


@dataclass(frozen=True)
class DrawAction:
    """An Action card was drawn (by a player, or entered at the screen: ``by`` None)."""
    t: float
    by: Optional[str] = None


@dataclass(frozen=True)
class DeckEmpty:
    """The table says a draw pile ran out: ``deck`` is ``action`` or ``collectables``."""
    t: float
    by: Optional[str]
    deck: str


@dataclass(frozen=True)
class PlayCard:
    """``by`` carries out an action card that needs the die (``card`` one of
    :data:`~.dice.CARDS`).  The Key: ``parity`` odd or even as the card says, ``discards``
    Collectables discarded for extra rolls.  The Charm Offensive: ``thief`` is the player trying
    to steal, ``power`` True claims the doggy's +2 rolls (its symbol matches the card)."""
    t: float
    by: str
    card: str
    parity: Optional[str] = None
    discards: int = 0
    thief: Optional[str] = None
    power: bool = False


@dataclass(frozen=True)
class Roll:
    """Roll the die for the call being carried out (by the player whose roll it is, or at the
    screen: ``by`` None).  ``face`` is only set when replaying: the face the recording says the
    rig rolled, checked against the seed."""
    t: float
    by: Optional[str] = None
    face: Optional[int] = None


@dataclass(frozen=True)
class Reveal:
    """After the game's end: ``by`` enters their table area to be scored (again corrects it)."""
    t: float
    by: str
    holdings: Holdings


# --- the state ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Game:
    players: Tuple[str, ...]            # in clockwise seating order
    table: CardTable
    seed: int
    optional_rule: str = "off"
    longer_game: bool = False
    first_pile: int = 0                 # Action cards in the pile at set-up
    pile: int = 1                       # 2 once the longer game has reshuffled
    left: int = 0                       # Action cards left in the current pile
    over: Optional[str] = None          # the pile whose running out ended the game
    doggies: Tuple[Tuple[str, str, bool], ...] = ()   # (player, doggy, face up)
    call: Optional[DiceCall] = None     # the action card being carried out with the die
    calls: Tuple[DiceCall, ...] = ()    # decided, in order
    rolls: Tuple[Tuple[str, str, int], ...] = ()      # (player, card, face), roll n at n
    entries: Tuple[Tuple[str, Holdings], ...] = ()    # revealed areas, in player order
    t: float = 0.0

    @property
    def second_pile(self):
        """The longer game's new Action pile: every Action card again, and one more Hiding
        Place per player."""
        return self.table.action_cards + LONGER_GAME_HIDING_PLACES * len(self.players)

    def doggy_of(self, player):
        return next((d for p, d, _ in self.doggies if p == player), None)

    def entry_of(self, player):
        return next((h for p, h in self.entries if p == player), None)


def new_game(players, table, seed=0, optional_rule="off", longer_game=False, action_pile=None):
    """A game about to begin.  ``players`` in clockwise seating order; ``action_pile``
    overrides the Action pile's size (default: the table's Action cards plus two Hiding Places
    per player, none with more than 5 players)."""
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(Msg("canine.refuse.player_count", n=len(players), least=MIN_PLAYERS,
                              most=MAX_PLAYERS, single=ORDINARY_MAX_PLAYERS))
    try:
        players = check_names(players, as_given=True)    # the one rule (rig.core.names)
    except RulesError as exc:
        raise IllegalMove(exc.msg) from None
    # What only a builder's code or a recording's header can get wrong stays in English.
    if not isinstance(table, CardTable):
        raise IllegalMove(
            "the card table must be a CardTable (parse_card_table(text)), not %s"  # not words
            % type(table).__name__)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise IllegalMove(
            "seed %r is not usable; give a whole number from 0 to 2**63-1" % (seed,))  # not words
    check_optional_rule(optional_rule)
    if not isinstance(longer_game, bool):
        raise IllegalMove(
            "longer_game %r must be true or false" % (longer_game,))  # not words: builder's
    n = len(players)
    if longer_game and n > ORDINARY_MAX_PLAYERS:
        raise IllegalMove(Msg("canine.refuse.longer_single_round", n=n,
                              most=ORDINARY_MAX_PLAYERS))
    each = DEALT_HIDING_PLACES
    if n <= ORDINARY_MAX_PLAYERS:
        each += DECK_HIDING_PLACES + (LONGER_GAME_HIDING_PLACES if longer_game else 0)
    if each * n > table.hiding_places:
        raise IllegalMove(Msg("canine.refuse.hiding_places_short", n=n, need=each * n, each=each,
                              have=table.hiding_places))
    if action_pile is None:
        dealt_in = DECK_HIDING_PLACES * n if n <= ORDINARY_MAX_PLAYERS else 0
        action_pile = table.action_cards + dealt_in
    elif isinstance(action_pile, bool) or not isinstance(action_pile, int) or \
            not 1 <= action_pile <= 1000:
        raise IllegalMove(
            "action_pile %r is not a pile size; give the number of cards in the Action pile at "
            "set-up, 1 to 1000" % (action_pile,))  # not words: builder's
    return Game(players=players, table=table, seed=seed, optional_rule=optional_rule,
                longer_game=longer_game, first_pile=action_pile, left=action_pile)


# --- derived results ----------------------------------------------------------------------------

def scores(game):
    """Each revealed player's :class:`~.scoring.Score`, in player order."""
    return {p: score_holdings(game.table, h, game.doggy_of(p), game.optional_rule)
            for p, h in game.entries}


def is_final(game):
    """Every player's area is in: the scores stand (until someone corrects theirs)."""
    return len(game.entries) == len(game.players)


def standings(game):
    """(player, total) best first (ties in seating order), for the revealed players."""
    totals = [(p, s.total) for p, s in scores(game).items()]
    return tuple(sorted(totals, key=lambda pt: -pt[1]))


def winners(game):
    """Everyone tied for the most Pooch Points once the scores are final, else ()."""
    if not is_final(game):
        return ()
    table = standings(game)
    return tuple(p for p, total in table if total == table[0][1])


# --- the engine ---------------------------------------------------------------------------------

def step(game, command):
    """Apply ``command``; returns ``(game, effects)``.  Raises IllegalMove with the reason (the
    caller keeps ``game``)."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalMove(
            "%r is not a Canine Kleptomaniacs command; send one of %s"  # not words: builder's
            % (command, ", ".join(c.__name__ for c in _HANDLERS)))
    t = command.t
    if isinstance(t, bool) or not isinstance(t, (int, float)) or t != t or t < 0:
        raise IllegalMove(
            "t %r must be seconds since the game began, 0 or more" % (t,))  # not words: builder's
    effects = []
    t = max(float(t), game.t)   # never let time run backwards inside the game
    after = handler(replace(game, t=t), command, t, effects)
    return after, effects + sounds(game, after, t)


def sounds(before, after, t):
    """The :class:`~rig.core.gamekit.Sound` effects a step from ``before`` to ``after`` calls
    for: ``"dice"`` when a new roll shows, ``"fanfare"`` when the final scores first show."""
    out = []
    if after.rolls and len(after.rolls) != len(before.rolls):
        out.append(Sound(t, "dice"))
    if is_final(after) and not is_final(before):
        out.append(Sound(t, "fanfare"))
    return out


def shown_name(name):
    """A name a command gave, as a refusal quotes it (whatever it was)."""
    return name if isinstance(name, str) else repr(name)


def _player(game, name, code=N_("canine.refuse.not_a_player")):
    if name not in game.players:
        raise IllegalMove(Msg(code, name=shown_name(name), players=game.players))
    return name


def _sender(game, command):
    """The command's ``by``: a player, or None (the screen's own controls)."""
    if command.by is not None:
        _player(game, command.by)
    return command.by


def _no_open_call(game):
    call = game.call
    if call is not None:
        raise IllegalMove(Msg("canine.refuse.call_open", card=card_title(call.card),
                              player=call.whose_roll))


def _true_or_false(value, field):
    if not isinstance(value, bool):
        raise IllegalMove(Msg("canine.refuse.true_or_false", field=field,
                              value=shown_name(value)))


def set_up(game):
    """Whether the game is still at its set-up: no Action card drawn, no card played with the
    die, no pile run out.  "Each player takes (blind) ONE doggy character card" then; a player
    who told the rig their doggy may correct it until play begins, never after."""
    return (game.pile == 1 and game.left == game.first_pile and game.over is None
            and game.call is None and not game.calls)


def hiding_places_in_play(game):
    """How many Hiding Places the game puts in play, so how many its players can enter at the
    end between them: ONE dealt face up to each player and TWO more per player in the Action
    deck, ONE more per player in the longer game's second pile (3 a player, 4 in the longer
    game); with more than 5 players (one round) an equal deal of the box's, as many as it
    holds for each.  Never more than the card table has."""
    n = len(game.players)
    if n <= ORDINARY_MAX_PLAYERS:
        each = DEALT_HIDING_PLACES + DECK_HIDING_PLACES + (
            LONGER_GAME_HIDING_PLACES if game.longer_game else 0)
    else:
        each = game.table.hiding_places // n
    return min(each * n, game.table.hiding_places), each


def _on_doggy(game, cmd, t, effects):
    _player(game, cmd.by)
    check_doggy(game.table, cmd.doggy)
    held = next(((d, up) for p, d, up in game.doggies if p == cmd.by), None)
    if held is not None and held != (cmd.doggy, cmd.face_up) and not set_up(game):
        raise IllegalMove(Msg("canine.refuse.doggy_kept", player=cmd.by,
                              doggy=card_name(held[0])))
    # Only a card face up is known to be taken: a refusal that named the holder of a face-down
    # card (or said that it is held at all) would tell any phone what it hides.
    taken = next((p for p, d, up in game.doggies if d == cmd.doggy and p != cmd.by and up),
                 None)
    if taken is not None:
        raise IllegalMove(Msg("canine.refuse.doggy_taken", player=taken,
                              doggy=card_name(cmd.doggy)))
    _true_or_false(cmd.face_up, "face_up")
    others = tuple(x for x in game.doggies if x[0] != cmd.by)
    chosen = (cmd.by, cmd.doggy, cmd.face_up)
    doggies = tuple(sorted(others + (chosen,), key=lambda x: game.players.index(x[0])))
    effects.append(fx.DoggyChosen(t, cmd.by, cmd.doggy, cmd.face_up))
    return replace(game, doggies=doggies)


def _check_playing(game):
    if game.over is not None:
        raise IllegalMove(Msg("canine.refuse.game_over", pile=Msg(DECK_NAMES[game.over])))


def _on_draw(game, cmd, t, effects):
    _sender(game, cmd)
    _check_playing(game)
    _no_open_call(game)
    game = replace(game, left=game.left - 1)
    effects.append(fx.ActionDrawn(t, cmd.by, game.pile, game.left))
    if game.left == 0:
        game = _action_pile_ran_out(game, t, effects)
    return game


def _action_pile_ran_out(game, t, effects):
    if game.longer_game and game.pile == 1:
        effects.append(fx.PileRanOut(t, "action", "reshuffle", game.second_pile))
        return replace(game, pile=2, left=game.second_pile)
    effects.append(fx.PileRanOut(t, "action", "game-over"))
    effects.append(fx.GameOver(t, "action"))
    return replace(game, left=0, over="action")


def _on_empty(game, cmd, t, effects):
    _sender(game, cmd)
    if cmd.deck not in DECKS:
        raise IllegalMove(Msg("canine.refuse.no_such_deck", deck=shown_name(cmd.deck)))
    _check_playing(game)
    if cmd.deck == "action":
        return _action_pile_ran_out(game, t, effects)
    if game.longer_game and game.pile == 2:
        effects.append(fx.PileRanOut(t, "collectables", "game-over"))
        effects.append(fx.GameOver(t, "collectables"))
        return replace(game, over="collectables")
    effects.append(fx.PileRanOut(t, "collectables", "play-on"))
    return game


def _on_play(game, cmd, t, effects):
    _player(game, cmd.by)
    if cmd.card not in CARDS:
        raise IllegalMove(Msg("canine.refuse.no_die_card", card=shown_name(cmd.card),
                              cards=tuple(card_title(c) for c in CARDS)))
    name = card_title(cmd.card)
    _no_open_call(game)
    if game.entries:
        raise IllegalMove(Msg("canine.refuse.scoring_begun", card=name))
    if cmd.card != "key" and (cmd.parity is not None or cmd.discards):
        raise IllegalMove(Msg("canine.refuse.key_only", card=name))
    if cmd.card != "charm" and (cmd.thief is not None or cmd.power):
        raise IllegalMove(Msg("canine.refuse.charm_only", card=name))
    if cmd.card == "key":
        _check_key(game, cmd)
    elif cmd.card == "charm":
        _check_charm(game, cmd)
    call = new_call(game.players, cmd.card, cmd.by, cmd.parity, cmd.discards, cmd.thief,
                    cmd.power)
    effects.append(fx.CallStarted(t, call))
    return replace(game, call=call)


def _check_key(game, cmd):
    if cmd.parity not in PARITIES:
        raise IllegalMove(Msg("canine.refuse.key_parity", parity=shown_name(cmd.parity)))
    most = sum(c.count for c in game.table.collectables)
    d = cmd.discards
    if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= most:
        raise IllegalMove(Msg("canine.refuse.key_discards", discards=shown_name(d), most=most))


def _check_charm(game, cmd):
    _player(game, cmd.thief, N_("canine.refuse.not_a_thief"))
    if cmd.thief == cmd.by:
        raise IllegalMove(Msg("canine.refuse.charm_self", player=cmd.by))
    _true_or_false(cmd.power, "power")
    if cmd.power:
        doggy = game.doggy_of(cmd.by)
        if doggy is None:
            raise IllegalMove(Msg("canine.refuse.power_no_doggy", player=cmd.by))
        if game.table.doggy_cards[doggy].power != "charm-offensive":
            raise IllegalMove(Msg("canine.refuse.power_wrong_doggy", player=cmd.by,
                                  doggy=card_name(doggy)))


def _on_roll(game, cmd, t, effects):
    call = game.call
    if call is None:
        raise IllegalMove(Msg("canine.refuse.no_call"))
    roller = call.whose_roll
    if cmd.by is not None and cmd.by != roller:
        raise IllegalMove(Msg("canine.refuse.not_your_roll", player=roller,
                              card=card_title(call.card), by=cmd.by))
    number = len(game.rolls)
    face = die_face(game.seed, number, game.table.die_faces)
    if cmd.face is not None and cmd.face != face:
        raise IllegalMove(
            "roll %d is recorded as %r, which is not what the header's seed rolls; the "
            "recording was changed or made with another seed"   # not words: a replay's; never
            % (number, cmd.face))               # the face the seed rolls (a die not rolled yet)
    call = replace(call, rolls=call.rolls + ((roller, face),))
    game = replace(game, rolls=game.rolls + ((roller, call.card, face),), call=call)
    effects.append(fx.Rolled(t, roller, face, number, call))
    if call.decided:
        effects.append(fx.CallDecided(t, call))
        game = replace(game, call=None, calls=game.calls + (call,))
    return game


def _on_reveal(game, cmd, t, effects):
    _player(game, cmd.by)
    if game.over is None:
        raise IllegalMove(Msg("canine.refuse.not_over", n=game.left))
    _no_open_call(game)
    if not isinstance(cmd.holdings, Holdings):
        raise IllegalMove(
            "the entry must be Holdings (holdings_from_json), not %s"  # not words: builder's
            % type(cmd.holdings).__name__)
    if game.table.doggies and game.doggy_of(cmd.by) is None:
        raise IllegalMove(Msg("canine.refuse.reveal_no_doggy", player=cmd.by))
    score_holdings(game.table, cmd.holdings, game.doggy_of(cmd.by), game.optional_rule)
    again = game.entry_of(cmd.by) is not None
    entries = [(p, h) for p, h in game.entries if p != cmd.by] + [(cmd.by, cmd.holdings)]
    entries.sort(key=lambda e: game.players.index(e[0]))
    check_supply(game.table, entries, hiding_places_in_play(game))
    for flag, card in (("paw", PAW), ("poo_pizza", POO_PIZZA)):
        holders = [p for p, h in entries if getattr(h, flag)]
        if len(holders) > 1:
            raise IllegalMove(Msg("canine.refuse.one_holder", players=tuple(holders),
                                  card=card_name(card)))
    game = replace(game, entries=tuple(entries))
    effects.append(fx.Revealed(t, cmd.by, again))
    if is_final(game):
        effects.append(fx.FinalScores(t, standings(game), winners(game)))
    return game


_HANDLERS = {
    ChooseDoggy: _on_doggy,
    DrawAction: _on_draw,
    DeckEmpty: _on_empty,
    PlayCard: _on_play,
    Roll: _on_roll,
    Reveal: _on_reveal,
}
