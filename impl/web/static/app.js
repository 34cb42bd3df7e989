// zreferee's live web view: the server list, the game page and the TV page, drawn
// from the JSON the app serves (impl/web/app.py) and kept live by server-sent
// events.  Plain DOM and SVG, no framework.  Test hooks: data-* attributes on the
// board's pits and squares, data-plies, data-frame and data-game on <body>, #result,
// #score.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function s(tag, attrs, text) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function clockText(secs) {
  if (secs === null || secs === undefined) return "";
  const tenths = Math.floor(Math.max(0, secs) * 10);
  const m = Math.floor(tenths / 600);
  const r = tenths - 600 * m;
  return `${m}:${r < 100 ? "0" : ""}${Math.floor(r / 10)}.${r % 10}`;
}

// A player as shown: the tournament's label when the view has it (the standings'
// name), else the name the program sent.
// A name or command line whose words stay whole where its line breaks: Chromium breaks
// after a hyphen, so "search --depth 6" wrapped as "search -" and "-depth 6" in a
// narrow cell; each word with a hyphen is an inline block (span.word), moved whole to
// the next line unless it alone is wider than the cell.  The text is unchanged.
function whole(text) {
  return String(text)
    .split(/(\S*-\S*)/)
    .filter((part) => part)
    .map((part) => (part.includes("-") && !/\s/.test(part) ? h("span", { class: "word" }, part) : part));
}

function who(g, i) {
  return (g.labels && g.labels[i]) || g.names[i] || "?";
}

function players(g) {
  return g.sides.map((side, i) => `${who(g, i)} (${side})`).join(" – ");
}

// The result in plain words (impl.game.Outcome.describe, sent as result.words),
// with the final counts, the winner's first: "South wins on the board, 27–21".
function resultText(g) {
  const r = g.result;
  if (!r) return "";
  const words = r.words || `${r.result} (${r.termination})`;
  let text = words.charAt(0).toUpperCase() + words.slice(1);
  if (g.score && !/^aborted/.test(words)) {
    const first = r.winner === 1 ? 1 : 0;
    const n = (i) => g.score[g.sides[i]];
    if (n(0) !== undefined && n(1) !== undefined) text += `, ${n(first)}–${n(1 - first)}`;
  }
  return text;
}

// The running count of a side on a board: Awari's store, Gothello's stones.
function countText(game, n) {
  return game === "awari" ? `store ${n}` : `${n} stone${n === 1 ? "" : "s"}`;
}

// The final score by side (hub.score_json): Awari's stores, Gothello's stones;
// named so on the game pages, bare in the list's score column.
function scoreText(game, score, named = true) {
  if (!score) return "";
  const counts = Object.entries(score).map(([side, n]) => `${side} ${n}`).join(" – ");
  return named ? `${game === "awari" ? "stores" : "stones"}: ${counts}` : counts;
}

// ─── clocks: counted down between events from the time each reading arrived ───

const ticking = new Set();

function tickingClocks(clocks) {
  return { left: clocks.left.slice(), running: clocks.running, at: performance.now() };
}

function clockNow(c, side) {
  if (!c) return null;
  const left = c.left[side];
  return c.running === side ? left - (performance.now() - c.at) / 1000 : left;
}

setInterval(() => ticking.forEach((f) => f()), 100);

// ─── boards ───────────────────────────────────────────────────────────────────

const AWARI_NORTH = ["f", "e", "d", "c", "b", "a"];
const AWARI_SOUTH = ["A", "B", "C", "D", "E", "F"];

function drawAwari(board) {
  const cell = 70;
  const svg = s("svg", { viewBox: `0 0 ${cell * 8} ${cell * 3}`, class: "awari", role: "img" });
  svg.append(s("rect", { x: 2, y: 2, width: cell * 8 - 4, height: cell * 3 - 4, rx: 30, class: "wood" }));
  const store = (side, x) => {
    const g = s("g", { class: "store", "data-side": side, "data-count": board.counts[side] });
    g.append(s("rect", { x: x + 8, y: cell * 0.5 + 4, width: cell - 16, height: cell * 2 - 8, rx: 24, class: "hole" }));
    g.append(s("text", { x: x + cell / 2, y: cell * 1.5 + 8, class: "count" }, board.counts[side]));
    g.append(s("text", { x: x + cell / 2, y: side === "north" ? cell * 0.4 : cell * 2.8, class: "label" }, side));
    svg.append(g);
  };
  store("north", 0);
  store("south", cell * 7);
  const pit = (name, col, row) => {
    const cx = cell * (col + 1.5);
    const cy = cell * (row + 1);
    const classes = ["pit"];
    if (board.last === name) classes.push("last");
    if (board.captures.includes(name)) classes.push("captured");
    const g = s("g", { class: classes.join(" "), "data-pit": name, "data-count": board.cells[name] });
    g.append(s("circle", { cx, cy: cy - 6, r: cell * 0.36, class: "hole" }));
    g.append(s("text", { x: cx, y: cy + 2, class: "count" }, board.cells[name]));
    g.append(s("text", { x: cx, y: row === 0 ? cy - cell * 0.5 - 2 : cy + cell * 0.5 - 2, class: "label" }, name));
    svg.append(g);
  };
  AWARI_NORTH.forEach((p, i) => pit(p, i, 0));
  AWARI_SOUTH.forEach((p, i) => pit(p, i, 1));
  return svg;
}

