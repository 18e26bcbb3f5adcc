// Cleptómano's part of the one phone page (rig/web/static/index.html and phone.js, the shared
// chrome, load it with phone.html and phone.css of this folder; served as
// /games/phone/cleptomano.js): the rig's match on a phone at the table, the guard's commands,
// the set-up and the kept matches.
//
// Everything on the page comes from the rig: the snapshot the score display shows (GET
// /api/state, then pushed over a WebSocket on every change, never polled), the calls the
// referee makes, the kept matches.  The page decides nothing about the game: a command goes to
// the rig as one line of the recording's own vocabulary, and the rig's answer (the new state,
// or the reason it refused) is what the page shows.
//
// Every text from the rig (a player's name, a call, a reason) is put on the page as text:
// the DOM is built with createElement and textContent only, never from HTML.  The rig says its
// texts in this phone's language; the page's own words are t("rig.phone...") (dom.js), and
// the static page's are data-t elements.  The header's picker switches both, live.
"use strict";  // not words: the directive

// The guard's commands as the rig's API takes them (POST /api/command: one line of the
// recording's vocabulary without "t" and "by"), registered in window.GameCommands under the
// game's name as every game's are: the page and the tests (node) build the same bodies.
(window.GameCommands = window.GameCommands || {}).cleptomano = {
  choose: (role, player) => ({ choose: role, player }),
  loot: (paintings, relics) => ({ loot: { paintings: Number(paintings), relics: Number(relics) } }),
  undo: () => ({ undo: "touch" }),
  why: (reason) => ({ why: reason }),       // issue 31: the reason for the override just made
  newMatch: (spec) => ({ new_match: spec }),
};

