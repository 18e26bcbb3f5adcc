// The game night on a phone, shared by the Cleptómano page (/) and the games page (/games/):
// "Play another game" (POST /api/night/game: the game, its players, and for a game in
// progress the choice to end it), and the page that follows the rig to the game it runs now.
//
// Night.mount(section) builds the panel in an empty element once; Night.show(section, how)
// shows it or not ({paired, players: the game's now, inProgress}); Night.follow(state,
// loaded) goes to the right page when the rig's game is no longer this page's.  Every text
// from the rig goes on the page as text (dom.js).
"use strict";

window.Night = (() => {
  const GAMES = [["cleptomano", "Cleptómano"], ["stop-thief", "Stop Thief!"],
                 ["stolen-paintings", "Stolen Paintings"], ["chest-heist", "The chest heist"],
                 ["canine", "Canine Kleptomaniacs"]];
  const RECENT_KEY = "cleptomano-night-players";
  const RECENT_KEPT = 3;

  const h = Dom.h;           // dom.js

  function recent() {
    try {
      const kept = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
      return Array.isArray(kept) ? kept.filter((names) => Array.isArray(names)) : [];
    } catch (e) {
      return [];
    }
  }

  function remember(names) {
    const key = names.join(", ");
    const kept = [names, ...recent().filter((n) => n.join(", ") !== key)].slice(0, RECENT_KEPT);
    try { localStorage.setItem(RECENT_KEY, JSON.stringify(kept)); } catch (e) { /* private mode */ }
  }

  const typed = (text) => text.split(",").map((n) => n.trim()).filter(Boolean);

  function mount(section) {
    const game = h("select", { id: "night-game" },
      ...GAMES.map(([name, title]) => h("option", { value: name }, title)));
    const players = h("input", { id: "night-players", placeholder: "Ana, Ben, Caro",
                                 autocomplete: "off", maxlength: "250" });
    const end = h("input", { id: "night-end", type: "checkbox" });
    const error = h("p", { id: "night-error", class: "error", role: "alert" });
    const done = h("p", { id: "night-done", class: "hint", role: "status" });
    const playersRow = h("div", { id: "night-players-row" },
      h("label", { for: "night-players" }, "Players, in order (typed, or tap a recent table)"),
      players, h("div", { id: "night-recent", class: "row" }));
    const endRow = h("label", { id: "night-end-row", hidden: true }, end,
      " End the game in progress now (its recording keeps it, unfinished)");
    const form = h("form", { id: "night-form", autocomplete: "off" },
      h("label", { for: "night-game" }, "Game"), game, playersRow, endRow,
      h("button", { id: "night-go", type: "submit", class: "go" }, "Play it"), error, done);
    const cleptomano = () => { playersRow.hidden = game.value === "cleptomano"; };
    game.addEventListener("change", cleptomano);
    cleptomano();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { game: game.value };
      if (game.value !== "cleptomano") body.players = typed(players.value);
      if (!endRow.hidden && end.checked) body.end = true;
      error.textContent = "";
      done.textContent = "";
      const answer = await post(body);
      if (answer.status === 200) {
        if (body.players) remember(body.players);
        done.textContent = "The rig switches to " + title(answer.body.game) + "; every phone follows.";
      } else {
        error.textContent = (answer.body && answer.body.error) || ("the rig answered " + answer.status);
      }
    });
    section.replaceChildren(h("h2", {}, "Play another game"), form);
  }

  async function post(body) {
    try {
      const answer = await fetch("/api/night/game", {
        method: "POST", credentials: "same-origin",
        headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      let data = null;
      try { data = await answer.json(); } catch (e) { data = null; }
      return { status: answer.status, body: data };
    } catch (e) {
      return { status: 0, body: { error: "the rig cannot be reached; is this phone on its network?" } };
    }
  }

  const title = (name) => (GAMES.find(([n]) => n === name) || [name, name])[1];

  // ``how``: {paired, players, inProgress, current (the game the rig runs now)}.
  function show(section, how) {
    section.hidden = !how.paired;
    if (!how.paired || !section.firstChild) return;
    const select = section.querySelector("#night-game");
    if (how.current && !select.dataset.offered) {     // first offer another game than this one
      select.dataset.offered = "1";
      if (select.value === how.current) {
        select.value = GAMES.find(([name]) => name !== how.current)[0];
        select.dispatchEvent(new Event("change"));
      }
    }
    section.querySelector("#night-end-row").hidden = !how.inProgress;
    const tables = [how.players || [], ...recent()].filter((names) => names.length);
    const seen = new Set();
    const buttons = [];
    for (const names of tables) {
      const key = names.join(", ");
      if (seen.has(key)) continue;
      seen.add(key);
      buttons.push(h("button", { type: "button", "data-players": key, onclick: () => {
        section.querySelector("#night-players").value = key;
      } }, key));
    }
    const row = section.querySelector("#night-recent");
    if (row.dataset.shown !== [...seen].join("|")) {
      row.dataset.shown = [...seen].join("|");
      row.replaceChildren(...buttons);
    }
  }

  // ``loaded``: the game this page was opened for (the games page's; null on Cleptómano's).
  function follow(state, loaded) {
    if (!state) return false;
    const onGames = location.pathname.startsWith("/games");
    const game = state.game || null;
    if (!game && onGames) location.replace("/");
    else if (game && !onGames) location.replace("/games/");
    else if (game && loaded && game !== loaded) location.reload();
    else return false;
    return true;
  }

  return { mount, show, follow, title };
})();
