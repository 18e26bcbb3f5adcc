"""``make bench``'s edge-timestamp figure, through gpiozero's real lgpio pin factory code.

The rig's :class:`rig.table.pins.Inputs` run on gpiozero's own ``LGPIOFactory``/``LGPIOPin``
over the lgpio stand-in (:mod:`sim.realpins`), with the rig's real clock.  Each scenario puts one
pulse on every contact of the pin map -- a 0.3 ms glitch, a 0.5 ms spike, a 1.5 ms brush or a
3 ms touch, staggered -- whose first edge happens ``D`` before lg hands it to the callbacks
(``D`` drawn from 0-50 ms), and the rest follow in one or two more bursts, each late by up to
``D`` again: what a Pi busy drawing the display or writing the SD card does to callbacks.

Figures, against the kernel's own timestamps: the error of every edge's time on the rig (rig time
minus kernel time, p50/p99/max in microseconds; goal: p99 under 10 us), the error of every pulse's
measured width, and the touches the detector (:class:`rig.games.cleptomano.rules.detect.Detector`,
fed the edges as the callbacks delivered them) miscounts against the truth: a pulse shorter than
``glitch_s`` counted, a longer one missed, or a touch stamped elsewhere than its first edge
(``glitch_s`` as the recording contract has it, whatever settings the detector under test is given).
"""

import random
import statistics
import threading
import time

from rig.games.cleptomano.rules import events as ev
from rig.table.debounce import DetectSettings
from rig.games.cleptomano.rules.detect import Detector
from rig.table.names import CONTACTS
from rig.games.cleptomano.rules.levels import make_level

GOAL_P99_US = 10.0
WIDTHS_S = (0.0003, 0.0005, 0.0015, 0.003)
STAGGER_NS = 100_000            # between the pulses of one scenario (sub-ms apart, interleaved)
MAX_DELAY_S = 0.050
TOUCHES = (ev.LaserTouch, ev.GuardTouch, ev.ButtonPress)
CONTRACT = DetectSettings()     # the truth: a pulse shorter than its glitch_s is noise


def touches(changes, origin_s, settings=None):
    """The contacts the detector counts a touch on, each with the touch's time (seconds after
    ``origin_s``, on the recording's microsecond grid), from ``changes`` ``[(t, name, value)]``
    in delivery order -- deadlines fired in time order before each change, as the referee does."""
    detector = Detector(make_level("hard"), settings)
    found = []
    for t, name, value in changes:
        change = ev.InputChange(round(t - origin_s, 6), name, value)
        found += detector.fire(change.t)
        found += detector.feed(change)
    found += detector.fire(float("inf"))
    return {_contact(e): e.t for e in found if isinstance(e, TOUCHES)}


def _contact(event):
    if isinstance(event, ev.LaserTouch):
        return "laser.%d" % event.laser
    return "guard" if isinstance(event, ev.GuardTouch) else "button"


def _wait_until_ns(t_ns):
    """Wait (bounded by the schedule: at most a scenario's span) until CLOCK_MONOTONIC reaches
    ``t_ns``; returns the time then."""
    pause = threading.Event()
    while True:
        now = time.monotonic_ns()
        if now >= t_ns:
            return now
        pause.wait((t_ns - now) / 1e9)


def _us(values):
    ordered = sorted(values)
    p99 = statistics.quantiles(ordered, n=100, method="inclusive")[98] if len(ordered) > 1 \
        else ordered[0]
    return {"min": round(ordered[0], 3), "p50": round(statistics.median(ordered), 3),
            "p99": round(p99, 3), "max": round(ordered[-1], 3)}


