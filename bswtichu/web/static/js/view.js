// Drawing the model: the lobby, the card table, the hand and the moves. Every list is built
// with createElement and textContent (never HTML from the server). A part is drawn again only
// when what it shows changed, and a control that had the focus gets it back (by its data-key),
// so keyboard users keep their place while the game goes on.

import { ansiFragment } from "./ansi.js";
import { card, cardBack, cardElement, commandCards, rankLabel } from "./cards.js";
import { describeEvent, drawChart, plural, reviewHands } from "./parts.js";

const NEED_WORDS = {
  lead: "to lead", follow: "to play", wish: "to make the wish", give: "to give the Dragon trick away",
  dog: "to choose who leads after the Dog",
};
const PLACE_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth"];
/** Where each seat sits as seen from ours, by the number of seats (turn order goes to the right). */
const WHERE_WORDS = {
  4: ["you", "right opponent", "partner", "left opponent"],
  6: ["you", "right opponent", "partner", "opponent opposite", "partner", "left opponent"],
};
/** Duo: the partner's seat is our own second hand. */
const DUO_WHERE_WORDS = ["you", "right opponent", "your second hand", "left opponent"];
const VARIANT_NAMES = { nanjing: "Tichu", tientsin: "Tientsin", trichu: "Trichu", duo: "Duo" };
const STATE_WORDS = { open: "waiting for players", full: "full", started: "playing", finished: "finished" };
const RANKS = "23456789TJQKA";
const LOG_LINES = 2000;
const PROMPT = /^(dummy |second )?(lead|follow|wish|give|grand|schupf|dog)( \d+s)?> /;
const CHAT_LINES = 200;
const TRICK_SHOWN = 4;
const BOT_NAME = /^bot-([a-z]+)-/; // the trick's last plays drawn in the middle (the earlier ones are counted)

export function byId(id) {
  return document.getElementById(id);
}

export function element(tag, text, ...classes) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = text;
  if (classes.length) made.classList.add(...classes);
  return made;
}

function button(label, key, onClick, ...classes) {
  const made = element("button", label, ...classes);
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
    case "/give":
      return [`Give the trick to ${seatWords(model, args[0])}`, [], ""];
    case "/dog":
      return [`${seatWords(model, args[0])} leads`, [], ""];
    default:
      return [line, [], ""];
  }
}

function seatWords(model, word) {
  const seat = Number(word);
  return !seat ? word : model.seats[seat - 1] ? `${model.seats[seat - 1]} (seat ${seat})` : `seat ${seat}`;
}

