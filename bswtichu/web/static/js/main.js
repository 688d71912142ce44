// The page's wiring: the connection, the model it feeds, the view, and the controls that
// send commands. Every control sends an ordinary slash command, the same a telnet user types.

import { Link } from "./link.js";
import { Model } from "./model.js";
import { View, byId } from "./view.js";

// The command words the page needs, as the server names them (its listener's commands.json):
// the commands whose arguments are secrets, of which the log and the history keep only the first
// word (and the name of /nick); the names of the command that plays a further hand (/second).
const COMMANDS = await fetch("commands.json").then((answer) => answer.json());
const SECRET = new RegExp(`^\\/(${COMMANDS.secret.join("|")})\\b`, "i");
const SECOND_SCHUPF = new RegExp(`^\\/(${COMMANDS.second_hand.join("|")})\\s+\\/?schupf\\b`, "i");
const HISTORY = 100;
// The page's own requests are answered like any other, text and package; the text is kept out
// of the log (the page shows the package), if the package comes within QUIET_MS.
const QUIET_MS = 5000;
// How long a message's text waits for its package (on gmcp.mudstandards.org the TEXT frame comes
// right after the BINARY one); text without a package is shown after this.
const HOLD_MS = 250;
// The lobby's lists are asked for again this often, while someone uses the page (the server's
// idle limit still sees a page nobody touches: it stops asking LOBBY_IDLE_MS after the last
// command typed or clicked).
const LOBBY_EVERY_MS = 10000;
const LOBBY_IDLE_MS = 300000;

let model = new Model();
// What the person picked, per hand (``own``; ``other``: the second hand we play): the cards
// selected to play, in the order picked, and the exchange's places (a card or null each).
let ui = freshPicks();
let movePending = false; // a move was sent and no legal list has come since
let roundsAsked = null; // the rounds the field last asked for (it is sent once, as it changes or at the start)
let fillWith = null; // a bot level: the new table's free seats get bots of it once its seats are known
// A guest's resume token, kept in this page's memory only (never in the address or storage):
// after a dropped connection "Come back as NAME" sends /resume with it.
let resume = null;
const history = [];
let historyAt = 0;
const quiet = []; // {name, until}: packages the page asked for itself
let held = null; // the last text frame, until its package shows whether to log it
let holdTimer = null;
let lastUse = Date.now();

const view = new View({ send, move, pick, place, exchange, selectCards });
const link = new Link({
  text: heldText,
  gmcp: (name, fields) => {
    releaseText(name);
    received(name, fields);
  },
  state: connected,
});

function freshPicks() {
  return { own: { selected: [], places: [] }, other: { selected: [], places: [] } };
}

function render() {
  view.render(model, ui);
}

/** Ask the server something for the page's own view: the answer's text stays out of the log. */
function ask(line, answer) {
  if (link.send(line)) quiet.push({ name: answer, until: Date.now() + QUIET_MS });
}

function heldText(chunk) {
  releaseText(null);
  held = chunk;
  holdTimer = window.setTimeout(() => releaseText(null), HOLD_MS);
}

/** The held text goes to the log, unless ``name`` is the package of a quiet request. */
function releaseText(name) {
  if (holdTimer !== null) window.clearTimeout(holdTimer);
  holdTimer = null;
  const now = Date.now();
  while (quiet.length && quiet[0].until < now) quiet.shift();
  const asked = name === null ? -1 : quiet.findIndex((entry) => entry.name === name);
  if (asked >= 0) quiet.splice(asked, 1);
  else if (held !== null) view.text(held);
  held = null;
}

