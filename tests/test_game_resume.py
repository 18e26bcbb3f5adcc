"""Nothing lost in any game: a companion game cut off by a crash (the host stopped as a crash
leaves it) is taken up again by the next start, exactly where it was, and ends as a game never
interrupted ends.  The scripted games of :mod:`sim.gamecrash`, on the virtual clock."""

import logging

import pytest

from rig.shell import storage
from rig.shell.faces import MemoryDisplay
from sim.gamecrash import GAMES, drive, host_for, play, script


def recordings(directory):
    return sorted(directory.glob("*.jsonl"))


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """Each game's scripted game played without a crash: its replay."""
    out = {}
    for name in GAMES:
        host = play(tmp_path_factory.mktemp(name), name)
        out[name] = storage.replay_file(host.recording_path)
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_game_cut_off_after_any_command_resumes_exactly_where_it_was_and_ends_the_same(
        name, tmp_path, whole, caplog):
    caplog.set_level(logging.INFO, logger="cleptomano")
    commands = script(name)[2]
    for upto in range(len(commands) + 1):
        rec = tmp_path / ("cut-%02d" % upto)
        before = play(rec, name, upto=upto, clean=False)
        if before.adapter.over(before.game):
            continue                          # over: nothing to resume (tested below)
        after = host_for(rec, name, players=("Zed", "Yan", "Xu")).start()
        try:
            assert after.recording_path == before.recording_path
            assert after.game == before.game              # the same state, to the last value
            assert after.players == before.players        # the recording's, not those given
            assert after.now_t() == (commands[upto - 1].t if upto else 0.0)
            for player in before.players:
                assert after.player_view(player) == before.player_view(player)
            drive(after, commands)
        finally:
            after.stop()
        assert recordings(rec) == [before.recording_path]   # one game, one file
        assert storage.replay_file(before.recording_path) == whole[name], "cut at %d" % upto
        assert not storage.open_marker(before.recording_path).exists()
    assert "The recording's players play on" in caplog.text


@pytest.mark.parametrize("name", GAMES)
def test_the_resumed_game_says_so_in_the_log_and_on_the_screen(name, tmp_path):
    before = play(tmp_path, name, upto=3, clean=False)
    display = MemoryDisplay()
    after = host_for(tmp_path, name, display=display).start()
    try:
        after.clock.advance(0.2)
        words = "Game resumed from %s." % before.recording_path.name
        assert display.board.message == words
        assert any("Game resumed from %s." % before.recording_path in line
                   for line in after.log_lines)
    finally:
        after.stop()


def test_the_exhibition_keeps_its_remaining_time_nothing_elapses_while_the_rig_is_down(
        tmp_path):
    before = host_for(tmp_path, "stolen-paintings").start()
    drive(before, script("stolen-paintings")[2][:1])      # the exhibition opens at 5 s
    before.clock.advance(20.0)
    assert before.adapter.view(before.game, before.now_t())["remaining_s"] == 40.0
    before.stop(clean=False)
    after = host_for(tmp_path, "stolen-paintings").start()
    try:
        # The clock goes on from the last line (the opening): a minute of it is left again,
        # and it ends on time, with the gong, as if the rig had never stopped.
        assert after.adapter.view(after.game, after.now_t())["remaining_s"] == 60.0
        after.clock.advance(59.5)
        assert after.game.current.phase == before.game.current.phase == "exhibition"
        after.clock.advance(1.0)
        assert after.game.current.phase != "exhibition"
    finally:
        after.stop()


def test_a_torn_last_line_is_cut_before_the_game_resumes(tmp_path, whole, caplog):
    before = play(tmp_path, "chest-heist", upto=7, clean=False)
    with open(before.recording_path, "ab") as f:
        f.write(b'{"t": 8.0, "ma')                     # the power went mid-line
    caplog.set_level(logging.WARNING)
    after = host_for(tmp_path, "chest-heist").start()
    try:
        assert after.game == before.game
        drive(after, script("chest-heist")[2])
    finally:
        after.stop()
    assert "cut its torn last line: 14 bytes without their end" in caplog.text
    assert storage.replay_file(before.recording_path) == whole["chest-heist"]


@pytest.mark.parametrize("name", GAMES)
def test_a_game_stopped_cleanly_is_not_resumed(name, tmp_path):
    first = play(tmp_path, name, upto=3)
    second = host_for(tmp_path, name).start()
    try:
        assert second.recording_path != first.recording_path and second.resumed is None
    finally:
        second.stop()


