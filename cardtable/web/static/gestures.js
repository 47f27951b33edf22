// The pointer gestures of the card tables, and their arrow keys: mouse, finger and pen alike. A press on a card that moves drags
// the cards it holds (they follow the pointer, and go back unless the drop is taken); a press that does not
// move taps, and two taps on the same card or place within 400 ms are a double tap. The table says what a
// press holds and what a drop or a tap means; this module only reads the pointer.

const DOUBLE_TAP_MS = 400;
const DRAG_PX = 5;

// Follow the pointer on `table`. `how` gives:
//   holds(el)            what a press on the card or place `el` picks up (a "spot"), or null: nothing
//   run(spot)            the card elements that move with it
//   drop(spot, target)   the cards let go over the place named by the `targetAttribute` of the element
//                        under them (null: none); true when a move was asked for, else they go back
//   tap(el, spot, twice) a press that did not move (twice: the second of a double tap)
//   settle()             draw the table again (after a drag that was not taken, or one cancelled)
//   targetAttribute      the data attribute that names a place ("target" or "place")
export function followPointer(table, how) {
  let drag = null;
  let lastTap = { key: null, at: 0 };
  const attribute = how.targetAttribute;
  const release = (run) => run.forEach((el) => { el.classList.remove("dragging"); el.style.transform = ""; });

  table.addEventListener("pointerdown", (event) => {
    if (event.button > 0) return;
    const el = event.target.closest(".card, .slot");
    if (!el) return;
    const spot = how.holds(el);
    if (spot === undefined) return;
    drag = { el, spot, x: event.clientX, y: event.clientY, moving: false, pointer: event.pointerId, run: [] };
    if (spot) el.setPointerCapture(event.pointerId);
  });

  table.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointer || !drag.spot) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) < DRAG_PX) return;
    if (!drag.moving) {
      drag.moving = true;
      drag.run = how.run(drag.spot).filter(Boolean);
      drag.run.forEach((el, i) => { el.classList.add("dragging"); el.style.zIndex = String(100000 + i); });
    }
    drag.run.forEach((el) => { el.style.transform = `translate(${dx}px, ${dy}px)`; });
  });

  table.addEventListener("pointerup", (event) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const current = drag;
    drag = null;
    if (current.moving) {
      const target = targetAt(table, event.clientX, event.clientY, current.run, attribute);
      release(current.run);
      if (!how.drop(current.spot, target)) how.settle();  // back where they were
      return;
    }
    const key = current.el.dataset.key || current.el.dataset.card || current.el.dataset.slot || current.el.dataset.place;
    const now = performance.now();
    const twice = lastTap.key === key && now - lastTap.at < DOUBLE_TAP_MS;
    lastTap = { key, at: twice ? 0 : now };
    how.tap(current.el, current.spot, twice);
  });

  table.addEventListener("pointercancel", () => {
    if (drag && drag.moving) release(drag.run);
    drag = null;
    how.settle();
  });
}

// The place under the point (x, y), past the cards being dragged: the value of the `attribute` data
// attribute of the nearest element that has one, on the table.
function targetAt(table, x, y, run, attribute) {
  for (const el of document.elementsFromPoint(x, y)) {
    if (run.includes(el)) continue;
    const target = el.closest(`[data-${attribute}]`);
    if (target && table.contains(target)) return target.dataset[attribute];
  }
  return null;
}

// Make the elements pulse, as a hint shows the cards to move and where they go.
export function pulse(elements) {
  for (const el of elements) {
    if (!el) continue;
    el.classList.remove("hinted");
    void el.offsetWidth;
    el.classList.add("hinted");
  }
}

// Move the keyboard's focus from the focused card or place of `table` to the nearest one in the direction
// of the arrow `key` ("ArrowLeft"...), passing over the places `covered(el)` says a card lies on.
export function focusToward(table, key, covered) {
  const here = table.contains(document.activeElement) ? document.activeElement : null;
  const all = [...table.querySelectorAll('[tabindex="0"]')].filter((el) => !covered(el));
  if (!here) { if (all.length) all[0].focus(); return; }
  const from = here.getBoundingClientRect();
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null, bestScore = Infinity;
  for (const el of all) {
    if (el === here) continue;
    const to = el.getBoundingClientRect();
    const along = (to.left - from.left) * dx + (to.top - from.top) * dy;
    const across = Math.abs((to.left - from.left) * dy) + Math.abs((to.top - from.top) * dx);
    if (along <= 1) continue;
    const score = along + across * 3;
    if (score < bestScore) { best = el; bestScore = score; }
  }
  if (best) best.focus();
}
