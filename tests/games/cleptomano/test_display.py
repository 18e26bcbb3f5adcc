"""The score display, its sounds and the guard's keys.

Frames are rendered for real (pygame, headless) at 800x480 and 1920x1080 and checked in two
ways: pixel regions that survive font differences (what players must see: red countdown, strike
marks, the broken relic...) and golden images with a small tolerance.  Regenerate the goldens
after an intended layout change with::

    UPDATE_GOLDEN=1 SDL_VIDEODRIVER=dummy .venv/bin/python -m pytest \
        tests/games/cleptomano/test_display.py
"""

import logging
import os
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

pygame = pytest.importorskip("pygame")

from rig.draw import kit
from rig.draw.keymodes import keypad_name, pretty_key
from rig.draw.kit import BROKEN, GOLD, RED, clock_text, countdown_text
from rig.display.samples import screenshot
from rig.display.sounds import SOUNDS, SoundBank, cues, synthesize
from rig.display.window import (DisplayOptions, DisplayProcess, DisplayThread, check_options,
                                driver_candidates, open_display)
from rig.core.errors import ConfigError, DisplayError
from rig.words import english
from rig.games.cleptomano.keys import KeyMapper, key_help, normalize_bindings
from rig.games.cleptomano.samples import STATES, sample_board
from rig.games.cleptomano.screen import BANNER_COLOURS, draw, regions
from rig.games.cleptomano.rules.events import Choose, ConfirmLoot, UndoTouch
from rig.games.cleptomano.rules.view import Phase, BannerView, Piece, RoundRow, Scoreboard
from sim.frames import area, count

GOLDEN = Path(__file__).resolve().parents[2] / "golden"     # tests/golden
SMALL, HD = (800, 480), (1920, 1080)
GOLDEN_HD = ("turn", "turn-easy", "between-notready", "caught", "table")
REQUIRED_STATES = ("turn", "turn-easy", "turn-last10", "between", "between-notready", "caught",
                   "escaped", "round", "match", "tiebreak", "title", "table", "resumed", "faults")
# Shells under test open the dummy video driver explicitly and stay quiet, whatever the
# environment says, so the suite never opens a real window or sound card.
TEST_OPTIONS = dict(video_drivers=("dummy",), quiet=True)


def frame(state, size=SMALL):
    surface = pygame.Surface(size)
    draw(surface, sample_board(state))
    return surface


# --- The countdown -------------------------------------------------------------------------------

@pytest.mark.parametrize("remaining_s, shown", [
    (59.01, "60"), (0.2, "1"), (0, "0"), (0.0, "0"), (60.0, "60"), (59.0, "59"), (9.99, "10"),
    (10.0, "10"), (30.000000001, "30"), (1e-9, "1"), (-2.5, "0"), (125, "2:05"), (None, "--"),
    (float("nan"), "--"), (float("inf"), "--"), ("7", "--"),
])
def test_countdown_is_rounded_up_so_zero_shows_only_at_expiry(remaining_s, shown):
    assert countdown_text(remaining_s) == shown


@pytest.mark.parametrize("elapsed_s, shown", [
    (0, "0:00"), (7.9, "0:07"), (83.4, "1:23"), (3723, "1:02:03"), (-1, "0:00"), (None, "0:00"),
])
def test_elapsed_clock_for_levels_without_a_limit(elapsed_s, shown):
    assert clock_text(elapsed_s) == shown


# --- Rendered frames: what players must see ------------------------------------------------------

@pytest.mark.parametrize("size", [SMALL, HD])
def test_countdown_turns_red_only_in_the_last_ten_seconds(size):
    box = regions(size)["countdown"]
    assert count(frame("turn", size), box, RED) == 0
    assert count(frame("turn-last10", size), box, RED) > 0.03 * area(box)


