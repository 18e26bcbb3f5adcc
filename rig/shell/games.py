"""The companion games as the game host drives them: one small adapter a game.

Each game's pure core (:mod:`rig.core.games`) has its own names for the same few things: start
a game, its recording's header and lines, a step, the screen's and a phone's views, the words
for an effect, the sounds an effect calls for.  An adapter says them in one vocabulary, so one
host loop (:mod:`rig.shell.gamehost`) runs all four games and ``cleptomano replay`` finds a
recording's game by its header.  Adapters hold the game's settings (its config table) and no
state: the host owns the game value.
"""

import secrets
from importlib import resources

from ..core import gamekit as shared
from ..games.canine import rules as canine
from ..games.chest_heist import rules as ch
from ..games.stolen_paintings import rules as sp
from ..games.canine.rules import calls as canine_calls
from ..games.canine.rules import game as canine_game
from ..games.stop_thief.rules import calls as st_calls
from ..games.stop_thief.rules import recording as st_recording
from ..games.stop_thief.rules import rules as st_rules
from ..games.stop_thief.rules import views as st_views
from ..games.stop_thief.rules.board import board_to_dict
from ..games.stop_thief.rules.thief import Settings
from .boards import sample_town

#: The games ``cleptomano run --game`` knows, by their command-line names.
GAMES = ("stop-thief", "stolen-paintings", "chest-heist", "canine")


class Adapter:
    """What every game answers; the defaults are those of a game without a timer, a map, an
    end line or choices for the keys."""

    name = ""            # the command-line name, also the recording file's prefix
    recording = ""       # the header's "recording" value
    title = ""
    shows_calls = False  # the game's screen already shows the last calls itself
    solo = False         # one player: the first of the list plays
    seed_bound = 2 ** 63
    # The commands that carry a player's secret (a ballot, a hand): when one is refused, the
    # reason goes to that player's phone alone; the table hears only that it was refused.
    secret_commands = ()

    def __init__(self, config=None):
        self.config = config

    def new_seed(self):
        """A fresh seed from the operating system's randomness (recorded in the header)."""
        return secrets.randbelow(self.seed_bound)

    def end_line(self, t):
        return None

    def deadline(self, game):
        return None

    def tick(self, t):
        raise NotImplementedError("%s has no timer" % self.title)

    def board(self, game):
        return None

    def choices(self, game):
        return None

    def map_json(self, game):
        """The game's board map for the phones (JSON-ready), or None for a game without one."""
        return None

    @staticmethod
    def players_in(result):
        """Who played the game a replay ``result`` is of (a solo game names its one player)."""
        return result.get("players") or [result.get("player") or "solo"]

    def sounds(self, effects, before, after):
        """The sound names a step's ``effects`` call for (``before``/``after``: the public
        views around it); by default the effects' own :class:`~rig.core.gamekit.Sound`."""
        return [e.name for e in effects if isinstance(e, shared.Sound)]

    #: The words the rig answers with on a line, never sent by a phone.
    ANSWERS = ()

    def command_from_json(self, obj):
        """A phone's command: one recording line of this game without ``t`` and ``by`` (the
        host stamps the one, the paired phone is the other), and without what the rig answers
        on that line; a roll is ``{"roll": true}`` (the rig rolls).  RecordingError names what
        is wrong."""
        for key in ("t", "by") + self.ANSWERS:
            if key in obj:
                shared.fail("leave %r out of a command: the rig %s" % (key, {
                    "t": "stamps the time", "by": "adds the paired player's name"}.get(
                        key, "answers it")), 1)
        return self.parse_command(dict(obj, t=0.0))


