"""The end-of-game scorer: a player's table area in, a line-by-line breakdown and total out.

The rulebook's scoring, as the rig applies it (see ../shared/rulebook/canine-kleptomaniacs.md):

* each Hiding Place scores the face value of the cards on it: Collectables at their Pooch
  Points, a Master's Bedroom card used as a ready-made set as the number of Collectables it
  shows, the Laundry Basket as two of the place's kind; an Ultimate Hiding Place doubles it;
* a Hiding Place holds ONE kind, in a set of two or more (what it counts as); anything else is
  refused with the reason, and so is a card that is not a card to hide (the Paw, the Poo Pizza,
  a bedroom card without a Collectables symbol);
* Master's Bedroom cards left face up score their face value;
* the doggy's bonus for its target Collectables (counted on the Hiding Places, as what each
  card counts as), +30 for the holder of the Ultimate Paw of Pilferage, -30 for the Poo Pizza;
* the optional rule, a setting: a player who has hidden every Collectable card of a kind scores
  the face value of hidden cards twice: all their hidden cards (``"all-hidden"``) or only the
  completed kind's (``"that-kind"``); the rulebook leaves that open.

Nothing here knows whose turn it is: the scorer is a pure function the game and the tests call.
"""

from collections import Counter
from dataclasses import dataclass
from typing import Optional, Tuple

from rig.core.errors import IllegalMove
from rig.core.msg import Msg
from .cards import (PAW, POO_PIZZA, ULTIMATE_MULTIPLIER, WILD_COUNTS_AS, card_name, card_names,
                    place_label)

PAW_POINTS = 30
POO_PIZZA_POINTS = -30
OPTIONAL_RULES = ("off", "all-hidden", "that-kind")
MIN_SET = 2
# Supply keys for the Hiding Place cards themselves (tuples: never a card's name).
HIDING_PLACE = ("hiding place", "Hiding Place")               # not words: a key (card_name)
ULTIMATE = ("hiding place", "Ultimate Hiding Place")           # not words: a key (card_name)


@dataclass(frozen=True)
class HidingPlace:
    """One Hiding Place and the cards hidden on it (Collectable kinds and Master's Bedroom card
    names, one entry a card).  ``ultimate`` marks the Ultimate Hiding Place; ``wild_as`` names
    the kind a Laundry Basket stands for when no other card on the place names it."""
    cards: Tuple[str, ...] = ()
    ultimate: bool = False
    wild_as: Optional[str] = None


@dataclass(frozen=True)
class Holdings:
    """What a player shows at the game's end: their Hiding Places, the Master's Bedroom cards
    left face up, and whether they hold the Ultimate Paw of Pilferage or the Poo Pizza."""
    hiding_places: Tuple[HidingPlace, ...] = ()
    face_up: Tuple[str, ...] = ()
    paw: bool = False
    poo_pizza: bool = False


@dataclass(frozen=True)
class ScoreLine:
    """One line of the breakdown.  ``item`` is ``hiding-place``, ``all-of-a-kind``,
    ``face-up``, ``doggy``, ``paw`` or ``poo-pizza``; ``cards`` the cards the line counts (each
    card of the player's area is on exactly one line); for a Hiding Place ``collectables`` is
    what its cards count as, ``each`` the kind's points and ``multiplier`` 2 on the Ultimate."""
    item: str
    points: int
    place: Optional[int] = None
    ultimate: bool = False
    kind: Optional[str] = None
    cards: Tuple[str, ...] = ()
    collectables: int = 0
    each: int = 0
    multiplier: int = 1
    doggy: Optional[str] = None
    completed: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Score:
    lines: Tuple[ScoreLine, ...]

    @property
    def total(self):
        return sum(line.points for line in self.lines)


def check_optional_rule(rule):
    if rule not in OPTIONAL_RULES:
        raise IllegalMove(      # the [canine] setting's: the builder's
            "optional rule %r is not a setting; use \"off\", \"all-hidden\" (double all hidden "
            "cards) or \"that-kind\" (double the completed kind's)" % (rule,))  # not words
    return rule


