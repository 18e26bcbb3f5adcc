"""Canine Kleptomaniacs as the rig's contract says a game (:class:`rig.core.contract.Game`):
its rules (``rules/``) in the one vocabulary the host, the faces and ``cleptomano replay``
speak."""

from ...core import gamekit
from ...core.msg import N_
from ..base import GameBase, Outcome
from . import rules as canine
from .resources import example_cards
from .rules import calls
from .rules.scoring import holdings_to_json
from .rules import game as rules


class Canine(GameBase):
    name = prefix = "canine"
    recording = "canine-kleptomaniacs"
    title = "Canine Kleptomaniacs"      # not words: the game's name, the same in every language
    howto = (N_("canine.howto.1"), N_("canine.howto.2"), N_("canine.howto.3"))
    section = "canine"
    min_players, max_players = rules.MIN_PLAYERS, rules.MAX_PLAYERS
    secret_commands = (rules.ChooseDoggy, rules.Reveal)
    # The commands' JSON, for the builder's command line (its keys and names are not words).
    example = ('{"doggy": "Doggy A", "face_up": false}, {"draw": "action"}, {"empty": '  # not words
               '"action"}, {"play": "key", "parity": "odd", "discards": 1}, {"roll": true} or '
               '{"reveal": {"hiding_places": [{"cards": ["Slipper", "Slipper"]}]}}')  # not words

    def new_game(self, players, seed, settings=None):
        """``settings`` the ``[canine]`` table (its card table, None: the packaged example),
        or None: every default."""
        table = settings.table if settings is not None and settings.table is not None \
            else example_cards()
        return canine.new_game(
            players, table, seed=seed,
            optional_rule=settings.optional_rule if settings is not None else "off",
            longer_game=settings.longer_game if settings is not None else False)

    def header(self, state):
        return canine.header(state)

    def step(self, state, command):
        return canine.step(state, command)

    def line(self, command, state, effects):
        return canine.command_line(command, effects)

    def view(self, state, now_t=None):
        return canine.public_view(state)

    def player_view(self, state, player, now_t=None):
        return canine.player_view(state, player)

    def words(self, effect):
        return calls.words(effect)

    def secrets(self, state):
        """Until every area is in: each face-down Doggy card (its player's) and each revealed
        area (its player's: the others see only that it is in)."""
        if rules.is_final(state):
            return ()
        doggies = tuple((p, d) for p, d, up in state.doggies if not up)
        return doggies + tuple((p, holdings_to_json(h)) for p, h in state.entries)

    def choices(self, state):
        """The names the keys pick by place: the doggies, and the cards a Hiding Place takes
        (the card table's, public: they are printed on the cards)."""
        table = state.table
        return {"doggies": [d.name for d in table.doggies],
                "cards": [c.kind for c in table.collectables]
                + [c.name for c in table.bedroom if not c.hiding_place]}

    def over(self, state):
        return rules.is_final(state)

    def result(self, state):
        return canine.result(state)

    def outcome(self, result):
        if not result["final"]:
            return Outcome(False, (), (), "unfinished", (("rolls", len(result["rolls"])),))
        return Outcome(True, tuple(result["winners"]),
                       tuple(tuple(pt) for pt in result["standings"]), "won")

    def outcome_words(self, outcome):
        return calls.game_outcome_words(outcome)

    def parse_command(self, obj):
        if obj.get("roll") is True and len(obj) == 2:
            return canine.Roll(0.0)
        if "roll" in obj:
            gamekit.fail("a roll is {\"roll\": true}: the rig rolls the die", 1)
        return canine.recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return canine.replay_lines(lines, path)

    def restore(self, lines, path=None):
        return canine.recording.restore_lines(lines, path)


GAME = Canine()
