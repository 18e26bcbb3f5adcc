// The coin heist on the games page (rig/web/static/games/): each thief's jewels, the last flip,
// and, on the phone of the thief whose call it is, the two calls.
//
// The rig serves this file as /games/phone/coin-heist.js (rig/web/games.py) and the page loads the
// running game's script; it registers a maker in window.GamePhones that the page calls with its
// kit (Dom.h, the shared controls, the player's picks, api and render) and that returns the
// game's title, status line, board and controls.  The page decides nothing about the game.
// Every word is the phone's language: t("coin_heist....") says a code of this game's catalog
// (locale/<lang>/LC_MESSAGES/coin_heist.po), fetched by the page for the phone's language.
"use strict";  // not words: a JavaScript directive

(window.GamePhones = window.GamePhones || {})["coin-heist"] = (kit) => {
  const { h, list, button } = kit;
  // A side of the coin as the view holds it ("heads", "tails"), in words.
  const side = (s) => s === "heads" ? t("coin_heist.side.heads")
    : s === "tails" ? t("coin_heist.side.tails") : String(s);

  return {
    get title() { return t("coin_heist.title"); },   // said again in a new language
    status: (v) => v.winner ? t("coin_heist.phone.winner", { player: v.winner })
      : t("coin_heist.phone.turn", { player: v.turn }),
    board: (v) => [
      v.last ? h("p", { class: "big" }, t("coin_heist.phone.last", {
        player: v.last.player, called: side(v.last.called), side: side(v.last.flipped) }))
        : h("p", { class: "hint" }, t("coin_heist.phone.hint")),
      list(Object.entries(v.jewels).map(([p, got]) =>
        t("coin_heist.phone.jewels", { player: p, got: got, n: v.target }))),
    ],
    controls: (m) => [h("div", { class: "row" },
      button(t("coin_heist.phone.heads"), { call: "heads" }, m.may_call, "go"),
      button(t("coin_heist.phone.tails"), { call: "tails" }, m.may_call))],
  };
};
