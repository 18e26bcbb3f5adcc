"""The attract screen (issue 31): entered after the table's idle time on the simulated table's
virtual clock, left by a touch, a key and a phone, never entered mid-turn; its decision pure
(rig.core.attract), its drawing the sample screens' (rig.draw.attract), in every language."""

import pytest

from rig.core import attract
from rig.core.contract import Outcome
from rig.core.errors import ConfigError
from rig.display.face import KeyedDisplay
from rig.shell.attract import AttractWatch, last_night
from rig.shell.config import load_config
from rig.words import english
from sim.harness import Harness, Recording

IDLE_S = 60
#: The simulated table's idle time: short, so that a test lets little virtual time pass.
SIM_IDLE_S = 5


# --- the decision, pure -----------------------------------------------------------------------

def test_the_idle_time_is_judged_on_the_hosts_clock():
    idle = attract.Idle(IDLE_S, last=0.0)
    assert not attract.judge(idle, 59.9, busy=False).shown
    idle = attract.judge(idle, 60.0, busy=False)
    assert idle.shown and idle.due_at() is None
    assert not attract.seen(idle, 61.0).shown                  # a touch wakes it
    assert attract.seen(idle, 61.0).due_at() == 121.0          # ... and the wait starts again
    # A turn (or a set-up, a check, a banner) counts as someone playing.
    assert not attract.judge(attract.Idle(IDLE_S), 500.0, busy=True).shown
    assert attract.judge(attract.Idle(IDLE_S), 500.0, busy=True).last == 500.0
    assert not attract.judge(attract.Idle(0), 1e9, busy=False).shown       # 0: never


def test_what_is_busy():
    from rig.core.gamekit import GameScreen
    from rig.games.cleptomano.rules.view import Phase, Scoreboard
    assert attract.busy(Scoreboard(phase=Phase.TURN))
    assert not attract.busy(Scoreboard(phase=Phase.BETWEEN))
    assert not attract.busy(Scoreboard(phase=Phase.OVER))
    assert attract.busy(GameScreen(game="stop_thief", view={}))
    assert not attract.busy(GameScreen(game="stop_thief", view={}, over=True))
    assert not attract.busy(None)


@pytest.mark.parametrize("value", [-1, 3601, 1.5, True, "300", None])
def test_a_bad_idle_time_is_one_clear_error(value):
    with pytest.raises(ConfigError) as caught:
        attract.check_idle_s(value)
    words = str(caught.value)
    assert "table.attract_after_s" in words and "0 to 3600" in words and "0: never" in words


