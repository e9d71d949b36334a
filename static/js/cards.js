// Playing cards as inline SVG, German and French looks, generated here (no image files).
//
// Card codes are the engine's: rank then suit, ranks "6789TJQKA", suits C S H D
// (C = Eichel/clubs, S = Grün/spades, H = Herz/hearts, D = Schellen/diamonds).
// Every function returns SVG markup strings so callers can build whole hands with one
// innerHTML assignment, which keeps re-rendering cheap on phones.

export const RANKS = "6789TJQKA";
export const SUITS = "CSHD";
const RANK_VALUE = Object.fromEntries([...RANKS].map((r, i) => [r, i]));

const RANK_LABELS = {
  german: { 6: "6", 7: "7", 8: "8", 9: "9", T: "10", J: "U", Q: "O", K: "K", A: "A" },
  french: { 6: "6", 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" },
};

// Ink colours for indices and pips; German suits have their own colours, French are red/black.
const INK = {
  german: { C: "#7a4a12", S: "#1f7a2e", H: "#c62828", D: "#a86c00" },
  french: { C: "#1d2321", S: "#1d2321", H: "#c62828", D: "#c62828" },
};

/** SVG path data for a circle, so several circles fit into one <path>. */
function circle(cx, cy, r) {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
}

// Suit symbols drawn in a 100 x 100 box. Each returns markup for a <g> content.
const HEART_PATH =
  "M50 90C22 68 5 52 5 31C5 16 16 6 29 6C39 6 46 12 50 21C54 12 61 6 71 6C84 6 95 16 95 31" +
  "C95 52 78 68 50 90Z";

const SYMBOLS = {
  french: {
    C: (ink) =>
      `<path fill="${ink}" d="${circle(50, 28, 19)}${circle(27, 57, 19)}${circle(73, 57, 19)}` +
      `${circle(50, 50, 11)}M45 55Q45 82 32 95H68Q55 82 55 55Z"/>`,
    S: (ink) =>
      `<path fill="${ink}" d="M50 5C38 24 6 40 6 61C6 75 16 83 28 83C37 83 44 78 47 72` +
      `C46 82 41 89 32 95H68C59 89 54 82 53 72C56 78 63 83 72 83C84 83 94 75 94 61` +
      `C94 40 62 24 50 5Z"/>`,
    H: (ink) => `<path fill="${ink}" d="${HEART_PATH}"/>`,
    D: (ink) => `<path fill="${ink}" d="M50 4Q68 30 88 50Q68 70 50 96Q32 70 12 50Q32 30 50 4Z"/>`,
  },
  german: {
    // Eichel: a brown cap with a scale pattern over a golden nut, a short stalk on top.
    C: () =>
      `<path fill="#6b3f12" d="M47 4h6v12h-6z"/>` +
      `<path fill="#d9a23a" stroke="#7a4a12" stroke-width="3" d="M26 46C26 74 40 94 50 95` +
      `C60 94 74 74 74 46Z"/>` +
      `<path fill="#f3d27a" d="M36 52C36 68 42 80 48 86C42 76 40 64 41 52Z"/>` +
      `<path fill="#7a4a12" d="M18 50C16 28 32 14 50 14C68 14 84 28 82 50Z"/>` +
      `<path fill="none" stroke="#b07a35" stroke-width="2.5" d="M28 40h44M24 30l52 0` +
      `M38 18v30M50 15v33M62 18v30"/>`,
    // Grün / Laub: a green leaf with a stalk and veins.
    S: () =>
      `<path fill="#2f9a3e" stroke="#1b5e26" stroke-width="3" d="M50 5C74 22 92 44 82 68` +
      `C76 81 61 84 53 76L53 96H47L47 76C39 84 24 81 18 68C8 44 26 22 50 5Z"/>` +
      `<path fill="none" stroke="#1b5e26" stroke-width="2.5" d="M50 14V76M50 34L32 24M50 34` +
      `L68 24M50 50L27 40M50 50L73 40M50 64L30 58M50 64L70 58"/>`,
    // Herz: a full red heart with a soft highlight.
    H: () =>
      `<path fill="#d32f2f" stroke="#8e1b1b" stroke-width="3" d="${HEART_PATH}"/>` +
      `<path fill="#ef7b7b" d="M20 30C20 20 27 15 33 15C27 20 25 27 27 36Z"/>`,
    // Schellen: a golden round bell with a red band, a slit and a loop on top.
    D: () =>
      `<path fill="none" stroke="#8a5a00" stroke-width="5" d="M42 16a8 8 0 1 1 16 0"/>` +
      `<path fill="#f0b429" stroke="#8a5a00" stroke-width="3" d="${circle(50, 56, 38)}"/>` +
      `<path fill="#c62828" d="M14 46H86V58H14Z"/>` +
      `<path fill="#ffd970" d="M26 38C30 28 40 22 48 22C40 27 34 33 32 41Z"/>` +
      `<path fill="#5a3a00" d="${circle(50, 74, 6)}M48 74h4v18h-4z"/>`,
  },
};

/** Normalise an unknown look to German, the default of the profile. */
export function normaliseLook(look) {
  return look === "french" ? "french" : "german";
}

export function rankOf(code) {
  return code[0];
}

export function suitOf(code) {
  return code[1];
}

export function rankValue(code) {
  return RANK_VALUE[code[0]];
}

export function rankLabel(rank, look) {
  return RANK_LABELS[normaliseLook(look)][rank];
}

export function suitInk(suit, look) {
  return INK[normaliseLook(look)][suit];
}

/** A suit symbol placed at (x, y) with size `size`, rotated 180 degrees when `flip`. */
export function suitSymbol(suit, look, x, y, size, flip = false) {
  const l = normaliseLook(look);
  const scale = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x} ${y}) scale(${scale})${rot}">${SYMBOLS[l][suit](
    INK[l][suit],
  )}</g>`;
}

/** A standalone SVG of one suit symbol, for labels, row headers and buttons. */
export function suitIcon(suit, look, size = 18) {
  return (
    `<svg class="suit-icon" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `aria-hidden="true" focusable="false">${suitSymbol(suit, look, 0, 0, 100)}</svg>`
  );
}