function received(name, fields) {
  const before = { nick: model.nick, atTable: model.atTable };
  model.apply(name, fields);
  if (name === "Tichu.Nick") view.resumable = null;
  if (name === "Tichu.Nick" && before.nick === null) {
    // pushed legal moves, and the lobby's first look
    ask("/legal push on", "Tichu.LegalPush");
    askLobby();
  }
  if (before.atTable && !model.atTable) askLobby();
  if (name === "Tichu.ResumeToken") {
    resume = { nick: fields.nick, token: fields.token };
  }
  if (name === "Tichu.Registered" || name === "Tichu.Password") resume = null;
  if (name === "Tichu.PasswordWanted") byId("command-line").focus();
  if (name === "Tichu.SpectatorJoined" && fields.nick === model.nick) ask("/table", "Tichu.Table"); // so far
  if (name === "Tichu.Legal") movePending = false;
  if (name === "Tichu.Phase" && fields.phase === "play" && model.variant !== "nanjing") {
    ask("/table", "Tichu.Table"); // a variant's hand sizes, and the dummy's hand now open to all
  }
  if (name === "Tichu.Error" && movePending) {
    // the move was refused (the game moved on meanwhile): nothing changed, so ask again
    movePending = false;
    ask("/legal", "Tichu.Legal");
  }
  if (fillWith !== null && name === "Tichu.Option" && fields.name === "variant") askLobby();
  askAround(name, fields);
  if (fillWith !== null && name === "Tichu.Tables") fillSeats();
  if (name === "Tichu.Table" || name === "Tichu.Hand") ui = freshPicks();
  keepPicks();
  render();
}

/** What the page asks the server as the game goes: the table's form (LAYOUT) when it starts, a
 * round's seating comes or we come back; suggestions when a hand of ours is asked to play, and
 * when another seat is (a bomb of ours may come then); a selection's check again when the
 * table changed under it. */
function askAround(name, fields) {
  const mine = fields.nick === model.nick;
  if (name === "Tichu.Started" || name === "Tichu.Seating" || ((name === "Tichu.Returned"
    || name === "Tichu.SpectatorJoined") && mine) || (name === "Tichu.Table" && model.layout === null)) {
    ask("/layout", "Tichu.Layout");
  }
  const g = model.game;
  if (name === "Tichu.Legal" && fields.commands && fields.commands.some((line) => /^\/((second|dummy)\s+)?play\b/i.test(line))) {
    ask(fields.seat === model.seat ? "/suggest" : `/${COMMANDS.second_hand[0]} suggest`, "Tichu.Suggest");
  } else if (name === "Tichu.Turn" && g.phase === "play" && model.seat !== null && g.hand.length >= 4
    && !model.plays.includes(fields.seat) && fields.seat !== model.seat) {
    ask("/suggest", "Tichu.Suggest"); // its bombs, while another seat is asked
  }
  if (name === "Tichu.Turn" || name === "Tichu.Played" || name === "Tichu.TrickTaken") {
    for (const which of ["own", "other"]) if (ui[which].selected.length) checkSelection(which);
  }
}

/** The picks still in their hands; the exchange's places as many as it has, while it is open. */
function keepPicks() {
  const g = model.game;
  for (const [which, cards, legal, from] of [["own", g.hand, g.legal, model.seat],
    ["other", model.otherCards || [], g.otherLegal, model.dummySeat]]) {
    const picks = ui[which];
    picks.selected = picks.selected.filter((code) => cards.includes(code));
    const count = legal && legal.exchange && from !== null ? model.exchangeTargets(from).length : 0;
    picks.places = [...Array(count).keys()].map((at) => (cards.includes(picks.places[at]) ? picks.places[at] : null));
  }
}

/** The new table's free seats, once /tables has named them: a bot of the chosen level in each. */
function fillSeats() {
  const mine = model.tables.find((view) => view.table === model.tableNumber);
  if (!mine) return;
  const level = fillWith;
  fillWith = null;
  for (const name of mine.seats) if (name === null) send(`/bot ${level}`, true);
}

function connected(state, detail) {
  releaseText(null);
  if (state === "open") {
    view.connection("Connected.", true);
    return;
  }
  view.connection(detail ? `Disconnected: ${detail}` : "Disconnected.", false);
  model = new Model();
  ui = freshPicks();
  view.resumable = resume === null ? null : resume.nick;
  render();
}

