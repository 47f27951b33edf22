// The Klondike table in the browser. The server's engine is authoritative: this
// page draws the view it receives and proposes moves in the engine's notation
// over one WebSocket (see cardtable/web/protocol.py). It never decides legality
// beyond choosing which card a gesture means.
import { SUIT_ORDER, backSvg, cardElement, cardName, cardSvg, parseCard, showCard, slotElement, suitSymbol } from "./cards.js";
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
const cheer = document.getElementById("cheer");
const probe = table.querySelector(".probe");
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const RANKS = "A23456789TJQK";

let view = null;          // the last view from the server
let socket = null;
let selected = null;      // {source: "3"|"W"|"Fh", count}
const elements = new Map(); // card key -> element
let drawn = false;        // the first view has been drawn (performance mark "cardtable:table-drawn")
let celebration = null;   // the win celebration running: {stop()}
let dealing = null;       // while the server searches for a new deal: what the page says ("Finding a hard deal…")

// ----- the connection -----------------------------------------------------------------------------

function connect() {
  socket = new WebSocket(socketUrl("/ws"));
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  // A dialog opened before the connection was up asked for the rule sets in vain: ask again now.
  socket.addEventListener("open", () => { if (dealDialog.open && !rulesHad) send({ type: "rules" }); });
  socket.addEventListener("close", () => {
    table.dataset.state = "connecting";
    setTimeout(connect, 1000);
  });
}

// What the game being left does not take while a new deal is searched for (the server refuses them too).
const AFTER_THE_DEAL = new Set(["move", "draw", "undo", "redo", "restart", "autofinish", "hint", "new"]);

function send(payload) {
  if (dealing && AFTER_THE_DEAL.has(payload.type)) { selected = null; render(); say(dealing); return; }
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
}

// A new deal being searched for (text: what to say) or not (null): the table says so, in the live message
// line and over the cards, and takes no move until the deal comes.
function showDealing(text) {
  dealing = text;
  if (text) { table.dataset.finding = text; say(text); } else delete table.dataset.finding;
  table.setAttribute("aria-busy", text ? "true" : "false");
}

function say(text) { message.textContent = text; }

function receive(reply) {
  if (receiveReview(reply)) return;
  if (reply.type === "view") {
    const before = view;
    view = reply.view;
    table.dataset.state = "ready";
    showDealing(null);
    selected = null;
    render(before);
    if (reply.said) say(reply.said);
    if (view.won && before && !before.won) celebrate();
    if (!view.won && celebration) celebration.stop();
    if (!drawn) {
      drawn = true;
      performance.mark("cardtable:table-drawn");
      document.documentElement.dataset.drawn = "yes";
    }
  } else if (reply.type === "error") {
    say(reply.message.charAt(0).toUpperCase() + reply.message.slice(1) + ".");
    render();
  } else if (reply.type === "rules") {
    showRules(reply.rules);
  } else if (reply.type === "notice") {
    say(reply.text);
  } else if (reply.type === "hint") {
    say(reply.text);
    if (reply.move) showHint(reply.move);
  } else if (reply.type === "stats") {
    showStats(reply);
  } else if (reply.type === "dealing") {
    selected = null;
    render();
    showDealing(reply.text);
  }
}

function propose(move) { send({ type: "move", move }); }

// ----- layout ---------------------------------------------------------------------------------------

// The card's size comes from the style sheet (the probe is one card), and so do the gaps and the fans'
// steps, which a phone's layout changes (table.css).
function metrics() {
  const box = probe.getBoundingClientRect();
  const style = getComputedStyle(table);
  const ratio = (name, fallback) => parseFloat(style.getPropertyValue(name)) || fallback;
  const w = box.width, h = box.height, gap = w * ratio("--gap-ratio", 0.14);
  const top = Math.max(gap * 0.6, h * 0.06), between = Math.max(gap, h * 0.1);
  return { w, h, gap, top, row2: top + h + between, height: table.clientHeight,
    fanDown: ratio("--fan-down", 0.1), fanUp: ratio("--fan-up", 0.28), wasteFan: ratio("--waste-fan", 0.22) };
}

function pileX(m, index) { return m.gap + index * (m.w + m.gap); }

function fanSteps(m, pile) {
  const room = Math.max(m.h * 0.5, m.height - m.row2 - m.h - m.gap * 0.5);
  // A fanned card shows its corner's rank and suit; a long pile is squeezed to fit the window.
  let down = m.h * m.fanDown, up = m.h * m.fanUp;
  const need = pile.down * down + Math.max(0, pile.up.length - 1) * up;
  if (need > room) {
    const scale = room / need;
    down *= scale; up *= scale;
  }
  return { down, up };
}