// Pip positions (centre x, centre y) on a 100 x 140 card, for the number cards 6..10.
const PIPS = {
  6: [
    [36, 36], [64, 36], [36, 70], [64, 70], [36, 104], [64, 104],
  ],
  7: [
    [36, 36], [64, 36], [50, 53], [36, 70], [64, 70], [36, 104], [64, 104],
  ],
  8: [
    [36, 36], [64, 36], [50, 53], [36, 70], [64, 70], [50, 87], [36, 104], [64, 104],
  ],
  9: [
    [36, 33], [64, 33], [36, 57], [64, 57], [50, 70], [36, 83], [64, 83], [36, 107], [64, 107],
  ],
  T: [
    [36, 33], [64, 33], [50, 45], [36, 57], [64, 57], [36, 83], [64, 83], [50, 95], [36, 107],
    [64, 107],
  ],
};

function cornerIndex(rank, suit, look) {
  const ink = suitInk(suit, look);
  const label = rankLabel(rank, look);
  const size = label.length > 1 ? 20 : 24;
  const text =
    `<text x="13" y="27" text-anchor="middle" font-size="${size}" font-weight="700" ` +
    `font-family="system-ui, Arial, sans-serif" fill="${ink}" ` +
    `letter-spacing="${label.length > 1 ? -1.5 : 0}">${label}</text>`;
  const pip = suitSymbol(suit, look, 5, 32, 16);
  return (
    `<g>${text}${pip}</g>` + `<g transform="rotate(180 50 70)">${text}${pip}</g>`
  );
}

function centre(rank, suit, look) {
  const ink = suitInk(suit, look);
  if (PIPS[rank]) {
    const size = rank === "T" || rank === "9" ? 17 : 19;
    return PIPS[rank]
      .map(([x, y]) => suitSymbol(suit, look, x - size / 2, y - size / 2, size, y > 72))
      .join("");
  }
  if (rank === "A") {
    return suitSymbol(suit, look, 22, 42, 56);
  }
  // Court cards (U/O/K, J/Q/K): a tinted frame with a big letter over a big symbol.
  const label = rankLabel(rank, look);
  return (
    `<rect x="24" y="24" width="52" height="92" rx="6" fill="${ink}" fill-opacity="0.08" ` +
    `stroke="${ink}" stroke-opacity="0.55" stroke-width="1.5"/>` +
    `<text x="50" y="62" text-anchor="middle" font-size="34" font-weight="800" ` +
    `font-family="Georgia, 'Times New Roman', serif" fill="${ink}">${label}</text>` +
    suitSymbol(suit, look, 33, 72, 34)
  );
}

