// The leaderboard page: asks the server for the standings every second and draws them.  Every
// name and word from the rigs is set as text (never as HTML): they came from the broker.
"use strict";

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
  return s.toFixed(2) + " s";
}

function clock(s) {
  const whole = Math.max(0, Math.ceil(s));
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

function playerRow(p) {
  const tr = el("tr", null, "rank-" + p.rank);
  tr.append(el("td", p.rank, "num rank"), el("td", p.name, "name"),
            el("td", p.matches_won, "num"), el("td", p.matches_played, "num"),
            el("td", p.round_wins, "num wide"), el("td", p.points, "num"),
            el("td", p.best_solo_title || "–", "title wide"),
            el("td", seconds(p.fastest_tiebreak_s), "num wide"));
  return tr;
}

function liveLine(live) {
  const line = el("div", null, "live");
  if (live.phase === "turn" && live.thief) {
    line.append(el("span", "Round " + live.round + ": " + live.thief + " steals" +
                   (live.guard ? ", " + live.guard + " guards" : "")));
    if (live.remaining_s !== null && live.remaining_s !== undefined)
      line.append(el("span", clock(live.remaining_s), "clock"));
  } else if (live.phase === "over") {
    line.textContent = live.winner ? live.winner + " wins the match" :
                       (live.title ? "Title: " + live.title : "Match over");
  } else {
    line.textContent = "Between turns, round " + live.round;
  }
  return line;
}

function rigItem(r) {
  const live = r.status === "online" ? r.live : null;
  const li = el("li", null, r.status === "online" ? "online" : "offline");
  if (live && live.phase === "turn") li.classList.add("turn");
  const head = el("div", null, "rig-head");
  head.append(el("span", r.rig),
              el("span", r.status === "online" ? (live && live.phase === "turn" ?
                 "playing" : "online") : (r.status || "no status"), "state"));
  li.append(head);
  if (live) {
    li.append(el("div", live.players.join(", "), "meta"), liveLine(live));
  }
  li.append(el("div", r.matches + " decided" + (r.undecided ? ", " + r.undecided +
                " unfinished" : ""), "meta"));
  return li;
}

function draw(data) {
  const players = document.getElementById("players");
  players.replaceChildren(...data.players.map(playerRow));
  document.getElementById("no-players").hidden = data.players.length > 0;
  const rigs = document.getElementById("rigs");
  rigs.replaceChildren(...data.rigs.map(rigItem));
  document.getElementById("no-rigs").hidden = data.rigs.length > 0;
  const decided = data.matches.filter(m => m.decided).length;
  const online = data.rigs.filter(r => r.status === "online").length;
  document.getElementById("summary").textContent =
    decided + " match" + (decided === 1 ? "" : "es") + " decided · " +
    data.players.length + " player" + (data.players.length === 1 ? "" : "s") + " · " +
    online + " of " + data.rigs.length + " table" + (data.rigs.length === 1 ? "" : "s") +
    " online";
  document.getElementById("updated").textContent =
    "Updated " + new Date().toLocaleTimeString();
}

async function refresh() {
  try {
    const answer = await fetch("/api/standings", {cache: "no-store"});
    if (!answer.ok) throw new Error("HTTP " + answer.status);
    draw(await answer.json());
  } catch (err) {
    document.getElementById("updated").textContent =
      "The leaderboard server does not answer (" + err.message + "); retrying";
  }
  setTimeout(refresh, REFRESH_MS);
}

layout();
PHONE.addEventListener("change", layout);
refresh();
