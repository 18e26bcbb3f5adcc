"""What players miss on the screen (issue 13, findings 2 to 5), met as the table meets them.

Each test plays the situation on the simulated table (pin changes, the guard's keys through the
key mapper, virtual time), then checks the log and the frame the screen would show: the frame is
drawn for real (pygame, dummy video driver), its pixels counted in the layout's boxes and the
words it rendered read back (every glyph run goes through ``kit.render_text``).
"""

import pytest

pygame = pytest.importorskip("pygame")

from rig.draw import kit
from rig.games.cleptomano import screen as render
from rig.games.cleptomano.keys import KeyMapper
from rig.draw.kit import AMBER, DIM, GREEN, RED, legible_size
from rig.games.cleptomano.screen import layout, regions
from rig.games.cleptomano.samples import sample_board
from rig.words import english
from dataclasses import replace

SIZE = (800, 480)
PLAYERS = ["Ana", "Ben", "Caro"]


def drawn(board, size=SIZE):
    """The frame of ``board`` and the texts it rendered, as ``[(text, font size)]``."""
    texts = []
    real = kit.render_text

    def spy(text, size, colour):
        texts.append((text, int(size)))
        return real(text, size, colour)

    kit.render_text = spy
    try:
        surface = pygame.Surface(size)
        render.draw(surface, board)
    finally:
        kit.render_text = real
    return surface, texts


def count(surface, box, colour, tol=30):
    sub = surface.subsurface(pygame.Rect(box).clip(surface.get_rect()))
    return pygame.mask.from_threshold(sub, colour, (tol, tol, tol, 255)).count()


def keys(table, *names):
    """The guard types ``names`` on the keypad: each finished command goes to the rig."""
    mapper = KeyMapper(None, table.match.players)
    for name in names:
        command, _ = mapper.feed(name)
        if command is not None:
            table.submit(command)
    return table


def escaped_turn(t, lift=(1, 2), put_back=()):
    """A turn that ends uncaught: the thief lifts ``lift``, walks out and presses exit; the
    guard then puts ``put_back`` back on their stands."""
    t.start_turn()
    for n in lift:
        t.lift(n)
        t.advance(0.3)
    t.hand_out().advance(0.5).press()
    for n in put_back:
        t.put_back(n)
    t.advance(5.0)                         # the ESCAPED banner has had its time
    assert t.match.current is None and t.board.banner is None
    return t


# --- 2. The haul prompt goes once the haul is confirmed; the checklist never hides ---------------

def test_the_haul_prompt_goes_once_confirmed_and_the_checklist_shows_all_along(table):
    t = escaped_turn(table(players=PLAYERS), lift=(1, 2), put_back=(1,))   # painting 2 still off
    before, words = drawn(t.board)
    checklist = regions(SIZE)["checklist"]
    assert t.board.awaiting_loot
    assert "CONFIRM THE HAUL" in [w for w, _ in words]
    assert count(before, checklist, AMBER, 10) > 0.01 * checklist[2] * checklist[3]
    assert "painting 2 is not on its stand" in [w for w, _ in words]   # not hidden by the prompt
    assert count(before, checklist, RED) > 0

    keys(t, "l", "2", "1", "return")
    assert t.said("Haul confirmed by Ben")
    assert english(t.board.banner.title) == "Escaped!"          # the count as it now stands, for 3 s
    t.advance(3.0)
    after, words = drawn(t.board)
    assert not t.board.awaiting_loot
    assert "GUARD: CONFIRM THE HAUL" not in [w for w, _ in words]
    assert count(after, checklist, AMBER, 10) == 0
    assert "painting 2 is not on its stand" in [w for w, _ in words]

    keys(t, "l", "1", "0", "return")       # still correctable until the next start
    assert t.match.turns[-1].confirmed == (1, 0) and t.said("Haul confirmed by Ben: 1 painting")
    t.put_back(2).press()
    assert t.match.current is not None
    keys(t, "[+]", "2", "1", "enter")                                      # too late now
    assert t.match.turns[-1].confirmed == (1, 0)
    assert english(t.board.message).startswith("No uncaught turn awaits the guard's count")


# --- 3. A count cut down to what the sensors allow says why ---------------------------------------

def test_a_haul_cut_down_to_the_sensors_says_why_on_screen_and_in_the_log(table):
    t = escaped_turn(table(players=PLAYERS), lift=(1,), put_back=(1,))
    keys(t, "l", "2", "0", "return")                # the guard counts 2 paintings
    why = "painting 2 never left its stand: 1 painting counted"
    assert t.said("Haul confirmed by Ben: 1 painting, 0 relics, 0 touches: 2 points (%s)" % why)
    board = t.board
    assert tuple(map(english, board.banner.lines)) == ("1 painting, 0 relics, 0 touches: 2 points", why)
    assert english(board.message) == why
    _, words = drawn(board)
    assert why in [w for w, _ in words]
    t.advance(5.0)
    assert t.board.message is None and t.board.banner is None   # each for its time


def test_a_broken_relic_counted_by_the_guard_says_why(table):
    t = table(players=PLAYERS).start_turn()
    t.relic(1, "motion", 1).advance(0.2).relic(1, "freefall", 1).advance(0.2)
    t.hand_out().advance(0.5).press().advance(5.0)
    keys(t, "l", "0", "3", "return")
    assert t.said("(relic 1 broke: 2 relics counted)")
    assert t.match.turns[-1].relics == 2


def test_a_count_the_sensors_agree_with_says_nothing_more(table):
    t = escaped_turn(table(players=PLAYERS), lift=(1,), put_back=(1,))
    keys(t, "l", "1", "0", "return")
    assert t.said("Haul confirmed by Ben: 1 painting, 0 relics, 0 touches: 2 points")
    assert not any("counted" in line for line in t.rig.log_lines)
    assert t.board.message is None