/**
 * The SVG markup of a card face. `code` is an engine code such as "KH"; `look` is
 * "german" or "french". The SVG scales to its container (set width in CSS).
 */
export function cardSvg(code, look, { title = "" } = {}) {
  const rank = rankOf(code);
  const suit = suitOf(code);
  const titleTag = title ? `<title>${escapeXml(title)}</title>` : "";
  return (
    `<svg class="card-face" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" ` +
    `role="img" aria-hidden="${title ? "false" : "true"}" focusable="false" data-card="${code}">` +
    titleTag +
    `<rect x="1" y="1" width="98" height="138" rx="9" fill="#fff" stroke="#b9b4a8" ` +
    `stroke-width="2"/>` +
    cornerIndex(rank, suit, look) +
    centre(rank, suit, look) +
    `</svg>`
  );
}

/** The back of a card (for opponents' hands): a felt-green lattice. */
export function cardBackSvg() {
  return (
    `<svg class="card-back" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" ` +
    `aria-hidden="true" focusable="false">` +
    `<defs><pattern id="lattice" width="12" height="12" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="12" height="12" fill="#1f5f46"/>` +
    `<path d="M0 6H12M6 0V12" stroke="#2f7d5e" stroke-width="2"/></pattern></defs>` +
    `<rect x="1" y="1" width="98" height="138" rx="9" fill="#fff" stroke="#b9b4a8" ` +
    `stroke-width="2"/><rect x="7" y="7" width="86" height="126" rx="6" fill="url(#lattice)"/>` +
    `</svg>`
  );
}

/** An empty outline where a card may go (layout rows, empty trick places). */
export function cardSlotSvg(label = "") {
  return (
    `<svg class="card-slot" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="3" y="3" width="94" height="134" rx="9" fill="none" stroke="currentColor" ` +
    `stroke-opacity="0.45" stroke-width="3" stroke-dasharray="8 6"/>` +
    (label
      ? `<text x="50" y="80" text-anchor="middle" font-size="28" fill="currentColor" ` +
        `fill-opacity="0.6" font-family="system-ui, sans-serif">${escapeXml(label)}</text>`
      : "") +
    `</svg>`
  );
}

/**
 * A readable name for screen readers and titles, e.g. "Ober of Hearts" / "Herz-Ober".
 * `names` comes from the template's translated labels (suits and ranks per look).
 */
export function cardName(code, look, names) {
  const l = normaliseLook(look);
  const n = names && names[l];
  if (!n) return `${rankLabel(rankOf(code), l)} ${suitOf(code)}`;
  return n.pattern.replace("{rank}", n.ranks[rankOf(code)]).replace("{suit}", n.suits[suitOf(code)]);
}

/** Sort a hand for display: by suit (C S H D alternate colours well), then rank. */
export function sortHand(codes) {
  const suitOrder = { C: 0, H: 1, S: 2, D: 3 };
  return [...codes].sort(
    (a, b) => suitOrder[suitOf(a)] - suitOrder[suitOf(b)] || rankValue(a) - rankValue(b),
  );
}

/**
 * A seat's name as this page shows it. The server names a bot seat "Bot (<level>)" in
 * English, in frames shared by viewers of every language; the page words it from its own
 * labels (`bot_seat`, `bot_level_<level>`) instead.
 */
export function seatLabel(seat, labels) {
  if (!seat) return "";
  if (!seat.user_id && seat.bot_level) {
    const level = labels[`bot_level_${seat.bot_level}`] ?? seat.bot_level;
    return (labels.bot_seat ?? "Bot ({level})").replace("{level}", level);
  }
  return seat.name || "";
}

export function escapeXml(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
