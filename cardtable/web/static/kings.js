// Kings Corner in the browser: a shared table. The server's engine is
// authoritative: this page draws the view it receives (your own hand, the piles,
// the other seats as counts) and proposes actions in the engine's notation
// ("play 7h N", "move W E", "draw") over one WebSocket (see docs/web.md).
import { backSvg, cardName, cardSvg } from "./cards.js";
import { socketUrl } from "./looks.js";

const PILES = ["N", "E", "S", "W", "NE", "SE", "SW", "NW"];
const PILE_WORDS = {
  N: "north pile", E: "east pile", S: "south pile", W: "west pile",
  NE: "north-east corner", SE: "south-east corner", SW: "south-west corner", NW: "north-west corner",
};
// Where each pile sits in the 3 x 3 cross (row, column); the deck is in the middle.
const GRID = { NW: [1, 1], N: [1, 2], NE: [1, 3], W: [2, 1], E: [2, 3], SW: [3, 1], S: [3, 2], SE: [3, 3] };

const $ = (id) => document.getElementById(id);
const main = $("kc");
const message = $("message");
const cross = $("cross");
const handBox = $("hand");
const endButton = $("end");
const paceSelect = $("pace");
const skipButton = $("skip");
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

const tableId = (location.pathname.match(/^\/kc\/([A-Za-z0-9_-]{10,32})\/?$/) || [])[1] || null;
let socket = null;
let view = null;          // the last view from the server
let shown = null;         // what is drawn now (a view, or a step of the other players' plays)
let queue = [];           // steps waiting to be shown
let pending = null;       // the view to show once the steps are shown
let timer = null;
let selected = null;      // {kind: "card", card} | {kind: "pile", pile}
let press = null;         // a pointer pressed on a card or a pile
let resultHidden = false; // the player looks at the table behind the result
let drawn = false;        // the first view has been drawn (performance mark "cardtable:table-drawn")

// ----- settings kept in this browser -----------------------------------------------------------------

function kept(name, fallback) {
  try { return localStorage.getItem(`cardtable.${name}`) ?? fallback; } catch { return fallback; }
}
function keep(name, value) {
  try { localStorage.setItem(`cardtable.${name}`, value); } catch { /* private mode: not kept */ }
}
document.documentElement.dataset.felt = kept("felt", "green");
document.documentElement.dataset.back = kept("back", "blue");
paceSelect.value = kept("kc-pace", reduced.matches ? "0" : String(document.body.dataset.delay || "600"));
if (!paceSelect.value) paceSelect.value = "600";
paceSelect.addEventListener("change", () => keep("kc-pace", paceSelect.value));

// ----- the connection ----------------------------------------------------------------------------------

function connect() {
  const url = socketUrl("/kc/ws");
  url.searchParams.set("table", tableId);
  socket = new WebSocket(url);
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    if (event.code !== 1008) {
      main.dataset.state = "connecting";
      setTimeout(connect, 1000);
      return;
    }
    // Refused (no such table, too many pages or messages): offer a table of one's own.
    main.dataset.state = "ready";
    for (const id of ["lobby", "game", "result"]) $(id).hidden = true;
    $("open").hidden = false;
  });
}

function send(payload) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
}

function say(text) { if (text) message.textContent = text; }

function receive(reply) {
  if (reply.type === "error") {
    say(reply.message.charAt(0).toUpperCase() + reply.message.slice(1) + ".");
    if (view) draw(shown || view);
    return;
  }
  if (reply.type === "stats") { showStats(reply); return; }
  if (reply.type !== "table") return;
  main.dataset.state = "ready";
  $("stats-button").hidden = false;
  const before = view;
  view = reply.view;
  const mine = view.you;
  // The others' plays are shown one by one; your own are drawn at once.
  const others = (reply.steps || []).filter((step) => step.seat !== mine || !before || before.you !== mine);
  if (before && before.phase !== "lobby" && others.length && Number(paceSelect.value) > 0) {
    queue.push(...others.map((step) => ({ step, said: step.said })));
    pending = { view, said: reply.said };
    if (!timer) nextStep();
  } else {
    const said = (reply.steps || []).map((step) => step.said).join(" ");
    if (said) say(said);
    if (timer) { pending = { view, said: reply.said }; return; }
    finish(view, reply.said);
  }
}

