// The Arena web front's one script (served as /app.js, never inline). It
// fetches the JSON twins under /api/ and writes every string from the
// store with textContent: names, authors, specs, reasons and stderr are
// text, never markup. Links are built only to this server's own paths.
"use strict";

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

// A link to one of this server's pages: a fixed path and encoded parts.
function link(path, text) {
  const a = el("a", text);
  a.setAttribute("href", path);
  return a;
}

function entrantPath(name) {
  return "/entrant/" + encodeURIComponent(name);
}

function table(head, rows) {
  const t = el("table"), tr = el("tr");
  head.forEach(h => tr.appendChild(el("th", h)));
  const th = el("thead");
  th.appendChild(tr);
  t.appendChild(th);
  const tb = el("tbody");
  rows.forEach(r => {
    const row = el("tr");
    r.forEach(c => {
      const td = el("td");
      if (c instanceof Node) td.appendChild(c);
      else td.textContent = c === null || c === undefined ? "-" : String(c);
      row.appendChild(td);
    });
    tb.appendChild(row);
  });
  if (!rows.length) {
    const row = el("tr"), td = el("td", "none", "note");
    td.colSpan = head.length;
    row.appendChild(td);
    tb.appendChild(row);
  }
  t.appendChild(tb);
  return t;
}

function rating(e) {
  if (e.rating === null || e.rating === undefined) return "-";
  const r = (e.rating >= 0 ? "+" : "") + e.rating.toFixed(0);
  const ci = e.ci95 === null ? "" : " \u00b1 " + e.ci95.toFixed(0);
  return r + ci + (e.provisional ? "?" : "");
}

function main() {
  return document.getElementById("main");
}

function replace(node) {
  const m = main();
  m.replaceChildren(node);
}

function showError(what) {
  replace(el("p", what, "error"));
}

async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error(path + ": " + r.status);
  return r.json();
}

// ---- pages ----

function renderStandings(s) {
  const box = el("div");
  const head = s.kind === "ladder"
    ? "ladder " + s.game + ": " + s.games + " ranked games, " + s.entrants.length + " versions"
    : s.kind + " " + s.game + ": " + s.finished + " of " + s.scheduled + " games" +
      (s.sprt ? ", SPRT " + s.sprt : "") + (s.stopped ? ", " + s.stopped : "");
  const h = el("p", head, "summary");
  h.id = "summary";
  box.appendChild(h);
  let rows;
  if (s.kind === "ladder") {
    rows = s.entrants.map(e => [
      e.rank, link(entrantPath(e.name), e.name + " v" + e.version), el("span", rating(e), "nowrap"), e.games,
      e.wins + "/" + e.losses + "/" + e.draws, e.faults,
      e.last_game === null ? "-" : e.last_game,
      e.state + (e.author ? " (by " + e.author + ")" : "") + (e.reason ? ": " + e.reason : "")
    ]);
    box.appendChild(table(["rank", "version", "rating", "games", "W/L/D", "faults", "last",
                           "state"], rows));
  } else {
    rows = s.entrants.map(e => [
      e.rank, link(entrantPath(e.name), e.name), el("span", rating(e), "nowrap"), e.games,
      e.wins + "/" + e.losses + "/" + e.draws, e.faults
    ]);
    box.appendChild(table(["rank", "agent", "rating", "games", "W/L/D", "faults"], rows));
  }
  box.appendChild(el("p", "? marks a provisional rating (95 % interval over \u00b1100).", "note"));
  replace(box);
  document.body.dataset.finished = String(s.finished);
}

function seatsText(g) {
  const box = el("span");
  g.seats.forEach((s, i) => {
    if (i) box.appendChild(document.createTextNode(" \u00b7 "));
    box.appendChild(link(entrantPath(s.entrant), s.agent));
    box.appendChild(document.createTextNode(
      " #" + s.rank + " (" + s.score + ")" + (s.forfeit ? " " + s.forfeit : "")));
  });
  return box;
}

