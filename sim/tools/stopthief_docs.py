"""The README's Stop Thief! pictures, drawn by the rig's own renderer.

``python -m sim.tools.stopthief_docs`` writes ``docs/screenshots/stop-thief-board.png`` (the
sample town, big enough to print and play on) and two scanner screens of a game on it:
``stop-thief-scanner.png`` (clues being given) and ``stop-thief-arrest.png`` (an arrest, with
the caught thief's path).  Re-run it after changing the sample town or the screen.
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from rig.games.stop_thief.samples import board_png, scanner_screenshot  # noqa: E402
from rig.games.stop_thief.resources import sample_town  # noqa: E402

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    written = [board_png(sample_town(), OUT / "stop-thief-board.png", (1800, 1200)),
               scanner_screenshot("clues", OUT / "stop-thief-scanner.png", (800, 480)),
               scanner_screenshot("arrest", OUT / "stop-thief-arrest.png", (800, 480))]
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
