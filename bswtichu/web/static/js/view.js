// Drawing the model: the lobby, the table, the hand and what may be played. Every list is
// built with createElement and textContent (never HTML from the server). A part is drawn
// again only when what it shows changed, and a control that had the focus gets it back
// (by its data-key), so keyboard users keep their place while the game goes on.

import { ansiFragment } from "./ansi.js";
import { card, cardElement, cardWords, commandCards, rankLabel } from "./cards.js";

const NEED_WORDS = { lead: "to lead", follow: "to play", wish: "to make the wish", give: "to give the Dragon trick away" };
const PLACE_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth"];
/** Where each seat sits as seen from ours, by the number of seats (turn order goes to the right). */
const WHERE_WORDS = {
  4: ["you", "right opponent", "partner", "left opponent"],
  6: ["you", "right opponent", "partner", "opponent opposite", "partner", "left opponent"],
};
/** Duo: the partner's seat is our own second hand. */
const DUO_WHERE_WORDS = ["you", "right opponent", "your second hand", "left opponent"];
const COUNT_WORDS = { 2: "two", 3: "three" };
const GROUP_NAMES = ["", "Single cards", "Two cards", "Three cards", "Four cards"];
const LOG_LINES = 2000;
const PROMPT = /^(lead|follow|wish|give|grand|schupf)> /;
const CHAT_LINES = 200;

export function byId(id) {
  return document.getElementById(id);
}

function element(tag, text, ...classes) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  if (classes.length) made.classList.add(...classes);
  return made;
}

function button(label, key, onClick) {
  const made = element("button", label);
  made.type = "button";
  made.dataset.key = key;
  made.addEventListener("click", onClick);
  return made;
}

function show(id, shown) {
  byId(id).classList.toggle("hidden", !shown);
}

/** Replace ``parent``'s children by ``children`` unless ``key`` says nothing changed; the focused
 * control (found again by its data-key) keeps the focus. */
function redraw(parent, key, children) {
  if (parent.dataset.drawn === key) return;
  parent.dataset.drawn = key;
  const focused = parent.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  parent.replaceChildren(...children);
  if (focused !== undefined) {
    const again = [...parent.querySelectorAll("[data-key]")].find((node) => node.dataset.key === focused);
    if (again) again.focus();
    else byId(parent.getAttribute("aria-labelledby"))?.focus(); // its heading (tabindex -1)
  }
}

/** A label for one legal command line, for the button that sends it. */
export function commandLabel(line, model) {
  const second = /^\/(dummy|second)\s+\/?/i.exec(line.trim());
  if (second) { // the second hand's move, which we make (Trichu's dealer: the dummy's; Duo)
    const [label, cards, rest] = commandLabel(`/${line.trim().slice(second[0].length)}`, model);
    return [`${second[1].toLowerCase() === "dummy" ? "Dummy" : "Second hand"}: ${label}`, cards, rest];
  }
  const [verb, ...args] = line.trim().split(/\s+/);
  switch (verb.toLowerCase()) {
    case "/play": {
      const { cards, rest } = commandCards(line);
      return ["Play", cards, rest.join(" ")];
    }
    case "/pass":
      return ["Pass", [], ""];
    case "/tichu":
      return ["Call Tichu", [], ""];
    case "/grand":
      return ["Call Grand Tichu", [], ""];
    case "/nogrand":
      return ["No Grand Tichu", [], ""];
    case "/wish":
      return [args[0] === "none" ? "No wish" : `Wish for ${rankLabel(args[0])}`, [], ""];
    case "/give": {
      const seat = Number(args[0]);
      const to = !seat ? args[0] : model.seats[seat - 1] ? `${model.seats[seat - 1]} (seat ${seat})` : `seat ${seat}`;
      return [`Give the trick to ${to}`, [], ""];
    }
    default:
      return [line, [], ""];
  }
}

export class View {
  /** ``actions``: send(line, echo), move(line), select(code), selectOther(code), exchange(),
   * exchangeOther(), playSelected(). */
  constructor(actions) {
    this.actions = actions;
    this.log = byId("log");
    this.partial = "";
    this.resumable = null; // the guest name a resume token is known for (in memory only)
  }

  // -- the server's text --------------------------------------------------------

  /** Text from the server. A frame may end in the middle of a line; a MUD prompt ("follow> ",
   * "schupf> ") ends a frame without a line end: the page shows the turn itself, so it is dropped. */
  text(chunk) {
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = lines.pop();
    for (const line of lines) this.logLine(line.replace(PROMPT, ""), "server");
    if (PROMPT.test(this.partial) && this.partial.replace(PROMPT, "") === "") this.partial = "";
  }

