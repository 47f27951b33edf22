// The table of any patience game in the browser. The server's engine is authoritative: this page draws
// the view it receives, lays the piles out as the game's description says (the "table" message: each
// pile's place, position and fan, from cardtable.patience.layout) and proposes moves in the game's
// notation over one WebSocket (cardtable/web/patience_room.py). It has no code for any one game and never
// decides legality beyond choosing which move a gesture means.
import { backSvg, cardElement, cardName, cardSvg, showCard, slotElement } from "./cards.js";
import { focusToward, followPointer, pulse } from "./gestures.js";
import { clock, closeWonBox, gameSeconds, keepLooks, showWonBox, socketUrl } from "./looks.js";
import { openReview, receiveReview } from "./review.js";

const table = document.getElementById("table");
const message = document.getElementById("message");
const wonBox = document.getElementById("won");
const help = document.getElementById("help");
const settings = document.getElementById("settings");
const dealDialog = document.getElementById("deal");
const statsDialog = document.getElementById("stats");
const dialogs = [help, settings, dealDialog, statsDialog];

const name = decodeURIComponent(location.pathname.split("/")[2] || "");
const params = new URLSearchParams(location.search);
const options = params.get("options") || "";
let wantedDeal = params.get("seed");   // the deal the address asks for, dealt once on the first view

let game = null;          // the "table" message: the game's name, rules, help, options and layout
let view = null;          // the last view from the server
let socket = null;
let selected = null;      // {place, count}: the cards picked up by a tap or a key
const elements = new Map(); // card key -> element

// ----- the connection -----------------------------------------------------------------------------

function connect() {
  const url = socketUrl(`/play/${encodeURIComponent(name)}/ws`);
  if (options) url.searchParams.set("options", options);
  socket = new WebSocket(url);
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    table.dataset.state = "connecting";
    setTimeout(connect, 1000);
  });
}

function send(payload) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
}

function say(text) { message.textContent = text; }

function receive(reply) {
  if (receiveReview(reply)) return;
  if (reply.type === "table") {
    game = reply.table;
    describeGame();
  } else if (reply.type === "view") {
    view = reply.view;
    table.dataset.state = "ready";
    delete table.dataset.finding;
    table.setAttribute("aria-busy", "false");
    selected = null;
    if (wantedDeal !== null) {
      const wanted = wantedDeal;
      wantedDeal = null;
      if (view.deal !== wanted) send({ type: "new", deal: wanted });
    }
    keepAddress();
    render();
    if (reply.said) say(reply.said);
    if (!document.documentElement.dataset.drawn) performance.mark("cardtable:table-drawn");
    document.documentElement.dataset.drawn = "yes";
  } else if (reply.type === "error") {
    say(reply.message.charAt(0).toUpperCase() + reply.message.slice(1) + ".");
    render();
  } else if (reply.type === "hint") {
    say(reply.text);
    if (reply.move) showHint(reply.move);
  } else if (reply.type === "stats") {
    showStats(reply);
  } else if (reply.type === "grading") {
    showGrading(reply.reason);
  } else if (reply.type === "dealing") {  // a deal is searched for (null: the search failed)
    selected = null;
    if (reply.text) { table.dataset.finding = reply.text; say(reply.text); } else delete table.dataset.finding;
    table.setAttribute("aria-busy", reply.text ? "true" : "false");
  }
}

// The address names the deal on the table, so that it can be shared (and a reload asks for the same).
function keepAddress() {
  const query = new URLSearchParams();
  if (options) query.set("options", options);
  query.set("seed", view.deal);
  history.replaceState(null, "", `${location.pathname}?${query}`);
}

// ----- places -------------------------------------------------------------------------------------

const KINDS = { tableau: "pile", foundations: "foundation", cells: "cell", reserve: "reserve", stock: "stock",
  waste: "waste", hole: "hole" };

function kindOf(place) {
  if (/^[0-9]+$/.test(place)) return "tableau";
  if (/^[a-p]$/.test(place)) return "cells";
  if (/^F[0-9]+$/.test(place)) return "foundations";
  if (/^R[0-9]+$/.test(place)) return "reserve";
  return { S: "stock", W: "waste", H: "hole" }[place];
}

