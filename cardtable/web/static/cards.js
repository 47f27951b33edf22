// Card pictures drawn as SVG: corner indices, suit pips, court cards with a big
// letter in a frame, and a card back. A card is written as in the engine ("7h", "Td").

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
  return `<text x="${label.length > 1 ? 9.5 : 9}" y="23" font-size="19" font-weight="700" text-anchor="middle"
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

function court(letter, symbol, colour) {
  const tint = colour === "#c0192b" ? "#f7d9d0" : "#d9e2f2";
  return `<rect x="20" y="20" width="60" height="100" rx="5" fill="${tint}" stroke="${colour}" stroke-width="1.5"/>
    <text x="50" y="72" font-size="46" font-weight="700" text-anchor="middle" fill="${colour}"
      font-family="Georgia, 'DejaVu Serif', serif">${letter}</text>
    <text x="50" y="104" font-size="26" text-anchor="middle" fill="${colour}">${symbol}</text>
    <text x="50" y="44" font-size="14" text-anchor="middle" fill="#c8a13a">\u265B</text>`;
}

const cache = new Map();

/** The SVG of a face-up card. */
export function cardSvg(text) {
  if (cache.has(text)) return cache.get(text);
  const { rank, suit } = parseCard(text);
  const { symbol, red } = SUITS[suit];
  const colour = red ? "#c0192b" : "#1b1b1f";
  const label = rank === 10 ? "10" : RANKS[rank - 1];
  const middle = rank > 10 ? court(RANKS[rank - 1], symbol, colour) : pips(rank, symbol, colour);
  const svg = `<svg viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <rect x="0.75" y="0.75" width="98.5" height="138.5" rx="7" fill="#fffdf7" stroke="#9a968a" stroke-width="1.5"/>
    ${index(label, symbol, colour)}
    <g transform="rotate(180 50 70)">${index(label, symbol, colour)}</g>
    ${middle}</svg>`;
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