class StopThief(Adapter):
    name = recording = "stop-thief"
    title = "Stop Thief!"
    shows_calls = True
    seed_bound = 2 ** 48

    def new_game(self, players, seed):
        cfg = self.config
        board = cfg.board if cfg is not None and cfg.board is not None else sample_town()
        settings = cfg.settings if cfg is not None else Settings()
        return st_rules.new_game(board, players, seed, settings)

    def header(self, game):
        return st_recording.header_json(game)

    def step(self, game, command):
        return st_rules.step(game, command)

    def line(self, command, game, effects):
        return st_recording.item_json(command, effects)

    def end_line(self, t):
        return st_recording.end_json(t)

    def view(self, game, now_t=None):
        return st_views.public_view(game)

    def player_view(self, game, player, now_t=None):
        return st_views.player_view(game, player)

    def words(self, effect):
        return st_calls.words(effect)

    def sounds(self, effects, before, after):
        from ..games.stop_thief.sounds import clue_sounds_for
        return clue_sounds_for(effects)

    def board(self, game):
        return game.board

    def map_json(self, game):
        return board_to_dict(game.board)      # the printed board: nothing on it is secret

    def over(self, game):
        return game.over

    def result(self, game):
        return st_recording.result(game)

    def outcome(self, result):
        money = ", ".join("%s $%s" % (p, format(m, ",")) for p, m in result["money"].items())
        won = ("winner %s" % result["winner"]) if result["winner"] else "no winner yet"
        return "%s  %s" % (won, money)

    ANSWERS = ("heard", "paid")

    def parse_command(self, obj):
        line = st_recording.parse_item(obj, 1)
        if line.command is None:
            shared.fail("a phone cannot end the game; the rig writes the end line when it "
                        "stops", 1)
        return line.command

    def replay(self, lines, path=None):
        return st_recording.replay_lines(lines, path)


class StolenPaintings(Adapter):
    name = recording = "stolen-paintings"
    title = "Stolen Paintings"
    secret_commands = (sp.commands.Steal, sp.commands.Mark)

    def new_game(self, players, seed):
        cfg = self.config
        settings = {} if cfg is None else {"exhibition_s": cfg.exhibition_s,
                                           "max_marks": cfg.max_marks,
                                           "wrong_mark_cost": cfg.wrong_mark_cost}
        return sp.new_game(players, **settings)

    def header(self, game):
        return sp.recording.header(game)

    def step(self, game, command):
        return sp.step(game, command)

    def line(self, command, game, effects):
        return sp.recording.line(command)

    def view(self, game, now_t=None):
        return sp.public_view(game, now_t)

    def player_view(self, game, player, now_t=None):
        return sp.player_view(game, player, now_t)

    def deadline(self, game):
        return sp.next_deadline(game)

    def tick(self, t):
        return sp.Tick(t)

    def words(self, effect):
        return sp.call(effect)

    def over(self, game):
        return game.over

    def result(self, game):
        return sp.result(game)

    def outcome(self, result):
        totals = ", ".join("%s %d" % kv for kv in result["totals"].items())
        if not result["over"]:
            return "unfinished (round %d)  %s" % (len(result["rounds"]) + 1, totals)
        return "winner%s %s  %s" % ("s" if len(result["winners"]) > 1 else "",
                                    " and ".join(result["winners"]), totals)

    def parse_command(self, obj):
        return sp.recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return sp.replay_lines(lines, path)


