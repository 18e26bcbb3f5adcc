"""Cleptómano as the rig's contract says a game (:class:`rig.core.contract.Game`), over the
core it has always had: :mod:`rig.games.cleptomano.rules.engine` (the match and its ``step``),
:mod:`rig.games.cleptomano.rules.recording`, :mod:`rig.games.cleptomano.rules.replay` and
:mod:`rig.games.cleptomano.rules.calls`.

Cleptómano is the museum's game: its live hosting is the :class:`rig.shell.daemon.Rig`, whose
sensors feed a :class:`~rig.games.cleptomano.rules.referee.Referee` (touch detection, debounced
buttons) that turns raw input changes into the events this ``step`` referees.  So here the state is
the match value (:class:`rig.games.cleptomano.rules.engine.Match`) and ``step`` the core's step over
one *detected* event (a start press, a touch, a choice, a loot confirmation, a tick); ``replay``
re-referees a whole recording (raw inputs included) exactly as ``cleptomano replay`` always has.
What it cannot answer yet:
:meth:`Cleptomano.line` records only the commands a recording holds (a detected event is
recorded by the Rig as the raw input changes behind it), and :meth:`Cleptomano.view` is what the
match value alone says (the scoreboard the screen shows needs the museum's sensors and clock).
"""

import re

from .rules import calls, recording, engine as rules
from .rules import replay
from .rules import events as ev
from .rules.layout import format_layout, parse_layout, validate_layout
from .rules.view import Phase, board_json, looks_the_same
from ...core.errors import IllegalMove, RequestError, RulesError
from ...core.msg import Msg
from .rules.levels import PRESETS, refusal
from ..base import GameBase, Outcome


class Cleptomano(GameBase):
    name = "cleptomano"
    title = "Cleptómano"
    recording = recording.FORMAT
    prefix = "match"
    section = "match"
    museum = True
    min_players, max_players = 1, rules.MAX_PLAYERS
    seed_bound = 1           # nothing is left to chance: the header holds no seed
    hides = False            # no secret, no dice: its live recording holds what the table sees
    shows_calls = True       # the scoreboard shows its own banners
    example = ('{"choose": "thief", "player": "Ben"}, {"loot": {"paintings": 1, "relics": 0}}, '
               '{"undo": "touch"} or {"new_match": {"players": ["Ana", "Ben"], "difficulty": '
               '"normal", "first_thief": "Ana"}}')  # not words: a command example (JSON)

    def new_game(self, players, seed, settings=None):
        """The match about to begin; ``settings`` the ``[match]`` table (its level and first
        thief, when that one plays), or None: the normal level, the first player first."""
        level = settings.level if settings is not None else PRESETS["normal"]
        first = settings.first_thief if settings is not None else None
        return rules.new_match(players, level, first if first in tuple(players) else None)

    def header(self, state):
        return recording.header_for(state.players, state.level, state.first_thief).to_json()

    def step(self, state, command):
        return rules.step(state, command)

    def line(self, command, state, effects):
        """The line of a recorded command (a choice, a loot, an undo, a tick...); a detected
        event (a press, a touch) is recorded by the Rig as the input changes behind it: None."""
        try:
            return recording.item_to_json(command)
        except TypeError:
            return None

    def end_line(self, t):
        return {"t": t, "end": True}

    def deadline(self, state):
        return rules.next_deadline(state)

    def tick(self, t):
        return ev.Tick(t)

    def view(self, state, now_t=None):
        """What the match value alone tells the table: its result so far."""
        return dict(self.result(state), game=self.name, over=self.over(state))

    def player_view(self, state, player, now_t=None):
        if player not in state.players:
            raise refusal(IllegalMove,
                          "%r is not a player of this match; the players are %s"  # not words
                          % (player, ", ".join(state.players)),
                          Msg("cleptomano.refuse.not_a_player", player=str(player),
                              players=tuple(state.players)))
        return self.view(state, now_t)          # a Cleptómano player holds no secret

    def words(self, effect):
        said = calls.say(effect)
        return None if said is None else said[0]

    def over(self, state):
        return rules.is_over(state)

    def result(self, state):
        return replay.result(state)

    def outcome(self, result):
        """``code`` "solo" (a solo heist: ``detail`` its title), "won", or "no-winner" (no
        winner yet; ``over`` only once the recording says the match ended: ``history`` reads
        the end line); ``detail`` also holds the round wins and each round's scores."""
        players = tuple(result["players"])
        wins = tuple(result["round_wins"].items())
        rounds = tuple((r["round"], tuple(r["scores"].items())) for r in result["rounds"])
        detail = (("title", result["title"]), ("round_wins", wins), ("rounds", rounds))
        if result["title"] is not None or len(players) == 1:
            code = "solo"
        elif result["winner"]:
            code = "won"
        else:
            code = "no-winner"
        return Outcome(over=bool(result["winner"]) or result["title"] is not None,
                       winners=(result["winner"],) if result["winner"] else (),
                       scores=wins, code=code, detail=detail)

    def outcome_words(self, outcome):
        return calls.match_outcome_words(outcome)

    def players_in(self, result):
        return tuple(result["players"])

    def parse_command(self, obj):
        return recording.parse_item(obj, 1)

    def replay(self, lines, path=None):
        return replay.replay_lines(lines, path)

    # --- the phones: the guard's phone, the scoreboard, the layout check ----------------------
    #: The lines a phone may send: the guard's commands.  Inputs come from the museum's
    #: sensors; restart, tick and end lines are the rig's own.
    phone_commands = (ev.Choose, ev.ConfirmLoot, ev.UndoTouch, ev.NewMatch)
    #: The phone is the guard's, whoever's it is: a command is by the phone's name.
    seated_phones = False

    def phone_json(self, screen):
        """The scoreboard, every field by its name (``GET /api/state``), without the code."""
        return board_json(screen)

    def same_snapshot(self, a, b):
        """Equal but for the time, whose whole seconds as shown are equal too: the phones
        count on between two pushes themselves."""
        return looks_the_same(a, b)

    def switch_refusal(self, screen, end):
        """A turn is never cut short (a hand may be in the museum); between turns the night
        may switch, a match unfinished or not."""
        if screen is not None and screen.phase == Phase.TURN:
            return Msg("rig.night.turn_running", thief=screen.thief)
        return None

    def recording_entry(self, result, finished, live=False):
        """A match's players, winner, solo title, round wins, each one's points, whether it
        was decided (a winner, a solo title) and whether it was finished (its end line written,
        or decided: a decided match still open for the guard's correction is finished, not
        "being played").  None for a match in which nobody played a turn (a start, a restart,
        a switch of game opened and closed it), unless it is the ``live`` one: such matches
        are left out of the listings and ``history``."""
        if not result["turns"] and not result["tiebreak"] and not live:
            return None
        decided = bool(result["winner"]) or result["title"] is not None
        return dict(players=result["players"], winner=result["winner"],
                    title=result["title"], round_wins=result["round_wins"],
                    scores=_totals(result), decided=decided,
                    finished=decided or finished)