function askLobby() {
  ask("/tables", "Tichu.Tables");
  ask("/who", "Tichu.Who");
}

window.setInterval(() => {
  const used = Date.now() - lastUse < LOBBY_IDLE_MS;
  if (used && model.nick !== null && !model.atTable && document.visibilityState === "visible") askLobby();
}, LOBBY_EVERY_MS);

/** Send a line the person typed or clicked; ``echo`` shows it in the log (secrets masked). */
function send(line, echo) {
  lastUse = Date.now();
  if (!link.send(line)) {
    view.logLine("(not connected: nothing was sent)", "note");
    return;
  }
  if (echo) view.logLine(`> ${masked(line)}`, "echo");
  if (model.error !== null) {
    model.error = null;
    render();
  }
}

function masked(line) {
  const match = SECRET.exec(line);
  if (!match) return line;
  const words = line.trim().split(/\s+/);
  const kept = /^\/(nick|name)$/i.test(words[0]) ? 2 : 1;
  return [...words.slice(0, kept), ...words.slice(kept).map(() => "********")].join(" ");
}

/** A game move (a legal-move button, the selected cards, the exchange). */
function move(line) {
  movePending = true;
  send(line, true);
}

/** A card clicked in a hand: picked or put back; in the exchange, onto the first free place. */
function pick(which, code) {
  const picks = ui[which];
  if (picks.places.length) {
    const at = picks.places.indexOf(code);
    const free = picks.places.indexOf(null);
    if (at >= 0) picks.places[at] = null;
    else if (free >= 0) picks.places[free] = code;
  } else {
    const at = picks.selected.indexOf(code);
    if (at >= 0) picks.selected.splice(at, 1);
    else picks.selected.push(code);
    checkSelection(which);
  }
  render();
}

/** A place of the exchange clicked: its card goes back to the hand. */
function place(which, at) {
  ui[which].places[at] = null;
  render();
}

/** A suggestion's cards become the selection. */
function selectCards(which, codes) {
  ui[which].selected = codes.map((code) => (code.toUpperCase().startsWith("PH") ? "PH" : code))
    .filter((code) => (which === "own" ? model.game.hand : model.otherCards || []).includes(code));
  checkSelection(which);
  render();
  byId(which === "own" ? "play-selected" : "second-play").focus();
}

/** Ask the server what the selection would play (``/check``), where it answers that. */
function checkSelection(which) {
  const picks = ui[which].selected;
  if (!picks.length) {
    model.check = null;
    return;
  }
  const words = which === "own" ? "" : `${COMMANDS.second_hand[0]} `;
  model.check = { seat: which === "own" ? model.seat : model.dummySeat, cards: [...picks], fields: null };
  ask(`/${words}check ${picks.join(" ")}`, "Tichu.Check");
}

/** The Play button of a hand: the command its selection plays. */
function playSelected(which) {
  const line = byId(which === "own" ? "play-selected" : "second-play").dataset.line;
  if (!line) return;
  move(line);
  ui[which].selected = [];
  model.check = null;
  render();
}

/** The exchange of a hand, its places' cards in order (``/second schupf`` as its LEGAL spells it). */
function exchange(which) {
  const places = ui[which].places;
  if (!places.length || places.includes(null)) return;
  if (which === "own") move(`/schupf ${places.join(" ")}`);
  else {
    const other = model.game.otherLegal;
    const spelled = other && other.commands.map((line) => SECOND_SCHUPF.exec(line)).find(Boolean);
    move(`/${spelled ? spelled[1] : COMMANDS.second_hand[0]} schupf ${places.join(" ")}`);
  }
  ui[which].places = places.map(() => null);
  render();
}

// -- the controls --------------------------------------------------------------------

function on(id, event, handler) {
  byId(id).addEventListener(event, handler);
}

on("login-form", "submit", (event) => {
  event.preventDefault();
  const name = byId("login-name").value.trim();
  const password = byId("login-password").value;
  byId("login-password").value = "";
  if (!name) return;
  send(password ? `/nick ${name} ${password}` : `/nick ${name}`, true);
});