function nextStep() {
  timer = null;
  const item = queue.shift();
  if (!item) {
    const done = pending;
    pending = null;
    skipButton.hidden = true;
    if (done) finish(done.view, done.said);
    return;
  }
  skipButton.hidden = false;
  const base = shown && shown.phase ? shown : view;
  const step = item.step;
  const players = base.players.map((p, seat) => ({ ...p, cards: step.cards[seat] }));
  shown = { ...base, piles: step.piles, deck: step.deck, turn: step.turn, players, yourTurn: false, legal: [],
    phase: "playing", outcome: undefined };
  draw(shown, step);
  say(item.said);
  timer = setTimeout(nextStep, Number(paceSelect.value));
}

function skip() {
  if (!timer && !queue.length) return;
  clearTimeout(timer);
  timer = null;
  const said = queue.map((item) => item.said);
  queue = [];
  if (said.length) say(said[said.length - 1]);
  nextStep();
}

function finish(final, said) {
  shown = final;
  if (final.phase !== "hand-over" && final.phase !== "match-over") resultHidden = false;
  selected = null;
  draw(final);
  if (!drawn) {
    drawn = true;
    performance.mark("cardtable:table-drawn");
    document.documentElement.dataset.drawn = "yes";
  }
  if (said) say(said);
  else if (final.yourTurn && !message.textContent.endsWith("Your turn.")) say(`${message.textContent} Your turn.`.trim());
}

// ----- drawing --------------------------------------------------------------------------------------------

function draw(v, step) {
  document.title = `Kings Corner${v.yourTurn ? " \u2014 your turn" : ""}`;
  $("open").hidden = true;
  $("lobby").hidden = v.phase !== "lobby";
  $("game").hidden = v.phase === "lobby";
  if (v.phase === "lobby") {
    drawLobby(v);
    $("result").hidden = true;
    $("status").textContent = `${v.players.length} of ${v.seats} seats taken`;
    return;
  }
  // A redraw replaces the cards and piles: the keyboard's focus goes back to the same one.
  const focused = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("[data-card], [data-pile]") : null;
  const focusKey = focused ? focused.dataset.card || focused.dataset.pile : null;
  drawSeats(v, step);
  fit();
  drawCross(v, step);
  drawHand(v);
  if (focusKey && !focused.isConnected) {
    const again = main.querySelector(`[data-card="${focusKey}"], [data-pile="${focusKey}"]`);
    if (again) again.focus();
  }
  endButton.disabled = !v.yourTurn;
  endButton.textContent = v.deck > 0 ? "End turn (draw)" : "End turn (pass)";
  const turnName = v.players[v.turn] ? v.players[v.turn].name : "";
  $("status").textContent = `Match ${v.match}, hand ${v.handNumber} \u00b7 to ${v.target} point${v.target === 1 ? "" : "s"} \u00b7 ` +
    (v.phase === "playing" ? (v.yourTurn ? "your turn" : `${turnName} to play`)
      : v.phase === "match-over" ? "match over" : "hand over");
  drawResult(v);
}

// The card size: the cross of piles (3 rows of 1.22 card heights, 5.5 card
// widths in all) and your hand (1.15 card heights, 1.6 widths) fill the height
// that the bar, the players' row (which wraps on a phone), the End turn button
// and the message line leave, and the cross fits the width (4.2 card widths).
function fit() {
  const bar = document.querySelector(".bar");
  const taken = (bar ? bar.offsetHeight : 0) + $("seats").offsetHeight + endButton.offsetHeight
    + message.offsetHeight + 44;
  const width = Math.min((window.innerWidth - 24) / 4.2, (window.innerHeight - taken) / 7.15, 120);
  document.documentElement.style.setProperty("--cw", `${Math.max(30, Math.floor(width))}px`);
}