def _totals(result):
    """Each player's points: over the match's rounds (tiebreak attempts decide, they do not
    add), or the solo heist's own turn."""
    totals = {p: 0 for p in result["players"]}
    if result["rounds"]:
        for row in result["rounds"]:
            for player, score in row["scores"].items():
                totals[player] += score or 0
    else:
        for turn in result["turns"]:
            totals[turn["thief"]] += turn["score"] or 0
    return totals


def check_layout(obj, english):
    """``POST /api/layout``: ``{"layout": "4: L-I R-II; ...", "lasers": 4}``: every rule the
    layout breaks (``problems``, codes the web says in the phone's language), the lasers they
    name (``bad_lasers``, read from their English words: "laser 4") and the layout as the rig
    writes it; RequestError (400) for a layout that is no text or does not parse."""
    text, lasers = obj.get("layout"), obj.get("lasers")
    if not isinstance(text, str):
        raise RequestError(Msg("rig.web.layout_not_text", layout=_short(text)))
    if lasers is not None and (isinstance(lasers, bool) or lasers not in (3, 4, 5)):
        raise RequestError(Msg("rig.web.bad_lasers", lasers=_short(lasers)))
    try:
        declared = parse_layout(text)
    except RulesError as exc:
        raise RequestError(exc.msg if exc.msg is not None else str(exc)) from None
    problems = validate_layout(declared, lasers)
    named = set()
    for problem in problems:
        named.update(int(n) for n in re.findall(r"\blaser (\d+)", english(problem)))
    return {"legal": not problems, "problems": problems, "bad_lasers": sorted(named),
            "layout": format_layout(declared)}


def _short(value):
    """A value a refusal quotes, at most 40 characters of its Python form."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


Cleptomano.phone_checks = (("layout", ("layout", "lasers"), check_layout),)


GAME = Cleptomano()
