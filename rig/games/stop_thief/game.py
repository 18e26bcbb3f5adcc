"""Stop Thief! as the rig's contract says a game (:class:`rig.core.contract.Game`): its rules
(``rules/``) in the one vocabulary the host, the faces and ``cleptomano replay`` speak."""

from ...core import gamekit
from ...core.msg import N_, Msg
from ..base import GameBase, Outcome
from .resources import sample_town
from .rules import calls, recording, rules, views
from .rules.board import MAX_PLAYERS, board_to_dict
from .rules.thief import Settings


class StopThief(GameBase):
    name = recording = prefix = "stop-thief"
    title = "Stop Thief!"             # not words: the brand, as logs and the CLI name it
    howto = (N_("stop_thief.howto.1"), N_("stop_thief.howto.2"), N_("stop_thief.howto.3"))
    #: The title a player reads, in the table's or the phone's language (the brand, and the
    #: Spanish edition's own title in Spanish).
    title_msg = Msg(N_("stop_thief.title"))
    section = "stop_thief"
    min_players, max_players = 2, MAX_PLAYERS
    shows_calls = True
    seed_bound = 2 ** 48
    ANSWERS = ("heard", "paid")
    example = ('{"clue": true}, {"replay": true}, {"arrest": 12} '  # not words: JSON commands
               'or {"end_turn": true}')

    def new_game(self, players, seed, settings=None):
        """``settings`` the ``[stop_thief]`` table (its board, None: the sample town; its
        thief's settings), or None: every default."""
        board = settings.board if settings is not None and settings.board is not None \
            else sample_town()
        thief = settings.settings if settings is not None else Settings()
        return rules.new_game(board, players, seed, thief)

    def header(self, state):
        return recording.header_json(state)

    def step(self, state, command):
        return rules.step(state, command)

    def line(self, command, state, effects):
        return recording.item_json(command, effects)

    def end_line(self, t):
        return recording.end_json(t)

    def view(self, state, now_t=None):
        return views.public_view(state)

    def player_view(self, state, player, now_t=None):
        return views.player_view(state, player)

    def secrets(self, state):
        """The thief's path (its crime scene to where it stands now) while it is at large:
        nobody's, the scanner's clues only say what kind of space it moved to."""
        case = state.case
        if state.over or case.caught_by is not None:
            return ()
        return ((None, list(case.thief.path)),)

    def words(self, effect):
        return calls.words(effect)

    def board(self, state):
        return state.board

    def map_json(self, state):
        return board_to_dict(state.board)      # the printed board: nothing on it is secret

    def over(self, state):
        return state.over

    def result(self, state):
        return recording.result(state)

    def outcome(self, result):
        won = result["winner"] is not None
        return Outcome(over=won, winners=(result["winner"],) if won else (),
                       scores=tuple(result["money"].items()),
                       code="won" if won else "unfinished")

    def outcome_words(self, outcome):
        return calls.game_outcome_words(outcome)

    def parse_command(self, obj):
        line = recording.parse_item(obj, 1)
        if line.command is None:
            gamekit.fail("a phone cannot end the game; the rig writes the end line when it "
                         "stops", 1)
        return line.command

    def replay(self, lines, path=None):
        return recording.replay_lines(lines, path)

    def restore(self, lines, path=None):
        return recording.restore_lines(lines, path)


GAME = StopThief()
