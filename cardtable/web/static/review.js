// The review of the game in the browser: a dialog with a progress bar, an SVG
// chart of the expert's chance of winning at each position (from what the
// player saw), and the largest drops in words. The server weighs the game
// (see cardtable/web/review.py); this module only draws what it sends.
// openReview(send, moves) asks for a review of a game of that many moves;
// receiveReview(reply) takes the server's
// "review-progress" and "review" messages (true when the reply was one of them).

const SVG = "http://www.w3.org/2000/svg";
let dialog = null;
let sendMessage = null;
let running = false;

function element(tag, attributes = {}, text = "") {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  if (text) el.textContent = text;
  return el;
}

function build() {
  dialog = element("dialog", { id: "review", "aria-labelledby": "review-title" });
  dialog.append(
    element("h2", { id: "review-title" }, "Review"),
    element("p", { class: "note", id: "review-about" },
      "The expert's chance of winning at each position, from what you saw then (the share of its guesses of the hidden cards it wins)."),
    element("progress", { id: "review-progress", max: "1", value: "0" }),
    element("div", { id: "review-chart", class: "review-chart" }),
    element("div", { id: "review-text", class: "review-text", "aria-live": "polite" }),
  );
  const buttons = element("form", { method: "dialog", class: "row" });
  const stop = element("button", { type: "button", id: "review-stop" }, "Stop");
  stop.addEventListener("click", () => { if (running) sendMessage({ type: "review-stop" }); });
  buttons.append(stop, element("button", { id: "review-close" }, "Close"));
  dialog.append(buttons);
  dialog.addEventListener("close", () => { if (running) sendMessage({ type: "review-stop" }); });
  document.body.append(dialog);
}

function percent(chance) { return chance === null || chance === undefined ? "?" : `${Math.round(chance * 100)}%`; }

// A line of the chance at each position over 0-100%, a dot where a drop is called out.
export function chartSvg(positions, drops = []) {
  const width = 600, height = 160, pad = 28;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `The chance of winning at ${positions.length} positions`);
  const x = (index) => pad + (positions.length > 1 ? index * (width - pad - 8) / (positions.length - 1) : 0);
  const y = (chance) => 8 + (1 - chance) * (height - pad);
  const add = (tag, attributes, text = "") => {
    const el = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, String(value));
    if (text) el.textContent = text;
    svg.append(el);
    return el;
  };
  for (const level of [0, 0.5, 1]) {
    add("line", { x1: pad, x2: width - 8, y1: y(level), y2: y(level), class: "grid" });
    add("text", { x: 2, y: y(level) + 4, class: "label" }, `${level * 100}%`);
  }
  const points = positions.map((position, index) => (position.chance === null ? null : `${x(index)},${y(position.chance)}`));
  add("polyline", { points: points.filter(Boolean).join(" "), class: "chance" });
  for (const drop of drops) {
    const position = positions[drop.number];
    if (position && position.chance !== null) add("circle", { cx: x(drop.number), cy: y(position.chance), r: 4, class: "drop" });
  }
  add("text", { x: pad, y: height - 4, class: "label" }, "start");
  add("text", { x: width - 60, y: height - 4, class: "label" }, `move ${Math.max(0, positions.length - 1)}`);
  return svg;
}

export function openReview(send, moves) {
  if (!dialog) build();
  sendMessage = send;
  if (running) { if (!dialog.open) dialog.showModal(); return; }  // the review under way: shown again
  if (!moves) {
    dialog.querySelector("#review-progress").value = 0;
    dialog.querySelector("#review-chart").replaceChildren();
    dialog.querySelector("#review-text").textContent = "Nothing to review yet: play a move first.";
    dialog.querySelector("#review-stop").disabled = true;
    if (!dialog.open) dialog.showModal();
    return;
  }
  running = true;
  dialog.querySelector("#review-progress").value = 0;
  dialog.querySelector("#review-chart").replaceChildren();
  dialog.querySelector("#review-text").textContent = "Weighing each position…";
  dialog.querySelector("#review-stop").disabled = false;
  if (!dialog.open) dialog.showModal();
  send({ type: "review" });
}

export function receiveReview(reply) {
  if (reply.type !== "review-progress" && reply.type !== "review") return false;
  if (!dialog) return true;
  if (reply.type === "review-progress") {
    const bar = dialog.querySelector("#review-progress");
    bar.max = reply.total;
    bar.value = reply.done;
    dialog.querySelector("#review-text").textContent = `Weighing… ${reply.done} of ${reply.total} positions`;
    return true;
  }
  running = false;
  dialog.querySelector("#review-stop").disabled = true;
  const review = reply.review;
  const bar = dialog.querySelector("#review-progress");
  bar.value = bar.max;
  dialog.querySelector("#review-chart").replaceChildren(chartSvg(review.positions, review.drops));
  const text = dialog.querySelector("#review-text");
  text.replaceChildren();
  const start = review.positions[0], end = review.positions[review.positions.length - 1];
  text.append(element("p", {},
    `${reply.stopped ? "Stopped. " : ""}${review.moves.length} moves weighed: ${percent(start.chance)} at the start, ` +
    `${percent(end.chance)} at the end (${review.samples} guesses a position); ${review.outcome}.`));
  if (review.drops.length) {
    text.append(element("p", {}, review.drops_title || "The largest drops:"));
    const list = element("ul", { class: "review-drops" });
    for (const drop of review.drops) list.append(element("li", {}, drop.text));
    text.append(list);
  } else if (review.moves.length) {
    text.append(element("p", {}, "No move that was not the expert's cost much of the chance."));
  }
  if (review.note) text.append(element("p", { class: "note" }, review.note));
  if (review.peek) text.append(element("p", { class: "note" }, `Peek (every card known): ${review.peek}`));
  if (end.verdict) text.append(element("p", { class: "note" }, `Peek (every card known): the last position is ${end.verdict}.`));
  return true;
}