def check_doggy(table, doggy):
    """Refuse a doggy the card table does not list."""
    if doggy not in table.doggy_cards:
        if not table.doggies:
            raise IllegalMove(Msg("canine.refuse.no_doggies", doggy=_shown(doggy)))
        raise IllegalMove(Msg("canine.refuse.no_such_doggy", doggy=_shown(doggy),
                              doggies=card_names(table.doggy_cards)))
    return table.doggy_cards[doggy]


def _shown(name):
    return name if isinstance(name, str) else repr(name)


def _listed(names):
    """Card names for a refusal's list: the language's list, or "none listed"."""
    return card_names(names) or (Msg("canine.refuse.none_listed"),)


def score_holdings(table, holdings, doggy=None, optional_rule="off"):
    """Score one player's ``holdings`` with the card ``table``; ``doggy`` is the name of their
    doggy card (None: no bonus).  Raises IllegalMove with the reason for anything the rulebook
    does not allow, the player's numbers as they were."""
    check_optional_rule(optional_rule)
    dog = None
    if doggy is not None:
        dog = check_doggy(table, doggy)
    check_supply(table, [(None, holdings)])
    places = [_hiding_place(table, place, i) for i, place in
              enumerate(holdings.hiding_places, 1)]
    lines = places + _optional_lines(table, holdings, places, optional_rule)
    for name in holdings.face_up:
        _check_face_up(table, name)
        lines.append(ScoreLine("face-up", table.bedroom_cards[name].points, cards=(name,)))
    if dog is not None:
        collected = sum(p.collectables for p in places if p.kind in dog.targets)
        lines.append(ScoreLine("doggy", dog.bonus(collected), doggy=dog.name,
                               collectables=collected))
    if holdings.paw:
        lines.append(ScoreLine("paw", PAW_POINTS, cards=(PAW,)))
    if holdings.poo_pizza:
        lines.append(ScoreLine("poo-pizza", POO_PIZZA_POINTS, cards=(POO_PIZZA,)))
    return Score(tuple(lines))


def _hiding_place(table, place, number):
    what = place_label(number, place.ultimate)
    kinds, wilds, collectables = [], 0, 0
    for name in place.cards:
        if name in table.kinds:
            kinds.append(name)
            collectables += 1
            continue
        card = table.bedroom_cards.get(name)
        if card is None:
            raise IllegalMove(_not_to_hide(table, name, what))
        if card.hiding_place:
            raise IllegalMove(Msg("canine.refuse.hiding_place_hidden", card=card_name(name),
                                  place=what))
        if card.wild:
            wilds += 1
            collectables += WILD_COUNTS_AS
        elif card.kind is not None:
            kinds.append(card.kind)
            collectables += card.shows
        else:
            raise IllegalMove(Msg("canine.refuse.no_symbol", card=card_name(name), place=what))
    if place.wild_as is not None:
        if place.wild_as not in table.kinds:
            raise IllegalMove(Msg("canine.refuse.wild_as_unknown", place=what,
                                  kind=_shown(place.wild_as), kinds=card_names(table.kinds)))
        if not wilds:
            raise IllegalMove(Msg("canine.refuse.wild_as_no_basket", place=what,
                                  kind=card_name(place.wild_as)))
        kinds.append(place.wild_as)
    distinct = sorted(set(kinds))
    if len(distinct) > 1:
        raise IllegalMove(Msg("canine.refuse.mixed_kinds", place=what,
                              kinds=card_names(distinct)))
    if wilds and not distinct:
        raise IllegalMove(Msg("canine.refuse.basket_alone", place=what))
    if 0 < collectables < MIN_SET:
        raise IllegalMove(Msg("canine.refuse.single_card", place=what,
                              card=card_name(place.cards[0])))
    kind = distinct[0] if distinct else None
    each = table.kinds[kind].points if kind else 0
    multiplier = ULTIMATE_MULTIPLIER if place.ultimate else 1
    return ScoreLine("hiding-place", collectables * each * multiplier, place=number,
                     ultimate=place.ultimate, kind=kind, cards=tuple(place.cards),
                     collectables=collectables, each=each, multiplier=multiplier)


