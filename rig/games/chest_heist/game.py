"""The chest heist as the rig's contract says a game (:class:`rig.core.contract.Game`): its
rules (``rules/``) in the one vocabulary the host, the faces and ``cleptomano replay`` speak."""

from ...core import gamekit
from ...core.msg import N_, Msg
from ..base import GameBase, Outcome
from . import rules as ch
from .rules.calls import game_outcome_words


class ChestHeist(GameBase):
    name = recording = prefix = "chest-heist"
    title = "The chest heist"  # not words: the builder's name (players read title_code's)
    howto = (N_("chest_heist.howto.1"), N_("chest_heist.howto.2"), N_("chest_heist.howto.3"))
    #: The game's name in the players' languages (README "Languages": for the faces).
    title_code = N_("chest_heist.name")
    title_msg = Msg(title_code)
    section = "chest_heist"
    min_players = max_players = 1
    solo = True
    ANSWERS = ("rolled",)
    example = ('{"roll": true}, {"reroll": [4, 5]}, {"mark": "11", "dice": [2, 3], '
               '"skimmers": [1]}, {"charge": 1, "dice": [1]}, {"end_turn": true} or '
               '{"diamonds": 14}')  # not words: the JSON commands, for the builder

    def new_game(self, players, seed, settings=None):
        """``settings`` the ``[chest_heist]`` table (its sheet), or None: every default."""
        sheet = settings.sheet if settings is not None else None
        return ch.new_game(seed, player=players[0] if players else None, sheet=sheet)

    def header(self, state):
        return ch.recording.header(state)

    def step(self, state, command):
        return ch.step(state, command)

    def line(self, command, state, effects):
        return ch.recording.line(command, state)

    def view(self, state, now_t=None):
        return ch.public_view(state)

    def player_view(self, state, player, now_t=None):
        return ch.player_view(state, player)

    def words(self, effect):
        return ch.call(effect)

    def over(self, state):
        return ch.result(state)["score"] is not None

    def result(self, state):
        return ch.result(state)

    def outcome(self, result):
        player = result.get("player") or "solo"
        if result["score"] is None:
            return Outcome(False, (), (), "unfinished", (("locked", len(result["locked"])),))
        title = result["title"] or {}
        return Outcome(True, (), ((player, result["score"]),), "scored",
                       (("score", result["score"]), ("title_fr", title.get("fr")),
                        ("title_en", title.get("en"))))

    def outcome_words(self, outcome):
        return game_outcome_words(outcome)

    def parse_command(self, obj):
        if "roll" in obj:
            return ch.Roll(0.0) if obj["roll"] is True and len(obj) == 2 else gamekit.fail(
                "a roll is {\"roll\": true} alone: the rig rolls the dice", 1)
        if "reroll" in obj and isinstance(obj["reroll"], list):
            return ch.Reroll(0.0, None, tuple(obj["reroll"])) if len(obj) == 2 else \
                gamekit.fail("a reroll is {\"reroll\": [places 1-5]} alone", 1)
        return ch.recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return ch.replay_lines(lines, path)

    def restore(self, lines, path=None):
        return ch.recording.restore_lines(lines, path)


GAME = ChestHeist()
