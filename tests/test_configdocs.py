"""The example config (wiring/rig.example.toml, what the installer copies to
/etc/cleptomano/rig.toml) and the configuration reference (docs/configuration.md) are generated
from the settings the rig declares (sim/tools/configdocs.py): the committed files are what it
generates, so neither can disagree with the rig; a game's section comes from its folder."""

import pytest

from rig import games as registry
from rig.shell.config import load_config
from sim.tools import configdocs


@pytest.mark.parametrize("path", [configdocs.EXAMPLE, configdocs.REFERENCE],
                         ids=lambda p: p.name)
def test_the_committed_file_is_what_the_declarations_generate(path):
    assert path.read_text("utf-8") == configdocs.documents()[path], (
        "run `python -m sim.tools.configdocs` and commit %s" % path.name)


def test_check_says_nothing_is_stale():
    assert configdocs.main(["--check"]) == 0


def test_the_example_loads_as_every_default_and_names_each_game_by_its_option():
    from dataclasses import replace
    assert replace(load_config(configdocs.EXAMPLE), path=None) == load_config()
    text = configdocs.EXAMPLE.read_text("utf-8")
    assert "\n[stop_thief]                     # --game stop-thief\n" in text
    assert text.index("\n[match]") < text.index("\n[pins]")      # Cleptómano's, first


def test_a_registered_game_s_section_is_in_what_they_generate():
    registry.register("coin_heist")
    try:
        example, reference = configdocs.example(), configdocs.reference()
    finally:
        registry.unregister("coin_heist")
    assert "\n[coin_heist]                     # --game coin-heist\n" \
           "target = 3                       # 1-9 jewels to win\n" in example
    assert "| `target` | `3` | 1-9 jewels to win |" in reference