function drawGothello(board) {
  const cell = 64;
  const m = 36;
  const size = m + cell * 5 + 12;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, class: "gothello", role: "img" });
  svg.append(s("rect", { x: m, y: 12, width: cell * 5, height: cell * 5, class: "felt" }));
  for (let f = 0; f < 5; f++) {
    for (let r = 1; r <= 5; r++) {
      const name = "abcde"[f] + r;
      const x = m + cell * f;
      const y = 12 + cell * (5 - r);
      const stone = board.cells[name];
      const classes = ["square"];
      if (board.last === name) classes.push("last");
      if (board.captures.includes(name)) classes.push("captured");
      const g = s("g", { class: classes.join(" "), "data-square": name, "data-stone": stone });
      g.append(s("rect", { x, y, width: cell, height: cell, class: "cell" }));
      if (stone) g.append(s("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.4, class: `stone ${stone}` }));
      if (board.last === name) g.append(s("circle", { cx: x + cell / 2, cy: y + cell / 2, r: 6, class: "mark" }));
      svg.append(g);
    }
  }
  for (let f = 0; f < 5; f++) {
    svg.append(s("text", { x: m + cell * f + cell / 2, y: size - 2, class: "coord" }, "abcde"[f]));
  }
  for (let r = 1; r <= 5; r++) {
    svg.append(s("text", { x: m / 2, y: 12 + cell * (5 - r) + cell / 2 + 6, class: "coord" }, r));
  }
  return svg;
}

function drawBoard(container, board) {
  container.replaceChildren(board.game === "awari" ? drawAwari(board) : drawGothello(board));
  container.dataset.game = board.game;
  container.dataset.last = board.last || "";
}

// ─── the list page ────────────────────────────────────────────────────────────

function timeControls(t) {
  return t ? `${t[0]} s / ${t[1]} s` : "none";
}

function renderServers(data) {
  const body = document.querySelector("#servers tbody");
  ticking.clear();
  const rows = data.servers.map((srv) => {
    const g = srv.current;
    const clocks = g && g.clocks ? tickingClocks(g.clocks) : null;
    const clockCell = h("td", { class: "clock" });
    if (clocks) {
      const show = () => (clockCell.textContent = [0, 1].map((i) => clockText(clockNow(clocks, i))).join(" / "));
      show();
      ticking.add(show);
    }
    return h(
      "tr",
      { "data-server": srv.key, "data-game": g ? g.id : "" },
      h("td", {}, srv.title),
      h("td", { class: "opt" }, srv.server),
      h("td", { class: "opt" }, srv.port),
      h("td", { class: "rules opt" }, srv.rules),
      h("td", { class: "engine opt" }, srv.engine),
      h("td", { class: "opt" }, timeControls(srv.time)),
      h("td", { class: "players" }, g ? players(g) : "waiting for players"),
      h("td", { class: "num opt" }, g ? g.number : ""),
      h("td", { class: "opt" }, g && g.to_move !== null ? g.sides[g.to_move] : ""),
      clockCell,
      h("td", {}, g ? h("a", { href: `/game/${g.id}`, class: "watch" }, "watch") : ""),
    );
  });
  body.replaceChildren(...(rows.length ? rows : [h("tr", {}, h("td", { colspan: 11, class: "muted" }, "no servers"))]));
  const fin = document.querySelector("#finished tbody");
  const done = data.finished.map((g) =>
    h(
      "tr",
      { "data-game": g.id },
      h("td", {}, g.game === "awari" ? "Awari" : "Gothello"),
      h("td", { class: "opt" }, g.server.split("-").pop()),
      h("td", { class: "opt" }, g.game_no),
      h("td", { class: "rules opt" }, g.rules ?? ""),
      h("td", { class: "engine opt" }, g.engine ?? ""),
      h("td", { class: "players" }, players(g)),
      h("td", { class: "num opt" }, g.plies),
      h("td", { class: "outcome" }, resultText(g)),
      h("td", { class: "score opt" }, scoreText(g.game, g.score, false)),
      h("td", { class: "opt" }, g.result.ended.replace("T", " ").slice(0, 19)),
      h("td", {}, h("a", { href: `/game/${g.id}` }, "replay")),
    ),
  );
  fin.replaceChildren(...(done.length ? done : [h("tr", {}, h("td", { colspan: 11, class: "muted" }, "none yet"))]));
  if (data.records) loadRecords();
}

let recordsLoaded = 0;

function loadRecords() {
  if (Date.now() - recordsLoaded < 5000) return;
  recordsLoaded = Date.now();
  fetch("/api/records")
    .then((r) => r.json())
    .then((data) => {
      document.getElementById("records-section").hidden = false;
      const rows = data.records.map((r) => {
        if (r.flagged) {
          return h(
            "tr",
            { "data-record": r.name, class: "flagged" },
            h("td", { colspan: 10, class: "muted" }, `${r.name}: ${r.flagged}`),
            h("td", {}, ""),
          );
        }
        const g = { ...r, labels: null };  // the record's fields (archive.record_fields)
        return h(
          "tr",
          { "data-record": r.name },
          h("td", {}, r.game === "awari" ? "Awari" : "Gothello"),
          h("td", { class: "opt" }, r.server ?? ""),
          h("td", { class: "opt" }, r.number ?? ""),
          h("td", { class: "rules opt" }, r.rules),
          h("td", { class: "engine opt" }, r.engine ?? ""),
          h("td", { class: "players" }, players(g)),
          h("td", { class: "num opt" }, r.plies ?? ""),
          h("td", { class: "outcome" }, resultText(g)),
          h("td", { class: "score opt" }, scoreText(r.game, r.score, false)),
          h("td", { class: "opt" }, (r.result.ended || "").replace("T", " ").slice(0, 19)),
          h("td", {}, h("a", { href: `/record/${encodeURIComponent(r.name)}` }, "replay")),
        );
      });
      document.querySelector("#records tbody").replaceChildren(...rows);
    })
    .catch(() => (recordsLoaded = 0)); // asked again with the next list
}

function initList() {
  const conn = document.getElementById("conn");
  const source = new EventSource("/events");
  source.addEventListener("list", (e) => {
    conn.textContent = "live";
    renderServers(JSON.parse(e.data));
  });
  source.onerror = () => (conn.textContent = "reconnecting…");
}

// ─── the game page ────────────────────────────────────────────────────────────

const view = { game: null, clocks: null, frames: null, frameClocks: null, frame: 0, values: null, graphX: null };

// The players, each with the side, the name (the label, and the program's name
// beside it when they differ), the running count (Awari's store, Gothello's
// stones: countText), and the clock; the side to move marked ●, the winner ★.
function renderPlayers(g) {
  const box = document.getElementById("players");
  const winner = g.result ? g.result.winner : null;
  const rows = g.sides.map((side, i) => {
    const clock = h("span", { class: "clock", id: `clock-${i}` });
    const won = winner === i;
    const mark = h("span", { class: won ? "turn won" : "turn" }, won ? "★" : g.to_move === i ? "●" : "");
    const name = h("span", { class: "name" }, who(g, i));
    if (g.labels && g.labels[i] && g.names[i] && g.names[i] !== g.labels[i]) {
      name.append(h("span", { class: "program" }, ` ${g.names[i]}`));
    }
    if (won) name.append(h("span", { class: "badge" }, "winner"));
    const count = h("span", { class: "count", id: `count-${i}`, "data-side": side });
    const classes = ["player", g.to_move === i ? "moving" : "", won ? "winner" : ""].filter(Boolean);
    return h("div", { class: classes.join(" "), "data-side": side }, mark, h("span", { class: "side" }, side), name,
      count, clock);
  });
  box.replaceChildren(...rows);
  showCounts(g.board);
}

// The counts of the board shown (the live one, or a replay's frame).
function showCounts(board) {
  for (const i of [0, 1]) {
    const node = document.getElementById(`count-${i}`);
    if (!node || !board) continue;
    const n = board.counts[node.dataset.side];
    node.textContent = countText(board.game, n);
    node.dataset.count = n;
  }
}

// The move list's box scrolled (itself, never the page) so that the current move
// is in view: the last one live, the frame's in a replay.
function followMove(td) {
  const box = td && td.closest(".right");
  if (!box || box.scrollHeight <= box.clientHeight) return;
  const shown = box.getBoundingClientRect();
  const cell = td.getBoundingClientRect();
  if (cell.top < shown.top) box.scrollTop -= shown.top - cell.top + 8;
  else if (cell.bottom > shown.bottom) box.scrollTop += cell.bottom - shown.bottom + 8;
}

function showClocks() {
  const c = view.clocks;
  for (const i of [0, 1]) {
    const node = document.getElementById(`clock-${i}`);
    if (node) node.textContent = c ? clockText(clockNow(c, i)) : "";
  }
}

function moveCell(m, index) {
  return h("td", { "data-index": index, class: "mv" }, m.move);
}

function renderMoves(moves) {
  const body = document.querySelector("#moves tbody");
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const row = h("tr", {}, h("td", { class: "num" }, `${i / 2 + 1}.`), moveCell(moves[i], i + 1));
    if (i + 1 < moves.length) row.append(moveCell(moves[i + 1], i + 2));
    rows.push(row);
  }
  body.replaceChildren(...rows);
  document.body.dataset.plies = moves.length;
  const cells = body.querySelectorAll("td.mv");
  const last = cells[cells.length - 1];
  if (last && !view.frames) {
    last.classList.add("current");
    followMove(last);
  }
}

