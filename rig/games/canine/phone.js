// Canine Kleptomaniacs on the games page (rig/web/static/games/): the die's call and its rolls,
// the Action pile, the scores; a player's doggy, rolls, cards played and their Hiding Places at
// the end.
//
// The rig serves this file as /games/phone/canine.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
"use strict";

// The game's commands as the rig's API takes them (POST /api/game/command), registered in
// window.GameCommands under its name (the page's commands.js holds what they share): the page
// and the tests (node) build the same bodies from here, so what a button sends is what the
// tests send.
(window.GameCommands = window.GameCommands || {})["canine"] = (() => {
  return {
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
  };
})();

(window.GamePhones = window.GamePhones || {})["canine"] = (kit) => {
  const { h, list, button, field, choice, picked, redraw } = kit;
  const C = kit.commands;

  // --- Canine Kleptomaniacs' two forms --------------------------------------------------------
  // An action card that needs the die: only the fields the chosen card takes.
  function canineCard(m, others, redraw) {
    const c = C.canine;
    const card = picked.card || (picked.card = m.choices.cards[0]);
    const fields = [];
    if (card === "key") {
      fields.push(choice("parity", ["odd", "even"], "odd or even"),
                  h("label", {}, "Cards discarded (one more roll each) ",
                    field("discards", { inputmode: "numeric", size: 2, placeholder: "0", "aria-label": "discards" })));
    }
    if (card === "charm") {
      fields.push(choice("thief", others, "who steals"));
      if (m.doggy && m.doggy.power === "charm-offensive") {
        fields.push(h("label", {}, h("input", { type: "checkbox", "aria-label": "power", checked: picked.power,
                                                onchange: (e) => { picked.power = e.target.checked; } }),
                      " my doggy's power: 2 more tries"));
      }
    }
    return h("div", {}, h("p", {}, "A card that needs the die:"),
             h("div", { class: "row" }, choice("card", m.choices.cards, "card", m.choices.card_names, redraw), ...fields,
               button("Play the card", () => c.play(picked.card, { parity: picked.parity, discards: picked.discards,
                                                                  thief: picked.thief, power: picked.power }))));
  }

  // The player's table area at the game's end, built card by card in picked (kept across
  // pushes).  It starts from what they last sent, so a correction starts from their entry.
  function canineArea(m, redraw) {
    const c = C.canine;
    const empty = () => ({ cards: [], ultimate: false, wild_as: null });
    if (!picked.places) {
      const sent = m.entry || { hiding_places: [], face_up: [], paw: false, poo_pizza: false };
      picked.places = sent.hiding_places.map((p) => Object.assign({}, p, { cards: p.cards.slice() }));
      if (!picked.places.length) picked.places.push(empty());
      picked.laid = sent.face_up.slice();
      picked.paw = sent.paw;
      picked.poo = sent.poo_pizza;
    }
    const places = picked.places, laid = picked.laid;
    const current = places[places.length - 1];
    const act = (label, change, props) => h("button", Object.assign({ type: "button",
      onclick: () => { change(); redraw(); } }, props), label);
    const standsFor = (p, i) => h("select", {
      "aria-label": "place " + (i + 1) + " Laundry Basket",
      onchange: (e) => { p.wild_as = e.target.value || null; } },
      [h("option", { value: "" }, "stands for…")].concat(m.choices.kinds.map((k) =>
        h("option", { value: k, selected: p.wild_as === k }, "as " + k))));
    const placeItem = (p, i) => h("li", {},
      "Place " + (i + 1) + (p.ultimate ? " (Ultimate)" : "") + ": " + (p.cards.join(", ") || "empty") + " ",
      p.cards.some((name) => m.choices.wild.includes(name)) ? standsFor(p, i) : null,
      p.cards.length || places.length > 1
        ? act("Remove", () => { places.splice(i, 1); if (!places.length) places.push(empty()); },
              { "aria-label": "remove place " + (i + 1) }) : null);
    const form = [
      h("p", {}, "Your Hiding Places:"),
      h("ol", { class: "places" }, places.map(placeItem)),
      h("div", { class: "row" }, choice("card_to_hide", m.choices.kinds.concat(m.choices.bedroom), "card to hide"),
        act("Hide it", () => current.cards.push(picked.card_to_hide)),
        act("Take back", () => { if (current.cards.length) current.cards.pop(); else if (places.length > 1) places.pop(); })),
      h("div", { class: "row" }, act("Next place", () => places.push(empty()), { disabled: !current.cards.length }),
        act("Ultimate", () => { current.ultimate = !current.ultimate; }, { "aria-pressed": current.ultimate ? "true" : "false" })),
      h("p", {}, "Master's Bedroom cards face up: " + (laid.join(", ") || "none")),
      h("div", { class: "row" }, choice("card_to_lay", m.choices.bedroom, "face-up card"),
        act("Lay it face up", () => laid.push(picked.card_to_lay)),
        act("Take back", () => laid.pop(), { disabled: !laid.length, "aria-label": "take back face up" })),
      h("div", { class: "row" },
        h("label", {}, h("input", { type: "checkbox", checked: picked.paw, "aria-label": "paw", onchange: (e) => { picked.paw = e.target.checked; } }), " I hold the Paw"),
        h("label", {}, h("input", { type: "checkbox", checked: picked.poo, "aria-label": "poo pizza", onchange: (e) => { picked.poo = e.target.checked; } }), " I hold the Poo Pizza")),
      button(m.entry ? "Send my correction" : "Send my Hiding Places", () => c.reveal(places, laid, picked.paw, picked.poo), true, "go"),
    ];
    if (!m.score) return form;
    // Sent and scored: the score (its lines are on the board once every score is in), and the
    // form folded away for a correction.
    return [h("p", { class: "yours" }, "Your score: " + m.score.total),
            m.phase === "final" ? null : list(m.score.lines.map((l) => l.words)),
            h("details", { open: picked.correcting, ontoggle: (e) => { picked.correcting = e.target.open; } },
              h("summary", {}, "Correct my Hiding Places"), ...form)];
  }

  return {
    status: (v) => v.phase === "final" ? "Winners: " + v.winners.join(" and ")
      : v.phase === "scoring" ? "Game over: enter your Hiding Places"
      : v.dice && !v.dice.decided ? v.dice.name + ": " + v.dice.whose_roll + "'s roll" : "Playing",
    // The die's words and the newest roll stay on the board; the message line would only
    // say them again.
    message: (v, text) => {
      const roll = v.last_roll;
      return [v.dice && v.dice.words, roll && roll.player + " rolled " + roll.face + "."]
        .includes(text) ? "" : text;
    },
    board: (v) => {
      // As the rig's screen: the example card table's numbers are not a real deck's.
      const out = [v.placeholder ? h("p", { class: "pill" }, "PLACEHOLDER CARD VALUES") : null];
      const call = v.dice;          // the call being rolled, or the last one decided
      if (call && (v.phase === "playing" || !call.decided)) {
        out.push(h("p", { class: call.decided ? "outcome" : "call" }, call.words));
        if (call.rolls.length) {    // then the newest roll is this call's
          out.push(h("p", { class: "big" }, String(v.last_roll.face)),
                   h("p", { class: "caption" }, "Roll " + (v.last_roll.number + 1) + ": " +
                                                v.last_roll.player + " rolled " + v.last_roll.face),
                   h("p", { class: "rolls" }, "Rolls: " +
                                              call.rolls.map((r) => r.player + " " + r.face).join(" · ")));
        }
      }
      out.push(h("p", { class: "end" }, "Action pile: " + v.end.left + " of " + v.end.size +
                                        " (" + v.end.ends + ")"));
      if (v.phase === "scoring") out.push(h("p", {}, "Scores in: " + (v.revealed.join(", ") || "nobody yet")));
      if (v.scores) {
        out.push(h("ol", { class: "scores" }, v.scores.map((s) => h("li", {},
          h("strong", {}, s.player + ": " + s.total + (s.winner ? " (winner)" : "")),
          list(s.lines.map((l) => l.words))))));
      }
      return out;
    },
    controls: (m) => {
      const c = C.canine;
      const acts = m.actions || [];
      const others = m.players.filter((p) => p !== m.you);
      const out = [];
      if (m.doggy) {
        out.push(h("p", {}, "Your doggy: " + m.doggy.name + " (" +
                            (m.doggy.face_up ? "face up" : "face down") + ")"));
      } else if (acts.includes("choose-doggy")) {
        out.push(h("div", { class: "row" }, choice("doggy", m.choices.doggies, "doggy"),
                   h("label", {}, h("input", { type: "checkbox", checked: picked.faceUp, onchange: (e) => { picked.faceUp = e.target.checked; } }), " face up"),
                   button("My doggy", () => c.doggy(picked.doggy, picked.faceUp))));
      }
      const row = h("div", { class: "row" });
      if (acts.includes("roll")) row.append(button("Roll the die", c.roll(), true, "go"));
      if (acts.includes("draw")) row.append(button("I drew an Action card", c.draw()));
      if (acts.includes("deck-empty")) {
        row.append(button("Action pile empty", c.empty("action")),
                   button("Collectables empty", c.empty("collectables")));
      }
      out.push(row);
      if (acts.includes("play")) out.push(canineCard(m, others, redraw));
      if (acts.includes("reveal")) out.push(...canineArea(m, redraw));
      return out;
    },
  };
};