function foundationSource(suit) { return `F${suit}`; }

function spotOf(card) {
  // Where a face-up card lies and how many cards a gesture on it carries: {source, count}.
  const i = view.waste.indexOf(card);
  if (i >= 0) return i === view.waste.length - 1 ? { source: "W", count: 1 } : null;
  for (let p = 0; p < 7; p++) {
    const at = view.piles[p].up.indexOf(card);
    if (at >= 0) return { source: String(p + 1), count: view.piles[p].up.length - at };
  }
  const { rank, suit } = parseCard(card);
  if (view.foundation[SUIT_ORDER.indexOf(suit)] === rank) return { source: foundationSource(suit), count: 1 };
  return null;
}

function cardsOf(spot) {
  if (spot.source === "W") return [view.waste[view.waste.length - 1]];
  if (spot.source.startsWith("F")) {
    const s = SUIT_ORDER.indexOf(spot.source[1]);
    return [topOfFoundation(s)];
  }
  const up = view.piles[Number(spot.source) - 1].up;
  return up.slice(up.length - spot.count);
}

function topOfFoundation(s) {
  const rank = view.foundation[s];
  return rank ? "A23456789TJQK"[rank - 1] + SUIT_ORDER[s] : null;
}

function slot(key, className, x, y, label, target) {
  const el = slotElement(table, "slot", key, className, x, y, label);
  if (target) el.dataset.target = target; else delete el.dataset.target;
  return el;
}

function place(key, html, x, y, z, options) {
  const fresh = !elements.has(key);
  const el = cardElement(table, elements, key);
  if (fresh && options.from) {  // a drawn card slides from the stock
    el.style.left = `${options.from[0]}px`;
    el.style.top = `${options.from[1]}px`;
    void el.offsetWidth;
  }
  showCard(el, options.face, () => html, x, y, z, options.selected, options.label);
  el.classList.toggle("stockcard", Boolean(options.stock));
  el.style.transitionDelay = "";
  if (options.target) el.dataset.target = options.target; else delete el.dataset.target;
  if (options.card) el.dataset.card = options.card; else delete el.dataset.card;
  return el;
}

// The cards the player saw in a view (face up anywhere, or under a foundation's top).
function visibleCards(v) {
  const cards = new Set(v.waste);
  v.piles.forEach((pile) => pile.up.forEach((card) => cards.add(card)));
  v.foundation.forEach((rank, s) => { for (let r = 1; r <= rank; r++) cards.add(RANKS[r - 1] + SUIT_ORDER[s]); });
  return cards;
}

