"""One seat, one phone, and one rule for names (issue 28; README "Security", "Seats and
names").

* A player's seat held by a paired phone is given to no other phone: a second phone whose name
  names the same player ("ana’s phone", "ANA", "Aná" beside "Ana") is refused (409) and reads
  and does nothing as her; the seat is free again once her phone unpairs or the rig's key
  unpairs every phone.
* Names follow :mod:`rig.core.names` everywhere: ``--players``, the config, the phones, the
  night's switch, every game's players, the leaderboard.
"""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from rig.cli import game_players
from rig.core.errors import ConfigError, RulesError
from rig.core.names import (MAX_NAME_CHARS, check_name, check_names, name_problem, same_name,
                            same_name_key, seat_key)
from rig.shell.config import load_config
from rig.words import english
from sim.gamehost import BASE, ORIGIN

# --- the rule --------------------------------------------------------------------------------

ACCEPTED = ["Ana", " Ana ", "Ben's phone", "José", "Zoë", "李", "7", "Ana-María R.", "x" * 24,
            "Ana ben"]
REFUSED = [
    ("", "empty"), ("   ", "empty"), ("x" * 25, "24 characters or fewer"),
    ("Ana\u200b", "U+200B"), ("\u200bAna", "U+200B"), ("\u202eanA", "U+202E"),
    ("Ana\u2066", "U+2066"), ("An\u00ada", "U+00AD"), ("Ana\nBen", "U+000A"),
    ("Ana\u2028", "U+2028"), ("Ana\x00", "U+0000"), ("\u0301", "no letter or digit"),
    ("\u0301\u0301\u0301", "no letter or digit"), ("...", "no letter or digit"),
    ("-", "no letter or digit"), (None, "not a name"), (17, "not a name"),
    (["Ana"], "not a name"),
]


@pytest.mark.parametrize("name", ACCEPTED)
def test_a_name_is_kept_as_nfc_without_outer_spaces(name):
    kept = check_name(name)
    assert kept == unicodedata.normalize("NFC", name).strip()


def test_a_decomposed_name_is_kept_composed():
    assert check_name("Jose\u0301") == "José"


@pytest.mark.parametrize("name, words", REFUSED, ids=repr)
def test_a_name_that_is_no_name_is_refused_in_words(name, words):
    with pytest.raises(RulesError) as refused:
        check_name(name)
    assert refused.value.msg is not None
    assert words in english(refused.value.msg), english(refused.value.msg)
    assert words in str(refused.value)                 # the builder's English, one line


@pytest.mark.parametrize("a, b", [("Ana", "ana"), ("Ana", "ANA"), ("Ana", "Aná"),
                                  ("Ana", "\uff21\uff4e\uff41"), ("José", "Jose\u0301"),
                                  ("Zoë", "zoe"), ("straße", "STRASSE"), ("Ana", " Ana")])
def test_names_equal_under_nfkc_case_and_accents_are_one_name(a, b):
    assert same_name(a, b)
    with pytest.raises(RulesError) as refused:
        check_names([a, b])
    assert "the same name as" in english(refused.value.msg)


@pytest.mark.parametrize("a, b", [("Ana", "Anna"), ("Ana", "Ana R"), ("Ben", "Ben2")])
def test_different_names_stay_different(a, b):
    assert not same_name(a, b) and check_names([a, b]) == (a, b)


@pytest.mark.parametrize("phone, player", [("ana\u2019s phone", "Ana"), ("Ana's phone", "Ana"),
                                           ("ANA'S PHONE", "Ana"), ("Aná", "Ana"),
                                           ("Ana", "Ana")])
def test_a_phone_sits_at_the_seat_its_name_names(phone, player):
    assert seat_key(phone) == same_name_key(player)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_name_by_the_rule_or_refused_with_words(text):
    problem = name_problem(text)
    if problem is not None:
        with pytest.raises(RulesError):
            check_name(text)
        assert "\n" not in problem[0]
        return
    kept = check_name(text)
    assert kept == unicodedata.normalize("NFC", kept) == kept.strip()
    assert 1 <= len(kept) <= MAX_NAME_CHARS
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs") for c in kept)
    assert any(unicodedata.category(c)[0] in "LN" for c in kept)
    assert check_name(kept) == kept and same_name(kept, text)


# --- everywhere: --players, the config --------------------------------------------------------

