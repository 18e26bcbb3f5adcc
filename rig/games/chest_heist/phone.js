// The chest heist on the games page (rig/web/static/games/): the dice, what the turn asks, the
// rerolls and skimmers; the roll, reroll, ticks, charges and the diamonds counted.
//
// The rig serves this file as /games/phone/chest-heist.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
"use strict";

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
  const C = kit.commands;

  // What the chest heist's turn asks now, and what its lock means (the rulebook's words).
  function heistHint(v) {
    const lock = "at the end of this turn chest " + v.next_lock + " locks for good (no longer to be opened)";
    if (v.score !== null) {
      return "Each diamond and each unused skimmer is a point: " + v.diamonds + " diamonds, " +
        v.unused_skimmers + " unused skimmers.";
    }
    if (v.phase === "over") {
      return "Chest L is locked: the game is over. Count the diamonds in the chests you opened; each unused skimmer adds a point.";
    }
    if (v.phase === "roll") return "Roll the five dice; " + lock + ".";
    const free = v.dice.filter((d) => !d.used).length;
    if (!free) return "Every die is used: end the turn; " + lock + ".";
    return free + " of " + v.dice.length + " dice free: tick a box with a die, or a sum or difference of dice " +
      "(P: one even die, I: one odd die, x2: a pair), or charge a skimmer with them" +
      (v.rerolls_left ? ", or reroll some" : "") + ". Then end the turn: " + lock + ".";
  }

  return {
    status: (v) => v.score !== null ? "Score " + v.score + ": " + v.title.fr + " (" + v.title.en + ")"
      : v.phase === "over" ? "Game over: count the diamonds won"      // no lock is next
      : "Turn " + v.turn + " of " + v.turns + "; locks next: " + v.next_lock,
    board: (v) => [
      v.dice.length ? h("p", { class: "big dice" }, v.dice.flatMap((d, i) => [i ? "  " : null,
        h("span", { class: d.used ? "used" : null }, (d.used ? "·" : "") + d.value)])) : null,
      v.dice.some((d) => d.used) ? h("p", { class: "hint center" }, "· a die used this turn") : null,
      h("p", { class: "hint" }, heistHint(v)),
      v.phase === "over" ? null : h("p", {}, "Rerolls left for the game: " + v.rerolls_left + " of " + v.rerolls),
      v.phase === "over" ? null : h("p", { class: "skimmers" }, "Skimmers (charge one with dice, then use it once as an extra die): ",
        v.skimmers.map((s) => h("span", { class: "chip" + (s.used ? " used" : "") },
          s.skimmer + ": " + (s.used ? "used" : s.charged ? "worth " + s.value : "empty")))),
    ],
    controls: (m) => {
      const c = C["chest-heist"];
      const can = m.can || [];
      const used = (m.dice || []).filter((d) => d.used).map((d) => d.die);
      const out = [h("div", { class: "row" }, button("Roll", c.roll(), can.includes("roll"), "go"),
                     button("End the turn", c.endTurn(), can.includes("end_turn")))];
      if (can.includes("mark") || can.includes("reroll")) {
        out.push(h("p", {}, "Dice:"), toggles("dice", 5, 5, used),
                 h("p", {}, "Skimmers (to use with the dice, or the one to charge):"), toggles("skimmers", 3, 3),
                 h("label", { for: "box" }, "Box to tick: its number, P, I or x2"),
                 h("div", { class: "row" },
                   field("box", { id: "box", size: 6, placeholder: "11, P, x2…" }),
                   button("Tick the box", () => c.mark(picked.box || "", picked.dice || [], picked.skimmers || []), can.includes("mark")),
                   button("Reroll the dice", () => c.reroll(picked.dice || []), can.includes("reroll")),
                   button("Charge skimmer", () => c.charge((picked.skimmers || [1])[0], picked.dice || []), can.includes("charge"))));
      }
      if (can.includes("count_diamonds")) {
        out.push(h("label", { for: "diamonds" }, "Diamonds in the chests you opened"),
                 h("div", { class: "row" }, field("diamonds", { id: "diamonds", inputmode: "numeric", size: 3 }),
                   button("Diamonds won", () => c.diamonds(picked.diamonds), true, "go")));
      }
      return out;
    },
  };
};