function render(before = null) {
  if (!view) return;
  const m = metrics();
  const seen = new Set();
  const known = before ? visibleCards(before) : null;
  // Cards going home together (auto-finish) leave one after another.
  let homeward = 0;
  const goingHome = (card) => before && before.foundation[SUIT_ORDER.indexOf(card[1])] < RANKS.indexOf(card[0]) + 1;
  const keep = (key) => { seen.add(key); return key; };
  const isSelected = (card) => selected && cardsOf(selected).includes(card);

  // The stock and the waste.
  const stock = slot("stock", "stock", pileX(m, 0), m.top,
    view.stock ? `stock, ${view.stock} cards: draw` : (canRecycle() ? "stock, empty: turn the waste over" : "stock, empty"));
  // ✕ once no pass is left; ↻ while the waste may turn over; a bare slot when it may later (nothing to turn now)
  stock.classList.toggle("recycle", !view.stock && canRecycle());
  stock.classList.toggle("spent", !view.stock && view.passesLeft === 0);
  for (let i = 0; i < Math.min(view.stock, 3); i++) {
    place(keep(`stock-${i}`), backSvg(), pileX(m, 0) + i * 1.5, m.top - i * 1.5, 1 + i,
      { face: "down", stock: true });
  }
  slot("waste", "waste", pileX(m, 1), m.top, view.waste.length ? "waste" : "waste, empty", null);
  const fan = view.draw > 1 ? 3 : 1;
  const shown = view.waste.slice(-fan);
  view.waste.forEach((card, i) => {
    const k = i - (view.waste.length - shown.length);
    const x = pileX(m, 1) + Math.max(0, k) * m.w * m.wasteFan;
    const top = i === view.waste.length - 1;
    place(keep(card), cardSvg(card), x, m.top, 10 + i,
      { face: "up", card, selected: isSelected(card), label: top ? `${cardName(card)}, waste` : null,
        from: [pileX(m, 0), m.top] });
  });

  // The foundations.
  SUIT_ORDER.forEach((suit, s) => {
    const x = pileX(m, 3 + s);
    const rank = view.foundation[s];
    const el = slot(`f${suit}`, "foundation", x, m.top,
      rank ? `${suitSymbol(suit)} foundation, up to the ${cardName(topOfFoundation(s))}` : `${cardName("A" + suit).replace("ace of ", "")} foundation, empty`,
      "F");
    el.dataset.suit = suitSymbol(suit);
    for (let r = 1; r <= rank; r++) {
      const card = RANKS[r - 1] + suit;
      const top = r === rank;
      const delay = goingHome(card) && elements.has(card) ? homeward++ : 0;
      const el = place(keep(card), cardSvg(card), x, m.top, 100 + r,
        { face: "up", card, target: "F", selected: isSelected(card), label: top ? `${cardName(card)}, foundation` : null });
      el.style.transitionDelay = delay ? `calc(var(--speed) * ${delay * 0.5})` : "";
    }
  });

  // The tableau.
  view.piles.forEach((pile, p) => {
    const x = pileX(m, p);
    const steps = fanSteps(m, pile);
    const label = `pile ${p + 1}` + (pile.down ? `, ${pile.down} face down` : "") + (pile.up.length || pile.down ? "" : ", empty");
    slot(`p${p}`, "pile", x, m.row2, label, String(p + 1));
    let y = m.row2;
    for (let i = 0; i < pile.down; i++) {
      place(keep(`down-${p}-${i}`), backSvg(), x, y, 200 + i, { face: "down", target: String(p + 1) });
      y += steps.down;
    }
    pile.up.forEach((card, i) => {
      const turned = known && !known.has(card) && !elements.has(card);  // just turned face up: it flips
      const el = place(keep(card), cardSvg(card), x, y, 240 + i,
        { face: "up", card, target: String(p + 1), selected: isSelected(card), label: `${cardName(card)}, pile ${p + 1}` });
      if (turned) {
        el.classList.remove("flip");
        void el.offsetWidth;
        el.classList.add("flip");
      }
      if (i < pile.up.length - 1) y += steps.up;
    });
  });

  for (const [key, el] of elements) {
    if (!seen.has(key)) { el.remove(); elements.delete(key); }
  }
  status();
  showWonBox(wonBox, table, message, view.won);
  const undo = document.querySelector('[data-action="undo"]');
  undo.disabled = !view.canUndo;
  undo.title = view.canUndo || !view.undoRule || !view.moves ? "Undo (u)" : view.undoRule;
  document.querySelector('[data-action="redo"]').disabled = !view.canRedo;
}

function canRecycle() { return view.legal.includes("R"); }

function status() {
  document.getElementById("st-moves").textContent = `Moves ${view.moves}`;
  const score = document.getElementById("st-score");
  const dollars = (amount) => `${amount < 0 ? "-" : ""}$${Math.abs(amount)}`;
  if (view.balance !== null && view.balance !== undefined) score.textContent = `Vegas balance ${dollars(view.balance)}`;
  else if (view.scoring === "vegas") score.textContent = `Vegas ${dollars(view.score)}`;
  else if (view.scoring === "standard") score.textContent = `Score ${view.score}`;
  else score.textContent = "";
  document.getElementById("st-passes").textContent =
    view.passes === null ? "" : `Pass ${view.pass} of ${view.passes}`;  // "Pass 1 of 3" until the first turn-over
  document.getElementById("st-daily").textContent = view.daily ? `Daily ${view.daily}` : "";
  tick();
}

function tick() {
  if (!view) return;
  // The clock runs from the first move (kept by the server across reloads) and stands once the game is won.
  document.getElementById("st-time").textContent = clock(gameSeconds(view));
}


// ----- moves from gestures ------------------------------------------------------------------------------

function moveText(spot, target) {
  if (target === "F") return `${spot.source}>F`;
  const count = spot.count > 1 ? `:${spot.count}` : "";
  return `${spot.source}>${target}${count}`;
}

function tryPut(spot, target) {
  if (!target || target === spot.source || (target === "F" && spot.source.startsWith("F"))) return false;
  propose(moveText(spot, target));
  return true;
}

