"""The rig's pins through gpiozero's real lgpio pin factory, as on a Raspberry Pi.

gpiozero's own ``LGPIOFactory`` and ``LGPIOPin`` run unchanged over ``sim/standins/lgpio.py``,
which replaces only the lgpio C module: the kernel's edge events, stamped with CLOCK_MONOTONIC
nanoseconds, queued and handed to the callbacks when the test says -- late, in bursts.  Nothing
sleeps: an edge stamped 50 ms ago and delivered now is exactly a callback 50 ms late.
"""

import time
import types

import pytest

from rig.shell import build
from rig.table.debounce import DetectSettings
from rig.table.names import CONTACTS
from rig.core.errors import HardwareError, RigError
from rig.shell.clock import MonotonicClock
from rig.shell.config import load_config
from rig.table.pins import REFUSED, Inputs, Outputs, check_edge_clock
from sim.clock import VirtualClock
from sim.pins import VirtualFactory
from sim.realpins import PI_4B, contact_edges, play, simulated_pi
from sim.tools import bench_edges

PINMAP = load_config(None).pinmap
CONTACT_NAMES = [name for name in CONTACTS if name in PINMAP.inputs]
MS = 1_000_000      # nanoseconds
US = 1_000
TOLERANCE_S = 10e-6


@pytest.fixture
def pi():
    with simulated_pi() as kernel:
        from gpiozero.pins.lgpio import LGPIOFactory
        factory = LGPIOFactory()
        try:
            yield kernel, factory
        finally:
            factory.close()


@pytest.fixture
def inputs(pi):
    """The pin map's inputs on the real lgpio factory; yields (kernel, seen edges)."""
    kernel, factory = pi
    seen = []
    made = Inputs(PINMAP, factory, MonotonicClock(), lambda t, name, value: seen.append(
        (t, name, value)))
    try:
        yield kernel, seen
    finally:
        made.close()


def staggered(widths_ns, first_ns, stagger_ns=100 * US):
    """One pulse on every contact, ``stagger_ns`` apart from ``first_ns``: [(name, start, width)]."""
    return [(name, first_ns + i * stagger_ns, widths_ns[i % len(widths_ns)])
            for i, name in enumerate(CONTACT_NAMES)]


def happened(kernel, pulses, bursts=1):
    """The kernel sees the pulses happen; lg then delivers their edges in ``bursts`` bursts (the
    first burst holding only the first edge when there are more).  Returns the edges."""
    edges = contact_edges(PINMAP, pulses)
    assert edges[-1][0] <= time.monotonic_ns(), "a test edge must be in the past"
    play(kernel, edges)
    if bursts > 1:
        kernel.deliver(1)
    kernel.deliver()
    return edges


def times_off_s(seen, edges):
    assert [(n, v) for _, n, v in seen] == [(e[1], e[2]) for e in edges]
    return [t - e[0] / 1e9 for (t, _, _), e in zip(seen, edges)]


# --- the kernel's time, whatever the callbacks' delay --------------------------------------------

@pytest.mark.parametrize("late_ms", [0, 5, 50])
@pytest.mark.parametrize("bursts", [1, 2])
def test_every_edge_keeps_the_kernels_time_however_late_its_callback(inputs, late_ms, bursts):
    kernel, seen = inputs
    first = time.monotonic_ns() - late_ms * MS - 4 * MS      # the last edge 0-50 ms ago
    edges = happened(kernel, staggered([3 * MS], first), bursts)
    off = times_off_s(seen, edges)
    assert max(abs(x) for x in off) <= TOLERANCE_S, off


def test_edges_delivered_as_they_happen_keep_their_time(inputs):
    kernel, seen = inputs
    pin = PINMAP.inputs["laser.3"].pin
    stamps = []
    for level in (1, 0, 1, 0):
        stamps.append(time.monotonic_ns())
        kernel.edge(pin, level, stamps[-1])
        assert kernel.deliver() == 1
    assert [v for _, _, v in seen] == [1, 0, 1, 0]
    assert all(abs(t - s / 1e9) <= TOLERANCE_S for (t, _, _), s in zip(seen, stamps))


def test_a_half_millisecond_pulse_measures_half_a_millisecond_delivered_5_ms_late(inputs):
    kernel, seen = inputs
    rise = time.monotonic_ns() - 5 * MS
    happened(kernel, [("laser.4", rise, 500 * US)])
    (t_on, _, on), (t_off, _, off) = seen
    assert (on, off) == (1, 0)
    assert t_off - t_on == pytest.approx(0.0005, abs=1e-6)