def test_a_bad_idle_time_in_rig_toml_names_the_key(tmp_path):
    path = tmp_path / "rig.toml"
    path.write_text("[table]\nattract_after_s = 90000\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert "attract_after_s" in str(caught.value)
    path.write_text("[table]\nattract_after_s = 0\n")
    assert load_config(path).table.attract_after_s == 0
    assert load_config(None).table.attract_after_s == attract.IDLE_S[0]


def test_the_cards_cycle_and_drift():
    cards = attract.cards((("A", ("a1",)), ("B", ())), (("Ana", 2),), "2026-12-05", phones=None)
    view = attract.view(cards)
    assert [c.kind for c in view.cards] == ["game", "game", "standings"]
    shown = [attract.card_at(view, t * attract.CARD_S + 1) for t in range(4)]
    assert shown == [0, 1, 2, 0]
    places = [attract.drift(t * attract.CARD_S, 200, 100) for t in range(9)]
    assert len(set(places)) == 9 and places[0] == (100, 50)     # the centre first
    assert all(a != b for a, b in zip(places, places[1:]))
    assert attract.view(()) is None


def test_the_standings_count_each_nights_winners_once_by_name():
    outcomes = [Outcome(True, ("Ana",)), Outcome(True, ("ana ",)), Outcome(True, ("Ben",)),
                Outcome(True, ()), Outcome(False), Outcome(True, ("Ben", "Caro"))]
    assert attract.tally(outcomes) == (("Ana", 2), ("Ben", 2), ("Caro", 1))


def won_by(path, winner, other):
    """A recorded match ``winner`` wins 2 rounds to 0 against ``other``."""
    r = Recording(players=(winner, other))
    t = 1.0
    for _ in range(2):
        t = r.heist(t, paintings=1) + 4
        t = r.caught_by_guard(t) + 8
    path.write_text("\n".join(r.lines()) + "\n")


def test_the_last_night_is_the_newest_day_of_the_recordings(tmp_path):
    assert last_night(tmp_path) == (None, ())
    won_by(tmp_path / "match-20261204-200000.jsonl", "Ben", "Ana")
    won_by(tmp_path / "match-20261205-200000.jsonl", "Ana", "Ben")
    won_by(tmp_path / "match-20261205-210000.jsonl", "ana", "Caro")
    won_by(tmp_path / "match-20261205-220000.jsonl", "Caro", "Ana")
    (tmp_path / "match-20261205-230000.jsonl").write_text("not a recording\n")  # left out
    assert last_night(tmp_path) == ("2026-12-05", (("Ana", 2), ("Caro", 1)))
    watch = AttractWatch(SIM_IDLE_S, tmp_path)
    watch.read_now()
    view = watch.frame(None, None, SIM_IDLE_S + 1.0)
    standings = [card for card in view.cards if card.kind == "standings"]
    assert standings and standings[0].rows == (("Ana", 2), ("Caro", 1))
    assert "2026-12-05" in english(standings[0].title)


# --- on the simulated table ----------------------------------------------------------------------

@pytest.fixture
def table(tmp_path):
    made = []

    def make():
        screen = KeyedDisplay()
        t = Harness(display=screen, recordings_dir=tmp_path / "rec").start()
        made.append(t)
        t.rig.attract = AttractWatch(SIM_IDLE_S, tmp_path / "rec", now=t.rig.clock.now())
        t.advance(0.2)
        return t, screen

    yield make
    for t in made:
        t.stop()


def test_attract_mode_comes_after_the_idle_time_and_a_touch_ends_it(table, pygame_surface):
    t, screen = table()
    t.advance(SIM_IDLE_S - 1)
    assert screen.attracting is None
    t.advance(2)
    assert screen.attracting is not None
    kinds = [card.kind for card in screen.attracting.cards]
    assert kinds[:5] == ["game"] * 5          # every registered game's card
    assert screen.face.attract_shown()
    assert _drawn(screen, pygame_surface)
    t.touch("laser.4")
    t.advance(0.3)
    assert screen.attracting is None and not screen.face.attract_shown()
    t.advance(SIM_IDLE_S - 1)
    assert screen.attracting is None          # the idle time counts from the touch
    t.advance(2)
    assert screen.attracting is not None


def test_a_key_wakes_it_and_does_nothing_else(table):
    t, screen = table()
    t.advance(SIM_IDLE_S + 1)
    assert screen.face.attract_shown()
    before = t.board
    screen.press("s")                         # the set-up screen's key: swallowed
    assert not screen.face.attract_shown()    # the screen answers at once
    t.advance(0.3)
    assert screen.attracting is None
    assert screen.face.keys.idle()            # no set-up screen opened
    assert t.board.players == before.players and t.board.phase == before.phase


def test_a_phone_opening_its_page_wakes_it(table, tmp_path):
    from starlette.testclient import TestClient
    from rig.web.face import WebFace
    t, screen = table()
    face = WebFace(load_config(None).web, tmp_path / "rec")
    face.rig = t.rig
    t.advance(SIM_IDLE_S + 1)
    assert screen.attracting is not None
    with TestClient(face.app, base_url="http://127.0.0.1:8080") as client:
        assert client.get("/api/session").status_code == 200
    t.advance(0.3)
    assert screen.attracting is None


def test_a_phones_command_wakes_it(table):
    from rig.core.phones import RevokePhones
    t, screen = table()
    t.advance(SIM_IDLE_S + 1)
    assert screen.attracting is not None
    t.submit(RevokePhones(0.0, "Nobody"))
    t.advance(0.3)
    assert screen.attracting is None


def test_never_during_a_turn(table):
    t, screen = table()
    t.start_turn()                            # the normal level: 60 s to steal
    t.advance(3 * SIM_IDLE_S)                 # nobody touched anything meanwhile
    assert t.board.phase == "turn" and screen.attracting is None
    t.hand_out().press()                      # out, and the exit pressed: escaped
    assert t.board.phase != "turn" and screen.attracting is None
    t.advance(SIM_IDLE_S + 10)                # the banner (busy too), then the idle time
    assert screen.attracting is not None


def test_not_over_the_guards_set_up_screen(table):
    t, screen = table()
    screen.press("s")                         # the set-up screen open, nothing sent yet
    t.advance(SIM_IDLE_S + 1)
    assert screen.attracting is not None      # the host asked ...
    assert not screen.face.attract_shown()    # ... the screen keeps the guard's set-up
    assert screen.face.keys.setup_view() is not None


# --- the drawing -----------------------------------------------------------------------------------

@pytest.fixture
def pygame_surface():
    from rig.draw import kit
    pg = kit.load_pygame()
    yield lambda: pg.Surface((800, 480))
    kit.use_words("en")


def _drawn(screen, make):
    """The attract frame is the dimmed attract card: no pixel brighter than the dimming."""
    surface = screen.frame()
    top = max(max(surface.get_at((x, y))[:3]) for x in range(0, 800, 7) for y in range(0, 480, 7))
    return 0 < top <= int(round(255 * attract.DIM)) + 1


@pytest.mark.parametrize("lang", ["en", "es", "fr", "ro", "pseudo"])
def test_every_attract_card_fits_in_every_language(pygame_surface, lang):
    """Each card of the sample (every game's, the standings, the join card): no text cut."""
    from rig.display.samples import RIG_SHOTS, shot_of
    from rig.draw import kit
    from rig.draw.attract import draw_attract
    _, view = shot_of(RIG_SHOTS[0])
    kit.use_words(lang)
    kit.clips()
    surface = pygame_surface()
    for card in range(len(view.cards)):
        draw_attract(surface, view, card * attract.CARD_S + 1)
    assert kit.clips() == []


def test_a_companion_game_is_never_covered_while_it_runs(night):
    """The game host has the same hooks: a companion game's whole play is its turns (the
    snapshot's ``over`` says when it has ended)."""
    n = night("stop-thief", ("Ana", "Ben"))
    start = n.clock.now()
    n.host.attract = AttractWatch(SIM_IDLE_S, None, phones=n.pairing.view, now=start)
    n.clock.advance(SIM_IDLE_S * 3)
    assert not n.screen.board.over and n.screen.attracting is None
    assert n.host.attract.idle.last > start + SIM_IDLE_S * 2     # judged busy at each frame


@pytest.mark.heavy          # seconds of a real render loop (and, for one, its own process)
@pytest.mark.parametrize("shell", ["thread", "process"])
def test_the_display_shows_it_and_a_key_wakes_it(shell):
    """The window's render loop (its thread, or its own process across the pipe): told of the
    attract screen it shows it; a key there hides it at once and comes back as Wake alone."""
    from rig.core.attract import Wake
    from rig.display.samples import attract_sample
    from rig.display.window import DisplayProcess, DisplayThread
    from rig.games.cleptomano.samples import sample_board
    from sim.harness import wait_until
    make = DisplayThread if shell == "thread" else DisplayProcess
    display = make(video_drivers=("dummy",), quiet=True).start()
    try:
        display.show(sample_board("between"))
        display.attract(attract_sample())
        assert wait_until(lambda: display.attracting)
        display.press("s")
        assert wait_until(lambda: not display.attracting)
        commands = []
        assert wait_until(lambda: commands.extend(display.poll_commands()) or commands)
        assert commands == [Wake()]
    finally:
        display.stop()


def test_the_service_mode_open_is_busy_no_attract_screen_over_it():
    from rig.core.attract import busy
    from rig.core.service import ServiceScreen
    assert busy(ServiceScreen(page="menu", rows=(), cursor=0, by="screen"))