  /** One line in the log, ANSI colours as spans; the oldest go past LOG_LINES. */
  logLine(line, kind) {
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 4;
    const row = element("div", null, "line", kind);
    row.append(ansiFragment(line.replace(/\r/g, "")));
    this.log.append(row);
    while (this.log.childElementCount > LOG_LINES) this.log.firstElementChild.remove();
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }

  /** The server's word that a password went unencrypted, with the page's address over TLS. */
  unencrypted(warning) {
    const box = byId("unencrypted");
    show("unencrypted", warning !== null);
    if (warning === null) box.replaceChildren();
    if (warning === null || box.hasChildNodes()) return;
    box.append("Your password went over an unencrypted connection. ");
    if (warning.tlsPort) {
      const secure = `https://${window.location.hostname}:${warning.tlsPort}/`;
      const link = element("a", secure);
      link.href = secure;
      box.append("Next time use ", link, ".");
    }
  }

  connection(text, open) {
    byId("connection").textContent = text;
    byId("connection").classList.toggle("down", !open);
    show("reconnect", !open);
  }

  // -- everything drawn from the model ------------------------------------------------

  render(model, selected, otherSelected = []) {
    const named = model.nick !== null;
    show("error", model.error !== null);
    byId("error").textContent = model.error === null ? "" : `Refused: ${model.error}`;
    this.unencrypted(model.unencrypted);
    const line = byId("command-line");
    const secret = model.passwordWanted ? "password" : "text";
    if (line.type !== secret) {
      line.type = secret;
      line.placeholder = model.passwordWanted ? "the password (not shown, not kept)" : "/help";
    }
    show("login", !named);
    show("resume", !named && this.resumable !== null);
    byId("resume").textContent = this.resumable === null ? "" : `Come back as ${this.resumable}`;
    byId("whoami").textContent = named ? `You are ${model.nick}.` : "";
    show("lobby", named && !model.atTable);
    show("table", model.atTable);
    show("play", model.atTable && model.seat !== null);
    if (named && !model.atTable) this.lobby(model);
    if (model.atTable) this.table(model);
    if (model.atTable && model.seat !== null) this.play(model, selected, otherSelected);
    this.chat(model);
  }

  lobby(model) {
    redraw(byId("tables"), JSON.stringify(model.tables), model.tables.length
      ? model.tables.map((view) => this.tableRow(view))
      : [element("li", "No tables yet: “New table” opens one.")]);
    redraw(byId("who"), JSON.stringify(model.who), model.who.map((user) => {
      const where = user.table === null ? "in the lobby"
        : user.watching ? `watching table ${user.table}` : `at table ${user.table}, seat ${user.seat}`;
      return element("li", `${user.nick} (${where})`);
    }));
  }

  tableRow(view) {
    const row = element("li", null, "table-row");
    const away = view.away || [];
    const seats = view.seats.map((name, at) => `${at + 1} ${name || "(free)"}${away.includes(at + 1) ? " (away)" : ""}`)
      .join(", ");
    const rounds = view.options && view.options.round ? `round ${view.options.round}` : "to 1000";
    row.append(element("span", `Table ${view.table} [${view.state}]: ${seats}; ${rounds}`));
    if (view.state === "open") {
      const sit = button(`Sit down at table ${view.table}`, `sit-${view.table}`,
        () => this.actions.send(`/join ${view.table}`, true));
      row.append(sit);
    }
    row.append(button(`Watch table ${view.table}`, `watch-${view.table}`,
      () => this.actions.send(`/watch ${view.table}`, true)));
    return row;
  }

  table(model) {
    const g = model.game;
    byId("table-title").textContent = model.seat === null
      ? `Table ${model.tableNumber} (watching)` : `Table ${model.tableNumber}, seat ${model.seat}`;
    byId("announce").textContent = this.announcement(model);
    const over = g.over;
    show("game-over", over !== null);
    byId("game-over").textContent = over === null ? "" : (over.winners.length
      ? `Game over. Winners: ${over.winners.join(", ")}.` : "Game over: a draw.");
    this.seats(model);
    this.trick(model);
    byId("score").textContent = this.scoreText(model);
    const seated = model.seat !== null;
    const running = model.tableState === "started" && over === null;
    show("table-controls", seated && !running);
  }