function drawLobby(v) {
  $("lobby-title").textContent = `Table for ${v.seats}`;
  $("share").value = location.href;
  const list = $("lobby-seats");
  list.replaceChildren();
  for (let i = 0; i < v.seats; i++) {
    const li = document.createElement("li");
    const p = v.players[i];
    if (p) {
      li.textContent = p.name + (p.host ? " (host)" : "") + (p.you ? " \u2014 you" : "") + (p.present ? "" : " (away)");
    } else {
      li.textContent = `free: a${/^[aeiou]/.test(v.level) ? "n" : ""} ${v.level} bot if nobody takes it`;
      li.className = "free";
    }
    list.append(li);
  }
  $("sit-form").hidden = !v.canSit;
  if (v.canSit && !$("sit-name").value) $("sit-name").value = `Player ${v.players.length + 1}`;
  $("start").hidden = !v.isHost;
  $("start").disabled = v.you === null;
  $("lobby-note").textContent = v.isHost ? "Start the match when everyone is seated; bots take the free seats."
    : v.you !== null ? "Waiting for the host to start the match." : (v.canSit ? "" : "Every seat is taken.");
}

function drawSeats(v, step) {
  const list = $("seats");
  list.replaceChildren();
  v.players.forEach((p, seat) => {
    const li = document.createElement("li");
    li.className = "seat" + (seat === v.turn && v.phase === "playing" ? " turn" : "") + (p.you ? " you" : "") +
      (p.kind === "person" && !p.present ? " gone" : "") + (step && step.seat === seat ? " arrive" : "");
    const kind = p.kind === "bot" ? "bot" : p.away ? "away: a bot plays" : p.present ? "" : "not here";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = p.name;
    const cards = document.createElement("span");
    cards.innerHTML = `<span class="backs">${backSvg()}</span>`;
    cards.append(String(p.cards));
    const points = document.createElement("span");
    points.textContent = `${p.total} pt${p.total === 1 ? "" : "s"}` + (kind ? ` \u00b7 ${kind}` : "");
    li.title = `${p.cards} cards in hand, ${p.total} penalty points`;
    li.append(name, cards, points);
    li.setAttribute("aria-label", `${p.name}${p.you ? " (you)" : ""}: ${p.cards} cards, ${p.total} penalty points` +
      `${kind ? ", " + kind : ""}${seat === v.turn && v.phase === "playing" ? ", to play" : ""}`);
    list.append(li);
  });
}

function cardElement(text, extra = "") {
  const el = document.createElement("span");
  el.className = `card ${extra}`.trim();
  el.innerHTML = cardSvg(text);
  return el;
}

function pileLabel(name, cards) {
  const where = PILE_WORDS[name];
  if (!cards.length) return `${where}, empty${name.length === 2 ? " (takes a king)" : ""}`;
  const top = cardName(cards[cards.length - 1]);
  if (cards.length === 1) return `${where}: ${top}`;
  return `${where}: ${top} on top, ${cardName(cards[0])} at the bottom, ${cards.length} cards`;
}