function sendHome(spot) {
  if (!spot || spot.count !== 1 || spot.source.startsWith("F")) return;
  propose(`${spot.source}>F`);
}

function clickCard(card) {
  const spot = spotOf(card);
  if (selected) {
    const target = targetOfCard(card);
    const from = selected;
    selected = null;
    if (spot && spot.source === from.source) { render(); say("Put back."); return; }
    if (!tryPut(from, target)) render();
    return;
  }
  if (!spot) return;
  selected = spot;
  render();
  say(`Picked up ${cardsOf(spot).map(cardName).join(", ")}. Now choose where it goes.`);
}

function targetOfCard(card) {
  const spot = spotOf(card);
  if (!spot) return null;
  if (spot.source.startsWith("F")) return "F";
  return spot.source === "W" ? null : spot.source;
}

function clickSlot(el) {
  const key = el.dataset.slot;
  if (key === "stock") { selected = null; send({ type: "draw" }); return; }
  if (selected && el.dataset.target) {
    const from = selected;
    selected = null;
    if (!tryPut(from, el.dataset.target)) render();
  }
}

// Pointer events: mouse, finger and pen alike. A press that moves drags; one that does not clicks.
followPointer(table, {
  targetAttribute: "target",
  holds: (el) => (!view ? undefined : el.dataset.card ? spotOf(el.dataset.card) : null),
  run: (spot) => cardsOf(spot).map((c) => elements.get(c)),
  drop: (spot, target) => { selected = null; return tryPut(spot, target); },
  settle: () => render(),
  tap: (el, spot, twice) => {
    const card = el.dataset.card;
    if (el.classList.contains("stockcard") || el.dataset.slot === "stock") {
      selected = null;
      send({ type: "draw" });
    } else if (twice && spot) {
      selected = null;
      sendHome(spotOf(card));
    } else if (card && spot) {
      clickCard(card);
    } else {
      clickSlot(el);
    }
  },
});

// ----- hints --------------------------------------------------------------------------------------

function showHint(move) {
  const [source, rest] = move.split(">");
  const marks = [];
  if (source === "D" || source === "R") marks.push(table.querySelector('[data-slot="stock"]'));
  else {
    const count = rest && rest.includes(":") ? Number(rest.split(":")[1]) : 1;
    const spot = { source: source.length > 1 ? source : source.toUpperCase(), count };
    for (const card of cardsOf(spot)) marks.push(elements.get(card));
    const target = rest.split(":")[0];
    marks.push(target === "F" ? null : table.querySelector(`[data-slot="p${Number(target) - 1}"]`));
  }
  pulse(marks);
}

// ----- the toolbar and the keys ---------------------------------------------------------------------

function act(action) {
  if (action === "help") { help.showModal(); return; }
  if (action === "stats") {
    document.getElementById("stats-rows").innerHTML = '<tr><td colspan="8">Reading…</td></tr>';
    statsDialog.showModal();
    send({ type: "stats" });
    return;
  }
  if (action === "settings") { settings.showModal(); return; }
  if (action === "choose") { chooseDeal(); return; }
  if (action === "review") { openReview(send, view ? view.moves : 0); return; }
  selected = null;
  send({ type: action });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (button) act(button.dataset.action);
});

function pickOrPut(source) {
  if (!view) return;
  if (selected) {
    if (selected.source === source && /^[1-7]$/.test(source)) {
      const up = view.piles[Number(source) - 1].up.length;
      if (selected.count < up) selected = { source, count: selected.count + 1 };
      render();
      say(`Picked up ${cardsOf(selected).map(cardName).join(", ")}.`);
      return;
    }
    const from = selected;
    selected = null;
    if (source === "W") { render(); say("Cards cannot go onto the waste."); return; }
    if (!tryPut(from, source)) render();
    return;
  }
  const card = source === "W" ? view.waste[view.waste.length - 1] : view.piles[Number(source) - 1].up.slice(-1)[0];
  if (!card) { say(source === "W" ? "The waste is empty." : `Pile ${source} has no face-up card.`); return; }
  selected = { source, count: 1 };
  render();
  say(`Picked up ${cardName(card)}.`);
}