def _not_to_hide(table, name, what):
    if name in (PAW, POO_PIZZA):
        return Msg("canine.refuse.held_not_hidden", card=card_name(name), place=what)
    return Msg("canine.refuse.unknown_card", name=_shown(name), place=what,
               kinds=card_names(table.kinds), bedroom=_listed(table.bedroom_cards))


def _check_face_up(table, name):
    card = table.bedroom_cards.get(name)
    if card is not None and not card.hiding_place:
        return
    if card is not None:
        raise IllegalMove(Msg("canine.refuse.face_up_hiding_place", card=card_name(name)))
    if name in table.kinds:
        raise IllegalMove(Msg("canine.refuse.face_up_collectable", card=card_name(name)))
    if name in (PAW, POO_PIZZA):
        raise IllegalMove(Msg("canine.refuse.face_up_held", card=card_name(name)))
    raise IllegalMove(Msg("canine.refuse.face_up_unknown", name=_shown(name),
                          bedroom=_listed(table.bedroom_cards)))


def _optional_lines(table, holdings, places, rule):
    """The optional rule: every card of a kind hidden scores the hidden cards' face value again."""
    if rule == "off":
        return []
    hidden = Counter(name for place in holdings.hiding_places for name in place.cards
                     if name in table.kinds)
    completed = tuple(c.kind for c in table.collectables if hidden[c.kind] >= c.count)
    if not completed:
        return []
    if rule == "all-hidden":
        return [ScoreLine("all-of-a-kind", sum(p.points for p in places), completed=completed)]
    return [ScoreLine("all-of-a-kind", sum(p.points for p in places if p.kind == kind),
                      kind=kind, completed=(kind,)) for kind in completed]


# --- cards that exist once ------------------------------------------------------------------------

def card_uses(holdings):
    """How many of each physical card ``holdings`` uses: Collectable kinds and Master's Bedroom
    cards by name, the Hiding Place cards under :data:`HIDING_PLACE` and :data:`ULTIMATE`."""
    uses = Counter()
    for place in holdings.hiding_places:
        uses.update(place.cards)
        uses[ULTIMATE if place.ultimate else HIDING_PLACE] += 1
    uses.update(holdings.face_up)
    return uses


def check_supply(table, areas, in_play=None):
    """Refuse areas that together use more of a card than the box holds.  ``areas`` is a list
    of (who, holdings), who None for the one player being scored; the message names everyone who
    uses the card.  ``in_play``: ``(Hiding Places the game put in play, how many a player)``,
    fewer than the box's (the rulebook's set-up deals only some of them): more are refused."""
    supply = {c.kind: c.count for c in table.collectables}
    supply.update((c.name, c.count) for c in table.bedroom)
    supply[HIDING_PLACE] = table.hiding_places
    supply[ULTIMATE] = sum(c.count for c in table.bedroom if c.hiding_place)
    uses = [(who, card_uses(h)) for who, h in areas]
    total = Counter()
    for _, used in uses:
        total.update(used)
    if in_play is not None and in_play[0] < total[HIDING_PLACE] <= table.hiding_places:
        who = tuple(Msg("canine.refuse.your_uses", count=used[HIDING_PLACE]) if w is None else
                    Msg("canine.refuse.uses", player=w, count=used[HIDING_PLACE])
                    for w, used in uses if used[HIDING_PLACE])
        raise IllegalMove(Msg("canine.refuse.hiding_places_in_play", n=total[HIDING_PLACE],
                              uses=who, in_play=in_play[0], each=in_play[1]))
    for name, n in sorted(total.items(), key=str):
        exist = supply.get(name)
        if exist is None or n <= exist:
            continue     # an unknown card is refused, with its own reason, by the scorer
        who = tuple(Msg("canine.refuse.your_uses", count=used[name]) if w is None else
                    Msg("canine.refuse.uses", player=w, count=used[name])
                    for w, used in uses if used[name])
        label = name[1] if isinstance(name, tuple) else name
        raise IllegalMove(Msg("canine.refuse.too_many", n=n, card=card_name(label), uses=who,
                              exist=exist))