@pytest.mark.parametrize("size", [SMALL, HD])
def test_no_limit_level_shows_the_infinity_sign_and_a_clock(size):
    surface = frame("turn-easy", size)
    x, y, w, h = regions(size)["countdown"]
    pad = int(min(w, h) * 0.07)
    ix, iy, iw, ih = x + pad, y + pad, w - 2 * pad, h - 2 * pad
    # The lemniscate's crossing point is the centre of its box: lit, while just above and
    # below it (the two loops' holes) is panel.
    cx, cy = ix + iw // 2, iy + int(ih * 0.52) // 2
    assert surface.get_at((cx, cy))[:3] == kit.TEXT
    assert surface.get_at((cx - iw // 5, cy))[:3] == kit.PANEL
    assert count(surface, (x, y, w, h), RED) == 0


@pytest.mark.parametrize("size", [SMALL, HD])
@pytest.mark.parametrize("state, touches", [("turn-easy", 0), ("turn", 1), ("turn-last10", 2)])
def test_one_strike_mark_filled_per_laser_touch(size, state, touches):
    surface = frame(state, size)
    r = regions(size)
    filled = [count(surface, r["strike%d" % i], RED) > 0.3 * area(r["strike%d" % i])
              for i in range(3)]
    assert filled == [i < touches for i in range(3)]


@pytest.mark.parametrize("size", [SMALL, HD])
def test_loot_states_are_drawn_distinctly(size):
    surface = frame("turn", size)     # painting 1 taken, relic 1 broken, the rest in place
    r = regions(size)
    broken = [count(surface, r["piece%d" % i], BROKEN) for i in range(5)]
    gold = [count(surface, r["piece%d" % i], GOLD) for i in range(5)]
    assert broken[2] > 0.02 * area(r["piece2"]) and broken[:2] + broken[3:] == [0, 0, 0, 0]
    assert gold[0] > 0.05 * area(r["piece0"]) and gold[1:] == [0, 0, 0, 0]
    # The broken relic also carries a red cross (shape, not colour alone).
    assert count(surface, r["piece2"], RED) > 0


@pytest.mark.parametrize("size", [SMALL, HD])
@pytest.mark.parametrize("state, kind", [("caught", "caught"), ("escaped", "escaped"),
                                         ("round", "round"), ("match", "match"),
                                         ("tiebreak", "tiebreak"), ("title", "title"),
                                         ("resumed", "resumed")])
def test_banners_fill_the_screen_with_their_colour(size, state, kind):
    surface = frame(state, size)
    colour = BANNER_COLOURS[kind]
    assert count(surface, (0, 0) + size, colour, tol=4) > 0.7 * size[0] * size[1]
    if kind != "match":   # different kinds, different colours
        assert count(surface, (0, 0) + size, BANNER_COLOURS["match"], tol=4) == 0


@pytest.mark.parametrize("size", [SMALL, HD])
def test_checklist_is_red_until_the_museum_is_ready(size):
    box = regions(size)["checklist"]
    assert count(frame("between-notready", size), box, RED) > 0.01 * area(box)
    assert count(frame("between", size), box, RED) == 0
    assert count(frame("between", size), box, kit.GREEN) > 0.01 * area(box)


@pytest.mark.parametrize("size", [SMALL, HD])
def test_faults_show_in_their_corner_and_only_when_present(size):
    box = regions(size)["faults"]
    assert count(frame("faults", size), box, kit.AMBER, 10) > 0.3 * area(box)
    assert count(frame("between", size), box, kit.AMBER, 10) == 0


def test_tiebreak_marker_in_the_header_during_a_tiebreak_turn():
    board = replace(sample_board("turn"), tiebreak=True)
    surface = pygame.Surface(SMALL)
    draw(surface, board)
    box = regions(SMALL)["header"]
    assert count(surface, box, BANNER_COLOURS["tiebreak"], 4) > 0.05 * area(box)
    assert count(frame("turn"), box, BANNER_COLOURS["tiebreak"], 4) == 0


@pytest.mark.parametrize("size", [SMALL, HD])
def test_round_table_highlights_each_round_winner(size):
    surface = frame("table", size)
    x, y, w, h = regions(size)["over_table"]
    # Three rounds, one winner each: three gold cells in the score columns.
    rows = [count(surface, (x + int(w * 0.34), y + int(h * k / 5), int(w * 0.49), h // 5), GOLD,
                  4) > 0 for k in range(1, 5)]
    assert rows == [True, False, True, False]      # Ana won two rounds, Carla one


def test_a_prompt_or_message_shows_in_the_message_strip():
    box = regions(SMALL)["message"]
    assert count(frame("between"), box, (52, 44, 12), 2) > 0.5 * area(box)
    assert count(frame("between-notready"), box, (52, 44, 12), 2) == 0


# --- Golden images --------------------------------------------------------------------------------

def _differing_pixels(a, b, tol=40):
    """Pixels whose colour differs by more than ``tol`` in any channel (|a-b| via two
    saturating subtractions, counted with a mask: fast, no numpy)."""
    d1 = a.copy()
    d1.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d2 = b.copy()
    d2.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)
    d1.blit(d2, (0, 0), special_flags=pygame.BLEND_RGB_ADD)
    same = pygame.mask.from_threshold(d1, (0, 0, 0), (tol, tol, tol, 255)).count()
    return a.get_width() * a.get_height() - same


GOLDEN_CASES = [(s, SMALL) for s in STATES] + [(s, HD) for s in GOLDEN_HD]


@pytest.mark.parametrize("state, size", GOLDEN_CASES,
                         ids=["%s-%dx%d" % (s, z[0], z[1]) for s, z in GOLDEN_CASES])
def test_frames_match_the_golden_images(state, size):
    path = GOLDEN / ("%s-%dx%d.png" % (state, size[0], size[1]))
    surface = frame(state, size)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(exist_ok=True)
        pygame.image.save(surface, str(path))
        return
    assert path.exists(), "no golden image %s; create it with UPDATE_GOLDEN=1" % path
    golden = pygame.image.load(str(path))
    assert golden.get_size() == size
    bad = _differing_pixels(surface, golden)
    assert bad <= 0.005 * size[0] * size[1], (
        "%s differs from %s in %d pixels; look at both, and if the change is intended "
        "regenerate with UPDATE_GOLDEN=1" % (state, path.name, bad))


def test_golden_comparison_notices_a_real_change():
    a = frame("turn")
    b = frame("turn-last10")
    assert _differing_pixels(a, b) > 0.005 * SMALL[0] * SMALL[1]
    assert _differing_pixels(a, frame("turn")) == 0


# --- Robustness: any snapshot draws --------------------------------------------------------------

_text = st.text(max_size=60)
_odd_number = st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True),
                        st.integers(-10 ** 6, 10 ** 6))
