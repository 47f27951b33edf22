// Card pictures drawn as SVG: corner indices, suit pips, court cards with a
// double-headed figure (the project's own drawing: a king, a queen or a jack in
// the suit's colours, mirrored top and bottom as on real court cards), and a
// card back. A card is written as in the engine ("7h", "Td").
//
// Each face carries two drawings: the full face (two corner indices and the
// pips or the figure), and a compact one (a large rank and suit across the top,
// one big suit or a smaller figure below) for cards too small for the full
// face's corner to be read. The compact one is hidden by its own attribute; the
// page's style sheet shows it instead of the full face where cards are small
// (see .face-full and .face-compact in table.css). A picture taken out of the
// page (the win celebration's images) shows the full face.

const SUITS = {
  c: { symbol: "\u2663", name: "clubs", red: false },
  d: { symbol: "\u2666", name: "diamonds", red: true },
  h: { symbol: "\u2665", name: "hearts", red: true },
  s: { symbol: "\u2660", name: "spades", red: false },
};
export const SUIT_ORDER = ["c", "d", "h", "s"];
const RANKS = "A23456789TJQK";
const RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "jack", "queen", "king"];

// Pip centres on a 100 x 140 card, by rank.
const PIPS = {
  1: [[50, 70]],
  2: [[50, 28], [50, 112]],
  3: [[50, 28], [50, 70], [50, 112]],
  4: [[30, 28], [70, 28], [30, 112], [70, 112]],
  5: [[30, 28], [70, 28], [50, 70], [30, 112], [70, 112]],
  6: [[30, 28], [70, 28], [30, 70], [70, 70], [30, 112], [70, 112]],
  7: [[30, 28], [70, 28], [50, 49], [30, 70], [70, 70], [30, 112], [70, 112]],
  8: [[30, 28], [70, 28], [50, 49], [30, 70], [70, 70], [50, 91], [30, 112], [70, 112]],
  9: [[30, 28], [70, 28], [30, 56], [70, 56], [50, 70], [30, 84], [70, 84], [30, 112], [70, 112]],
  10: [[30, 28], [70, 28], [50, 42], [30, 56], [70, 56], [30, 84], [70, 84], [50, 98], [30, 112], [70, 112]],
};

/** The rank (1..13) and suit letter of a card's text. */
export function parseCard(text) {
  return { rank: RANKS.indexOf(text[0].toUpperCase()) + 1, suit: text[1].toLowerCase() };
}

/** A card in words: "seven of hearts". */
export function cardName(text) {
  const { rank, suit } = parseCard(text);
  return `${RANK_WORDS[rank - 1]} of ${SUITS[suit].name}`;
}

export function suitSymbol(letter) { return SUITS[letter].symbol; }
export function isRed(text) { return SUITS[parseCard(text).suit].red; }

function index(label, symbol, colour) {
  // "10" is squeezed to the width of one letter, so that it stays inside the card's edge.
  const fit = label.length > 1 ? ' textLength="15" lengthAdjust="spacingAndGlyphs"' : "";
  return `<text class="index-rank" x="${label.length > 1 ? 9.5 : 9}" y="23" font-size="19" font-weight="700" text-anchor="middle"
    fill="${colour}"${fit} font-family="Georgia, 'DejaVu Serif', serif">${label}</text>
    <text x="9" y="37" font-size="15" text-anchor="middle" fill="${colour}">${symbol}</text>`;
}

function pips(rank, symbol, colour) {
  const size = rank === 1 ? 54 : 22;
  return PIPS[rank].map(([x, y]) => {
    const turn = y > 75 && rank !== 1 ? ` transform="rotate(180 ${x} ${y})"` : "";
    return `<text x="${x}" y="${y + size * 0.35}" font-size="${size}" text-anchor="middle"
      fill="${colour}"${turn}>${symbol}</text>`;
  }).join("");
}

// Court figures on a 100 x 140 card: the upper half is drawn, then turned half
// round for the lower one. Robes in the suit's colour, gold trim, and a second
// colour for the linings: blue on a red suit, red on a black one.
const SKIN = "#f4d7b5", GOLD = "#e0b13a", LINE = "#1b1b1f";