function statusText(g) {
  if (g.result) return `${g.moves.length} plies`;
  const turn = g.to_move === null ? "" : `move ${g.number}, ${g.sides[g.to_move]} to move`;
  return [turn, g.note].filter(Boolean).join(" · ");
}

// The game's number in its header: a tournament's or match's game is the only game
// of its private server (its game_no always 1), numbered by the run as its server
// (tourney.py) and its record (game-NNNN.pgn, pgn.record_name); a server's, its own.
function gameNumber(g) {
  const run = g.record && /^game-0*(\d+)\.pgn$/.exec(g.record);
  if (run) return run[1];
  return !g.record && !g.port && g.server_no ? g.server_no : g.game_no;
}

function renderGame(g) {
  view.game = g;
  document.title = `zreferee — ${g.game} ${g.id}`;
  document.getElementById("title").textContent = `${g.game === "awari" ? "Awari" : "Gothello"} · game ${gameNumber(g)}`;
  // A tournament's game (impl/web/tourney.py) is on a private server of its own, port 0 here.
  const where = g.record
    ? (g.server_no ? [`server ${g.server_no}`] : [])
    : g.port ? [`server ${g.server_no}`, `port ${g.port}`] : [`tournament game ${g.server_no}`];
  const sub = [...where, `rules: ${g.rules}`, `engine: ${g.engine}`, `time: ${timeControls(g.time)}`];
  document.getElementById("subtitle").textContent = g.record ? `record ${g.record} · ${sub.join(" · ")}` : sub.join(" · ");
  renderPlayers(g);
  view.clocks = g.clocks ? tickingClocks(g.clocks) : null;
  showClocks();
  drawBoard(document.getElementById("board"), g.board);
  renderMoves(g.moves);
  document.getElementById("status").textContent = statusText(g);
  const result = document.getElementById("result");
  result.hidden = !g.result;
  if (g.result) {
    result.textContent = resultText(g);
    document.body.dataset.result = g.result.result;
  }
  const score = document.getElementById("score");
  score.hidden = !g.score;
  score.textContent = scoreText(g.game, g.score);
}

function onMove(m) {
  const g = view.game;
  if (!g || m.id !== g.id) return;
  if (m.index !== g.moves.length + 1) return refresh(g.id); // missed one: start over from a snapshot
  g.moves.push({ ply: m.ply, move: m.move, side: m.side });
  Object.assign(g, { board: m.board, to_move: m.to_move, number: m.number, clocks: m.clocks, note: "" });
  renderGame(g);
}

function refresh(id) {
  fetch(`/api/games/${id}`).then((r) => r.json()).then(renderGame);
}

