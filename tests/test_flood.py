"""A relic hub that floods the rig (issue 12, finding 9): the hub's frames are read through the
real link on a pseudo-terminal, 12,000 a second, while the table plays on in virtual time.
What the flood costs the touch in real time is ``make bench --only flood``'s."""

import threading

import pytest

from rig.core.errors import HardwareError
from rig.shell.clock import MonotonicClock
from rig.shell.inbox import STOP, Inbox, Reading
from sim.harness import Harness, wait_until
from sim.relichub import HubFlood, VirtualRelicHub, flood_frames


@pytest.fixture
def flooded(tmp_path):
    (tmp_path / "dev").mkdir()
    hub = VirtualRelicHub(tmp_path / "dev")       # not started: the flood is its whole output
    flood = HubFlood(hub, 12000)
    flood.start()
    table = Harness(recordings_dir=tmp_path / "rec", hub_url=hub.path).start()
    yield table, flood
    table.stop()
    flood.stop()
    hub.close()


def relic_lines(table):
    return sum(1 for line in table.recorded() if line.get("input", "").startswith("relic."))


def test_a_flood_of_frames_is_named_on_screen_and_never_backs_up_the_referee(flooded):
    table, flood = flooded
    link = table.rig.sources[-1].link
    assert wait_until(lambda: "hub.flood" in table.rig.faults)
    fault = table.rig.faults["hub.flood"]
    assert fault.startswith("Relic hub floods the rig: ") and "frames/s" in fault
    assert any(text == fault for text in table.board.faults)      # on the screen
    lines_before, longest = relic_lines(table), 0
    dropped = link.counters["flood_dropped"]

    def five_thousand_more_dropped():             # the inbox watched all the while
        nonlocal longest
        longest = max(longest, len(table.rig.inbox))
        return link.counters["flood_dropped"] >= dropped + 5000

    assert wait_until(five_thousand_more_dropped)  # however slowly a loaded machine reads
    assert longest < 20
    assert relic_lines(table) - lines_before < 20  # the recording does not grow with it
    table.start_turn()
    table.advance_to(table.now + 0.5).touch("laser.4")
    assert table.turn.touches == 1 and table.buzzes() == 1
    flood.stop()
    assert wait_until(lambda: "hub.flood" not in table.rig.faults)


# --- the inbox: relic inputs coalesced, nothing else ----------------------------------------------

def taken(inbox):
    return [item if item is STOP else (item.name, item.value)
            for item in inbox.take(None, threading.Event())]


def test_the_inbox_keeps_the_newest_tilt_of_each_relic_and_every_fall_and_motion_in_order():
    inbox = Inbox(MonotonicClock())
    for t, name, value in [(0.1, "relic.1.tilt", 10.0), (0.1, "relic.2.tilt", 5.0),
                           (0.2, "relic.1.freefall", 1), (0.2, "laser.4", 1),
                           (0.2, "relic.1.freefall", 0), (0.3, "relic.1.tilt", 20.0),
                           (0.3, "relic.1.motion", 1), (0.4, "relic.1.tilt", 30.0)]:
        inbox.put(Reading(t, name, value))
    inbox.put(STOP)
    assert len(inbox) == 7
    assert taken(inbox) == [("relic.2.tilt", 5.0), ("relic.1.freefall", 1), ("laser.4", 1),
                            ("relic.1.freefall", 0), ("relic.1.motion", 1),
                            ("relic.1.tilt", 30.0), STOP]
    assert inbox.coalesced == 2 and len(inbox) == 0
    inbox.put(Reading(0.5, "relic.1.tilt", 31.0))        # a new batch starts afresh
    assert taken(inbox) == [("relic.1.tilt", 31.0)]


def test_a_burst_of_relic_inputs_leaves_the_referee_one_tilt_per_relic_and_every_fall(table):
    t = table()
    feed = t.relics
    for i in range(20000):                     # far faster than the referee records lines
        feed.send("relic.%d.tilt" % (i % 3 + 1), float(i % 20))
        if i % 4000 == 0:
            feed.send("relic.2.freefall", 1)
            feed.send("relic.2.freefall", 0)
    t.settle()
    lines = [line for line in t.recorded() if "input" in line]
    tilts = [line for line in lines if line["input"].endswith(".tilt")]
    falls = [line["value"] for line in lines if line["input"] == "relic.2.freefall"]
    assert falls == [1, 0] * 5                 # never lost, in order
    assert len(tilts) < 2000 and t.rig.inbox.coalesced > 18000
    assert [line["input"] for line in tilts[-3:]] == ["relic.3.tilt", "relic.1.tilt",
                                                      "relic.2.tilt"]
    assert [t.value("relic.%d.tilt" % n) for n in (1, 2, 3)] == [18.0, 19.0, 17.0]


def test_the_flood_names_its_bad_settings(tmp_path):
    with pytest.raises(HardwareError, match="frames_per_s=0; allowed: > 0"):
        flood_frames(0)
    with VirtualRelicHub(tmp_path) as hub:
        with pytest.raises(HardwareError, match="period_s=0; allowed: above 0, at most 0.1 s"):
            HubFlood(hub, 100, period_s=0)
        flood = HubFlood(hub, 100)
        flood.start()
        try:
            with pytest.raises(HardwareError, match="already running"):
                flood.start()
        finally:
            assert flood.stop(1.0)
