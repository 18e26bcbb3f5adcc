// The chest heist in the games' frame of the one phone page (rig/web/static/games/): the dice, what the turn asks, the
// rerolls and skimmers; the roll, reroll, ticks, charges and the diamonds counted.
//
// The rig serves this file as /games/phone/chest-heist.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
"use strict"; // not words: the script's mode

// The game's commands as the rig's API takes them (POST /api/game/command), registered in
// window.GameCommands under its name (the page's commands.js holds what they share): the page
// and the tests (node) build the same bodies from here, so what a button sends is what the
// tests send.
(window.GameCommands = window.GameCommands || {})["chest-heist"] = (() => {
  const { sorted } = window.CommandKit;
  return {
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
  };
})();

(window.GamePhones = window.GamePhones || {})["chest-heist"] = (kit) => {
  const { h, button, toggles, field, picked } = kit;

  // The dice to choose, each button showing the face it rolled (the player reads "the 5", as on
  // the table's screen; two dice of one face are told apart by their place, which is what is
  // sent): kept in picked.dice as places 1 to 5, a used die not offered.
  function diceToggles(dice) {
    const chosen = picked.dice || (picked.dice = []);
    return h("div", { class: "row", "data-toggles": "dice" }, dice.map((d) => h("button", { // not words: CSS class, key
      type: "button", "data-place": d.die, disabled: d.used,
      "aria-pressed": chosen.includes(d.die) ? "true" : "false",
      "aria-label": t("chest_heist.phone.die_button", { place: d.die, value: d.value }),
      onclick: (event) => {
        const at = chosen.indexOf(d.die);
        if (at >= 0) chosen.splice(at, 1);
        else if (chosen.length < 5) chosen.push(d.die);
        event.currentTarget.setAttribute("aria-pressed", chosen.includes(d.die) ? "true" : "false");
      },
    }, String(d.value))));
  }
  const C = kit.commands;

  // What the chest heist's turn asks now, and what its lock means (the rulebook's words).
  function heistHint(v) {
    const lock = t("chest_heist.phone.lock", { chest: v.next_lock });
    if (v.score !== null) {
      return t("chest_heist.phone.scored", { n: v.diamonds, skimmers: v.unused_skimmers });
    }
    if (v.phase === "over") return t("chest_heist.phone.over");
    if (v.phase === "roll") return t("chest_heist.phone.roll_hint", { lock });
    const free = v.dice.filter((d) => !d.used).length;
    if (!free) return t("chest_heist.phone.all_used", { lock });
    const params = { n: free, dice: v.dice.length, lock };
    return v.rerolls_left ? t("chest_heist.phone.free_reroll", params) : t("chest_heist.phone.free", params);
  }

  // A skimmer's state: used, worth its charge, or empty.
  function skimmerWords(s) {
    if (s.used) return t("chest_heist.phone.skimmer_used", { skimmer: s.skimmer });
    return s.charged ? t("chest_heist.phone.skimmer_worth", { skimmer: s.skimmer, value: s.value })
      : t("chest_heist.phone.skimmer_empty", { skimmer: s.skimmer });
  }

  return {
    status: (v) => v.score !== null
      ? t("chest_heist.phone.status_score", { score: v.score, title: v.title_words || v.title.fr })
      : v.phase === "over" ? t("chest_heist.phone.status_over")      // no lock is next
      : t("chest_heist.phone.status", { turn: v.turn, turns: v.turns, chest: v.next_lock }),
    board: (v) => [
      v.dice.length ? h("p", { class: "big dice" }, // not words: CSS classes
        v.dice.flatMap((d, i) => [i ? "  " : null,
        h("span", { class: d.used ? "used" : null }, (d.used ? "·" : "") + d.value)])) : null,
      v.dice.some((d) => d.used) ? h("p", { class: "hint center" }, // not words: CSS classes
        t("chest_heist.phone.used_mark")) : null,
      h("p", { class: "hint" }, heistHint(v)),
      v.phase === "over" ? null : h("p", {}, t("chest_heist.phone.rerolls",
        { left: v.rerolls_left, rerolls: v.rerolls })),
      v.phase === "over" ? null : h("p", { class: "skimmers" }, t("chest_heist.phone.skimmers") + " ",
        v.skimmers.map((s) => h("span", { class: "chip" + (s.used ? " used" : "") }, skimmerWords(s)))),
    ],
    controls: (m) => {
      const c = C["chest-heist"];
      const can = m.can || [];
      const out = [h("div", { class: "row" }, button(t("chest_heist.phone.roll"), c.roll(), can.includes("roll"), "go"),
                     button(t("chest_heist.phone.end_turn"), c.endTurn(), can.includes("end_turn")))];
      if (can.includes("mark") || can.includes("reroll")) {
        out.push(h("p", {}, t("chest_heist.phone.dice")), diceToggles(m.dice || []),
                 h("p", {}, t("chest_heist.phone.pick_skimmers")), toggles("skimmers", 3, 3),
                 h("label", { for: "box" }, t("chest_heist.phone.box")),
                 h("div", { class: "row" },
                   field("box", { id: "box", size: 6, placeholder: "11, P, x2…" }),
                   button(t("chest_heist.phone.tick"), () => c.mark(picked.box || "", picked.dice || [], picked.skimmers || []), can.includes("mark")),
                   button(t("chest_heist.phone.reroll"), () => c.reroll(picked.dice || []), can.includes("reroll")),
                   button(t("chest_heist.phone.charge"), () => c.charge((picked.skimmers || [1])[0], picked.dice || []), can.includes("charge"))));
      }
      if (can.includes("count_diamonds")) {
        out.push(h("label", { for: "diamonds" }, t("chest_heist.phone.diamonds_label")),
                 h("div", { class: "row" }, field("diamonds", { id: "diamonds", inputmode: "numeric", size: 3 }),
                   button(t("chest_heist.phone.diamonds_won"), () => c.diamonds(picked.diamonds), true, "go")));
      }
      return out;
    },
  };
};
