// The coin heist on the games page (rig/web/static/games/): each thief's jewels, the last flip,
// and, on the phone of the thief whose call it is, the two calls.
//
// The rig serves this file as /games/phone/coin-heist.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's title, status line, board and controls.  The page decides nothing about the game.
"use strict";

(window.GamePhones = window.GamePhones || {})["coin-heist"] = (kit) => {
  const { h, list, button } = kit;

  return {
    title: "Coin heist",
    status: (v) => v.winner ? v.winner + " wins the coin heist" : v.turn + "'s call",
    board: (v) => [
      v.last ? h("p", { class: "big" }, v.last.player + " called " + v.last.called + ": " + v.last.flipped)
        : h("p", { class: "hint" }, "Call the coin: a right call steals a jewel."),
      list(Object.entries(v.jewels).map(([p, n]) => p + ": " + n + " of " + v.target + " jewels")),
    ],
    controls: (m) => [h("div", { class: "row" },
      button("Heads", { call: "heads" }, m.may_call, "go"),
      button("Tails", { call: "tails" }, m.may_call))],
  };
};