// The part: a page of its own (mount), driven by the shell (receive, relanguage).
(window.GamePhones = window.GamePhones || {}).cleptomano = (kit) => {
  const N_ = (code) => code;      // marks a code said later with t() (the catalog tools find it)
  const C = window.GameCommands.cleptomano;
  // The static page's words (its data-t elements, filled by dom.js), for the catalog tools.
  const PAGE_WORDS = [
    N_("rig.phone.page_title"), N_("rig.phone.connecting"), N_("rig.phone.screens"),
    N_("rig.phone.tab_live"), N_("rig.phone.tab_setup"), N_("rig.phone.tab_matches"),
    N_("rig.phone.join"), N_("rig.phone.join_lead"), N_("rig.phone.watch"),
    N_("rig.phone.pair_this"), N_("rig.phone.code"), N_("rig.phone.phone_name"),
    N_("rig.phone.phone_name_example"), N_("rig.phone.pair"), N_("rig.phone.thief"),
    N_("rig.phone.guard"), N_("rig.phone.hand_out"), N_("rig.phone.laser_touches"),
    N_("rig.phone.score"), N_("rig.phone.loot"), N_("rig.phone.confirm_prompt"),
    N_("rig.phone.next_thief"), N_("rig.phone.last_turn"), N_("rig.phone.touches"),
    N_("rig.phone.match_over"), N_("rig.phone.set_up_next"), N_("rig.phone.round_table"),
    N_("rig.phone.guard_commands"), N_("rig.phone.round_guard"), N_("rig.phone.haul"),
    N_("rig.phone.haul_hint"), N_("rig.phone.paintings"), N_("rig.phone.painting_fewer"),
    N_("rig.phone.painting_more"), N_("rig.phone.relics"), N_("rig.phone.relic_fewer"),
    N_("rig.phone.relic_more"), N_("rig.phone.confirm_haul"), N_("rig.phone.undo_touch"),
    N_("rig.phone.calls"), N_("rig.phone.set_up"), N_("rig.phone.setup_locked"),
    N_("rig.phone.players"), N_("rig.phone.playing_order"), N_("rig.phone.a_name"),
    N_("rig.phone.add"), N_("rig.phone.recent_players"), N_("rig.phone.level"),
    N_("rig.phone.level_easy"), N_("rig.phone.level_normal"), N_("rig.phone.level_hard"),
    N_("rig.phone.level_custom"), N_("rig.phone.time_limit"), N_("rig.phone.no_limit"),
    N_("rig.phone.added_lasers"), N_("rig.phone.corridor"), N_("rig.phone.corridor_wide"),
    N_("rig.phone.corridor_narrow"), N_("rig.phone.first_thief"), N_("rig.phone.layout"),
    N_("rig.phone.layout_hint"), N_("rig.phone.corridor_label"), N_("rig.phone.clear_layout"),
    N_("rig.phone.museum"), N_("rig.phone.start_match"), N_("rig.phone.matches"),
    N_("rig.phone.no_matches"), N_("cleptomano.phone.why"), N_("cleptomano.phone.why_typed"),
    N_("cleptomano.phone.why_send"),
  ];
  // The reasons the rig offers for an override, in the screen's digit order (issue 31).
  const REASONS = [
    ["misfire", N_("cleptomano.override.reason.misfire")],
    ["wrong-player", N_("cleptomano.override.reason.wrong_player")],
    ["sensor-fault", N_("cleptomano.override.reason.sensor_fault")],
    ["rules-dispute", N_("cleptomano.override.reason.rules_dispute")],
    ["other", N_("cleptomano.override.reason.other")],
  ];

  const API = {
    state: "/api/state",
    command: "/api/command",
    layout: "/api/layout",
    matches: "/api/matches",
  };
  const STRIKES = 3;
  const LAST_SECONDS = 10;      // the countdown turns red here, as on the rig's screen
  const SAID_SECONDS = [30, 10];  // what the countdown says to a screen reader, and only that
  const MAX_CALLS = 8;
  const RECONNECT_S = [0.5, 1, 2, 4, 8];

  // The words of the snapshot's values (the rig's names for them, not words).
  const LEVELS = { easy: N_("rig.phone.level_easy"), normal: N_("rig.phone.level_normal"),
    hard: N_("rig.phone.level_hard"), custom: N_("rig.phone.level_custom") };
  const CORRIDORS = { wide: N_("rig.phone.corridor_wide"), narrow: N_("rig.phone.corridor_narrow") };
  const KINDS = { painting: N_("rig.phone.painting_n"), relic: N_("rig.phone.relic_n") };
  const SHORT = { painting: N_("rig.phone.painting_short"), relic: N_("rig.phone.relic_short") };
  const STATES = { "in place": N_("rig.phone.piece_in_place"), taken: N_("rig.phone.piece_taken"),  // not words: the rig's value
    broken: N_("rig.phone.piece_broken") };
  const CORRIDOR_SHORT = { wide: N_("rig.phone.wide"), narrow: N_("rig.phone.narrow") };
  const CORRIDOR_WORDS = { wide: N_("rig.phone.wide_corridor"), narrow: N_("rig.phone.narrow_corridor") };
  const said = (table, value) => (table[value] ? t(table[value]) : String(value));
  const upper = (words) => words.toLocaleUpperCase(Words.locale);
  // --- building the page: text only ----------------------------------------------------------
  const $ = (id) => document.getElementById(id);

  const { h, s, append } = Dom;       // dom.js: elements, texts as text nodes

  // What el holds, built again; the focus, if it was inside, stays on its control (dom.js).
  function fill(el, ...children) {
    Dom.keepFocus(el, () => {
      el.replaceChildren();
      append(el, children);
    });
  }

  // el built again by make() only when key (what it shows, in this language) changed: a
  // snapshot pushed many times a second during a turn leaves the page's controls and its live
  // regions alone (issue 30: a focused button lost its focus, a status was said again).
  const drawn = new WeakMap();
  function fillIf(el, key, make) {
    const full = Words.language + "\u0001" + JSON.stringify(key);
    if (drawn.get(el) === full) return;
    drawn.set(el, full);
    fill(el, make());
  }

  function show(el, visible) {
    el.hidden = !visible;
  }

  function text(el, words) {
    Dom.put(el, words);         // only when the words changed: a live region says them once
  }

  // --- talking to the rig: the shell's {status, ok, body, reason} -----------------------------
  const call = kit.call;

  // --- what the page knows ---------------------------------------------------------------------
  const page = {
    state: null,
    stateAt: 0,               // performance.now() when the state arrived (the countdown runs on)
    paired: null,             // this phone's name once paired (GET /api/session says)
    watching: false,
    calls: [],
    bannerHidden: null,       // the banner the reader tapped away
    bannerSaid: null,         // the banner last said to a screen reader
    countdownSaid: null,      // this turn's countdown: {shown, marks said (30 and 10 s)}
  };

  // --- the push channel: the shell's, each message handed here -------------------------------
  // {"type": "state", "state": {...}} or {"type": "call", "t": 12.5, "text": "...", "severity": "info"}
  function receive(message) {
    if (message.type === "state") setState(message.state);
    else if (message.type === "call") hear(message);
  }

  // A call joins the log (role="log": a screen reader says the new one only).
  function hear(c) {
    page.calls.unshift(c);
    page.calls.length = Math.min(page.calls.length, MAX_CALLS);
    const list = $("calls");
    list.prepend(callItem(c));
    while (list.children.length > MAX_CALLS) list.lastElementChild.remove();
  }

  function setState(state) {
    const before = page.state;
    page.state = state;
    page.stateAt = performance.now();
    render();
    if (before && before.phase !== state.phase && currentTab() === "matches") loadMatches();
  }

  // --- navigation ------------------------------------------------------------------------------
  const TABS = ["join", "live", "setup", "matches"];

  function currentTab() {
    const tab = location.hash.slice(1);
    if (TABS.includes(tab)) return tab;
    if (kit.pairing.linkCode && !page.paired && !page.watching) return "join";  // the QR's
    return page.paired || page.watching ? "live" : "join";
  }

  // The match's seats on the join tab: a tap pairs this phone as that player (a paired one
  // moves to that seat).
  function renderSeats() {
    kit.pairing.chips($("pair-seats"), async (name) => {
      if (page.paired) {
        const answer = await kit.pairing.sit(name);
        showError($("pair-error"), answer.ok ? null : answer.reason);
        if (answer.ok) location.hash = "#live";
        return;
      }
      $("pair-name").value = name;
      $("pair").requestSubmit();
    });
  }

  function route() {
    const tab = currentTab();
    if (tab === "join") renderSeats();
    for (const name of TABS) show($(name), name === tab);
    for (const a of document.querySelectorAll(".tabs a")) {  // not words: a selector
      if (a.dataset.tab === tab) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    if (tab === "matches") loadMatches();
    if (tab === "setup") setup.open();
    if (page.state) renderBanner(page.state);
    window.scrollTo(0, 0);
  }

  // --- the bar and joining ---------------------------------------------------------------------
  function renderWho() {
    const who = kit.who;
    who.dataset.paired = page.paired ? "true" : "false";
    text(who, page.paired ? page.paired : t("rig.phone.pair"));
    show($("commands"), Boolean(page.paired) && page.state !== null);
    show($("setup-locked"), !page.paired);
  }

  // Paired or no longer: what the page offers follows at once (the push of the rig's screen,
  // which lists the phones paired, may come before the pairing's own answer).
  function setPaired(name) {
    page.paired = name;
    if (page.state) render();
    else renderWho();
    setup.update();
  }

  // A command the rig answered 401 to: this phone is not (or no longer) paired.
  function lostPairing(reason) {
    kit.pairing.set(null);
    showError($("pair-error"), reason || t("rig.phone.pair_again"));
    location.hash = "#join";
  }

  function showError(el, words) {
    text(el, words);
    show(el, Boolean(words));
  }

  async function pair(event) {
    event.preventDefault();
    const code = $("pair-code").value.replace(/\s+/g, "");
    const name = $("pair-name").value.trim();
    $("pair-go").disabled = true;
    const answer = await kit.pairing.pair(code, name);
    $("pair-go").disabled = false;
    if (!answer.ok) {
      showError($("pair-error"), answer.reason);
      return;
    }
    showError($("pair-error"), null);
    $("pair-code").value = "";
    location.hash = "#live";
  }

  // --- commands ----------------------------------------------------------------------------------
  // Send one command; on a refusal show the rig's reason in ``where`` (the message strip).
  async function command(payload, where) {
    const answer = await call("POST", API.command, payload);
    if (answer.status === 401) {
      lostPairing(answer.reason);
      return null;
    }
    if (!answer.ok) {
      flash(where || $("message"), answer.reason);
      return null;
    }
    setState(answer.body);      // the snapshot right after the referee took it
    return answer;
  }

  let flashTimer = null;

  function flash(el, words) {
    text(el, words);
    el.classList.add("refused");
    show(el, true);
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { el.classList.remove("refused"); render(); }, 6000);
  }

  // --- live: the match as the rig's screen shows it ---------------------------------------------
  function levelLine(st) {
    const parts = [st.tiebreak ? t("rig.phone.tiebreak")
      : (st.players.length === 1 ? t("rig.phone.solo_heist") : t("rig.phone.round_n", { n: st.round })),
      upper(said(LEVELS, st.level)),
      st.timer_s === null ? t("rig.phone.no_time_limit") : t("rig.phone.seconds", { n: st.timer_s }),
      t("rig.phone.lasers_n", { n: st.lasers }), said(CORRIDOR_SHORT, st.corridor)];
    return parts.join(" · ");
  }

  function render() {
    const st = page.state;
    renderWho();
    if (!st) return;
    text($("level"), levelLine(st));
    fillIf($("faults"), st.faults, () => st.faults.map((f) => h("li", {}, f)));
    show($("faults"), st.faults.length > 0);
    if (!$("message").classList.contains("refused")) {
      text($("message"), st.message);
      show($("message"), Boolean(st.message));
    }
    Night.show($("night"), { current: kit.game.name,
                             paired: Boolean(page.paired) && st.phase !== "turn",
                             players: st.players, inProgress: false });
    show($("turn"), st.phase === "turn");
    show($("between"), st.phase === "between");
    show($("over"), st.phase === "over");
    if (st.phase === "turn") renderTurn(st);
    if (st.phase === "between") renderBetween(st);
    if (st.phase === "over") renderOver(st);
    renderTable(st);
    renderCommands(st);
    renderBanner(st);
    setup.museum(st);
  }

  function renderCountdown() {
    const st = page.state;
    if (!st || st.phase !== "turn") return;
    const el = $("countdown");
    // The rig pushes every snapshot; between two, the digits run on from the last one.
    const since = Math.min(1.5, (performance.now() - page.stateAt) / 1000);
    if (st.remaining_s === null) {
      fill(el, "∞", h("span", { class: "elapsed" },
        t("rig.phone.seconds", { n: Math.floor(st.elapsed_s + since) })));
      el.classList.remove("last");
      return;
    }
    const left = Math.max(0, st.remaining_s - since);
    const shown = Math.ceil(left - 1e-6);
    text(el, shown);
    el.classList.toggle("last", shown <= LAST_SECONDS);
    // The digits are silent (aria-live="off"); a screen reader hears 30 and 10 s left, once
    // each turn, from the status beside them (a turn begins when the digits go up again).
    if (page.countdownSaid === null || shown > page.countdownSaid.shown) {
      page.countdownSaid = { shown, marks: [] };
      text($("countdown-said"), "");
    }
    page.countdownSaid.shown = shown;
    for (const mark of SAID_SECONDS) {
      if (shown <= mark && shown > mark - 3 && !page.countdownSaid.marks.includes(mark)) {
        page.countdownSaid.marks.push(mark);
        text($("countdown-said"), t("rig.phone.seconds_left", { n: mark }));
      }
    }
  }

  // A loot piece as the rig's screen draws it: a painting's frame or a relic's flask, gold with
  // a tick when taken, magenta and knocked over with a red cross when broken.
  function pieceIcon(piece) {
    const shape = piece.kind === "painting"
      ? [s("rect", { class: "frame", x: 9, y: 5, width: 22, height: 30, rx: 2 }),
        s("rect", { class: "canvas", x: 13, y: 9, width: 14, height: 22 })]
      : [s("circle", { class: "flask", cx: 20, cy: 26, r: 10 }),
        s("rect", { class: "flask", x: 16, y: 6, width: 8, height: 14, rx: 2 })];
    const icon = s("svg", { class: "icon", viewBox: "0 0 40 40", "aria-hidden": "true" },
      s("g", { transform: piece.state === "broken" ? "rotate(-80 20 24)" : null }, shape));
    if (piece.state === "taken") icon.append(s("path", { class: "tick", d: "M8 22 L17 31 L34 9" }));
    if (piece.state === "broken") icon.append(s("path", { class: "cross", d: "M8 8 L32 32 M32 8 L8 32" }));
    return icon;
  }

  function pieceItem(piece) {
    const name = t(SHORT[piece.kind] || SHORT.relic, { n: piece.number });
    return h("li", { class: piece.state.replace(" ", "-"),
      title: t(KINDS[piece.kind] || KINDS.relic, { n: piece.number }) },
    pieceIcon(piece),
    h("span", { class: "name" }, name),
    h("span", { class: "state" }, upper(said(STATES, piece.state))));
  }

  function renderTurn(st) {
    renderCountdown();
    text($("thief"), st.thief);
    text($("guard"), st.guard || "—");
    const hand = $("hand");
    text(hand, st.hand_inside ? t("rig.phone.hand_in") : t("rig.phone.hand_out"));
    hand.classList.toggle("in", st.hand_inside);
    const strikes = [];
    for (let i = 0; i < STRIKES; i += 1) {
      const hit = i < st.touches;
      strikes.push(h("li", { class: hit ? "hit" : null,
        "aria-label": hit ? t("rig.phone.touched") : t("rig.phone.not_touched") },
        hit ? "✗" : ""));
    }
    fillIf($("strikes"), [st.touches], () => strikes);
    fillIf($("pieces"), st.pieces, () => st.pieces.map(pieceItem));
    text($("score-word"), st.tiebreak ? t("rig.phone.penalty") : t("rig.phone.score"));
    text($("score"), st.tiebreak ? t("rig.phone.penalty_seconds", { n: st.touches }) : st.turn_score);
  }

  function renderBetween(st) {
    show($("haul-prompt"), st.awaiting_loot);
    renderChecklist($("checklist"), st);
    text($("next-thief"), st.next_thief || "—");
    text($("next-guard"), st.next_guard || "—");
    const played = st.rounds.some((r) => Object.values(r.scores).some((v) => v !== null));
    show($("last-turn"), played);
    fillIf($("last-pieces"), st.pieces, () => st.pieces.map(pieceItem));
    text($("last-touches"), st.touches);
    text($("last-score"), st.turn_score);
  }

  // The museum's checks (role="status": said when they change, and only then).
  function renderChecklist(el, st) {
    fillIf(el, st.ready_problems, () => (st.ready_problems.length === 0
      ? [h("p", { class: "ready" }, t("rig.phone.museum_ready"))]
      : [h("p", { class: "title" }, t("rig.phone.museum_not_ready")),
        h("ul", {}, st.ready_problems.map((p) => h("li", {}, p)))]));
  }

  function renderOver(st) {
    let words = t("rig.phone.no_winner");
    if (st.players.length === 1) words = st.title ? st.title : t("rig.phone.no_title");
    else if (st.winner) words = t("rig.phone.wins_match", { player: st.winner });
    text($("result"), words);
  }

  function renderTable(st) {
    const solo = st.players.length === 1;
    show($("table"), !solo && st.rounds.length > 0);
    if (solo) return;
    const head = h("tr", {}, h("th", { scope: "col" }, t("rig.phone.player")),
      st.rounds.map((r) => h("th", { scope: "col" }, t("rig.phone.round_short", { n: r.number }))),
      h("th", { scope: "col" }, t("rig.phone.wins")));
    const rows = st.players.map((player) => h("tr", {},
      h("th", { scope: "row" }, player),
      st.rounds.map((r) => {
        const score = r.scores[player];
        const won = r.winners.includes(player);
        return h("td", { class: won ? "won" : null }, score === null || score === undefined ? "–" : score,
          won ? h("span", { class: "star", "aria-label": t("rig.phone.won_round") }, " ★") : null);
      }),
      h("td", {}, st.round_wins[player] ?? 0)));
    fillIf($("rounds"), [st.players, st.rounds, st.round_wins], () => [h("thead", {}, head), h("tbody", {}, rows)]);
  }

  // --- the guard's commands ----------------------------------------------------------------------
  const haul = { paintings: 0, relics: 0, key: null };

  function lastTurnKey(st) {
    return JSON.stringify([st.rounds, st.pieces, st.touches, st.turn_score]);
  }

  function renderCommands(st) {
    if (!page.paired) return;
    // The players' buttons are built when the players change, and only then; who is chosen is
    // their aria-pressed, set in place: a button the guard is on keeps the focus (issue 30).
    const choice = (el, role, current) => {
      fillIf(el, st.players, () => st.players.map((player) => h("button", {
        type: "button", "aria-pressed": "false", "data-player": player,
        onclick: () => command(C.choose(role, player)),
      }, player)));
      for (const b of el.querySelectorAll("button")) {
        const pressed = b.dataset.player === current ? "true" : "false";
        if (b.getAttribute("aria-pressed") !== pressed) b.setAttribute("aria-pressed", pressed);
      }
    };
    // Once the match is over nobody steals next: only the last turn can still be corrected.
    const choosing = st.phase !== "over";
    choice($("choose-thief"), "thief", st.next_thief);
    choice($("choose-guard"), "guard", st.next_guard);
    show($("choose-thief").previousElementSibling, choosing);
    show($("choose-thief"), choosing);
    show($("choose-guard").previousElementSibling, choosing && st.players.length > 1);
    show($("choose-guard"), choosing && st.players.length > 1);
    // The haul: what the rig counted for the last turn, until the guard changes it.
    const key = lastTurnKey(st);
    if (st.phase !== "turn" && key !== haul.key) {
      haul.key = key;
      haul.paintings = st.pieces.filter((p) => p.kind === "painting" && p.state === "taken").length;
      haul.relics = st.pieces.filter((p) => p.kind === "relic" && p.state === "taken").length;
    }
    text($("haul-paintings"), haul.paintings);
    text($("haul-relics"), haul.relics);
    show($("haul"), st.phase !== "turn");
    // The reason for the override just made, while the rig asks for it (reason_wanted).
    fillIf($("why-reasons"), ["why"], () => REASONS.map(([code, words]) => h("button", {
      type: "button", onclick: () => command(C.why(code)),
    }, t(words))));
    show($("why"), Boolean(st.reason_wanted));
  }

  function stepHaul(event) {
    const button = event.target.closest(".step");
    if (!button) return;
    const stepper = button.closest(".stepper");
    const field = stepper.querySelector("output").id === "haul-paintings" ? "paintings" : "relics";
    const max = Number(stepper.dataset.max);
    haul[field] = Math.max(0, Math.min(max, haul[field] + Number(button.dataset.step)));
    text(stepper.querySelector("output"), haul[field]);
  }

  async function confirmHaul() {
    const answer = await command(C.loot(haul.paintings, haul.relics));
    if (answer) haul.key = null;    // show what the rig kept (cut down, with its reason)
  }

  // --- the banner: the rig's big moments -------------------------------------------------------
  // The banner is a button (Tab reaches it; a tap, Enter, Space or Escape puts it away); a
  // new one is said once by the alert beside it (a screen reader does not read a shown box).
  function renderBanner(st) {
    const banner = st.banner;
    const key = banner ? JSON.stringify(banner) : null;
    const el = $("banner");
    if (key !== page.bannerSaid) {
      page.bannerSaid = key;
      text($("banner-said"), banner && key !== page.bannerHidden
        ? [banner.title, ...banner.lines].join(". ") : "");
    }
    // Over the live match only: set-up and the history stay usable while it is up.
    if (!banner || key === page.bannerHidden || currentTab() !== "live") {
      putAway(el);
      return;
    }
    el.dataset.kind = banner.kind;
    text($("banner-title"), banner.title);
    text($("banner-lines"), banner.lines.join("\n"));
    show(el, true);
  }

  // The banner hidden; the focus, if it was on it, goes to the live page's heading.
  function putAway(el) {
    if (el.hidden) return;
    const focused = document.activeElement === el;
    show(el, false);
    if (focused) $("live-title").focus({ preventScroll: true });
  }

  function hideBanner() {
    const st = page.state;
    page.bannerHidden = st && st.banner ? JSON.stringify(st.banner) : null;
    putAway($("banner"));
  }

  function callItem(c) {
    return h("li", { class: c.severity === "warning" ? "warning" : null },
      h("span", { class: "when" }, t("rig.phone.seconds", { n: Math.round(c.t * 10) / 10 })),
      " ", c.text);
  }

  function renderCalls() {
    fill($("calls"), page.calls.map(callItem));
  }

  // --- after: the kept matches -------------------------------------------------------------------
  function outcomeWords(result) {
    if (result.players.length === 1) return result.title ? result.title : t("rig.phone.solo_no_title");
    if (result.winner) return t("rig.phone.won", { player: result.winner });
    return result.finished === false ? t("rig.phone.no_winner_yet") : t("rig.phone.no_winner");
  }

  function roundWords(result) {
    return result.rounds.map((r) => t("rig.phone.round_line", { round: r.round,
      scores: pairsWords(r.scores), winners: r.winners }));
  }

  function pairsWords(mapping) {
    return Object.entries(mapping || {}).map(([player, n]) => player + " " + n).join(", ");
  }

  async function loadMatches() {
    const answer = await call("GET", API.matches);
    if (!answer.ok) {
      fill($("match-list"), h("li", { class: "card error" }, answer.reason));  // not words: CSS classes
      return;
    }
    show($("matches-empty"), answer.body.length === 0);
    fill($("match-list"), answer.body.map(matchCard));
  }

  function when(m) {
    const date = new Date(m.date);
    return Number.isNaN(date.getTime()) ? m.date :
      date.toLocaleString(Words.locale, { dateStyle: "medium", timeStyle: "short" });
  }

  // One kept match: its date, winner (or solo title), scores; its recording; its replay.
  function matchCard(m) {
    const url = API.matches + "/" + encodeURIComponent(m.id);
    const replayBox = h("div", { class: "replay", hidden: true });
    const head = h("p", { class: "date" }, when(m), m.live ? " · " + t("rig.phone.being_played") : null);
    if (m.error) return h("li", { class: "card match", "data-match": m.id }, head, h("p", { class: "error" }, m.error));  // not words: CSS classes
    const wins = pairsWords(m.round_wins);
    return h("li", { class: "card match", "data-match": m.id },  // not words: CSS classes
      head,
      h("p", { class: "winner" }, outcomeWords(m)),
      h("p", { class: "who-played" }, m.players.join(", ")),
      h("p", { class: "hint scores" }, t("rig.phone.scores", { scores: pairsWords(m.scores) })),  // not words: CSS classes
      wins ? h("p", { class: "hint" }, t("rig.phone.round_wins", { wins })) : null,
      m.torn ? h("p", { class: "hint" }, t("rig.phone.torn")) : null,
      h("div", { class: "actions" },
        h("a", { class: "link-button download", href: url + "/recording", download: m.id + ".jsonl" },  // not words: CSS classes
          t("rig.phone.recording")),
        h("button", { type: "button", class: "show-replay", onclick: () => showReplay(url, replayBox) },
          t("rig.phone.replay"))),
      replayBox);
  }

  async function showReplay(url, box) {
    const answer = await call("GET", url);
    if (!answer.ok) {
      fill(box, h("p", { class: "error" }, answer.reason));
    } else {
      const r = answer.body;
      fill(box, h("h3", {}, t("rig.phone.replayed")),
        h("p", { class: "replay-outcome" }, outcomeWords(r)),
        h("p", {}, t("rig.phone.turns_n", { n: r.turns.length })),
        roundWords(r).map((line) => h("p", { class: "replay-round" }, line)),
        r.warnings.map((w) => h("p", { class: "hint" }, w)));
    }
    show(box, true);
  }

  // --- set up a match -----------------------------------------------------------------------------
  const PRESETS = { easy: [null, 3, "wide"], normal: [60, 4, "wide"], hard: [30, 5, "narrow"] };
  const WALL_ZONES = ["III", "II", "I"];          // from the gallery down to the entrance

  const setup = {
    players: [],
    difficulty: "normal",
    custom: { timer_s: 60, lasers: 4, corridor: "wide" },
    firstThief: null,
    ends: {},                 // laser number -> [end, end] ("L-I", "table-R"...; null: not yet)
    current: null,            // the laser whose ends are being tapped
    problems: null,           // the validator's words for the declared lasers (null: unchecked)
    checking: 0,
    touched: false,           // the guard changed something: the rig's match no longer fills it

    open() {
      this.sync();
    },

    // Until the guard changes something, the form shows the rig's match as it is set up now.
    sync() {
      const st = page.state;
      if (!this.touched && st) {
        this.players = st.players.slice();
        this.difficulty = PRESETS[st.level] ? st.level : "custom";
        if (this.difficulty === "custom") {
          this.custom = { timer_s: st.timer_s, lasers: st.lasers, corridor: st.corridor };
        }
        this.firstThief = this.players[0] || null;
      }
      this.update();
    },

    level() {
      if (this.difficulty === "custom") return this.custom;
      const [timer_s, lasers, corridor] = PRESETS[this.difficulty];
      return { timer_s, lasers, corridor };
    },

    lasers() {
      const count = this.level().lasers;
      return Array.from({ length: count }, (_, i) => 4 + i);
    },

    change() {
      this.touched = true;
      this.update();
    },

    update() {
      this.renderPlayers();
      this.renderLevel();
      this.renderFirstThief();
      this.renderLayout();
      this.renderStart();
    },

    renderPlayers() {
      fill($("players"), this.players.map((player, i) => h("li", {},
        h("span", { class: "name" }, player),
        h("button", { type: "button", "aria-label": t("rig.phone.move_up", { player }), disabled: i === 0,
          onclick: () => { this.players.splice(i - 1, 0, this.players.splice(i, 1)[0]); this.change(); } }, "↑"),
        h("button", { type: "button", class: "remove", "aria-label": t("rig.phone.remove", { player }),
          onclick: () => { this.players.splice(i, 1); this.change(); } }, "✕"))));
      // The rig's roster: this match's players, then those of the recent recordings.
      const roster = page.state ? page.state.roster : [];
      const recent = roster.filter((n) => !this.players.includes(n));
      show($("recent-box"), recent.length > 0);
      fill($("recent"), recent.map((name) => h("button", { type: "button", "data-player": name,
        onclick: () => this.add(name) }, "+ " + name)));
    },

    add(name) {
      name = name.trim();
      if (!name || this.players.includes(name)) return false;
      this.players.push(name);
      this.change();
      return true;
    },

    renderLevel() {
      for (const b of $("difficulty").querySelectorAll("button")) {
        b.setAttribute("aria-pressed", String(b.dataset.difficulty === this.difficulty));
      }
      show($("custom"), this.difficulty === "custom");
      const level = this.level();
      $("custom-unlimited").checked = this.custom.timer_s === null;
      $("custom-timer").disabled = this.custom.timer_s === null;
      for (const b of $("custom-lasers").querySelectorAll("button")) {
        b.setAttribute("aria-pressed", String(Number(b.dataset.lasers) === this.custom.lasers));
      }
      for (const b of $("custom-corridor").querySelectorAll("button")) {
        b.setAttribute("aria-pressed", String(b.dataset.corridor === this.custom.corridor));
      }
      const time = level.timer_s === null ? t("rig.phone.no_time_limit")
        : t("rig.phone.seconds", { n: level.timer_s });
      const corridor = said(CORRIDOR_WORDS, level.corridor);
      text($("level-words"), t("rig.phone.level_summary", { time, n: level.lasers, corridor }));
    },

    renderFirstThief() {
      if (!this.players.includes(this.firstThief)) this.firstThief = this.players[0] || null;
      fill($("first-thief"), this.players.map((player) => h("button", { type: "button",
        "aria-pressed": String(player === this.firstThief), "data-player": player,
        onclick: () => { this.firstThief = player; this.change(); } }, player)));
    },

    // The layout: each laser's two ends, tapped on the drawing.
    declared() {
      return this.lasers().filter((n) => this.ends[n] && this.ends[n][0] && this.ends[n][1]);
    },

    started() {
      return this.lasers().some((n) => this.ends[n] && (this.ends[n][0] || this.ends[n][1]));
    },

    notation() {
      return this.declared().map((n) => n + ": " + this.ends[n].join(" ")).join("; ");
    },

    pickLaser(number) {
      this.current = number;
      const ends = this.ends[number];
      if (ends && ends[0] && ends[1]) this.ends[number] = [null, null];   // tapped again: move it
      this.layoutChanged();
    },

    tapEnd(end) {
      const lasers = this.lasers();
      if (!lasers.includes(this.current)) {
        this.current = lasers.find((n) => !(this.ends[n] && this.ends[n][1])) ?? null;
      }
      if (this.current === null) return;
      const ends = this.ends[this.current] || [null, null];
      if (!ends[0]) ends[0] = end;
      else ends[1] = end;
      this.ends[this.current] = ends;
      if (ends[1]) {
        this.current = lasers.find((n) => !(this.ends[n] && this.ends[n][1])) ?? null;
      }
      this.layoutChanged();
    },

    clearLayout() {
      this.ends = {};
      this.current = this.lasers()[0];
      this.layoutChanged();
    },

    async layoutChanged() {
      this.touched = true;
      this.problems = null;
      this.update();
      const declared = this.declared();
      if (declared.length === 0) return;
      const ticket = ++this.checking;
      const answer = await call("POST", API.layout, { layout: this.notation(), lasers: this.level().lasers });
      if (ticket !== this.checking) return;       // a newer tap is being checked
      this.problems = answer.ok ? answer.body.problems : [answer.reason];
      this.bad = answer.ok ? answer.body.bad_lasers || [] : [];
      this.renderLayout();
      this.renderStart();
    },

    // Which lasers the validator's problems name (they turn red on the drawing): the rig
    // says (its words are this phone's language, the numbers are not).
    badLasers() {
      return new Set(this.problems === null ? [] : (this.bad || []).map(Number));
    },

    layoutState() {
      if (!this.started()) return "empty";
      if (this.declared().length < this.lasers().length) return "placing";
      if (this.problems === null) return "checking";
      return this.problems.length ? "illegal" : "legal";
    },

    renderLayout() {
      const lasers = this.lasers();
      for (const n of Object.keys(this.ends)) if (!lasers.includes(Number(n))) delete this.ends[n];
      if (this.current !== null && !lasers.includes(this.current)) this.current = null;
      const bad = this.badLasers();
      const state = this.layoutState();
      fill($("layout-lasers"), lasers.map((n) => {
        const ends = this.ends[n] || [null, null];
        const done = Boolean(ends[0] && ends[1]);
        return h("button", { type: "button", "data-laser": n,
          class: bad.has(n) ? "bad" : (done && state === "legal" ? "done" : null),
          "aria-pressed": String(n === this.current),
          onclick: () => this.pickLaser(n) },
        // Its name holds what it shows ("laser 4 L-I R-II" for "4 L-I R-II": WCAG 2.5.3).
        h("span", { class: "sr-only" }, t("rig.phone.laser_n", { n })),
        h("span", { class: "number", "aria-hidden": "true" }, n), " ",
        ends[0] ? ends.flatMap((end, i) => [i ? " " : null, h("span", { class: "ends" }, end || "…")])
          : h("span", { class: "ends" }, t("rig.phone.tap")));
      }));
      drawCorridor(this, bad, state);
      const status = $("layout-status");
      status.className = "layout-status" + ({ legal: " legal", illegal: " bad" }[state] || "");
      const laser = this.current;
      const placing = laser === null ? "" : " " + ((this.ends[laser] || [])[0]
        ? t("rig.phone.tap_second_end", { laser }) : t("rig.phone.tap_first_end", { laser }));
      text(status, {
        empty: () => t("rig.phone.layout_empty"),
        placing: () => t("rig.phone.lasers_placed", { placed: this.declared().length, n: lasers.length }) +
          placing,
        checking: () => t("rig.phone.layout_checking"),
        illegal: () => t("rig.phone.layout_illegal"),
        legal: () => t("rig.phone.layout_legal"),
      }[state]());
      fill($("layout-problems"), (this.problems || []).map((p) => h("li", {}, p)));
    },

    museum(st) {
      renderChecklist($("setup-checklist"), st);
      if (!this.touched) this.sync();
    },

    body() {
      const level = this.level();
      const spec = { players: this.players.slice(), first_thief: this.firstThief };
      if (this.difficulty === "custom") {
        spec.difficulty = "normal";
        spec.timer_s = level.timer_s;
        spec.lasers = level.lasers;
        spec.corridor = level.corridor;
      } else {
        spec.difficulty = this.difficulty;
      }
      return C.newMatch(spec);
    },

    renderStart() {
      const state = this.layoutState();
      const blocked = !page.paired || this.players.length === 0 ||
        state === "placing" || state === "checking" || state === "illegal";
      $("start-match").disabled = blocked;
    },

    async start() {
      const answer = await command(this.body(), $("setup-error"));
      if (answer) {
        showError($("setup-error"), null);
        this.touched = false;
        location.hash = "#live";
      }
    },
  };

  // The corridor from above: the gallery at the top, the entrance at the bottom; each wall's
  // zones I-III (I by the entrance) and the table beside each wall are what the guard taps.
  const G = {
    width: 400, height: 440, wall: 56, table: 56, gap: 6, top: 56, zone: 110, zoneGap: 4,
    tableDrop: 30, tagGap: 30,
  };
  const END_NAMES = {
    "L-I": N_("rig.phone.end_left_1"), "L-II": N_("rig.phone.end_left_2"),
    "L-III": N_("rig.phone.end_left_3"), "R-I": N_("rig.phone.end_right_1"),
    "R-II": N_("rig.phone.end_right_2"), "R-III": N_("rig.phone.end_right_3"),
    "table-L": N_("rig.phone.end_table_left"), "table-R": N_("rig.phone.end_table_right"),
  };

  function zoneBox(side, zone) {
    const i = WALL_ZONES.indexOf(zone);
    const x = side === "L" ? 0 : G.width - G.wall;
    return { x, y: G.top + i * (G.zone + G.zoneGap), w: G.wall, h: G.zone };
  }

  function tableBox(side) {
    const x = side === "L" ? G.wall + G.gap : G.width - G.wall - G.gap - G.table;
    return { x, y: G.top, w: G.table, h: 3 * G.zone + 2 * G.zoneGap };
  }

  function target(end, box, cls, label, setupState) {
    const picked = setupState.current !== null && (setupState.ends[setupState.current] || [])[0] === end;
    const group = s("g", { class: "target" + (picked ? " picked" : ""), "data-end": end, tabindex: 0,
      role: "button", "aria-label": t(END_NAMES[end]),
      onclick: () => setupState.tapEnd(end),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); setupState.tapEnd(end); } } },
    s("rect", { class: cls, x: box.x, y: box.y, width: box.w, height: box.h, rx: 8 }));
    if (label) group.append(label);
    return group;
  }

  function endPoints(setupState) {
    // Where each declared end sits: a wall zone's inner edge (ends sharing a zone spread out),
    // a table end beside its wall a little nearer the entrance than the laser's other end (so
    // two lasers from opposite walls to the table cross, rather than lie on one line).
    const inZone = {};
    const points = {};
    for (const n of setupState.lasers()) {
      for (const end of setupState.ends[n] || []) {
        if (end && !end.startsWith("table")) (inZone[end] = inZone[end] || []).push(n);
      }
    }
    const wallPoint = (end, n) => {
      const [side, zone] = end.split("-");
      const box = zoneBox(side, zone);
      const list = inZone[end];
      const k = list.indexOf(n);
      return { x: side === "L" ? box.x + box.w : box.x, y: box.y + box.h * (k + 1) / (list.length + 1) };
    };
    for (const n of setupState.lasers()) {
      const ends = setupState.ends[n] || [];
      const pts = ends.map((end) => (end && !end.startsWith("table") ? wallPoint(end, n) : null));
      ends.forEach((end, i) => {
        if (!end || !end.startsWith("table")) return;
        const side = end.slice(-1);
        const box = tableBox(side);
        const other = pts[1 - i];
        pts[i] = { x: box.x + box.w / 2, y: other ? Math.min(other.y + G.tableDrop, box.y + box.h - 14) :
          box.y + box.h / 2, table: true };
      });
      points[n] = pts;
    }
    return points;
  }

  // Where a laser's number goes: along its line, clear of the numbers already placed (lasers
  // that cross in the middle would otherwise hide each other's number).
  function tagPoint(a, b, placed) {
    const along = (f) => ({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
    for (const f of [0.5, 0.3, 0.7, 0.2, 0.8]) {
      const p = along(f);
      if (placed.every((q) => Math.hypot(p.x - q.x, p.y - q.y) >= G.tagGap)) return p;
    }
    return along(0.5);
  }

  function drawCorridor(setupState, bad, state) {
    const svgEl = $("corridor");
    svgEl.setAttribute("viewBox", "0 0 " + G.width + " " + G.height);
    const floorY = G.top - G.gap;
    const parts = [
      s("rect", { class: "gallery", x: 0, y: 0, width: G.width, height: floorY, rx: 8 }),
      s("text", { class: "word", x: G.width / 2, y: floorY / 2 + 5 }, t("rig.phone.gallery")),
      s("rect", { class: "floor", x: G.wall, y: floorY, width: G.width - 2 * G.wall, height: G.height - floorY - 28 }),
      s("text", { class: "word", x: G.width / 2, y: G.height - 8 }, t("rig.phone.entrance")),
    ];
    for (const side of ["L", "R"]) {
      for (const zone of WALL_ZONES) {
        const box = zoneBox(side, zone);
        parts.push(target(side + "-" + zone, box, "wall",
          s("text", { class: "zone-name", x: box.x + box.w / 2, y: box.y + box.h / 2 + 6 }, zone), setupState));
      }
      const box = tableBox(side);
      const cx = box.x + box.w / 2;
      const cy = box.y + box.h / 2;
      parts.push(target("table-" + side, box, "table-end",
        s("text", { class: "word", x: cx, y: cy, transform: "rotate(-90 " + cx + " " + cy + ")" },
          t("rig.phone.table_word")), setupState));    // its full name is the target's label
    }
    // The lasers, then their ends, then their numbers: no line ever hides a number.
    const points = endPoints(setupState);
    const lines = [];
    const ends = [];
    const tags = [];
    const placed = [];
    for (const n of setupState.lasers()) {
      const [a, b] = points[n] || [];
      const tone = n === setupState.current ? " current" : (bad.has(n) ? " bad" : (state === "legal" ? " legal" : ""));
      if (a && b) {
        lines.push(s("line", { class: "laser" + tone, x1: a.x, y1: a.y, x2: b.x, y2: b.y, "data-laser": n }));
        const tag = tagPoint(a, b, placed);
        placed.push(tag);
        tags.push(s("circle", { class: "laser-tag", cx: tag.x, cy: tag.y, r: 13 }),
          s("text", { class: "laser-tag-text", x: tag.x, y: tag.y + 5 }, n));
      }
      for (const p of [a, b]) {
        if (!p) continue;
        ends.push(s("circle", { class: "end-dot" + tone, cx: p.x, cy: p.y, r: 7 }));
        if (p.table) ends.push(s("circle", { class: "table-ring laser" + tone, cx: p.x, cy: p.y, r: 13 }));  // not words: CSS classes
      }
    }
    fill(svgEl, parts, lines, ends, tags);
  }

  // --- wiring the page up ---------------------------------------------------------------------------
  function wire() {
    $("watch").addEventListener("click", () => { page.watching = true; location.hash = "#live"; });
    kit.who.addEventListener("click", () => { location.hash = "#join"; });
    $("pair").addEventListener("submit", pair);
    if (kit.pairing.linkCode) $("pair-code").value = kit.pairing.linkCode;   // the QR's code
    $("banner").addEventListener("click", hideBanner);
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !$("banner").hidden) hideBanner();
    });
    $("haul").addEventListener("click", stepHaul);
    $("confirm-haul").addEventListener("click", confirmHaul);
    $("undo").addEventListener("click", () => command(C.undo()));
    $("why-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      if (await command(C.why($("why-text").value))) $("why-text").value = "";
    });
    $("add-player").addEventListener("submit", (event) => {
      event.preventDefault();
      if (setup.add($("player-name").value)) $("player-name").value = "";
    });
    $("difficulty").addEventListener("click", (event) => {
      const b = event.target.closest("button");
      if (!b) return;
      setup.difficulty = b.dataset.difficulty;
      setup.layoutChanged();
    });
    $("custom-lasers").addEventListener("click", (event) => {
      const b = event.target.closest("button");
      if (!b) return;
      setup.custom.lasers = Number(b.dataset.lasers);
      setup.layoutChanged();
    });
    $("custom-corridor").addEventListener("click", (event) => {
      const b = event.target.closest("button");
      if (!b) return;
      setup.custom.corridor = b.dataset.corridor;
      setup.change();
    });
    $("custom-timer").addEventListener("input", () => {
      const value = Number($("custom-timer").value);
      setup.custom.timer_s = value > 0 ? value : 60;
      setup.change();
    });
    $("custom-unlimited").addEventListener("change", () => {
      setup.custom.timer_s = $("custom-unlimited").checked ? null : Number($("custom-timer").value) || 60;
      setup.change();
    });
    $("layout-clear").addEventListener("click", () => setup.clearLayout());
    $("start-match").addEventListener("click", () => setup.start());
    window.addEventListener("hashchange", route);
    // The countdown runs on between two pushes (drawn, never fetched).
    setInterval(renderCountdown, 200);
  }

  // Another language: the rig's texts again (the shell connects the live channel again, in
  // the new language), and the page's own words.
  async function relanguage() {
    document.title = t("rig.phone.page_title");
    const again = await call("GET", API.state);
    if (again.ok) setState(again.body);
    else render();
    setup.update();
    renderCalls();
    if (currentTab() === "matches") loadMatches();
  }

  async function mount() {
    document.title = t("rig.phone.page_title");
    kit.who.hidden = false;
    kit.pairing.onChange(setPaired);
    wire();
    route();
    setPaired(kit.pairing.name);
  }

  return { mount, receive, relanguage };
};
