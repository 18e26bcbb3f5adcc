"""The card table: the numbers printed on the cards, typed in once by the game's owner.

The rulebook cannot be read for them (the values are symbols on the cards), so the rig takes them
from a small TOML (or JSON) file: every Collectable kind with its Pooch Points and how many
exist, the Master's Bedroom cards, the doggy characters with their target Collectables and
bonus, and the deck sizes the end tracker counts.  ``data/example_cards.toml`` shows the format;
its numbers are placeholders.

:func:`parse_card_table` validates the whole file and refuses it with one
:class:`~rig.core.errors.ConfigError` naming the card (or kind) and the fix.  The same checks
read the copy embedded in a recording's header (:func:`card_table_from_obj`), so a replay scores
with exactly the cards the game was played with.
"""

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Optional, Tuple

from rig.core.bounded import load_json, load_toml
from rig.core.errors import ConfigError
from rig.core.msg import Msg, N_

PAW = "Ultimate Paw of Pilferage"       # not words: the card's key; a player reads card_name()
POO_PIZZA = "Poo Pizza"                 # not words: the card's key, as PAW
#: The names a player reads for the cards the rulebook names (and the example table's made-up
#: ones), by the name the card table and the recordings use: :func:`card_name`.
NAMES = {
    PAW: N_("canine.name.paw"),
    POO_PIZZA: N_("canine.name.poo_pizza"),
    "Slipper": N_("canine.name.slipper"),
    "Grotty Balls": N_("canine.name.grotty_balls"),  # not words: a key
    "Basic Socks": N_("canine.name.basic_socks"),  # not words: a key
    "Granny's Bloomers": N_("canine.name.grannys_bloomers"),  # not words: a key
    "Tea Towel": N_("canine.name.tea_towel"),  # not words: a key
    "Gnashers": N_("canine.name.gnashers"),
    "Bone": N_("canine.name.bone"),
    "Granny's Bloomers x3": N_("canine.name.grannys_bloomers_x3"),  # not words: a key
    "Granny's False Teeth": N_("canine.name.grannys_false_teeth"),  # not words: a key
    "Wacky Earplugs": N_("canine.name.wacky_earplugs"),  # not words: a key
    "Laundry Basket": N_("canine.name.laundry_basket"),  # not words: a key
    "Ultimate Hiding Place": N_("canine.name.ultimate_hiding_place"),  # not words: a key
    "Hiding Place": N_("canine.name.hiding_place"),  # not words: a key (the supply's)
}
#: The example table's placeholder doggies ("Doggy A"): said as the language's "doggy" and
#: the letter.
_DOGGY_LETTER = re.compile(r"^Doggy ([A-Z])$")
#: The doggies' special action powers, as the rulebook lists them.
POWERS = ("puppy-eyes", "charm-offensive", "hunk-o-haddock", "turkey-buster", "fishy-blast")
#: What a Laundry Basket counts as ("TWO of any kind") and what an Ultimate Hiding Place does.
WILD_COUNTS_AS = 2
ULTIMATE_MULTIPLIER = 2
SIX = 6

_TOP_KEYS = ("placeholder", "die_faces", "hiding_places", "action_cards", "collectable",
             "bedroom", "doggy")
_COLLECTABLE_KEYS = ("kind", "points", "count")
_BEDROOM_KEYS = ("name", "points", "count", "kind", "shows", "wild", "hiding_place")
_DOGGY_KEYS = ("name", "targets", "bonus_per_card", "bonus_at", "power")
MAX_POINTS = 1000
#: A card table is a few KB of text; a file beyond this is not one.
MAX_CARDS_BYTES = 1 << 20
MAX_COUNT = 200


@dataclass(frozen=True)
class Collectable:
    """A kind of Collectable: its Pooch Points (top left) and how many exist (top right)."""
    kind: str
    points: int
    count: int


@dataclass(frozen=True)
class BedroomCard:
    """A Master's Bedroom card (``count`` of them in the deck).

    One of four uses, fixed by its face: a ready-made set of ``shows`` Collectables of ``kind``;
    the Laundry Basket (``wild``: two of any kind); the Ultimate Hiding Place (``hiding_place``:
    doubles what is hidden on it); or neither, scoring only its face value face up.  ``points``
    is the face value when it is left face up (None for the Ultimate Hiding Place, which is a
    hiding place and has no face value to score)."""
    name: str
    points: Optional[int]
    count: int = 1
    kind: Optional[str] = None
    shows: int = 0
    wild: bool = False
    hiding_place: bool = False


