"""The voice (rig/display/voice.py): the moments a thief cannot look up for, said aloud.

The time logic runs on an injected clock and renderer (no sleeping for it): the cache renders a
phrase once and reuses it, writes it atomically and stays within its size; the moments come
from snapshot pairs (each of the five kinds, nothing said twice); a Spanish table hears Spanish;
no espeak-ng means no voice and one log line; a slow renderer never holds up the render loop or
the buzzer.  Two real-stack checks: the real espeak-ng writes a WAV into the cache, and with
SDL's disk audio driver the voice is in the audio the mixer wrote.
"""

import logging
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
import wave
from dataclasses import replace
from pathlib import Path

import pytest

from rig.core.gamekit import GameScreen
from rig.core.msg import Msg
from rig.display import voice as vo
from rig.display.voice import Moment, Voice, VoiceCache, VoiceSettings, moments, phrase
from rig.games.cleptomano.rules.view import BannerView, Scoreboard
from rig.words import Words

REPO = Path(__file__).resolve().parents[1]
HAVE_ESPEAK = shutil.which("espeak-ng") is not None


class Clock:
    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


class FakeRenderer:
    """Writes a small fake WAV for each phrase and remembers what it was asked."""

    def __init__(self, gate=None, wav=False):
        self.calls = []
        self.gate = gate
        self.wav = wav          # a real WAV (0.2 s of a quiet hum) for pygame to load

    def __call__(self, settings, text, path):
        if self.gate is not None:
            assert self.gate.wait(120), "the test never opened the gate"
        self.calls.append((settings.voice, text))
        if self.wav:
            with wave.open(str(path), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(22050)
                w.writeframes(b"\x10\x00\xf0\xff" * 2205)
        else:
            Path(path).write_bytes(b"RIFF" + b"\0" * 100 + text.encode("utf-8"))


def make_voice(tmp_path, lang="en", **kw):
    played = []
    kw.setdefault("renderer", FakeRenderer())
    v = Voice(tmp_path / "cache", loader=lambda p: p.read_bytes()[104:].decode("utf-8"),
              player=played.append, **kw)
    assert v.open(lang)
    return v, played


def settle(v, timeout_s=60.0):
    """Wait until the worker has nothing left to do (real threads: bounded)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if v.idle():
            return
        time.sleep(0.005)
    raise AssertionError("the voice's worker did not settle")


# --- The cache --------------------------------------------------------------------------------

def test_a_phrase_is_rendered_once_then_reused_from_the_cache(tmp_path):
    r = FakeRenderer()
    cache = VoiceCache(tmp_path)
    key = VoiceCache.key("es", VoiceSettings("es", 165), "diez")
    assert cache.get(key) is None
    path = cache.put(key, lambda p: r(VoiceSettings("es"), "diez", p))
    assert cache.get(key) == path and path.read_bytes().endswith(b"diez")
    assert len(r.calls) == 1
    # another language, voice or speed is another phrase
    assert len({VoiceCache.key("es", VoiceSettings("es", 165), "diez"),
                VoiceCache.key("fr", VoiceSettings("es", 165), "diez"),
                VoiceCache.key("es", VoiceSettings("es-419", 165), "diez"),
                VoiceCache.key("es", VoiceSettings("es", 200), "diez")}) == 4
    # a voice started later finds it on disk: no second render
    r2 = FakeRenderer()
    v, _ = make_voice(tmp_path, renderer=r2)
    v.cache = cache
    assert v._make("es", "diez") == "diez"
    settle(v)
    assert ("es", "diez") not in r2.calls
    v.close()


def test_a_failed_render_leaves_nothing_half_written(tmp_path):
    cache = VoiceCache(tmp_path)

    def half(path):
        Path(path).write_bytes(b"RIFF" + b"\0" * 10)       # a partial file, then a crash
        raise subprocess.TimeoutExpired("espeak-ng", 10)

    with pytest.raises(subprocess.TimeoutExpired):
        cache.put("abc", half)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OSError, match="no sound"):
        cache.put("abc", lambda p: Path(p).write_bytes(b""))     # nothing written is a failure
    assert list(tmp_path.iterdir()) == []
    # the file only ever appears whole, under its final name, by a rename
    seen = []

    def render(path):
        seen.append((Path(path).name, cache.get("abc")))
        Path(path).write_bytes(b"x" * 200)

    cache.put("abc", render)
    assert seen[0][0].endswith(".tmp") and seen[0][1] is None
    assert [p.name for p in tmp_path.iterdir()] == ["abc.wav"]


def test_the_cache_is_bounded_the_least_recently_used_go_first(tmp_path):
    cache = VoiceCache(tmp_path, max_bytes=2500)
    for i, name in enumerate(("a", "b", "c")):
        cache.put(name, lambda p: Path(p).write_bytes(b"x" * 1000))
        os.utime(cache.path(name), (1000 + i, 1000 + i))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.wav", "c.wav"]
    cache.get("b")                      # b is said again: c is now the oldest
    os.utime(cache.path("c"), (1000, 1000))
    cache.put("d", lambda p: Path(p).write_bytes(b"x" * 1000))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.wav", "d.wav"]
    # a leftover temporary file of a killed render is cleared
    stale = tmp_path / "e.1.2.tmp"
    stale.write_bytes(b"x")
    os.utime(stale, (1000, 1000))
    cache.trim()
    assert not stale.exists()


# --- The moments ------------------------------------------------------------------------------

TURN = Scoreboard(phase="turn", players=("Ana", "Ben"), thief="Ana", guard="Ben",
                  remaining_s=12.0)


def said_over(boards):
    """Every moment a sequence of snapshots calls for, as the display loop would hear them."""
    out, prev = [], None
    for b in boards:
        out += moments(prev, b)
        prev = b
    return out


def test_the_countdown_says_each_of_the_last_ten_seconds_once():
    # 30 snapshots a second from 12 s down to 0: 10, 9, ... 1, each once
    boards = [replace(TURN, remaining_s=12.0 - i / 30) for i in range(361)]
    found = said_over(boards)
    assert found == [Moment("count", n) for n in range(10, 0, -1)]
    # the same snapshot again, or a new thief's turn at 5 s, says nothing
    assert moments(boards[100], boards[100]) == []
    assert moments(replace(TURN, thief="Ben", remaining_s=5.5), boards[200]) == []
    # a display that starts late mid-countdown does not say an old number
    assert moments(None, boards[200]) == []
    # no time limit: no countdown
    assert said_over([replace(TURN, remaining_s=None), replace(TURN, remaining_s=None)]) == []


def test_caught_and_escaped_banners_are_said_once():
    big = Msg("cleptomano.banner.caught")           # the banner's own big words: a code
    caught = replace(TURN, phase="between", banner=BannerView("caught", big,
                                                              ("Ana touched 3 lasers.",)))
    found = said_over([TURN, caught, caught, replace(caught, banner=None)])
    assert found == [Moment("caught", Msg("cleptomano.banner.caught"))]
    out = Msg("cleptomano.banner.escaped")
    turn_ended = replace(TURN, phase="between", banner=BannerView("escaped", out,
                                                                  ("Ana got out.",)))
    haul = replace(turn_ended, banner=BannerView("escaped", out, ("Ana: 2 pieces.",)))
    # the haul's banner follows the turn's: Escaped! is said once
    assert said_over([TURN, turn_ended, haul, haul]) == \
        [Moment("escaped", Msg("cleptomano.banner.escaped"))]


def test_round_and_match_results_are_said_with_their_words():
    rnd = replace(TURN, phase="between",
                  banner=BannerView("round", "ROUND 2", ("Won by Ana and Carla.",)))
    match = replace(rnd, banner=BannerView("match", "ANA WINS!", ("Round wins: Ana 2",)))
    found = said_over([TURN, rnd, rnd, match])
    assert found == [Moment("result", ("ROUND 2", "Won by Ana and Carla.")),
                     Moment("result", ("ANA WINS!", "Round wins: Ana 2"))]
    assert phrase(found[0], Words("en")) == "Round 2. Won by Ana and Carla."
    # a banner that is not a result (the resumed match) says nothing
    assert said_over([TURN, replace(rnd, banner=BannerView("resumed", "MATCH RESUMED"))]) == []


def test_a_game_screen_s_outcome_and_clue_cues_are_said():
    won = Msg("rig.host.refused", reason="x")            # any Msg with words stands in
    a = GameScreen("stop-thief", {}, sounds=((1, "alarm"),))
    b = replace(a, sounds=((1, "alarm"), (2, "footsteps")))
    c = replace(b, sounds=((2, "footsteps"), (3, "breaking glass")), over=True, outcome=won)
    found = said_over([a, b, c, c])
    assert found == [Moment("clue", Msg("stop_thief.clue.inside")),
                     Moment("result", (won,)),
                     Moment("clue", Msg("stop_thief.clue.window"))]
    # the outcome wins over a clue of the same snapshot (a new line stops the older)
    assert vo.chosen(moments(b, c)) == Moment("result", (won,))
    # another game's sounds are not said; nor a first snapshot's
    other = GameScreen("stolen-paintings", {}, sounds=((1, "gong"),))
    assert moments(replace(other, sounds=()), other) == [] and moments(None, c) == []


def test_a_code_without_words_yet_is_not_spoken_as_its_code():
    # a code no catalog has is not read out as "stop_thief dot clue dot..."
    assert phrase(Moment("clue", Msg("stop_thief.clue.no_such_kind")), Words("en")) is None
    assert phrase(Moment("count", 7), Words("fr")) == "7"
    assert phrase(Moment("result", ({"code": "rig.host.refused", "params": {"reason": "y"}},)),
                  Words("es")) == "Rechazado: y"


# --- The voice: language, timing, never blocking ------------------------------------------------

def test_a_spanish_table_renders_spanish_words_with_the_spanish_voice(tmp_path):
    r = FakeRenderer()
    v, played = make_voice(tmp_path, "es", renderer=r)
    settle(v)
    # the countdown, ahead of time, with Latin America's voice (the Spanish words are)
    assert ("es-419", "10") in r.calls and ("es-419", "1") in r.calls
    ahead = len(r.calls)
    outcome = GameScreen("stop-thief", {}, sounds=(), over=True,
                         outcome=Msg("rig.host.refused", reason="Ana"))
    assert v.hear(replace(outcome, over=False, outcome=None), outcome) == "Rechazado: Ana"
    settle(v)
    v.poll()
    assert r.calls[ahead:] == [("es-419", "Rechazado: Ana")] and played == ["Rechazado: Ana"]
    # the set-up screen switches the table to French: its phrases are rendered, French voice
    v.use_language("fr")
    settle(v)
    assert ("fr", "10") in r.calls
    v.close()
    spain = Voice(tmp_path / "c2", spanish="es", renderer=r, loader=str, player=list)
    assert spain.settings("es").voice == "es" and spain.settings("ro").voice == "ro"
    # the Rioplatense table (es_AR) hears Latin America's voice: espeak-ng has no Argentine one
    assert spain.settings("es_AR").voice == "es-419" and v.settings("es_AR").voice == "es-419"


def test_the_countdown_is_said_at_once_from_memory(tmp_path):
    clock = Clock()
    v, played = make_voice(tmp_path, clock=clock)
    settle(v)
    before = len(v.renderer.calls)
    v.hear(replace(TURN, remaining_s=10.01), replace(TURN, remaining_s=9.99))
    assert played == ["10"]                     # played in the same call: nothing to wait for
    assert len(v.renderer.calls) == before
    v.close()


def test_a_late_phrase_is_dropped_and_never_queued_behind_a_newer_one(tmp_path):
    clock = Clock()
    gate = threading.Event()
    gate.set()
    v, played = make_voice(tmp_path, clock=clock, renderer=FakeRenderer(gate))
    settle(v)
    gate.clear()                                # espeak-ng is slow now
    v.speak("Ana wins")
    clock.t += vo.FRESH_S + 0.1                 # ... slower than the moment lasts
    gate.set()
    settle(v)
    v.poll()
    assert played == [] and v.dropped == 1
    # two results in a row: only the newer is said, the older never plays after it
    gate.clear()
    v.speak("Round 1. Won by Ana.")
    v.speak("Ben wins the match.")
    gate.set()
    settle(v)
    v.poll()
    v.poll()
    assert played == ["Ben wins the match."]
    v.close()


def test_without_espeak_ng_the_voice_is_off_and_says_so_once(tmp_path, caplog, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    v = Voice(tmp_path / "cache", loader=str, player=list)
    with caplog.at_level(logging.INFO, logger="rig.display.voice"):
        assert v.open("en") is False
        v.speak("10")
        v.hear(TURN, replace(TURN, remaining_s=9.5))
        v.poll()
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["voice: espeak-ng is not installed (apt install espeak-ng); the rig "
                     "carries on without a voice"]
    assert v.available is False and not (tmp_path / "cache").exists()


def test_a_failing_renderer_logs_once_and_the_voice_goes_on(tmp_path, caplog):
    def broken(settings, text, path):
        raise subprocess.CalledProcessError(1, "espeak-ng", stderr=b"no such voice")

    with caplog.at_level(logging.WARNING, logger="rig.display.voice"):
        v, played = make_voice(tmp_path, renderer=broken)
        settle(v)
        v.speak("Ana wins")
        settle(v)
        v.poll()
        v.close()
    assert played == [] and v.dropped == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["voice: could not render a phrase (CalledProcessError: no such voice); "
                        "the rig goes on, saying only what it can"]


def test_a_stuck_renderer_never_blocks_the_render_loop(tmp_path):
    gate = threading.Event()
    v, played = make_voice(tmp_path, renderer=FakeRenderer(gate))    # stuck on the first phrase

    def frames():                                   # 100 frames' voice work
        for i in range(100):
            v.hear(replace(TURN, remaining_s=10.5 - i / 10),
                   replace(TURN, remaining_s=10.4 - i / 10))
            v.speak("Round %d" % i)
            v.poll()

    loop = threading.Thread(target=frames, daemon=True)
    loop.start()
    loop.join(60.0)             # a bound, not a measurement: waiting on espeak never returns
    assert not loop.is_alive() and not gate.is_set()
    assert played == []
    gate.set()
    v.close()


def test_the_display_loop_buzzes_on_time_while_the_voice_renders(tmp_path, monkeypatch, caplog):
    """The real render loop (a DisplayThread, dummy video and audio): every touch buzzes while
    espeak-ng is stuck on a phrase."""
    from rig.display import sounds as sounds_mod
    from rig.display import window
    from rig.display.window import DisplayOptions, DisplayThread
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    gate = threading.Event()
    renderer = FakeRenderer(gate, wav=True)
    monkeypatch.setattr(vo, "espeak_renderer", lambda *a, **k: renderer)
    monkeypatch.setattr(vo.shutil, "which", lambda name: "/usr/bin/" + name)
    buzzed = []
    real_play = sounds_mod.SoundBank.play
    monkeypatch.setattr(sounds_mod.SoundBank, "play", lambda self, name: (
        buzzed.append(name), real_play(self, name)))
    options = DisplayOptions(video_drivers=("dummy",), fps=30,
                             voice=vo.VoiceOptions(cache_dir=str(tmp_path / "cache")))
    caplog.set_level(logging.INFO, logger="rig.display.voice")
    d = DisplayThread(options).start()
    try:
        assert d.wait_ready(60) == "dummy"
        deadline = time.monotonic() + 60
        while d.audio is None and time.monotonic() < deadline:
            time.sleep(0.01)            # the mixer opens after the window
        if not d.audio:
            pytest.skip("no dummy audio device on this machine")
        for i in range(20):
            board = replace(TURN, remaining_s=10.95 - i * 0.25, touches=i, language="es")
            d.show(board)
            deadline = time.monotonic() + 60        # the render loop took it: none merged
            while d._slot is not window._NOTHING and time.monotonic() < deadline:
                time.sleep(0.005)
        deadline = time.monotonic() + 60
        while buzzed.count("buzz") < 10 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert buzzed.count("buzz") >= 10
        assert "voice: on" in caplog.messages
        deadline = time.monotonic() + 60            # the counts come back at most once a second
        while d.voice_stats is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert d.voice_stats == {"said": 0, "dropped": 0, "rendered": 0}     # reported back
        # Each buzz came while espeak-ng was stuck on its phrase (and it still is).
        assert renderer.calls == [] and not gate.is_set()
        gate.set()
        deadline = time.monotonic() + 60
        while len(renderer.calls) < 10 and time.monotonic() < deadline:
            time.sleep(0.01)
        # the table's language came with the snapshots: Spanish, with the Spanish voice
        assert {v for v, _ in renderer.calls} == {"es-419"}
        assert {t for _, t in renderer.calls} >= {str(n) for n in range(1, 11)}
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    finally:
        gate.set()
        assert d.stop(5)


# --- Real stacks ------------------------------------------------------------------------------

@pytest.mark.skipif(not HAVE_ESPEAK, reason="espeak-ng is not installed")
def test_the_real_espeak_ng_renders_the_fixed_phrases_into_the_cache(tmp_path):
    v = Voice(tmp_path / "cache", loader=lambda p: p, player=list)
    assert v.open("ro")
    settle(v, 60)
    files = sorted((tmp_path / "cache").glob("*.wav"))
    assert len(files) >= 10                         # 10 ... 1 at least
    with wave.open(str(files[0])) as w:
        assert w.getnframes() > 1000 and w.getsampwidth() == 2
    path = v._make("ro", "Ana a câștigat")
    with wave.open(str(path)) as w:
        assert w.getnframes() > w.getframerate() * 0.3      # a phrase takes a while to say
    v.close()


DISK_AUDIO = textwrap.dedent("""
    import sys, time
    from rig.display.sounds import SoundBank
    from rig.display.window import DisplayOptions
    from rig.display.voice import VoiceOptions, voice_for
    bank = SoundBank()
    assert bank.open(), "no disk audio"
    voice = voice_for(DisplayOptions(voice=VoiceOptions(cache_dir=sys.argv[1])), bank)
    assert voice is not None
    time.sleep(0.5)
    if sys.argv[2] == "speak":
        voice.speak("Ana wins the match")
        deadline = time.monotonic() + 60
        while voice.said == 0 and time.monotonic() < deadline:
            voice.poll()
            time.sleep(0.01)
        assert voice.said == 1
    time.sleep(2.0)
    voice.close()
    bank.close()
""")


@pytest.mark.heavy          # a real display process writing its sound to a file: seconds
@pytest.mark.skipif(not HAVE_ESPEAK, reason="espeak-ng is not installed")
def test_with_sdl_s_disk_audio_the_voice_is_in_the_written_audio(tmp_path):
    np = pytest.importorskip("numpy")

    def energy(mode):
        out = tmp_path / ("%s.raw" % mode)
        env = dict(os.environ, SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=str(out),
                   PYTHONPATH=str(REPO))
        subprocess.run([sys.executable, "-c", DISK_AUDIO, str(tmp_path / "cache"), mode],
                       env=env, cwd=REPO, check=True, timeout=120, capture_output=True)
        raw = out.read_bytes()
        assert len(raw) > 1000, "SDL wrote no audio"
        samples = np.frombuffer(raw[:len(raw) // 2 * 2], dtype=np.int16).astype(float)
        return float(np.sqrt(np.mean(samples ** 2)))

    assert energy("silent") < 1.0                   # the mixer writes silence ...
    assert energy("speak") > 100.0                  # ... and the voice when it speaks


def test_the_voice_s_options_come_from_sound_and_the_cache_follows_xdg(tmp_path):
    from rig.shell.config import Config, load_pinmap
    # the Spanish voice is Latin America's unless the builder chooses Spain's
    assert Config.from_dict({}, pinmap=load_pinmap()).sound.voice_es == "es-419"
    sound = Config.from_dict({"sound": {"voice_speed_wpm": 140, "voice_es": "es"}},
                             pinmap=load_pinmap()).sound
    options = vo.VoiceOptions.from_config(sound, environ={})
    assert options == vo.VoiceOptions(cache_dir=str(Path("~/.cache/cleptomano/voice")
                                                    .expanduser()), speed_wpm=140,
                                      spanish="es")
    # under systemd (XDG_CACHE_HOME=/var/cache/cleptomano) the default moves there ...
    assert vo.VoiceOptions.from_config(sound, {"XDG_CACHE_HOME": "/var/cache/cleptomano"}) \
        .cache_dir == "/var/cache/cleptomano/cleptomano/voice"
    # ... a folder the builder chose stays where it is
    chosen = Config.from_dict({"sound": {"voice_cache": str(tmp_path)}},
                              pinmap=load_pinmap()).sound
    assert vo.VoiceOptions.from_config(chosen, {"XDG_CACHE_HOME": "/x"}).cache_dir == \
        str(tmp_path)
    off = Config.from_dict({"sound": {"voice": False}}, pinmap=load_pinmap()).sound
    assert vo.VoiceOptions.from_config(off).enabled is False


def test_voice_off_quiet_or_no_audio_starts_no_voice():
    from rig.display.window import DisplayOptions

    class Bank:
        available = True

        def voice_channel(self):
            raise AssertionError("no channel is taken for a voice that is off")

    assert vo.voice_for(DisplayOptions(), Bank()) is None                      # no [sound]
    assert vo.voice_for(DisplayOptions(voice=vo.VoiceOptions(enabled=False)), Bank()) is None
    assert vo.voice_for(DisplayOptions(quiet=True, voice=vo.VoiceOptions()), Bank()) is None
    Bank.available = False
    assert vo.voice_for(DisplayOptions(voice=vo.VoiceOptions()), Bank()) is None


def test_the_said_cues_are_stop_thief_s_clue_sounds_and_every_phrase_has_words():
    from rig.games.stop_thief.rules.rules import SOUND_OF_CLUE
    said = vo.spoken_cues("stop-thief")
    assert said == {sound: "stop_thief.clue." + kind for kind, sound in SOUND_OF_CLUE.items()}
    for lang in ("en", "es", "fr", "ro"):
        words = Words(lang)
        clues = [phrase(Moment("clue", Msg(code)), words) for code in said.values()]
        assert all(clues) and len(set(clues)) == 7, (lang, clues)
        assert set(clues) <= set(vo.fixed_phrases(words))       # rendered ahead of time