  announcement(model) {
    const g = model.game;
    if (g.over) return "Game over.";
    if (g.legal && g.legal.exchange) return "Exchange: pick three cards, then pass them.";
    if (g.otherLegal && g.otherLegal.exchange) {
      return `Exchange: pick the ${this.secondWords(model)}'s cards, then pass them.`;
    }
    if (g.phase === "grand" && g.legal) return "Grand Tichu? Decide before your last 6 cards.";
    if (!g.turn) return g.phase ? `Phase: ${g.phase}.` : "Waiting for the game to start.";
    const need = NEED_WORDS[g.turn.need] || g.turn.need;
    if (g.turn.seat === model.seat) return `Your turn: ${need.replace(/^to /, "")}.`;
    if (g.turn.seat === model.dummySeat) {
      return model.variant === "duo" ? `Your second hand's turn (seat ${g.turn.seat}): ${need.replace(/^to /, "")}.`
        : `The dummy's turn, yours to play: ${need.replace(/^to /, "")}.`;
    }
    return `${model.name(g.turn.seat)} (seat ${g.turn.seat}) ${need}.`;
  }

  seats(model) {
    const g = model.game;
    const where = model.variant === "duo" ? DUO_WHERE_WORDS : WHERE_WORDS[model.seats.length] || [];
    byId("seats").className = model.seats.length === 4 ? "seats" : `seats count-${model.seats.length}`;
    const items = model.seatOrder().map((seat, at) => {
      const item = element("li", null, "seat", `pos-${at}`);
      const name = model.seats[seat - 1];
      const mine = seat === model.seat ? " (you)" : seat !== model.dummySeat ? ""
        : model.variant === "duo" ? " (your second hand)" : " (yours to play)";
      item.classList.toggle("turn", g.turn !== null && g.turn.seat === seat);
      item.append(element("strong", `Seat ${seat}: ${name || "(free)"}${mine}`));
      const facts = [];
      if (model.seat !== null && where[at]) facts.push(where[at]);
      if (model.bots[String(seat)]) facts.push(`${model.bots[String(seat)]} bot`);
      if (model.away.includes(seat)) facts.push("away");
      if (name && model.standIns[name]) facts.push(`a ${model.standIns[name]} bot plays for them`);
      if (g.counts[seat - 1] !== null) facts.push(`${g.counts[seat - 1]} cards`);
      if (g.calls[seat - 1]) facts.push(g.calls[seat - 1] === "grand" ? "Grand Tichu!" : "Tichu!");
      const place = g.finish.indexOf(seat);
      if (place >= 0) facts.push(`out ${PLACE_WORDS[place]}`);
      if (g.passed[seat - 1]) facts.push("passed");
      if (g.turn !== null && g.turn.seat === seat) facts.push(NEED_WORDS[g.turn.need] || g.turn.need);
      item.append(element("span", facts.join(" · "), "facts"));
      return item;
    });
    redraw(byId("seats"), JSON.stringify([model.seats, model.seat, model.bots, model.away, model.standIns,
      g.counts, g.calls, g.finish, g.passed, g.turn, model.plays]), items);
    this.openHand(model);
  }

  /** The dummy's open hand (Trichu), for everyone who may see it. */
  openHand(model) {
    const open = model.game.openHand;
    show("open-hand-box", open !== null);
    const cards = (open || []).map((code) => {
      const item = element("li");
      const shown = cardElement(code);
      shown.dataset.code = code; // for the /dummy schupf typed by hand, and for tests
      item.append(shown);
      return item;
    });
    if (open !== null && !cards.length) cards.push(element("li", "No cards.", "empty"));
    redraw(byId("open-hand"), JSON.stringify(open), cards);
  }

  trick(model) {
    const g = model.game;
    show("wish", Boolean(g.wish));
    byId("wish").textContent = g.wish ? `Wish: ${rankLabel(g.wish)}` : "";
    const items = g.trick.map((entry) => {
      const item = element("li", null, "play");
      item.append(element("span", `${model.handName(entry.seat)}: ${entry.combo.type}`, "who"));
      for (const code of entry.combo.cards) item.append(cardElement(code));
      item.setAttribute("aria-label", `${model.handName(entry.seat)} played ${entry.combo.text}: ${cardWords(entry.combo.cards)}`);
      return item;
    });
    if (g.trickWon) {
      const points = g.trickWon.points === null ? "" : `: ${g.trickWon.points} points`;
      items.push(element("li", `${model.handName(g.trickWon.seat)} wins the trick${points}.`, "won"));
    }
    if (!items.length) items.push(element("li", "Nothing yet.", "empty"));
    redraw(byId("trick"), JSON.stringify([g.trick, g.trickWon, model.seats]), items);
  }

