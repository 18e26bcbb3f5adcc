// Stop Thief! in the games' frame of the one phone page (rig/web/static/games/): the players, the thief at large, the
// clues (each with its icon), an arrest with the town map and the thief's path; a player's clue,
// replay, arrest and end of turn.
//
// The rig serves this file as /games/phone/stop-thief.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's status line, board and controls (its title is the rig's: GET /api/games).  The page decides nothing about the game.
// Every word is the phone's language: t("stop_thief.phone....") from the rig's catalogs (dom.js), and
// what the rig sends (the clues' words, the calls) arrives already said in it.  Money is a number the
// catalog writes with its $; space numbers go as text, so 1234 is never "1,234".
"use strict";  // not words: a JavaScript directive

// The game's commands as the rig's API takes them (POST /api/game/command), registered in
// window.GameCommands under its name (the page's commands.js holds what they share): the page
// and the tests (node) build the same bodies from here, so what a button sends is what the
// tests send.
(window.GameCommands = window.GameCommands || {})["stop-thief"] = (() => {
  return {
    clue: () => ({ clue: true }),
    replay: () => ({ replay: true }),
    arrest: (space) => ({ arrest: Number(space) }),
    endTurn: () => ({ end_turn: true }),
  };
})();

(window.GamePhones = window.GamePhones || {})["stop-thief"] = (kit) => {
  const { h, list, button, field, picked, api, render } = kit;
  const C = kit.commands;

  // --- Stop Thief!'s pictures: the clue icons and the town map (GET /api/game/board) -------------
  const ST = (() => {
    const svg = Dom.s;         // dom.js
    const text = (x, y, words, cls) => svg("text", { x, y, class: cls }, words);
    // One small drawing a clue kind, as the rig's screen has one (rig/games/stop_thief/icons.py).
    const SHAPES = {
      crime: [["path", { d: "M5 15h10l-2-3V8a3 3 0 0 0-6 0v4z", fill: "#eb2828" }],
              ["circle", { cx: 10, cy: 17, r: 1.6, fill: "#eb2828" }]],
      inside: [["ellipse", { cx: 7, cy: 12, rx: 2.2, ry: 3.6, fill: "#f2f2f6" }],
               ["ellipse", { cx: 13, cy: 7, rx: 2.2, ry: 3.6, fill: "#f2f2f6" }]],
      subway: [["rect", { x: 4, y: 2, width: 12, height: 13, rx: 3, fill: "#2860c8" }],
               ["rect", { x: 6, y: 5, width: 8, height: 4, fill: "#f2f2f6" }],
               ["path", { d: "M6 18l2-3M14 18l-2-3", stroke: "#2860c8", "stroke-width": 1.5 }]],
      door: [["rect", { x: 5, y: 2, width: 10, height: 16, fill: "#a0643a" }],
             ["circle", { cx: 12.5, cy: 10, r: 1.2, fill: "#f5be28" }]],
      window: [["rect", { x: 3, y: 3, width: 14, height: 14, fill: "#a0d7ee" }],
               ["path", { d: "M10 3v14M3 10h14", stroke: "#0e101c", "stroke-width": 1.5 }]],
      outside: [["rect", { x: 2, y: 8, width: 16, height: 6, rx: 2, fill: "#969cb2" }],
                ["circle", { cx: 6, cy: 15, r: 2, fill: "#f2f2f6" }],
                ["circle", { cx: 14, cy: 15, r: 2, fill: "#f2f2f6" }]],
      stayed: [["rect", { x: 5, y: 4, width: 3.5, height: 12, fill: "#f5be28" }],
               ["rect", { x: 11.5, y: 4, width: 3.5, height: 12, fill: "#f5be28" }]],
    };
    const UNKNOWN = [["circle", { cx: 10, cy: 10, r: 7, fill: "none", stroke: "#969cb2", "stroke-width": 2 }]];
    const icon = (kind, label) => svg("svg", { class: "icon", viewBox: "0 0 20 20", role: "img", "aria-label": label || "" },
                               (SHAPES[kind] || UNKNOWN).map(([tag, props]) => svg(tag, props)));

    let map = null;            // the board, once fetched
    let asked = false;
    async function fetchMap() {
      asked = true;
      const answer = await api("GET", "/api/game/board");
      if (answer.status === 200) { map = answer.body; render(); } else asked = false;
    }

    // Each room's rectangle: around its inside spaces, one unit out (half the grid step, so
    // its doors and windows sit on the wall), as the rig's screen draws it.
    function rooms(spaces) {
      const by = new Map();
      for (const s of spaces.filter((s) => s.kind === "inside")) {
        const key = s.building + "/" + (s.room || "");
        by.set(key, (by.get(key) || []).concat([s.at]));
      }
      return [...by.values()].map((points) => {
        const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
        const x = Math.min(...xs) - 1, y = Math.min(...ys) - 1;
        return svg("rect", { class: "room", x, y, width: Math.max(...xs) + 1 - x, height: Math.max(...ys) + 1 - y });
      });
    }

    // The town with the caught thief's path along it, from its crime scene (red) to where it
    // was caught (a gold ring); the path's spaces carry their numbers.
    function townMap(path) {
      if (!map) {
        if (!asked) fetchMap();
        return h("p", { class: "dim" }, t("stop_thief.phone.loading_map"));
      }
      const at = new Map(map.space.map((s) => [s.number ?? s.id, s.at]));
      const xs = map.space.map((s) => s.at[0]), ys = map.space.map((s) => s.at[1]);
      const x0 = Math.min(...xs) - 1.5, y0 = Math.min(...ys) - 1.5;       // a wall is 1 out
      const box = [x0, y0, Math.max(...xs) + 1.5 - x0, Math.max(...ys) + 1.5 - y0];
      const line = (keys, cls) => svg("polyline", { class: cls,
                                                    points: keys.map((k) => at.get(k).join(",")).join(" ") });
      const dot = (key, r, cls) => svg("circle", { cx: at.get(key)[0], cy: at.get(key)[1], r, class: cls });
      const walked = new Set(path);
      return svg("svg", { class: "town", viewBox: box.join(" "), role: "img",
                          "aria-label": t("stop_thief.phone.map_label") },
        rooms(map.space),
        map.paths.map((step) => line(step, "step")),
        line(path, "walk"),
        map.space.map((s) => dot(s.number ?? s.id, s.number === undefined ? 0.2 : 0.45,
          "space " + s.kind + (s.crime ? " crime" : "") + (walked.has(s.number) ? " walked" : ""))),
        dot(path[0], 0.35, "from"),
        dot(path[path.length - 1], 0.8, "caught"),
        [...walked].map((n) => text(at.get(n)[0], at.get(n)[1] - 0.75, String(n), "num")));
    }

    // What the table learns at an arrest: who, where, what it paid, and the thief's whole path.
    const arrest = (a) => h("div", { class: "arrest" },
      h("p", {}, a.crime_wave
        ? t("stop_thief.phone.arrested_wave", { number: a.number, name: a.name, space: String(a.space), by: a.by,
                                               paid: a.paid, reward: a.reward, wave: a.crime_wave })
        : t("stop_thief.phone.arrested", { number: a.number, name: a.name, space: String(a.space), by: a.by,
                                          paid: a.paid })),
      h("p", { class: "path" }, t("stop_thief.phone.path", { path: a.path.join(" → ") })),
      townMap(a.path));

    return { icon, arrest };
  })();

  return {
    status: (v) => v.winner ? t("stop_thief.phone.winner", { player: v.winner })
                            : t("stop_thief.phone.turn", { player: v.turn }),
    board: (v) => [
      list(v.players.map((p) => (p.turn ? "▶ " : "") + t("stop_thief.phone.player", { name: p.name, money: p.money }))),
      h("p", { class: "dim" }, t("stop_thief.phone.retire", { money: v.retire })),
      v.thief.at_large ? h("p", { class: "thief" }, v.thief.crime_wave
        ? t("stop_thief.phone.thief_wave", { number: v.thief.number, name: v.thief.name, reward: v.thief.reward,
                                            wave: v.thief.crime_wave, total: v.thief.total })
        : t("stop_thief.phone.thief", { number: v.thief.number, name: v.thief.name, reward: v.thief.reward })) : null,
      v.clues.length ? h("ol", { class: "clues" }, v.clues.map((c) =>
        h("li", { "data-kind": c.kind }, ST.icon(c.kind, c.sound),
          " " + t("stop_thief.phone.clue", { words: c.words, by: c.by })))) : null,
      v.arrest ? ST.arrest(v.arrest) : null,
    ],
    controls: (m) => {
      const can = (m.you && m.you.can) || {};
      const c = C["stop-thief"];
      return [
        h("p", {}, m.you.your_turn ? t("stop_thief.phone.you_turn", { name: m.you.name, money: m.you.money })
          : m.turn ? t("stop_thief.phone.you_waiting", { name: m.you.name, money: m.you.money, player: m.turn })
          : t("stop_thief.phone.you", { name: m.you.name, money: m.you.money })),
        h("div", { class: "row" }, button(t("stop_thief.phone.get_clue"), c.clue(), can.clue, "go"),
          button(t("stop_thief.phone.replay"), c.replay(), can.replay),
          button(t("stop_thief.phone.end_turn"), c.endTurn(), can.end_turn)),
        h("div", { class: "row" }, field("space", { inputmode: "numeric", size: 4,
                                                      placeholder: t("stop_thief.phone.space"),
                                                      "aria-label": t("stop_thief.phone.space_label") }),
          button(t("stop_thief.phone.arrest"), () => c.arrest(picked.space), can.arrest)),
      ];
    },
  };
};
