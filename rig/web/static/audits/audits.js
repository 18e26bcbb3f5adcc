// The host phone's audits page (issue 31, docs/games/phones.md): the audits of the rig's
// recordings (GET /api/audits[?since=YYYY-MM-DD], the JSON of `cleptomano audits --json`) as
// pictures where a picture reads better, each with its numbers beside it:
//
//   the nights      a choice of nights (since), and the CSV of what is shown (/api/audits.csv)
//   matches         per night, a small bar chart; per game, a table
//   the corridor    the rods drawn across the corridor, each with its touches, voided touches
//                   and faults (glitches and stuck periods) as three bars; a table beside
//   the rest        the other inputs, thieves caught and escaped per level, the devices,
//                   the sensor health's warnings (the builder's English, as the log has it)
//   service mode    a button: POST /api/service opens it at the rig's screen
//
// Only the table's host phone reads them: any other phone gets the rig's refusal, in its words.
// Every text from the rig goes on the page as text (dom.js), never as HTML.
"use strict";  // not words: the directive

(() => {
  const { h, s } = Dom;
  const main = () => document.getElementById("audits");
  const COUNTS = {
    touches: N_("rig.audits.touches"), voided: N_("rig.audits.voided"),
    glitches: N_("rig.audits.glitches"), stuck: N_("rig.audits.stuck"),
    lifts: N_("rig.audits.lifts"), moves: N_("rig.audits.moves"), falls: N_("rig.audits.falls"),
    hand_in: N_("rig.audits.hand_in"), started: N_("rig.audits.started"),
    finished: N_("rig.audits.finished"), abandoned: N_("rig.audits.abandoned"),
    running: N_("rig.audits.running"), caught: N_("rig.audits.caught"),
    escaped: N_("rig.audits.escaped"), lost: N_("rig.audits.lost"), back: N_("rig.audits.back_again"),
    reinit: N_("rig.audits.reinit"), faults: N_("rig.audits.faults"),
  };
  const said = (key) => (COUNTS[key] ? t(COUNTS[key]) : key);
  const number = (n) => t("rig.audits.number", { count: n });
  let since = new URLSearchParams(location.search).get("since") || "";
  let nights = null;          // every night the recordings hold (the choice's options)
  let shown = null;           // the audits shown now
  let serviceNote = "";
  let titles = {};            // each game's title in this phone's words (GET /api/games)

  async function get(url) {
    try {
      const response = await fetch(url, { credentials: "same-origin",
        headers: { "Accept": "application/json" } });
      const body = await response.json().catch(() => null);
      return { ok: response.ok, status: response.status, body };
    } catch (err) {
      return { ok: false, status: 0, body: { error: t("rig.phone.unreachable") } };
    }
  }

  const query = () => (since ? "?since=" + encodeURIComponent(since) : "");

  // --- the pictures ----------------------------------------------------------------------------
  // Matches per night: one bar a night, its count above it.
  function nightsChart(perNight) {
    const days = Object.keys(perNight);
    const most = Math.max(1, ...Object.values(perNight));
    const W = 320, H = 140, bottom = 110, left = 10, step = (W - 2 * left) / Math.max(days.length, 1);
    const bar = Math.min(40, step * 0.7);
    const label = t("rig.audits.nights_chart", { nights: days.map((d) =>
      t("rig.audits.night_count", { night: d, count: perNight[d] })) });
    return s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
      id: "nights-chart" },
      s("line", { class: "axis", x1: left, y1: bottom, x2: W - left, y2: bottom }),
      days.map((day, i) => {
        const x = left + i * step + (step - bar) / 2;
        const height = Math.round((perNight[day] / most) * 80);
        return s("g", {},
          s("rect", { class: "night", x, y: bottom - height, width: bar, height }),
          s("text", { x: x + bar / 2, y: bottom - height - 4, "text-anchor": "middle" },
            number(perNight[day])),
          s("text", { x: x + bar / 2, y: bottom + 16, "text-anchor": "middle" }, day.slice(5)));
      }));
  }

  // The corridor from above: its rods across it, in order, each with three bars under it.
  function corridorChart(rods) {
    const W = 320, H = 190, top = 20, floor = 70, left = 16;
    const step = (W - 2 * left) / Math.max(rods.length, 1);
    const most = Math.max(1, ...rods.map(([, c]) => Math.max(c.touches || 0, c.voided || 0,
      (c.glitches || 0) + (c.stuck || 0))));
    const label = t("rig.audits.corridor_chart", { rods: rods.map(([name, c]) =>
      t("rig.audits.rod_counts", { rod: rodNumber(name), touches: c.touches || 0,
        voided: c.voided || 0, faults: (c.glitches || 0) + (c.stuck || 0) })) });
    return s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
      id: "corridor-chart" },
      s("rect", { class: "corridor", x: left / 2, y: top, width: W - left, height: floor - top,
        rx: 6 }),
      rods.map(([name, c], i) => {
        const x = left + i * step + step / 2;
        const bars = [["touches", c.touches || 0], ["voided", c.voided || 0],
          ["faults", (c.glitches || 0) + (c.stuck || 0)]];
        const w = Math.min(12, step / 4);
        return s("g", { "data-rod": name },
          s("line", { class: "rod", x1: x, y1: top + 4, x2: x, y2: floor - 4 }),
          s("text", { x, y: top - 6, "text-anchor": "middle" }, rodNumber(name)),
          bars.map(([kind, n], j) => {
            const height = Math.round((n / most) * 70);
            const bx = x - 1.5 * w + j * w;
            return s("rect", { class: kind, x: bx, y: floor + 10, width: w - 1,
              height: Math.max(height, n ? 2 : 0) });
          }),
          s("text", { x, y: H - 4, "text-anchor": "middle" }, number(c.touches || 0)));
      }));
  }

  const rodNumber = (name) => name.replace(/^laser\./, "");

  function legend() {
    return h("p", {}, ["touches", "voided", "faults"].map((kind) =>
      h("span", { class: "key" }, h("span", { class: "swatch " + kind }),
        said(kind))));
  }

  // A table of counts: one row a name, one column a count.
  function table(caption, first, rows, columns, kind) {
    return h("table", { class: kind || null },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, first),
        columns.map((c) => h("th", { scope: "col" }, said(c))))),
      h("tbody", {}, rows.map(([name, counts]) => h("tr", {},
        h("th", { scope: "row" }, name),
        columns.map((c) => h("td", {}, number(counts[c] || 0)))))));
  }

  // --- the page --------------------------------------------------------------------------------
  function nightsCard() {
    const select = h("select", { id: "since", onchange: () => {
      since = select.value;
      history.replaceState(null, "", location.pathname + query());
      load();
    } },
    h("option", { value: "" }, t("rig.audits.all_nights")),
    nights.map((night) => h("option", { value: night },
      t("rig.audits.from_night", { night }))));
    select.value = nights.includes(since) ? since : "";
    if (since && !nights.includes(since)) {
      select.append(h("option", { value: since }, t("rig.audits.from_night", { night: since })));
      select.value = since;
    }
    return h("section", { class: "card", "aria-labelledby": "nights-h" },
      h("h2", { id: "nights-h" }, t("rig.audits.nights_heading")),
      h("label", { for: "since" }, t("rig.audits.nights_label")), select,
      h("p", { class: "dim" }, t("rig.audits.recordings", { count: shown.recordings })),
      h("a", { id: "csv", class: "csv", href: "/api/audits.csv" + query(), download: "" },
        t("rig.audits.csv")));
  }

  function matchesCard() {
    const games = Object.entries(shown.matches);
    return h("section", { class: "card", "aria-labelledby": "matches-h" },
      h("h2", { id: "matches-h" }, t("rig.audits.matches_heading")),
      Object.keys(shown.nights).length ? nightsChart(shown.nights)
        : h("p", { class: "dim" }, t("rig.audits.no_match")),
      games.map(([game, counts]) => h("table", { class: "game", "data-game": game },
        h("caption", {}, t("rig.audits.game_caption", { game: titles[game] || game })),
        h("tbody", {}, ["started", "finished", "abandoned", "running"].map((c) =>
          h("tr", {}, h("th", { scope: "row" }, said(c)), h("td", {}, number(counts[c] || 0))))))));
  }

  function corridorCard() {
    const rods = Object.entries(shown.touches).filter(([name]) => /^laser\.\d+$/.test(name))
      .sort((a, b) => Number(rodNumber(a[0])) - Number(rodNumber(b[0])));
    if (!rods.length) return null;
    return h("section", { class: "card", "aria-labelledby": "corridor-h" },
      h("h2", { id: "corridor-h" }, t("rig.audits.corridor_heading")),
      corridorChart(rods), legend(),
      table(t("rig.audits.rods_caption"), t("rig.audits.rod"),
        rods.map(([name, c]) => [rodNumber(name), c]),
        ["touches", "voided", "glitches", "stuck"], "rods"));
  }

  function othersCard() {
    const others = Object.entries(shown.touches).filter(([name]) => !/^laser\.\d+$/.test(name));
    const levels = Object.entries(shown.levels);
    const devices = Object.entries(shown.devices);
    return h("section", { class: "card", "aria-labelledby": "others-h" },
      h("h2", { id: "others-h" }, t("rig.audits.others_heading")),
      others.map(([name, counts]) => h("p", { class: "dim", "data-input": name }, name + ": " +
        Object.entries(counts).map(([k, n]) => said(k) + " " + number(n)).join(", "))),
      levels.length ? table(t("rig.audits.levels_caption"), t("rig.audits.level"), levels,
        ["caught", "escaped"]) : null,
      devices.length ? table(t("rig.audits.devices_caption"), t("rig.audits.device"), devices,
        ["lost", "back", "reinit"]) : null,
      h("p", {}, t("rig.audits.restarts", { count: shown.restarts })),
      h("p", {}, t("rig.audits.uptime", { hours: Math.round(shown.uptime_s / 36) / 100 })));
  }

  function healthCard() {
    return h("section", { class: "card", "aria-labelledby": "health-h" },
      h("h2", { id: "health-h" }, t("rig.audits.health_heading")),
      shown.health.length ? h("ul", {}, shown.health.map((w) =>
        h("li", { class: "warning", lang: "en" }, w.text)))
        : h("p", { class: "dim" }, t("rig.audits.no_warning")));
  }

  function serviceCard() {
    const note = h("p", { id: "service-note", role: "status" }, serviceNote);
    const button = h("button", { id: "service", type: "button", class: "go",
      onclick: async () => {
        button.disabled = true;
        let answer;
        try {
          const response = await fetch("/api/service", { method: "POST",
            credentials: "same-origin",
            headers: { "Accept": "application/json", "Content-Type": "application/json" },
            body: "{}" });
          answer = { ok: response.ok, body: await response.json().catch(() => null) };
        } catch (err) {
          answer = { ok: false, body: { error: t("rig.phone.unreachable") } };
        }
        serviceNote = answer.ok ? t("rig.audits.service_opened")
          : (answer.body && answer.body.error) || t("rig.phone.unreachable");
        note.textContent = serviceNote;
        button.disabled = false;
      } }, t("rig.audits.open_service"));
    return h("section", { class: "card", "aria-labelledby": "service-h" },
      h("h2", { id: "service-h" }, t("rig.audits.service_heading")),
      h("p", { class: "dim" }, t("rig.audits.service_help")), button, note);
  }

  function render() {
    const root = main();
    Dom.keepFocus(root, () => {
      root.replaceChildren(h("h1", {}, t("rig.audits.heading")),
        nightsCard(), matchesCard(), corridorCard(), othersCard(), healthCard(),
        serviceCard());
    });
  }

  function refused(text) {
    main().replaceChildren(h("h1", {}, t("rig.audits.heading")),
      h("p", { id: "state", class: "error", role: "alert" }, text),
      h("p", {}, h("a", { href: "/" }, t("rig.audits.back"))));
  }

  async function load() {
    // Every night first (the choice's options), once; then the nights chosen (one reading at a
    // time: the rig reads the recordings for one request at once).
    if (nights === null) {
      const all = await get("/api/audits");
      if (!all.ok) return refused((all.body && all.body.error) || t("rig.phone.unreachable"));
      nights = Object.keys(all.body.nights);
      if (!since) {
        shown = all.body;
        return render();
      }
    }
    const answer = await get("/api/audits" + query());
    if (!answer.ok) return refused((answer.body && answer.body.error) || t("rig.phone.unreachable"));
    shown = answer.body;
    render();
  }

  async function named() {
    const games = await get("/api/games");
    titles = games.ok && Array.isArray(games.body)
      ? Object.fromEntries(games.body.map((g) => [g.name, g.title])) : {};
  }

  async function boot() {
    document.getElementById("picker").replaceChildren(Words.picker());
    await Words.ready;
    Words.onChange(async () => {
      await named();
      return shown ? render() : load();
    });
    await named();
    await load();
  }

  boot();
})();
