// The lobby's Events panel: the events (Tichu.Events) with Enter and Withdraw, the record of the
// one the person opened (Tichu.Event: its rounds, tables with Watch or Back to my seat, each
// table's result) and the latest standings (Tichu.Standings, pushed after each round). Every
// button sends an ordinary command: /enter, /withdraw, /event, /watch, /join, /review.

import { plural } from "./parts.js";

const FORMAT_WORDS = { individual: "individual", pairs: "pairs", duplicate: "duplicate pairs" };

function node(tag, text, ...classes) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  if (classes.length) made.classList.add(...classes);
  return made;
}

function button(label, key, onClick, ...classes) {
  const made = node("button", label, ...classes);
  made.type = "button";
  made.dataset.key = key;
  made.addEventListener("click", onClick);
  return made;
}

/** "individual, 2 rounds of 4 deals, 60 s a move". */
export function eventTerms(summary) {
  return `${FORMAT_WORDS[summary.format] || summary.format}, ${plural(summary.rounds, "round")} of`
    + ` ${plural(summary.deals, "deal")}, ${summary.clock} s a move`;
}

/** The start as people read it (UTC, as /newevent takes it). */
function startWords(summary) {
  const at = new Date(summary.start * 1000);
  return `starts ${at.toISOString().slice(11, 16)} UTC`;
}

/** One event of the list: what it is, where it stands, and what we may do about it. */
export function eventRow(summary, model, send) {
  const row = node("li", null, "event-row");
  const head = node("p", null, "event-name");
  const state = summary.state === "open" ? startWords(summary)
    : summary.state === "running" ? `round ${summary.round} of ${summary.rounds}` : summary.state;
  head.append(node("strong", `Event ${summary.event}: ${summary.name}`),
    ` · ${eventTerms(summary)} · ${state} · ${summary.entrants} entered`);
  const buttons = node("div", null, "row");
  const number = summary.event;
  if (model.entered.has(number) && (summary.state === "open" || summary.state === "running")) {
    buttons.append(button(`Withdraw from event ${number}`, `withdraw-${number}`, () => send(`/withdraw ${number}`, true)));
  } else if (summary.state === "open" && summary.format === "individual") {
    buttons.append(button(`Enter event ${number}`, `enter-${number}`, () => send(`/enter ${number}`, true), "primary"));
  } else if (summary.state === "open") {
    buttons.append(pairEntry(number, send));
  }
  buttons.append(button(`Show event ${number}`, `show-${number}`, () => send(`/event ${number}`, true)));
  row.append(head, buttons);
  return row;
}

/** A pairs event is entered with a partner: his name, then /enter N with PARTNER. */
function pairEntry(number, send) {
  const form = node("form", null, "row", "pair-entry");
  const id = `partner-${number}`;
  const label = node("label", `Partner for event ${number}`, "inline");
  label.htmlFor = id;
  const input = node("input");
  input.id = id;
  input.required = true;
  input.maxLength = 16;
  input.autocomplete = "off";
  input.spellcheck = false;
  input.dataset.key = id;
  const enter = node("button", `Enter event ${number} as a pair`);
  enter.type = "submit";
  enter.dataset.key = `enter-${number}`;
  form.append(label, input, enter);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (input.value.trim()) send(`/enter ${number} with ${input.value.trim()}`, true);
  });
  return form;
}

/** The table's two partnerships and their result: "Ann & Cy 230 : 170 Bo & Di (VP 3 : 1)". */
export function tableResult(table) {
  const [one, two, three, four] = table.seats;
  const teams = `${one} & ${three} against ${two} & ${four}`;
  if (table.deals === null || table.deals === undefined) return `${teams}: playing`;
  if (!table.deals.length) return `${teams}: no deals counted`;
  const sum = (at) => table.deals.reduce((total, deal) => total + deal[at], 0);
  return `${teams}: ${sum(0)} to ${sum(1)} points, victory points ${sum(2)} to ${sum(3)}`;
}

