"""Sample Cleptómano scoreboards for every screen (and, through :func:`shot`, its set-up
screens and wiring check).

``cleptomano screenshot STATE OUT.png`` (:func:`rig.display.samples.screenshot`) renders one of
these without a display, so builders can check the layout on a laptop and the README can show
real frames.  The tests render the same samples.
"""

from dataclasses import replace

from .rules import calls
from ...core.msg import Msg
from .rules import events as ev
from ...core.errors import DisplayError
from ...core.phones import PhonesView
from .rules.view import BannerView, Piece, RoundRow, Scoreboard
from ...draw.kit import save_png
from . import setup_samples
from .keys import key_help
from .screen import draw

PLAYERS = ("Ana", "Bruno", "Carla", "Diego")

_ROUNDS = (
    RoundRow(1, {"Ana": 5, "Bruno": 0, "Carla": 3, "Diego": 2}, ("Ana",)),
    RoundRow(2, {"Ana": 4, "Bruno": 4, "Carla": None, "Diego": 1}, ()),
)
_ROUNDS_DONE = (
    RoundRow(1, {"Ana": 5, "Bruno": 0, "Carla": 3, "Diego": 2}, ("Ana",)),
    RoundRow(2, {"Ana": 4, "Bruno": 4, "Carla": 6, "Diego": 1}, ("Carla",)),
    RoundRow(3, {"Ana": 7, "Bruno": 3, "Carla": 0, "Diego": 2}, ("Ana",)),
)


def _pieces(*states):
    kinds = (("painting", 1), ("painting", 2), ("relic", 1), ("relic", 2), ("relic", 3))
    return tuple(Piece(k, n, s) for (k, n), s in zip(kinds, states))


_IN = "in place"     # not words: a piece's state (the screen words it)


def _said(effect):
    return calls.say(effect)[0]


def _haul(paintings, relics, touches, points):
    return Msg("cleptomano.haul", paintings=calls.count_paintings(paintings),
               relics=calls.count_relics(relics), touches=calls.count_touches(touches),
               points=calls.count_points(points))


def _tiebreak(thief, time_s, touches):
    return Msg("cleptomano.tiebreak.time", thief=thief, time="%.2f" % time_s,
               touches=calls.count_touches(touches), adjusted="%.2f" % (time_s + touches))


_TITLE = calls.title_msg(calls.criminal_title(60, 5, 4, "wide"))


_BASE = Scoreboard(
    phase="between", players=PLAYERS, round=2, level="normal", lasers=4, corridor="wide",
    timer_s=60.0, rounds=_ROUNDS, round_wins={"Ana": 1, "Bruno": 0, "Carla": 0, "Diego": 0},
    key_help=key_help(),
)

_TURN = replace(
    _BASE, phase="turn", thief="Carla", guard="Bruno", remaining_s=42.3, elapsed_s=17.7,
    touches=1, hand_inside=True,
    pieces=_pieces("taken", _IN, "broken", _IN, _IN), turn_score=1,
    message=_said(ev.TouchCounted(1.0, 5, 1)),
)