function drawCross(v, step) {
  cross.replaceChildren();
  const changed = step ? stepPiles(step.action) : [];
  for (const name of PILES) {
    const cards = v.piles[PILES.indexOf(name)];
    const el = document.createElement("button");
    el.type = "button";
    el.className = "pile" + (name.length === 2 ? " corner" : "") + (cards.length ? " filled" : "") +
      (changed.includes(name) ? " arrive" : "") +
      (selected && selected.kind === "pile" && selected.pile === name ? " selected" : "");
    el.dataset.pile = name;
    el.style.gridArea = `${GRID[name][0]} / ${GRID[name][1]}`;
    el.setAttribute("aria-label", pileLabel(name, cards));
    if (cards.length) {
      el.append(cardElement(cards[0], cards.length === 1 ? "last" : ""));
      if (cards.length > 1) el.append(cardElement(cards[cards.length - 1], "top last"));
      if (cards.length > 2) {
        const count = document.createElement("span");
        count.className = "count";
        count.textContent = String(cards.length);
        el.append(count);
      }
    }
    cross.append(el);
  }
  const deck = document.createElement("button");
  deck.type = "button";
  deck.className = "deck";
  deck.style.gridArea = "2 / 2";
  deck.setAttribute("aria-label", `deck, ${v.deck} card${v.deck === 1 ? "" : "s"}` +
    (v.yourTurn ? ": end your turn" : ""));
  if (v.deck) {
    const back = document.createElement("span");
    back.className = "card";
    back.innerHTML = backSvg();
    deck.append(back);
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = `${v.deck} left`;
  deck.append(count);
  deck.addEventListener("click", () => { if (view && view.yourTurn && shown === view) endTurn(); });
  cross.append(deck);
}

function stepPiles(action) {
  const words = action.split(" ");
  if (words[0] === "play") return [words[2]];
  if (words[0] === "move") return [words[1], words[2]];
  return [];
}

function drawHand(v) {
  handBox.replaceChildren();
  const hand = v.hand || [];
  const playable = new Set((v.legal || []).filter((a) => a.startsWith("play ")).map((a) => a.split(" ")[1]));
  for (const text of hand) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = "card" + (playable.has(text) ? " playable" : "") +
      (selected && selected.kind === "card" && selected.card === text ? " selected" : "");
    el.dataset.card = text;
    el.innerHTML = cardSvg(text);
    el.setAttribute("aria-label", `${cardName(text)}, your hand`);
    handBox.append(el);
  }
  // Fan the hand: overlap the cards when they do not fit side by side.
  const width = handBox.clientWidth;
  const cw = hand.length ? handBox.firstElementChild.getBoundingClientRect().width : 0;
  const room = hand.length > 1 ? (width - cw) / (hand.length - 1) : cw;
  const step = Math.min(cw * 1.05, room);
  handBox.style.setProperty("--overlap", `${Math.min(4, step - cw)}px`);
  if (v.you === null || v.you === undefined) handBox.setAttribute("aria-label", "You watch this table");
}