export class View {
  /** ``actions``: send(line, echo), move(line), pick(hand, code), place(hand, at), exchange(hand),
   * playSelected(hand, line), selectCards(hand, codes), clear(hand). */
  constructor(actions) {
    this.actions = actions;
    this.log = byId("log");
    this.partial = "";
    this.resumable = null; // the guest name a resume token is known for (in memory only)
    this.cursor = { own: 0, other: 0 }; // the hand's option that takes the focus (roving tabindex)
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

  /** ``ui``: what the person picked: {own: {selected, places}, other: {selected, places}}. */
  render(model, ui) {
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
    const reviewing = named && model.review !== null;
    show("review", reviewing);
    show("lobby", named && !model.atTable && !reviewing);
    show("table", model.atTable && !reviewing);
    show("play", model.atTable && model.seat !== null && !reviewing);
    show("score-box", model.atTable && model.totals !== null);
    document.body.classList.toggle("at-table", model.atTable && !reviewing);
    if (named && !model.atTable && !reviewing) this.lobby(model);
    if (model.atTable) this.table(model);
    if (model.atTable && model.seat !== null) this.play(model, ui);
    if (reviewing) this.review(model);
    this.chat(model);
  }

  // -- the lobby ---------------------------------------------------------------------

  lobby(model) {
    redraw(byId("tables"), JSON.stringify([model.tables, model.nick, model.held]), model.tables.length
      ? model.tables.map((view) => this.tableRow(view, model))
      : [element("li", "No tables yet: open one, or “Quick play”.")]);
    redraw(byId("who"), JSON.stringify(model.who), model.who.map((user) => {
      const where = user.table === null ? "in the lobby"
        : user.watching ? `watching table ${user.table}` : `at table ${user.table}, seat ${user.seat}`;
      return element("li", `${user.nick} (${where})`);
    }));
  }

  tableRow(view, model) {
    const row = element("li", null, "table-row");
    const away = view.away || [];
    const options = view.options || {};
    const variant = options.variant || "nanjing";
    const head = element("p", null, "table-name");
    head.append(element("strong", `Table ${view.table}`), ` · ${VARIANT_NAMES[variant] || variant} · `,
      this.optionWords(options), ` · ${STATE_WORDS[view.state] || view.state}`);
    if (view.private) head.append(" · private");
    const seats = element("ol", null, "table-seats");
    seats.setAttribute("aria-label", `Seats of table ${view.table}`);
    view.seats.forEach((name, at) => {
      const bot = view.bots && view.bots[String(at + 1)];
      const words = `${at + 1}: ${name || "free"}${bot ? ` (${bot} bot)` : ""}${away.includes(at + 1) ? " (away)" : ""}`;
      seats.append(element("li", words, name ? "taken" : "free"));
    });
    row.append(head, seats);
    const ours = view.seats.indexOf(model.nick);
    const held = (model.held && model.held.table === view.table) || (ours >= 0 && away.includes(ours + 1));
    const buttons = element("div", null, "row");
    if (held) { // our seat, held while we were away: /join TABLE takes it back
      buttons.append(button(`Back to my seat at table ${view.table}`, `back-${view.table}`,
        () => this.actions.send(`/join ${view.table}`, true), "primary"));
    } else {
      if (view.state === "open") {
        buttons.append(button(`Sit down at table ${view.table}`, `sit-${view.table}`,
          () => this.actions.send(`/join ${view.table}`, true)));
      }
      buttons.append(button(`Watch table ${view.table}`, `watch-${view.table}`,
        () => this.actions.send(`/watch ${view.table}`, true)));
    }
    row.append(buttons);
    return row;
  }

  optionWords(options) {
    const parts = [options.round ? plural(options.round, "round") : "to 1000"];
    if (options.turnier) parts.push("tournament");
    if (options.tichujoin) parts.push("tichujoin");
    if (options.clock) parts.push(`${options.clock} s a move`);
    return parts.join(", ");
  }

  // -- the table ----------------------------------------------------------------------

  table(model) {
    const g = model.game;
    const variant = VARIANT_NAMES[model.variant] || model.variant;
    byId("table-title").textContent = model.seat === null
      ? `Table ${model.tableNumber} · ${variant} (watching)` : `Table ${model.tableNumber} · ${variant}`;
    byId("announce").textContent = this.announcement(model);
    this.clock(model);
    const over = g.over;
    show("game-over-box", over !== null);
    byId("game-over").textContent = over === null ? "" : (over.winners.length
      ? `Game over. Winners: ${over.winners.join(", ")}.` : "Game over: a draw.");
    show("review-game", over !== null && Boolean(over.log));
    this.seats(model);
    this.trick(model);
    this.scoreBox(model);
    const seated = model.seat !== null;
    const running = model.tableState === "started" && over === null;
    show("table-controls", seated && !running);
    const rounds = byId("rounds");
    const round = model.options && model.options.round ? String(model.options.round) : "";
    if (document.activeElement !== rounds && rounds.dataset.shown !== round) {
      rounds.value = round;
      rounds.dataset.shown = round;
    }
  }

  announcement(model) {
    const g = model.game;
    if (g.over) return "Game over.";
    if (g.legal && g.legal.exchange) return "Exchange: put a card on each place, then pass them.";
    if (g.otherLegal && g.otherLegal.exchange) {
      return `Exchange: pick the ${this.secondWords(model)}'s cards, then pass them.`;
    }
    if (g.phase === "grand" && g.legal) return "Grand Tichu? Decide before your last cards.";
    if (!g.turn) return g.phase ? `Phase: ${g.phase}.` : "Waiting for the game to start.";
    const need = NEED_WORDS[g.turn.need] || g.turn.need;
    if (g.turn.seat === model.seat) return `Your turn: ${need.replace(/^to /, "")}.`;
    if (g.turn.seat === model.dummySeat) {
      return model.variant === "duo" ? `Your second hand's turn (seat ${g.turn.seat}): ${need.replace(/^to /, "")}.`
        : `The dummy's turn, yours to play: ${need.replace(/^to /, "")}.`;
    }
    return `${model.name(g.turn.seat)} (seat ${g.turn.seat}) ${need}.`;
  }

  /** The turn clock's seconds left, counted down on the page (main.js draws it each second). */
  clock(model) {
    const clock = model.game.clock;
    const left = clock === null ? null : Math.max(0, Math.ceil(clock.seconds - (Date.now() - clock.since) / 1000));
    show("clock", left !== null);
    byId("clock").textContent = left === null ? "" : `${left} s`;
    byId("clock").classList.toggle("short", left !== null && left <= 10);
  }

  seats(model) {
    const g = model.game;
    const where = model.variant === "duo" ? DUO_WHERE_WORDS : WHERE_WORDS[model.seats.length] || [];
    const board = byId("board");
    board.className = `board count-${model.seats.length}`;
    const items = model.seatOrder().map((seat, at) => this.seat(model, seat, at, where[at]));
    redraw(byId("seats"), JSON.stringify([model.seats, model.seat, model.bots, model.away, model.standIns,
      g.counts, g.calls, g.finish, g.passed, g.turn, model.plays, g.openHand, model.layout]), items);
  }

  seat(model, seat, at, where) {
    const g = model.game;
    const item = element("li", null, "seat", `pos-${at}`);
    const name = model.seats[seat - 1];
    const turn = g.turn !== null && g.turn.seat === seat;
    item.classList.toggle("turn", turn);
    item.classList.toggle("mine", seat === model.seat || seat === model.dummySeat);
    const mine = seat === model.seat ? " (you)" : seat !== model.dummySeat ? ""
      : model.variant === "duo" ? " (your second hand)" : " (yours to play)";
    const title = element("strong", null, "name");
    title.append(element("span", `Seat ${seat}: `, "seat-number"), `${name || "(free)"}${mine}`);
    title.title = `Seat ${seat}: ${name || "(free)"}`;
    item.append(title);
    const facts = [];
    if (model.seat !== null && where) facts.push(where);
    const bot = BOT_NAME.exec(name || ""); // bots are named bot-LEVEL-NAME (a round's seats move in Trichu)
    if (bot) facts.push(`${bot[1]} bot`);
    if (model.away.includes(seat)) facts.push("away");
    if (name && model.standIns[name]) facts.push(`a ${model.standIns[name]} bot plays for them`);
    item.append(element("span", facts.join(" · "), "facts"));
    const badges = element("span", null, "badges");
    const count = g.counts[seat - 1];
    if (count !== null && count !== undefined) {
      const left = element("span", null, "left");
      left.append(cardBack(), element("span", plural(count, "card")));
      badges.append(left);
    }
    if (g.calls[seat - 1]) badges.append(element("span", g.calls[seat - 1] === "grand" ? "Grand Tichu!" : "Tichu!", "call"));
    const place = g.finish.indexOf(seat);
    if (place >= 0) badges.append(element("span", `out ${PLACE_WORDS[place]}`, "out"));
    if (g.passed[seat - 1]) badges.append(element("span", "passed", "passed"));
    if (turn) badges.append(element("span", NEED_WORDS[g.turn.need] || g.turn.need, "need"));
    item.append(badges);
    const open = this.openHand(model, seat);
    if (open !== null) item.append(open);
    return item;
  }

  /** The dummy's open hand (Trichu) at its seat, for everyone who may see it but its player
   * (the dealer plays it from his second hand, under his own). */
  openHand(model, seat) {
    const open = model.game.openHand;
    const dummy = model.layout ? model.layout.dummy : null;
    if (open === null || seat !== dummy || model.plays.includes(seat)) return null;
    const list = element("ul", null, "hand", "small");
    list.setAttribute("aria-label", "The dummy's open hand");
    for (const code of open) {
      const item = element("li");
      item.append(cardElement(code));
      list.append(item);
    }
    return list;
  }

  trick(model) {
    const g = model.game;
    show("wish", Boolean(g.wish));
    byId("wish").textContent = g.wish ? `Wish: ${rankLabel(g.wish)}` : "";
    const moment = this.momentWords(model);
    show("moment", moment !== "");
    byId("moment").textContent = moment;
    const shown = g.trick.slice(-TRICK_SHOWN);
    const items = shown.map((entry, at) => this.playItem(model, entry, at === shown.length - 1));
    if (g.trick.length > shown.length) {
      items.unshift(element("li", `${plural(g.trick.length - shown.length, "earlier play")} under these`, "earlier"));
    }
    if (g.trickWon) {
      const points = g.trickWon.points === null ? "" : `: ${plural(g.trickWon.points, "point")}`;
      items.push(element("li", `${model.handName(g.trickWon.seat)} wins the trick${points}.`, "won"));
    }
    if (!items.length) items.push(element("li", "No cards on the table.", "empty"));
    redraw(byId("trick"), JSON.stringify([g.trick, g.trickWon, model.seats]), items);
  }

  momentWords(model) {
    const moment = model.game.moment;
    if (moment === null) return "";
    if (moment.kind === "dragon") {
      return `The Dragon: ${model.handName(moment.seat)} gives the trick to ${model.handName(moment.to)}.`;
    }
    return moment.to ? `The Dog: ${model.handName(moment.seat)} passes the lead to ${model.handName(moment.to)}.`
      : `The Dog: ${model.handName(moment.seat)} passes the lead to a partner.`;
  }

  /** One play of a trick: who, the cards drawn, what it is. */
  playItem(model, entry, latest) {
    const item = element("li", null, "play");
    if (latest) item.classList.add("latest");
    if (/bomb/.test(entry.combo.type)) item.classList.add("bomb");
    item.append(element("span", model.handName(entry.seat), "who"));
    const cards = element("span", null, "cards");
    for (const code of entry.combo.cards) cards.append(cardElement(code));
    item.append(cards, element("span", entry.combo.text || entry.combo.type, "what"));
    return item;
  }

  scoreBox(model) {
    byId("score").textContent = this.scoreText(model);
    const chart = byId("chart");
    const key = JSON.stringify([model.scoreHistory, model.seats]);
    if (chart.dataset.drawn !== key) {
      chart.dataset.drawn = key;
      chart.replaceChildren(...drawChart(model.scoreHistory, this.teamNames(model)));
    }
    const result = model.roundResult;
    show("round-result", result !== null);
    redraw(byId("round-result"), JSON.stringify(result), result === null ? [] : this.roundResultParts(model, result));
    const last = model.game.lastTrick;
    show("last-trick-box", last !== null);
    redraw(byId("last-trick"), JSON.stringify([last, model.seats]), last === null ? []
      : [...last.plays.map((entry) => this.playItem(model, entry, false)),
        element("li", last.to && last.to !== last.seat
          ? `${model.handName(last.seat)} gave it to ${model.handName(last.to)}.`
          : `${model.handName(last.seat)} took it.`, "won")]);
  }

  roundResultParts(model, result) {
    const names = result.names || model.seats;
    const name = (seat) => names[seat - 1] || `seat ${seat}`;
    const parts = [element("h3", "The round's result")];
    if (result.finish_order && result.finish_order.length) {
      parts.push(element("p", `Out: ${result.finish_order.map((seat, at) => `${at + 1}. ${name(seat)}`).join(", ")}.`));
    }
    if (result.score && !model.standings) {
      const teams = this.teamNames(model);
      parts.push(element("p", `This round: ${teams[0]} ${signed(result.score[0])}, ${teams[1]} ${signed(result.score[1])}.`));
    }
    if (result.double_victory) parts.push(element("p", "A double victory!"));
    return parts;
  }

  /** The two teams' names: seats 1, 3, ... against 2, 4, ... (each person once: Duo). */
  teamNames(model) {
    const team = (first) => [...new Set(model.seatOrder().filter((seat) => seat % 2 === first % 2)
      .sort((a, b) => a - b).map((seat) => model.name(seat)))].join(" + ");
    return [team(1), team(2)];
  }

  scoreText(model) {
    if (!model.totals) return "";
    const of = model.options && model.options.round ? model.options.round : null;
    const done = model.rounds === null ? 0 : model.rounds;
    const after = of ? ` after ${done} of ${of} rounds` : ` after ${plural(done, "round")}`; // as the server counts
    if (model.standings) { // each person his own total (Trichu)
      const people = model.standings.people.map((s) => `${s.player} ${s.points}`).join(", ");
      return `Score${after}: ${people}; the dummy ${model.standings.dummy}.`;
    }
    const [first, second] = this.teamNames(model);
    return `Score${after}: ${first} ${model.totals[0]}, ${second} ${model.totals[1]}.`;
  }

  // -- the hand and the moves --------------------------------------------------------

  play(model, ui) {
    const g = model.game;
    const exchanging = Boolean(g.legal && g.legal.exchange);
    this.hand(model, "own", g.hand, ui.own, exchanging);
    show("exchange", exchanging);
    if (exchanging) this.exchange(model, "own", ui.own);
    this.actionButtons(model, ui.own);
    this.legal(model);
    this.suggestions(model);
    this.secondHand(model, ui.other);
    this.dummyLegal(model);
  }

  /** A hand as a list box of cards: click (or Space) picks a card, Enter plays the pick. */
  hand(model, which, cards, picked, exchanging) {
    const list = byId(which === "own" ? "hand" : "second-hand");
    const taken = exchanging ? picked.places.filter(Boolean) : picked.selected;
    const shown = exchanging ? cards.filter((code) => !taken.includes(code)) : cards;
    this.cursor[which] = Math.min(this.cursor[which], Math.max(0, shown.length - 1));
    const items = shown.map((code, at) => {
      const item = cardElement(code, "li");
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(taken.includes(code)));
      item.tabIndex = at === this.cursor[which] ? 0 : -1;
      item.dataset.key = `${which}-card-${code}`;
      item.addEventListener("click", () => {
        this.cursor[which] = at;
        this.actions.pick(which, code);
      });
      item.addEventListener("keydown", (event) => this.handKey(event, which, code, at, shown.length));
      return item;
    });
    if (!items.length) {
      const empty = element("li", "No cards.", "empty");
      empty.setAttribute("role", "option");
      empty.setAttribute("aria-disabled", "true");
      items.push(empty);
    }
    const focused = list.contains(document.activeElement);
    redraw(list, JSON.stringify([shown, taken, this.cursor[which]]), items);
    if (focused && !list.contains(document.activeElement)) { // the focused card went onto a place
      list.querySelectorAll("[role=option]")[this.cursor[which]]?.focus();
    }
  }