async function renderGames() {
  const q = new URLSearchParams(location.search);
  const agent = q.get("agent") || "";
  const limit = q.get("limit") || "";
  const p = new URLSearchParams();
  if (agent) p.set("agent", agent);
  if (limit) p.set("limit", limit);
  const g = await getJSON("/api/games" + (p.toString() ? "?" + p.toString() : ""));
  const box = el("div");
  box.appendChild(el("p", (agent ? "games of " + agent + ": " : "finished games: ") +
                     g.shown + " shown of " + g.finished, "summary"));
  if (g.shown < g.finished) {
    const all = new URLSearchParams(p);
    all.set("limit", "all");
    box.appendChild(link("/games?" + all.toString(), "show all"));
  }
  box.appendChild(table(["game", "seats (rank, score)", "end", "turns", "viewer"],
    g.games.map(x => [x.id, seatsText(x), x.reason, x.turns,
                      x.viewer ? link("/games/" + Number(x.id) + "/viewer", "view") : "-"])));
  replace(box);
}

// The rating history as a small SVG: the rating line over the entrant's
// games, its 95 % band shaded. Built with DOM calls; the only text is
// numbers and the axis labels.
const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  Object.keys(attrs).forEach(k => e.setAttribute(k, String(attrs[k])));
  return e;
}

function historyChart(h) {
  const pts = h.points.filter(p => p.rating !== null);
  if (!pts.length) return el("p", "no rated games yet", "note");
  const W = 480, H = 160, L = 44, R = 8, T = 8, B = 22;
  const band = p => (p.ci95 !== null && p.ci95 < 400 ? p.ci95 : 0);
  let lo = Math.min(...pts.map(p => p.rating - band(p)));
  let hi = Math.max(...pts.map(p => p.rating + band(p)));
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const n = Math.max(1, h.games);
  const x = g => L + (W - L - R) * (pts.length === 1 ? 1 : (g - pts[0].games) /
                                    Math.max(1, pts[pts.length - 1].games - pts[0].games));
  const y = r => T + (H - T - B) * (hi - r) / (hi - lo);
  const svg = svgEl("svg", { id: "history", width: W, height: H, viewBox: "0 0 " + W + " " + H,
                             role: "img" });
  const line = pts.map(p => x(p.games).toFixed(1) + "," + y(p.rating).toFixed(1)).join(" ");
  const area = pts.map(p => x(p.games).toFixed(1) + "," + y(p.rating + band(p)).toFixed(1))
    .concat(pts.slice().reverse().map(p => x(p.games).toFixed(1) + "," +
                                      y(p.rating - band(p)).toFixed(1))).join(" ");
  svg.appendChild(svgEl("polygon", { points: area, class: "band" }));
  svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), class: "axis" }));
  svg.appendChild(svgEl("polyline", { points: line, class: "rating" }));
  const label = (tx, ty, text, anchor) => {
    const t = svgEl("text", { x: tx, y: ty, "text-anchor": anchor });
    t.textContent = text;
    svg.appendChild(t);
  };
  label(L - 4, y(hi) + 10, hi.toFixed(0), "end");
  label(L - 4, y(lo), lo.toFixed(0), "end");
  label(L, H - 6, String(pts[0].games), "start");
  label(W - R, H - 6, n + " games", "end");
  const box = el("div");
  box.appendChild(svg);
  const last = pts[pts.length - 1];
  box.appendChild(el("p", pts.length + " points over " + h.games + " rated games (at most " +
                     h.max + "); now " + rating(last) + " (" + last.agent + ")", "note"));
  return box;
}

async function renderEntrant() {
  const name = decodeURIComponent(location.pathname.slice("/entrant/".length));
  let e;
  try {
    e = await getJSON("/api/entrant/" + encodeURIComponent(name));
  } catch (err) {
    showError("no entrant " + name);
    return;
  }
  const box = el("div");
  box.appendChild(el("h2", e.name));
  const gl = new URLSearchParams();
  gl.set("agent", e.name);
  box.appendChild(link("/games?" + gl.toString(), "its games"));
  box.appendChild(document.createTextNode(" \u00b7 "));
  box.appendChild(link("/author/" + encodeURIComponent(e.name), "its author's private page"));
  box.appendChild(el("h3", e.kind === "ladder" ? "Versions" : "Agent"));
  const vt = table(
    e.kind === "ladder"
      ? ["version", "author", "state", "reason", "spec", "added", "games", "rating"]
      : ["agent", "spec", "games", "rating"],
    e.versions.map(v => e.kind === "ladder"
      ? [v.agent, v.author, v.state, v.reason, v.spec, v.added, v.games, rating(v)]
      : [v.agent, v.spec, v.games, rating(v)]));
  vt.id = "versions";
  box.appendChild(vt);
  box.appendChild(el("h3", "Rating history"));
  box.appendChild(historyChart(e.history));
  box.appendChild(el("h3", "Against each opponent"));
  box.appendChild(table(["opponent", "games", "wins", "losses", "draws"],
    e.opponents.map(o => [link(entrantPath(o.entrant), o.opponent), o.games, o.wins, o.losses,
                          o.draws])));
  box.appendChild(el("h3", "Faults"));
  box.appendChild(table(["game", "agent", "cause", "message"],
    e.faults.map(f => [f.game, f.agent, f.cause, el("pre", f.message)])));
  replace(box);
}