function drawResult(v) {
  const box = $("result");
  const over = v.phase === "hand-over" || v.phase === "match-over";
  box.hidden = !over || resultHidden;
  if (!over) return;
  const outcome = v.outcome || { winner: null, penalties: v.players.map(() => 0) };
  const winner = outcome.winner === null ? null : v.players[outcome.winner];
  let title = winner ? `${winner.you ? "You" : winner.name} emptied ${winner.you ? "your" : "their"} hand!`
    : "Stalemate: nobody could play.";
  if (v.phase === "match-over") {
    const names = v.winners || [];
    title += ` Match over: ${names.join(" and ")} win${names.length === 1 ? "s" : ""}.`;
  }
  $("result-title").textContent = title;
  const body = $("scores");
  body.replaceChildren();
  v.players.forEach((p, seat) => {
    const row = document.createElement("tr");
    for (const text of [p.name + (p.you ? " (you)" : ""), String(outcome.penalties[seat]), String(p.total)]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    body.append(row);
  });
  const records = $("records");
  records.replaceChildren();
  if (v.records.length) {
    records.append("Records: ");
    for (const hand of v.records) {
      const link = document.createElement("a");
      link.href = `/kc/${v.table}/match-${v.match}/hand-${hand}.txt`;
      link.textContent = `hand ${hand}`;
      link.setAttribute("download", "");
      records.append(link);
    }
  }
  const seated = v.you !== null && v.you !== undefined;
  $("next").hidden = v.phase !== "hand-over" || !seated;
  $("again").hidden = v.phase !== "match-over" || !seated;
}

// ----- proposing actions ---------------------------------------------------------------------------------

function propose(action) {
  if (!view || !view.yourTurn) { say("It is not your turn."); return; }
  selected = null;
  send({ type: "action", action });
}

function endTurn() { propose(view && view.deck > 0 ? "draw" : "pass"); }

function actionFor(source, pile) {
  if (source.kind === "card") return `play ${source.card} ${pile}`;
  if (source.pile === pile) return null;
  return `move ${source.pile} ${pile}`;
}

function choose(source) {
  if (!view || !view.yourTurn || shown !== view) return;
  if (selected && source.kind === "pile") {
    const action = actionFor(selected, source.pile);
    if (action) { propose(action); return; }
  }
  const same = selected && selected.kind === source.kind &&
    (source.kind === "card" ? selected.card === source.card : selected.pile === source.pile);
  if (same || (source.kind === "pile" && !view.piles[PILES.indexOf(source.pile)].length)) {
    selected = null;
  } else {
    selected = source;
    say(source.kind === "card" ? `${cardName(source.card)} picked up: choose a pile.`
      : `${PILE_WORDS[source.pile]} picked up: choose the pile to put it on.`);
  }
  draw(view);
}

function sourceOf(el) {
  if (!el) return null;
  if (el.dataset.card) return { kind: "card", card: el.dataset.card };
  if (el.dataset.pile) return { kind: "pile", pile: el.dataset.pile };
  return null;
}

// Pointer events: a press that moves is a drag; one that does not is a click.
main.addEventListener("pointerdown", (event) => {
  const el = event.target.closest("[data-card], [data-pile]");
  if (!el || event.button > 0) return;
  press = { el, source: sourceOf(el), x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  el.setPointerCapture(event.pointerId);
});

main.addEventListener("pointermove", (event) => {
  if (!press || event.pointerId !== press.id) return;
  const dx = event.clientX - press.x, dy = event.clientY - press.y;
  if (!press.ghost) {
    if (Math.hypot(dx, dy) < 6) return;
    const source = press.source;
    const movable = view && view.yourTurn && shown === view &&
      (source.kind === "card" || view.piles[PILES.indexOf(source.pile)].length);
    if (!movable || (source.kind === "pile" && source.pile.length === 2)) return;
    const box = press.el.getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = "ghost";
    ghost.style.width = `${box.width}px`;
    ghost.style.height = `${box.height}px`;
    if (source.kind === "card") {
      ghost.append(cardElement(source.card));
    } else {
      const cards = view.piles[PILES.indexOf(source.pile)];
      ghost.append(cardElement(cards[0]));
      if (cards.length > 1) ghost.append(cardElement(cards[cards.length - 1]));
    }
    press.home = { left: box.left, top: box.top };
    press.offset = { x: press.x - box.left, y: press.y - box.top };
    press.ghost = ghost;
    document.body.append(ghost);
    press.el.style.visibility = source.kind === "card" ? "hidden" : "";
  }
  press.ghost.style.left = `${event.clientX - press.offset.x}px`;
  press.ghost.style.top = `${event.clientY - press.offset.y}px`;
  for (const pile of cross.querySelectorAll(".pile.target")) pile.classList.remove("target");
  const over = document.elementFromPoint(event.clientX, event.clientY);
  const target = over && over.closest("[data-pile]");
  if (target && target.dataset.pile !== press.source.pile) target.classList.add("target");
});

function release(event, cancelled) {
  if (!press || event.pointerId !== press.id) return;
  const done = press;
  press = null;
  if (!done.ghost) {
    if (!cancelled) choose(done.source);
    return;
  }
  const over = cancelled ? null : document.elementFromPoint(event.clientX, event.clientY);
  const target = over && over.closest("[data-pile]");
  const action = target ? actionFor(done.source, target.dataset.pile) : null;
  const legal = action && view.legal.includes(action);
  if (action) propose(action);
  if (legal) {
    done.ghost.remove();
    return;
  }
  // An illegal drop: the card goes back where it came from (the server says why, if it was proposed).
  if (!action) say("Put back.");
  done.ghost.classList.add("back");
  done.ghost.style.left = `${done.home.left}px`;
  done.ghost.style.top = `${done.home.top}px`;
  setTimeout(() => {
    done.ghost.remove();
    done.el.style.visibility = "";
    if (!press && done.el.isConnected) draw(shown || view);  // not under a new drag
  }, reduced.matches ? 0 : 230);
}
main.addEventListener("pointerup", (event) => release(event, false));
// A finger that drags a card is the page's, not a scroll: without this, Chromium takes the drag for a
// fling and swallows the next tap (such as on End turn).
main.addEventListener("touchmove", (event) => { if (press) event.preventDefault(); }, { passive: false });
main.addEventListener("pointercancel", (event) => release(event, true));

// Keyboard activation (Enter or Space on a focused card or pile) arrives as a click with no pointer.
main.addEventListener("click", (event) => {
  if (event.detail !== 0) return;
  const el = event.target.closest("[data-card], [data-pile]");
  if (!el) return;
  const key = el.dataset.card || el.dataset.pile;
  choose(sourceOf(el));
  const again = main.querySelector(`[data-card="${key}"], [data-pile="${key}"]`);
  if (again) again.focus();
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest && event.target.closest("input, select, textarea, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "d" || event.key === "D") { if (view && view.yourTurn && shown === view) endTurn(); }
  else if (event.key === "Escape") { selected = null; if (view) draw(shown || view); }
  else if (event.key === "s") skip();
  else if (event.key === "?") $("help").showModal();
  else if (event.key === "t") { if (!$("stats-button").hidden) askStats(); }
  else return;
  event.preventDefault();
});

endButton.addEventListener("click", endTurn);
skipButton.addEventListener("click", skip);
$("help-button").addEventListener("click", () => $("help").showModal());
$("stats-button").addEventListener("click", askStats);
$("start").addEventListener("click", () => send({ type: "start" }));
$("next").addEventListener("click", () => send({ type: "next" }));
$("again").addEventListener("click", () => send({ type: "newmatch" }));
$("look").addEventListener("click", () => { resultHidden = true; $("result").hidden = true; say(
  "The result comes back in a few seconds."); showResultLater(); });
$("sit-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send({ type: "sit", name: $("sit-name").value });
});
$("copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); say("Link copied."); }
  catch { $("share").select(); say("Select the link and copy it."); }
});

// The statistics dialog: the server's figures for this player (the terminal app's, by the same library call).
function askStats() {
  $("stats-rows").innerHTML = '<tr><td colspan="9">Reading…</td></tr>';
  if (!$("stats").open) $("stats").showModal();
  send({ type: "stats" });
}

function showStats(reply) {
  const rows = $("stats-rows");
  rows.textContent = "";
  if (!reply.stats.length) {
    rows.innerHTML = '<tr><td colspan="9">No hands finished yet.</td></tr>';
    return;
  }
  for (const s of reply.stats) {
    const row = document.createElement("tr");
    const cells = [s.label, s.hands, s.hands_won, s.mean_penalty.toFixed(1), s.matches, s.matches_won,
      s.matches ? `${Math.round(100 * s.match_win_rate)}%` : "–", s.current_streak, s.best_streak];
    cells.forEach((value, i) => {
      const cell = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) cell.scope = "row";
      cell.textContent = String(value);
      row.appendChild(cell);
    });
    if (s.label === reply.label) row.classList.add("current");
    rows.appendChild(row);
  }
}