@pytest.mark.parametrize("late_ms", [5, 50])
@pytest.mark.parametrize("touch_first", [True, False])
def test_glitches_never_count_and_touches_always_do_when_the_first_edge_is_late(
        inputs, late_ms, touch_first):
    kernel, seen = inputs
    widths = [3 * MS, 300 * US] if touch_first else [300 * US, 3 * MS]
    first = time.monotonic_ns() - late_ms * MS
    pulses = staggered(widths, first)
    happened(kernel, pulses, bursts=2)
    origin = first / 1e9 - 1.0
    counted = bench_edges.touches(seen, origin)
    touched = {name: start for name, start, width in pulses if width == 3 * MS}
    assert sorted(counted) == sorted(touched)                 # no glitch counted, no touch missed
    for name, start in touched.items():                       # each stamped with its first edge
        assert counted[name] == pytest.approx(start / 1e9 - origin, abs=TOLERANCE_S)


def test_the_bench_figure_meets_its_goal_through_the_real_factory():
    r = bench_edges.edge_timestamps(scenarios=8, max_delay_s=0.02)
    assert r["ok"], r
    assert r["edges"] == 8 * 2 * len(CONTACT_NAMES) and r["lost_edges"] == 0
    assert r["edge_error_us"]["p99"] < bench_edges.GOAL_P99_US
    assert r["missed"] == r["false"] == r["mistimed"] == 0 and r["touches"] > 0
    assert r["callback_delay_ms"]["max"] >= 1.0                # callbacks really were late


def test_the_bench_catches_a_detector_that_miscounts():
    r = bench_edges.edge_timestamps(scenarios=4, max_delay_s=0.005,
                                    settings=DetectSettings(glitch_s=0.0))
    assert not r["ok"] and r["false"] > 0


# --- the lines as the kernel sees them --------------------------------------------------------------

def test_each_input_is_claimed_for_both_edges_with_its_pull_and_no_debounce(inputs):
    import lgpio
    kernel, _ = inputs
    for name, spec in PINMAP.inputs.items():
        assert kernel.mode(spec.pin) == "alert", name
        pull = {"up": lgpio.SET_PULL_UP, "none": lgpio.SET_PULL_NONE}[spec.pull]
        assert kernel.flags(spec.pin) & (lgpio.SET_PULL_UP | lgpio.SET_PULL_NONE) == pull, name
        assert kernel.debounce_us(spec.pin) == 0, name


def test_input_values_follow_the_lines_even_before_their_callbacks_run(pi):
    kernel, factory = pi
    made = Inputs(PINMAP, factory, MonotonicClock(), lambda *edge: None)
    try:
        assert made.values()["seat.4"] == 0                      # pulled up: the rod is out
        kernel.edge(PINMAP.inputs["seat.4"].pin, 0)               # seated: the switch closes
        kernel.edge(PINMAP.inputs["laser.2"].pin, 1)              # touched
        assert kernel.queued() == 2
        values = made.values()
        assert values["seat.4"] == 1 and values["laser.2"] == 1 and values["button"] == 0
    finally:
        made.close()
    assert all(kernel.mode(spec.pin) == "input" for spec in PINMAP.inputs.values())


def test_the_buzzer_and_lamps_lines_follow_the_rig_and_are_released_off(pi):
    kernel, factory = pi
    outputs = Outputs(PINMAP, factory).open()
    buzzer = PINMAP.outputs["buzzer"].pin
    outputs.set("buzzer", True)
    assert kernel.level(buzzer) == 1
    outputs.set("buzzer", False)
    outputs.set("led.ready", True)
    outputs.close()
    assert [level for _, level in kernel.writes(buzzer)] == [0, 1, 0]
    assert [level for _, level in kernel.writes(PINMAP.outputs["led.ready"].pin)] == [0, 1, 0]
    assert all(kernel.mode(spec.pin) == "input" for spec in PINMAP.outputs.values())


def test_gpiozero_bounce_time_would_delay_edges_and_drop_short_contacts(pi):
    """Why the rig leaves bounce_time unset: lg's debounce reports an edge only once the level
    has been stable that long, stamped that much later."""
    from gpiozero import DigitalInputDevice
    kernel, factory = pi
    stamps = []
    dev = DigitalInputDevice(4, pull_up=None, active_state=True, bounce_time=0.001,
                             pin_factory=factory)
    def on_edge(ticks, state):
        stamps.append((ticks, state))

    dev.pin.when_changed = on_edge          # gpiozero keeps only a weak reference
    try:
        assert kernel.debounce_us(4) == 1000
        start = time.monotonic_ns() - 20 * MS
        play(kernel, contact_edges(PINMAP, [("laser.1", start, 500 * US),
                                            ("laser.1", start + 5 * MS, 3 * MS)]))
        kernel.deliver()
    finally:
        dev.close()
    closed = [ticks for ticks, state in stamps if state]
    assert closed == [pytest.approx((start + 6 * MS) / 1e9, abs=1e-6)]   # 0.5 ms contact gone,
    #                                                                    the 3 ms one 1 ms late


