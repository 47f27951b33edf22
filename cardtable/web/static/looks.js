// What every card table page shares beyond the cards themselves (cards.js): its socket's address, the
// clock as the tables show it, and the looks a player chooses (card back and table colour), kept in this
// browser.

// The address of the table's WebSocket at `path` on this page's server (wss: from an https: page).
export function socketUrl(path) {
  const url = new URL(path, location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return url;
}

// A time as the tables' clocks and the statistics show it (the terminal app's clock_text): whole seconds
// gone by, M:SS, or H:MM:SS from an hour on.
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600), ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// The seconds a game's clock shows: the time it stood at (`view.seconds`, once won), else the time since
// its first move (`view.started`, in seconds since the epoch), else none.
export function gameSeconds(view) {
  if (view.seconds !== null && view.seconds !== undefined) return view.seconds;
  return view.started ? Date.now() / 1000 - view.started : 0;
}

// The card back and the table colour: the choices of the settings dialog `dialog` (its selects named
// "back" and "felt"), applied to the page and kept in this browser for every table.
const CHOICES = { back: ["blue", "red", "green"], felt: ["green", "blue", "red", "grey"] };
export function keepLooks(dialog) {
  for (const [name, values] of Object.entries(CHOICES)) {
    const select = dialog.querySelector(`select[name="${name}"]`);
    let chosen = null;
    try { chosen = localStorage.getItem(`cardtable.${name}`); } catch { chosen = null; }
    if (!values.includes(chosen)) chosen = values[0];
    select.value = chosen;
    document.documentElement.dataset[name] = chosen;
    select.addEventListener("change", () => {
      if (!values.includes(select.value)) return;
      document.documentElement.dataset[name] = select.value;
      try { localStorage.setItem(`cardtable.${name}`, select.value); } catch { /* private mode: not kept */ }
    });
  }
}

// The "You won!" box `box` of a table page, drawn with the table: shown while the game is `won` (unless
// its Close button took it away, until the next win), where it hides no card or pile place of `table`
// (read where they come to rest, not where a sliding card is now): under the lowest of them, as on a
// table whose cards went home to its top row, else in the highest gap between them that holds it (a
// Pyramid won with its stock below); with no such room above the message line `message`, at the foot of
// the window, where its Close button takes it away.
export function showWonBox(box, table, message, won) {
  if (!won) delete box.dataset.closed;
  box.hidden = !won || "closed" in box.dataset;
  if (box.hidden) return;
  const origin = table.getBoundingClientRect();
  const left = origin.left + table.clientLeft, top = origin.top + table.clientTop;
  const boxes = [];
  for (const el of table.querySelectorAll(".card, .slot")) {
    if (el.classList.contains("gone") || el.style.top === "") continue;
    const y = top + parseFloat(el.style.top), x = left + parseFloat(el.style.left);
    boxes.push({ top: y, bottom: y + el.offsetHeight, left: x, right: x + el.offsetWidth });
  }
  const width = box.getBoundingClientRect();
  const height = box.offsetHeight;
  const floor = Math.min(window.innerHeight, message.getBoundingClientRect().top) - 6;
  const gap = 10;
  const free = (y) => y >= 0 && y + height <= floor && boxes.every((b) =>
    b.right <= width.left || width.right <= b.left || b.bottom <= y || y + height <= b.top);
  const lowest = Math.max(top, ...boxes.map((b) => b.bottom + gap));
  const gaps = [top + gap, ...boxes.map((b) => b.bottom + gap)].sort((a, b) => a - b);
  const at = free(lowest) ? lowest : gaps.find(free);
  box.style.top = `${at === undefined ? Math.max(0, floor - height) : at}px`;
}

// The won box's Close button (`[data-close-won]`): it hides the box until the next win.
export function closeWonBox(box) {
  box.querySelector("[data-close-won]").addEventListener("click", () => {
    box.dataset.closed = "";
    box.hidden = true;
  });
}
