"""The benchmarks of issue 7 in reduced form: each bench runs and reports what it measured.

The figures come from ``make bench`` (``python -m sim.tools.bench``), as ratios to a baseline of
the same run (README "Performance"); nothing here asserts a duration.  The benches that drive the
simulated rig in real time wait on events with bounded timeouts (a touch the bench gives up on is
counted, not failed) and run in ``make test-heavy``; the others are exact, whatever the load.
"""

import json

import pytest

from rig.table.debounce import DetectSettings
from sim.tools import bench


@pytest.mark.heavy      # a display process and touches in real time: `make test-heavy`
def test_the_latency_bench_touches_the_rig_with_the_display_running_and_reports():
    bare = bench.latency_bare(touches=60, period_s=(0.002, 0.003))
    daemon = bench.latency_daemon(touches=100, display="process")
    # Every touch is measured or counted as one the bench gave up on (its bound is real time:
    # that every touch buzzes is tests/test_display_daemon.py's, with the renderer frozen).
    assert bare["n"] + bare["no_buzz"] == 60 and bare["n"] > 0
    assert daemon["n"] + daemon["no_buzz"] == 100 and daemon["n"] > 0
    assert {"p50_us", "p90_us", "p99_us", "rig_cpu_pct"} <= set(daemon)
    assert daemon["snapshots_per_s"] > 0 and daemon["display"] == "process"  # it was fed


@pytest.mark.heavy      # seconds of a real flood: `make test-heavy` (and .ci/run)
def test_a_touch_sounds_the_buzzer_in_time_while_the_relic_hub_floods_the_rig():
    r = bench.latency_flood(touches=150, frames_per_s=bench.FLOOD_FRAMES_PER_S)
    assert r["n"] + r["no_buzz"] == 150 and r["n"] > 0      # measured, or counted
    assert r["fault"].startswith("Relic hub floods the rig: ")
    assert r["inbox_max"] < 10                             # nothing queued behind it
    assert {"p50_us", "p99_us", "frames_per_s_received", "recording_bytes_per_s"} <= set(r)


@pytest.mark.heavy      # ten real WebSocket clients: `make test-heavy` (and .ci/run)
def test_a_touch_sounds_the_buzzer_in_time_with_ten_phones_watching_every_push():
    r = bench.latency_web(touches=120, phones=bench.WEB_PHONES)
    assert r["n"] + r["no_buzz"] == 120 and r["n"] > 0      # measured, or counted
    assert r["phones_watching_at_end"] == 10
    w = r["watchers"]
    assert "error" not in w, w
    assert w["phones"] == 10 and w["states_min"] >= r["pushed"] > 10   # every phone, each push
    assert w["calls_min"] == w["calls_max"] >= 120          # each touch's call reached each
    assert "p50_us" in r and "pushed_per_s" in r


def test_the_bench_gives_its_rig_short_buzzes_and_leaves_the_rigs_own_alone():
    from rig.table.outputs import PATTERNS
    before = dict(PATTERNS)
    assert bench.short_patterns()["touch"][0][0] < 0.01
    assert PATTERNS == before and PATTERNS["touch"] == ((0.12, 0.0),)


def test_bounced_touches_brushes_and_glitches_are_counted_exactly():
    # Reduced to 2,000 touches here (0.1 s); the figure is exact, so the bound is too.
    r = bench.accuracy(2000)
    assert r["counted"] == r["touches"] == 2000
    assert r["false_touches"] == 0 and r["missed_touches"] == 0
    assert r["beeps"] == 2000                              # one sustained buzz per touch
    assert r["bounce_max_ms"] == pytest.approx(157.0)
    assert r["brushes_2ms"] > 0 and r["glitches"] > 0
    assert r["edges_per_s"] > 0                            # a figure for make bench


@pytest.mark.parametrize("settings, what", [
    (DetectSettings(merge_window_s=0.005), "a merge window shorter than a long bounce"),
    (DetectSettings(glitch_s=0.0), "no glitch filter"),
    (DetectSettings(glitch_s=0.0025), "a glitch filter longer than a 2 ms brush"),
])
def test_the_accuracy_bench_catches_a_detector_that_miscounts(settings, what):
    r = bench.accuracy(2000, settings=settings)
    assert r["false_touches"] + r["missed_touches"] > 0, what


@pytest.mark.heavy      # short turns in real time: `make test-heavy`
def test_the_timer_bench_ends_turns_never_early_and_reports():
    r = bench.timer_accuracy(turns=5, timer_s=0.1, display=None)
    assert r["turns"] + r["misses"] == 5 and r["turns"] > 0
    assert r["early"] == 0                                 # never before the scheduled end
    assert {"lamp_off_error", "end_buzz_error", "bare_condition_wait_late"} <= set(r)


def test_the_replay_bench_referees_a_four_player_three_round_match():
    r = bench.replay_speed(repeats=5)
    assert (r["players"], r["rounds"], r["turns"], r["winner"]) == (4, 3, 12, "Ana")
    assert r["turns_per_s"] > 0                            # a figure for make bench


@pytest.mark.heavy      # two 5 s windows of real time: `make test-heavy` (and .ci/run)
def test_the_daemon_costs_little_idle_and_during_a_turn():
    idle = bench.run_child("cost", scenario="daemon-idle", seconds=1.0, warmup_s=0.3)
    turn = bench.run_child("cost", scenario="daemon-turn-display", seconds=1.0, warmup_s=0.5)
    assert "error" not in idle and "error" not in turn, (idle, turn)
    assert "cpu_pct" in idle                               # the figure is make bench's
    assert idle["peak_rss_mb"] < 240                       # measured about 24 MB
    assert turn["turn_running"] and turn["snapshots_per_s"] > 0
    assert "total_cpu_pct" in turn


def test_the_bench_prints_one_json_object(capsys):
    assert bench.main(["--only", "replay,accuracy", "--quick"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["accuracy"]["false_touches"] == 0
    assert report["replay"]["turns"] == 12
    scaling = report["replay"]["scaling"]           # the pure parts' growth, as ratios
    assert scaling["long_turn"]["outcome"] == "escaped"
    assert scaling["tiebreak"]["winner"] == ["Ana", "Ana"] and scaling["tiebreak"]["ratio"]
    assert scaling["json_depth"]["depth"] == 1 and scaling["json_depth"]["ratio"]
    assert set(report["sections_s"]) == {"accuracy", "replay"}     # where the time went
    assert [line.split("] ")[1].split(":")[0] for line in err.splitlines()
            if line.startswith("[bench ")] == ["accuracy", "replay"]  # progress on stderr


def test_an_unknown_benchmark_is_refused_with_the_choices(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--only", "speed"])
    assert "choose from latency, accuracy, timer, replay, cost, edges, flood, web" in \
        capsys.readouterr().err