// A pile in words, as the server's messages name it: "pile 3", "cell a", "foundation 2", "waste".
function placeWords(place) {
  const kind = kindOf(place);
  if (kind === "tableau") return `pile ${place}`;
  if (kind === "cells") return `cell ${place}`;
  if (kind === "foundations") return `foundation ${place.slice(1)}`;
  if (kind === "reserve") return `reserve ${place.slice(1)}`;
  return KINDS[kind];
}

function pileOf(place) { return view.piles.find((pile) => pile.place === place); }
function layoutOf(place) { return game.layout.piles.find((pile) => pile.place === place); }

// Whether a gesture may take any face-up card of the pile (with the cards on it), or only its top card.
function fanned(place) { return layoutOf(place).fan !== "none" && kindOf(place) !== "waste"; }

// ----- layout -------------------------------------------------------------------------------------

// The card's size. The layout is in card units (x: a card's width and the gap between two cards; y: a
// card's height and the gap), and fills the width, and the height as far as its rows and the first cards of
// its fanned piles go (a longer fan is squeezed to fit), up to 150 px a card. On a phone the gaps are
// narrower and ten columns fit the screen's width.
function metrics() {
  const L = game.layout;
  const phone = window.matchMedia("(max-width: 520px)").matches;
  const pad = phone ? 3 : 8, gap = phone ? 0.06 : 0.12;
  const width = document.documentElement.clientWidth - 2 * pad;
  const height = table.clientHeight - 2 * pad;
  const fit = Math.max(...L.piles.map((pile) => pile.y + (pile.fan === "down" ? Math.min(pile.height, 2.6) : pile.height)));
  const cw = Math.max(16, Math.min(150, width / (L.width * (1 + gap) - gap), height / (fit * (1.4 + gap) - gap)));
  const ch = cw * 1.4;
  const unitX = cw * (1 + gap), unitY = ch + cw * gap;
  return { cw, ch, pad, unitX, unitY, gap: cw * gap, width: L.width * unitX - cw * gap,
    bottom: pad + height };
}

function position(m, pile) { return [m.pad + pile.x * m.unitX, m.pad + pile.y * m.unitY]; }

// How far a fanned pile's cards step: as far as its box allows (the layout's room for it), and no further
// than the table's bottom.
function steps(m, pile, cards) {
  const [, y] = position(m, pile);
  const n = cards.down + cards.up;
  if (pile.fan === "right") {
    const room = pile.width * m.unitX - m.gap - m.cw;
    const step = Math.min(m.cw * (m.cw < 64 ? 0.5 : 0.3), n > 1 ? room / (n - 1) : room);
    return { down: [step * 0.5, 0], up: [step, 0] };
  }
  const room = Math.min(pile.height * m.unitY - m.gap, m.bottom - y) - m.ch;
  let down = m.ch * 0.1, up = m.ch * (m.cw < 64 ? 0.36 : 0.27);
  const need = cards.down * down + Math.max(0, cards.up - 1) * up;
  if (need > room) { down *= room / need; up *= room / need; }
  return { down: [0, down], up: [0, up] };
}

function slot(place, x, y, label) {
  const el = slotElement(table, "place", place, kindOf(place), x, y, label);
  if (kindOf(place) === "foundations") el.dataset.mark = game.foundationMark;
  return el;
}

function place(key, face, x, y, z, options) {
  const el = cardElement(table, elements, key);
  showCard(el, face, () => (face === "down" ? backSvg() : cardSvg(face)), x, y, z, options.selected, options.label);
  el.dataset.place = options.place;
  if (options.index !== undefined) el.dataset.index = String(options.index); else delete el.dataset.index;
  return el;
}

function pileLabel(place, pile) {
  const words = placeWords(place);
  const total = pile.down + pile.up.length;
  if (kindOf(place) === "stock") {
    return total ? `stock, ${total} card${total === 1 ? "" : "s"}: deal` : "stock, empty";
  }
  if (!total) return `${words}, empty`;
  const hidden = pile.down ? `, ${pile.down} face down` : "";
  return `${words}, ${total} card${total === 1 ? "" : "s"}${hidden}`;
}