on("command-form", "submit", (event) => {
  event.preventDefault();
  const input = byId("command-line");
  if (model.passwordWanted) {
    // the answer to PASSWORD_WANTED: sent as typed (an empty line gives up), never shown or kept
    model.passwordWanted = false;
    lastUse = Date.now();
    link.send(input.value);
    view.logLine("> ********", "echo");
    input.value = "";
    render();
    return;
  }
  const line = input.value.trim();
  if (!line) return;
  send(line, true);
  if (!SECRET.test(line) && history[history.length - 1] !== line) history.push(line);
  if (history.length > HISTORY) history.shift();
  historyAt = history.length;
  input.value = "";
});

on("command-line", "keydown", (event) => {
  if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
  if (!history.length) return;
  event.preventDefault();
  historyAt = Math.max(0, Math.min(history.length, historyAt + (event.key === "ArrowUp" ? -1 : 1)));
  event.target.value = history[historyAt] || "";
});

on("chat-form", "submit", (event) => {
  event.preventDefault();
  const input = byId("chat-input");
  const text = input.value.trim();
  if (!text) return;
  send(text.startsWith("/") ? `/${text}` : text, false); // "//text" says "/text"
  input.value = "";
});

on("new-table-form", "submit", (event) => {
  event.preventDefault();
  const variant = byId("new-variant").value;
  const rounds = byId("new-rounds").value.trim();
  send("/join", true);
  if (variant !== "nanjing") send(`/variant ${variant}`, true);
  if (rounds) send(`/round ${rounds}`, true);
  if (byId("new-bots").value === "fill") {
    fillWith = byId("new-bot-level").value;
    if (variant === "nanjing") askLobby(); // the seats are known at once; else after the variant
  }
});
on("quick", "click", () => send("/quick", true));
on("refresh-lobby", "click", () => {
  send("/tables", true);
  send("/who", true);
});
on("review-form", "submit", (event) => {
  event.preventDefault();
  const number = byId("review-number").value.trim();
  if (number) send(`/review ${number}`, true);
});
on("add-bot", "click", () => send(`/bot ${byId("bot-level").value}`, true));
/** The rounds field applies as it is changed, and at the start if it was not yet (bug 1). */
function applyRounds() {
  const wanted = byId("rounds").value.trim();
  const now = model.options && model.options.round ? String(model.options.round) : "";
  if (wanted === now || wanted === roundsAsked) return; // set, or asked for and not yet answered
  roundsAsked = wanted;
  send(`/round ${wanted || "off"}`, true);
}
on("rounds", "change", applyRounds);
on("start", "click", () => {
  applyRounds();
  send("/start", true);
});
on("leave", "click", () => send("/leave", true));
on("review-game", "click", () => {
  if (model.game.over && model.game.over.log) send(`/review ${model.game.over.log}`, true);
});
on("review-prev", "click", () => send("/review prev", true));
on("review-next", "click", () => send("/review next", true));
on("review-end", "click", () => send("/review end", true));
on("play-selected", "click", () => playSelected("own"));
on("second-play", "click", () => playSelected("other"));
on("bomb", "click", () => {
  const line = byId("bomb").dataset.line;
  if (!line) return;
  move(line);
  ui.own.selected = [];
  model.check = null;
  render();
});
on("clear-selection", "click", () => {
  ui.own.selected = [];
  model.check = null;
  render();
});
on("send-exchange", "click", () => exchange("own"));
on("send-second-exchange", "click", () => exchange("other"));
on("resume", "click", () => {
  if (resume !== null) send(`/resume ${resume.token}`, true);
});
on("reconnect", "click", () => {
  view.connection("Connecting…", true);
  link.open();
});

// the turn clock counts down on the page between the server's messages
window.setInterval(() => {
  if (model.atTable && model.game.clock !== null) view.clock(model);
}, 1000);

render();
link.open();