/** One table of a round: who sat where, its result, and the buttons to follow it. */
function tableItem(table, current, model, send) {
  const item = node("li", null, "event-table");
  const marks = table.stood_in && table.stood_in.length ? ` (a bot played for ${table.stood_in.join(", ")})` : "";
  item.append(node("p", `Table ${table.table}: ${tableResult(table)}${marks}`));
  const buttons = node("div", null, "row");
  const seat = table.seats.indexOf(model.nick) + 1;
  const running = current && (table.deals === null || table.deals === undefined);
  const heldHere = model.held !== null && model.held.table === table.table;
  if (running && seat > 0 && heldHere) {
    buttons.append(button(`Back to my seat at table ${table.table}`, `back-${table.table}`,
      () => send(`/join ${table.table} ${seat}`, true), "primary"));
  } else if (running && seat === 0) {
    buttons.append(button(`Watch table ${table.table}`, `watch-${table.table}`, () => send(`/watch ${table.table}`, true)));
  }
  if (!running && table.log !== null && table.log !== undefined && table.deals && table.deals.length) {
    buttons.append(button(`Review game ${table.log}`, `review-${table.log}`, () => send(`/review ${table.log}`, true)));
  }
  if (buttons.childElementCount) item.append(buttons);
  return item;
}

/** The opened event's record: its rounds, each with its tables and byes. */
export function recordParts(record, model, send) {
  const parts = [node("h4", `Event ${record.event}: ${record.name}`)];
  parts.push(node("p", `${eventTerms(record)} · ${record.state} · created by ${record.creator}`));
  const units = (record.entrants || []).map((unit) => unit.join(" and "));
  parts.push(node("p", `Entered: ${units.length ? units.join(", ") : "nobody yet"}`));
  (record.played || []).forEach((played, at) => {
    const current = at === record.played.length - 1 && record.state === "running";
    parts.push(node("h5", `Round ${at + 1}${current ? " (playing)" : ""}`));
    const tables = node("ul", null, "event-tables");
    tables.setAttribute("aria-label", `Round ${at + 1} of event ${record.event}`);
    tables.append(...played.tables.map((table) => tableItem(table, current, model, send)));
    parts.push(tables);
    if (played.plan.byes && played.plan.byes.length) parts.push(node("p", `Sitting out: ${played.plan.byes.join(", ")}`));
  });
  if (record.standings.length) parts.push(standingsTable(record.format, record.standings, `Standings of event ${record.event}`));
  return parts;
}

/** The standings as a table people and screen readers read by its headers. */
export function standingsTable(format, standings, title) {
  const table = node("table", null, "standings");
  table.append(node("caption", title));
  const [score, tie] = format === "duplicate" ? ["Match points", "Margin"] : ["Victory points", "Points"];
  const head = node("tr");
  for (const word of ["Place", "Name", score, tie, "Games", "Stand-in"]) {
    const cell = node("th", word);
    cell.scope = "col";
    head.append(cell);
  }
  const headRow = node("thead");
  headRow.append(head);
  const body = node("tbody");
  for (const row of standings) {
    const line = node("tr");
    const name = node("th", row.name);
    name.scope = "row";
    line.append(node("td", String(row.place)), name, node("td", String(row.victory_points)),
      node("td", String(row.points)), node("td", String(row.games)), node("td", row.stood_in ? String(row.stood_in) : ""));
    body.append(line);
  }
  table.append(headRow, body);
  // a narrow screen scrolls the table in its own box, not the page (focusable, so keys scroll it)
  const box = node("div", null, "standings-box");
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", title);
  box.append(table);
  return box;
}

/** The latest standings told: "after round 1 of 2", or final. */
export function standingsParts(told) {
  const when = told.final ? "final standings" : `standings after round ${told.round} of ${told.rounds}`;
  return [standingsTable(told.format, told.standings || [], `Event ${told.event} (${told.name}): ${when}`)];
}

/** Where the event seats us now, in a sentence (null when it does not). */
export function eventSeatWords(seat) {
  if (seat === null) return null;
  const where = `Event ${seat.event}, round ${seat.round}: your seat is table ${seat.table}, seat ${seat.seat}`;
  return seat.held ? `${where}; it is held for you.` : `${where}.`;
}