function courtHalf(rank, symbol, colour) {
  const lining = colour === "#c0192b" ? "#2b4f9e" : "#c0192b";
  const stroke = `stroke="${LINE}" stroke-width="0.9" stroke-linejoin="round"`;
  const hand = (x, y) => `<circle cx="${x}" cy="${y}" r="2.8" fill="${SKIN}" ${stroke}/>`;
  const robe = `<path d="M21 70 L23 58 Q28 48 41 46.5 L59 46.5 Q72 48 77 58 L79 70 Z" fill="${colour}" ${stroke}/>
    <path d="M34 70 L36 52 M66 70 L64 52" stroke="${GOLD}" stroke-width="3.2"/>
    <path d="M36 63 L64 63" stroke="${lining}" stroke-width="2.4" stroke-dasharray="2.4 1.6"/>
    <path d="M39 46.8 L50 60 L61 46.8 Z" fill="${lining}" ${stroke}/>
    <path d="M43 47 L50 55 L57 47" fill="none" stroke="${GOLD}" stroke-width="1.6"/>`;
  const face = `<rect x="46" y="42" width="8" height="6" fill="${SKIN}"/>
    <ellipse cx="50" cy="36.5" rx="8" ry="9.5" fill="${SKIN}" ${stroke}/>
    <circle cx="47" cy="35.5" r="0.95" fill="${LINE}"/><circle cx="53" cy="35.5" r="0.95" fill="${LINE}"/>
    <path d="M48 41.3 Q50 42.6 52 41.3" fill="none" stroke="#a0443a" stroke-width="0.9"/>`;
  if (rank === 13) {  // the king: a crown with points, a beard, a sword
    return `<path d="M72 20 L72 66" stroke="#8d959c" stroke-width="2.6"/><path d="M67.5 27 L76.5 27" stroke="${GOLD}" stroke-width="2.4"/>
      <circle cx="72" cy="19" r="1.8" fill="${GOLD}"/>${robe}${face}${hand(72, 56)}
      <path d="M41.8 38 Q42 50.5 50 52.5 Q58 50.5 58.2 38 Q55 43.5 50 43.8 Q45 43.5 41.8 38 Z" fill="#d9d3c7" ${stroke}/>
      <path d="M46.5 41.2 Q50 39.8 53.5 41.2" fill="none" stroke="${LINE}" stroke-width="0.8"/>
      <path d="M40.5 29.5 L40 19 L44.5 24 L47.5 16.5 L50 23 L52.5 16.5 L55.5 24 L60 19 L59.5 29.5 Z" fill="${GOLD}" ${stroke}/>
      <path d="M41 27 L59 27" stroke="${lining}" stroke-width="1.6"/>
      <text x="28" y="33" font-size="12" text-anchor="middle" fill="${colour}">${symbol}</text>`;
  }
  if (rank === 12) {  // the queen: long hair, a small crown, a flower
    return `<path d="M39.5 42 Q37 24 50 23.5 Q63 24 60.5 42 L63 53 L37 53 Z" fill="#7b4a22" ${stroke}/>
      ${robe}${face}
      <path d="M42.5 29 L43.5 21.5 L46.8 25.5 L50 19.5 L53.2 25.5 L56.5 21.5 L57.5 29 Z" fill="${GOLD}" ${stroke}/>
      <circle cx="50" cy="24.5" r="1.3" fill="${lining}"/>
      <path d="M29 66 L29 50" stroke="#3f7a36" stroke-width="1.5"/>
      <circle cx="29" cy="47" r="4.2" fill="${colour}" ${stroke}/><circle cx="29" cy="47" r="1.6" fill="${GOLD}"/>
      ${hand(29, 57)}
      <text x="72" y="33" font-size="12" text-anchor="middle" fill="${colour}">${symbol}</text>`;
  }
  // the jack: a cap with a feather, short hair, a halberd
  return `<path d="M28 18 L28 68" stroke="#8a5a2b" stroke-width="2.2"/>
    <path d="M28 17 Q36 21 34 29 L28 27 Z" fill="#8d959c" ${stroke}/>
    ${robe}${face}
    <path d="M41.5 37 Q40 27 50 26.5 Q60 27 58.5 37 Q56 31 50 31 Q44 31 41.5 37 Z" fill="#b0772f" ${stroke}/>
    <path d="M40 29 Q41 19.5 51 19.5 Q60.5 20 61 29 Z" fill="${lining}" ${stroke}/>
    <path d="M40 29 L61 29" stroke="${GOLD}" stroke-width="1.8"/>
    <path d="M58 24 Q68 14 73 17 Q66 19 60 27" fill="${GOLD}" ${stroke}/>${hand(28, 56)}
    <text x="72" y="40" font-size="12" text-anchor="middle" fill="${colour}">${symbol}</text>`;
}

