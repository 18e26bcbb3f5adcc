"""A full disk in the middle of a companion game (:class:`sim.disk.FaultyDisk` under its
recordings): the game stops taking commands, each refused with the full recording's words on
the screen and in the log, and nothing it accepted is lost; once there is space the same
command given again is taken, and the recording replays to every command accepted."""

import pytest

from rig.shell import storage
from rig.core.msg import Msg
from rig.shell.host import FULL_DISK
from rig.words import english
from sim.disk import FaultyDisk
from sim.gamecrash import GAMES, drive, host_for, script


def give(host, command, at_t):
    host.clock.advance_to(host.t0 + at_t)
    host.submit(command)
    host.clock.settle()


@pytest.mark.parametrize("name", GAMES)
def test_a_full_disk_mid_game_refuses_commands_and_loses_nothing_accepted(name, tmp_path):
    commands = script(name)[2]
    half = len(commands) // 2
    host = host_for(tmp_path / "rec", name).start()
    try:
        drive(host, commands[:half])
        path = host.recording_path
        with FaultyDisk(tmp_path / "rec") as disk:
            disk.fill(room_bytes=10)                   # room for a few bytes of the next line
            written, state = path.read_bytes(), host.game
            nxt = commands[half]
            give(host, nxt, nxt.t)
            assert host.game == state                  # not acted on
            assert path.read_bytes() == written        # and no half line left in the file
            refused = english(Msg("rig.host.refused", reason=FULL_DISK))
            assert english(host.screen().message) == refused
            assert any(refused in line for line in host.log_lines)
            give(host, nxt, nxt.t + 0.25)              # given again: the disk is still full
            assert host.game == state and host.refused == 2
            disk.free()
            give(host, nxt, nxt.t + 0.5)               # space again: taken
            assert host.game != state
        drive(host, commands[half + 1:])
        live = host.result()
    finally:
        host.stop()
    assert storage.replay_file(path) == live
