"""A sample screen's state with its players renamed: the same game, played by a table whose
names are longer (``renamed(thing, {"Ana": "Maximiliano"})``), for the tests that draw every
sample screen with the longest real name of each language (tests/test_screen_fit.py)."""

import dataclasses
import re

from rig.core.msg import Msg


def renamed(thing, names, depth=0):
    """``thing`` (a view dict, a scoreboard, a game: dicts, lists, tuples, sets, dataclasses,
    :class:`Msg`) with every name of ``names`` (old -> new) replaced, as a whole string or a
    whole word in a longer one.  What cannot be rebuilt is kept as it is."""
    if depth > 40:
        return thing
    if isinstance(thing, str):
        if thing in names:
            return names[thing]
        pattern = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, names)))
        return pattern.sub(lambda m: names[m.group(1)], thing)
    again = lambda x: renamed(x, names, depth + 1)        # noqa: E731
    if isinstance(thing, Msg):
        return Msg(thing.code, **{k: again(v) for k, v in thing.params})
    if isinstance(thing, dict):
        return {again(k): again(v) for k, v in thing.items()}
    if isinstance(thing, (list, tuple, set, frozenset)) and not hasattr(thing, "_fields"):
        return type(thing)(again(v) for v in thing)
    if dataclasses.is_dataclass(thing) and not isinstance(thing, type):
        try:
            return dataclasses.replace(thing, **{f.name: again(getattr(thing, f.name))
                                                 for f in dataclasses.fields(thing) if f.init})
        except (TypeError, ValueError):
            return thing
    return thing