function showFrame(i) {
  const frames = view.frames;
  view.frame = Math.max(0, Math.min(frames.length - 1, i));
  drawBoard(document.getElementById("board"), frames[view.frame]);
  showCounts(frames[view.frame]);
  document.getElementById("slider").value = view.frame;
  document.getElementById("frame").textContent = `${view.frame} / ${frames.length - 1}`;
  let current = null;
  document.querySelectorAll("#moves td.mv").forEach((td) => {
    const here = Number(td.dataset.index) === view.frame;
    td.classList.toggle("current", here);
    if (here) current = td;
  });
  if (current) followMove(current);
  else if (view.frame === 0) document.querySelector("#moves").closest(".right").scrollTop = 0;
  document.body.dataset.frame = view.frame;
  if (view.values) showValue(view.frame);
  if (view.frameClocks) {  // the clocks as they were at this frame, standing
    view.clocks = { left: view.frameClocks[view.frame], running: null, at: 0 };
    showClocks();
  }
}

// The replay: frames[i] is the board after ply i; clocks[i], if given, both clocks then.
function startReplay(frames, clocks) {
  view.frames = frames;
  view.frameClocks = clocks && clocks.length === frames.length ? clocks : null;
  const slider = document.getElementById("slider");
  slider.max = frames.length - 1;
  document.getElementById("replay").hidden = false;
  document.getElementById("keys").hidden = false;
  document.getElementById("first").onclick = () => showFrame(0);
  document.getElementById("prev").onclick = () => showFrame(view.frame - 1);
  document.getElementById("next").onclick = () => showFrame(view.frame + 1);
  document.getElementById("last").onclick = () => showFrame(frames.length - 1);
  slider.oninput = () => showFrame(Number(slider.value));
  document.querySelector("#moves tbody").onclick = (e) => {
    const td = e.target.closest("td.mv");
    if (td) showFrame(Number(td.dataset.index));
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") showFrame(view.frame - 1);
    if (e.key === "ArrowRight") showFrame(view.frame + 1);
    if (e.key === "Home" || e.key === "End") {
      e.preventDefault(); // the frame, not the page's scroll position
      showFrame(e.key === "Home" ? 0 : frames.length - 1);
    }
  });
  showFrame(frames.length - 1);
}

function loadFrames(id) {
  fetch(`/api/games/${id}/frames`)
    .then((r) => r.json())
    .then((d) => d.frames && startReplay(d.frames, d.clocks))
    .catch(() => {}); // the game was forgotten meanwhile: the page stays as it is
}

function initLiveGame(id) {
  ticking.add(showClocks);
  const source = new EventSource(`/events/game/${id}`);
  source.addEventListener("snapshot", (e) => {
    const g = JSON.parse(e.data);
    renderGame(g);
    if (g.result) {
      source.close();
      loadFrames(g.id);
    }
  });
  source.onerror = () => {
    if (view.game) return; // a live page reconnects by itself
    source.close();
    document.getElementById("status").textContent = "no such game here (the last 20 finished games are kept)";
  };
  source.addEventListener("move", (e) => onMove(JSON.parse(e.data)));
  source.addEventListener("clock", (e) => {
    const c = JSON.parse(e.data);
    if (!view.game || c.id !== view.game.id) return;
    Object.assign(view.game, { clocks: c.clocks, note: c.note });
    renderGame(view.game);
  });
  source.addEventListener("over", (e) => {
    const o = JSON.parse(e.data);
    if (!view.game || o.id !== view.game.id) return;
    source.close();
    Object.assign(view.game, { result: o.result, score: o.score, clocks: o.clocks, board: o.board, to_move: null, live: false });
    renderGame(view.game);
    loadFrames(o.id);
  });
}

// A margin as the table gives it: the mover's stones to come less the opponent's.
function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// The table's value of the move that led to frame i (ply i): before and after for
// the mover, the best move, a blunder said as such; or why the table has none.
function showValue(i) {
  const mark = document.querySelector("#value-graph .frame");
  if (mark && view.graphX) ["x1", "x2"].forEach((a) => mark.setAttribute(a, view.graphX(i)));
  const node = document.getElementById("value");
  const v = i > 0 ? view.values[i - 1] : null;
  node.className = "value";
  if (!v) {
    node.textContent = i > 0 ? `ply ${i}: not valued (the record's moves stop here)` : "the start: pick a move";
    return;
  }
  const head = `ply ${v.ply}, ${v.side} ${v.move}: `;
  if (v.why) {
    node.textContent = head + v.why;
    node.classList.add("outside");
    return;
  }
  let text = `${head}${signed(v.before)} → ${signed(v.after)} for ${v.side}, best ${v.best} ${signed(v.best_value)}`;
  if (v.loss > 0) {
    text += ` — blunder: gave away ${v.loss} stone${v.loss === 1 ? "" : "s"}`;
    node.classList.add("blunder");
  }
  node.textContent = text;
}

// The table's values over the game, as the first side's margin: a value is the
// mover's, so the other side's is negated; a ply the table does not cover is null.
function valuePoints(values, first) {
  return values.map((v) => [v.ply, v.why ? null : v.side === first ? v.after : -v.after]);
}

// The graph of valuePoints under the replay (lichess's evaluation graph): a line per
// stretch the table covers, blunders dotted, the frame shown as a vertical line; a
// click shows the ply under it.  Hidden when the table covers no ply.
function drawValueGraph(svg, values, first) {
  const points = valuePoints(values, first);
  const known = points.filter(([, v]) => v !== null);
  svg.toggleAttribute("hidden", !known.length); // an SVG element has no hidden property
  if (!known.length) return;
  const W = 560, H = 120, pad = 10;
  const plies = Math.max(1, ...points.map(([p]) => p));
  const top = Math.max(1, ...known.map(([, v]) => Math.abs(v)));
  const x = (p) => pad + ((W - 2 * pad) * p) / plies;
  const y = (v) => H / 2 - ((H / 2 - pad) * v) / top;
  const runs = [[]];
  for (const [p, v] of points) {
    if (v === null) runs.push([]);
    else runs[runs.length - 1].push([x(p), y(v)]);
  }
  const drawn = runs.filter((r) => r.length).map((r) =>
    r.length > 1
      ? s("polyline", { points: r.map((xy) => xy.join(",")).join(" "), class: "line" })
      : s("circle", { cx: r[0][0], cy: r[0][1], r: 2, class: "point" }));
  const blunders = points.filter(([p, v]) => v !== null && values[p - 1].loss > 0);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.dataset.points = known.length;
  svg.replaceChildren(
    s("line", { x1: pad, x2: W - pad, y1: y(0), y2: y(0), class: "zero" }),
    ...drawn,
    ...blunders.map(([p, v]) => s("circle", { cx: x(p), cy: y(v), r: 4, class: "blunder" })),
    s("line", { x1: x(0), x2: x(0), y1: pad / 2, y2: H - pad / 2, class: "frame" }),
    s("text", { x: pad, y: pad + 8, class: "axis" }, `${first} ${signed(top)}`),
    s("text", { x: pad, y: H - pad, class: "axis" }, signed(-top)),
  );
  view.graphX = x;
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    showFrame(Math.round((((e.clientX - box.left) / box.width) * W - pad) / ((W - 2 * pad) / plies)));
  };
}

