// Stolen Paintings on the games page (rig/web/static/games/): the round and its thief, the
// exhibition's countdown, the last reveal and the totals; the thief's entry and the detectives'
// marks.
//
// The rig serves this file as /games/phone/stolen-paintings.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
"use strict";

// The game's commands as the rig's API takes them (POST /api/game/command), registered in
// window.GameCommands under its name (the page's commands.js holds what they share): the page
// and the tests (node) build the same bodies from here, so what a button sends is what the
// tests send.
(window.GameCommands = window.GameCommands || {})["stolen-paintings"] = (() => {
  const { sorted } = window.CommandKit;
  return {
    start: () => ({ start: true }),
    steal: (places) => ({ steal: sorted(places) }),
    mark: (places) => ({ mark: sorted(places) }),
  };
})();

(window.GamePhones = window.GamePhones || {})["stolen-paintings"] = (kit) => {
  const { h, list, button, toggles, picked } = kit;
  const C = kit.commands;

  // Stolen Paintings' last reveal: what was stolen, each detective's ballot and what it found,
  // and every player's points for the round.
  function paintingsReveal(r) {
    const points = (n) => (n > 0 ? "+" : "") + n + (Math.abs(n) === 1 ? " point" : " points");
    const places = (list) => list.length ? list.join(", ") : "none";
    return h("div", { class: "reveal" },
      h("p", { class: "reveal-head" }, "Round " + r.round + ": " + r.thief + " stole " + r.stolen.join(", ")),
      h("ul", {}, Object.entries(r.points).map(([p, n]) => h("li", {}, p === r.thief
        ? p + ", the thief: " + points(n) + " (one for each stolen painting nobody found)"
        : p + " marked " + places(r.marks[p]) + ", found " + places(r.identified[p]) + ": " + points(n)))));
  }

  // What this player does in this phase of the round (their controls follow).
  function paintingsTask(m, thief) {
    if (m.phase === "setup") {
      return thief ? "Lay out the 24 paintings, then start the exhibition."
        : m.thief + " lays out the paintings and starts the exhibition.";
    }
    if (m.phase === "exhibition") {
      return thief ? "The detectives memorise the paintings." : "Memorise the 24 paintings.";
    }
    if (m.phase === "swap") {
      return thief ? "Take 1 to 3 paintings, put new cards in their places and lay out the row of 8."
        : "Close your eyes while " + m.thief + " steals.";
    }
    if (thief) return "The detectives mark the paintings they believe you stole.";
    return m.marked.includes(m.you) ? "Your marks are in; waiting for the other detectives." : "Open your eyes.";
  }

  return {
    status: (v) => v.phase === "over" ? "Winners: " + v.winners.join(" and ")
      : "Round " + v.round + " of " + v.rounds + ": " + v.thief + " is the thief",
    board: (v) => {
      const out = [];
      if (v.phase === "exhibition" && typeof v.remaining_s === "number") {
        out.push(h("p", { class: "big" + (v.remaining_s <= 10 ? " late" : "") },
                   String(Math.ceil(v.remaining_s))),
                 h("p", { class: "hint center" }, "seconds left to memorise the paintings"));
      }
      if (v.phase === "swap") out.push(h("p", { class: "big" }, "Detectives, close your eyes"));
      if (v.phase === "auction") out.push(h("p", {}, "Still marking: " + (v.waiting.join(", ") || "nobody")));
      if (v.last_round) out.push(paintingsReveal(v.last_round));
      out.push(h("p", { class: "hint" }, "Totals:"),
               h("ul", { class: "totals" }, Object.entries(v.totals).map(([p, n]) =>
                 h("li", {}, p + ": " + n + (n === 1 ? " point" : " points")))));
      return out;
    },
    controls: (m) => {
      const c = C["stolen-paintings"];
      const can = m.can || [];
      const thief = m.role === "thief";
      const out = [h("p", {}, "You are " + (thief ? "the thief" : "a detective") +
                     (m.mine && m.mine.length ? "; yours: " + m.mine.join(", ") : "")),
                   h("p", { class: "hint" }, paintingsTask(m, thief))];
      if (can.includes("start")) out.push(button("Start the exhibition", c.start(), true, "go"));
      if (can.includes("steal")) {
        out.push(h("p", {}, "The places in the row that hold the new cards (1 to 3):"),
                 toggles("steal", 8, 3),
                 button("Send (this is final)", () => c.steal(picked.steal), true, "go"));
      }
      if (can.includes("mark")) {
        out.push(h("p", {}, "The paintings you believe were stolen (up to " + m.settings.max_marks + "):"),
                 toggles("mark", 8, m.settings.max_marks),
                 button("Send my marks", () => c.mark(picked.mark), true, "go"));
      }
      return out;
    },
  };
};