  scoreText(model) {
    if (!model.totals) return "";
    const rounds = model.options && model.options.round ? ` of ${model.options.round}` : "";
    const after = model.rounds ? ` after round ${model.rounds}${rounds}` : "";
    if (model.standings) { // each person his own total (Trichu)
      const people = model.standings.people.map((s) => `${s.player} ${s.points}`).join(", ");
      return `Score${after}: ${people}; the dummy ${model.standings.dummy}.`;
    }
    // the teams sit alternately: seats 1, 3, ... against seats 2, 4, ...; each person named once
    // (in Duo one person plays a team's two hands: its score is his)
    const team = (first) => [...new Set(model.seatOrder().filter((seat) => seat % 2 === first % 2)
      .sort((a, b) => a - b).map((seat) => model.name(seat)))].join(" + ");
    return `Score${after}: ${team(1)} ${model.totals[0]}, ${team(2)} ${model.totals[1]}.`;
  }

  // -- the hand and the moves --------------------------------------------------------

  play(model, selected, otherSelected) {
    const g = model.game;
    const hand = g.hand.map((code) => {
      const item = element("li");
      const pick = cardElement(code, "button");
      pick.type = "button";
      pick.dataset.key = `card-${code}`;
      pick.setAttribute("aria-pressed", String(selected.includes(code)));
      pick.setAttribute("aria-label", card(code).words);
      pick.addEventListener("click", () => this.actions.select(code));
      item.append(pick);
      return item;
    });
    if (!hand.length) hand.push(element("li", "No cards.", "empty"));
    redraw(byId("hand"), JSON.stringify([g.hand, selected]), hand);
    const exchanging = Boolean(g.legal && g.legal.exchange);
    byId("play-selected").disabled = exchanging || selected.length === 0;
    byId("clear-selection").disabled = selected.length === 0;
    show("exchange", exchanging);
    if (exchanging) this.exchange(model, selected);
    this.legal(model);
    this.secondHand(model, otherSelected);
    this.dummyLegal(model);
  }

  /** What the second hand we play is called: Duo's "second hand", Trichu's "dummy". */
  secondWords(model) {
    return model.variant === "duo" ? "second hand" : "dummy";
  }

  /** The second hand's cards as buttons to pick (Duo's private hand, always; the dummy's open
   * hand while we pick its exchange), with its exchange's slots. */
  secondHand(model, selected) {
    const other = model.game.otherLegal;
    const exchanging = Boolean(other && other.exchange);
    const cards = model.otherCards;
    const shown = model.dummySeat !== null && cards !== null && (model.variant === "duo" || exchanging);
    show("second-box", shown);
    if (!shown) return;
    const words = this.secondWords(model);
    byId("second-title").textContent = model.variant === "duo"
      ? `Your second hand (seat ${model.dummySeat})` : `The dummy's hand (seat ${model.dummySeat})`;
    const hand = cards.map((code) => { // buttons while its exchange is picked; its plays are the buttons below
      const item = element("li");
      const shown = cardElement(code, exchanging ? "button" : "span");
      shown.dataset.code = code;
      if (exchanging) {
        shown.type = "button";
        shown.dataset.key = `second-card-${code}`;
        shown.setAttribute("aria-pressed", String(selected.includes(code)));
        shown.setAttribute("aria-label", card(code).words);
        shown.addEventListener("click", () => this.actions.selectOther(code));
      }
      item.append(shown);
      return item;
    });
    if (!hand.length) hand.push(element("li", "No cards.", "empty"));
    redraw(byId("second-hand"), JSON.stringify([cards, selected, exchanging]), hand);
    show("second-exchange", exchanging);
    if (!exchanging) return;
    const targets = model.exchangeTargets(model.dummySeat);
    const slots = targets.map((seat, at) => {
      const to = seat === model.seat ? `your own hand (seat ${seat})` : `seat ${seat}, ${model.name(seat)}`;
      const item = element("li", `To ${to}: `);
      if (selected[at]) item.append(cardElement(selected[at]));
      else item.append(element("span", "pick a card", "empty"));
      return item;
    });
    const count = COUNT_WORDS[targets.length] || targets.length;
    byId("second-exchange-title").textContent = `The ${words}'s exchange: pick ${count} of its cards`;
    byId("send-second-exchange").textContent = `Pass these ${count} cards of the ${words}`;
    redraw(byId("second-exchange-slots"), JSON.stringify([selected, model.seats, model.dummySeat]), slots);
    byId("send-second-exchange").disabled = selected.length !== targets.length;
  }