# --- what a score can be -----------------------------------------------------------------------

def score_bounds(table, optional_rule="off"):
    """(lowest, highest) total any one player can score with ``table``: every card at its best
    use, doubled on an Ultimate Hiding Place and again by the optional rule, the best doggy
    bonus and the Paw; the Poo Pizza alone is the floor."""
    best_each = max(c.points for c in table.collectables)
    cards = sum(c.points * c.count for c in table.collectables)
    for card in table.bedroom:
        if card.hiding_place:
            continue
        as_set = card.shows * table.kinds[card.kind].points if card.kind else 0
        if card.wild:
            as_set = WILD_COUNTS_AS * best_each
        cards += card.count * max(card.points, as_set)
    has_ultimate = any(c.hiding_place for c in table.bedroom)
    cards *= (ULTIMATE_MULTIPLIER if has_ultimate else 1) * (1 if optional_rule == "off" else 2)
    bonus = max((dog.bonus(_most_collected(table, dog)) for dog in table.doggies), default=0)
    return POO_PIZZA_POINTS, cards + bonus + PAW_POINTS


def _most_collected(table, dog):
    n = sum(table.kinds[k].count for k in dog.targets)
    n += sum(c.count * c.shows for c in table.bedroom if c.kind in dog.targets)
    return n + sum(c.count * WILD_COUNTS_AS for c in table.bedroom if c.wild)


# --- JSON (the phones and the recording) ----------------------------------------------------------

def _bad_entry(where):
    """A phone's entry the rig cannot read (a page out of date): the field, and to send again."""
    return IllegalMove(Msg("canine.refuse.bad_entry", field=where))


def holdings_from_json(obj):
    """:class:`Holdings` from the JSON a phone sends.  Raises IllegalMove naming the field."""
    if not isinstance(obj, dict):
        raise _bad_entry("{hiding_places, face_up, paw, poo_pizza}")
    unknown = sorted(set(obj) - {"hiding_places", "face_up", "paw", "poo_pizza"})
    if unknown:
        raise _bad_entry(repr(unknown[0]))
    places = obj.get("hiding_places", [])
    if not isinstance(places, list):
        raise _bad_entry("hiding_places")
    parsed = tuple(_place_from_json(p, i) for i, p in enumerate(places, 1))
    return Holdings(parsed, _names(obj.get("face_up", []), "face_up"),
                    _bool(obj, "paw", "paw"), _bool(obj, "poo_pizza", "poo_pizza"))


def _place_from_json(obj, number):
    where = "hiding_places[%d]" % number
    if not isinstance(obj, dict) or set(obj) - {"cards", "ultimate", "wild_as"}:
        raise _bad_entry(where)
    wild_as = obj.get("wild_as")
    if wild_as is not None and not isinstance(wild_as, str):
        raise _bad_entry(where + ".wild_as")
    return HidingPlace(_names(obj.get("cards", []), where + ".cards"),
                       _bool(obj, "ultimate", where + ".ultimate"), wild_as)


def _names(value, where):
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise _bad_entry(where)
    return tuple(value)


def _bool(obj, key, where):
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise _bad_entry(where)
    return value


def holdings_to_json(holdings):
    return {
        "hiding_places": [{"cards": list(p.cards), "ultimate": p.ultimate, "wild_as": p.wild_as}
                          for p in holdings.hiding_places],
        "face_up": list(holdings.face_up),
        "paw": holdings.paw,
        "poo_pizza": holdings.poo_pizza,
    }


def line_to_json(line):
    out = {"item": line.item, "points": line.points}
    if line.item == "hiding-place":
        out.update(place=line.place, ultimate=line.ultimate, kind=line.kind,
                   cards=list(line.cards), collectables=line.collectables, each=line.each,
                   multiplier=line.multiplier)
    elif line.item == "all-of-a-kind":
        out["completed"] = list(line.completed)
    elif line.item == "doggy":
        out.update(doggy=line.doggy, collectables=line.collectables)
    else:
        out["cards"] = list(line.cards)
    return out
