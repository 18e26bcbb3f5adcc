"""Fixtures shared by the daemon's end-to-end tests."""

import pytest

from sim.harness import Harness


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
