// The one phone page's shared chrome, for every game (docs/games/phones.md): the bar (the game's
// title, the connection, the language picker, who this phone is), pairing, the push channel
// (GET /api/state, then WS /api/live), the game night's panel (night.js), and the running
// game's part, loaded from its folder:
//
//   GET /api/playing                 {game, title, parts: ["js", "html", "css"]}: what it has
//   /games/phone/NAME.js             registers window.GamePhones[NAME] = (kit) => part
//   /games/phone/NAME.html, .css     its markup (put in #part) and its style, if it has them
//
// A part is either a page of its own (it has mount(): its markup is its phone.html) or a
// game's status, board and controls, set in the games' frame (games.js, /games/frame.html,
// /games/games.css).  The shell calls part.mount(), then part.receive(message) for every
// message of the push channel (README "Phone companion": {"type": "state"} and {"type":
// "call"}) and part.relanguage() after the picker changed the language.  The page knows no
// game by name: the rig says which one runs.  Every text from the rig goes on the page as text
// (dom.js), never as HTML; a part's markup is the rig's own file, parsed, never a text.
"use strict";  // not words: the directive

(() => {
  const RECONNECT_S = [0.5, 1, 2, 4, 8];
  const LINK = { live: N_("rig.phone.live"), connecting: N_("rig.phone.connecting"),
    lost: N_("rig.phone.offline"), reconnecting: N_("rig.phone.reconnecting") };
  const $ = (id) => document.getElementById(id);

  // --- talking to the rig --------------------------------------------------------------------
  // One reason from an answer: the rig's JSON error, else the status line.
  function reasonOf(status, body) {
    if (body && typeof body === "object") {
      for (const key of ["error", "reason", "detail", "message"]) {
        if (typeof body[key] === "string" && body[key]) return body[key];
      }
    }
    if (typeof body === "string" && body.trim()) return body.trim();
    return t("rig.phone.rig_answered", { status: String(status) });
  }

  // A read (GET) whose connection was dropped before its answer (the venue's Wi-Fi, or a busy
  // rig letting go of a connection for a new one while the page loads anew after a switch or
  // a restart) is sent again at once, then after a short wait, so the page never waits on an
  // answer that will not come (issue 30).  A command is never sent twice.
  const RETRY_S = [0, 0.25, 0.5, 1, 2];

  async function fetchRead(url, init) {
    const again = !init.method || init.method === "GET";   // not words: an HTTP method
    for (let tried = 0; ; tried += 1) {
      try {
        return await fetch(url, init);
      } catch (err) {
        if (!again || tried >= RETRY_S.length) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_S[tried] * 1000));
      }
    }
  }

  // {status, ok, body, reason}: reason the rig's words for a refusal (null when ok).
  async function call(method, url, payload) {
    const init = { method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (payload !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(payload);
    }
    let response;
    try {
      response = await fetchRead(url, init);
    } catch (err) {
      return { status: 0, ok: false, body: { error: t("rig.phone.unreachable") },
               reason: t("rig.phone.unreachable") };
    }
    const type = response.headers.get("Content-Type") || "";
    let body = null;
    try {
      body = type.includes("json") ? await response.json() : await response.text();
    } catch (err) {
      body = null;
    }
    return { status: response.status, ok: response.ok, body,
      reason: response.ok ? null : reasonOf(response.status, body) };
  }

  async function text(url) {
    try {
      const response = await fetchRead(url, { credentials: "same-origin" });
      return response.ok ? await response.text() : null;
    } catch (err) {
      return null;
    }
  }

  // --- pairing: this phone's session (the cookie), shared by every game's part ---------------
  // A phone is a player's seat (docs/games/phones.md): the QR's address carries the code (?pair=),
  // the seats are the match's players (GET /api/seats), "Leave" in the bar ends the session
  // (POST /api/unpair), a paired phone moves seat without the code (POST /api/seat).
  const linkCode = (() => {
    const params = new URLSearchParams(location.search);
    const code = (params.get("pair") || "").replace(/\D/g, "");
    if (params.has("pair")) {           // the code leaves the address bar and the history
      params.delete("pair");
      const rest = params.toString();
      history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
    }
    return code.length === 6 ? code : "";
  })();

  const pairing = {
    name: null,               // this phone's name once paired (GET /api/session says)
    linkCode,                 // the code the QR's address carried ("" without one)
    boot: null,               // the rig's run the seats were last read from
    listeners: [],
    set(name) {
      this.name = name || null;
      for (const fn of this.listeners) fn(this.name);
    },
    onChange(fn) { this.listeners.push(fn); },
    async load() {
      const session = await call("GET", "/api/session");
      if (session.ok) this.set(session.body.name);
      return this.name;
    },
    // POST /api/pair: the answer; on success the phone is paired under its name.  The code
    // as the screen shows it ("980 219") or typed without its space.
    async pair(code, name) {
      const answer = await call("POST", "/api/pair", { code: String(code).replace(/\s+/g, ""), name });
      if (answer.ok) this.set(answer.body.name);
      return answer;
    },
    // GET /api/seats: {seats: [{name, free}], paired, name, seat, boot}.
    async seats() {
      return call("GET", "/api/seats");
    },
    // POST /api/seat: a paired phone sits at another seat (no code needed).
    async sit(name) {
      const answer = await call("POST", "/api/seat", { name });
      if (answer.ok) this.set(answer.body.name);
      return answer;
    },
    // POST /api/unpair: "Leave".
    async leave() {
      const answer = await call("POST", "/api/unpair");
      if (answer.ok || answer.status === 401) this.set(null);
      return answer;
    },
    // The match's seats as buttons in ``box``: a tap calls pick(name); a seat another phone
    // holds is shown, not offered.  Returns the seats' answer.
    async chips(box, pick) {
      const answer = await this.seats();
      const seats = answer.ok ? answer.body.seats : [];
      const mine = answer.ok ? answer.body.seat : null;
      box.replaceChildren(...seats.map((seat) => Dom.h("button", {
        type: "button", class: "seat", "data-seat": seat.name,
        "aria-pressed": seat.name === mine ? "true" : "false",
        disabled: !seat.free && seat.name !== mine,
        onclick: () => pick(seat.name),
      }, seat.free || seat.name === mine ? seat.name
        : t("rig.phone.seat_held", { name: seat.name }))));
      box.hidden = seats.length === 0;
      return answer;
    },
  };

  // "Leave" in the bar, on every page, while this phone is paired.
  const leave = Dom.h("button", { id: "leave", class: "leave", type: "button", hidden: true,
    onclick: async () => {
      leave.disabled = true;
      await pairing.leave();
      leave.disabled = false;
    } });
  const notice = Dom.h("p", { id: "notice", class: "notice", role: "status", hidden: true });
  // The table's host phone (issue 31): its way to the audits and service mode; on the other
  // phones, which phone is host.  The snapshots say which (their phones' "host").
  let tableHost = null;
  const hostLine = Dom.h("span", { id: "host-line", class: "host-line", hidden: true });
  // Under the bar (the bar is full on a phone): the restart's notice, the host, and Leave.
  const seatline = Dom.h("div", { id: "seatline", class: "seatline" }, notice, hostLine, leave);
  function renderLeave() {
    leave.textContent = t("rig.phone.leave");
    leave.hidden = !pairing.name;
    const mine = Boolean(tableHost) && tableHost === pairing.name;
    hostLine.replaceChildren(mine ? Dom.h("a", { id: "host-link", href: "/audits/" },
      t("rig.phone.host_link")) : t("rig.phone.table_host", { name: tableHost || "" }));
    hostLine.hidden = !tableHost;
    seatline.hidden = leave.hidden && notice.hidden && hostLine.hidden;
  }
  function hostFrom(message) {
    const phones = message.type === "state" && message.state ? message.state.phones : null;
    const host = phones && typeof phones === "object" ? phones.host || null : null;
    if (phones !== undefined && host !== tableHost) {
      tableHost = host;
      renderLeave();
    }
  }
  pairing.onChange(renderLeave);

  // The rig restarted (its push channel came back from another run): say so at once, and
  // the page follows the pairing as the rig has it now (kept for the night: the phone is
  // still at its seat; else the part offers the seats again).
  // A page that showed "the rig stopped" loads anew once the rig is back; the run it knew is
  // kept for the new page (sessionStorage: this tab only) so that it can say "still Ana".
  const BOOT_KEY = "rig.boot_before_stop";    // not words: a storage key

  function reloadAfterStop() {
    try { sessionStorage.setItem(BOOT_KEY, String(pairing.boot)); } catch (err) { /* none */ }
    location.reload();
  }

  function takeBootBeforeStop() {
    try {
      const kept = sessionStorage.getItem(BOOT_KEY);
      sessionStorage.removeItem(BOOT_KEY);
      return kept === null || kept === "null" ? null : kept;
    } catch (err) {
      return null;
    }
  }

  async function rejoined() {
    const answer = await pairing.seats();
    if (!answer.ok) return;
    const before = pairing.boot;
    pairing.boot = answer.body.boot;
    const wasPaired = Boolean(pairing.name);
    if (before !== null && before !== answer.body.boot) {
      notice.textContent = answer.body.paired
        ? t("rig.phone.restarted_seated", { name: answer.body.name })
        : wasPaired ? t("rig.phone.restarted_pair") : t("rig.phone.restarted");
      notice.hidden = false;
      renderLeave();
      setTimeout(() => { notice.hidden = true; renderLeave(); }, 10000);
    }
    if ((answer.body.name || null) !== pairing.name) pairing.set(answer.body.name);
  }

  // --- the push channel ----------------------------------------------------------------------
  let socket = null;
  let attempt = 0;
  let part = null;
  let opened = undefined;     // the game the first snapshot named (null: one that names none)

  function setLink(state) {
    const el = $("link");
    el.dataset.state = state;
    el.textContent = t(LINK[state]);
  }

  // Another game on the rig now (the night switched): the page opens again, on its part.
  function follows(message) {
    if (message.type !== "state" || !message.state) return false;
    const game = message.state.game || null;
    if (opened === undefined) opened = game;
    if (game === opened) return false;
    location.reload();
    return true;
  }

  // The rig stopped (Ctrl-C, systemd): its words instead of the game's part (a countdown
  // would freeze), said once (role="status"), until the rig is back and the page reloads.
  let stoppedNote = null;
  function rigStopped(text) {
    if (!stoppedNote) {
      stoppedNote = Dom.h("p", { id: "stopped", class: "stopped", role: "status" });
      $("part").before(stoppedNote);
    }
    stoppedNote.textContent = text;
    $("part").hidden = true;
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";  // not words: URL schemes
    setLink(attempt ? "reconnecting" : "connecting");
    // The socket asks for the page's language: a WebSocket's handshake may not carry the
    // browser's Accept-Language, and the cookie is set only by the picker.
    socket = new WebSocket(scheme + "//" + location.host + "/api/live?lang=" +  // not words: a URL
      encodeURIComponent(Words.language));
    socket.addEventListener("open", () => {
      const again = attempt > 0;
      attempt = 0;
      setLink("live");
      if (again) rejoined();
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (message.type === "stopped") { rigStopped(message.text); return; }
      // The rig is back: the page anew, once the new rig pushes (a rig still starting its
      // first game accepts the socket and closes it at once: the page keeps trying then).
      if (stoppedNote) { reloadAfterStop(); return; }
      hostFrom(message);
      if (!follows(message) && part) part.receive(message);
    });
    socket.addEventListener("close", () => {
      setLink("lost");
      const wait = RECONNECT_S[Math.min(attempt, RECONNECT_S.length - 1)];
      attempt += 1;
      setTimeout(connect, wait * 1000);
    });
  }

  // --- the running game's part -----------------------------------------------------------------
  // A part's style and script: loaded again after a short wait when their connection was
  // dropped (as a read is: fetchRead).
  function element(make, again, tried = 0) {
    return new Promise((resolve) => {
      const el = make();
      el.addEventListener("load", () => resolve(true));
      el.addEventListener("error", () => {
        if (!again || tried >= RETRY_S.length) { resolve(false); return; }
        el.remove();
        setTimeout(() => element(make, again, tried + 1).then(resolve), RETRY_S[tried] * 1000);
      });
      document.head.append(el);
    });
  }

  function style(href) {
    return element(() => Dom.h("link", { rel: "stylesheet", href }), true);
  }

  // ``again``: the rig said the game has this script (a game without one: no second try).
  function script(src, again) {
    return element(() => Dom.h("script", { src }), again);
  }

  // The rig's own markup file, parsed (never a text of the rig's: those go in as text).
  async function markup(url) {
    const source = await text(url);
    if (source === null) return [];
    const parsed = new DOMParser().parseFromString(source, "text/html");
    return [...parsed.body.childNodes].map((node) => document.adoptNode(node));
  }

  async function load(playing) {
    const name = playing.game;
    const base = "/games/phone/" + encodeURIComponent(name);
    const has = (kind) => (playing.parts || []).includes(kind);
    const loaded = await script(base + ".js", has("js"));
    const make = loaded ? (window.GamePhones || {})[name] : null;
    const kit = { h: Dom.h, s: Dom.s, append: Dom.append, t, call, api: call, pairing,
                  game: { name, title: playing.title }, who: $("who") };
    GameFrame.fill(kit);        // the frame's controls, for a game set in it
    const made = make ? make(kit) : null;
    const own = Boolean(made && made.mount);
    const fragment = own ? (has("html") ? base + ".html" : null) : "/games/frame.html";
    const sheet = own ? (has("css") ? base + ".css" : null) : "/games/games.css";
    const [nodes] = await Promise.all([fragment ? markup(fragment) : [],
                                       sheet ? style(sheet) : null]);
    $("part").replaceChildren(...nodes);
    Words.fill($("part"));
    if ($("night")) Night.mount($("night"));
    document.body.hidden = false;
    if (!made) {
      $("part").replaceChildren(Dom.h("p", { class: "error" },
        t("rig.phone.no_script", { game: name })));
      return null;
    }
    return own ? made : GameFrame.frame(kit, made);
  }

  async function boot() {
    $("picker").replaceChildren(Words.picker());
    document.querySelector("header.bar").after(seatline);  // not words: a selector
    await Words.ready;
    renderLeave();
    let playing = await call("GET", "/api/playing");
    for (const wait_s of RECONNECT_S) {          // a game starting: its face in a moment
      if (playing.ok) break;
      await new Promise((resolve) => setTimeout(resolve, wait_s * 1000));
      playing = await call("GET", "/api/playing");
    }
    if (!playing.ok) {
      document.body.hidden = false;
      $("part").replaceChildren(Dom.h("p", { class: "error" }, playing.reason));
      return;
    }
    $("title").textContent = playing.body.title;
    document.title = playing.body.title;
    part = await load(playing.body);
    if (!part) return;
    Words.onChange(async () => {
      setLink($("link").dataset.state || "connecting");
      renderLeave();
      await part.relanguage();
      if (socket) socket.close();               // it connects again, in the new language
    });
    await pairing.load();
    const seats = await pairing.seats();
    if (seats.ok) pairing.boot = seats.body.boot;
    const stopped = takeBootBeforeStop();
    if (stopped !== null && seats.ok) {       // reloaded after a stop: say the seat it keeps
      pairing.boot = stopped;
      await rejoined();
    }
    await part.mount();
    const first = await call("GET", "/api/state");
    if (first.ok) hostFrom({ type: "state", state: first.body });
    if (first.ok && !follows({ type: "state", state: first.body })) {
      part.receive({ type: "state", state: first.body });
    }
    connect();
  }

  document.body.hidden = true;      // until the part's style is in
  boot();
})();