@dataclass(frozen=True)
class Doggy:
    """A doggy character card: its target Collectables and the end-of-game bonus for them.

    The bonus is either ``bonus_per_card`` points for each target Collectable, or a step table
    ``bonus_at`` of (at least this many, points) pairs: the highest step reached counts.
    ``power`` is the special action power its symbol gives (one of :data:`POWERS`), if known."""
    name: str
    targets: Tuple[str, ...]
    bonus_per_card: Optional[int] = None
    bonus_at: Tuple[Tuple[int, int], ...] = ()
    power: Optional[str] = None

    def bonus(self, collected):
        """The bonus for ``collected`` target Collectables."""
        if self.bonus_per_card is not None:
            return self.bonus_per_card * collected
        reached = [points for at_least, points in self.bonus_at if collected >= at_least]
        return reached[-1] if reached else 0


@dataclass(frozen=True)
class CardTable:
    """Every number the scorer and the dice need, validated.

    ``action_cards`` is the Action deck without the Hiding Places dealt into it at set-up;
    ``hiding_places`` how many Hiding Place cards the box holds (20 in the rulebook).
    ``placeholder`` marks a table whose numbers were never checked against the cards (the
    screen says so)."""
    collectables: Tuple[Collectable, ...]
    bedroom: Tuple[BedroomCard, ...]
    doggies: Tuple[Doggy, ...]
    action_cards: int
    hiding_places: int = 20
    die_faces: int = SIX
    placeholder: bool = False

    @cached_property
    def kinds(self):
        return {c.kind: c for c in self.collectables}

    @cached_property
    def bedroom_cards(self):
        return {c.name: c for c in self.bedroom}

    @cached_property
    def doggy_cards(self):
        return {d.name: d for d in self.doggies}

    def kind_names(self):
        return ", ".join(self.kinds)


def card_name(name):
    """What a player reads for the card (or kind, or doggy) the card table calls ``name``: the
    catalog's words for a name the rulebook gives (a :class:`~rig.core.msg.Msg`), else the
    owner's own name as they typed it (a str)."""
    code = NAMES.get(name)
    if code is not None:
        return Msg(code)
    found = _DOGGY_LETTER.match(name) if isinstance(name, str) else None
    if found:
        return Msg("canine.name.doggy", letter=found.group(1))
    return name


def place_label(number, ultimate=False):
    """Hiding Place ``number`` of a player's area (the Ultimate says so), as a score line and a
    refusal name it."""
    if ultimate:
        return Msg("canine.line.ultimate_place", place=number)
    return Msg("canine.line.place", place=number)


def card_names(names):
    """:func:`card_name` of each of ``names``, a tuple (a list a language joins its way)."""
    return tuple(card_name(name) for name in names)


# --- parsing ------------------------------------------------------------------------------------

def parse_card_table(text):
    """A card table from the text of a TOML file (or a JSON object).  Raises ConfigError."""
    if not isinstance(text, str):
        raise ConfigError("the card table must be text, got %s" % type(text).__name__)
    if text.lstrip().startswith("{"):
        obj = load_json(text, ConfigError, "give the card table as TOML like "  # not words
                        "data/example_cards.toml, or as one JSON object",
                        max_bytes=MAX_CARDS_BYTES, what="the card table")  # not words: builder's
    else:
        obj = load_toml(text, ConfigError, "copy data/example_cards.toml and change its "
                        "numbers", max_bytes=MAX_CARDS_BYTES, what="the card table")  # not words
    return card_table_from_obj(obj)


def card_table_from_obj(obj):
    """A card table from parsed TOML/JSON (a dict).  Raises ConfigError naming the card."""
    if not isinstance(obj, dict):
        raise ConfigError("the card table must be a table of keys, got %s"
                          % type(obj).__name__)
    _known_keys(obj, _TOP_KEYS, "the card table")  # not words: the builder's file
    placeholder = obj.get("placeholder", False)
    if not isinstance(placeholder, bool):
        raise ConfigError("placeholder %r must be true or false; set it to false once the "
                          "numbers are the ones on your cards" % (placeholder,), key="placeholder")
    collectables = _parse_collectables(_list(obj, "collectable", required=True))
    kinds = {c.kind for c in collectables}
    bedroom = _parse_bedroom(_list(obj, "bedroom"), kinds)
    doggies = _parse_doggies(_list(obj, "doggy"), kinds)
    actions = "the number of Action cards, Hiding Places not counted"  # not words: builder's
    return CardTable(
        collectables=collectables, bedroom=bedroom, doggies=doggies,
        action_cards=_whole(obj, "action_cards", "action_cards", 1, 500, required=True,
                            what=actions),
        hiding_places=_whole(obj, "hiding_places", "hiding_places", 2, 100, default=20,
                             what="the number of Hiding Place cards in the box (20)"),  # not words
        die_faces=_whole(obj, "die_faces", "die_faces", SIX, 100, default=SIX,
                         what="the faces of the die (the action cards ask for a six)"),  # not words
        placeholder=placeholder)


