// The companion games' commands as the rig's API takes them (POST /api/game/command): each is
// one line of the game's recording without "t" and "by" (the rig stamps the time and adds the
// paired player), and a roll is {"roll": true} (the rig rolls).  Pure: the page and the tests
// (node) build the same bodies from here, so what a button sends is what the tests send.
"use strict";

const sorted = (numbers) => [...new Set(numbers.map(Number))].sort((a, b) => a - b);

const GameCommands = {
  "stop-thief": {
    clue: () => ({ clue: true }),
    replay: () => ({ replay: true }),
    arrest: (space) => ({ arrest: Number(space) }),
    endTurn: () => ({ end_turn: true }),
  },
  "stolen-paintings": {
    start: () => ({ start: true }),
    steal: (places) => ({ steal: sorted(places) }),
    mark: (places) => ({ mark: sorted(places) }),
  },
  "chest-heist": {
    roll: () => ({ roll: true }),
    reroll: (dice) => ({ reroll: sorted(dice) }),
    mark: (box, dice, skimmers) => {
      const out = { mark: String(box).trim(), dice: sorted(dice) };
      if (skimmers && skimmers.length) out.skimmers = sorted(skimmers);
      return out;
    },
    charge: (skimmer, dice) => ({ charge: Number(skimmer), dice: sorted(dice) }),
    endTurn: () => ({ end_turn: true }),
    diamonds: (count) => ({ diamonds: Number(count) }),
  },
  canine: {
    doggy: (name, faceUp) => ({ doggy: name, face_up: Boolean(faceUp) }),
    draw: () => ({ draw: "action" }),
    empty: (deck) => ({ empty: deck }),
    play: (card, options) => {
      const o = options || {};
      const out = { play: card };
      if (card === "key") {
        out.parity = o.parity;
        out.discards = Number(o.discards || 0);
      }
      if (card === "charm") {
        out.thief = o.thief;
        out.power = Boolean(o.power);
      }
      return out;
    },
    roll: () => ({ roll: true }),
    // places: [{cards: ["Slipper", "Slipper"], ultimate: false}, {cards: ["Laundry Basket"],
    // wild_as: "Bone"}, ...]; wild_as says what a Laundry Basket alone on a place stands for.
    reveal: (places, faceUp, paw, pooPizza) => ({
      reveal: {
        hiding_places: places.filter((p) => p.cards.length).map((p) => Object.assign({
          cards: p.cards.slice(), ultimate: Boolean(p.ultimate),
        }, p.wild_as ? { wild_as: p.wild_as } : {})),
        face_up: (faceUp || []).slice(),
        paw: Boolean(paw),
        poo_pizza: Boolean(pooPizza),
      },
    }),
  },
};

if (typeof window !== "undefined") window.GameCommands = GameCommands;   // the page
if (typeof module !== "undefined") module.exports = GameCommands;         // node (the tests)