class ChestHeist(Adapter):
    name = recording = "chest-heist"
    title = "The chest heist"
    solo = True

    def new_game(self, players, seed):
        sheet = self.config.sheet if self.config is not None else None
        return ch.new_game(seed, player=players[0] if players else None, sheet=sheet)

    def header(self, game):
        return ch.recording.header(game)

    def step(self, game, command):
        return ch.step(game, command)

    def line(self, command, game, effects):
        return ch.recording.line(command, game)

    def view(self, game, now_t=None):
        return ch.public_view(game)

    def player_view(self, game, player, now_t=None):
        return ch.player_view(game, player)

    def words(self, effect):
        return ch.call(effect)

    def over(self, game):
        return ch.result(game)["score"] is not None

    def result(self, game):
        return ch.result(game)

    def outcome(self, result):
        if result["score"] is None:
            return "unfinished (%d of 12 chests locked)" % len(result["locked"])
        title = result["title"] or {}
        return "score %d: %s (%s)" % (result["score"], title.get("fr"), title.get("en"))

    ANSWERS = ("rolled",)

    def parse_command(self, obj):
        if "roll" in obj:
            return ch.Roll(0.0) if obj["roll"] is True and len(obj) == 2 else shared.fail(
                "a roll is {\"roll\": true} alone: the rig rolls the dice", 1)
        if "reroll" in obj and isinstance(obj["reroll"], list):
            return ch.Reroll(0.0, None, tuple(obj["reroll"])) if len(obj) == 2 else \
                shared.fail("a reroll is {\"reroll\": [places 1-5]} alone", 1)
        return ch.recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return ch.replay_lines(lines, path)


class Canine(Adapter):
    name = "canine"
    recording = "canine-kleptomaniacs"
    title = "Canine Kleptomaniacs"
    secret_commands = (canine_game.ChooseDoggy, canine_game.Reveal)

    def new_game(self, players, seed):
        cfg = self.config
        table = cfg.table if cfg is not None and cfg.table is not None else example_cards()
        return canine.new_game(players, table, seed=seed,
                               optional_rule=cfg.optional_rule if cfg is not None else "off",
                               longer_game=cfg.longer_game if cfg is not None else False)

    def header(self, game):
        return canine.header(game)

    def step(self, game, command):
        return canine.step(game, command)

    def line(self, command, game, effects):
        return canine.command_line(command, effects)

    def view(self, game, now_t=None):
        return canine.public_view(game)

    def player_view(self, game, player, now_t=None):
        return canine.player_view(game, player)

    def words(self, effect):
        return canine_calls.words(effect)

    def sounds(self, effects, before, after):
        from ..games.canine.sounds import cues
        return cues(before, after)

    def choices(self, game):
        """The names the keys pick by place: the doggies, and the cards a Hiding Place takes
        (the card table's, public: they are printed on the cards)."""
        table = game.table
        return {"doggies": [d.name for d in table.doggies],
                "cards": [c.kind for c in table.collectables]
                + [c.name for c in table.bedroom if not c.hiding_place]}

    def over(self, game):
        return canine_game.is_final(game)

    def result(self, game):
        return canine.result(game)

    def outcome(self, result):
        if not result["final"]:
            return "unfinished (%d roll%s)" % (len(result["rolls"]),
                                              "" if len(result["rolls"]) == 1 else "s")
        standings = ", ".join("%s %d" % tuple(pt) for pt in result["standings"])
        return "winner%s %s  %s" % ("s" if len(result["winners"]) > 1 else "",
                                    " and ".join(result["winners"]), standings)

    def parse_command(self, obj):
        if obj.get("roll") is True and len(obj) == 2:
            return canine.Roll(0.0)
        if "roll" in obj:
            shared.fail("a roll is {\"roll\": true}: the rig rolls the die", 1)
        return canine.recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return canine.replay_lines(lines, path)


def example_cards():
    """The packaged example card table (its numbers are placeholders)."""
    return canine.parse_card_table(resources.files("rig.games.canine.rules").joinpath(
        "data", "example_cards.toml").read_text(encoding="utf-8"))


ADAPTERS = {cls.name: cls for cls in (StopThief, StolenPaintings, ChestHeist, Canine)}
#: A recording's header ``"recording"`` value -> its game's adapter class.
BY_RECORDING = {cls.recording: cls for cls in ADAPTERS.values()}


def adapter_for(name, config=None):
    """The adapter of the game ``name`` (one of :data:`GAMES`), with its config table from the
    rig config ``config`` (None: every default)."""
    cls = ADAPTERS[name]
    table = None if config is None else getattr(config, name.replace("-", "_"))
    return cls(table)