def _parse_collectables(items):
    out, seen = [], set()
    for i, item in enumerate(items, 1):
        where = _where("collectable", i, item, "kind")
        _known_keys(item, _COLLECTABLE_KEYS, where)
        kind = _name(item, "kind", where, seen)
        out.append(Collectable(
            kind,
            _whole(item, "points", where, 0, MAX_POINTS, required=True,
                   what="its Pooch Points (the symbol top left on the card)"),  # not words
            _whole(item, "count", where, 1, MAX_COUNT, required=True,
                   what="how many %s cards exist (the symbol top right)" % kind)))  # not words
    return tuple(out)


def _parse_bedroom(items, kinds):
    out, seen = [], set(kinds)
    for i, item in enumerate(items, 1):
        where = _where("bedroom", i, item, "name")
        _known_keys(item, _BEDROOM_KEYS, where)
        name = _name(item, "name", where, seen)
        wild = _flag(item, "wild", where)
        hiding_place = _flag(item, "hiding_place", where)
        kind = item.get("kind")
        uses = [u for u, on in (("kind", kind is not None), ("wild", wild),
                                ("hiding_place", hiding_place)) if on]
        if len(uses) > 1:
            raise ConfigError("%s are exclusive: a card is a ready-made set (kind and shows), "
                              "the Laundry Basket (wild) or the Ultimate Hiding Place "
                              "(hiding_place); keep one" % " and ".join(uses), key=where)
        shows = 0
        if kind is not None:
            if not isinstance(kind, str) or kind not in kinds:
                raise ConfigError("kind %r is not a Collectable of this table; use one of %s"
                                  % (kind, ", ".join(sorted(kinds))), key=where)
            shows = _whole(item, "shows", where, 1, 20, required=True,
                           what="how many %s the card shows (e.g. 3 for x3)" % kind)  # not words
        elif "shows" in item:
            raise ConfigError("shows needs a kind: say which Collectable the card shows, or "
                              "remove shows", key=where)
        if hiding_place:
            if "points" in item:
                raise ConfigError("an Ultimate Hiding Place scores the cards hidden on it, not "
                                  "a face value; remove points", key=where)
            points = None
        else:
            points = _whole(item, "points", where, 0, MAX_POINTS, required=True,
                            what="its face value when left face up")  # not words: builder's
        count = _whole(item, "count", where, 1, 20, default=1,
                       what="how many of it the deck holds")  # not words: builder's
        out.append(BedroomCard(name, points, count, kind, shows, wild, hiding_place))
    return tuple(out)


def _parse_doggies(items, kinds):
    out, seen = [], set()
    for i, item in enumerate(items, 1):
        where = _where("doggy", i, item, "name")
        _known_keys(item, _DOGGY_KEYS, where)
        name = _name(item, "name", where, seen)
        targets = item.get("targets")
        if not isinstance(targets, list) or not targets:
            raise ConfigError("targets %r must list the doggy's target Collectables (bottom "
                              "left on the card), e.g. [\"Slipper\"]" % (targets,), key=where)
        for target in targets:
            if not isinstance(target, str) or target not in kinds:
                raise ConfigError("target %r is not a Collectable of this table; use one of %s"
                                  % (target, ", ".join(sorted(kinds))), key=where)
        if len(set(targets)) != len(targets):
            raise ConfigError("targets %r repeat a kind; list each kind once" % (targets,),
                              key=where)
        if ("bonus_per_card" in item) == ("bonus_at" in item):
            raise ConfigError("give exactly one of bonus_per_card (points per target "
                              "Collectable) or bonus_at (steps [[at least, points], ...])",
                              key=where)
        per_card = None
        steps = ()
        if "bonus_per_card" in item:
            per_card = _whole(item, "bonus_per_card", where, 0, MAX_POINTS,
                              what="the bonus points for each target Collectable")  # not words
        else:
            steps = _steps(item["bonus_at"], where)
        power = item.get("power")
        if power is not None and (not isinstance(power, str) or power not in POWERS):
            raise ConfigError("power %r is not a special action power; use one of %s, or "
                              "leave it out" % (power, ", ".join(POWERS)), key=where)
        out.append(Doggy(name, tuple(targets), per_card, steps, power))
    return tuple(out)