def _build():
    over = replace(_BASE, phase="over", rounds=_ROUNDS_DONE,
                   round_wins={"Ana": 2, "Bruno": 0, "Carla": 1, "Diego": 0}, winner="Ana",
                   round=3)
    return {
        "turn": _TURN,
        "turn-easy": replace(
            _TURN, level="easy", lasers=3, timer_s=None, remaining_s=None, elapsed_s=83.4,
            touches=0, pieces=_pieces(*[_IN] * 5), turn_score=0, message=None,
            hand_inside=False),
        "turn-last10": replace(
            _TURN, remaining_s=7.4, elapsed_s=52.6, touches=2, turn_score=2,
            pieces=_pieces("taken", "taken", _IN, _IN, _IN),
            message=_said(ev.TouchCounted(1.0, 7, 2))),
        "between": replace(_BASE, next_thief="Diego", next_guard="Bruno",
                           message=Msg("cleptomano.call.escaped", thief="Carla",
                                       haul=_haul(1, 0, 1, 1))),
        "between-notready": replace(
            _BASE, next_thief="Diego", next_guard="Bruno",
            ready_problems=tuple(calls.problem_text(ev.Problem(trouble, number)) for trouble, number
                                 in ((ev.Trouble.NOT_SEATED, 5), (ev.Trouble.RELIC_LYING, 2),
                                     (ev.Trouble.PAINTING_OFF, 1)))),
        # The sensor health on the ready page (issue 31): a rod silent 30 turns, a relic whose
        # frames stopped.
        "between-health": replace(
            _BASE, next_thief="Diego", next_guard="Bruno",
            health=(Msg("rig.health.rod_silent", rod=4, n=30),
                    Msg("rig.health.relic_silent", relic=2, n=3))),
        "between-loot": replace(
            _BASE, next_thief="Diego", next_guard="Bruno", awaiting_loot=True,
            ready_problems=(calls.problem_text(ev.Problem(ev.Trouble.PAINTING_OFF, 2)),),
            message=Msg("cleptomano.keys.haul_relics", haul=calls.count_paintings(1), most=3,
                        cancel=Msg("cleptomano.keys.esc_cancels"))),
        "caught": replace(_TURN, phase="between", banner=BannerView(
            "caught", Msg("cleptomano.banner.caught"),
            (calls.caught_words("Carla", "guard"),)), message=None),
        "escaped": replace(_TURN, phase="between", banner=BannerView(
            "escaped", Msg("cleptomano.banner.escaped"), (_haul(1, 2, 1, 3),)), message=None),
        "round": replace(_BASE, banner=BannerView(
            "round", Msg("cleptomano.banner.round_won", number=2),
            (Msg("cleptomano.banner.won_by", winners=("Ana", "Carla")),))),
        "match": replace(over, banner=BannerView(
            "match", Msg("cleptomano.banner.match_won", winner="Ana"),
            (Msg("cleptomano.banner.round_wins", wins=calls.wins_words(
                (("Ana", 2), ("Bruno", 0), ("Carla", 1), ("Diego", 0)))),))),
        "tiebreak": replace(_BASE, tiebreak=True, banner=BannerView(
            "tiebreak", Msg("cleptomano.banner.tiebreak"),
            (_tiebreak("Ana", 12.4, 1), _tiebreak("Carla", 15.1, 0)))),
        "title": replace(
            _BASE, players=("Ana",), phase="over", rounds=(RoundRow(1, {"Ana": 4}, ("Ana",)),),
            round_wins={"Ana": 1}, level="custom", lasers=5,
            title=calls.criminal_title(60, 5, 4, "wide"),   # the engine's: English
            banner=BannerView("title", _TITLE, (_TITLE,))),
        "table": over,
        "resumed": replace(_BASE, banner=BannerView(
            "resumed", Msg("cleptomano.banner.resumed"),
            (Msg("cleptomano.banner.turn_void", thief="Diego"),))),
        "faults": replace(
            # A stuck laser is a fault and keeps the museum from being ready, with the reason.
            _BASE, next_thief="Diego", next_guard="Bruno",
            ready_problems=(calls.problem_text(ev.Problem(ev.Trouble.LASER_STUCK, 4, 5.0)),),
            faults=(calls.fault_text(ev.StuckContact(0.0, "laser.4", after_s=5.0)),
                    Msg("cleptomano.screen.sample_fault"))),
        # The phone companion's corner between turns: the address as a QR code, the code.
        "phones": replace(_BASE, next_thief="Diego", next_guard="Bruno", phones=_PHONES),
        "phones-locked": replace(_BASE, next_thief="Diego", next_guard="Bruno", phones=replace(
            _PHONES, code=None, locked_s=42.2, wrong_codes=5)),
    }


_PHONES = PhonesView("http://192.168.1.23:8080/", "482913",
                     ("Ben's Pixel", "Ana"))  # not words: a phone's name, as its player typed it


SAMPLES = _build()
STATES = tuple(SAMPLES)


def sample_board(state_name: str) -> Scoreboard:
    """The sample :class:`Scoreboard` for ``state_name`` (one of :data:`STATES`)."""
    try:
        return SAMPLES[state_name]
    except (KeyError, TypeError):
        raise DisplayError("%r is not a sample screen; use one of %s"
                           % (state_name, ", ".join(STATES))) from None


#: The face's one way in (README "Adding a game"): the states ``cleptomano screenshot`` knows
#: of Cleptómano, its scoreboards (:data:`STATES`) then its set-up screens and wiring check
#: (:data:`rig.games.cleptomano.setup_samples.STATES`), and :func:`shot` for each.
SHOTS = STATES + setup_samples.STATES


def shot(name):
    """``(draw, thing)`` for the sample ``name`` of :data:`SHOTS`: ``draw(surface, thing)``."""
    if name in setup_samples.SAMPLES:
        return setup_samples.SAMPLES[name]
    return draw, sample_board(name)
