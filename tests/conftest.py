"""Fixtures shared by the test modules (which never import each other): the daemon's simulated
tables, and a companion game with its phones."""

import atexit
import os
import shutil
import tempfile

# Every test process (each pytest worker, and every rig it starts, which inherits it) has a home
# of its own, made before the rig is imported: a `cleptomano run` given no --recordings keeps
# its recordings, and the lock on their folder, under ~/.local/state/cleptomano, which two
# suites running side by side (or a rig the builder runs) would otherwise share.  pip's and
# npm's caches stay where they were.
_REAL_HOME = os.path.expanduser("~")
os.environ.setdefault("PIP_CACHE_DIR", os.path.join(_REAL_HOME, ".cache", "pip"))
os.environ.setdefault("npm_config_cache", os.path.join(_REAL_HOME, ".npm"))
os.environ["HOME"] = tempfile.mkdtemp(prefix="cleptomano-test-home-")
atexit.register(shutil.rmtree, os.environ["HOME"], True)

import pytest  # noqa: E402  (after the home is set)

from sim.harness import Harness  # noqa: E402


@pytest.fixture
def table(tmp_path):
    """Make simulated tables (:class:`sim.harness.Harness`: the whole daemon on mock pins, in
    virtual time, with gestures); every table made is stopped, and its pins released, when the
    test ends."""
    tables = []

    def make(**kwargs):
        kwargs.setdefault("recordings_dir", tmp_path / "rec")
        made = Harness(**kwargs).start()
        tables.append(made)
        return made

    yield make
    for made in tables:
        made.stop()


@pytest.fixture
def night(tmp_path):
    """Make companion games on the host with their phones (:class:`sim.gamehost.Night`:
    ``night(game, players, config=None, seed=7)``); each is closed when the test ends."""
    from sim.gamehost import Night
    made = []

    def make(game, players, **kw):
        made.append(Night(tmp_path, game, players, **kw))
        return made[-1]

    yield make
    for n in made:
        n.close()


@pytest.fixture(autouse=True)
def _the_screen_speaks_english_at_each_start():
    """The display kit's language and its record of what did not fit are one per process (the
    display draws from one thread, and its face sets the snapshot's language before each
    frame): a test that drew a Spanish screen, or cut a text, must not leave the next test's
    screen speaking Spanish or its cuts on the record."""
    import sys

    def reset():
        kit = sys.modules.get("rig.draw.kit")
        if kit is not None:
            kit.use_words("en")
            kit.clips()
            kit.fits()

    reset()
    yield
    reset()