def test_a_game_that_is_over_is_not_resumed_and_a_new_one_begins(tmp_path, caplog):
    first = play(tmp_path, "chest-heist", clean=False)
    assert first.adapter.over(first.game)
    second = host_for(tmp_path, "chest-heist").start()
    try:
        assert second.recording_path != first.recording_path
        assert not second.adapter.over(second.game)
    finally:
        second.stop()
    assert "its game is over, so it is not resumed" in caplog.text
    assert not storage.open_marker(first.recording_path).exists()


def test_a_recording_that_cannot_be_replayed_is_left_as_it_is_and_a_new_game_begins(
        tmp_path, caplog):
    first = play(tmp_path, "canine", upto=5, clean=False)
    with open(first.recording_path, "ab") as f:
        f.write(b'{"t": 99.0, "draw": "no such deck"}\n')
    data = first.recording_path.read_bytes()
    second = host_for(tmp_path, "canine").start()
    try:
        assert second.recording_path != first.recording_path
    finally:
        second.stop()
    assert first.recording_path.read_bytes() == data
    assert "cannot resume" in caplog.text


def test_a_recording_from_before_the_open_markers_is_never_taken_up(tmp_path):
    first = play(tmp_path, "stolen-paintings", upto=4, clean=False)
    storage.open_marker(first.recording_path).unlink()
    second = host_for(tmp_path, "stolen-paintings").start()
    try:
        assert second.recording_path != first.recording_path
    finally:
        second.stop()


def test_stop_thief_is_cut_off_by_its_missing_end_line_and_writes_no_marker(tmp_path):
    first = play(tmp_path, "stop-thief", upto=4, clean=False)
    assert not storage.open_marker(first.recording_path).exists()
    assert not storage.is_finished(first.recording_path)
    second = host_for(tmp_path, "stop-thief").start()
    try:
        assert second.recording_path == first.recording_path
    finally:
        second.stop()
    assert storage.is_finished(first.recording_path)


def test_the_seed_comes_from_the_recording_so_chance_goes_on_the_same(tmp_path, whole):
    first = play(tmp_path, "chest-heist", upto=6, clean=False)
    scripted_seed = script("chest-heist")[1]
    host = host_for(tmp_path, "chest-heist")
    host.seed = None                               # a start that would draw a fresh seed
    host.start()
    try:
        assert host.seed == scripted_seed == first.seed
        drive(host, script("chest-heist")[2])
    finally:
        host.stop()
    assert storage.replay_file(first.recording_path) == whole["chest-heist"]


def test_only_the_newest_recording_of_the_game_is_looked_at(tmp_path):
    finished = play(tmp_path, "canine", upto=2)            # stopped cleanly
    cut = play(tmp_path, "canine", upto=5, clean=False)
    assert cut.recording_path != finished.recording_path
    older = cut.recording_path.with_name("canine-20000101-000000.jsonl")   # an older stamp
    cut.recording_path.rename(older)
    storage.open_marker(cut.recording_path).rename(storage.open_marker(older))
    third = host_for(tmp_path, "canine").start()
    try:
        assert third.recording_path not in (older, finished.recording_path)
        assert third.resumed is None
    finally:
        third.stop()


def test_stolen_paintings_writes_an_end_line_so_its_replay_is_the_game_as_it_ran(tmp_path):
    """Issue 30: the exhibition's countdown ran out after the recording's last line (the
    opening), then the rig stopped: live, the game said "swap"; its replay said "exhibition".
    The end line (a recording-format addition) says when the rig stopped; a recording cut off
    by a crash has none, and its open marker is still there (it is taken up again)."""
    host = host_for(tmp_path, "stolen-paintings").start()
    drive(host, script("stolen-paintings")[2][:1])        # the exhibition opens at 5 s
    host.clock.advance(70.0)
    assert host.game.current.phase == "swap"
    live = host.result()
    host.stop()
    path = host.recording_path
    assert storage.is_finished(path) and not storage.open_marker(path).exists()
    replayed = storage.replay_file(path)
    assert replayed == live and replayed["unfinished"]["phase"] == "swap"
    cut = play(tmp_path / "cut", "stolen-paintings", upto=4, clean=False)
    assert not storage.is_finished(cut.recording_path)
    assert storage.open_marker(cut.recording_path).exists()
