// Cards as the server writes them (docs/PROTOCOL.md §6: "7j", "Tr", "MJ", "PH=9") and as
// the page shows them: a drawn face (SVG), a text label ("7 jade"), words for a screen reader.

const SUITS = {
  j: { name: "jade", long: "Jade" },
  s: { name: "sword", long: "Sword" },
  p: { name: "pagoda", long: "Pagoda" },
  r: { name: "star", long: "Star" },
};
const SUIT_ORDER = "jspr";
const RANKS = "23456789TJQKA";
const RANK_LABEL = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_WORD = { T: "10", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const SPECIALS = {
  MJ: { label: "Mahjong", value: 1 },
  DG: { label: "Dog", value: 0 },
  PH: { label: "Phoenix", value: 15 },
  DR: { label: "Dragon", value: 16 },
};

/** What one card code means: {code, label, words, suit (class name), rank, as (a Phoenix's
 * reading, or ""), value (sort order)}. */
export function card(code) {
  const special = SPECIALS[code.slice(0, 2).toUpperCase()];
  if (special) {
    const key = code.slice(0, 2).toUpperCase();
    const as = code.length > 2 ? code.slice(2).replace("=", "") : "";
    const label = as ? `${special.label} as ${rankLabel(as)}` : special.label;
    return { code, label, words: label, suit: key.toLowerCase(), rank: "", as, value: special.value };
  }
  let rank = code.slice(0, -1).toUpperCase();
  if (rank === "10") rank = "T";
  const suit = SUITS[code.slice(-1).toLowerCase()];
  if (!suit || !RANKS.includes(rank)) {
    return { code, label: code, words: code, suit: "unknown", rank: code, as: "", value: 99 };
  }
  return {
    code,
    label: `${rankLabel(rank)} ${suit.name}`,
    words: `${RANK_WORD[rank] || rank} of ${suit.long}`,
    suit: suit.name,
    rank,
    as: "",
    value: RANKS.indexOf(rank) + 2 + SUIT_ORDER.indexOf(code.slice(-1).toLowerCase()) / 10,
  };
}

/** A rank as people read it: "10" for T, the others as written. */
export function rankLabel(rank) {
  return RANK_LABEL[rank.toUpperCase()] || rank;
}

/** Card codes in the order a hand is shown: Dog, Mahjong, 2..A (suits j s p r), Phoenix, Dragon. */
export function sortCards(codes) {
  return [...codes].sort((a, b) => card(a).value - card(b).value);
}

/** A card as an element: its drawn face, named by its words for a screen reader (``role`` img
 * unless the caller gives it another: an option of the hand, say). */
export function cardElement(code, tag = "span") {
  const info = card(code);
  const element = document.createElement(tag);
  element.classList.add("card", `suit-${info.suit}`);
  element.append(cardFace(code));
  if (tag === "span") element.setAttribute("role", "img");
  element.setAttribute("aria-label", info.words);
  element.title = info.label;
  element.dataset.code = code;
  return element;
}

/** The cards of a command line ("/play 7j 7s PH=7", "/schupf 2j 3s 4p"): the words after the command
 * that are cards, and the rest ("wish 7" and the like). */
export function commandCards(line) {
  const words = line.trim().split(/\s+/).slice(1);
  const cards = [];
  const rest = [];
  for (const word of words) {
    if (isCard(word)) cards.push(word);
    else rest.push(word);
  }
  return { cards, rest };
}

function isCard(word) {
  return /^(MJ|DG|DR|PH(=?[2-9TJQKA])?|(10|[2-9TJQKA])[jspr])$/i.test(word);
}

/** Words for a list of cards ("7 of Jade, 7 of Sword"). */
export function cardWords(codes) {
  return codes.map((code) => card(code).words).join(", ");
}

// -- the faces, drawn -------------------------------------------------------------------
// Our own drawing (SVG, no copied art): a card is 60 × 84 units; its rank and a small suit sign
// in the top left corner (what shows where cards overlap), a large sign in the middle. Each
// suit has its own sign and colour; each special card its own colour, sign and name.

const SVG = "http://www.w3.org/2000/svg";
/** The signs, drawn round (0, 0) within about ±10 units. */
const SIGNS = {
  // Jade: a bi disc, a ring of jade
  jade: [["path", { d: "M0-10a10 10 0 1 0 0.01 0zM0-4a4 4 0 1 1-0.01 0z", "fill-rule": "evenodd" }]],
  // Sword: a blade, its guard and grip
  sword: [["path", { d: "M0-11L2.6 3H-2.6ZM-7 3H7V5.6H-7ZM-1.3 5.6H1.3V10H-1.3ZM-2.6 10H2.6V11.6H-2.6Z" }]],
  // Pagoda: three roofs on each other
  pagoda: [["path", { d: "M0-11L5-6H-5ZM-3.4-6H3.4V-3H-3.4ZM-8-3H8L4 1H-4ZM-3.4 1H3.4V4H-3.4ZM-10.5 4H10.5L6.5 8H-6.5ZM-5 8H5V11H-5Z" }]],
  // Star: five points
  star: [["path", { d: "M0-11L2.6-3.6L10.5-3.4L4.2 1.4L6.5 9L0 4.5L-6.5 9L-4.2 1.4L-10.5-3.4L-2.6-3.6Z" }]],
  // Mahjong: a sparrow (body, head, beak, tail)
  mj: [["path", { d: "M-9 4C-6-4 4-5 7 0C8 5 2 9-4 8L-11 11L-8 5Z" }], ["circle", { cx: 6, cy: -4, r: 4 }],
    ["path", { d: "M9.5-5L13-3.5L9.5-2.5Z" }]],
  // Dog: a paw print
  dg: [["ellipse", { cx: 0, cy: 4, rx: 6, ry: 5 }], ["circle", { cx: -7, cy: -3, r: 2.6 }],
    ["circle", { cx: -2.6, cy: -8, r: 2.6 }], ["circle", { cx: 2.6, cy: -8, r: 2.6 }], ["circle", { cx: 7, cy: -3, r: 2.6 }]],
  // Phoenix: a flame, rising
  ph: [["path", { d: "M0 11C-8 11-10 3-6-3C-5 0-3 1-3 1C-4-5 0-9 1-12C2-7 7-5 8 1C9 7 5 11 0 11ZM0 8C3 8 4 5 2 1C1 3 0 4-1 4C-3 5-3 8 0 8Z", "fill-rule": "evenodd" }]],
  // Dragon: a horned head, open jaw
  dr: [["path", { d: "M-11 6L-6-4L-8-11L-2-6L4-8L2-3L11-1L5 3L10 7L2 6L-2 11Z" }], ["circle", { cx: 1, cy: -2, r: 1.6, fill: "#fff" }]],
};
/** The colours: ink of each suit (on white, contrast over 4.5:1), each special card's. */
const INK = {
  jade: "#0b6b34", sword: "#26262a", pagoda: "#17439a", star: "#b0141b",
  mj: "#005f73", dg: "#5b3a1a", ph: "#a3340b", dr: "#a50d14", unknown: "#26262a",
};
const CORNER = { mj: "1", dg: "Dog", ph: "Ph", dr: "Dr" };

function svgNode(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

function sign(kind, x, y, scale, fill) {
  const group = svgNode("g", { transform: `translate(${x} ${y}) scale(${scale})`, fill });
  for (const [tag, attributes] of SIGNS[kind] || []) group.append(svgNode(tag, attributes));
  return group;
}

/** The SVG face of a card (hidden from screen readers: the element it sits in is named). */
export function cardFace(code) {
  const info = card(code);
  const kind = info.suit; // jade, sword, pagoda, star; or mj, dg, ph, dr
  const ink = INK[kind] || INK.unknown;
  const face = svgNode("svg", { viewBox: "0 0 60 84", class: "face", "aria-hidden": "true", focusable: "false" });
  const special = CORNER[kind] !== undefined;
  face.append(svgNode("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: special ? "#fffaf0" : "#fff",
    stroke: ink, "stroke-width": special ? 2.5 : 1.2 }));
  const index = special ? CORNER[kind] : rankLabel(info.rank);
  const corner = svgNode("text", { x: 3.5, y: 17, fill: ink, "font-size": index.length > 2 ? 10 : 16,
    "font-weight": 700, "font-family": "system-ui, sans-serif" });
  corner.textContent = index;
  face.append(corner);
  face.append(sign(kind, 10, 28, 0.5, ink));
  if (info.as) {
    const as = svgNode("text", { x: 3.5, y: 44, fill: ink, "font-size": 11, "font-weight": 700 });
    as.textContent = `=${rankLabel(info.as)}`;
    face.append(as);
  }
  face.append(sign(kind, 34, special ? 44 : 52, special ? 1.7 : 1.45, ink));
  if (special) {
    const name = svgNode("text", { x: 34, y: 76, fill: ink, "font-size": 9, "font-weight": 700, "text-anchor": "middle" });
    name.textContent = SPECIALS[code.slice(0, 2).toUpperCase()].label;
    face.append(name);
  } else {
    const rank = svgNode("text", { x: 56, y: 79, fill: ink, "font-size": 11, "font-weight": 700, "text-anchor": "end" });
    rank.textContent = index;
    face.append(rank);
  }
  return face;
}

/** A card's back (another player's hidden card). */
export function cardBack() {
  const back = svgNode("svg", { viewBox: "0 0 60 84", class: "face back", "aria-hidden": "true", focusable: "false" });
  back.append(svgNode("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#1e4d3a", stroke: "#0d2a1f", "stroke-width": 1.5 }));
  back.append(svgNode("rect", { x: 7, y: 7, width: 46, height: 70, rx: 3, fill: "none", stroke: "#d8c27a", "stroke-width": 1.5 }));
  back.append(sign("dr", 30, 42, 1.2, "#d8c27a"));
  return back;
}
