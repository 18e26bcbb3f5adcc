// Stolen Paintings in the games' frame of the one phone page (rig/web/static/games/): the round and its thief, the
// exhibition's countdown, the last reveal and the totals; the thief's entry and the detectives'
// marks.
//
// The rig serves this file as /games/phone/stolen-paintings.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
"use strict"; // not words: the script's mode

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
  // A detective who marked none, or found none, has a sentence of its own: "none" put in the
  // sentence after its verb would break each language's negation ("encontró ninguno").
  function detectiveLine(r, p, n) {
    const marked = r.marks[p] || [], found = r.identified[p] || [];
    const points = (n > 0 ? "+" : "") + n;
    if (!marked.length) {
      return t("stolen_paintings.phone.reveal_marked_none", { detective: p, n: Math.abs(n), points });
    }
    if (!found.length) {
      return t("stolen_paintings.phone.reveal_found_none",
        { detective: p, marked: marked.join(", "), n: Math.abs(n), points });
    }
    return t("stolen_paintings.phone.reveal_detective", { detective: p, marked: marked.join(", "),
      found: found.join(", "), n: Math.abs(n), points });
  }

  function paintingsReveal(r) {
    return h("div", { class: "reveal" },
      h("p", { class: "reveal-head" }, t("stolen_paintings.phone.reveal_head",
        { round: r.round, thief: r.thief, n: r.stolen.length, paintings: r.stolen.join(", ") })),
      h("ul", {}, Object.entries(r.points).map(([p, n]) => h("li", {}, p === r.thief
        ? t("stolen_paintings.phone.reveal_thief", { thief: p, n: Math.abs(n), points: n })
        : detectiveLine(r, p, n)))));
  }

  // What this player does in this phase of the round (their controls follow).
  function paintingsTask(m, thief) {
    if (m.phase === "setup") {
      return thief ? t("stolen_paintings.phone.task_setup_thief", { paintings: 24 })
        : t("stolen_paintings.phone.task_setup", { thief: m.thief });
    }
    if (m.phase === "exhibition") {
      return thief ? t("stolen_paintings.phone.task_exhibition_thief")
        : t("stolen_paintings.phone.task_exhibition", { paintings: 24 });
    }
    if (m.phase === "swap") {
      return thief ? t("stolen_paintings.phone.task_swap_thief", { most: 3, row: 8 })
        : t("stolen_paintings.phone.task_swap", { thief: m.thief });
    }
    if (thief) return t("stolen_paintings.phone.task_auction_thief");
    return m.marked.includes(m.you) ? t("stolen_paintings.phone.task_marked")
      : t("stolen_paintings.phone.task_auction");
  }

  return {
    status: (v) => v.phase === "over"
      ? t("stolen_paintings.phone.winners", { n: v.winners.length, winners: v.winners.join(", ") })
      : t("stolen_paintings.phone.status", { round: v.round, rounds: v.rounds, thief: v.thief }),
    board: (v) => {
      const out = [];
      if (v.phase === "exhibition" && typeof v.remaining_s === "number") {
        out.push(h("p", { class: "big" + (v.remaining_s <= 10 ? " late" : "") },
                   String(Math.ceil(v.remaining_s))),
                 h("p", { class: "hint center" }, t("stolen_paintings.phone.seconds_left", // not words: CSS classes
                   { n: Math.ceil(v.remaining_s) })));
      }
      if (v.phase === "swap") out.push(h("p", { class: "big" }, t("stolen_paintings.phone.close_eyes")));
      if (v.phase === "auction") {
        out.push(h("p", {}, v.waiting.length
          ? t("stolen_paintings.phone.still_marking", { waiting: v.waiting.join(", ") })
          : t("stolen_paintings.phone.nobody_marking")));
      }
      if (v.last_round) out.push(paintingsReveal(v.last_round));
      out.push(h("p", { class: "hint" }, t("stolen_paintings.phone.totals")),
               h("ul", { class: "totals" }, Object.entries(v.totals).map(([p, n]) =>
                 h("li", {}, t("stolen_paintings.phone.total", { player: p, n: Math.abs(n), points: n })))));
      return out;
    },
    controls: (m) => {
      const c = C["stolen-paintings"];
      const can = m.can || [];
      const thief = m.role === "thief";
      const mine = m.mine && m.mine.length ? m.mine.join(", ") : "";
      const out = [h("p", {}, thief
                     ? (mine ? t("stolen_paintings.phone.you_thief_stole", { paintings: mine })
                       : t("stolen_paintings.phone.you_thief"))
                     : (mine ? t("stolen_paintings.phone.you_detective_marked", { paintings: mine })
                       : t("stolen_paintings.phone.you_detective"))),
                   h("p", { class: "hint" }, paintingsTask(m, thief))];
      if (can.includes("start")) out.push(button(t("stolen_paintings.phone.start"), c.start(), true, "go"));
      if (can.includes("steal")) {
        out.push(h("p", {}, t("stolen_paintings.phone.steal_places", { most: 3 })),
                 toggles("steal", 8, 3),
                 button(t("stolen_paintings.phone.send_final"), () => c.steal(picked.steal), true, "go"));
      }
      if (can.includes("mark")) {
        out.push(h("p", {}, t("stolen_paintings.phone.mark_places", { most: m.settings.max_marks })),
                 toggles("mark", 8, m.settings.max_marks),
                 button(t("stolen_paintings.phone.send_marks"), () => c.mark(picked.mark), true, "go"));
      }
      return out;
    },
  };
};