_pieces = st.lists(st.builds(Piece, st.sampled_from(["painting", "relic", "", "vase"]),
                             st.integers(-3, 12),
                             st.sampled_from(["in place", "taken", "broken", "", "lost"])),
                   max_size=7).map(tuple)
_rounds = st.lists(st.builds(RoundRow, st.integers(-1, 99),
                             st.dictionaries(_text, st.one_of(st.none(), st.integers(-9, 999)),
                                             max_size=5),
                             st.lists(_text, max_size=3).map(tuple)), max_size=12).map(tuple)
_boards = st.builds(
    Scoreboard,
    phase=st.sampled_from(["turn", "between", "over", "", "bogus"]),
    players=st.lists(_text, max_size=10).map(tuple),
    round=st.integers(-5, 1000),
    level=_text, lasers=st.integers(-3, 99), corridor=_text,
    timer_s=_odd_number, thief=st.one_of(st.none(), _text), guard=st.one_of(st.none(), _text),
    tiebreak=st.booleans(), remaining_s=_odd_number, elapsed_s=_odd_number,
    touches=st.integers(-5, 50), hand_inside=st.booleans(), pieces=_pieces,
    turn_score=st.integers(-10 ** 6, 10 ** 6),
    next_thief=st.one_of(st.none(), _text), next_guard=st.one_of(st.none(), _text),
    ready_problems=st.lists(st.text(max_size=200), max_size=9).map(tuple),
    awaiting_loot=st.booleans(), rounds=_rounds,
    round_wins=st.dictionaries(_text, st.integers(-3, 9), max_size=5),
    banner=st.one_of(st.none(), st.builds(BannerView, _text, st.text(max_size=150),
                                          st.lists(st.text(max_size=300), max_size=6)
                                          .map(tuple))),
    faults=st.lists(st.text(max_size=200), max_size=6).map(tuple),
    message=st.one_of(st.none(), st.text(max_size=500)),
    key_help=st.lists(_text, max_size=9).map(tuple),
    winner=st.one_of(st.none(), _text), title=st.one_of(st.none(), _text),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Found by Hypothesis: a timer of 1e25 s (Babel's decimal formatting raised on its seconds), a
# message of one zero-width character (pygame refuses to render a text of zero width).
@example(board=Scoreboard(phase="turn", timer_s=1e25), size=(160, 96), now_s=None)
@example(board=Scoreboard(phase="turn", message="\U000e0100"), size=(160, 96), now_s=None)
@example(board=Scoreboard(phase="between", next_thief="\u200b", banner=None), size=(333, 211),
         now_s=None)
@given(board=_boards, size=st.sampled_from([(160, 96), (333, 211), (480, 800), (50, 20),
                                            (7, 7)]), now_s=_odd_number)
def test_draw_never_raises_on_an_odd_board(board, size, now_s):
    surface = pygame.Surface(size)
    draw(surface, board, now_s)


def test_draw_never_raises_on_an_empty_board_in_any_phase():
    # The renderer trusts its own frozen snapshot (built by rig.games.cleptomano.rules.board); any
    # Scoreboard, even an empty one, draws.
    for phase in Phase:
        draw(pygame.Surface(SMALL), Scoreboard(phase=phase))


# --- The guard's keys -----------------------------------------------------------------------------

PLAYERS = ("Ana", "Bruno", "Carla")


def feed_all(mapper, keys):
    out = []
    for k in keys:
        command, _ = mapper.feed(k)
        if command is not None:
            out.append(command)
    return out


@pytest.mark.parametrize("keys, expected", [
    (["t", "2"], [Choose(0.0, "thief", "Bruno")]),
    (["[/]", "[3]"], [Choose(0.0, "thief", "Carla")]),            # USB keypad
    (["g", "1"], [Choose(0.0, "guard", "Ana")]),
    (["[*]", "[1]"], [Choose(0.0, "guard", "Ana")]),
    (["l", "1", "2", "return"], [ConfirmLoot(0.0, 1, 2, by="guard")]),
    (["[+]", "[2]", "[0]", "enter"], [ConfirmLoot(0.0, 2, 0, by="guard")]),
    (["l", "0", "0", "return"], [ConfirmLoot(0.0, 0, 0, by="guard")]),
    (["u"], [UndoTouch(0.0, by="guard")]),
    (["[-]"], [UndoTouch(0.0, by="guard")]),
    (["t", "escape", "2"], []),                                      # cancelled
    (["l", "1", "backspace", "return"], []),
    (["t", "4", "9", "0", "1"], [Choose(0.0, "thief", "Ana")]),     # no player 4/9/0: wait
    (["l", "3", "1", "4", "2", "x", "return"], [ConfirmLoot(0.0, 1, 2, by="guard")]),
    (["t", "g", "2"], [Choose(0.0, "guard", "Bruno")]),              # last action key wins
    (["2", "return", "x", "f12"], []),                               # stray keys do nothing
    (["l", "1", "2", "u"], [UndoTouch(0.0, by="guard")]),           # undo drops the haul
    (["l", "1", "2", "return", "return"], [ConfirmLoot(0.0, 1, 2, by="guard")]),
])
def test_key_sequences_make_commands(keys, expected):
    assert feed_all(KeyMapper(None, PLAYERS), keys) == expected


def said(feed):
    """A key's ``(command, prompt)`` with the prompt (a Msg) read in English, as a player
    at an English table reads it."""
    command, prompt = feed
    return command, (None if prompt is None else english(prompt))


def test_prompts_guide_the_guard_and_clear_when_done():
    m = KeyMapper(None, PLAYERS)
    assert said(m.feed("t")) == (
        None, "NEXT THIEF: press 1 Ana, 2 Bruno, 3 Carla · (Esc cancels)")
    command, prompt = said(m.feed("7"))
    assert command is None and prompt.startswith("No player 7.")
    assert m.feed("3") == (Choose(0.0, "thief", "Carla"), None)
    _, p = said(m.feed("l"))
    assert "paintings taken? press 0-2" in p
    _, p = said(m.feed("1"))
    assert "1 painting; relics taken? press 0-3" in p
    _, p = said(m.feed("3"))
    assert p.startswith("HAUL: 1 painting, 3 relics. Enter confirms")
    assert m.feed("escape") == (None, None)
    assert m.pending is None


def test_players_follow_the_snapshot():
    m = KeyMapper(None, ())
    assert said(m.feed("t"))[1].endswith("press a number (no players yet) · (Esc cancels)")
    assert said(m.feed("1")) == (None, "No player 1. " + english(m.prompt()))
    m.set_players(("Zoe",))
    assert m.feed("1") == (Choose(0.0, "thief", "Zoe"), None)


def test_custom_bindings_keep_the_keypad_unless_taken():
    b = normalize_bindings({"thief": "p", "undo": ["z", "[/]"]})
    assert b["thief"] == ("p",)                  # [/] now belongs to undo
    assert b["undo"] == ("z", "[/]", "[-]")
    assert b["guard"] == ("g", "[*]")
    assert normalize_bindings({"thief": "p"}, keypad=False)["thief"] == ("p",)
    m = KeyMapper({"confirm": "space"}, PLAYERS)
    assert feed_all(m, ["l", "1", "1", "space"]) == [ConfirmLoot(0.0, 1, 1, by="guard")]


@pytest.mark.parametrize("bindings, words", [
    ({"steal": "s"}, "'steal' is not a key action"),
    ({"thief": "g"}, "bound to both"),
    ({"thief": "5"}, "is a digit"),
    ({"thief": "[5]"}, "is a digit"),
    ({"thief": ""}, "is not a key name"),
    ({"thief": []}, "no key is bound"),
    ({"thief": 7}, "not a key name or a list"),
])
def test_bad_bindings_are_refused_with_the_fix(bindings, words):
    with pytest.raises(ConfigError, match=words):
        normalize_bindings(bindings)


def test_key_help_lists_every_action_with_its_keys():
    def read(entries):
        return tuple(english(e) for e in entries)

    assert read(key_help()) == ("T, Num/ + 1-9: thief", "G, Num* + 1-9: guard",
                                "L, Num+ + 0-2 + 0-3 + Enter: haul", "U, Num-: undo touch",
                                "Esc, Bksp: cancel", "S, Num.: set-up",
                                "F8 + Enter: unpair phones")
    assert english(key_help({"loot": "h"}, keypad=False)[2]) == "H + 0-2 + 0-3 + Enter: haul"
    assert english(key_help(phones=False)[-1]) == "S, Num.: set-up"  # no phones, no key


def test_unpairing_the_phones_takes_its_key_then_enter():
    from rig.core.phones import RevokePhones
    m = KeyMapper(None, PLAYERS)
    assert said(m.feed("f8"))[1].startswith("UNPAIR EVERY PHONE")
    assert m.feed("escape") == (None, None)                      # changed its mind
    assert feed_all(m, ["f8", "x", "return"]) == [RevokePhones()]


def test_keypad_names_match_pygame_and_survive_numlock_off():
    assert [pygame.key.name(k) for k in (pygame.K_KP1, pygame.K_KP_PLUS, pygame.K_KP_MINUS,
                                         pygame.K_KP_MULTIPLY, pygame.K_KP_DIVIDE,
                                         pygame.K_KP_ENTER, pygame.K_RETURN)] == \
        ["[1]", "[+]", "[-]", "[*]", "[/]", "enter", "return"]
    assert keypad_name("end", 89) == "[1]"           # keypad 1 with NumLock off
    assert keypad_name("[+]", 87) == "[+]"
    assert keypad_name("t", 23) == "t"
    assert pretty_key("[+]") == "Num+" and pretty_key("return") == "Enter"


# --- Sounds ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, min_s, max_s", [
    ("buzz", 0.2, 0.5), ("tick", 0.02, 0.1), ("siren", 1.0, 2.0), ("jingle", 0.4, 1.2),
    ("fanfare", 1.0, 2.5), ("gong", 1.5, 3.0), ("dice", 0.5, 1.0)])
