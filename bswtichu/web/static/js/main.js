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
let selected = []; // card codes picked in the hand, in the order picked
let otherSelected = []; // the same in the second hand we play (its exchange)
let movePending = false; // a move was sent and no legal list has come since
// A guest's resume token, kept in this page's memory only (never in the address or storage):
// after a dropped connection "Come back as NAME" sends /resume with it.
let resume = null;
const history = [];
let historyAt = 0;
const quiet = []; // {name, until}: packages the page asked for itself
let held = null; // the last text frame, until its package shows whether to log it
let holdTimer = null;
let lastUse = Date.now();

const view = new View({ send, move, select, selectOther, playSelected, exchange, exchangeOther });
const link = new Link({
  text: heldText,
  gmcp: (name, fields) => {
    releaseText(name);
    received(name, fields);
  },
  state: connected,
});

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
  if (name === "Tichu.Table" || name === "Tichu.Hand") {
    selected = [];
    otherSelected = [];
  }
  selected = selected.filter((code) => model.game.hand.includes(code));
  otherSelected = otherSelected.filter((code) => (model.otherCards || []).includes(code));
  view.render(model, selected, otherSelected);
}

function connected(state, detail) {
  releaseText(null);
  if (state === "open") {
    view.connection("Connected.", true);
    return;
  }
  view.connection(detail ? `Disconnected: ${detail}` : "Disconnected.", false);
  model = new Model();
  selected = [];
  otherSelected = [];
  view.resumable = resume === null ? null : resume.nick;
  view.render(model, selected, otherSelected);
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
    view.render(model, selected, otherSelected);
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

function select(code) {
  const at = selected.indexOf(code);
  if (at >= 0) selected.splice(at, 1);
  else if (!(model.game.legal && model.game.legal.exchange && selected.length >= model.exchangeTargets().length)) {
    selected.push(code);
  }
  view.render(model, selected, otherSelected);
}

/** A card of the second hand picked for its exchange (or put back). */
function selectOther(code) {
  const at = otherSelected.indexOf(code);
  const other = model.game.otherLegal;
  if (at >= 0) otherSelected.splice(at, 1);
  else if (other && other.exchange && otherSelected.length < model.exchangeTargets(model.dummySeat).length) {
    otherSelected.push(code);
  }
  view.render(model, selected, otherSelected);
}

function playSelected() {
  if (!selected.length) return;
  move(`/play ${selected.join(" ")}`);
  selected = [];
  view.render(model, selected, otherSelected);
}

function exchange() {
  if (selected.length !== model.exchangeTargets().length) return;
  move(`/schupf ${selected.join(" ")}`);
  selected = [];
  view.render(model, selected, otherSelected);
}

/** The second hand's exchange, in the command its LEGAL spells (``/second schupf``, ``/dummy schupf``). */
function exchangeOther() {
  const other = model.game.otherLegal;
  if (!other || otherSelected.length !== model.exchangeTargets(model.dummySeat).length) return;
  const spelled = other.commands.map((line) => SECOND_SCHUPF.exec(line)).find(Boolean);
  move(`/${spelled ? spelled[1] : COMMANDS.second_hand[0]} schupf ${otherSelected.join(" ")}`);
  otherSelected = [];
  view.render(model, selected, otherSelected);
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
    view.render(model, selected, otherSelected);
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

on("new-table", "click", () => send("/join", true));
on("refresh-lobby", "click", () => {
  send("/tables", true);
  send("/who", true);
});
on("add-bot", "click", () => send(`/bot ${byId("bot-level").value}`, true));
on("set-rounds", "click", () => send(`/round ${byId("rounds").value.trim() || "off"}`, true));
on("start", "click", () => send("/start", true));
on("leave", "click", () => send("/leave", true));
on("refresh-table", "click", () => send("/table", true));
on("play-selected", "click", playSelected);
on("clear-selection", "click", () => {
  selected = [];
  view.render(model, selected, otherSelected);
});
on("send-exchange", "click", exchange);
on("send-second-exchange", "click", exchangeOther);
on("resume", "click", () => {
  if (resume !== null) send(`/resume ${resume.token}`, true);
});
on("reconnect", "click", () => {
  view.connection("Connecting…", true);
  link.open();
});

view.render(model, selected, otherSelected);
link.open();