// The record's moves against the endgame table (archive.Archive._values): each
// blunder's cell marked, the list of them, the graph, and the value of the frame shown.
function showValues(rec) {
  const box = document.getElementById("values");
  box.hidden = false;
  if (!rec.values) {
    const later = rec.table.pending || rec.table.busy;
    document.getElementById("value").textContent = later || `no endgame table: ${rec.table.error}`;
    if (later) setTimeout(() => loadValues(rec.name), VALUES_AGAIN_MS);
    return;
  }
  view.values = rec.values;
  const cells = document.querySelectorAll("#moves td.mv");
  for (const v of rec.values) {
    const td = cells[v.ply - 1];
    if (!td) continue;
    td.classList.toggle("valued", !v.why);
    if (v.loss > 0) {
      td.classList.add("blunder");
      td.title = `blunder: ${signed(v.before)} → ${signed(v.after)}, best ${v.best}`;
    }
  }
  const list = rec.blunders.map((p) => `ply ${p} ${rec.values[p - 1].move} (−${rec.values[p - 1].loss})`);
  const table = `${rec.table.rules} table of ≤ ${rec.table.stones} stones`;
  document.getElementById("blunders").textContent = `${table} · blunders: ${list.join(", ") || "none"}`;
  drawValueGraph(document.getElementById("value-graph"), rec.values, rec.sides[0]);
  showValue(view.frame);
}

// Values still being computed (impl/web/values.py): the record asked for again, its
// values shown once they are there; the board and its replay are untouched meanwhile.
const VALUES_AGAIN_MS = 3000;
function loadValues(name) {
  fetch(`/api/records/${encodeURIComponent(name)}`)
    .then((r) => r.json())
    .then((rec) => rec.table && showValues(rec))
    .catch(() => setTimeout(() => loadValues(name), VALUES_AGAIN_MS));
}

function initRecord(name) {
  const why = (text) => (document.getElementById("subtitle").textContent = `record ${name}: ${text}`);
  fetch(`/api/records/${encodeURIComponent(name)}`)
    .then((r) => r.json())
    .then((rec) => {
      if (!rec.frames) return why(rec.flagged || rec.error);
      // The tags as written are rec.tags; the page reads the fields made of them (archive.record_fields).
      const moves = rec.moves.map((move, i) => ({ ply: rec.plies[i], move, side: i % 2 }));
      renderGame({
        id: rec.name, record: rec.name, game: rec.game, game_no: rec.number ?? "?", server_no: rec.server, port: null,
        rules: rec.rules, engine: rec.engine || "?", time: rec.time, sides: rec.sides, names: rec.names, labels: null,
        moves, board: rec.frames[rec.frames.length - 1], clocks: null, to_move: null, number: 0, note: "",
        result: rec.result, score: rec.score,
      });
      startReplay(rec.frames, rec.clocks);
      if (rec.table) showValues(rec);
    })
    .catch(() => why("cannot be read now; reload to try again"));
}

function initGame() {
  const [, kind, id] = location.pathname.split("/");
  if (kind === "record") initRecord(decodeURIComponent(id));
  else initLiveGame(id);
}

// ─── the tournament page (impl/web/tourney.py) ─────────────────────────────────

function fixed(x, digits) {
  return x === null || x === undefined ? "infinite (all won or all lost)" : x.toFixed(digits);
}

function renderStandings(data) {
  const rated = data.standings.some((p) => p.mu !== undefined);
  const likely = data.standings.some((p) => p.elo !== undefined);
  document.querySelector("#standings th.rating").hidden = !rated;
  document.querySelector("#standings th.elo").hidden = !likely;
  const signed = (x) => (x >= 0 ? "+" : "") + x.toFixed(1);
  const rows = data.standings.map((p, i) =>
    h(
      "tr",
      { "data-player": p.player },
      h("td", { class: "num" }, i + 1),
      h("td", { class: "players" }, ...whole(p.player)),
      h("td", { class: "num games" }, p.games),
      h("td", { class: "num opt" }, p.wins),
      h("td", { class: "num opt" }, p.draws),
      h("td", { class: "num opt" }, p.losses),
      h("td", { class: "num score" }, p.score),
      h("td", { class: "num opt" }, (100 * p.score / Math.max(1, p.games)).toFixed(1)),
      // A no-break space after ±: on a phone a rating wraps before its margin, not inside it.
      ...(likely ? [h("td", { class: "num elo" }, `${signed(p.elo)} ±\u00a0${p.elo_margin.toFixed(1)}`)] : []),
      ...(rated ? [h("td", { class: "num" }, `${p.mu.toFixed(1)} ±\u00a0${p.margin.toFixed(1)}`)] : []),
    ),
  );
  document.querySelector("#standings tbody").replaceChildren(...rows);
  const elo = document.getElementById("elo");
  elo.hidden = !data.elo;
  if (data.elo) {
    const other = data.labels.find((l) => l !== data.elo.first);
    const e = data.elo;
    const margin = e.margin === null ? "n/a" : `± ${e.margin.toFixed(1)}`;
    elo.textContent = `Elo ${e.first} − ${other}: ${fixed(e.difference, 1)} ${margin} (95%), LOS ${(100 * e.los).toFixed(1)}%`;
  }
  const sprt = document.getElementById("sprt");
  sprt.hidden = !data.sprt;
  if (data.sprt) sprt.textContent = data.sprt.line;
}