function showResultLater() {
  // The result comes back after a look at the table (the buttons are on it).
  setTimeout(() => { resultHidden = false; if (view) draw(shown || view); }, 4000);
}

window.addEventListener("resize", () => { if (view) draw(shown || view); });

$("open-seats").value = document.body.dataset.seats || "4";
$("open-level").value = document.body.dataset.level || "expert";
// The tables this person opened or sat at, newest first, to go back to.
async function showMine() {
  let tables = [];
  try {
    const response = await fetch("/kc/mine", { credentials: "same-origin" });
    if (response.ok) tables = (await response.json()).tables || [];
  } catch { tables = []; }
  const list = $("mine-list");
  list.replaceChildren();
  for (const t of tables) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/kc/${t.id}`;
    link.textContent = t.players.join(", ");
    const state = t.phase === "lobby" ? `waiting to start, ${t.players.length} of ${t.seats} seats taken`
      : t.phase === "match-over" ? `match ${t.match} over`
      : `match ${t.match}, hand ${t.hand}${t.phase === "hand-over" ? " over" : ""}${t.yourTurn ? ": your turn" : ""}`;
    item.append(link, ` \u2014 ${state}`);
    list.append(item);
  }
  $("mine").hidden = !tables.length;
}

if (tableId) {
  connect();
} else {
  main.dataset.state = "ready";
  $("open").hidden = false;
  showMine();
}
