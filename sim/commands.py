"""Phone commands for the tests that play a game by its own vocabulary: the commands a game's
``example`` shows, and other values of their kinds (the contract's and the secrets' tests)."""

import json


def examples(g):
    """The phone commands ``g.example`` shows (``'{"a": 1}, {"b": true} or {"c": 2}'``), as
    objects; AssertionError when it shows none."""
    decoder, text, found, i = json.JSONDecoder(), g.example, [], 0
    while (i := text.find("{", i)) >= 0:
        obj, i = decoder.raw_decode(text, i)
        found.append(obj)
    assert found, "%s's example shows no command" % g.name
    return found


def vary(value, rng, names):
    """``value`` (a part of an example command) or another value of its kind: numbers, a few
    places 1-8, a name the game offers (``names``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return rng.choice([value, rng.randint(0, 2 * value + 12)])
    if isinstance(value, list) and value and all(type(v) is int for v in value):
        return sorted(rng.sample(range(1, 9), rng.randint(1, 3)))
    if isinstance(value, list):
        return [vary(v, rng, names) for v in value]
    if isinstance(value, dict):
        return {k: vary(v, rng, names) for k, v in value.items()}
    if isinstance(value, str):
        return rng.choice([value] + names)
    return value