  exchange(model, selected) {
    const targets = model.exchangeTargets();
    const roles = ["the right opponent", "your partner", "the left opponent"];
    const slots = targets.map((seat, at) => {
      const to = seat === model.dummySeat ? `your second hand (seat ${seat})` // Duo
        : `${model.seats.length === 4 && model.variant === "nanjing" ? roles[at] : `seat ${seat}`}, ${model.name(seat)}`;
      const item = element("li", `To ${to}: `);
      if (selected[at]) item.append(cardElement(selected[at]));
      else item.append(element("span", "pick a card", "empty"));
      return item;
    });
    const count = targets.length;
    byId("exchange-title").textContent = `Exchange: pick ${COUNT_WORDS[count] || count} cards from your hand`;
    byId("send-exchange").textContent = `Pass these ${COUNT_WORDS[count] || count} cards`;
    redraw(byId("exchange-slots"), JSON.stringify([selected, model.seats]), slots);
    byId("send-exchange").disabled = selected.length !== count;
  }

  /** The second hand's legal moves, as buttons that send its commands (``/dummy ...`` for
   * Trichu's dealer, ``/second ...`` in Duo, as its LEGAL spells them). */
  dummyLegal(model) {
    const other = model.game.otherLegal;
    const words = this.secondWords(model);
    show("dummy-moves", other !== null || model.dummySeat !== null);
    byId("dummy-legal-title").textContent = model.variant === "duo"
      ? "What your second hand may do" : "What the dummy may do (you play its hand)";
    const commands = other ? other.commands.filter((line) => !/^\/(dummy|second)\s+\/?schupf/i.test(line)) : [];
    const parts = this.moveGroups(commands, model, "dummy-");
    if (other && other.exchange) {
      parts.push(element("p", `Pick the ${words}'s exchange from its hand above.`, "empty"));
    } else if (!parts.length) parts.push(element("p", `Nothing for the ${words} right now.`, "empty"));
    redraw(byId("dummy-legal"), JSON.stringify([commands, other && other.exchange, model.seats, words]), parts);
  }

  legal(model) {
    const legal = model.game.legal;
    const commands = legal ? legal.commands.filter((line) => !line.startsWith("/schupf")) : [];
    const parts = this.moveGroups(commands, model);
    if (!parts.length) {
      const count = COUNT_WORDS[model.exchangeTargets().length];
      parts.push(element("p", legal && legal.exchange ? `Pick ${count} cards above.` : "Nothing to do right now.", "empty"));
    }
    redraw(byId("legal"), JSON.stringify([commands, legal && legal.exchange, model.seats]), parts);
    byId("legal").dataset.version = String(model.legalVersion);
  }

  /** Buttons for legal command lines, grouped: other moves first, then plays by their number of cards. */
  moveGroups(commands, model, prefix = "") {
    const groups = new Map();
    const others = [];
    for (const line of commands) {
      const [label, cards, rest] = commandLabel(line, model);
      const made = button("", `legal-${line}`, () => this.actions.move(line));
      made.classList.add("move");
      made.append(element("span", label, "verb"));
      for (const code of cards) made.append(cardElement(code));
      if (rest) made.append(element("span", rest, "rest"));
      made.setAttribute("aria-label", cards.length ? `${label} ${cardWords(cards)}${rest ? ` ${rest}` : ""}` : label);
      made.title = line;
      if (cards.length) {
        const size = Math.min(cards.length, 5);
        if (!groups.has(size)) groups.set(size, []);
        groups.get(size).push(made);
      } else others.push(made);
    }
    const parts = [];
    if (others.length) parts.push(this.group("Moves", others, prefix));
    for (const size of [...groups.keys()].sort((a, b) => a - b)) {
      parts.push(this.group(GROUP_NAMES[size] || "Five cards or more", groups.get(size), prefix));
    }
    return parts;
  }

  group(title, buttons, prefix = "") {
    const box = element("div", null, "move-group");
    const heading = element("h4", title);
    heading.id = `${prefix}moves-${title.replace(/\W+/g, "-").toLowerCase()}`;
    const list = element("div", null, "moves");
    list.setAttribute("role", "group");
    list.setAttribute("aria-labelledby", heading.id);
    list.append(...buttons);
    box.append(heading, list);
    return box;
  }

  /** New chat lines only are added (the list is a live region: a screen reader reads what is new). */
  chat(model) {
    const parent = byId("chat");
    const drawn = Number(parent.dataset.drawn || 0);
    for (const line of model.chat.slice(drawn)) {
      const item = element("li");
      item.append(element("span", `[${line.where}] `, "where"), element("strong", `${line.from}: `));
      item.append(document.createTextNode(line.text));
      parent.append(item);
    }
    parent.dataset.drawn = String(model.chat.length);
    while (parent.childElementCount > CHAT_LINES) parent.firstElementChild.remove();
    if (model.chat.length > drawn) parent.scrollTop = parent.scrollHeight;
  }
}