document.addEventListener("keydown", (event) => {
  if (help.open || settings.open || dealDialog.open || statsDialog.open || event.altKey || event.metaKey) return;
  const key = event.key;
  if (event.ctrlKey) {
    if (key === "z") act("undo");
    else if (key === "y") act("redo");
    else return;
  } else if (/^[1-7]$/.test(key)) pickOrPut(key);
  else if (key === "w") pickOrPut("W");
  else if (key === "f") {
    if (!selected) { say("Pick a card first (1-7 or w), then press f."); return; }
    const from = selected; selected = null; tryPut(from, "F");
  } else if (key === "d") act("draw");
  else if (key === "u") act("undo");
  else if (key === "h") act("hint");
  else if (key === "a") act("autofinish");
  else if (key === "n") act("choose");
  else if (key === "t") act("stats");
  else if (key.startsWith("Arrow")) moveFocus(key);
  else if (key === "?") act("help");
  else if (key === "r") act("review");
  else if (key === "Escape") { selected = null; render(); say("Put back."); }
  else if ((key === "Enter" || key === " ") && document.activeElement && table.contains(document.activeElement)) {
    const el = document.activeElement;
    if (el.dataset.card) clickCard(el.dataset.card);
    else clickSlot(el);
    const again = el.dataset.card ? elements.get(el.dataset.card) : el;
    if (again && again.isConnected) again.focus();
  } else return;
  event.preventDefault();
});

// Arrow keys move the focus to the nearest card or pile that way. A pile's, the waste's or a foundation's
// place counts only while no card lies on it: the card is the stop.
function moveFocus(key) {
  const covered = (el) => {
    const key = el.dataset.slot;
    if (!key || !view) return false;
    if (key === "waste") return view.waste.length > 0;
    if (key.startsWith("p")) { const pile = view.piles[Number(key.slice(1))]; return pile.down + pile.up.length > 0; }
    if (key.startsWith("f")) return view.foundation[SUIT_ORDER.indexOf(key[1])] > 0;
    return false;
  };
  focusToward(table, key, covered);
}

// The statistics dialog: the server's figures (the terminal app's, by the same library call).

function statsRow(cells, current) {
  const row = document.createElement("tr");
  cells.forEach((value, i) => {
    const cell = document.createElement(i === 0 ? "th" : "td");
    if (i === 0) cell.scope = "row";
    cell.textContent = String(value);
    row.appendChild(cell);
  });
  if (current) row.classList.add("current");
  return row;
}

function showStats(reply) {
  const rows = document.getElementById("stats-rows");
  rows.textContent = "";
  if (!reply.stats.length) rows.innerHTML = '<tr><td colspan="8">No games finished yet.</td></tr>';
  for (const s of reply.stats) {
    rows.appendChild(statsRow([s.variant, s.played, s.won, `${Math.round(100 * s.win_rate)}%`,
      s.best_seconds === null ? "–" : clock(s.best_seconds), s.fewest_moves === null ? "–" : s.fewest_moves,
      s.current_streak, s.best_streak], s.variant === reply.variant));
  }
  // The daily deals: days played and won, and the streak of days won, for each rule set.
  const daily = reply.daily || [];
  const dailyRows = document.getElementById("daily-rows");
  dailyRows.textContent = "";
  for (const d of daily) {
    dailyRows.appendChild(statsRow([d.variant, d.days, d.days_won, d.current_streak, d.best_streak],
      d.variant === reply.variant));
  }
  document.getElementById("daily-box").hidden = !daily.length;
  labelFigures(rows);
  labelFigures(dailyRows);
}

// Each figure carries its column's name, which a phone shows beside it (its statistics are a block a
// rule set, not eight columns: table.css).
function labelFigures(body) {
  const names = [...body.closest("table").querySelectorAll("thead th")].map((th) => th.textContent);
  for (const row of body.rows) {
    [...row.cells].forEach((cell, i) => { if (cell.colSpan === 1 && names[i]) cell.dataset.label = names[i]; });
  }
}

