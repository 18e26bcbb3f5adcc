// The companion games on a phone: the game the rig runs (GET /api/game, then pushed over the
// live channel on every change), this player's own view (GET /api/game/me: their secrets,
// what they may send now) and their commands (POST /api/game/command, built by commands.js).
//
// The page decides nothing about the game: it offers what the rig says the player may send,
// and shows the rig's answer (the new view, or the reason it refused).  Every text from the
// rig is put on the page as text (createElement and textContent only, never HTML).
"use strict";

(() => {
  const C = window.GameCommands;
  const TITLES = { "stop-thief": "Stop Thief!", "stolen-paintings": "Stolen Paintings",
                   "chest-heist": "The chest heist", canine: "Canine Kleptomaniacs" };
  const RECONNECT_S = [0.5, 1, 2, 4, 8];
  const $ = (id) => document.getElementById(id);

  const h = Dom.h;           // dom.js: an element, its texts as text nodes

  const say = (el, words) => { el.textContent = words === null || words === undefined ? "" : String(words); };

  // --- talking to the rig --------------------------------------------------------------------
  let game = null;          // GET /api/game
  let loaded = null;        // the game this page opened on (another one: the page reloads)
  let paired = false;       // this phone is paired (as a player of this game or not)
  let me = null;            // GET /api/game/me (null: not paired, or not a player)
  let shownMe = "";         // the view the controls were last built from
  const picked = {};        // the player's choices on the controls, kept across pushes

  async function api(method, url, body) {
    const init = { method, credentials: "same-origin", headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    try {
      const answer = await fetch(url, init);
      let data = null;
      try { data = await answer.json(); } catch (e) { data = null; }
      return { status: answer.status, body: data };
    } catch (e) {
      return { status: 0, body: { error: "the rig cannot be reached; is this phone on its network?" } };
    }
  }

  const reason = (answer) => (answer.body && answer.body.error) || ("the rig answered " + answer.status);

  // Answers may arrive out of order: a view asked for before a command was sent must not
  // overwrite the view the command's answer gave.
  let meAsked = 0;

  async function send(body) {
    meAsked += 1;
    const answer = await api("POST", "/api/game/command", body);
    if (answer.status === 200) {
      me = answer.body;
      say($("error"), "");
      for (const key of Object.keys(picked)) delete picked[key];
    } else {
      say($("error"), reason(answer));
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
    if (answer.status === 403) say($("error"), reason(answer));
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

  function connect(attempt) {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/live");
    ws.onopen = () => { say($("link"), "live"); attempt = 0; };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "state" || !message.state || Night.follow(message.state, loaded)) return;
      stateArrived(message.state);
    };
    ws.onclose = () => {
      say($("link"), "reconnecting…");
      setTimeout(() => connect(attempt + 1), 1000 * RECONNECT_S[Math.min(attempt, RECONNECT_S.length - 1)]);
    };
  }

  $("pair").addEventListener("submit", async (event) => {
    event.preventDefault();
    const answer = await api("POST", "/api/pair", { code: $("pair-code").value.trim(),
                                                     name: $("pair-name").value.trim() });
    say($("pair-error"), answer.status === 200 ? "" : reason(answer));
    if (answer.status === 200) loadMe();
  });

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
  const money = (n) => "$" + Number(n).toLocaleString("en-US");

  // --- Stop Thief!'s pictures: the clue icons and the town map (GET /api/game/board) -------------
  const ST = (() => {
    const svg = Dom.s;         // dom.js
    const text = (x, y, words, cls) => svg("text", { x, y, class: cls }, words);
    // One small drawing a clue kind, as the rig's screen has one (rig/display/clue_icons.py).
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
    const icon = (kind) => svg("svg", { class: "icon", viewBox: "0 0 20 20", role: "img", "aria-label": kind },
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
        return h("p", { class: "dim" }, "Loading the map…");
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
                          "aria-label": "the town map with the caught thief's path" },
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
      h("p", {}, "Arrested! Thief " + a.number + ", " + a.name + ", on space " + a.space + " by " + a.by + ": " +
                 money(a.paid) + (a.crime_wave ? " (" + money(a.reward) + " reward + " + money(a.crime_wave) + " crime wave)" : "")),
      h("p", { class: "path" }, "Its path: " + a.path.join(" → ")),
      townMap(a.path));

    return { icon, arrest };
  })();

  // --- Canine Kleptomaniacs' two forms --------------------------------------------------------
  // An action card that needs the die: only the fields the chosen card takes.
  function canineCard(m, others, redraw) {
    const c = C.canine;
    const card = picked.card || (picked.card = m.choices.cards[0]);
    const fields = [];
    if (card === "key") {
      fields.push(choice("parity", ["odd", "even"], "odd or even"),
                  h("label", {}, "Cards discarded (one more roll each) ",
                    field("discards", { inputmode: "numeric", size: 2, placeholder: "0", "aria-label": "discards" })));
    }
    if (card === "charm") {
      fields.push(choice("thief", others, "who steals"));
      if (m.doggy && m.doggy.power === "charm-offensive") {
        fields.push(h("label", {}, h("input", { type: "checkbox", "aria-label": "power", checked: picked.power,
                                                onchange: (e) => { picked.power = e.target.checked; } }),
                      " my doggy's power: 2 more tries"));
      }
    }
    return h("div", {}, h("p", {}, "A card that needs the die:"),
             h("div", { class: "row" }, choice("card", m.choices.cards, "card", m.choices.card_names, redraw), ...fields,
               button("Play the card", () => c.play(picked.card, { parity: picked.parity, discards: picked.discards,
                                                                  thief: picked.thief, power: picked.power }))));
  }

  // The player's table area at the game's end, built card by card in picked (kept across
  // pushes).  It starts from what they last sent, so a correction starts from their entry.
  function canineArea(m, redraw) {
    const c = C.canine;
    const empty = () => ({ cards: [], ultimate: false, wild_as: null });
    if (!picked.places) {
      const sent = m.entry || { hiding_places: [], face_up: [], paw: false, poo_pizza: false };
      picked.places = sent.hiding_places.map((p) => Object.assign({}, p, { cards: p.cards.slice() }));
      if (!picked.places.length) picked.places.push(empty());
      picked.laid = sent.face_up.slice();
      picked.paw = sent.paw;
      picked.poo = sent.poo_pizza;
    }
    const places = picked.places, laid = picked.laid;
    const current = places[places.length - 1];
    const act = (label, change, props) => h("button", Object.assign({ type: "button",
      onclick: () => { change(); redraw(); } }, props), label);
    const standsFor = (p, i) => h("select", {
      "aria-label": "place " + (i + 1) + " Laundry Basket",
      onchange: (e) => { p.wild_as = e.target.value || null; } },
      [h("option", { value: "" }, "stands for…")].concat(m.choices.kinds.map((k) =>
        h("option", { value: k, selected: p.wild_as === k }, "as " + k))));
    const placeItem = (p, i) => h("li", {},
      "Place " + (i + 1) + (p.ultimate ? " (Ultimate)" : "") + ": " + (p.cards.join(", ") || "empty") + " ",
      p.cards.some((name) => m.choices.wild.includes(name)) ? standsFor(p, i) : null,
      p.cards.length || places.length > 1
        ? act("Remove", () => { places.splice(i, 1); if (!places.length) places.push(empty()); },
              { "aria-label": "remove place " + (i + 1) }) : null);
    const form = [
      h("p", {}, "Your Hiding Places:"),
      h("ol", { class: "places" }, places.map(placeItem)),
      h("div", { class: "row" }, choice("card_to_hide", m.choices.kinds.concat(m.choices.bedroom), "card to hide"),
        act("Hide it", () => current.cards.push(picked.card_to_hide)),
        act("Take back", () => { if (current.cards.length) current.cards.pop(); else if (places.length > 1) places.pop(); })),
      h("div", { class: "row" }, act("Next place", () => places.push(empty()), { disabled: !current.cards.length }),
        act("Ultimate", () => { current.ultimate = !current.ultimate; }, { "aria-pressed": current.ultimate ? "true" : "false" })),
      h("p", {}, "Master's Bedroom cards face up: " + (laid.join(", ") || "none")),
      h("div", { class: "row" }, choice("card_to_lay", m.choices.bedroom, "face-up card"),
        act("Lay it face up", () => laid.push(picked.card_to_lay)),
        act("Take back", () => laid.pop(), { disabled: !laid.length, "aria-label": "take back face up" })),
      h("div", { class: "row" },
        h("label", {}, h("input", { type: "checkbox", checked: picked.paw, "aria-label": "paw", onchange: (e) => { picked.paw = e.target.checked; } }), " I hold the Paw"),
        h("label", {}, h("input", { type: "checkbox", checked: picked.poo, "aria-label": "poo pizza", onchange: (e) => { picked.poo = e.target.checked; } }), " I hold the Poo Pizza")),
      button(m.entry ? "Send my correction" : "Send my Hiding Places", () => c.reveal(places, laid, picked.paw, picked.poo), true, "go"),
    ];
    if (!m.score) return form;
    // Sent and scored: the score (its lines are on the board once every score is in), and the
    // form folded away for a correction.
    return [h("p", { class: "yours" }, "Your score: " + m.score.total),
            m.phase === "final" ? null : list(m.score.lines.map((l) => l.words)),
            h("details", { open: picked.correcting, ontoggle: (e) => { picked.correcting = e.target.open; } },
              h("summary", {}, "Correct my Hiding Places"), ...form)];
  }

  // --- each game: what everyone sees, and this player's controls --------------------------------
  const GAMES = {
    "stop-thief": {
      status: (v) => v.winner ? v.winner + " retires: the winner!" : v.turn + "'s turn",
      board: (v) => [
        list(v.players.map((p) => (p.turn ? "▶ " : "") + p.name + ": " + money(p.money))),
        h("p", { class: "dim" }, "Cash to retire: " + money(v.retire)),
        v.thief.at_large ? h("p", { class: "thief" }, "Thief " + v.thief.number + ": " + v.thief.name +
          ", reward " + money(v.thief.reward) +
          (v.thief.crime_wave ? " + " + money(v.thief.crime_wave) + " crime wave = " + money(v.thief.total) : "")) : null,
        v.clues.length ? h("ol", { class: "clues" }, v.clues.map((c) =>
          h("li", { "data-kind": c.kind }, ST.icon(c.kind), " " + c.words + " (" + c.by + ")"))) : null,
        v.arrest ? ST.arrest(v.arrest) : null,
      ],
      controls: (m) => {
        const can = (m.you && m.you.can) || {};
        const c = C["stop-thief"];
        return [
          h("p", {}, "You are " + m.you.name + ", " + money(m.you.money) +
                     (m.you.your_turn ? ": your turn" : m.turn ? "; " + m.turn + "'s turn" : "")),
          h("div", { class: "row" }, button("Get a clue", c.clue(), can.clue, "go"),
            button("Replay the clue", c.replay(), can.replay),
            button("End the turn", c.endTurn(), can.end_turn)),
          h("div", { class: "row" }, field("space", { inputmode: "numeric", size: 4, placeholder: "space",
                                                        "aria-label": "space number" }),
            button("Arrest on this space", () => c.arrest(picked.space), can.arrest)),
        ];
      },
    },
    "stolen-paintings": {
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
    },
    "chest-heist": {
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
    },
    canine: {
      status: (v) => v.phase === "final" ? "Winners: " + v.winners.join(" and ")
        : v.phase === "scoring" ? "Game over: enter your Hiding Places"
        : v.dice && !v.dice.decided ? v.dice.name + ": " + v.dice.whose_roll + "'s roll" : "Playing",
      // The die's words and the newest roll stay on the board; the message line would only
      // say them again.
      message: (v, text) => {
        const roll = v.last_roll;
        return [v.dice && v.dice.words, roll && roll.player + " rolled " + roll.face + "."]
          .includes(text) ? "" : text;
      },
      board: (v) => {
        // As the rig's screen: the example card table's numbers are not a real deck's.
        const out = [v.placeholder ? h("p", { class: "pill" }, "PLACEHOLDER CARD VALUES") : null];
        const call = v.dice;          // the call being rolled, or the last one decided
        if (call && (v.phase === "playing" || !call.decided)) {
          out.push(h("p", { class: call.decided ? "outcome" : "call" }, call.words));
          if (call.rolls.length) {    // then the newest roll is this call's
            out.push(h("p", { class: "big" }, String(v.last_roll.face)),
                     h("p", { class: "caption" }, "Roll " + (v.last_roll.number + 1) + ": " +
                                                  v.last_roll.player + " rolled " + v.last_roll.face),
                     h("p", { class: "rolls" }, "Rolls: " +
                                                call.rolls.map((r) => r.player + " " + r.face).join(" · ")));
          }
        }
        out.push(h("p", { class: "end" }, "Action pile: " + v.end.left + " of " + v.end.size +
                                          " (" + v.end.ends + ")"));
        if (v.phase === "scoring") out.push(h("p", {}, "Scores in: " + (v.revealed.join(", ") || "nobody yet")));
        if (v.scores) {
          out.push(h("ol", { class: "scores" }, v.scores.map((s) => h("li", {},
            h("strong", {}, s.player + ": " + s.total + (s.winner ? " (winner)" : "")),
            list(s.lines.map((l) => l.words))))));
        }
        return out;
      },
      controls: (m) => {
        const c = C.canine;
        const acts = m.actions || [];
        const others = m.players.filter((p) => p !== m.you);
        const redraw = () => { shownMe = ""; render(); };
        const out = [];
        if (m.doggy) {
          out.push(h("p", {}, "Your doggy: " + m.doggy.name + " (" +
                              (m.doggy.face_up ? "face up" : "face down") + ")"));
        } else if (acts.includes("choose-doggy")) {
          out.push(h("div", { class: "row" }, choice("doggy", m.choices.doggies, "doggy"),
                     h("label", {}, h("input", { type: "checkbox", checked: picked.faceUp, onchange: (e) => { picked.faceUp = e.target.checked; } }), " face up"),
                     button("My doggy", () => c.doggy(picked.doggy, picked.faceUp))));
        }
        const row = h("div", { class: "row" });
        if (acts.includes("roll")) row.append(button("Roll the die", c.roll(), true, "go"));
        if (acts.includes("draw")) row.append(button("I drew an Action card", c.draw()));
        if (acts.includes("deck-empty")) {
          row.append(button("Action pile empty", c.empty("action")),
                     button("Collectables empty", c.empty("collectables")));
        }
        out.push(row);
        if (acts.includes("play")) out.push(canineCard(m, others, redraw));
        if (acts.includes("reveal")) out.push(...canineArea(m, redraw));
        return out;
      },
    },
  };

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

  // --- after the game, and the games recorded here ------------------------------------------------
  // The next game is chosen from a paired phone (README "The heist game night"): the rig
  // switches to it and every phone follows; each game is a new recording, listed below.
  function renderAfter() {
    $("after").hidden = !game.over;
    if (!game.over) return;
    say($("outcome"), game.outcome);
    say($("again"), paired
      ? "To play again, or another game, choose it under \u201cPlay another game\u201d below: the rig switches to it and every phone follows. Each game is a new recording, listed below."
      : "To play again, or another game, pair this phone (above), then choose it under \u201cPlay another game\u201d: the rig switches to it and every phone follows.");
  }

  function when(stamp) {
    const date = new Date(stamp);
    return Number.isNaN(date.getTime()) ? stamp :
      date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }

  // One recording: its game and date, players and result (its replay's), and its file.
  function recordingItem(r) {
    const url = "/api/game/recordings/" + encodeURIComponent(r.id);
    return h("li", { class: "recording", "data-recording": r.id },
      h("p", { class: "date" }, (r.title || r.id) + " · " + when(r.date) + (r.live ? " · this game" : "")),
      r.error ? h("p", { class: "error" }, r.error) : [
        h("p", {}, r.players.join(", ")),
        h("p", { class: "outcome" }, r.outcome),
        r.torn ? h("p", { class: "hint" }, "The last line is torn: the rig stopped while writing it.") : null],
      h("a", { class: "download", href: url + "/recording", download: r.id + ".jsonl" },
        "Download the recording"));
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
    const rules = GAMES[game.game];
    if (!rules) return;
    say($("title"), TITLES[game.game]);
    document.title = TITLES[game.game];
    const status = rules.status(game.view);
    say($("status"), status);
    if (status !== shownStatus) {           // a new turn, round or result: the list follows
      shownStatus = status;
      loadRecordings();
    }
    renderAfter();
    const message = game.message || game.view.message;       // Stop Thief! keeps its calls in its view
    say($("message"), rules.message ? rules.message(game.view, message) : message);
    $("board").replaceChildren(...rules.board(game.view).filter(Boolean));
    const mine = JSON.stringify(me);
    if (mine !== shownMe) {                  // rebuilt only when this player's view changed
      shownMe = mine;
      if (me) $("controls").replaceChildren(...rules.controls(me).filter(Boolean));
    }
    $("controls").hidden = !me || game.over;  // once over, the after-game says what is next
    Night.show($("night"), { current: game.game, paired, players: game.players,
                              inProgress: !game.over });
  }

  (async () => {
    const answer = await api("GET", "/api/game");
    if (answer.status === 404) {            // Cleptómano runs: its page
      location.replace("/");
      return;
    }
    if (answer.status !== 200) {
      say($("status"), reason(answer));
      return;
    }
    game = answer.body;
    loaded = game.game;
    Night.mount($("night"));
    await loadMe();
    connect(0);
  })();
})();
