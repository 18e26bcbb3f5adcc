"""Stop Thief!'s rules as a pure function: ``step(game, command) -> (game, effects)``.

The rig is the game's electronic device: it keeps the thief (secret), moves it, says what kind
of space it entered, and keeps the money.  The table keeps the rest (the meeples, the movement
cards).  A turn, as the rulebook has it: **get a clue** (every turn starts with one), play a card
(at the table), then optionally **attempt an arrest**; the turn then passes to the left (the next
player in the list).  Pressing *get a clue* again after this turn's clue ends the turn, so the
start button alone can play a game; :class:`~.events.EndTurn` ends it explicitly.

Rulebook points the engine applies (see ../shared/rulebook/stop-thief.md), and what the rig
decides where the rulebook is silent:

* each player starts with the board's starting money ($3,000 in the rulebook); the first to
  hold the board's cash to retire for their number of players wins, at once;
* the deck is shuffled and its top card revealed; the thief starts on a crime scene drawn at
  random (the rulebook does not say which); the first player is drawn too ("the app will tell
  you which player takes the first turn");
* an arrest names a numbered space.  The rig cannot see the meeples, so it trusts the table
  that the space is the player's own or an adjacent one (the number is public); it refuses
  only numbers that are not numbered spaces of the board;
* wrong: the player pays the bank $1,000, or all they have if less (never below $0); right: the
  player collects the card's reward plus the crime-wave money, the card is discarded and the
  next one revealed (a new thief on a crime scene), and the player to the left starts the next
  round.  Either way the turn ends; so one arrest attempt a turn;
* crime wave: each time the thief moves onto a crime scene (the alarm), $1,000 goes on its
  card; staying on one pays again only with ``Settings.crime_wave_on_stay``;
* when every card has been caught and nobody has retired, the caught cards are shuffled into a
  new deck (the rulebook's game only ends when someone retires).

Illegal input (not your turn, an arrest or an end of turn before the turn's clue, a number that
is not a numbered space, anything once the game is over) raises
:class:`~rig.core.errors.IllegalMove` with the reason; the caller keeps its old game.
"""

from dataclasses import dataclass, replace
from typing import Optional, Tuple

from rig.core.errors import IllegalMove, RulesError
from rig.core.gamekit import Sound
from rig.core.names import check_names
from rig.core.msg import N_, Msg
from . import events as ev
from .board import Board, BoardError
from .thief import Settings, Thief, chance, move, pick, start

WRONG_ARREST_FINE = 1000
CRIME_WAVE_BONUS = 1000
MAX_SEED = 2 ** 63 - 1


@dataclass(frozen=True)
class Clue:
    kind: str
    by: str


@dataclass(frozen=True)
class Case:
    """The hunt for one thief card.  ``thief`` is the secret; everything else is public."""
    number: int                    # 1 for the game's first thief
    card: int                      # index into board.thieves
    thief: Thief
    clues: Tuple[Clue, ...] = ()
    crime_wave: int = 0
    caught_by: Optional[str] = None


@dataclass(frozen=True)
class Attempt:
    """An arrest attempt: ``paid`` is the reward collected (right) or minus the fine (wrong)."""
    t: float
    by: str
    space: int
    thief: int                     # the case number
    right: bool
    paid: int


@dataclass(frozen=True)
class Game:
    board: Board
    players: Tuple[str, ...]
    seed: int
    settings: Settings
    money: Tuple[int, ...]         # in player order
    retire: int
    case: Case                     # the thief at large (the last one caught once it is over)
    turn: int = 0                  # index of the player whose turn it is
    clued: bool = False            # that player has had this turn's clue
    caught: Tuple[Case, ...] = ()
    deck: Tuple[int, ...] = ()     # face-down cards, top first
    discard: Tuple[int, ...] = ()
    attempts: Tuple[Attempt, ...] = ()
    draws: int = 0                 # chance draws used so far
    winner: Optional[str] = None
    t: float = 0.0
    last: Tuple[ev.Effect, ...] = ()   # the effects of the last step

    @property
    def player(self):
        """Whose turn it is."""
        return self.players[self.turn]

    @property
    def over(self):
        return self.winner is not None

    def card(self, case=None):
        return self.board.thieves[(case or self.case).card]

    def money_of(self, player):
        return self.money[self.players.index(player)]


def _draws(game, count):
    """The game's next ``count`` chance draws, and the game with them used."""
    n = game.draws
    return [chance(game.seed, n + i) for i in range(count)], replace(game, draws=n + count)