  handKey(event, which, code, at, count) {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1, Home: -count, End: count };
    if (event.key in moves) {
      event.preventDefault();
      this.cursor[which] = Math.max(0, Math.min(count - 1, at + moves[event.key]));
      const list = byId(which === "own" ? "hand" : "second-hand");
      const options = list.querySelectorAll("[role=option]");
      options.forEach((option, index) => { option.tabIndex = index === this.cursor[which] ? 0 : -1; });
      options[this.cursor[which]]?.focus();
    } else if (event.key === " ") {
      event.preventDefault();
      this.actions.pick(which, code);
    } else if (event.key === "Enter") {
      event.preventDefault();
      byId(which === "own" ? "play-selected" : "second-play").click();
    }
  }

  /** The exchange's places: one per card to pass, each naming who gets it; a card on it goes
   * back to the hand when the place is clicked. */
  exchange(model, which, picked) {
    const from = which === "own" ? model.seat : model.dummySeat;
    const places = model.exchangePlaces(from);
    const targets = places.map((entry) => entry.to);
    const slots = places.map(({ to: seat, label }, at) => {
      const to = seat === model.seat ? `your own hand, ${label}` : seat === model.dummySeat && which === "own"
        ? `${model.variant === "duo" ? "your second hand" : "the dummy"}, ${label}` : `${model.name(seat)}, ${label}`;
      const code = picked.places[at];
      const item = element("li");
      const place = button("", `${which}-place-${at}`, () => this.actions.place(which, at), "place");
      place.append(element("span", `To ${to}`, "to"));
      if (code) place.append(cardElement(code));
      else place.append(element("span", "empty", "slot-empty"));
      place.setAttribute("aria-label", code ? `To ${to}: ${card(code).words} (take it back)` : `To ${to}: empty place`);
      item.append(place);
      return item;
    });
    const count = targets.length;
    const parent = byId(which === "own" ? "exchange-slots" : "second-exchange-slots");
    redraw(parent, JSON.stringify([picked.places, model.seats, targets]), slots);
    const send = byId(which === "own" ? "send-exchange" : "send-second-exchange");
    const filled = picked.places.filter(Boolean).length === count;
    send.disabled = !filled;
    send.textContent = filled ? `Pass these ${count} cards` : `Put ${plural(count - picked.places.filter(Boolean).length, "more card")} on the places`;
  }

  /** The Play button: what the selection would play (the server's check, else the legal list),
   * or why not. Bomb: shown when the server says a bomb of ours may be played out of turn. */
  actionButtons(model, picked) {
    const g = model.game;
    const exchanging = Boolean(g.legal && g.legal.exchange);
    const verdict = this.verdict(model, g.legal, picked.selected, model.seat);
    const play = byId("play-selected");
    play.textContent = verdict.label;
    play.disabled = exchanging || verdict.line === null;
    play.dataset.line = verdict.line || "";
    play.classList.toggle("hidden", exchanging);
    byId("clear-selection").disabled = picked.selected.length === 0;
    byId("clear-selection").classList.toggle("hidden", exchanging);
    this.readings(model, "readings", verdict.readings);
    const bomb = this.bombPlay(model);
    show("bomb", bomb !== null);
    byId("bomb").textContent = bomb === null ? "Bomb!" : bombLabel("Bomb", bomb.name);
    byId("bomb").dataset.line = bomb === null ? "" : bomb.command;
  }

  /** {label, line}: the Play button's words and the command it sends (null: nothing to send). */
  verdict(model, legal, selected, seat) {
    if (!selected.length) return { label: legal && this.mayPlay(legal) ? "Pick cards to play" : "Play", line: null };
    const check = model.check;
    const asked = check !== null && check.seat === seat && sameCards(check.cards, selected);
    if (asked && check.fields) return this.checkVerdict(check.fields);
    return { label: "Checking…", line: null };
  }

  /** The Phoenix's readings (the check's plays), asked only when the selection is ambiguous. */
  readings(model, id, plays) {
    show(id, Boolean(plays));
    redraw(byId(id), JSON.stringify(plays || []), (plays || []).map((play) => {
      const made = button(`Play: ${play.name}`, `${id}-${play.command}`, () => this.actions.move(play.command), "move");
      made.title = play.command;
      return made;
    }));
  }

  mayPlay(legal) {
    return legal.commands.some((line) => /^\/((dummy|second)\s+)?play\b/i.test(line));
  }

  /** A Tichu.Check answer as the Play button's words and command (a Phoenix's readings: several). */
  checkVerdict(fields) {
    const plays = fields.plays || [];
    if (!fields.playable || !plays.length) {
      return { label: fields.reason ? `Cannot play: ${fields.reason}` : "Cannot play these", line: null };
    }
    const verb = fields.how === "bomb" ? "Bomb" : "Play";
    if (plays.length > 1) return { label: `${verb}: which reading?`, line: null, readings: plays };
    return { label: bombLabel(verb, plays[0].name), line: plays[0].command };
  }

  /** The Bomb button: the lowest bomb of ours the server says may be played now out of turn. */
  bombPlay(model) {
    const turn = model.game.turn;
    const suggested = model.suggestions[model.seat];
    if (!suggested || !suggested.bombs || !suggested.bombs.length || (turn !== null && turn.seat === model.seat)) return null;
    return suggested.bombs[0];
  }

  /** What may be done besides playing cards (pass, calls, the wish, the Dragon's gift, the
   * Dog's lead), and a Phoenix's readings when the selection is ambiguous. */
  legal(model) {
    const legal = model.game.legal;
    const commands = legal ? legal.commands.filter((line) => !/^\/(schupf|play)\b/i.test(line)) : [];
    const parts = this.moveButtons(commands, model, "");
    redraw(byId("legal"), JSON.stringify([commands, model.seats]), [byId("legal-title"), ...parts]);
    byId("legal").dataset.version = String(model.legalVersion);
  }

  /** Buttons for the moves that play no cards; the wish as a small choice (a rank and a button). */
  moveButtons(commands, model, prefix) {
    const parts = [];
    const wishes = commands.filter((line) => /\bwish\s+\w+$/i.test(line) && !/\bwish none$/i.test(line));
    for (const line of commands) {
      if (wishes.includes(line)) continue;
      const [label] = commandLabel(line, model);
      const made = button(label, `${prefix}legal-${line}`, () => this.actions.move(line), "move");
      made.title = line;
      if (/\/(tichu|grand)$/i.test(line)) made.classList.add("call");
      parts.push(made);
    }
    if (wishes.length) parts.push(this.wishChoice(wishes, prefix));
    return parts;
  }

  wishChoice(wishes, prefix) {
    const box = element("span", null, "wish-choice");
    const id = `${prefix}wish-rank`;
    const label = element("label", "Wish for");
    label.htmlFor = id;
    const select = element("select");
    select.id = id;
    select.dataset.key = id;
    const ranks = wishes.map((line) => line.trim().split(/\s+/).pop())
      .sort((a, b) => RANKS.indexOf(a.toUpperCase()) - RANKS.indexOf(b.toUpperCase()));
    for (const rank of ranks) {
      const option = element("option", rankLabel(rank));
      option.value = rank;
      select.append(option);
    }
    const send = button("Make the wish", `${prefix}wish-send`, () => {
      const line = wishes.find((entry) => entry.trim().split(/\s+/).pop() === select.value);
      if (line) this.actions.move(line);
    }, "move");
    send.title = "/wish RANK";
    box.append(label, select, send);
    return box;
  }

  /** The server's suggestions (Tichu.Suggest): one per kind; a click picks its cards. */
  suggestions(model, which = "own") {
    const own = which === "own";
    const fields = model.suggestions[own ? model.seat : model.dummySeat];
    const legal = own ? model.game.legal : model.game.otherLegal;
    const shown = fields && legal !== null ? (fields.plays || []).slice(0, 6) : [];
    const box = byId(own ? "suggest-box" : "second-suggest");
    box.classList.toggle("hidden", !shown.length);
    box.dataset.answered = String(Boolean(fields && legal !== null && fields.legal === legal));
    redraw(byId(own ? "suggest" : "second-suggest"), JSON.stringify(shown), shown.map((entry, at) => {
      const line = entry.command;
      const cards = entry.combo ? entry.combo.cards : commandCards(line.replace(/^\/(dummy|second)\s+/i, "/")).cards;
      const words = entry.name;
      const made = button("", `${which}-suggest-${at}`, () => this.actions.selectCards(which, cards), "suggestion");
      const faces = element("span", null, "cards");
      for (const code of cards) faces.append(cardElement(code));
      made.append(faces, element("span", words, "what"));
      made.setAttribute("aria-label", `Pick ${words}`);
      made.title = line;
      return made;
    }));
  }

  /** What the second hand we play is called: Duo's "second hand", Trichu's "dummy". */
  secondWords(model) {
    return model.variant === "duo" ? "second hand" : "dummy";
  }

  /** The second hand we play (Duo's private one, Trichu's dummy for its dealer): its cards to
   * pick, its Play button, its exchange's places. */
  secondHand(model, picked) {
    const other = model.game.otherLegal;
    const exchanging = Boolean(other && other.exchange);
    const cards = model.otherCards;
    const shown = model.dummySeat !== null && cards !== null;
    show("second-box", shown);
    if (!shown) return;
    byId("second-title").textContent = model.variant === "duo"
      ? `Your second hand (seat ${model.dummySeat})` : `The dummy's hand (seat ${model.dummySeat}), yours to play`;
    this.hand(model, "other", cards, picked, exchanging);
    show("second-exchange", exchanging);
    if (exchanging) {
      this.exchange(model, "other", picked);
      byId("second-exchange-title").textContent = `The ${this.secondWords(model)}'s exchange: put a card on each place`;
    }
    this.suggestions(model, "other");
    const verdict = this.verdict(model, other, picked.selected, model.dummySeat);
    const play = byId("second-play");
    play.textContent = verdict.label; // under the second hand's title: its cards
    play.disabled = exchanging || verdict.line === null;
    play.dataset.line = verdict.line || "";
    play.classList.toggle("hidden", exchanging);
    this.readings(model, "second-readings", verdict.readings);
  }

  /** The second hand's moves that play no cards (``/dummy pass``, ``/second tichu``, ...). */
  dummyLegal(model) {
    const other = model.game.otherLegal;
    const words = this.secondWords(model);
    show("dummy-moves", other !== null || model.dummySeat !== null);
    byId("dummy-legal-title").textContent = model.variant === "duo"
      ? "What your second hand may do" : "What the dummy may do (you play its hand)";
    const commands = other ? other.commands.filter((line) => !/^\/(dummy|second)\s+\/?(schupf|play)\b/i.test(line)) : [];
    const parts = this.moveButtons(commands, model, "dummy-");
    if (!parts.length) {
      parts.push(element("p", other && this.mayPlay(other) ? `Pick the ${words}'s cards to play.`
        : other && other.exchange ? `Put the ${words}'s cards on its places.` : `Nothing for the ${words} right now.`, "empty"));
    }
    redraw(byId("dummy-legal"), JSON.stringify([commands, other && other.exchange, other && this.mayPlay(other),
      model.seats, words]), parts);
  }

  // -- the review ----------------------------------------------------------------------

  review(model) {
    const review = model.review;
    byId("review-title").textContent = `Review of game ${review.log}`;
    byId("review-step").textContent = `Round ${review.round} of ${review.rounds}, step ${review.step} of ${review.steps}: ${review.title}.`;
    redraw(byId("review-seats"), JSON.stringify([review.names, review.hands]), reviewHands(review));
    redraw(byId("review-events"), JSON.stringify(review.events), (review.events || []).map((event) => {
      const item = element("li", describeEvent(event, review.names));
      const combo = event.combo;
      if (combo && combo.cards) {
        const cards = element("span", null, "cards");
        for (const code of combo.cards) cards.append(cardElement(code));
        item.append(" ", cards);
      }
      return item;
    }));
    byId("review-prev").disabled = review.round === 1 && review.step === 1;
    byId("review-next").disabled = review.round === review.rounds && review.step === review.steps;
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

function sameCards(one, other) {
  return one.length === other.length && [...one].sort().join(" ") === [...other].sort().join(" ");
}

/** "Bomb: four fours" for a bomb's name ("bomb: four fours"), else "VERB: NAME". */
function bombLabel(verb, name) {
  return verb === "Bomb" && name.startsWith("bomb: ") ? `Bomb: ${name.slice(6)}` : `${verb}: ${name}`;
}

function signed(points) {
  return points > 0 ? `+${points}` : String(points);
}