function render() {
  if (!view || !game) return;
  const m = metrics();
  table.style.setProperty("--cw", `${m.cw}px`);
  table.style.setProperty("--ch", `${m.ch}px`);
  table.style.setProperty("--radius", `${m.cw * 0.07}px`);
  table.style.width = `${m.width + 2 * m.pad}px`;
  table.classList.toggle("compact", m.cw < 64);
  const seen = new Set();
  const counts = new Map();  // a card's key: its text and which copy (two-deck games hold two of each)
  const keyOf = (card) => {
    const n = (counts.get(card) || 0) + 1;
    counts.set(card, n);
    return `${card}#${n}`;
  };
  const held = selected ? heldCards(selected) : new Set();
  game.layout.piles.forEach((spot, order) => {
    const pile = pileOf(spot.place);
    const [x, y] = position(m, spot);
    const el = slot(spot.place, x, y, pileLabel(spot.place, pile));
    // ✕ once no pass is left; ↻ while the waste may turn over; a bare slot when it may later (nothing to turn now)
    el.classList.toggle("spent", kindOf(spot.place) === "stock" && !pile.down && view.passesLeft === 0);
    el.classList.toggle("recycle", kindOf(spot.place) === "stock" && !pile.down && view.legal.includes("R"));
    el.classList.toggle("gone", kindOf(spot.place) === "tableau" && !game.spaceTakes && !pile.down && !pile.up.length);
    const base = 10 + order * 200;
    if (kindOf(spot.place) === "stock") {
      for (let i = 0; i < Math.min(pile.down, 3); i++) {
        const key = `stock-${i}`;
        seen.add(key);
        place(key, "down", x + i * 1.5, y - i * 1.5, base + i, { place: spot.place });
      }
      return;
    }
    const step = steps(m, spot, { down: pile.down, up: pile.up.length });
    let cx = x, cy = y;
    const flat = spot.fan === "none";
    // A pile that does not fan shows its top two cards (the second shows while the top one is dragged).
    const firstUp = flat ? Math.max(0, pile.up.length - 2) : 0;
    if (!flat || !pile.up.length) {
      for (let i = 0; i < (flat ? Math.min(pile.down, 1) : pile.down); i++) {
        const key = `down-${spot.place}-${i}`;
        seen.add(key);
        place(key, "down", cx, cy, base + i, { place: spot.place });
        if (!flat) { cx += step.down[0]; cy += step.down[1]; }
      }
    }
    // The waste fans only its last cards (as many as one deal brings), the rest lie under them.
    const wasteFan = kindOf(spot.place) === "waste" && spot.fan === "right";
    const shownFrom = wasteFan ? Math.max(0, pile.up.length - 3) : 0;
    pile.up.forEach((card, i) => {
      const key = keyOf(card);
      if (i < firstUp) return;
      seen.add(key);
      const top = i === pile.up.length - 1;
      const takes = top || fanned(spot.place);
      place(key, card, cx, cy, base + 50 + i, {
        place: spot.place, index: i, selected: held.has(i) && selected.place === spot.place,
        label: takes ? `${cardName(card)}, ${placeWords(spot.place)}` : null,
      });
      if (!flat && i < pile.up.length - 1 && (!wasteFan || i >= shownFrom)) { cx += step.up[0]; cy += step.up[1]; }
    });
  });
  for (const [key, el] of elements) {
    if (!seen.has(key)) { el.remove(); elements.delete(key); }
  }
  status();
  showWonBox(wonBox, table, message, view.won);
  document.querySelector('[data-action="undo"]').disabled = !view.canUndo;
  document.querySelector('[data-action="redo"]').disabled = !view.canRedo;
  document.querySelector('[data-action="autofinish"]').disabled = !view.canFinish;
  document.querySelector('[data-action="restart"]').disabled = !view.moves;
}

function heldCards(spot) {
  const pile = pileOf(spot.place);
  const indices = new Set();
  for (let i = pile.up.length - spot.count; i < pile.up.length; i++) indices.add(i);
  return indices;
}

function status() {
  document.getElementById("st-game").textContent = game.title;
  document.getElementById("st-moves").textContent = `Moves ${view.moves}`;
  document.getElementById("st-passes").textContent = view.passes === null ? "" : `Pass ${view.pass} of ${view.passes}`;
  document.getElementById("st-deal").textContent = (view.daily ? `Daily ${view.daily}` : `Deal ${view.deal}`)
    + (view.grade ? ` (${view.grade})` : view.winnable ? " (winnable)" : "");
  tick();
}

