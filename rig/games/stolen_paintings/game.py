"""Stolen Paintings as the rig's contract says a game (:class:`rig.core.contract.Game`): its
rules (``rules/``) in the one vocabulary the host, the faces and ``cleptomano replay`` speak."""

from ...core import gamekit
from ...core.msg import N_, Msg
from ..base import GameBase, Outcome
from . import rules as sp
from .rules.calls import game_outcome_words
from .rules.model import PLAYERS


class StolenPaintings(GameBase):
    name = recording = prefix = "stolen-paintings"
    title = "Stolen Paintings"  # not words: the game's name in the log and the CLI
    howto = (
        N_("stolen_paintings.howto.1"),
        N_("stolen_paintings.howto.2"),
        N_("stolen_paintings.howto.3"),
    )
    #: The name a player reads: "Picturi furate" in Romanian, as in the rulebook's language.
    title_msg = Msg(N_("stolen_paintings.title"))
    section = "stolen_paintings"
    min_players, max_players = PLAYERS
    secret_commands = (sp.commands.Steal, sp.commands.Mark)
    #: Its end line came with issue 30: the open marker still says which recording was cut
    #: off (one from before ends without an end line, cleanly stopped or not).
    marks_open = True

    example = ('{"start": true}, {"steal": [2, 6]} or '
               '{"mark": [2, 5]}')  # not words: the JSON commands, for the builder

    def new_game(self, players, seed, settings=None):
        """``settings`` the ``[stolen_paintings]`` table, or None: every default."""
        kwargs = {} if settings is None else {"exhibition_s": settings.exhibition_s,
                                              "max_marks": settings.max_marks,
                                              "wrong_mark_cost": settings.wrong_mark_cost}
        return sp.new_game(players, **kwargs)

    def header(self, state):
        return sp.recording.header(state)

    def step(self, state, command):
        return sp.step(state, command)

    def line(self, command, state, effects):
        return sp.recording.line(command)

    def end_line(self, t):
        return sp.recording.end_line(t)

    def view(self, state, now_t=None):
        return sp.public_view(state, now_t)

    def player_view(self, state, player, now_t=None):
        return sp.player_view(state, player, now_t)

    def secrets(self, state):
        """Until the round's reveal: the paintings stolen (the thief's) and each detective's
        marks (their own), as the views list them (sorted place numbers)."""
        r = state.current
        if r is None:
            return ()
        stolen = ((r.thief, sorted(r.stolen)),) if r.stolen else ()
        return stolen + tuple((p, sorted(m)) for p, m in r.ballots)

    def deadline(self, state):
        return sp.next_deadline(state)

    def tick(self, t):
        return sp.Tick(t)

    def words(self, effect):
        return sp.call(effect)

    def over(self, state):
        return state.over

    def result(self, state):
        return sp.result(state)

    def outcome(self, result):
        scores = tuple(result["totals"].items())
        if not result["over"]:
            return Outcome(False, (), scores, "unfinished",
                           (("round", len(result["rounds"]) + 1),))
        return Outcome(True, tuple(result["winners"]), scores, "won")

    def outcome_words(self, outcome):
        return game_outcome_words(outcome)

    def parse_command(self, obj):
        command = sp.recording.parse_item(obj, 1)
        if isinstance(command, sp.Tick):
            gamekit.fail("a phone cannot end the game; the rig writes the end line when it "
                         "stops", 1)
        return command

    def replay(self, lines, path=None):
        return sp.replay_lines(lines, path)

    def restore(self, lines, path=None):
        return sp.recording.restore_lines(lines, path)


GAME = StolenPaintings()
