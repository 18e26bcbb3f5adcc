"""A scripted game of each companion game on the game host in virtual time, resuming after a
crash (the kill sweep's child, and the resume tests' scripts).

    python -m sim.gamecrash RECORDINGS_DIR GAME
    python -m sim.gamecrash --sweep WORK_DIR GAME      # the kill sweep (make test-heavy)

:func:`script` is each game's scripted game: its players, its seed and its commands, each at
its own time on the game's clock, built by stepping the game's own rules (so every command is
one the game takes, and the chance rolls what the seed rolls) from the moves of the game's crash
script, the ``crash`` part of its folder (``rig/games/<game>/crash.py``), found through the
registry: this module names no game.  :func:`play` starts a
:class:`~rig.shell.gamehost.GameHost` on RECORDINGS_DIR (taking up the game's unfinished
recording, as ``cleptomano run`` does after a crash), gives the commands the recording does not
hold yet (those after its last line's time), each when the game's clock reaches its time, and
stops cleanly.  ``CLEPTOMANO_KILL_AT_SYNC=N`` kills the process (SIGKILL, as a power cut) right
after the recording's N-th fsync; it prints ``sync N`` after each and ``done`` at the end.

:func:`sweep` is the kill sweep: SIGKILL right after every fsync of the game in turn, each
kill resumed and played to the end, in forked children of one process (no interpreter start
per kill: a few seconds a game).
"""

import argparse
import json
import os
import signal
import sys
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from rig.games import game as game_named, games, part
from rig.shell import storage
from rig.shell.gamehost import GameHost
from rig.shell.session import RecordingSession, unfinished
from rig.shell.storage import replay_file

from .clock import VirtualClock

KILL_AT_SYNC = "CLEPTOMANO_KILL_AT_SYNC"
#: The games with a crash script (the ``crash`` part of their folder), in registry order.
GAMES = tuple(g.name for g in games() if part(g, "crash") is not None)


@lru_cache(maxsize=None)
def script(name):
    """``(players, seed, commands)``: the scripted game of ``name``, each command stamped with
    its time, every one taken by the game's rules from the game before it (checked here; a
    maker may give None: the game needs no command there)."""
    game = game_named(name)
    players, seed, makers = part(game, "crash").script()
    state = game.new_game(players, seed)
    commands = []
    for t, make in makers:
        command = make(state)
        if command is None:             # this game needs no command here
            continue
        command = replace(command, t=t)
        state, _ = game.step(state, command)
        commands.append(command)
    return players, seed, tuple(commands)


def kill_hook(count, say=True):
    """The sync hook: print ``sync N`` after the recording's N-th fsync (unless ``say`` is
    False), and with ``count`` (``CLEPTOMANO_KILL_AT_SYNC``) kill this process right there
    (SIGKILL, as a power cut would stop it: everything fsynced is on disk, nothing else is
    promised).  ``hook.seen`` counts the fsyncs."""
    def hook(path):
        hook.seen += 1
        if say:
            print("sync %d" % hook.seen, flush=True)
        if count is not None and hook.seen >= int(count):
            os.kill(os.getpid(), signal.SIGKILL)
    hook.seen = 0
    return hook


def host_for(directory, name, players=None, on_synced=None, display=None):
    """A game host of ``name`` on the virtual clock recording to ``directory`` (the script's
    players unless ``players``, its seed), not started."""
    scripted, seed, _ = script(name)
    clock = VirtualClock()
    return GameHost(game_named(name), players or scripted, clock=clock, seed=seed,
                    display=display, session=RecordingSession(Path(directory), clock=clock,
                                                              on_synced=on_synced))


def play(directory, name, players=None, on_synced=None, upto=None, clean=True):
    """Play the scripted game of ``name`` on a game host recording to ``directory`` (resuming
    its unfinished recording there, if any) up to the command ``upto`` (None: all), and stop:
    cleanly, or as a crash leaves it (``clean`` False); returns the host (stopped)."""
    host = host_for(directory, name, players, on_synced).start()
    try:
        drive(host, script(name)[2][:upto])
    finally:
        host.stop(clean=clean)
    return host