function renderCrosstable(data) {
  const labels = data.labels;
  const head = h("tr", {}, h("th", {}, "player"), ...labels.map((_, j) => h("th", {}, j + 1)));
  document.querySelector("#crosstable thead").replaceChildren(head);
  const rows = labels.map((me, i) => {
    const cells = labels.map((them, j) => {
      const c = (data.crosstable[me] || {})[them];
      return h("td", {}, i === j ? "—" : c ? `${c.score}/${c.games}` : "");
    });
    return h("tr", {}, h("td", { class: "players" }, ...whole(`${i + 1} ${me}`)), ...cells);
  });
  document.querySelector("#crosstable").classList.add("cross");
  document.querySelector("#crosstable tbody").replaceChildren(...rows);
}

const liveBoards = new Map(); // game id → { card, source: watchBoard's, or null }

// A running game's players on its card: each by the standings' name (who), with the
// side, so that the board's north and south (or black and white) are the players, and
// the clock where the feed has one.
function cardPlayers(g, clocks) {
  return g.sides.map((side, i) => ({ side, name: who(g, i), clock: clocks ? clockText(clockNow(clocks, i)) : "" }));
}

// A card's board and players kept by the game's events, its clocks ticking; what it
// returns is closed when the card goes (showCards).
function watchBoard(card, id) {
  const board = card.querySelector(".board");
  const rows = card.querySelector(".sides");
  const source = new EventSource(`/events/game/${id}`);
  let game = null;
  let clocks = null;
  const show = () => {
    if (!game) return;
    rows.replaceChildren(
      ...cardPlayers(game, clocks).map((p) =>
        h("div", { class: "side", "data-side": p.side }, h("span", { class: "name" }, ...whole(`${p.name} (${p.side})`)),
          h("span", { class: "clock" }, p.clock)),
      ),
    );
  };
  const update = (e) => {
    const d = JSON.parse(e.data);
    if (e.type === "snapshot") game = d;
    if (d.board) drawBoard(board, d.board);
    if (d.clocks !== undefined) clocks = d.clocks ? tickingClocks(d.clocks) : null;
    show();
  };
  ["snapshot", "move", "clock", "over"].forEach((name) => source.addEventListener(name, update));
  ticking.add(show);
  return {
    close() {
      source.close();
      ticking.delete(show);
    },
  };
}

function renderRunning(data) {
  document.getElementById("no-boards").hidden = data.live || !data.progress.running.length;
  showCards(
    data.progress.running.map((r) => [
      r.id || `task-${r.number}`,
      () => {
        const card = h(
          "div",
          { class: "card", "data-number": r.number, "data-game": r.id || "" },
          h("div", { class: "who" }, ...whole(`game ${r.number} (round ${r.round}): ${r.first} – ${r.second}`)),
          h("div", { class: "sides" }),
          h("div", { class: "board" }),
          r.id ? h("a", { href: `/game/${r.id}`, class: "watch" }, "watch") : h("span", { class: "muted" }, "starting…"),
        );
        return { card, source: r.id ? watchBoard(card, r.id) : null };
      },
    ]),
  );
}

// The running games' cards in #running, from [key, make] pairs: a card made once per
// key and kept while its key is listed; its board's stream closed when it goes.
function showCards(wanted) {
  const keep = new Set();
  const cards = wanted.map(([key, make]) => {
    keep.add(key);
    let entry = liveBoards.get(key);
    if (!entry) {
      entry = make();
      liveBoards.set(key, entry);
    }
    return entry.card;
  });
  for (const [key, entry] of liveBoards) {
    if (!keep.has(key)) {
      if (entry.source) entry.source.close();
      liveBoards.delete(key);
    }
  }
  document.getElementById("running").replaceChildren(...(cards.length ? cards : [h("p", { class: "muted" }, "none")]));
}

// The latest games, newest first: number, round, the page's own cells, a replay link.
function renderGameRows(games, cells, columns) {
  const rows = games
    .slice()
    .reverse()
    .map((g) =>
      h(
        "tr",
        { "data-number": g.number },
        h("td", { class: "num" }, g.number),
        h("td", { class: "opt" }, g.round),
        ...cells(g),
        h("td", {}, g.record ? h("a", { href: `/record/${encodeURIComponent(g.record)}` }, "replay") : ""),
      ),
    );
  const none = h("tr", {}, h("td", { colspan: columns, class: "muted" }, "none yet"));
  document.querySelector("#games tbody").replaceChildren(...(rows.length ? rows : [none]));
}

function renderGames(data) {
  renderGameRows(
    data.games,
    (g) => [
      h("td", { class: "players" }, ...whole(g.first)),
      h("td", { class: "players" }, ...whole(g.second)),
      h("td", { class: "outcome" }, ...whole(g.score === null ? "no result" : g.score === 0.5 ? "draw" : `${g.score === 1 ? g.first : g.second} wins`)),
      h("td", { class: "opt" }, g.ending || g.termination),
    ],
    7,
  );
}

function renderTournament(data) {
  const p = data.progress;
  document.getElementById("title").textContent = `${data.game === "awari" ? "Awari" : "Gothello"} ${data.mode}`;
  document.getElementById("subtitle").textContent =
    `${data.standings.length} players, ${data.games_per_pairing} games per pairing`;
  document.getElementById("bar").style.width = `${(100 * p.played) / Math.max(1, p.total)}%`;
  const progress = document.getElementById("progress");
  progress.textContent = `${p.played} of ${p.total} games played, ${p.running.length} running`;
  document.body.dataset.played = p.played;
  const settings = document.getElementById("settings");  // the run's settings summary (issue #53)
  settings.hidden = !(data.settings && data.settings.length);
  settings.replaceChildren(...(data.settings || []).map((line) => h("li", {}, line)));
  renderStandings(data);
  renderCrosstable(data);
  renderRunning(data);
  renderGames(data);
}

