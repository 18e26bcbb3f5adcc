"""Cleptómano as the rig's contract says a game (:class:`rig.core.contract.Game`), played turn by
turn through it like every other game.

The state is the whole referee (:class:`rig.games.cleptomano.rules.referee.Referee`): the match
value (:class:`rig.games.cleptomano.rules.engine.Match`) and the museum's detector (touch
episodes, debounced buttons, the hand, the relics), on the match's clock.  ``step`` takes what a
recording holds, one item at a time, exactly as ``cleptomano replay`` re-referees it: a raw
input change of the table (:meth:`Cleptomano.reading`: a contact, the hand sensor, a relic), a
guard's command (a choice, a loot, an undo, a new match) or a :class:`~.rules.events.Tick` (the
detector's and the turn's deadlines; a tick that ends a turn is written, so that a crash right
after it cannot make the ended turn void).  The referee is stepped on a copy, so a state is a
value (a refused command leaves it as it was).  :meth:`Cleptomano.table_effects` turns the
referee's effects into the host's shared ones (:mod:`.rules.shared`).
"""

import re

from .rules import calls, recording, engine as rules
from .rules import replay
from .rules import audit
from .rules import overrides
from ...table.debounce import DetectSettings
from ...table.names import INPUT_NAMES
from .rules.referee import Referee
from .rules.shared import fault, shared
from .rules.board import build as build_board
from .rules import wiringcheck
from .rules.wiringcheck import START, STOP, CheckWiring
from ...table.names import Kind, parse
from .rules import events as ev
from .rules.layout import format_layout, parse_layout, validate_layout
from .rules.view import Phase, board_json, looks_the_same
from ...core.errors import IllegalMove, RequestError, RulesError
from ...core.gamekit import own_view
from ...core.msg import N_, Msg
from .rules.levels import PRESETS, refusal
from ..base import GameBase, Outcome


_CARRIED = (Kind.TOF, Kind.RELIC)

#: The codes of the host's own moments (:data:`rig.core.contract.HOST_MOMENTS`) at the museum.
HOST_WORDS = {
    "resumed_from": N_("cleptomano.call.resumed_from"),
    "phones_unpaired": N_("cleptomano.call.phones_unpaired"),
    "wiring_started": N_("cleptomano.wiring.started"),
    "wiring_line": N_("cleptomano.wiring.log"),
    "wiring_done": N_("cleptomano.wiring.all_done"),
    "wiring_waits": N_("cleptomano.refuse.wiring_waits"),
    "recording_works": N_("cleptomano.fault.recording_works"),
    "recording_kept": N_("cleptomano.recording.kept"),
    "recording_held": N_("cleptomano.recording.held"),
    "recording_full": N_("cleptomano.recording.full"),
}  # what a new match takes over from the last (not on pins)