# --- one clear error ---------------------------------------------------------------------------------

def test_a_pin_another_program_holds_is_one_clear_error_and_nothing_stays_claimed(pi):
    kernel, factory = pi
    pin = PINMAP.inputs["laser.4"].pin
    kernel.hold(pin)
    with pytest.raises(HardwareError) as err:
        Inputs(PINMAP, factory, MonotonicClock(), lambda *edge: None)
    message = str(err.value)
    assert "laser 4" in message and "GPIO%d" % pin in message and "GPIO busy" in message
    assert "gpioinfo" in message
    assert all(kernel.mode(spec.pin) != "alert" for spec in PINMAP.inputs.values())


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_factory_whose_ticks_are_not_edge_times_is_refused_by_name(name):
    module, cls = name.rsplit(".", 1)
    factory = type(cls, (), {"__module__": module})()
    with pytest.raises(HardwareError) as err:
        check_edge_clock(factory, MonotonicClock())
    assert name in str(err.value) and "lgpio" in str(err.value)


def test_the_real_native_factory_is_refused():
    from gpiozero.pins.native import NativeFactory
    with pytest.raises(HardwareError, match="NativeFactory.*watch thread"):
        check_edge_clock(object.__new__(NativeFactory), MonotonicClock())


def test_an_unknown_factory_is_refused():
    with pytest.raises(HardwareError, match="SimpleNamespace.*lgpio"):
        check_edge_clock(types.SimpleNamespace(), MonotonicClock())


def test_lgpio_ticks_need_the_monotonic_clock(pi):
    _, factory = pi
    check_edge_clock(factory, MonotonicClock())
    with pytest.raises(HardwareError, match="CLOCK_MONOTONIC.*VirtualClock"):
        Inputs(PINMAP, factory, VirtualClock(), lambda *edge: None)


def test_the_simulators_factory_is_exact_on_its_own_clock_only():
    clock = VirtualClock(start_s=12.5)
    check_edge_clock(VirtualFactory(clock), clock)
    check_edge_clock(VirtualFactory(), MonotonicClock())       # MockFactory's time.monotonic()
    with pytest.raises(HardwareError):
        check_edge_clock(VirtualFactory(clock), VirtualClock())
    with pytest.raises(HardwareError):
        check_edge_clock(VirtualFactory(), clock)


def test_the_real_pins_command_picks_lgpio_on_a_pi(monkeypatch):
    from gpiozero import Device
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        with simulated_pi(revision=PI_4B):
            factory = build.real_pin_factory(MonotonicClock())
            try:
                assert type(factory).__name__ == "LGPIOFactory" and factory.chip == 0
                assert factory.board_info.model == "4B"
            finally:
                factory.close()
    finally:
        Device.pin_factory = saved


def test_the_real_pins_command_says_why_lgpio_could_not_open_the_chip(monkeypatch, capsys):
    from gpiozero import Device
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        with simulated_pi(chips={}):                   # no /dev/gpiochip0 (or no permission)
            with pytest.raises(RigError) as err:
                build.real_pin_factory(MonotonicClock())
    finally:
        Device.pin_factory = saved
    message = str(err.value)
    assert "no GPIO pin library could be loaded" in message
    assert "can not open gpiochip" in message and "--sim" in message
    assert capsys.readouterr().err == ""               # no warnings besides the one error


def test_a_busy_buzzer_pin_is_one_clear_error_and_opens_once_it_is_let_go(pi):
    """gpiozero reserves a pin before it opens it and kept the reservation when lgpio said
    "GPIO busy": the next try in this process was refused as "already in use"."""
    kernel, factory = pi
    pin = PINMAP.outputs["buzzer"].pin
    kernel.hold(pin)
    with pytest.raises(HardwareError) as err:
        Outputs(PINMAP, factory).open()
    message = str(err.value)
    assert "buzzer" in message and "GPIO%d" % pin in message and "GPIO busy" in message
    kernel.let_go(pin)
    outputs = Outputs(PINMAP, factory).open()       # the other program let go: it opens
    try:
        assert outputs.buzzer is not None
        outputs.set("buzzer", True)
        assert outputs.buzzer.value == 1
    finally:
        outputs.close()