@pytest.mark.parametrize("rate", [22050, 44100])
def test_sounds_are_synthesised_with_sane_length_and_level(name, min_s, max_s, rate):
    pcm = synthesize(name, rate)
    assert pcm.typecode == "h" and pcm.itemsize == 2
    assert min_s <= len(pcm) / rate <= max_s
    peak = max(abs(v) for v in pcm)
    assert 0.5 * 32767 < peak <= 0.81 * 32767          # loud, but headroom for mixing
    assert abs(pcm[0]) < 500 and abs(pcm[-1]) < 500      # faded: no click


def test_unknown_sound_or_rate_is_refused():
    with pytest.raises(ValueError, match="'boom' is not a rig sound; use one of buzz"):
        synthesize("boom")
    with pytest.raises(ValueError, match="sample rate 100 is not usable"):
        synthesize("buzz", 100)


def test_sound_cues_follow_the_snapshots():
    turn = sample_board("turn")                  # 1 touch, 42.3 s left
    assert cues(None, turn) == []
    assert cues(turn, replace(turn, touches=2)) == ["buzz"]
    assert cues(turn, replace(turn, remaining_s=41.0)) == []
    last = replace(turn, remaining_s=9.5)
    assert cues(replace(turn, remaining_s=10.2), last) == ["tick"]     # 11 -> 10
    assert cues(last, replace(last, remaining_s=9.1)) == []            # still 10
    assert cues(last, replace(last, remaining_s=8.9)) == ["tick"]
    assert cues(last, replace(last, remaining_s=0.0)) == []            # expiry: the siren's job
    assert cues(turn, sample_board("caught")) == ["siren"]
    assert cues(sample_board("caught"), sample_board("caught")) == []
    assert cues(turn, sample_board("escaped")) == ["jingle"]
    assert cues(turn, sample_board("match")) == ["fanfare"]
    # A new thief starting with touches from nowhere is not a touch.
    assert cues(turn, replace(turn, thief="Ana", touches=3)) == []