def edge_timestamps(scenarios=100, seed=3, max_delay_s=MAX_DELAY_S, settings=None):
    """Run the scenarios; a JSON-ready dict of the figures (see the module's docstring)."""
    from rig.shell.clock import MonotonicClock
    from rig.shell.config import load_config
    from rig.table.pins import Inputs
    from sim.realpins import contact_edges, play, simulated_pi

    settings = settings or DetectSettings()
    rng = random.Random(seed)
    pinmap = load_config(None).pinmap
    contacts = [name for name in CONTACTS if name in pinmap.inputs]
    seen = []
    errors_us, width_errors_us, delays_ms = [], [], []
    counts = {"pulses": 0, "touches": 0, "missed": 0, "false": 0, "mistimed": 0, "lost_edges": 0}

    def on_change(t, name, value):
        seen.append((t, name, value, time.monotonic_ns()))

    with simulated_pi() as kernel:
        from gpiozero.pins.lgpio import LGPIOFactory
        factory = LGPIOFactory()
        inputs = Inputs(pinmap, factory, MonotonicClock(), on_change)
        try:
            last_ns = time.monotonic_ns()
            for _ in range(scenarios):
                delay_ns = int(rng.uniform(0.0, max_delay_s) * 1e9)
                # Kernel time only moves on: this scenario's first edge comes after the last one.
                now = _wait_until_ns(last_ns + delay_ns + 1000)
                first = now - delay_ns
                order = rng.sample(contacts, len(contacts))
                pulses = [(name, first + i * STAGGER_NS, int(rng.choice(WIDTHS_S) * 1e9))
                          for i, name in enumerate(order)]
                edges = contact_edges(pinmap, pulses)
                seen.clear()
                _deliver_in_bursts(kernel, edges, now, delay_ns, rng, play)
                last_ns = edges[-1][0]
                _score(pulses, edges, seen, settings, counts, errors_us, width_errors_us,
                       delays_ms)
        finally:
            inputs.close()
            factory.close()

    error = _us(abs(e) for e in errors_us) if errors_us else None
    return {
        "path": "rig.table.pins.Inputs on gpiozero %s LGPIOFactory over the lgpio stand-in"
                % _gpiozero_version(),
        "scenarios": scenarios, "edges": len(errors_us), **counts,
        "callback_delay_ms": _us(delays_ms),
        "edge_error_us": error,
        "width_error_us": _us(abs(e) for e in width_errors_us),
        "goal_p99_us": GOAL_P99_US,
        "ok": bool(error is not None and error["p99"] < GOAL_P99_US and not counts["missed"]
                   and not counts["false"] and not counts["mistimed"]
                   and not counts["lost_edges"]),
    }


def _deliver_in_bursts(kernel, edges, now, delay_ns, rng, play):
    """The edges due by ``now`` at once (the first one ``delay_ns`` late), the rest in one or
    two more bursts, each handed over up to ``delay_ns`` after its last edge happened."""
    due = [e for e in edges if e[0] <= now]
    rest = edges[len(due):]
    bursts = [due]
    if rest:
        cut = rng.randint(0, len(rest))
        bursts += [b for b in (rest[:cut], rest[cut:]) if b]
    for i, burst in enumerate(bursts):
        if i:
            _wait_until_ns(burst[-1][0] + int(rng.uniform(0, delay_ns)))
        play(kernel, burst)
        kernel.deliver()


def _score(pulses, edges, seen, settings, counts, errors_us, width_errors_us, delays_ms):
    counts["pulses"] += len(pulses)
    if [(n, v) for _, n, v, _ in seen] != [(e[1], e[2]) for e in edges]:
        counts["lost_edges"] += abs(len(edges) - len(seen)) or 1
        return
    rig_t = {}
    for (t, name, value, ran_ns), edge in zip(seen, edges):
        errors_us.append((t - edge[0] / 1e9) * 1e6)
        delays_ms.append((ran_ns - edge[0]) / 1e6)
        rig_t[name, value] = t
    origin = edges[0][0] / 1e9 - 1.0
    counted = touches([s[:3] for s in seen], origin, settings)
    for name, start_ns, width_ns in pulses:
        width_errors_us.append((rig_t[name, 0] - rig_t[name, 1] - width_ns / 1e9) * 1e6)
        real = width_ns / 1e9 >= CONTRACT.glitch_s
        counts["touches"] += real
        if real and name not in counted:
            counts["missed"] += 1
        elif not real and name in counted:
            counts["false"] += 1
        elif real and abs(counted[name] - round(start_ns / 1e9 - origin, 6)) > 1e-5:
            counts["mistimed"] += 1


def _gpiozero_version():
    from importlib.metadata import version
    return version("gpiozero")
