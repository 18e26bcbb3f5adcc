"""How the pure parts' cost grows with their input (``make bench --only replay``: the report's
``replay.scaling``): what the suite once timed in pass/fail tests, measured here instead, as CPU
seconds of this thread and as ratios of the same run.

* ``long_turn``: a 60 s turn with a hand sensor at 50 Hz and relic tilt reports (about 6,000
  lines) re-refereed by ``replay_lines`` (tests/games/cleptomano/test_replay.py checks its
  outcome);
* ``tiebreak``: a tiebreak of 200 and of 800 attempts re-refereed; ``ratio`` is the 800's cost
  over the 200's, about 4 when the cost grows linearly (issue 12 #14: each attempt re-derived the
  tiebreak from every attempt before it, 16x); tests/games/cleptomano/test_rules.py checks the
  winner;
* ``json_depth``: the depth scan of a 1.2 MB line full of escaped quotes, and of a tenth of it
  (``ratio`` about 10 when linear; a scan that tried each quote again would take hours);
  tests/test_bounded_input.py checks what it answers.
"""

import time


def cpu_s(fn, repeats=2):
    """The least CPU time of this thread ``fn()`` took over ``repeats`` runs, and its result."""
    best, result = None, None
    for _ in range(repeats):
        start = time.thread_time()
        result = fn()
        spent = time.thread_time() - start
        best = spent if best is None else min(best, spent)
    return best, result


def long_turn_lines():
    """A 60 s turn with many inputs: the hand sensor at 50 Hz and two relics' tilt reports."""
    from ..harness import Recording
    s = Recording()
    s.press(1.0)
    t = 1.5
    while t < 60.5:
        s.set(round(t, 3), "tof", 150 + int(t * 7) % 200)
        s.set(round(t + 0.005, 3), "relic.2.tilt", (t * 3) % 20)
        s.set(round(t + 0.01, 3), "relic.3.tilt", (t * 5) % 25)
        t += 0.02
    s.hand_out(60.6)
    s.press(60.8)
    return s.lines()


def _caught_attempt(s, t):
    """One tiebreak attempt from the press at ``t``, the thief caught with painting 1."""
    s.press(t)
    s.hand_in(t + 1.0)
    s.take_painting(1, t + 1.9)
    s.guard(t + 2.0)
    s.hand_out(t + 2.5)
    s.return_painting(1, t + 3.0)
    return t + 5.0


def long_tiebreak_lines(attempts):
    """Ana and Ben tied on two round wins, then caught ``attempts`` times in turn; then Ana gets
    a painting out in 5 s and Ben is caught once more: Ana wins."""
    from ..harness import Recording
    s = Recording(players=("Ana", "Ben"))
    t = 1.0
    for score in (2, 2, 4, 4):          # two rounds of two turns: each wins one
        s.heist(t, paintings=score // 2)
        t += 20.0
    for _ in range(attempts):
        t = _caught_attempt(s, t)
    s.press(t)
    s.hand_in(t + 1.0)
    s.take_painting(1, t + 4.5)
    s.hand_out(t + 5.0)
    s.return_painting(1, t + 6.0)
    _caught_attempt(s, t + 8.0)
    return s.lines()


def escaped_quotes_line(n):
    """A line whose every ``"`` opens a string that escaped quotes keep open to the end."""
    return '{"t": "' + '\\"[' * n


def scaling(repeats=2):
    """The figures above; each the least CPU time of ``repeats`` runs."""
    from rig.core import bounded
    from rig.games.cleptomano.rules.replay import replay_lines
    out = {}
    lines = long_turn_lines()
    spent, result = cpu_s(lambda: replay_lines(lines), repeats)
    out["long_turn"] = {"lines": len(lines), "cpu_s": round(spent, 4),
                        "outcome": result["turns"][0]["outcome"]}
    short_lines, long_lines = long_tiebreak_lines(200), long_tiebreak_lines(800)
    short_s, short = cpu_s(lambda: replay_lines(short_lines), repeats)
    long_s, long = cpu_s(lambda: replay_lines(long_lines), repeats)
    out["tiebreak"] = {"attempts": [200, 800], "cpu_s": [round(short_s, 4), round(long_s, 4)],
                       "ratio": round(long_s / short_s, 2) if short_s else None,
                       "winner": [short["winner"], long["winner"]]}
    small, big = escaped_quotes_line(40_000), escaped_quotes_line(400_000)
    small_s, _ = cpu_s(lambda: bounded.json_depth(small), repeats)
    big_s, depth = cpu_s(lambda: bounded.json_depth(big), repeats)
    out["json_depth"] = {"chars": [len(small), len(big)],
                         "cpu_s": [round(small_s, 4), round(big_s, 4)],
                         "ratio": round(big_s / small_s, 2) if small_s else None,
                         "depth": depth}
    return out