def drive(host, commands):
    """Give the ``commands`` the host's game does not have yet (those after its clock's time
    now), each when the game's clock reaches its time."""
    clock = host.clock
    for command in commands:
        if command.t <= host.now_t():
            continue                        # the recording holds it already
        clock.advance_to(host.t0 + command.t)
        host.submit(command)
        clock.settle()


def _forked(work):
    """Run ``work()`` in a forked child; its exit status as :func:`subprocess.run` gives it
    (-9 for SIGKILL), and what it wrote to its pipe.  The parent runs no thread (the sweep
    only forks and replays), so forking is safe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:                                    # the child: play, and never return
        os.close(read_end)
        code = 1
        try:
            os.write(write_end, str(work()).encode("ascii"))
            code = 0
        except BaseException:
            import traceback
            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        said = f.read().decode("ascii")
    _, status = os.waitpid(pid, 0)
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return code, said


def sweep(workdir, name):
    """The kill sweep of one game: its scripted game played whole once (its fsyncs counted),
    then for every N a fresh game killed with SIGKILL right after its N-th fsync, resumed by
    the next start and played to the end; its recording must replay (as ``cleptomano replay``
    does) to exactly the uninterrupted game's result, in one file, its open marker gone.
    Returns a JSON-ready summary (``ok`` when every kill lost nothing and doubled nothing)."""
    workdir = Path(workdir)
    game = game_named(name)
    script(name)                # built (and the game's tables loaded) once, before the forks

    def whole():
        hook = kill_hook(None, say=False)
        play(workdir / "whole", name, on_synced=hook)
        return hook.seen

    code, said = _forked(whole)
    if code != 0:
        raise SystemExit("the uninterrupted %s game failed (exit %d)" % (name, code))
    fsyncs = int(said)
    expected = replay_file(_only(workdir / "whole"))
    lost = []
    for n in range(1, fsyncs + 1):
        rec = workdir / ("kill-%03d" % n)
        code, _ = _forked(lambda: play(rec, name, on_synced=kill_hook(n, say=False)) and "")
        if code != -signal.SIGKILL:
            lost.append({"sync": n, "problem": "not killed (exit %d)" % code})
            continue
        if game.outcome(replay_file(_only(rec))).over:
            # Killed after the game's last line: nothing is left to resume, and a start must
            # not take the game up again (it begins a new one).
            problem = None if unfinished(rec, game, torn=[]) is None else \
                "a game that is over would be resumed"
            problem = problem or _differs(rec, expected)
        else:
            code, _ = _forked(lambda: play(rec, name) and "")
            problem = "the resumed game failed (exit %d)" % code if code != 0 else _differs(
                rec, expected)
        if problem:
            lost.append({"sync": n, "problem": problem})
    return {"game": name, "ok": not lost, "fsyncs": fsyncs, "kills": fsyncs, "lost": lost}


def _only(directory):
    files = sorted(Path(directory).glob("*.jsonl"))
    if len(files) != 1:
        raise SystemExit("expected one recording in %s, found %d" % (directory, len(files)))
    return files[0]


def _differs(directory, expected):
    """What is wrong with the one recording in ``directory`` resumed to the end, or None."""
    files = sorted(Path(directory).glob("*.jsonl"))
    if len(files) != 1:
        return "%d recordings instead of one" % len(files)
    replayed = replay_file(files[0])
    if storage.open_marker(files[0]).exists() and not storage.game_of(files[0]).outcome(
            replayed).over:
        return "the open marker was left after the clean stop"
    if replayed != expected:
        return "the resumed game ended differently"
    return None


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.gamecrash", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("directory", help="the recordings directory (with --sweep: the work one)")
    p.add_argument("game", choices=GAMES)
    p.add_argument("--sweep", action="store_true",
                   help="kill the game after every fsync in turn, resume it, and print the "
                        "summary as JSON (exit 1 when anything was lost)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.sweep:
        result = sweep(args.directory, args.game)
        print(json.dumps(result), flush=True)
        return 0 if result["ok"] else 1
    play(args.directory, args.game, on_synced=kill_hook(os.environ.get(KILL_AT_SYNC)))
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