function tick() {
  if (!view) return;
  document.getElementById("st-time").textContent = clock(gameSeconds(view));
}

// ----- moves from gestures ------------------------------------------------------------------------------

// The spot a card is taken from: its pile and how many cards go with it (null: it cannot be taken).
function spotOf(el) {
  const where = el.dataset.place;
  if (el.dataset.index === undefined || !where) return null;
  const pile = pileOf(where);
  const i = Number(el.dataset.index);
  if (kindOf(where) === "hole") return null;
  if (i !== pile.up.length - 1 && !fanned(where)) return null;
  return { place: where, count: pile.up.length - i };
}

// The move a gesture means: the cards of `spot` put on the pile `target`, in the game's notation.
function moveText(spot, target) {
  const kind = kindOf(target);
  const source = spot.place;
  if (kind === "foundations") return `${source}>F`;
  if (kind === "hole") return `${source}>H`;
  if (game.pairs && kind !== "stock") {  // two free cards that make the pair's total go to the hole together
    return view.legal.find((move) => move === `${target}+${source}>H`) || `${source}+${target}>H`;
  }
  return `${source}>${target}${spot.count > 1 ? `:${spot.count}` : ""}`;
}

function tryPut(spot, target) {
  if (!target || target === spot.place || (kindOf(target) === "foundations" && kindOf(spot.place) === "foundations")) {
    return false;
  }
  if (kindOf(target) === "stock") return false;
  send({ type: "move", move: moveText(spot, target) });
  return true;
}

// A card sent home: to the foundations, or to the hole; a move the game does not allow is still asked
// for, so that the server says why not.
function sendHome(spot) {
  if (!spot || spot.count !== 1 || kindOf(spot.place) === "foundations") return;
  const home = [`${spot.place}>F`, `${spot.place}>H`];
  const legal = view.legal.find((move) => home.includes(move));
  if (legal) { send({ type: "move", move: legal }); return; }
  const kinds = new Set(game.layout.piles.map((pile) => kindOf(pile.place)));
  if (kinds.has("foundations")) send({ type: "move", move: home[0] });
  else if (kinds.has("hole") && !game.pairs) send({ type: "move", move: home[1] });
  else say("That card cannot go anywhere by itself.");
}

function deal() {
  selected = null;
  const move = ["D", "R"].find((m) => view.legal.includes(m)) || "D";
  send({ type: "move", move });
}

function pick(spot) {
  selected = spot;
  render();
  const cards = pileOf(spot.place).up.slice(-spot.count).map(cardName).join(", ");
  say(`Picked up ${cards}. Now choose where it goes.`);
}

function tap(el) {
  const where = el.dataset.place;
  if (!where) return;
  if (kindOf(where) === "stock") { deal(); return; }
  const spot = spotOf(el);
  if (selected) {
    const from = selected;
    selected = null;
    if (where === from.place) {
      if (spot && spot.count !== from.count) { pick(spot); return; }
      render(); say("Put back."); return;
    }
    if (!tryPut(from, where)) render();
    return;
  }
  if (spot) pick(spot);
}

function runOf(spot) {
  const pile = pileOf(spot.place);
  const first = pile.up.length - spot.count;
  return [...table.querySelectorAll(`.card[data-place="${CSS.escape(spot.place)}"]`)]
    .filter((el) => el.dataset.index !== undefined && Number(el.dataset.index) >= first);
}

followPointer(table, {
  targetAttribute: "place",
  holds: (el) => (!view ? undefined : el.classList.contains("card") ? spotOf(el) : null),
  run: runOf,
  drop: (spot, target) => { selected = null; return tryPut(spot, target); },
  settle: () => render(),
  tap: (el, spot, twice) => {
    if (twice && spot) { selected = null; sendHome(spot); return; }
    tap(el);
  },
});

// ----- hints --------------------------------------------------------------------------------------

