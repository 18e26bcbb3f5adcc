// The game night on the one phone page, for every game (its shell, phone.js, mounts it in
// the part's #night): "Play another game" (POST /api/night/game: the game, its players, and
// for a game in progress the choice to end it).  The shell follows the rig to the game it
// runs now (the page opens again on that game's part).
// The games offered are the rig's (GET /api/games, the registry's list, in its order): no
// game is named here; a museum game takes its players from its own set-up screen.
//
// Night.mount(section) builds the panel in an empty element once; Night.show(section, how)
// shows it or not ({paired, players: the game's now, inProgress, current: its name}).  Every text
// from the rig goes on the page as text (dom.js); the panel's own words are t("rig.night...")
// (data-t: a change of language says them again, and the games' titles are read again).
"use strict";  // not words: the directive

window.Night = (() => {
  let games = [];             // GET /api/games: [{name, title, museum, ...}] (empty until read)
  let shown = null;          // the section and ``how`` of the last show(), shown again once read
  const RECENT_KEY = "cleptomano-night-players";
  const RECENT_KEPT = 3;

  const h = Dom.h;           // dom.js
  const tr = (code) => ({ "data-t": code });     // an element whose text is code's words

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

  const named = (name) => games.find((g) => g.name === name);
  const museum = (name) => Boolean((named(name) || {}).museum);

  // The rig's list of games, asked again a few times while the rig cannot answer (a game
  // starting); then the form says so.
  const LOAD_WAITS_S = [0.5, 1, 2, 4, 8];

  async function load(select, error) {
    for (const wait_s of [...LOAD_WAITS_S, null]) {
      try {
        const answer = await fetch("/api/games", { credentials: "same-origin" });
        if (answer.ok) {
          games = await answer.json();
          break;
        }
      } catch (e) { /* the rig is not reachable yet: try again */ }
      if (wait_s === null) {
        error.textContent = t("rig.night.no_games");
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait_s * 1000));
    }
    select.replaceChildren(...games.map((g) => h("option", { value: g.name }, g.title)));
    select.dispatchEvent(new Event("change"));
    if (shown) show(...shown);
  }

  function mount(section) {
    const game = h("select", { id: "night-game" });
    const players = h("input", { id: "night-players", placeholder: t("rig.night.players_example"),
                                 "data-t-placeholder": "rig.night.players_example",
                                 autocomplete: "off", maxlength: "250" });
    const end = h("input", { id: "night-end", type: "checkbox" });
    const error = h("p", { id: "night-error", class: "error", role: "alert" });
    const done = h("p", { id: "night-done", class: "hint", role: "status" });
    const playersRow = h("div", { id: "night-players-row" },
      h("label", Object.assign({ for: "night-players" }, tr("rig.night.players")),
        t("rig.night.players")),
      players, h("div", { id: "night-recent", class: "row" }));
    const endRow = h("label", { id: "night-end-row", hidden: true }, end, " ",
      h("span", tr("rig.night.end_now"), t("rig.night.end_now")));
    const form = h("form", { id: "night-form", autocomplete: "off" },
      h("label", Object.assign({ for: "night-game" }, tr("rig.night.game")), t("rig.night.game")),
      game, playersRow, endRow,
      h("button", Object.assign({ id: "night-go", type: "submit", class: "go" },
        tr("rig.night.play_it")), t("rig.night.play_it")), error, done);
    // Every game's form shows the players (issue 30: Cleptómano's was hidden); a museum
    // game's may be left empty: the table's players stay.
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { game: game.value };
      const names = typed(players.value);
      if (!museum(game.value) || names.length) body.players = names;
      if (!endRow.hidden && end.checked) body.end = true;
      error.textContent = "";
      done.textContent = "";
      const answer = await post(body);
      if (answer.status === 200) {
        if (body.players) remember(body.players);
        done.textContent = t("rig.night.switching", { game: title(answer.body.game) });
      } else {
        error.textContent = (answer.body && answer.body.error) ||
          t("rig.phone.rig_answered", { status: String(answer.status) });
      }
    });
    section.replaceChildren(h("h2", tr("rig.night.title"), t("rig.night.title")), form);
    load(game, error);
    Words.onChange(() => {        // the games' titles in the new language, the choice kept
      const chosen = game.value;
      load(game, error).then(() => {
        if (games.some((g) => g.name === chosen)) game.value = chosen;
      });
    });
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
      return { status: 0, body: { error: t("rig.phone.unreachable") } };
    }
  }

  const title = (name) => (named(name) || { title: name }).title;

  // ``how``: {paired, players, inProgress, current (the game the rig runs now; the museum's
  // page says museum: true instead)}.
  function show(section, how) {
    shown = [section, how];
    section.hidden = !how.paired;
    if (!how.paired || !section.firstChild) return;
    const select = section.querySelector("#night-game");
    const current = how.current || (how.museum && (games.find((g) => g.museum) || {}).name);
    if (current && games.length && !select.dataset.offered) {   // first offer another game
      select.dataset.offered = "1";
      if (select.value === current) {
        select.value = games.find((g) => g.name !== current).name;
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

  return { mount, show, title };
})();