class Cleptomano(GameBase):
    name = "cleptomano"
    title = "Cleptómano"
    howto = (
        N_("cleptomano.howto.1"),
        N_("cleptomano.howto.2"),
        N_("cleptomano.howto.3"),
        N_("cleptomano.howto.4"),
    )
    recording = recording.FORMAT
    prefix = "match"
    section = "match"
    streams_replay = True    # its replay reads the lines as they come (names the first bad)
    min_players, max_players = 1, rules.MAX_PLAYERS
    seed_bound = 1           # nothing is left to chance: the header holds no seed
    hides = False            # no secret, no dice: its live recording holds what the table sees
    shows_calls = True       # the scoreboard shows its own banners
    example = ('{"choose": "thief", "player": "Ben"}, {"loot": {"paintings": 1, "relics": 0}}, '
               '{"undo": "touch"} or {"new_match": {"players": ["Ana", "Ben"], "difficulty": '
               '"normal", "first_thief": "Ana"}}')  # not words: a command example (JSON)

    #: The guard may correct the last turn's haul or touches after the match ended, and set
    #: up the next match.
    taken_when_over = (ev.ConfirmLoot, ev.UndoTouch, ev.Why, ev.NewMatch)
    #: The table's inputs whose changes its ``step`` takes (:meth:`reading`): every contact,
    #: the hand sensor and the relics.
    table_inputs = INPUT_NAMES

    def new_game(self, players, seed, settings=None, detect=None):
        """The match about to begin, its referee at rest; ``settings`` the ``[match]`` table
        (its level and first thief, when that one plays), or None: the normal level, the first
        player first; ``detect`` the ``[detect]`` table (None: the recording contract's
        defaults)."""
        level = settings.level if settings is not None else PRESETS["normal"]
        first = settings.first_thief if settings is not None else None
        match = rules.new_match(players, level, first if first in tuple(players) else None)
        return Referee(match, detect or DetectSettings())

    def header(self, state, rig=None):
        match = state.match
        return recording.header_for(match.players, match.level, match.first_thief,
                                    state.detector.settings, rig=rig).to_json()

    def reading(self, t, name, value):
        """A table input's change as what this game steps: the recording's input line."""
        return ev.InputChange(t, name, value)

    def reflex_inputs(self, state):
        """The rods in play while a turn runs (their touch buzzes at once), else none."""
        return state.reflex_inputs()

    def step(self, state, command):
        """Referee one recorded item on a copy of ``state``: ``(referee, effects)``, or a
        RulesError (the state given is left as it was).  A tick fires every deadline due by its
        time; one that ended a turn is then fed as the recording's tick line is replayed."""
        return self.step_owned(state.copy(), command)

    def step_owned(self, state, command):
        """:meth:`step` on a state the caller gives up (the host's, for the table's inputs and
        the ticks, which are never refused): the referee goes on in place, with no copy on the
        touch-to-buzzer path."""
        referee = state
        if referee.closed:
            raise refusal(IllegalMove, "this match was closed by a new match; nothing more is "
                          "played in it"  # not words: the English of an error
                          , Msg("cleptomano.refuse.match_over"))
        if type(command) is ev.Tick:
            effects = referee.advance(command.t)
            if any(type(e) is ev.TurnEnded for e in effects):
                effects.extend(referee.feed(ev.Tick(referee.t)))
        else:
            effects = referee.feed(command)
        return referee, effects

    def line(self, command, state, effects):
        """The line of a recorded item (an input change, a choice, a loot, an undo, a new
        match); a tick's only when it ended a turn (the replay fires the others on the way);
        the end line is :meth:`end_line`'s."""
        if type(command) is ev.Tick:
            if not any(type(e) is ev.TurnEnded for e in effects):
                return None
            command = ev.Tick(state.t)
        elif type(command) is ev.End:
            return None
        try:
            return recording.item_to_json(command)
        except TypeError:
            return None

    def end_line(self, t):
        return {"t": t, "end": True}

    def deadline(self, state):
        return None if state.closed else state.next_deadline()

    def tick(self, t):
        return ev.Tick(t)

    def view(self, state, now_t=None):
        """What the match value alone tells the table: its result so far, each turn's fouls
        as codes (the replay's result says them in English)."""
        result = self.result(state)
        match = rules.unfinished(state.match, state.t)
        turns = [t for t in match.turns if t.outcome is not rules.TurnOutcome.VOID]
        result["turns"] = [dict(shown, fouls=[calls.foul_text(relic, before)
                                              for relic, before in turn.fouls])
                           for shown, turn in zip(result["turns"], turns)]
        return dict(result, game=self.name, over=self.over(state))

    def player_view(self, state, player, now_t=None):
        match = state.match
        if player not in match.players:
            raise refusal(IllegalMove,
                          "%r is not a player of this match; the players are %s"  # not words
                          % (player, ", ".join(match.players)),
                          Msg("cleptomano.refuse.not_a_player", player=str(player),
                              players=tuple(match.players)))
        return self.view(state, now_t)          # a Cleptómano player holds no secret

    def table_effects(self, state, t, effects):
        """The referee's effects as the host's shared ones
        (:func:`rig.games.cleptomano.rules.shared.shared`); the ready lamp heeds the museum's
        problems the referee sees.  A generator: the host sounds the buzzer before the step's
        words and banners are even built (the touch-to-buzzer path)."""
        return shared(effects, state.match, state.problems, state.t)

    def words(self, effect):
        """The effect's line, or else its banner's big word (a title earned, or none)."""
        said = calls.say(effect)
        if said is not None:
            return said[0]
        banner = calls.banner(effect)
        return None if banner is None else banner.title

    def over(self, state):
        """The match is over, or a new match closed it."""
        return state.closed or rules.is_over(state.match)

    def result(self, state):
        """The result as the replay of the recording so far says it: a running turn counts as
        unfinished."""
        return replay.result(rules.unfinished(state.match, state.t))

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

    def replay(self, lines, path=None, overrides=False):
        """The replay output; ``overrides``: with the referee's overrides (issue 31)."""
        return replay.replay_lines(lines, path, overrides)

    def override_lines(self, result):
        """The referee's overrides a replay ``result`` lists (``replay --overrides``), one
        message each, as ``cleptomano history`` lists them under the match (issue 31)."""
        return tuple(overrides.line_msg(o) for o in result.get("overrides", ()))

    def audit(self, lines, path=None):
        """The recording's counts per input, turn and level (:mod:`.rules.audit`)."""
        return audit.audit(lines, path)

    def restore(self, lines, path=None):
        """The referee a recording's lines leave, as :meth:`replay` re-referees them."""
        header, items = recording.parse_lines(lines, path)
        return replay.referee(header, items, path)[0]

    # --- what the host asks of the match it runs (rig.shell.daemon) ---------------------------
    def new_match(self, players, level, first_thief, detect):
        """The match of these players at ``level`` (its first thief, or None), its referee at
        rest with the ``[detect]`` settings."""
        return Referee(rules.new_match(players, level, first_thief), detect)

    def match_header(self, set_up, players, level, first_thief, detect, rig=None):
        """The header of a new match's recording: from the ``new_match`` command ``set_up``
        that set it up, else from its players, level and first thief."""
        if set_up is not None:
            return recording.header_from(set_up, detect, rig=rig)
        return recording.header_for(players, level, first_thief, detect, rig=rig)

    def opened_words(self, players, level, path):
        """The log's line for a match opened with its recording at ``path``."""
        return Msg("cleptomano.call.new_match", players=tuple(players),
                   level=calls.level_name(level.name), words=calls.level_words(level),
                   path=str(path))

    def closed(self, state):
        """Whether a new match closed this one (it takes nothing more, not even a tick)."""
        return state.closed

    def set_up_of(self, state):
        """``(players, level, first_thief)`` of the match ``state`` plays (a resumed one)."""
        match = state.match
        return match.players, match.level, match.first_thief

    def match_decided(self, state):
        """Whether the match's result is settled (its last turn played)."""
        return rules.is_over(state.match)

    def live_result(self, state, t):
        """The result of the match running at ``t`` (the replay's, a running turn unfinished)."""
        return replay.result(rules.unfinished(state.match, t))

    def sounds_at_once(self, state, command):
        """Whether an input change held back by the pins' edge delay buzzes at once."""
        return state.sounds_at_once(command)

    def foresee_at(self, state):
        """When (the match's time) to work out the turn's end ahead, or None."""
        return state.to_foresee()

    def foresee(self, state):
        """Work out the turn's end ahead, so its buzz waits only for the tick line."""
        state.foresee()

    def refused(self, t, error):
        """The effect of a command refused at ``t`` with ``error`` (a code or words)."""
        return ev.Refused(t, ev.Refusal.CHOICE, error=error)

    def host_words(self, moment, params):
        """The words of the host's own moments at the museum (:data:`HOST_WORDS`)."""
        return Msg(HOST_WORDS[moment], **params)

    def refusal_words(self, effect):
        """The words a phone or key is answered with for a refusal effect."""
        return calls.refusal_text(effect)

    def fault_effect(self, t, source, words, active):
        """A device's fault (or its clearing) as this game's effect."""
        return ev.Fault(t, source, words, active)

    def table_fault(self, t, source, words, active):
        """The same as the host's shared :class:`~rig.core.effects.Fault`."""
        return fault(ev.Fault(t, source, words, active))

    def device_change(self, t, device, state):
        """The recording's device line (the audits count it; the match is unchanged)."""
        return ev.DeviceChange(t, device, state)

    def state_faults(self, state):
        """The faults the match itself sees (a stuck contact...), in words."""
        return tuple(calls.fault_text(f) for f in state.detector.faults())

    def input_values(self, state):
        """The table inputs' values as the match believes them."""
        return state.detector.values

    def carried_inputs(self, state):
        """The inputs a next match takes over from this one (not on pins: the hand sensor
        and the relics)."""
        return {name: value for name, value in state.detector.values.items()
                if parse(name).kind in _CARRIED}

    def correcting_player(self, state):
        """The guard of the running turn, else of the last turn (the one being corrected)."""
        match = state.match
        turn = match.current or (match.turns[-1] if match.turns else None)
        if turn is not None:
            return turn.guard
        nxt = rules.next_turn(match)
        return nxt.guard if nxt else None

    def playing(self, state):
        """Who is playing a turn now (None between turns)."""
        current = state.match.current
        return None if current is None else current.thief

    def screen_state(self, state, now_t, faults=(), banner=None, message=None, key_help=(),
                     roster=(), wiring=None):
        """What the screen shows of the match at ``now_t`` (its :class:`Scoreboard`), with
        the host's ``faults``, ``banner``, ``message``, ``key_help``, ``roster``, ``wiring``."""
        return build_board(state, now_t, faults=faults, banner=banner, message=message,
                           key_help=key_help, roster=roster, wiring=wiring)

    #: The wiring check the guard's keys run on the screen: its command and its actions.
    check_command = CheckWiring
    check_start, check_stop = START, STOP

    def new_wiring_check(self, config, hand, relics, timeout_s):
        """The wiring check (the table's :class:`rig.table.wiringcheck.WiringCheck`, in this
        game's words) of the pins of ``config``'s pin map its parts use (:mod:`.parts`: all of
        them), the hand sensor if ``hand`` and the three relics if ``relics``."""
        from .parts import PARTS
        return wiringcheck.wiring_check(config.pinmap, (config.tof.i2c_bus, config.tof.address),
                                        config.detect.hand_threshold_mm, hand, relics, timeout_s,
                                        inputs=PARTS.pin_inputs(config.pinmap.inputs))

    def check_words(self, lines):
        """The words of the check's summary lines, said as sentences."""
        return calls.sentences(lines)

    # --- its recordings as the host's files see them (rig.shell.session, rig.shell.storage) --
    def read_recording(self, lines, path=None):
        """A recording's lines as ``(header, items)`` (``items``: ``(line number, item)``)."""
        return recording.parse_lines(lines, path)

    def parse_line(self, obj, line=0):
        """One recording line's JSON value as its item (RecordingError for a bad one)."""
        return recording.parse_item(obj, line)

    def item_line(self, item):
        """The text of the recording line of one item (no newline)."""
        return recording.dumps(recording.item_to_json(item))

    def end_item(self, t):
        """The item of the line that ends a recording at ``t``."""
        return ev.End(t)

    def follow(self, path):
        """A recording read as it grows, refereed line by line (the tournament link's)."""
        from .recordings import Following
        return Following(path)

    def pick_resume(self, store, directory, players, level):
        """Which unfinished match to take up at a start: ``(path, state, torn)`` or None
        (see :func:`rig.games.cleptomano.recordings.pick_resume`)."""
        from .recordings import pick_resume
        return pick_resume(store, directory, players, level)

    def restart_item(self, state):
        """The item of the line a resumed recording goes on with (fed to the state)."""
        return ev.Restart(state.t)

    # --- the phones: the guard's phone, the scoreboard, the layout check ----------------------
    #: The lines a phone may send: the guard's commands.  Inputs come from the museum's
    #: sensors; restart, tick and end lines are the rig's own.
    phone_commands = (ev.Choose, ev.ConfirmLoot, ev.UndoTouch, ev.Why, ev.NewMatch)
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
        screen = own_view(screen)
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
