"""The coin heist as the rig's contract says a game (:class:`rig.core.contract.Game`): its pure
rules (``rules/``) in the one vocabulary the host, the faces and ``cleptomano replay`` speak.
The test suite's own game (README "Adding a game"): it lives wholly in this folder, its words
too (``locale/<lang>/LC_MESSAGES/coin_heist.po``, the ``coin_heist`` catalog)."""

from rig.core.msg import Msg, N_
from rig.games.base import GameBase, Outcome

from . import rules as coin


class CoinHeist(GameBase):
    name = recording = prefix = coin.GAME
    title = "Coin heist"        # not words: the game's name for the log and the command line
    #: The title a player reads, in the table's or the phone's language.
    title_msg = Msg(N_("coin_heist.title"))
    section = "coin_heist"
    min_players, max_players = 2, 4
    seed_bound = coin.SEED_MAX + 1
    ANSWERS = ("flipped",)
    example = '{"call": "heads"} or {"call": "tails"}'      # not words: JSON commands

    def new_game(self, players, seed, settings=None):
        """``settings`` the ``[coin_heist]`` table (its target), or None: every default."""
        return coin.new_game(players, seed, settings.target if settings is not None else 3)

    def header(self, state):
        return coin.header(state)

    def step(self, state, command):
        return coin.step(state, command)

    def line(self, command, state, effects):
        return coin.line(command, effects)

    def view(self, state, now_t=None):
        return coin.public_view(state)

    def player_view(self, state, player, now_t=None):
        return coin.player_view(state, player)

    def words(self, effect):
        return coin.words(effect)

    def over(self, state):
        return state.winner is not None

    def result(self, state):
        return coin.result(state)

    def outcome(self, result):
        won = result["winner"] is not None
        return Outcome(won, (result["winner"],) if won else (),
                       tuple(sorted(result["jewels"].items(), key=lambda pj: -pj[1])),
                       "won" if won else "unfinished", (("flips", len(result["flips"])),))

    def outcome_words(self, outcome):
        return coin.outcome_words(outcome.winners[0] if outcome.code == "won" else None,
                                  outcome.scores, outcome.get("flips"))

    def players_in(self, result):
        return tuple(result["players"])

    def parse_command(self, obj):
        command, _ = coin.parse_item(obj, 1)
        return command

    def replay(self, lines, path=None):
        return coin.replay_lines(lines, path)

    def restore(self, lines, path=None):
        return coin.restore_lines(lines, path)

    def secrets(self, state):
        return ()          # a coin heist has none: every call is made aloud


GAME = CoinHeist()