function court(rank, symbol, colour) {
  const tint = colour === "#c0192b" ? "#fbeee6" : "#eef1f8";
  const half = courtHalf(rank, symbol, colour);
  return `<g class="court"><rect x="16" y="16" width="68" height="108" rx="4" fill="${tint}"/>
    <g>${half}</g><g transform="rotate(180 50 70)">${half}</g>
    <path d="M16 70 L84 70" stroke="${GOLD}" stroke-width="1.4"/>
    <rect x="16" y="16" width="68" height="108" rx="4" fill="none" stroke="${colour}" stroke-width="1.5"/></g>`;
}

// The compact face: the rank and the suit large across the top (what a fanned card shows),
// and below, one big suit, or the figure drawn smaller.
function compact(rank, label, symbol, colour, figure) {
  const fit = label.length > 1 ? ' textLength="38" lengthAdjust="spacingAndGlyphs"' : "";
  const below = figure
    ? `<g transform="translate(50 90) scale(0.66) translate(-50 -70)">${figure}</g>`
    : `<text x="50" y="116" font-size="${rank === 1 ? 70 : 58}" text-anchor="middle" fill="${colour}">${symbol}</text>`;
  return `<g class="face-compact" display="none">
    <text class="index-rank" x="6" y="36" font-size="36" font-weight="700" fill="${colour}"${fit}
      font-family="Georgia, 'DejaVu Serif', serif">${label}</text>
    <text x="95" y="34" font-size="32" text-anchor="end" fill="${colour}">${symbol}</text>
    ${below}</g>`;
}

const cache = new Map();

/** The SVG of a face-up card. */
export function cardSvg(text) {
  if (cache.has(text)) return cache.get(text);
  const { rank, suit } = parseCard(text);
  const { symbol, red } = SUITS[suit];
  const colour = red ? "#c0192b" : "#1b1b1f";
  const label = rank === 10 ? "10" : RANKS[rank - 1];
  const figure = rank > 10 ? court(rank, symbol, colour) : null;
  const svg = `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" fill="#fffdf7" stroke="#9a968a" stroke-width="1.5"/>
    <g class="face-full">${index(label, symbol, colour)}
    <g transform="rotate(180 50 70)">${index(label, symbol, colour)}</g>
    ${figure ?? pips(rank, symbol, colour)}</g>
    ${compact(rank, label, symbol, colour, figure)}</svg>`;
  cache.set(text, svg);
  return svg;
}

/** The SVG of a card's back (its colours are the page's --back, --back-line and --back-edge). */
export function backSvg() {
  return `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <defs><pattern id="cardtable-lattice" width="10" height="10" patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)">
      <rect width="10" height="10" style="fill: var(--back)"/>
      <path d="M0 5h10M5 0v10" style="stroke: var(--back-line)" stroke-width="1.6"/>
    </pattern></defs>
    <rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" fill="#fffdf7" stroke="#9a968a" stroke-width="1.5"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#cardtable-lattice)"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="none" style="stroke: var(--back-edge)" stroke-width="2"/>
  </svg>`;
}

/** The element of the card called `key` on `table` (made, and kept in `elements`, the first time). */
export function cardElement(table, elements, key) {
  let el = elements.get(key);
  if (!el) {
    el = document.createElement("div");
    el.className = "card";
    el.dataset.key = key;
    table.appendChild(el);
    elements.set(key, el);
  }
  return el;
}

/** Show the card element `el` at (x, y), stacked at `z`: its picture `art()` (drawn again only when its
 * `face` changes: "down", or what its face shows), whether it is selected, and its name for screen
 * readers (`label`; none: hidden from them, as a card under others is). */
export function showCard(el, face, art, x, y, z, selected, label) {
  if (el.dataset.face !== face) {
    el.innerHTML = art();
    el.dataset.face = face;
  }
  el.classList.toggle("down", face === "down");
  el.classList.toggle("selected", Boolean(selected));
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
  el.style.zIndex = String(z);
  el.style.transform = "";
  nameCard(el, label);
}

/** The element of a pile's place on `table` whose data attribute `attribute` is `key` (made the first time:
 * a button in the tab order, of the classes "slot" and `kind`), put at (x, y) and named `label`. */
export function slotElement(table, attribute, key, kind, x, y, label) {
  let el = table.querySelector(`.slot[data-${attribute}="${key}"]`);
  if (!el) {
    el = document.createElement("div");
    el.className = `slot ${kind}`;
    el.setAttribute(`data-${attribute}`, key);
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    table.appendChild(el);
  }
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
  el.setAttribute("aria-label", label);
  return el;
}

/** Name a card element for screen readers (a button in the tab order), or, with no label, hide it from them. */
export function nameCard(el, label) {
  if (label) {
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", label);
    el.removeAttribute("aria-hidden");
  } else {
    el.removeAttribute("tabindex");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
    el.setAttribute("aria-hidden", "true");
  }
}
