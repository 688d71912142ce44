// Cards as the server writes them (docs/PROTOCOL.md §6: "7j", "Tr", "MJ", "PH=9") and as
// the page shows them: a text label ("7 jade"), words for a screen reader, a suit colour class.

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

/** What one card code means: {code, label, words, suit (class name), value (sort order)}. */
export function card(code) {
  const special = SPECIALS[code.slice(0, 2).toUpperCase()];
  if (special) {
    const key = code.slice(0, 2).toUpperCase();
    const as = code.length > 2 ? code.slice(2).replace("=", "") : "";
    const label = as ? `${special.label} as ${rankLabel(as)}` : special.label;
    return { code, label, words: label, suit: key.toLowerCase(), value: special.value };
  }
  let rank = code.slice(0, -1).toUpperCase();
  if (rank === "10") rank = "T";
  const suit = SUITS[code.slice(-1).toLowerCase()];
  if (!suit || !RANKS.includes(rank)) {
    return { code, label: code, words: code, suit: "unknown", value: 99 };
  }
  return {
    code,
    label: `${rankLabel(rank)} ${suit.name}`,
    words: `${RANK_WORD[rank] || rank} of ${suit.long}`,
    suit: suit.name,
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

/** A card as an element: its label as text (colour only adds to it) and its words for a screen reader. */
export function cardElement(code, tag = "span") {
  const info = card(code);
  const element = document.createElement(tag);
  element.classList.add("card", `suit-${info.suit}`);
  element.textContent = info.label;
  element.title = info.words;
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