@pytest.mark.parametrize("given, words", [
    ("Ana,ana", "the same name as"),
    ("Ana,B%s" % ("x" * 29), "24 characters or fewer"),
    ("Ana,Ana\u200b", "U+200B"),
    ("Ana,\u202eneB", "U+202E"),
    ("Ana,\u0301", "no letter or digit"),
])
def test_players_on_the_command_line_follow_the_rule(given, words):
    with pytest.raises(ConfigError) as refused:
        game_players(given, load_config(None))
    assert words in str(refused.value) and refused.value.key == "--players"
    assert len(str(refused.value).splitlines()) == 1


def test_players_on_the_command_line_are_kept_by_the_rule():
    assert game_players(" Ana , Jose\u0301 ", load_config(None)) == ("Ana", "José")


# --- one seat, one phone -----------------------------------------------------------------------

def pair(night, name):
    client = TestClient(night.face.app, base_url=BASE)
    answer = client.post("/api/pair", json={"code": night.pairing.view().code, "name": name},
                         headers=ORIGIN)
    return client, answer


@pytest.mark.parametrize("second", ["ana\u2019s phone", "Ana's phone", "ANA", "Aná",
                                    "\uff21\uff4e\uff41"])
def test_a_seat_held_by_a_paired_phone_is_given_to_no_other_phone(night, second):
    """The issue's reproducer: a second phone paired as "ana’s phone" (the code the whole
    table sees) while Ana's phone is paired read her face-down doggy through /api/game/me and
    could choose for her."""
    n = night("canine", ("Ana", "Ben"))
    ana = n.phone("Ana")
    assert n.send("Ana", {"doggy": "Doggy A", "face_up": False}).status_code == 200
    other, answer = pair(n, second)
    assert answer.status_code == 409, answer.text
    assert "one seat has one phone" in answer.json()["error"]
    me = other.get("/api/game/me")
    assert me.status_code == 401 and "Doggy A" not in me.text
    took = other.post("/api/game/command", json={"doggy": "Doggy B", "face_up": True},
                      headers=ORIGIN)
    assert took.status_code == 401
    assert ana.get("/api/game/me").json()["doggy"]["name"] == "Doggy A"
    assert [p for p in n.pairing.view().phones] == ["Ana"]


def test_a_seat_is_free_again_once_its_phone_unpairs_or_the_rig_unpairs_every_phone(night):
    n = night("canine", ("Ana", "Ben"))
    ana = n.phone("Ana")
    assert ana.post("/api/unpair", headers=ORIGIN).status_code == 200
    new, answer = pair(n, "ana\u2019s phone")
    assert answer.status_code == 200
    assert new.get("/api/game/me").json()["you"] == "Ana"
    n.pairing.revoke()                     # the guard's key: every phone unpaired
    assert new.get("/api/game/me").status_code == 401
    n.clock.advance(0.2)
    _, answer = pair(n, "Ana")
    assert answer.status_code == 200


@pytest.mark.parametrize("name, words", [("Ana\u200b", "U+200B"), ("\u202eanA", "U+202E"),
                                         ("\u0301\u0301", "no letter or digit"),
                                         ("x" * 25, "24 characters or fewer")])
def test_a_phone_name_that_is_no_name_is_refused(night, name, words):
    n = night("canine", ("Ana", "Ben"))
    n.phone("Ana")
    _, answer = pair(n, name)
    assert answer.status_code == 400 and words in answer.json()["error"], answer.text


def test_a_phone_of_nobodys_seat_reads_no_players_view(night):
    n = night("canine", ("Ana", "Ben"))
    n.phone("Ana")
    n.send("Ana", {"doggy": "Doggy A", "face_up": False})
    zed, answer = pair(n, "Zed's phone")
    assert answer.status_code == 200
    me = zed.get("/api/game/me")
    assert me.status_code == 403 and "Doggy A" not in me.text


# --- the leaderboard: one player, however a table typed the name ---------------------------------

def test_the_leaderboard_counts_names_that_are_the_same_name_as_one_player(tmp_path):
    from rig.games.cleptomano.rules import standings as sd
    from rig.links.feed import records_from
    from sim.tournament import SOAK, tournament_copy
    for i in range(2):
        tournament_copy(SOAK[i], tmp_path / "t1", "table-1", "match-20261201-19%04d" % i)
    for i in range(2):
        tournament_copy(SOAK[2 + i], tmp_path / "t2", "table-2", "match-20261201-19%04d" % i,
                        rename={"Ben": "B\u00c9N"})
    shown = [p["name"] for p in sd.standings(records_from([tmp_path]))["players"]]
    assert len([n for n in shown if same_name(n, "Ben")]) == 1, shown