function initTournament() {
  const conn = document.getElementById("conn");
  const poll = () =>
    fetch("/api/tournament")
      .then((r) => r.json())
      .then((data) => {
        conn.textContent = "live";
        if (data.progress) renderTournament(data);
      })
      .catch(() => (conn.textContent = "reconnecting…"))
      .finally(() => setTimeout(poll, 1000));
  poll();
}

// ─── the arena's pages (impl/web/arena.py) ─────────────────────────────────────

function playerLink(name) {
  return h("a", { href: `/arena/player/${encodeURIComponent(name)}` }, name);
}

function faultText(faults) {
  const words = Object.entries(faults || {}).map(([k, n]) => `${n} ${k}`);
  return words.length ? words.join(", ") : "none";
}

function renderArenaStandings(data) {
  const rows = data.standings.map((p, i) =>
    h(
      "tr",
      { "data-player": p.player },
      h("td", { class: "num" }, p.elo === null ? "" : i + 1),
      h("td", { class: "players" }, playerLink(p.player), p.anchor ? h("span", { class: "muted" }, " (anchor)") : ""),
      h("td", { class: "num" }, p.elo === null ? (p.validated ? "unrated" : "to validate") : `${p.elo.toFixed(0)} ± ${p.margin.toFixed(0)}`),
      h("td", { class: "num opt" }, p.rated),
      h("td", { class: "num" }, p.games),
      h("td", { class: "num opt" }, p.wins),
      h("td", { class: "num opt" }, p.draws),
      h("td", { class: "num opt" }, p.losses),
      h("td", { class: "num score" }, p.games ? ((100 * p.score) / p.games).toFixed(1) : ""),
      h("td", { class: "num opt" }, p.mu === null || p.mu === undefined ? "" : `${p.mu.toFixed(1)} ± ${(2 * p.sigma).toFixed(1)}`),
      h("td", { class: "opt" }, faultText(p.faults)),
    ),
  );
  document.querySelector("#standings tbody").replaceChildren(...rows);
}

function renderArenaGames(games) {
  renderGameRows(
    games,
    (g) => [
      h("td", { class: "players" }, playerLink(g.first)),
      h("td", { class: "players" }, playerLink(g.second)),
      h("td", { class: "outcome" }, g.result),
      h("td", { class: "opt" }, g.termination),
      h("td", { class: "opt", title: g.unrated || "" }, g.rated ? "yes" : `no: ${g.unrated}`),
    ],
    8,
  );
}

function renderArenaLive(data) {
  showCards(
    (data.live || []).map((r) => [
      r.id,
      () => {
        const card = h(
          "div",
          { class: "card", "data-game": r.id },
          h("div", { class: "who" }, `game ${r.server.split("-").pop()}`),
          h("div", { class: "sides" }),
          h("div", { class: "board" }),
          h("a", { href: `/game/${r.id}`, class: "watch" }, "watch"),
        );
        return { card, source: watchBoard(card, r.id) };
      },
    ]),
  );
}