def _shuffled(game, cards):
    """``cards`` in a seeded random order (Fisher-Yates, one draw a swap)."""
    cards = list(cards)
    draws, game = _draws(game, max(0, len(cards) - 1))
    for i, u in zip(range(len(cards) - 1, 0, -1), draws):
        j = pick(u, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return game, tuple(cards)


def _check_players(board, players):
    if not isinstance(players, (list, tuple)):
        raise RulesError("players %r must be a list of names" % (players,))  # not words: a bug
    players = tuple(players)
    counts = sorted(row.players for row in board.money)
    players = check_names(players, as_given=True)      # the one rule (rig.core.names)
    if len(players) not in counts:
        raise RulesError(Msg("stop_thief.refuse.player_count", n=len(players), board=board.name,
                             counts=tuple(counts)))
    return players


def new_game(board, players, seed, settings=Settings(), t=0.0):
    """A game about to begin: the deck shuffled, the first thief on a crime scene, the first
    player drawn.  Raises BoardError for a board that cannot be played, RulesError for bad
    players or seed."""
    if board.problems:
        raise BoardError(board.problems)
    players = _check_players(board, players)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise RulesError("seed %r must be a whole number from 0 to %d"  # not words: a bug
                         % (seed, MAX_SEED))
    if not isinstance(settings, Settings):
        raise RulesError("settings %r must be Settings (see thief.make_settings)"  # not words
                         % (settings,))
    row = board.money_for(len(players))
    game = Game(board=board, players=players, seed=seed, settings=settings,
                money=(row.start,) * len(players), retire=row.retire,
                case=Case(0, 0, start(board.crime_scenes[0])), t=t)   # until the first card
    game, deck = _shuffled(game, range(len(board.thieves)))
    (u,), game = _draws(game, 1)
    game = replace(game, deck=deck, turn=pick(u, len(players)))
    effects = []
    game = _reveal(game, t, effects)
    effects.append(ev.TurnBegan(t, game.player))
    return replace(game, last=tuple(effects))


def _reveal(game, t, effects):
    """The next thief card turned up: a new thief on a crime scene."""
    if not game.deck:
        game, deck = _shuffled(game, game.discard)
        game = replace(game, deck=deck, discard=())
        effects.append(ev.DeckReshuffled(t, len(deck)))
    (u,), game = _draws(game, 1)
    scenes = game.board.crime_scenes
    case = Case(number=len(game.caught) + 1, card=game.deck[0],
                thief=start(scenes[pick(u, len(scenes))]))
    game = replace(game, case=case, deck=game.deck[1:])
    effects.append(ev.NewThief(t, case.number, game.card().name, game.card().reward))
    return game


# --- The step function --------------------------------------------------------------------------

def step(game, command):
    """Apply one command: returns ``(game, effects)``.  Raises IllegalMove, leaving ``game``
    as it was."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalMove(Msg("stop_thief.refuse.not_a_command", command=repr(command)))
    if game.over:
        raise IllegalMove(Msg("stop_thief.refuse.game_over", winner=game.winner))
    t = max(game.t, command.t)
    effects = []
    game = handler(replace(game, t=t), command, t, effects)
    return replace(game, last=tuple(effects)), effects + sounds_for(effects)


#: The sound for each clue kind of :data:`.thief.CLUES` (the display synthesises them).
#: Names of the sound bank (:mod:`rig.games.stop_thief.sounds`), not words: a player hears them.
SOUND_OF_CLUE = {"crime": "alarm", "inside": "footsteps", "subway": "loudspeaker",
                 "door": "creaking door", "window": "breaking glass",  # not words: sound names
                 "outside": "street commotion", "stayed": "hold music"}  # not words: sound names


def sounds_for(effects):
    """The :class:`~rig.core.gamekit.Sound` effects a step's ``effects`` call for, in order:
    each clue (and each replay) plays its kind's sound, and a new thief (a crime has just been
    committed) sounds the alarm.  :func:`step` returns them after the other effects (the
    game's ``last``, what its screen says, holds only those)."""
    out = []
    for effect in effects:
        if isinstance(effect, ev.ClueGiven):
            out.append(Sound(effect.t, SOUND_OF_CLUE[effect.kind]))
        elif isinstance(effect, ev.NewThief):
            out.append(Sound(effect.t, "alarm"))
    return out


def refusal(game, command):
    """Why ``command`` would be refused now, or None when it would be taken (the phone greys out
    what it cannot do)."""
    try:
        step(game, command)
    except IllegalMove as exc:
        return exc.msg or str(exc)
    return None


def not_a_player(game, name):
    """The refusal for a name that is not one of ``game``'s players."""
    return Msg("stop_thief.refuse.not_a_player", name=repr(name), players=game.players)


def _check_by(game, by, expected):
    if by is None or by == expected:
        return
    if by not in game.players:
        raise IllegalMove(not_a_player(game, by))
    raise IllegalMove(Msg("stop_thief.refuse.not_your_turn", player=expected, by=by))


def _pass_turn(game, t, effects):
    game = replace(game, turn=(game.turn + 1) % len(game.players), clued=False)
    effects.append(ev.TurnBegan(t, game.player))
    return game


def _on_clue(game, command, t, effects):
    if game.clued:
        following = game.players[(game.turn + 1) % len(game.players)]
        if command.by == game.player and following != game.player:
            raise IllegalMove(Msg("stop_thief.refuse.clue_taken", player=game.player,
                                  following=following))
        _check_by(game, command.by, following)
        game = _pass_turn(game, t, effects)
    else:
        _check_by(game, command.by, game.player)
    (u,), game = _draws(game, 1)
    case = game.case
    thief, kind = move(game.board, case.thief, u, game.settings)
    wave = case.crime_wave
    robbed = kind == "crime" or (kind == "stayed" and game.settings.crime_wave_on_stay
                                 and game.board.space(thief.space).crime)
    if robbed:
        wave += CRIME_WAVE_BONUS
    case = replace(case, thief=thief, clues=case.clues + (Clue(kind, game.player),),
                   crime_wave=wave)
    effects.append(ev.ClueGiven(t, kind, len(case.clues), game.player))
    if robbed:
        effects.append(ev.CrimeWave(t, CRIME_WAVE_BONUS, game.card().reward + wave))
    return replace(game, case=case, clued=True)


def _on_replay(game, command, t, effects):
    if command.by is not None and command.by not in game.players:
        raise IllegalMove(not_a_player(game, command.by))
    clues = game.case.clues
    if not clues:
        raise IllegalMove(Msg("stop_thief.refuse.no_clue_to_replay", thief=game.card().name,
                              player=game.player))
    effects.append(ev.ClueGiven(t, clues[-1].kind, len(clues), clues[-1].by, replay=True))
    return game


def _check_turn_has_clue(game, code):
    """``code``: the refusal saying what the turn's clue must come before."""
    if not game.clued:
        raise IllegalMove(Msg(code, player=game.player))


def _on_arrest(game, command, t, effects):
    _check_by(game, command.by, game.player)
    space = command.space
    if isinstance(space, bool) or not isinstance(space, int) or space not in game.board.by_key \
            or not game.board.space(space).numbered:
        numbers = game.board.numbers
        raise IllegalMove(Msg("stop_thief.refuse.not_a_space", space=repr(space),
                              board=game.board.name, first=str(numbers[0]),
                              last=str(numbers[-1])))
    _check_turn_has_clue(game, N_("stop_thief.refuse.arrest_before_clue"))
    who, case = game.player, game.case
    i = game.turn
    if space != case.thief.space:
        fine = min(WRONG_ARREST_FINE, game.money[i])
        game = replace(game, money=_add(game.money, i, -fine), attempts=game.attempts + (
            Attempt(t, who, space, case.number, False, -fine),))
        effects.append(ev.WrongArrest(t, who, space, fine))
        return _pass_turn(game, t, effects)
    card = game.card()
    paid = card.reward + case.crime_wave
    case = replace(case, caught_by=who)
    game = replace(game, money=_add(game.money, i, paid), case=case,
                   caught=game.caught + (case,), discard=game.discard + (case.card,),
                   attempts=game.attempts + (Attempt(t, who, space, case.number, True, paid),))
    effects.append(ev.Arrested(t, who, space, case.number, card.name, card.reward,
                               case.crime_wave, paid, case.thief.path))
    if game.money[i] >= game.retire:
        effects.append(ev.Retired(t, who, game.money[i]))
        return replace(game, winner=who)
    game = _reveal(game, t, effects)
    return _pass_turn(game, t, effects)


def _add(money, i, amount):
    return money[:i] + (money[i] + amount,) + money[i + 1:]


def _on_end_turn(game, command, t, effects):
    _check_by(game, command.by, game.player)
    _check_turn_has_clue(game, N_("stop_thief.refuse.end_before_clue"))
    return _pass_turn(game, t, effects)


_HANDLERS = {
    ev.GetClue: _on_clue,
    ev.ReplayClue: _on_replay,
    ev.Arrest: _on_arrest,
    ev.EndTurn: _on_end_turn,
}