# --- 4. The round's guard steals too: worded as the table thinks of it ----------------------------

def test_the_guard_stealing_is_worded_as_their_own_turn(table):
    t = table(players=["Ana", "Ben"])          # Ana steals first; Ben guards round 1
    escaped_turn(t, lift=(1,), put_back=(1,))
    assert (t.board.next_thief, t.board.next_guard) == ("Ben", "Ben")
    _, words = drawn(t.board)
    assert "Ben (own turn)" in [w for w, _ in words]
    t.advance(1.0).press()
    assert t.said("Round 1: Ben, this round's guard, steals (60 s).")
    assert not t.said("Ben steals, guarded by Ben")
    _, words = drawn(t.board)
    assert "Ben (own turn)" in [w for w, _ in words]


def test_an_ordinary_guard_keeps_the_plain_words(table):
    t = table(players=PLAYERS).start_turn()
    assert t.said("Round 1: Ana steals, guarded by Ben (60 s).")
    _, words = drawn(t.board)
    assert "Ben" in [w for w, _ in words] and not any("own turn" in w for w, _ in words)


# --- 5. A stuck laser makes the museum not ready; faults cover nothing; names stay legible --------

def test_a_laser_closed_for_30_s_makes_the_museum_not_ready_with_the_reason(table):
    t = escaped_turn(table(players=PLAYERS), lift=(1,), put_back=(1,))
    t.set("laser.4", 1).advance(30.0)          # a wire touching rod 4 between turns
    stuck = "laser 4 is stuck closed (over 5 s): check its wiring"
    board = t.board
    assert stuck in map(english, board.ready_problems)
    assert any("laser 4 has been closed for 5 s" in english(f) for f in board.faults)
    assert t.lamp("led.ready") == 0
    frame, words = drawn(board)
    box = layout(frame, board)[0]["checklist"]
    assert count(frame, box, RED) > 0 and count(frame, box, GREEN, 10) == 0
    assert "MUSEUM READY" not in [w for w, _ in words]
    t.press()
    assert t.match.current is None and t.said("The museum is not ready: " + stuck)


def test_a_start_button_held_down_is_named_on_the_checklist_until_released(table):
    t = table(players=PLAYERS)
    t.lift(1).advance(1.0).set("button", 1).advance(6.0)     # refused, and still held
    problems = tuple(map(english, t.board.ready_problems))
    assert "the start button is stuck closed (over 5 s): check its wiring" in problems
    t.set("button", 0).advance(0.1)
    assert tuple(map(english, t.board.ready_problems)) == ("painting 1 is not on its stand",)


def test_fault_badges_push_the_rounds_table_down_instead_of_covering_it(table):
    t = escaped_turn(table(players=PLAYERS), lift=(1,), put_back=(1,))
    t.set("laser.4", 1).advance(6.0)
    t.relics.lose()
    t.settle()
    board = t.board
    assert len(board.faults) == 2
    frame, _ = drawn(board)
    r, badges = layout(frame, board)
    x, y, w, h = r["table"]
    heading = (x, y, w, int(h * 0.09))                    # where "ROUNDS" is drawn
    assert count(frame, heading, DIM, 8) > 0 and count(frame, heading, AMBER, 10) == 0
    for box, _, _, _ in badges:
        assert not pygame.Rect(box).colliderect(pygame.Rect(r["table"]))
        assert not pygame.Rect(box).colliderect(pygame.Rect(r["checklist"]))


EIGHT = ("Ana", "Maximiliano", "Carla", "Diego", "Eva", "Fernanda", "Guillermo",
         "Hugo Sebastián Ortega")


@pytest.mark.parametrize("state", ["between", "between-notready", "turn", "table"])
def test_names_of_an_eight_player_table_never_shrink_below_the_legible_floor(state):
    base = sample_board(state)
    board = replace(base, players=EIGHT, rounds=(), round_wins={p: 0 for p in EIGHT},
                    next_thief="Hugo Sebastián Ortega", next_guard="Maximiliano",
                    thief=base.thief and "Hugo Sebastián Ortega",
                    guard=base.guard and "Maximiliano")
    floor = legible_size(SIZE[1])
    assert floor == 32                                  # the stated floor at 800x480
    _, words = drawn(board)
    shown = [(w, size) for w, size in words
             if any(w == form or (w.endswith("…") and form.startswith(w[:-1]))
                    for name in EIGHT for form in kit.name_forms(name))]
    assert len(shown) >= (8 if state in ("between", "between-notready", "table") else 2)
    assert all(size >= floor for _, size in shown), shown
    # Too long at the floor: abbreviated rather than shrunk.
    assert not any(w == "Hugo Sebastián Ortega" and size < floor for w, size in shown)


def test_checklist_items_stay_legible_and_what_does_not_fit_is_counted():
    problems = ("laser 4 is stuck closed (over 5 s): check its wiring",
                "the entrance is not clear (hand sensor reads 120 mm)",
                "painting 1 is not on its stand", "painting 2 is not on its stand",
                "relic 2 is lying down", "relic 3 is moving")
    board = replace(sample_board("between-notready"), ready_problems=problems)
    _, words = drawn(board)
    floor = legible_size(SIZE[1])
    items = [(w, size) for w, size in words
             if len(w) > 4 and any(w in p for p in problems) or w.startswith("… and ")]
    assert items and all(size >= floor for _, size in items), items
    assert items[-1][0].startswith("… and ") and items[-1][0].endswith(" more")
