// The games' frame on the one phone page (rig/web/static/phone.js loads it for a game whose
// part is a status line, a board and controls: its folder's phone.js): the game the rig runs
// (GET /api/game, then pushed over the live channel on every change, which the page's shell
// holds), this player's own view (GET /api/game/me: their secrets, what they may send now) and
// their commands (POST /api/game/command, built by commands.js and the game's phone.js), the
// after-game and the games recorded here.  GameFrame.frame(kit, rules) gives the shell the
// part it drives: mount(), receive(message), relanguage().
//
// The page decides nothing about the game: it offers what the rig says the player may send,
// and shows the rig's answer (the new view, or the reason it refused).  Every text from the
// rig is put on the page as text (createElement and textContent only, never HTML).  The rig
// says its texts in this phone's language; the page's own words are t("rig.phone...") and
// each game's t("<game>..."), in its phone.js (dom.js).  The header's picker switches them.
"use strict";  // not words: the directive

window.GameFrame = (() => {
  // The frame's words (its data-t elements, filled by dom.js), for the catalog tools.
  const PAGE_WORDS = [
    N_("rig.phone.games_title"), N_("rig.phone.connecting"),
    N_("rig.phone.play_from_phone"), N_("rig.phone.code_tab"), N_("rig.phone.your_name"),
    N_("rig.phone.pair"), N_("rig.phone.game_over"), N_("rig.phone.recordings"),
    N_("rig.phone.no_recordings"),
  ];

  const C = window.GameCommands;
  let api = null;           // the shell's: {status, body} of a request to the rig
  let pairing = null;       // the shell's: this phone's session
  const RECONNECT_S = [0.5, 1, 2, 4, 8];
  const $ = (id) => document.getElementById(id);

  const h = Dom.h;           // dom.js: an element, its texts as text nodes

  // Text set only when it changed (a live region says it once: dom.js).
  const put = Dom.put;

  // --- talking to the rig --------------------------------------------------------------------
  let game = null;          // GET /api/game
  let loaded = null;        // the game this page opened on (another one: the page reloads)
  let title = null;         // its title, as the rig lists it (GET /api/games)
  let paired = false;       // this phone is paired (as a player of this game or not)
  let me = null;            // GET /api/game/me (null: not paired, or not a player)
  let shownMe = "";         // the view the controls were last built from
  const picked = {};        // the player's choices on the controls, kept across pushes

  const reason = (answer) => (answer.body && answer.body.error) ||
    t("rig.phone.rig_answered", { status: String(answer.status) });

  // Answers may arrive out of order: a view asked for before a command was sent must not
  // overwrite the view the command's answer gave.
  let meAsked = 0;

  async function send(body) {
    meAsked += 1;
    const answer = await api("POST", "/api/game/command", body);
    if (answer.status === 200) {
      me = answer.body;
      put($("error"), "");
      for (const key of Object.keys(picked)) delete picked[key];
    } else {
      put($("error"), reason(answer));
    }
    render();
  }

  async function loadMe() {
    const asked = ++meAsked;
    const answer = await api("GET", "/api/game/me");
    if (asked !== meAsked) return;          // a newer view is on its way, or came
    me = answer.status === 200 ? answer.body : null;
    paired = answer.status === 200 || answer.status === 403;
    $("pair").hidden = answer.status !== 401;
    // 403: a phone at no seat of this game watches (a spectator, or its player plays no more
    // after a switch): the seats are offered, no error shown.
    $("reseat").hidden = answer.status !== 403;
    put($("reseat-words"), answer.status === 403 ? t("rig.phone.watching_pick_seat") : "");
    if (answer.status === 401) seats($("pair-seats"));
    if (answer.status === 403) seats($("reseat-seats"));
    render();
  }

  let meDue = false;
  function stateArrived(state) {
    game = state;
    if (!meDue) {                           // a burst of pushes asks for this view once
      meDue = true;
      setTimeout(() => { meDue = false; loadMe(); }, 150);
    }
    render();
  }

  // The game's seats as buttons: unpaired, a tap pairs with the code as that player; paired,
  // it moves this phone to that seat.
  let seatsShown = "";
  async function seats(box) {
    const answer = await pairing.seats();
    const shown = JSON.stringify(answer.body);
    if (shown === seatsShown && box.childElementCount) return;   // unchanged: focus stays
    seatsShown = shown;
    await pairing.chips(box, async (name) => {
      if (pairing.name) {
        const moved = await pairing.sit(name);
        put($("error"), moved.ok ? "" : reason(moved));
        loadMe();
        return;
      }
      $("pair-name").value = name;
      $("pair").requestSubmit();
    });
  }

  async function pairHere(event) {
    event.preventDefault();
    const answer = await pairing.pair($("pair-code").value.trim(), $("pair-name").value.trim());
    put($("pair-error"), answer.status === 200 ? "" : reason(answer));
    if (answer.status === 200) loadMe();
  }

  // --- controls shared by the games ------------------------------------------------------------
  function button(label, body, enabled = true, cls = null) {
    return h("button", { type: "button", class: cls, disabled: !enabled,
                         onclick: () => send(typeof body === "function" ? body() : body) }, label);
  }

  // Toggles 1..n kept in picked[key] (at most ``most`` on; ``off`` lists places not offered).
  function toggles(key, n, most, off = []) {
    const chosen = picked[key] || (picked[key] = []);
    const row = h("div", { class: "row", "data-toggles": key });
    for (let i = 1; i <= n; i++) {
      row.append(h("button", {
        type: "button", "aria-pressed": chosen.includes(i) ? "true" : "false",
        disabled: off.includes(i),
        onclick: (event) => {
          const at = chosen.indexOf(i);
          if (at >= 0) chosen.splice(at, 1);
          else if (chosen.length < most) chosen.push(i);
          event.target.setAttribute("aria-pressed", chosen.includes(i) ? "true" : "false");
        },
      }, String(i)));
    }
    return row;
  }

  function field(key, props) {
    return h("input", Object.assign({ value: picked[key] || "",
                                      oninput: (e) => { picked[key] = e.target.value; } }, props));
  }

  // A select kept in picked[key]; ``names`` maps an option to the words shown for it, and
  // ``then`` runs after a change (for controls that depend on the choice).
  function choice(key, options, label, names = null, then = null) {
    const select = h("select", { "aria-label": label,
                                 onchange: (e) => { picked[key] = e.target.value; if (then) then(); } },
                     options.map((o) => h("option", { value: o, selected: picked[key] === o },
                                          names ? names[o] : o)));
    if (picked[key] === undefined && options.length) picked[key] = options[0];
    return select;
  }

  const list = (items) => h("ul", {}, items.map((i) => h("li", {}, i)));
  const money = (n) => t("rig.phone.money", { amount: Number(n) });

  // --- each game's part: its own script from its folder (rig/games/<game>/phone.js) -------------
  // The rig serves the running game's script as /games/phone/<game>.js; it registers a maker in
  // window.GamePhones, called here with the page's kit.  The page knows no game by name.
  // The shell calls the game's maker with its kit, which the frame fills in here (the kit is
  // one object: the maker keeps it, and reads the frame's controls from it when it draws).
  function fillKit(kit) {
    Object.assign(kit, { h, t, list, money, button, toggles, field, choice, picked, render,
                         commands: C, redraw: () => { shownMe = ""; render(); } });
  }
  let rules = null;           // the running game's part

  // --- after the game, and the games recorded here ------------------------------------------------
  // The next game is chosen from a paired phone (README "The heist game night"): the rig
  // switches to it and every phone follows; each game is a new recording, listed below.
  function renderAfter() {
    $("after").hidden = !game.over;
    if (!game.over) return;
    put($("outcome"), game.outcome);
    const panel = t("rig.night.title");
    put($("again"), paired ? t("rig.phone.again_paired", { panel })
      : t("rig.phone.again_unpaired", { panel }));
  }

  function when(stamp) {
    const date = new Date(stamp);
    return Number.isNaN(date.getTime()) ? stamp :
      date.toLocaleString(Words.locale, { dateStyle: "medium", timeStyle: "short" });
  }

  // One recording: its game and date, players and result (its replay's), and its file.
  function recordingItem(r) {
    const url = "/api/game/recordings/" + encodeURIComponent(r.id);
    return h("li", { class: "recording", "data-recording": r.id },
      h("p", { class: "date" }, (r.title || r.id) + " · " + when(r.date) +
        (r.live ? " · " + t("rig.phone.this_game") : "")),
      r.error ? h("p", { class: "error" }, r.error) : [
        h("p", {}, r.players.join(", ")),
        h("p", { class: "outcome" }, r.outcome),
        r.torn ? h("p", { class: "hint" }, t("rig.phone.torn")) : null],
      h("a", { class: "download", href: url + "/recording", download: r.id + ".jsonl" },
        t("rig.phone.download")));
  }

  async function loadRecordings() {
    const answer = await api("GET", "/api/game/recordings");
    if (answer.status !== 200) {
      $("recordings").replaceChildren(h("li", { class: "error" }, reason(answer)));
      return;
    }
    $("history-empty").hidden = answer.body.length > 0;
    $("recordings").replaceChildren(...answer.body.map(recordingItem));
  }

  // --- the page ----------------------------------------------------------------------------------
  let shownStatus = null;     // the status line the recordings were last listed at
  function render() {
    if (!game) return;
    if (!rules) return;
    put($("title"), title);
    put($("game-title"), title);
    document.title = title;
    const status = rules.status(game.view);
    put($("status"), status);
    if (status !== shownStatus) {           // a new turn, round or result: the list follows
      shownStatus = status;
      loadRecordings();
    }
    renderAfter();
    const message = game.message || game.view.message;       // Stop Thief! keeps its calls in its view
    put($("message"), rules.message ? rules.message(game.view, message) : message);
    // Built again with the focus kept on its control (issue 30: a command sent the reader's
    // focus back to the top of the page).
    Dom.keepFocus($("board"), () => $("board").replaceChildren(...rules.board(game.view).filter(Boolean)));
    const mine = JSON.stringify(me);
    if (mine !== shownMe) {                  // rebuilt only when this player's view changed
      shownMe = mine;
      if (me) Dom.keepFocus($("controls"), () => $("controls").replaceChildren(...rules.controls(me).filter(Boolean)));
    }
    $("controls").hidden = !me || game.over;  // once over, the after-game says what is next
    Night.show($("night"), { current: game.game, paired, players: game.players,
                              inProgress: !game.over });
  }

  async function readTitle() {
    const listed = await api("GET", "/api/games");
    const entry = listed.status === 200 ? listed.body.find((g) => g.name === loaded) : null;
    title = entry ? entry.title : loaded;
    put($("title"), title);
  }

  // Another language: the rig's texts again (the live channel speaks the language the phone
  // had when it connected: the shell connects it again), the page's words, the player's
  // controls rebuilt.
  async function relanguage() {
    await readTitle();
    const answer = await api("GET", "/api/game");
    if (answer.status === 200) game = answer.body;
    shownMe = "";
    shownStatus = null;
    await loadMe();
  }

  async function mount() {
    $("pair").addEventListener("submit", pairHere);
    if (pairing.linkCode) $("pair-code").value = pairing.linkCode;   // the QR's code
    pairing.onChange(() => loadMe());     // "Leave", a seat taken, a restart
    const answer = await api("GET", "/api/game");
    if (answer.status !== 200) {
      put($("status"), reason(answer));
      return;
    }
    game = answer.body;
    loaded = game.game;
    await readTitle();
    await loadMe();
  }

  function receive(message) {
    if (message.type === "state" && message.state && game) stateArrived(message.state);
  }

  // The part the shell drives, for ``made`` (the game's maker's answer to ``kit``, which
  // fill(kit) gave the frame's controls before the maker was called).
  function frame(kit, made) {
    api = kit.api;
    pairing = kit.pairing;
    rules = made;
    return { mount, receive, relanguage };
  }

  return { fill: fillKit, frame };
})();