def test_sound_bank_opens_the_mixer_and_plays(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    bank = SoundBank()
    try:
        assert bank.open() is True
        assert set(bank._sounds) == set(SOUNDS)
        bank.play("buzz")
        bank.play("no-such-sound")
    finally:
        bank.close()


def test_sound_bank_runs_silent_when_no_audio_device(monkeypatch, caplog):
    def fail(*a, **k):
        raise pygame.error("no audio device")
    monkeypatch.setattr(pygame.mixer, "init", fail)
    bank = SoundBank()
    with caplog.at_level(logging.WARNING):
        assert bank.open() is False
        assert bank.open() is False
    bank.play("siren")
    assert [r.getMessage() for r in caplog.records].count(
        "sound: no audio device (no audio device); the rig runs silent. Set SDL_AUDIODRIVER "
        "(e.g. alsa) or plug in a speaker to hear it.") == 1
    assert SoundBank(quiet=True).open() is False


# --- Samples and screenshots ----------------------------------------------------------------------

def test_every_required_state_has_a_sample():
    assert set(REQUIRED_STATES) <= set(STATES)


def test_unknown_sample_state_names_the_allowed_ones(tmp_path):
    with pytest.raises(DisplayError, match=r"'nope' is not a sample screen; use one of turn, "):
        sample_board("nope")
    with pytest.raises(DisplayError, match="caught"):
        screenshot("nope", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_screenshot_writes_a_png_of_the_asked_size(tmp_path):
    out = screenshot("caught", tmp_path / "caught.png", size=(640, 360))
    image = pygame.image.load(str(out))
    assert image.get_size() == (640, 360)
    assert image.get_at((5, 5))[:3] == BANNER_COLOURS["caught"]


@pytest.mark.parametrize("size, path, words", [
    ((10, 10), "a.png", "screenshot size \\(10, 10\\) is not usable"),
    (("w", 3), "a.png", "is not usable"),
    ((800, 480), "a.jpg", "must end in .png"),
    ((800, 480), "missing/dir/a.png", "cannot write the screenshot"),
])
def test_bad_screenshot_requests_are_refused(tmp_path, size, path, words):
    with pytest.raises(DisplayError, match=words):
        screenshot("turn", tmp_path / path, size=size)


def test_importing_rig_never_imports_pygame():
    code = ("import sys, rig, rig.display, rig.games.cleptomano.keys, rig.display.samples, "
            "rig.games.cleptomano.samples, rig.display.sounds, rig.games.cleptomano.screen, "
            "rig.display.window, rig.display.face; "
            "rig.games.cleptomano.samples.sample_board('turn'); "
            "rig.games.cleptomano.keys.KeyMapper(); rig.display.face.Face(); "
            "print('pygame' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=str(Path(__file__).resolve().parents[3]))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


# --- The window shells ----------------------------------------------------------------------------

def test_driver_candidates_try_env_then_kmsdrm_then_the_rest():
    assert driver_candidates(None) == ("kmsdrm", "", "x11", "wayland")
    assert driver_candidates("x11") == ("x11", "kmsdrm", "", "wayland")
    assert driver_candidates("kmsdrm") == ("kmsdrm", "", "x11", "wayland")
    assert driver_candidates("x11", ["dummy"]) == ("dummy",)


@pytest.mark.parametrize("options, words", [
    (dict(fps=0), "fps 0 is not allowed"), (dict(fps=31), "fps 31"), (dict(fps=2.5), "fps 2.5"),
    (dict(size=(100, 50)), "window size"), (dict(slow_render_s=-1), "slow_render_s -1"),
    (dict(volume=2), "volume 2 is out of range"),
])
def test_bad_display_options_are_refused(options, words):
    with pytest.raises(DisplayError, match=words):
        check_options(DisplayOptions(**options))
    with pytest.raises(DisplayError, match=words):
        DisplayThread(**options)


def test_bad_bindings_are_refused_before_any_window_opens():
    with pytest.raises(ConfigError, match="bound to both"):
        DisplayProcess(bindings={"thief": "g"})


def wait_for_commands(display, n, timeout_s=30.0):
    got, deadline = [], time.monotonic() + timeout_s
    while len(got) < n and time.monotonic() < deadline:
        got += display.poll_commands()
        threading.Event().wait(0.01)
    return got


def shows_return(display, board, n=1000):
    """``n`` calls of ``display.show(board)`` on a thread of their own (the referee's): True when
    every call returned.  The bound is generous, not a measurement: the tests below freeze the
    renderer first, and a show() that waited on it would not return while it stays frozen."""
    worker = threading.Thread(target=lambda: [display.show(board) for _ in range(n)],
                              daemon=True)
    worker.start()
    worker.join(60.0)
    return not worker.is_alive()


@pytest.fixture(scope="module")
def process_display():
    """One render process for the module (spawning costs ~0.2-1 s), rendering slowly."""
    d = DisplayProcess(slow_render_s=0.2, **TEST_OPTIONS).start()
    assert d.wait_ready(60) == "dummy"
    yield d
    assert d.stop(30.0)


def test_process_show_never_waits_for_the_render_process(process_display):
    """The render process frozen (SIGSTOP: a GPU stuck in a frame, the process descheduled),
    the referee still hands over a thousand snapshots; thawed, the display carries on."""
    import signal
    pid = process_display._proc.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        assert shows_return(process_display, sample_board("turn-last10"))
        process_display.press("u")            # a key waits for the process, lost by nothing
    finally:
        os.kill(pid, signal.SIGCONT)
    assert wait_for_commands(process_display, 1) == [UndoTouch(0.0, by="guard")]


def test_process_keys_come_back_as_commands(process_display):
    process_display.show(sample_board("between"))
    for key in ("t", "[4]", "l", "2", "1", "return", "u"):
        process_display.press(key)
    assert wait_for_commands(process_display, 3) == [
        Choose(0.0, "thief", "Diego"), ConfirmLoot(0.0, 2, 1, by="guard"),
        UndoTouch(0.0, by="guard")]


def test_process_stop_is_bounded_and_idempotent():
    d = DisplayProcess(**TEST_OPTIONS)
    assert d.stop(0.5)                  # never started
    d.start()
    d.show(sample_board("turn"))
    assert d.stop(30.0)                 # True: ended by itself within the bound
    assert not d._proc.is_alive()
    assert d.stop(0.5)
    d.show(sample_board("turn"))        # after stop: still never raises


@pytest.fixture
def stuck_frames(monkeypatch):
    """The render loop's frames stuck until ``gate`` is set (a slow GPU that never finishes):
    ``(drawing, gate)``, ``drawing`` set once a frame is stuck."""
    from rig.display import face as face_module
    drawing, gate = threading.Event(), threading.Event()

    class StuckFace(face_module.Face):
        def draw(self, surface, now_s=None):
            drawing.set()
            gate.wait(120.0)
            return super().draw(surface, now_s)

    monkeypatch.setattr(face_module, "Face", StuckFace)
    yield drawing, gate
    gate.set()


def test_thread_show_never_waits_for_a_stuck_frame_and_keys_work(stuck_frames):
    """The render thread stuck in a frame (it shares the GIL, and waits as a slow GPU would):
    the referee's show() calls all return; once the frame ends, keys work."""
    drawing, gate = stuck_frames
    with DisplayThread(**TEST_OPTIONS) as d:
        assert d.wait_ready(30) == "dummy"
        d.show(sample_board("turn"))
        assert drawing.wait(30)
        assert shows_return(d, sample_board("turn-last10"))
        assert not gate.is_set()            # all of it while the frame was stuck
        gate.set()
        d.press("g")
        d.press("2")
        assert wait_for_commands(d, 1) == [Choose(0.0, "guard", "Bruno")]


def test_thread_window_keys_are_translated():
    with DisplayThread(**TEST_OPTIONS) as d:
        assert d.wait_ready(30) == "dummy"
        d.show(sample_board("between"))
        for key in (pygame.K_KP_MULTIPLY, pygame.K_KP3):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                                 scancode=0))
        assert wait_for_commands(d, 1) == [Choose(0.0, "guard", "Carla")]


def test_thread_callback_receives_commands():
    got = []
    done = threading.Event()

    def on_command(c):
        got.append(c)
        done.set()

    with DisplayThread(on_command=on_command, **TEST_OPTIONS) as d:
        d.show(sample_board("between"))
        d.press("u")
        assert done.wait(30)
    assert got == [UndoTouch(0.0, by="guard")] and d.poll_commands() == []


def test_no_video_driver_means_headless_logged_once(monkeypatch, caplog):
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-driver")
    with caplog.at_level(logging.INFO, logger="rig.display"):
        d = DisplayThread(video_drivers=("no-such-driver", "also-not-a-driver"), quiet=True)
        d.start()
        assert d.wait_ready(30) is None
        assert d.headless is True
        for _ in range(50):
            d.show(sample_board("turn"))
        d.press("u")
        assert wait_for_commands(d, 1) == [UndoTouch(0.0, by="guard")]   # keys still work
        assert d.stop(2.0)
    headless = [r for r in caplog.records if "keeps refereeing headless" in r.getMessage()]
    assert len(headless) == 1
    assert "no-such-driver" in headless[0].getMessage()
    assert os.environ["SDL_VIDEODRIVER"] == "no-such-driver"     # restored after the tries


def test_open_display_follows_the_configuration():
    from rig.shell.config import DisplayConfig, KeysConfig
    d = open_display(DisplayConfig(fullscreen=False, size=(640, 360), fps=10, quiet=True,
                                   process=False), KeysConfig(thief="p"), ("Ana", "Bruno"),
                     video_drivers=("dummy",))
    try:
        assert isinstance(d, DisplayThread) and d.wait_ready(30) == "dummy"
        assert d.options.size == (640, 360) and d.options.fps == 10
        d.show(sample_board("between"))
        d.press("p")
        d.press("[2]")
        assert wait_for_commands(d, 1) == [Choose(0.0, "thief", "Bruno")]
    finally:
        assert d.stop(2.0)
    with pytest.raises(ConfigError, match="is a digit"):
        open_display(DisplayConfig(process=False), {"thief": "1"})