// The win celebration: the cards leap off the foundations one after another and bounce down the window,
// leaving trails. Skipped when the player asks for reduced motion; any key or click ends it.
function celebrate() {
  if (celebration) celebration.stop();
  if (reducedMotion.matches) { document.documentElement.dataset.cheer = "skipped"; return; }
  const m = metrics();
  const box = table.getBoundingClientRect();
  const ratio = window.devicePixelRatio || 1;
  const width = window.innerWidth, height = window.innerHeight;
  cheer.width = Math.round(width * ratio);
  cheer.height = Math.round(height * ratio);
  cheer.hidden = false;
  const ctx = cheer.getContext("2d");
  ctx.scale(ratio, ratio);
  const queue = [];
  for (let r = 13; r >= 1; r--) {
    SUIT_ORDER.forEach((suit, s) => {
      const image = new Image();
      image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(cardSvg(RANKS[r - 1] + suit));
      queue.push({ image, x: box.left + pileX(m, 3 + s), y: box.top + m.top });
    });
  }
  const flying = [];
  let frame = 0, handle = 0;
  const stop = () => {
    cancelAnimationFrame(handle);
    cheer.hidden = true;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, cheer.width, cheer.height);
    document.removeEventListener("pointerdown", stop, true);
    document.removeEventListener("keydown", stop, true);
    celebration = null;
    document.documentElement.dataset.cheer = "done";
  };
  const step = () => {
    frame += 1;
    if (queue.length && frame % 10 === 1) {
      const card = queue.shift();
      const side = Math.random() < 0.5 ? -1 : 1;
      flying.push({ ...card, vx: side * (2 + Math.random() * 4), vy: -2 - Math.random() * 6 });
    }
    for (const card of flying) {
      card.vy += 0.5;
      card.x += card.vx;
      card.y += card.vy;
      if (card.y + m.h > height) { card.y = height - m.h; card.vy = -card.vy * 0.78; }
      if (card.image.complete) ctx.drawImage(card.image, card.x, card.y, m.w, m.h);
    }
    for (let i = flying.length - 1; i >= 0; i--) {
      if (flying[i].x + m.w < 0 || flying[i].x > width) flying.splice(i, 1);
    }
    if ((queue.length || flying.length) && frame < 60 * 40) handle = requestAnimationFrame(step);
    else stop();
  };
  document.addEventListener("pointerdown", stop, true);
  document.addEventListener("keydown", stop, true);
  celebration = { stop };
  document.documentElement.dataset.cheer = "running";
  handle = requestAnimationFrame(step);
}

// The new-game dialog: the rules (as now, or a named rule set), a deal number
// or a random deal, only proven winnable deals or any, and a difficulty.
let rulesHad = false; // the named rule sets came (they are asked for until they do)
function chooseDeal() {
  const form = dealDialog.querySelector("form");
  form.reset();
  winnableBox.disabled = false;
  if (view) {
    document.getElementById("rules-now").textContent = `As now: ${view.title ?? view.variant}`;
    form.elements.winnable.checked = Boolean(view.winnable);
  }
  gradedMeansWinnable();
  if (!rulesHad) send({ type: "rules" });
  dealDialog.showModal();
}

// A graded deal is always proven winnable (the solver wins a deal before it is graded): with a difficulty
// chosen, the box is ticked and says why it cannot be cleared.
const winnableBox = dealDialog.querySelector('input[name="winnable"]');
let winnableChosen = false;
winnableBox.addEventListener("change", () => { winnableChosen = winnableBox.checked; });
function gradedMeansWinnable() {
  const graded = Boolean(dealDialog.querySelector('select[name="difficulty"]').value);
  if (!winnableBox.disabled) winnableChosen = winnableBox.checked;
  winnableBox.disabled = graded;
  winnableBox.checked = graded || winnableChosen;
  document.getElementById("graded-note").hidden = !graded;
}
dealDialog.querySelector('select[name="difficulty"]').addEventListener("change", gradedMeansWinnable);

function showRules(rules) {
  const select = dealDialog.querySelector('select[name="rules"]');
  if (rulesHad) return; // a second reply to a second asking
  rulesHad = true;
  for (const rule of rules) {
    const option = document.createElement("option");
    option.value = rule.name;
    option.textContent = rule.title;
    select.append(option);
  }
}

dealDialog.addEventListener("close", () => {
  selected = null;
  if (dealDialog.returnValue === "daily") { // today's deal, the same for everyone, proven winnable
    const rules = dealDialog.querySelector('select[name="rules"]').value;
    send(rules ? { type: "new", daily: true, rules } : { type: "new", daily: true });
    return;
  }
  if (dealDialog.returnValue !== "deal") return;
  const form = dealDialog.querySelector("form");
  const text = form.elements.number.value.trim();
  const difficulty = form.elements.difficulty.value;
  const message = { type: "new", winnable: form.elements.winnable.checked };
  if (form.elements.rules.value) message.rules = form.elements.rules.value;
  if (/^[0-9]{1,9}$/.test(text)) message.deal = Number(text);
  if (difficulty) message.difficulty = difficulty; // the first deal of that grade from the number on
  send(message);
});

// The card back and the table colour, kept in this browser.
keepLooks(settings);

window.addEventListener("resize", () => render());
closeWonBox(wonBox);
setInterval(tick, 1000);
connect();