def _steps(value, where):
    fix = ("bonus_at must be steps [[at least N target Collectables, points], ...] with N "
           "rising and points never falling, e.g. [[2, 5], [4, 10]]")  # not words: builder's
    if not isinstance(value, list) or not value:
        raise ConfigError("%s; got %r" % (fix, value), key=where)
    steps = []
    for step in value:
        ok = isinstance(step, list) and len(step) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) for x in step)
        if not ok or not 1 <= step[0] <= MAX_COUNT or not 0 <= step[1] <= MAX_POINTS:
            raise ConfigError("%s; step %r is not one" % (fix, step), key=where)
        if steps and (step[0] <= steps[-1][0] or step[1] < steps[-1][1]):
            raise ConfigError("%s; step %r does not follow %r" % (fix, step, list(steps[-1])),
                              key=where)
        steps.append((step[0], step[1]))
    return tuple(steps)


def _where(section, index, item, name_key):
    name = item.get(name_key) if isinstance(item, dict) else None
    if isinstance(name, str) and name.strip():
        return "%s %r" % (section, name)
    return "%s #%d" % (section, index)


def _list(obj, key, required=False):
    items = obj.get(key, [])
    if required and not items:
        raise ConfigError("the card table lists no %s; add a [[%s]] table for each" % (key, key),
                          key=key)
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise ConfigError("%s must be a list of tables ([[%s]] in TOML)" % (key, key), key=key)
    return items


def _known_keys(item, allowed, where):
    unknown = sorted(set(item) - set(allowed))
    if unknown:
        raise ConfigError("key %r is not known; allowed keys: %s"
                          % (unknown[0], ", ".join(allowed)), key=where)


def _name(item, key, where, seen):
    name = item.get(key)
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise ConfigError("%s %r must be the name printed on the card" % (key, name), key=where)
    if name in (PAW, POO_PIZZA):
        raise ConfigError("%s is a special card: the scorer asks who holds it; do not list it"
                          % name, key=where)
    if name in seen:
        raise ConfigError("%s %r is used twice; each card name may appear once in the table "
                          "(Collectables and Master's Bedroom cards included)" % (key, name),
                          key=where)
    seen.add(name)
    return name


def _flag(item, key, where):
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError("%s %r must be true or false" % (key, value), key=where)
    return value


def _whole(item, key, where, lo, hi, required=False, default=None, what=""):
    if key not in item:
        if required:
            raise ConfigError("%s is missing; give %s" % (key, what), key=where)
        return default
    value = item[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ConfigError("%s %r is not usable; give %s, a whole number from %d to %d"
                          % (key, value, what, lo, hi), key=where)
    return value


# --- writing (for the recording's header) -------------------------------------------------------

def card_table_to_obj(table):
    """The table as a JSON-ready dict that :func:`card_table_from_obj` reads back equal."""
    out = {"placeholder": table.placeholder, "die_faces": table.die_faces,
           "hiding_places": table.hiding_places, "action_cards": table.action_cards,
           "collectable": [{"kind": c.kind, "points": c.points, "count": c.count}
                           for c in table.collectables]}
    bedroom = []
    for card in table.bedroom:
        entry = {"name": card.name, "count": card.count}
        if card.points is not None:
            entry["points"] = card.points
        if card.kind is not None:
            entry.update(kind=card.kind, shows=card.shows)
        if card.wild:
            entry["wild"] = True
        if card.hiding_place:
            entry["hiding_place"] = True
        bedroom.append(entry)
    doggies = []
    for dog in table.doggies:
        entry = {"name": dog.name, "targets": list(dog.targets)}
        if dog.bonus_per_card is not None:
            entry["bonus_per_card"] = dog.bonus_per_card
        else:
            entry["bonus_at"] = [list(step) for step in dog.bonus_at]
        if dog.power is not None:
            entry["power"] = dog.power
        doggies.append(entry)
    if bedroom:
        out["bedroom"] = bedroom
    if doggies:
        out["doggy"] = doggies
    return out
