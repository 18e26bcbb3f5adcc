"""The relic hub in the whole rig: the virtual hub runs the firmware's own logic on scripted
accelerometer samples, writes real frames into a pseudo-terminal, and the daemon opens it by
path exactly as it opens /dev/cleptomano-hub.  The pins run on virtual time; the hub's frames
arrive in real time and are stamped when they arrive."""

import threading

import pytest

from rig.shell import storage
from sim.relichub import VirtualRelicHub
from sim.script import Script
from sim.table import SimulatedTable

WAIT_S = 5.0


def wait_until(predicate, timeout_s=WAIT_S):
    """Bounded wait for serial I/O that arrives in real time."""
    done = threading.Event()
    for _ in range(int(timeout_s / 0.01)):
        if predicate():
            return True
        done.wait(0.01)
    return predicate()


@pytest.fixture
def hub_table(tmp_path):
    (tmp_path / "dev").mkdir()
    hub = VirtualRelicHub(tmp_path / "dev")
    hub.start()
    table = SimulatedTable(recordings_dir=tmp_path / "rec", hub_url=hub.path).start()
    assert wait_until(lambda: "hub" not in table.rig.faults and
                      table.rig.referee.detector.values["relic.1.tilt"] > 0), \
        "the rig never heard the hub"
    yield table, hub
    table.stop()
    hub.close()


def start_turn(table, at=1.0):
    s = Script(["Ana", "Ben", "Caro"])
    s.start(at)
    s.hand_in(at + 1.0)
    table.play(s.objects())
    assert table.rig.referee.match.current is not None


def value(table, name):
    return table.rig.referee.detector.values[name]


def finish_turn(table, at):
    s = Script(["Ana", "Ben", "Caro"])
    s.hand_out(at)
    s.exit(at + 0.5)
    table.play(s.objects())
    table.advance_to(at + 1.0)
    result = table.rig.result()
    path = table.rig.recording_path
    return result, path


def test_a_relic_knocked_over_while_the_hand_is_inside_breaks(hub_table):
    table, hub = hub_table
    start_turn(table)
    hub.knock_over(2)
    assert wait_until(lambda: value(table, "relic.2.tilt") >= 60)
    table.advance_to(table.rig.referee.t + 0.5)   # it stays down for the 300 ms hold
    assert wait_until(lambda: 2 in table.rig.referee.match.current.broken)
    result, path = finish_turn(table, table.rig.referee.t + 1.0)
    assert result["turns"][0]["broken"] == [2]
    table.stop()
    # The replay of the recording agrees: relic 2 broken.
    assert storage.replay_file(path)["turns"][0]["broken"] == [2]


def test_a_relic_set_down_at_the_door_does_not_break(hub_table):
    table, hub = hub_table
    start_turn(table)
    s = Script(["Ana", "Ben", "Caro"])
    s.lift_painting(1, 3.0)
    table.play(s.objects())
    hub.lift(1)
    assert wait_until(lambda: value(table, "relic.1.motion") == 1)
    s = Script(["Ana", "Ben", "Caro"])
    s.hand_out(4.0)
    table.play(s.objects())
    hub.set_down(1)
    assert wait_until(lambda: value(table, "relic.1.motion") == 0 and
                      value(table, "relic.1.tilt") < 30)
    result, _ = finish_turn(table, 6.0)
    turn = result["turns"][0]
    assert turn["broken"] == []
    assert turn["relics"] == 1 and turn["paintings"] == 1


def test_a_fall_during_a_heartbeat_gap_is_still_delivered(hub_table):
    table, hub = hub_table
    start_turn(table)
    hub.mute()                      # the event frame and heartbeats are lost on the way
    hub.drop(3)
    hub.settle()
    hub.unmute()                    # the next heartbeat carries the fall counter
    assert wait_until(lambda: 3 in table.rig.referee.match.current.broken)
    assert sum(1 for line in table.rig.recording_path.read_text().splitlines()
               if '"relic.3.freefall", "value": 1' in line) == 1


def test_unplugging_the_hub_mid_turn_does_not_stop_the_game(hub_table):
    table, hub = hub_table
    start_turn(table)
    hub.unplug()
    assert wait_until(lambda: "hub" in table.rig.faults)
    assert any("Relic hub lost" in f for f in table.rig.scoreboard().faults)
    # The referee goes on: a touch still counts.
    s = Script(["Ana", "Ben", "Caro"])
    s.touch(4, 3.0)
    table.play(s.objects())
    assert table.rig.referee.match.current.touches == 1
    hub.replug()
    assert wait_until(lambda: "hub" not in table.rig.faults)
    assert any("Relic hub lost" in line for line in table.rig.log_lines)
    result, _ = finish_turn(table, 5.0)
    assert result["turns"][0]["outcome"] == "escaped"


def test_a_relic_sensor_dropping_out_does_not_hide_the_others(hub_table):
    table, hub = hub_table
    hub.knock_over(2)
    assert wait_until(lambda: value(table, "relic.2.tilt") >= 60)
    hub.pull_sensor_cable(1)                 # relic 1's sensor stops answering
    assert wait_until(lambda: "hub" in table.rig.faults)
    # The rig first reads every relic neutral, then the hub's next heartbeats restore the
    # relics it still senses: relic 2 is still lying down, and the museum is not ready.
    assert wait_until(lambda: value(table, "relic.2.tilt") >= 60)
    assert "relic 2 is lying down" in table.rig.scoreboard().ready_problems
    hub.pull_sensor_cable(1, connected=True)
    assert wait_until(lambda: "hub" not in table.rig.faults)
    assert value(table, "relic.2.tilt") >= 60
