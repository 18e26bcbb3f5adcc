"""Plays the coin heist installed as a distribution of its own
(tests/games/coin_heist/test_installed_game.py runs this with the Python of a venv it was
pip-installed into, in a folder where the test suite's copy of the game cannot be imported): through the registry alone (no register() call),
on the game host at the keys, on the screen, from the phones, replayed, listed by ``history``
and resumed after a cut; its config section read.  Prints what it saw as one JSON object."""

import contextlib
import io
import json
import sys
from pathlib import Path


def main(work):
    work = Path(work)
    import coin_heist
    from coin_heist.rules import flip
    from coin_heist.screen import COIN, HEADS, TAILS
    from rig import cli, games
    from rig.display.game_keys import key_help, primary
    from rig.shell.config import load_config
    from rig.shell.gamehost import GameHost
    from rig.shell.session import RecordingSession
    from sim.clock import VirtualClock
    from sim.frames import count
    from sim.gamehost import Night, Speakers

    seen = {"names": list(games.names()), "installed": games.installed(),
            "package": str(Path(coin_heist.__file__).parent)}
    game = games.game("coin-heist")
    seed = 7
    sides = [flip(seed, i) for i in range(40)]
    recordings = work / "recordings"

    def table():
        clock = VirtualClock()
        display = Speakers()
        host = GameHost(game, ("Ana", "Ben"), clock=clock, display=display, seed=seed,
                        session=RecordingSession(recordings, clock=clock),
                        key_help=key_help("coin-heist"), button=primary("coin-heist"))
        host.start()
        clock.advance(0.2)
        return host, display, clock

    def press(display, clock, key):
        display.press(key)
        clock.advance(0.5)

    host, display, clock = table()
    for t in range(2):                           # Ana calls right, Ben wrong
        right = "space" if sides[t] == "heads" else "t"
        wrong = "t" if sides[t] == "heads" else "space"
        press(display, clock, right if t % 2 == 0 else wrong)
    seen["played"] = display.board.view
    frame = display.frame((800, 480))
    box = (int(COIN[0] * 800), int(COIN[1] * 480), int(COIN[2] * 800), int(COIN[3] * 480))
    seen["coin_pixels"] = count(frame, box, HEADS if sides[1] == "heads" else TAILS, tol=10)
    host.stop(clean=False)                      # cut off, as a crash leaves it
    cut = host.recording_path

    host, display, clock = table()
    seen["resumed"] = {"path": str(host.recording_path) if host.resumed else None,
                       "view": display.board.view}
    t = display.board.view["flips"]
    while not display.board.over:
        right = "space" if sides[t] == "heads" else "t"
        wrong = "t" if sides[t] == "heads" else "space"
        press(display, clock, right if t % 2 == 0 else wrong)
        t += 1
    seen["heard"] = sorted(set(display.heard))
    seen["over"] = display.board.view
    result = host.result()
    host.stop()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = cli.main(["replay", str(cut)])
    seen["replay"] = {"status": status, "same": json.loads(out.getvalue()) == result}
    seen["history"] = cli.history_lines(recordings)
    seen["recording"] = cut.name

    config_path = work / "rig.toml"
    config_path.write_text("[coin_heist]\ntarget = 2\n", "utf-8")
    seen["target"] = games.settings(game, load_config(config_path)).target

    night_dir = work / "night"
    night_dir.mkdir()
    night = Night(night_dir, "coin-heist", ["Ana", "Ben"])
    try:
        ana = night.phone("Ana")
        answer = night.send("Ana", {"call": "heads"})
        script = ana.get("/games/phone/coin-heist.js")
        seen["phone"] = {"status": answer.status_code, "last": answer.json().get("last"),
                         "script": script.status_code,
                         "script_is_installed": script.text == (
                             Path(coin_heist.__file__).parent / "phone.js").read_text("utf-8"),
                         "listed": [g["name"] for g in ana.get("/api/games").json()]}
    finally:
        night.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main(sys.argv[1])
