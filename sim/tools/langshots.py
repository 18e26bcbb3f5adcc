"""The README's pictures of the languages: one screen and one phone page in each language.

``python -m sim.tools.langshots`` (``make langshots``) writes, for each of English, Spanish,
French and Romanian:

* ``docs/screenshots/lang-screen-LANG.png``: the rig's screen, rendered headless by
  ``cleptomano screenshot STATE OUT --lang LANG`` (the same command a builder runs);
* ``docs/screenshots/lang-phone-LANG.png``: Stop Thief!'s phone page in a real Chromium
  (Debian's, driven by sim/phone.py) on a 390x844 phone whose browser asks for that language
  (its Accept-Language), after a clue, on the rig running the game in real time.

It takes about half a minute; re-run it after changing a screen, a page or a catalog.
"""

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from rig.cli import main as cleptomano
from rig.games import game
from rig.shell.config import StopThiefConfig
from rig.words import LANGUAGES

from ..gametable import GameTable
from ..phone import Browser

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREEN = "turn"
LOCALE = {"en": "en-GB", "es": "es-ES", "fr": "fr-FR", "ro": "ro-RO"}


def screens(out, state=SCREEN):
    written = []
    for lang in LANGUAGES:
        path = out / ("lang-screen-%s.png" % lang)
        if cleptomano(["screenshot", state, str(path), "--lang", lang]) != 0:
            raise SystemExit("cleptomano screenshot %s --lang %s failed" % (state, lang))
        written.append(path)
    return written


def phones(out):
    written = []
    with tempfile.TemporaryDirectory(prefix="langshots-") as recordings, Browser() as browser:
        with GameTable(Path(recordings), "stop-thief", ("Ana", "Ben"), seed=7,
                       stop_thief=StopThiefConfig()) as rig:
            clue = replace(game("stop-thief").command_from_json({"clue": True}), by="Ana")
            rig.host.submit(clue)
            for lang in LANGUAGES:
                phone = browser.phone("lang-" + lang, locale=LOCALE[lang])
                phone.goto(rig.url)
                phone.wait("ol.clues li")
                path = out / ("lang-phone-%s.png" % lang)
                written.append(phone.screenshot(path))
    return written


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m sim.tools.langshots", description=__doc__)
    p.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default: %(default)s)")
    p.add_argument("--screen", default=SCREEN, help="the sample screen (default: %(default)s)")
    args = p.parse_args(argv)
    written = screens(args.out, args.screen) + phones(args.out)
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
