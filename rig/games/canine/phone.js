// Canine Kleptomaniacs in the games' frame of the one phone page (rig/web/static/games/): the die's call and its rolls,
// the Action pile, the scores; a player's doggy, rolls, cards played and their Hiding Places at
// the end.
//
// The rig serves this file as /games/phone/canine.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
//
// Every word is the phone's language: t("canine.phone....") from the canine catalog (dom.js's
// t), and what the rig sends (calls, refusals, the view's codes) arrives already said.  Card
// names stay the card table's in what the page sends; m.choices.names gives each one's words.
"use strict"; // not words: a directive

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

  // A card name as this phone says it (the rulebook's cards in its language; the owner's own
  // names as typed).
  const said = (m, name) => (m.choices.names || {})[name] || name;

  // --- Canine Kleptomaniacs' two forms --------------------------------------------------------
  // An action card that needs the die: only the fields the chosen card takes.
  function canineCard(m, others, redraw) {
    const c = C.canine;
    const card = picked.card || (picked.card = m.choices.cards[0]);
    const fields = [];
    if (card === "key") {
      fields.push(choice("parity", ["odd", "even"], t("canine.phone.odd_or_even"),
                         { odd: t("canine.parity.odd"), even: t("canine.parity.even") }),
                  h("label", {}, t("canine.phone.discards") + " ",
                    field("discards", { inputmode: "numeric", size: 2, placeholder: "0",
                                        "aria-label": t("canine.phone.aria_discards") })));
    }
    if (card === "charm") {
      fields.push(choice("thief", others, t("canine.phone.who_steals")));
      if (m.doggy && m.doggy.power === "charm-offensive") {
        fields.push(h("label", {}, h("input", { type: "checkbox", "aria-label": t("canine.phone.aria_power"), checked: picked.power,
                                                onchange: (e) => { picked.power = e.target.checked; } }),
                      " " + t("canine.phone.doggy_power", { n: 2 })));
      }
    }
    return h("div", {}, h("p", {}, t("canine.phone.die_card")),
             h("div", { class: "row" }, choice("card", m.choices.cards, t("canine.phone.aria_card"), m.choices.card_names, redraw), ...fields,
               button(t("canine.phone.play_card"), () => c.play(picked.card, { parity: picked.parity, discards: picked.discards,
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
    const names = (cards) => cards.map((name) => said(m, name)).join(", ");
    const none = t("canine.phone.none");
    const standsFor = (p, i) => h("select", {
      "aria-label": t("canine.phone.aria_stands_for", { place: i + 1 }),
      onchange: (e) => { p.wild_as = e.target.value || null; } },
      [h("option", { value: "" }, t("canine.phone.stands_for"))].concat(m.choices.kinds.map((k) =>
        h("option", { value: k, selected: p.wild_as === k }, t("canine.phone.as_kind", { kind: said(m, k) })))));
    const placeWords = (p, i) => {
      const params = { place: i + 1, cards: names(p.cards) || t("canine.phone.empty") };
      return p.ultimate ? t("canine.phone.place_ultimate", params) : t("canine.phone.place", params);
    };
    const placeItem = (p, i) => h("li", {}, placeWords(p, i) + " ",
      p.cards.some((name) => m.choices.wild.includes(name)) ? standsFor(p, i) : null,
      p.cards.length || places.length > 1
        ? act(t("canine.phone.remove"), () => { places.splice(i, 1); if (!places.length) places.push(empty()); },
              { "aria-label": t("canine.phone.aria_remove", { place: i + 1 }) }) : null);
    const form = [
      h("p", {}, t("canine.phone.your_hiding_places")),
      h("ol", { class: "places" }, places.map(placeItem)),
      h("div", { class: "row" }, choice("card_to_hide", m.choices.kinds.concat(m.choices.bedroom),
                                        t("canine.phone.aria_card_to_hide"), m.choices.names),
        act(t("canine.phone.hide_it"), () => current.cards.push(picked.card_to_hide)),
        act(t("canine.phone.take_back"), () => { if (current.cards.length) current.cards.pop(); else if (places.length > 1) places.pop(); })),
      h("div", { class: "row" }, act(t("canine.phone.next_place"), () => places.push(empty()), { disabled: !current.cards.length }),
        act(t("canine.phone.ultimate"), () => { current.ultimate = !current.ultimate; }, { "aria-pressed": current.ultimate ? "true" : "false" })),
      h("p", {}, t("canine.phone.face_up_cards", { cards: names(laid) || none })),
      h("div", { class: "row" }, choice("card_to_lay", m.choices.bedroom, t("canine.phone.aria_face_up_card"), m.choices.names),
        act(t("canine.phone.lay_face_up"), () => laid.push(picked.card_to_lay)),
        act(t("canine.phone.take_back"), () => laid.pop(), { disabled: !laid.length, "aria-label": t("canine.phone.aria_take_back_face_up") })),
      h("div", { class: "row" },
        h("label", {}, h("input", { type: "checkbox", checked: picked.paw, "aria-label": t("canine.phone.aria_paw"), onchange: (e) => { picked.paw = e.target.checked; } }),
          " " + t("canine.phone.hold_paw")),
        h("label", {}, h("input", { type: "checkbox", checked: picked.poo, "aria-label": t("canine.phone.aria_poo_pizza"), onchange: (e) => { picked.poo = e.target.checked; } }),
          " " + t("canine.phone.hold_poo_pizza"))),
      button(m.entry ? t("canine.phone.send_correction") : t("canine.phone.send_hiding_places"),
             () => c.reveal(places, laid, picked.paw, picked.poo), true, "go"),
    ];
    if (!m.score) return form;
    // Sent and scored: the score (its lines are on the board once every score is in), and the
    // form folded away for a correction.
    return [h("p", { class: "yours" }, t("canine.phone.your_score", { points: m.score.total })),
            m.phase === "final" ? null : list(m.score.lines.map((l) => l.words)),
            h("details", { open: picked.correcting, ontoggle: (e) => { picked.correcting = e.target.open; } },
              h("summary", {}, t("canine.phone.correct_hiding_places")), ...form)];
  }

  return {
    status: (v) => v.phase === "final" ? t("canine.phone.winners", { n: v.winners.length, players: v.winners })
      : v.phase === "scoring" ? t("canine.phone.game_over")
      : v.dice && !v.dice.decided ? t("canine.phone.whose_roll", { card: v.dice.name, player: v.dice.whose_roll })
      : t("canine.phone.playing"),
    // The die's words and the newest roll stay on the board; the message line would only
    // say them again (the roll's words are the rig's own code, said here as there).
    message: (v, text) => {
      const roll = v.last_roll;
      return [v.dice && v.dice.words, roll && t("canine.call.rolled", { player: roll.player, face: roll.face })]
        .includes(text) ? "" : text;
    },
    board: (v) => {
      // As the rig's screen: the example card table's numbers are not a real deck's.
      const out = [v.placeholder ? h("p", { class: "pill" }, t("canine.screen.placeholder")) : null];
      const call = v.dice;          // the call being rolled, or the last one decided
      if (call && (v.phase === "playing" || !call.decided)) {
        out.push(h("p", { class: call.decided ? "outcome" : "call" }, call.words));
        if (call.rolls.length) {    // then the newest roll is this call's
          out.push(h("p", { class: "big" }, String(v.last_roll.face)),
                   h("p", { class: "caption" }, t("canine.phone.roll_caption", {
                     number: v.last_roll.number + 1, player: v.last_roll.player, face: v.last_roll.face })),
                   h("p", { class: "rolls" }, t("canine.phone.rolls", {
                     rolls: call.rolls.map((r) => r.player + " " + r.face).join(" · ") })));
        }
      }
      out.push(h("p", { class: "end" }, t("canine.phone.action_pile", { left: v.end.left, size: v.end.size,
                                                                        ends: v.end.ends })));
      if (v.phase === "scoring") {
        const nobody = t("canine.phone.nobody_yet");
        out.push(h("p", {}, t("canine.phone.scores_in", { players: v.revealed.length ? v.revealed : nobody })));
      }
      if (v.scores) {
        out.push(h("ol", { class: "scores" }, v.scores.map((s) => h("li", {},
          h("strong", {}, s.winner ? t("canine.phone.score_winner", { player: s.player, points: s.total })
                                   : t("canine.phone.score", { player: s.player, points: s.total })),
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
        const doggy = { doggy: m.doggy.said || m.doggy.name };
        out.push(h("p", {}, m.doggy.face_up ? t("canine.phone.your_doggy_up", doggy)
                                            : t("canine.phone.your_doggy_down", doggy)));
      } else if (acts.includes("choose-doggy")) {
        out.push(h("div", { class: "row" }, choice("doggy", m.choices.doggies, t("canine.phone.aria_doggy"), m.choices.names),
                   h("label", {}, h("input", { type: "checkbox", checked: picked.faceUp, onchange: (e) => { picked.faceUp = e.target.checked; } }),
                     " " + t("canine.phone.face_up")),
                   button(t("canine.phone.my_doggy"), () => c.doggy(picked.doggy, picked.faceUp))));
      }
      const row = h("div", { class: "row" });
      if (acts.includes("roll")) row.append(button(t("canine.phone.roll"), c.roll(), true, "go"));
      if (acts.includes("draw")) row.append(button(t("canine.phone.drew_action"), c.draw()));
      if (acts.includes("deck-empty")) {
        row.append(button(t("canine.phone.action_empty"), c.empty("action")),
                   button(t("canine.phone.collectables_empty"), c.empty("collectables")));
      }
      out.push(row);
      if (acts.includes("play")) out.push(canineCard(m, others, redraw));
      if (acts.includes("reveal")) out.push(...canineArea(m, redraw));
      return out;
    },
  };
};