async function renderSettings() {
  const s = await getJSON("/api/settings");
  const box = el("div");
  box.appendChild(table(["setting", "value"],
    Object.keys(s.settings).map(k => [k, s.settings[k]])));
  box.appendChild(el("h3", "Flags"));
  box.appendChild(el("pre", s.flags.join(" ")));
  replace(box);
}

// ---- an author's private page ----
// The token is typed into a form this script makes (no form without it,
// so it is never sent as a URL), kept in sessionStorage for this tab, and
// sent only as an Authorization header to this server's own /api/author/.

function authorName() {
  const rest = location.pathname.slice("/author/".length);
  return rest.indexOf("/") < 0 ? decodeURIComponent(rest) : null;
}

function tokenKey(name) {
  return "arena-token:" + name;
}

async function authorFetch(name, path) {
  const token = sessionStorage.getItem(tokenKey(name)) || "";
  return fetch(path, { cache: "no-store", headers: { "Authorization": "Bearer " + token } });
}

function authorForm(name, message) {
  const box = el("div");
  box.appendChild(el("h2", name));
  box.appendChild(el("p", "The private page of this entrant: its stderr, log lines, faults, " +
                     "views and logs. Enter its token.", "note"));
  if (message) {
    const m = el("p", message, "error");
    m.id = "author-error";
    box.appendChild(m);
  }
  const form = el("form");
  form.id = "token-form";
  const input = el("input");
  input.type = "password";
  input.id = "token";
  input.autocomplete = "off";
  input.size = 40;
  form.appendChild(input);
  form.appendChild(el("button", "Open"));
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    sessionStorage.setItem(tokenKey(name), input.value);
    guard(renderAuthor(false));
  });
  box.appendChild(form);
  replace(box);
  input.focus();
}

function forgetButton(name) {
  const b = el("button", "Forget the token");
  b.id = "forget";
  b.addEventListener("click", () => {
    sessionStorage.removeItem(tokenKey(name));
    authorForm(name, "");
  });
  return b;
}

function lines(list) {
  return el("pre", list.length ? list.map(l => l.text).join("\n") : "(none)");
}

