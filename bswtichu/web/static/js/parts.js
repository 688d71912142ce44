// Smaller drawings of the table's surroundings: the score chart (both teams' totals round by
// round, as SVG), the review's open hands and its events in words.

import { cardElement, rankLabel } from "./cards.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 240;
const HEIGHT = 90;
const PAD = 6;
const TEAM_CLASSES = ["team-a", "team-b"];

/** "1 round", "3 rounds". */
export function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function svgNode(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** The chart of both teams' totals after each round (``history``: [{rounds, totals}]), with a
 * text alternative; nothing before the first round's score. */
export function drawChart(history, teams) {
  if (!history.length) return [];
  const points = [{ rounds: 0, totals: [0, 0] }, ...history];
  const values = points.flatMap((entry) => entry.totals.slice(0, 2));
  const top = Math.max(100, ...values);
  const bottom = Math.min(0, ...values);
  const x = (at) => PAD + (at * (WIDTH - 2 * PAD)) / Math.max(1, points.length - 1);
  const y = (value) => PAD + ((top - value) * (HEIGHT - 2 * PAD)) / (top - bottom);
  const chart = svgNode("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "chart-svg" });
  const title = svgNode("title");
  const last = history[history.length - 1];
  title.textContent = `Totals after each round: ${history.map((entry) => `round ${entry.rounds}: ${entry.totals[0]} to ${entry.totals[1]}`).join("; ")}`;
  chart.append(title);
  chart.append(svgNode("line", { x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0), class: "zero" }));
  for (const team of [0, 1]) {
    const line = points.map((entry, at) => `${x(at).toFixed(1)},${y(entry.totals[team]).toFixed(1)}`).join(" ");
    chart.append(svgNode("polyline", { points: line, class: `total ${TEAM_CLASSES[team]}` }));
    points.forEach((entry, at) => chart.append(svgNode("circle", {
      cx: x(at).toFixed(1), cy: y(entry.totals[team]).toFixed(1), r: 2.5, class: TEAM_CLASSES[team] })));
  }
  const legend = document.createElement("p");
  legend.className = "legend";
  teams.forEach((name, team) => {
    const key = document.createElement("span");
    key.className = `key ${TEAM_CLASSES[team]}`;
    key.textContent = `${name}: ${last.totals[team]}`;
    legend.append(key);
  });
  return [chart, legend];
}

/** The review's seats, each with its name and its cards open. */
export function reviewHands(review) {
  return (review.names || []).map((name, at) => {
    const item = document.createElement("li");
    item.className = "review-seat";
    const title = document.createElement("strong");
    const cards = (review.hands || [])[at] || [];
    title.textContent = `Seat ${at + 1}: ${name} (${plural(cards.length, "card")})`;
    const hand = document.createElement("ul");
    hand.className = "hand small";
    hand.setAttribute("aria-label", `${name}'s cards`);
    for (const code of cards) {
      const entry = document.createElement("li");
      entry.append(cardElement(code));
      hand.append(entry);
    }
    item.append(title, hand);
    return item;
  });
}

/** One event of a review step in words (the spectators' messages, by their keyword). */
export function describeEvent(event, names) {
  const who = (seat) => (names && names[seat - 1]) || `seat ${seat}`;
  switch (event.keyword) {
    case "PLAYED":
      return `${who(event.seat)} played ${event.combo.text || event.combo.type}${event.out_of_turn ? " (out of turn)" : ""}.`;
    case "PASSED":
      return `${who(event.seat)} passed.`;
    case "TICHU":
      return `${who(event.seat)} called ${event.grand ? "Grand Tichu" : "Tichu"}.`;
    case "WISH":
      return event.rank ? `${who(event.seat)} wished for ${rankLabel(event.rank)}.` : `${who(event.seat)} made no wish.`;
    case "TRICK_WON":
      return `${who(event.seat)} won the trick (${plural(event.points, "point")}).`;
    case "TRICK_TAKEN":
      return `The trick went to ${who(event.to)}'s pile.`;
    case "DRAGON_GIVEN":
      return `${who(event.seat)} gave the Dragon trick to ${who(event.to)}.`;
    case "OUT":
      return `${who(event.seat)} went out (place ${event.place}).`;
    case "EXCHANGED":
      return `The exchange: ${Object.entries(event.given || {}).map(([from, to]) =>
        `${who(Number(from))} gave ${Object.entries(to).map(([seat, code]) => `${code} to ${who(Number(seat))}`).join(", ")}`).join("; ")}.`;
    case "GRAND_DECIDED":
      return `${who(event.seat)} declined Grand Tichu.`;
    case "EXCHANGE_SUBMITTED":
      return `${who(event.seat)} passed cards.`;
    case "PHASE":
      return { grand: "Grand Tichu is decided.", exchange: "The exchange.", play: "Play begins." }[event.phase]
        || `The ${event.phase} phase.`;
    case "TURN":
      return `${who(event.seat)} to ${event.need === "lead" ? "lead" : event.need === "follow" ? "play" : event.need}.`;
    case "WISH_FULFILLED":
      return `The wish for ${rankLabel(event.rank)} is fulfilled.`;
    case "DOG_LEAD":
      return `${who(event.leader)} leads after the Dog.`;
    case "ROUND_END":
      return `The round ended: ${(event.score || []).join(" to ")}.`;
    default:
      return event.keyword.toLowerCase().replace(/_/g, " ");
  }
}