function showHint(move) {
  const marks = [];
  if (move === "D" || move === "R") {
    marks.push(table.querySelector('.slot[data-place="S"]'));
  } else {
    const [from, rest] = move.split(">");
    const [source, pair] = from.split("+");
    const [target, count] = rest.split(":");
    marks.push(...runOf({ place: source, count: Number(count || 1) }));
    if (pair) marks.push(...runOf({ place: pair, count: 1 }));
    const home = table.querySelector(`.slot[data-place="${CSS.escape(target === "F" ? "F1" : target)}"]`);
    marks.push(home);
  }
  pulse(marks);
}

// ----- statistics: the server's (its results store); the last read kept in this browser for when it is away ------

function statsKey() { return `cardtable.stats.${game.rules}`; }

function askStats() {
  const rows = document.getElementById("stats-rows");
  if (socket && socket.readyState === WebSocket.OPEN) {
    rows.innerHTML = '<tr><td colspan="8">Reading…</td></tr>';
    document.getElementById("stats-daily").textContent = "";
    statsDialog.showModal();
    send({ type: "stats" });
    return;
  }
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(statsKey()) || "null"); } catch { kept = null; }
  showStats(kept && kept.stats ? kept : null, true);
}

function showStats(reply, away = false) {
  const rows = document.getElementById("stats-rows");
  rows.textContent = "";
  const note = document.getElementById("stats-daily");
  if (!reply) {
    rows.innerHTML = '<tr><td colspan="8">The server is away: no figures read yet.</td></tr>';
    note.textContent = "";
  } else {
    const s = reply.stats;
    const cells = [game.title, s.played, s.won, s.played ? `${Math.round(100 * s.win_rate)}%` : "–",
      s.best_seconds === null ? "–" : clock(s.best_seconds), s.fewest_moves === null ? "–" : s.fewest_moves,
      s.current_streak, s.best_streak];
    const names = [...statsDialog.querySelectorAll("thead th")].map((th) => th.textContent);
    const row = document.createElement("tr");
    cells.forEach((value, i) => {
      const cell = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) cell.scope = "row";
      cell.textContent = String(value);
      cell.dataset.label = names[i];
      row.appendChild(cell);
    });
    rows.appendChild(row);
    const d = reply.daily;
    note.textContent = (d ? `Daily deals: ${d.days} played, ${d.days_won} won; days won in a row: `
      + `${d.current_streak} now, ${d.best_streak} at best.` : "No daily deal played yet.")
      + (away ? " (The server is away: your figures as last read.)" : "");
    if (!away) {
      try { localStorage.setItem(statsKey(), JSON.stringify(reply)); } catch { /* private mode: not kept */ }
    }
  }
  if (!statsDialog.open) statsDialog.showModal();
}

// ----- the game's rules, options and other games of its family --------------------------------------------