function drawChart(svg, history) {
  const W = 600, H = 200, pad = 30;
  if (!history.length) {
    svg.replaceChildren(s("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "muted" }, "no rating yet"));
    return;
  }
  const lows = history.map(([, e, m]) => e - m), highs = history.map(([, e, m]) => e + m);
  const lo = Math.min(...lows), hi = Math.max(...highs, lo + 1);
  const r0 = history[0][0], r1 = Math.max(history[history.length - 1][0], r0 + 1);
  const x = (r) => pad + ((W - 2 * pad) * (r - r0)) / (r1 - r0);
  const y = (e) => H - pad - ((H - 2 * pad) * (e - lo)) / (hi - lo);
  const band = history.map(([r, e, m]) => `${x(r)},${y(e + m)}`).concat(history.slice().reverse().map(([r, e, m]) => `${x(r)},${y(e - m)}`));
  svg.replaceChildren(
    s("polygon", { points: band.join(" "), class: "band" }),
    s("polyline", { points: history.map(([r, e]) => `${x(r)},${y(e)}`).join(" "), class: "line", "data-points": history.length }),
    s("text", { x: 4, y: pad, class: "axis" }, hi.toFixed(0)),
    s("text", { x: 4, y: H - pad, class: "axis" }, lo.toFixed(0)),
    s("text", { x: W - pad, y: H - 8, "text-anchor": "end", class: "axis" }, `round ${r1}`),
  );
}

function renderArenaPlayer(data) {
  const row = data.row || {};
  document.getElementById("title").textContent = `${data.title || "arena"} · ${data.player}`;
  document.getElementById("player-name").textContent = data.player;
  document.getElementById("subtitle").replaceChildren(h("a", { href: "/arena" }, "the standings"));
  document.getElementById("player-line").textContent =
    row.elo === null || row.elo === undefined
      ? `${row.games || 0} games, not rated yet`
      : `rating ${row.elo.toFixed(0)} ± ${row.margin.toFixed(0)} (95%) over ${row.rated} rated games; ${row.games} games, ${row.wins} won, ${row.draws} drawn, ${row.losses} lost`;
  const note = document.getElementById("player-note");
  note.hidden = !row.note;
  note.textContent = row.note ? `Not rated yet: its ${row.note}` : "";
  document.getElementById("player-faults").textContent = `Faults: ${faultText(row.faults)}`;
  drawChart(document.getElementById("chart"), data.history);
  renderArenaGames(data.games);
}

function initArena() {
  const conn = document.getElementById("conn");
  const parts = location.pathname.split("/");
  const player = parts[1] === "arena" && parts[2] === "player" ? decodeURIComponent(parts[3]) : null;
  if (player !== null) {
    ["board-section", "cross-section", "live-section"].forEach((id) => (document.getElementById(id).hidden = true));
    document.getElementById("player-section").hidden = false;
  }
  const url = player === null ? "/api/arena" : `/api/arena/players/${encodeURIComponent(player)}`;
  const poll = () =>
    fetch(url)
      .then((r) => r.json())
      .then((data) => {
        conn.textContent = "live";
        if (player !== null) return renderArenaPlayer(data);
        if (!data.standings) return;
        document.getElementById("title").textContent = data.title;
        document.getElementById("subtitle").textContent = `${data.standings.length} players, ${data.games.length ? data.games[data.games.length - 1].number : 0} games`;
        const settings = document.getElementById("settings");
        settings.hidden = !(data.settings && data.settings.length);
        settings.replaceChildren(...(data.settings || []).map((line) => h("li", {}, line)));
        document.getElementById("delay").textContent = data.delay ? `(shown ${data.delay} s late)` : "";
        renderArenaStandings(data);
        renderCrosstable({ labels: data.standings.map((p) => p.player), crosstable: data.crosstable });
        renderArenaLive(data);
        renderArenaGames(data.games);
        document.body.dataset.games = data.games.length;
      })
      .catch(() => (conn.textContent = "reconnecting…"))
      .finally(() => setTimeout(poll, 2000));
  poll();
}

// ─── the TV page: one server's games in turn, for a projector ─────────────────

const tv = { shown: null, next: null, holdUntil: 0, timer: null, hold: 5, offline: false };

function renderTv(g) {
  tv.shown = g;
  document.body.dataset.game = g.id;
  document.body.dataset.plies = g.moves.length;
  document.getElementById("title").textContent = `${g.game === "awari" ? "Awari" : "Gothello"} · game ${gameNumber(g)}`;
  const where = g.port ? `server ${g.server_no}, port ${g.port}` : `tournament game ${g.server_no}`;
  document.getElementById("subtitle").textContent = `${where} · rules: ${g.rules} · engine: ${g.engine}`;
  renderPlayers(g);
  view.clocks = g.clocks && !g.result ? tickingClocks(g.clocks) : g.clocks ? { ...g.clocks, running: null } : null;
  showClocks();
  drawBoard(document.getElementById("board"), g.board);
  document.getElementById("status").textContent = g.result ? `${g.moves.length} plies` : statusText(g);
  const result = document.getElementById("result");
  result.hidden = !g.result;
  result.textContent = resultText(g);
  if (g.result) document.body.dataset.result = g.result.result;
  else delete document.body.dataset.result;
  const score = document.getElementById("score");
  score.hidden = !g.score;
  score.textContent = scoreText(g.game, g.score);
  tvConnection();
}

// "live" only under a game in play: a finished one is said so (issue #53).
function tvConnection() {
  const conn = document.getElementById("conn");
  if (tv.offline) conn.textContent = "reconnecting…";
  else conn.textContent = tv.shown && tv.shown.result ? "connected · game over" : "live";
}

// The game on screen changed; once it has ended, its result stays for tv.hold seconds.
function tvUpdate(g) {
  const was = tv.shown && tv.shown.id === g.id && tv.shown.ended;
  g.ended = Boolean(g.result);
  renderTv(g);
  if (g.ended && !was) {
    tv.holdUntil = performance.now() + tv.hold * 1000;
    tvShowNext();
  }
}

// A new game is shown at once, unless the last one's result is still on screen.
function tvShowNext() {
  clearTimeout(tv.timer);
  const wait = tv.holdUntil - performance.now();
  if (wait > 0) {
    tv.timer = setTimeout(tvShowNext, wait);
    return;
  }
  if (tv.next) {
    const next = tv.next;
    tv.next = null;
    tvUpdate(next);
  } else if (tv.shown && tv.shown.result) {
    document.getElementById("status").textContent = "waiting for the next game";
  }
}

function initTv() {
  const key = decodeURIComponent(location.pathname.split("/")[2]);
  const hold = Number(new URLSearchParams(location.search).get("hold"));
  if (hold >= 0 && new URLSearchParams(location.search).has("hold")) tv.hold = hold;
  document.body.dataset.server = key;
  ticking.add(showClocks);
  document.getElementById("status").textContent = `waiting for a game on ${key}`;
  const source = new EventSource(`/events/server/${encodeURIComponent(key)}`);
  const current = (id) => [tv.shown, tv.next].find((g) => g && g.id === id);
  source.addEventListener("snapshot", (e) => {
    const g = JSON.parse(e.data);
    if (tv.shown && tv.shown.id === g.id) return tvUpdate(g); // a catch-up of the game on screen
    if (tv.next && tv.next.id === g.id) return (tv.next = g);
    tv.next = g;
    tvShowNext();
  });
  source.addEventListener("move", (e) => {
    const m = JSON.parse(e.data);
    const g = current(m.id);
    if (!g) return;
    g.moves.push({ ply: m.ply, move: m.move, side: m.side });
    Object.assign(g, { board: m.board, to_move: m.to_move, number: m.number, clocks: m.clocks, note: "" });
    if (g === tv.shown) renderTv(g);
  });
  source.addEventListener("clock", (e) => {
    const c = JSON.parse(e.data);
    const g = current(c.id);
    if (!g) return;
    Object.assign(g, { clocks: c.clocks, note: c.note });
    if (g === tv.shown) renderTv(g);
  });
  source.addEventListener("over", (e) => {
    const o = JSON.parse(e.data);
    const g = current(o.id);
    if (!g) return;
    Object.assign(g, { result: o.result, score: o.score, clocks: o.clocks, board: o.board, to_move: null });
    if (g === tv.shown) tvUpdate(g);
  });
  source.onopen = () => {
    tv.offline = false;
    tvConnection();
  };
  source.onerror = () => {
    tv.offline = true;
    tvConnection();
  };
}

const PAGE = document.body.dataset.page;
if (PAGE === "list") initList();
else if (PAGE === "tournament") initTournament();
else if (PAGE === "arena") initArena();
else if (PAGE === "tv") initTv();
else initGame();