async function downloadLog(name, id) {
  const r = await authorFetch(name, "/author/" + encodeURIComponent(name) + "/log/" + Number(id));
  if (!r.ok) throw new Error("the log: " + r.status);
  const url = URL.createObjectURL(await r.blob());
  const a = el("a");
  a.href = url;
  a.download = "game-" + String(Number(id)).padStart(6, "0") + "-private.jsonl";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function renderAuthorGame(name, id) {
  const target = document.getElementById("author-game");
  target.replaceChildren(el("p", "Loading game " + Number(id) + "\u2026"));
  const r = await authorFetch(name, "/api/author/" + encodeURIComponent(name) + "/game/" +
                              Number(id));
  if (!r.ok) {
    target.replaceChildren(el("p", "game " + Number(id) + ": " + r.status, "error"));
    return;
  }
  const d = await r.json();
  const box = el("div");
  box.appendChild(el("h3", "Game " + d.game));
  if (!d.replayed) box.appendChild(el("p", "The log does not replay to its end.", "error"));
  const dl = el("button", "Download the log of this seat");
  dl.addEventListener("click", () => guard(downloadLog(name, d.game)));
  box.appendChild(dl);
  d.seats.forEach(s => {
    box.appendChild(el("h4", "Seat " + s.seat + " (" + s.agent + "): rank " + s.rank +
                       ", score " + s.score + (s.forfeit ? ", forfeit " + s.forfeit : "")));
    box.appendChild(el("p", "Replay it locally (the downloaded log; your own bot as --agent):",
                       "note"));
    box.appendChild(el("pre", s.replay, "command"));
    box.appendChild(el("h4", "Faults"));
    box.appendChild(table(["t", "cause", "message", "strikes", "verdict", "clock"],
      s.faults.map(f => [f.t, f.cause, el("pre", f.message), f.strikes, f.verdict,
                         f.clock ? el("pre", JSON.stringify(f.clock, null, 1)) : "-"])));
    box.appendChild(el("h4", "stderr"));
    const se = lines(s.stderr);
    se.className = "stderr";
    box.appendChild(se);
    box.appendChild(el("h4", "log lines"));
    box.appendChild(lines(s.log));
    if (s.notes.length) {
      box.appendChild(el("h4", "notes"));
      box.appendChild(lines(s.notes));
    }
    box.appendChild(el("h4", "Its view at each decision"));
    box.appendChild(table(["#", "turn", "kind", "options", "choice", "by", "ms", "view"],
      s.decisions.map(x => [x.n, x.turn, x.kind,
                            x.options.join(" ") + (x.n_options > x.options.length ? " \u2026" : ""),
                            x.choice.join(" "), x.by, x.ms,
                            el("pre", JSON.stringify(x.view, null, 1))])));
    if (s.truncated) box.appendChild(el("p", "(cut: too many lines or decisions)", "note"));
  });
  target.replaceChildren(box);
}

// refresh: a game ended while the page is open. The token form is left as
// it is (a refresh must not wipe what is being typed), and the game whose
// details are open stays open.
async function renderAuthor(refresh) {
  const name = authorName();
  if (name === null) {
    showError("no such page");
    return;
  }
  if (!sessionStorage.getItem(tokenKey(name))) {
    if (!refresh) authorForm(name, "");
    return;
  }
  const r = await authorFetch(name, "/api/author/" + encodeURIComponent(name));
  if (r.status === 403 || r.status === 429) {
    sessionStorage.removeItem(tokenKey(name));
    authorForm(name, r.status === 403 ? "Wrong token (or no such entrant)."
                                      : "Too many failed tries from your network; wait a few " +
                                        "seconds.");
    return;
  }
  if (!r.ok) throw new Error("/api/author: " + r.status);
  const a = await r.json();
  const box = el("div");
  box.appendChild(el("h2", a.name));
  box.appendChild(forgetButton(name));
  box.appendChild(el("h3", a.kind === "ladder" ? "Versions" : "Agent"));
  box.appendChild(table(["agent", "state", "reason", "spec"],
    a.versions.map(v => [v.agent, v.state, v.reason, v.spec])));
  a.versions.filter(v => v.validation_stderr).forEach(v => {
    box.appendChild(el("h4", v.agent + ": what it wrote when validation failed"));
    box.appendChild(el("pre", v.validation_stderr, "stderr"));
  });
  box.appendChild(el("h3", "Faults"));
  box.appendChild(table(["game", "agent", "cause", "message"],
    a.faults.map(f => [f.game, f.agent, f.cause, el("pre", f.message)])));
  box.appendChild(el("h3", "Games (" + a.finished + " finished, the last ones listed)"));
  box.appendChild(table(["game", "seat", "agent", "rank", "score", "forfeit", "turns", ""],
    a.games.map(g => {
      let open = "-";
      if (g.details) {
        open = el("button", "details");
        open.addEventListener("click", () => guard(renderAuthorGame(name, g.id)));
      }
      return [g.id, g.seat, g.agent, g.rank, g.score, g.forfeit || "-", g.turns, open];
    })));
  const open = refresh ? document.getElementById("author-game") : null;
  const game = open || el("div");
  game.id = "author-game";
  box.appendChild(game);
  replace(box);
  const first = a.games.find(g => g.details);
  if (!open && first) await renderAuthorGame(name, first.id);
}

// ---- games in progress (a run's --http) ----
async function renderLive() {
  const l = await getJSON("/api/live");
  const box = el("div");
  if (!l.running) {
    box.appendChild(el("p", "This server reads a store: no run serves it, so no game is in " +
                            "progress here (see arena tournament --http).", "note"));
    replace(box);
    return;
  }
  box.appendChild(el("p", l.games.length + " games in progress", "summary"));
  const omni = l.omniscient_delay !== null;
  box.appendChild(table(["game", "seats", "turn", "seconds", "spectators"]
                        .concat(omni ? ["omniscient (" + l.omniscient_delay + " s behind)"] : []),
    l.games.map(g => [link("/live/" + Number(g.id), String(g.id)), g.seats.join(" \u00b7 "),
                      g.turn, g.seconds, g.spectators]
                      .concat(omni ? [link("/live/" + Number(g.id) + "?omniscient=1", "view")]
                                   : []))));
  box.appendChild(el("p", "loop lag p99 " + l.loop_lag.p99_ms + " ms over " + l.loop_lag.probes +
                          " probes; " + l.spectators.open + " streams open", "note"));
  replace(box);
  document.body.dataset.live = String(l.games.length);
}

// Boards a live game's page keeps to step back through (the oldest go
// first): some 1000 public views of a card game are a few MB.
const LIVE_KEEP = 1000;

function stepButton(label, title) {
  const b = el("button", label);
  b.title = title;
  return b;
}

// One game in progress: its board drawn by the replay viewer's drawing of
// that game (/boards.js) from the spectator's public view, the public
// events that came with it, and the viewer's steps through the boards
// received so far, following the newest until one steps back.
function renderLiveGame() {
  const id = Number(location.pathname.slice("/live/".length));
  const omniscient = new URLSearchParams(location.search).get("omniscient") === "1";
  const box = el("div");
  const head = el("p", "game " + id + (omniscient ? " (omniscient, delayed)" : ""), "summary");
  head.id = "head";
  const status = el("p", "waiting for the next turn", "note");
  status.id = "status";
  const steps = el("div", null, "steps");
  steps.id = "steps";
  const first = stepButton("\u25c0\u25c0", "the oldest board kept (Home)");
  const prev = stepButton("\u25c0", "the board before (\u2190)");
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = "0";
  slider.value = "0";
  slider.setAttribute("aria-label", "board");
  const next = stepButton("\u25b6", "the board after (\u2192)");
  const last = stepButton("\u25b6\u25b6", "the newest board, and follow the game (End)");
  first.id = "first";
  prev.id = "prev";
  next.id = "next";
  last.id = "last";
  slider.id = "slider";
  const step = el("span", "no board yet");
  step.id = "step";
  [first, prev, slider, next, last, step].forEach(x => steps.appendChild(x));
  const board = el("div", null, "board");
  board.id = "board";
  const log = el("ol");
  log.id = "events";
  box.appendChild(head);
  box.appendChild(status);
  box.appendChild(steps);
  box.appendChild(board);
  box.appendChild(el("h3", "Events since the board before"));
  box.appendChild(log);
  replace(box);

  let drawer = ArenaBoards.drawer("", []);
  const boards = [];
  let dropped = 0, pos = -1, follow = true;
  function show() {
    if (pos < 0) return;
    const b = boards[pos];
    drawer.board(b.view, board, b.over);
    log.replaceChildren(...b.events.map(e => el("li", ArenaBoards.compact(e))));
    if (!b.events.length) log.appendChild(el("li", "none", "note"));
    slider.max = String(boards.length - 1);
    slider.value = String(pos);
    step.textContent = "board " + (dropped + pos + 1) + " of " + (dropped + boards.length) +
      " (turn " + b.turn + (b.over ? ", over" : "") + ")" + (follow ? ", following the game" : "");
    document.body.dataset.turn = String(b.turn);
    document.body.dataset.following = follow ? "1" : "0";
  }
  function go(p) {
    if (!boards.length) return;
    pos = Math.max(0, Math.min(boards.length - 1, p));
    follow = pos === boards.length - 1;
    show();
  }
  first.addEventListener("click", () => go(0));
  prev.addEventListener("click", () => go(pos - 1));
  next.addEventListener("click", () => go(pos + 1));
  last.addEventListener("click", () => go(boards.length - 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  document.addEventListener("keydown", e => {
    if (e.target instanceof Element && e.target.closest("input, select, textarea")) return;
    const k = { ArrowRight: pos + 1, ArrowLeft: pos - 1, Home: 0, End: boards.length - 1 }[e.key];
    if (k !== undefined) {
      e.preventDefault();
      go(k);
    }
  });

  const live = document.getElementById("live");
  const es = new EventSource("/live/" + id + (omniscient ? "/omniscient" : "/events"));
  es.addEventListener("open", () => { live.textContent = "live"; });
  es.addEventListener("error", () => {
    if (es.readyState === EventSource.CLOSED) live.textContent = "closed";
  });
  es.addEventListener("seats", ev => {
    let s;
    try { s = JSON.parse(ev.data); } catch (err) { return; }
    const seats = Array.isArray(s.seats) ? s.seats.map(String) : [];
    head.textContent = "game " + s.id + (s.game ? " (" + s.game + ")" : "") + ": " +
      seats.join(" \u00b7 ") + (omniscient ? " (omniscient, delayed)" : "");
    const options = s.options !== null && typeof s.options === "object" ? s.options : {};
    drawer = ArenaBoards.drawer(typeof s.game === "string" ? s.game : "", seats, options);
    document.body.dataset.game = typeof s.game === "string" ? s.game : "";
    show();
  });
  es.addEventListener("board", ev => {
    let b;
    try { b = JSON.parse(ev.data); } catch (err) { return; }
    if (b === null || typeof b !== "object") return;
    if (!Array.isArray(b.events)) b.events = [];
    boards.push(b);
    if (boards.length > LIVE_KEEP) {
      boards.shift();
      dropped++;
      if (!follow && pos > 0) pos--;
    }
    status.textContent = "newest board: turn " + b.turn + (b.over ? ", over" : "");
    document.body.dataset.newest = String(b.turn);
    if (follow) pos = boards.length - 1;
    show();
  });
  es.addEventListener("end", ev => {
    es.close();
    live.textContent = "ended";
    let e;
    try { e = JSON.parse(ev.data); } catch (err) { return; }
    const p = el("p", "", "summary");
    if (e.aborted) {
      p.textContent = "aborted: it is played again";
    } else {
      p.textContent = "ended (" + e.reason + "): " + e.seats.map(s =>
        s.agent + " #" + s.rank + " (" + s.score + ")" + (s.forfeit ? " " + s.forfeit : "")).join(" \u00b7 ");
      box.appendChild(link("/games/" + id + "/viewer", "the replay (once its group ended)"));
    }
    status.replaceWith(p);
    document.body.dataset.ended = "1";
  });
}

// ---- live updates ----

function live(onStandings) {
  const status = document.getElementById("live");
  const es = new EventSource("/events");
  es.addEventListener("open", () => { status.textContent = "live"; });
  es.addEventListener("error", () => { status.textContent = "reconnecting"; });
  es.addEventListener("standings", ev => {
    let s;
    try { s = JSON.parse(ev.data); } catch (err) { return; }
    onStandings(s);
  });
}

function guard(p) {
  p.catch(err => showError(String(err.message || err)));
}

document.addEventListener("DOMContentLoaded", () => {
  const path = location.pathname;
  if (path === "/") {
    live(renderStandings);
  } else if (path === "/games") {
    let last = null;
    live(s => { if (s.finished !== last) { last = s.finished; guard(renderGames()); } });
  } else if (path.startsWith("/entrant/")) {
    let last = null;
    live(s => { if (s.finished !== last) { last = s.finished; guard(renderEntrant()); } });
  } else if (path.startsWith("/author/")) {
    guard(renderAuthor(false));
    let last = null;
    live(s => {
      if (s.finished !== last) {
        if (last !== null) guard(renderAuthor(true));
        last = s.finished;
      }
    });
  } else if (path === "/live") {
    document.getElementById("live").textContent = "live";
    guard(renderLive());
    setInterval(() => guard(renderLive()), 2000);
  } else if (path.startsWith("/live/")) {
    renderLiveGame();
  } else if (path === "/settings") {
    live(() => guard(renderSettings()));  // an early stop or a verdict is a setting too
  }
});
