// The leaderboard page: asks the server for the standings every second and draws them.  Every
// name and word from the rigs is set as text (never as HTML): they came from the broker.  The
// page's own words are t("rig.board...") in the reader's language (/dom.js, its picker).
"use strict";  // not words: the directive

// The static page's words (its data-t elements, filled by dom.js), for the catalog tools.
const PAGE_WORDS = [
  N_("rig.board.page_title"), N_("rig.board.tournament"), N_("rig.board.waiting"),
  N_("rig.board.standings"), N_("rig.board.player"), N_("rig.board.won"),
  N_("rig.board.won_title"), N_("rig.board.played"), N_("rig.board.played_title"),
  N_("rig.board.rounds"), N_("rig.board.rounds_title"), N_("rig.board.points"),
  N_("rig.board.best_title"), N_("rig.board.tiebreak"), N_("rig.board.tiebreak_title"),
  N_("rig.board.no_players"), N_("rig.board.tables"), N_("rig.board.no_rigs"),
];

const REFRESH_MS = 1000;
const PHONE = window.matchMedia("(max-width: 700px)");

function layout() {
  const phone = location.pathname === "/phone" || PHONE.matches;
  document.body.classList.toggle("phone", phone);
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function seconds(s) {
  if (s === null || s === undefined) return "–";
  return t("rig.board.seconds", { s: s.toFixed(2) });
}

function clock(s) {
  const whole = Math.max(0, Math.ceil(s));
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

function playerRow(p) {
  const tr = el("tr", null, "rank-" + p.rank);
  tr.append(el("td", p.rank, "num rank"), el("td", p.name, "name"),  // not words: CSS classes
            el("td", p.matches_won, "num"), el("td", p.matches_played, "num"),
            el("td", p.round_wins, "num wide"), el("td", p.points, "num"),  // not words: CSS classes
            el("td", p.best_solo_title || "–", "title wide"),  // not words: CSS classes
            el("td", seconds(p.fastest_tiebreak_s), "num wide"));  // not words: CSS classes
  return tr;
}

function liveLine(live) {
  const line = el("div", null, "live");
  if (live.phase === "turn" && live.thief) {
    line.append(el("span", live.guard
      ? t("rig.board.turn_guarded", { round: live.round, thief: live.thief, guard: live.guard })
      : t("rig.board.turn", { round: live.round, thief: live.thief })));
    if (live.remaining_s !== null && live.remaining_s !== undefined)
      line.append(el("span", clock(live.remaining_s), "clock"));
  } else if (live.phase === "over") {
    line.textContent = live.winner ? t("rig.board.wins", { player: live.winner }) :
                       (live.title ? t("rig.board.title", { title: live.title }) : t("rig.board.over"));
  } else {
    line.textContent = t("rig.board.between", { round: live.round });
  }
  return line;
}

function rigItem(r) {
  const live = r.status === "online" ? r.live : null;
  const li = el("li", null, r.status === "online" ? "online" : "offline");
  if (live && live.phase === "turn") li.classList.add("turn");
  const head = el("div", null, "rig-head");
  let status = r.status || t("rig.board.no_status");
  if (r.status === "offline") status = t("rig.board.offline");
  if (r.status === "online") {
    status = live && live.phase === "turn" ? t("rig.board.playing") : t("rig.board.online");
  }
  head.append(el("span", r.rig), el("span", status, "state"));
  li.append(head);
  if (live) {
    li.append(el("div", live.players.join(", "), "meta"), liveLine(live));
  }
  li.append(el("div", r.undecided ? t("rig.board.decided_unfinished", { n: r.matches,
    unfinished: r.undecided }) : t("rig.board.decided", { n: r.matches }), "meta"));
  return li;
}

function draw(data) {
  last = data;
  const players = document.getElementById("players");
  players.replaceChildren(...data.players.map(playerRow));
  document.getElementById("no-players").hidden = data.players.length > 0;
  const rigs = document.getElementById("rigs");
  rigs.replaceChildren(...data.rigs.map(rigItem));
  document.getElementById("no-rigs").hidden = data.rigs.length > 0;
  // The big screen's type grows to fill the room's screen with what it shows (board.css).
  document.body.style.setProperty("--rows",
    String(Math.max(6, data.players.length, Math.ceil(data.rigs.length * 1.6))));
  const decided = data.matches.filter(m => m.decided).length;
  const online = data.rigs.filter(r => r.status === "online").length;
  // The summary is a live region: written when it changed, not at every refresh (issue 30).
  Dom.put(document.getElementById("summary"), [
    t("rig.board.matches_decided", { n: decided }),
    t("rig.board.players_n", { n: data.players.length }),
    t("rig.board.tables_online", { online, n: data.rigs.length })].join(" · "));
  document.getElementById("updated").textContent =
    t("rig.board.updated", { time: new Date().toLocaleTimeString(Words.locale) });
}

async function refresh() {
  try {
    const answer = await fetch("/api/standings", {cache: "no-store"});
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    draw(await answer.json());
  } catch (err) {
    document.getElementById("updated").textContent = t("rig.board.no_answer");
  }
  setTimeout(refresh, REFRESH_MS);
}

let last = null;               // the standings drawn last, drawn again in another language

layout();
PHONE.addEventListener("change", layout);
document.getElementById("picker").replaceChildren(Words.picker());
Words.onChange(() => { if (last) draw(last); });
Words.ready.then(refresh);