function describeGame() {
  document.title = `cardtable: ${game.title}`;
  table.setAttribute("aria-label", `${game.title} table`);
  // The rules, a paragraph a part under its heading; `1`, `S`, `D`: the names of piles and moves, as code.
  const rules = document.getElementById("rules");
  rules.textContent = "";
  const summary = document.createElement("p");
  summary.textContent = game.summary;
  rules.appendChild(summary);
  for (const part of game.help) {
    const heading = document.createElement("h3");
    heading.textContent = part.heading;
    const text = document.createElement("p");
    part.text.split("`").forEach((piece, i) => {
      if (i % 2) { const code = document.createElement("code"); code.textContent = piece; text.appendChild(code); }
      else text.appendChild(document.createTextNode(piece));
    });
    rules.append(heading, text);
  }
  document.getElementById("help-title").textContent = `How to play ${game.title}`;
  const box = document.getElementById("options");
  box.textContent = "";
  for (const option of game.options) {
    const label = document.createElement("label");
    label.className = "check";
    const input = document.createElement("input");
    input.type = "checkbox";
    input.name = "option";
    input.value = option.name;
    input.checked = game.applied.includes(option.name);
    label.append(input, ` ${option.summary}`);
    box.appendChild(label);
  }
  document.getElementById("options-box").hidden = !game.options.length;
  document.getElementById("options-apply").hidden = !game.options.length;
  const variants = document.getElementById("variants");
  variants.textContent = "";
  for (const other of game.variants || []) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/play/${encodeURIComponent(other.name)}`;
    link.textContent = other.title;
    item.appendChild(link);
    variants.appendChild(item);
  }
  document.getElementById("variants-box").hidden = !(game.variants || []).length;
  render();
}

settings.addEventListener("close", () => {
  if (settings.returnValue !== "apply") return;
  const chosen = [...settings.querySelectorAll('input[name="option"]:checked')].map((input) => input.value);
  const query = new URLSearchParams();
  if (chosen.length) query.set("options", chosen.join(","));
  location.href = `/play/${encodeURIComponent(name)}${chosen.length ? `?${query}` : ""}`;
});

// Graded deals: offered once the server says the game's deals can be graded, else the dialog says why not.
let grading;  // undefined: not asked yet; null: they can be graded; a string: why not
function showGrading(reason) {
  grading = reason;
  const select = dealDialog.querySelector('select[name="difficulty"]');
  const note = document.getElementById("grading-note");
  select.disabled = reason !== null;
  document.getElementById("difficulty-row").style.display = reason === null ? "" : "none";  // the labels' CSS outranks hidden
  note.textContent = reason === null
    ? "A difficulty deals a deal of that grade (from the deal number on, if one is given): proven winnable, found in seconds."
    : `No graded deals: ${reason}.`;
}

dealDialog.addEventListener("close", () => {
  selected = null;
  if (dealDialog.returnValue === "daily") { send({ type: "new", daily: true }); return; }
  if (dealDialog.returnValue !== "deal") return;
  const text = dealDialog.querySelector('input[name="number"]').value.trim();
  const winnable = dealDialog.querySelector('input[name="winnable"]').checked;
  const difficulty = grading === null ? dealDialog.querySelector('select[name="difficulty"]').value : "";
  if (difficulty) { send(text ? { type: "new", difficulty, deal: text } : { type: "new", difficulty }); return; }
  send(text ? { type: "new", deal: text } : winnable ? { type: "new", winnable: true } : { type: "new" });
});

// ----- the toolbar and the keys ---------------------------------------------------------------------

function act(action) {
  if (action === "help") { help.showModal(); return; }
  if (action === "stats") { askStats(); return; }
  if (action === "review") { openReview(send, view ? view.moves : 0); return; }
  if (action === "settings") { settings.showModal(); return; }
  if (action === "choose") {
    dealDialog.querySelector("form").reset();
    if (grading === undefined) send({ type: "grading" }); else showGrading(grading);
    dealDialog.showModal();
    return;
  }
  if (action === "deal") { deal(); return; }
  selected = null;
  if (action === "hint") say("Thinking\u2026");  // the expert weighs its guesses for up to a second
  send({ type: action });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button) act(button.dataset.action);
});

document.addEventListener("keydown", (event) => {
  if (dialogs.some((dialog) => dialog.open) || event.altKey || event.metaKey || !view) return;
  const key = event.key;
  if (event.ctrlKey) {
    if (key === "z") act("undo");
    else if (key === "y") act("redo");
    else return;
  } else if (key === "u") act("undo");
  else if (key === "h") act("hint");
  else if (key === "a") act("autofinish");
  else if (key === "n") act("choose");
  else if (key === "t") act("stats");
  else if (key === "v") act("review");
  else if (key === "d") act("deal");
  else if (key === "?") act("help");
  else if (key.startsWith("Arrow")) {  // a pile's place is a stop only while no card lies on it
    focusToward(table, key, (el) => el.classList.contains("slot") && kindOf(el.dataset.place) !== "stock"
      && pileOf(el.dataset.place).up.length + pileOf(el.dataset.place).down > 0);
  } else if (key === "Escape") { selected = null; render(); say("Put back."); }
  else if ((key === "Enter" || key === " ") && document.activeElement && table.contains(document.activeElement)) {
    const el = document.activeElement;
    const focus = el.dataset.key || null;
    tap(el);
    const again = focus ? elements.get(focus) : el;
    if (again && again.isConnected) again.focus();
  } else return;
  event.preventDefault();
});

keepLooks(settings);
window.addEventListener("resize", () => render());
closeWonBox(wonBox);
// The table's room changes without the window's too (the bar above it wraps onto a second line, or back,
// as the status line's text changes): the cards are sized anew.
new ResizeObserver(() => render()).observe(table);
setInterval(tick, 1000);
connect();
