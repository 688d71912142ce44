// What the page knows, kept from the Tichu.* GMCP packages (their fields are the machine-mode
// fields of docs/PROTOCOL.md §7). Only packages change it; the views only read it.
// A table has as many seats as its per-seat fields have entries (4; 6 in Tientsin; in Trichu
// 3 people, and 4 hands once the game runs: the dummy's open hand, played by the dealer; in
// Duo 2 people, each playing two of the game's 4 hands: his own and his private second hand).

import { sortCards } from "./cards.js";

/** Messages after which the legal list the server pushed is no longer what the round waits for:
 * the server pushes a fresh one when it waits for us again (``/legal push on``). */
const ENDS_LEGAL = new Set([
  "Tichu.Turn", "Tichu.Played", "Tichu.Passed", "Tichu.Phase", "Tichu.Wish", "Tichu.TrickWon",
  "Tichu.TrickTaken", "Tichu.DragonGiven", "Tichu.RoundEnd", "Tichu.GameOver", "Tichu.TableOpen",
  "Tichu.Started", "Tichu.Game",
]);
/** Our own messages that answer what the round waited for. */
const OWN_ENDS_LEGAL = new Set(["Tichu.GrandDecided", "Tichu.Tichu", "Tichu.ExchangeSubmitted"]);

/** Duo's people: the first plays the game's seats 1 and 3, the second 2 and 4 (its `played_by`). */
const DUO_PEOPLE = 2;

function emptyGame(seats = 4) {
  return {
    phase: null,
    hand: [],
    counts: Array(seats).fill(null),
    calls: Array(seats).fill(null),
    passed: Array(seats).fill(false),
    finish: [],
    turn: null, // {seat, need}
    trick: [], // [{seat, combo}]
    trickWon: null, // {seat, points}
    wish: null,
    legal: null, // {commands, exchange}
    openHand: null, // the dummy's hand where we may see it (Trichu), else null
    secondHand: null, // our second hand's cards (Duo: private, like our own), else null
    otherLegal: null, // {seat, commands, exchange}: the legal moves of the second hand we play (dummy, Duo's second)
    over: null, // {winners, standings, log}
    lastTrick: null, // {plays: [{seat, combo}], seat (who took it), to (who got it: the Dragon's gift)}
    moment: null, // {kind: "dragon"|"dog", seat, to}: a Dragon trick given away, a Dog led, until the next play
    clock: null, // {seat (null: every seat's), seconds, since (ms)}: the turn clock the round runs
  };
}

/** ``list`` made ``length`` long: cut, or filled with ``fill``. */
function fitted(list, length, fill) {
  return list.length === length ? list : [...list.slice(0, length), ...Array(Math.max(0, length - list.length)).fill(fill)];
}

/** ``hand`` without ``codes`` (a Phoenix played as a rank is the Phoenix). */
function without(hand, codes) {
  const kept = [...hand];
  for (const code of codes) {
    const plain = code.startsWith("PH") ? "PH" : code;
    const at = kept.findIndex((held) => held.toUpperCase() === plain.toUpperCase());
    if (at >= 0) kept.splice(at, 1);
  }
  return kept;
}

export class Model {
  constructor() {
    this.nick = null;
    this.tables = [];
    this.who = [];
    this.chat = [];
    this.tableNumber = null;
    this.seat = null; // ours, 1-N, or null (lobby, or watching)
    this.seats = [null, null, null, null];
    this.plays = []; // the seats we play this round where we play two (ours, the dummy's or Duo's second), else []
    this.tableVariant = null; // the TABLE's variant (absent: the 4-player game)
    this.bots = {};
    this.away = [];
    this.standIns = {}; // name -> bot level, while a bot plays for an away player
    this.options = null;
    this.tableState = null;
    this.totals = null;
    this.standings = null; // {people, dummy} where each person scores his own (Trichu)
    this.rounds = null; // rounds over, as the server counts them in its score line
    this.scoreHistory = []; // [{rounds, totals}]: the running totals after each round this page saw
    this.roundResult = null; // the last ROUND_END's fields, until the next round's play
    this.held = null; // {table, seat}: our seat, held while we are away from a started game
    this.review = null; // the REVIEW being stepped through, else null
    this.check = null; // {cards (the selection asked about, as sent), fields (Tichu.Check's)}
    this.suggestions = {}; // round seat -> Tichu.Suggest's fields, while they hold (until the next play)
    this.layout = null; // the table's form (Tichu.Layout): its hands, the exchange's places
    this.game = emptyGame();
    this.legalVersion = 0; // counts every new or cleared legal list (tests and views watch it)
    this.error = null; // the last refusal's message, until the next command
    this.passwordWanted = false; // the server takes the next line as a password, unseen
    this.unencrypted = null; // {tls_port}: a password went over this plain connection
  }

  get atTable() {
    return this.tableNumber !== null;
  }

  /** The table's variant: nanjing (the 4-player game), tientsin, trichu or duo. */
  get variant() {
    return this.tableVariant || (this.options && this.options.variant) || "nanjing";
  }

  /** Seat numbers as the table is seen from ``seat`` (ours, else 1): us, then to the right
   * round the table (4 seats: us, right, partner, left). */
  seatOrder() {
    const count = this.seats.length;
    const base = this.seat || 1;
    return [...Array(count).keys()].map((step) => ((base - 1 + step) % count) + 1);
  }

  /** The exchange of ``from`` (our seat, or the second hand's) as the server's LAYOUT says it:
   * [{to (a round seat), label ("right opponent", ...)}] in the order ``/schupf`` takes its cards;
   * [] before the layout came. */
  exchangePlaces(from = this.seat) {
    const hand = this.layout && (this.layout.plays || []).find((entry) => entry.seat === from);
    return hand ? hand.exchange : [];
  }

  /** The seats the exchange of ``from`` gives to, in the order the exchange command takes them. */
  exchangeTargets(from = this.seat) {
    return this.exchangePlaces(from).map((place) => place.to);
  }

  /** The second hand's seat where we play one (Trichu's dealer: the dummy's; Duo: ours + 2), else
   * null; before a Trichu game's TABLE names it, the seat of the legal moves we got for it. */
  get dummySeat() {
    if (this.plays.length > 1) return this.plays[1];
    return this.game.otherLegal === null ? null : this.game.otherLegal.seat;
  }

  /** The cards we know of the second hand we play: Duo's private one, else the dummy's open hand. */
  get otherCards() {
    return this.variant === "duo" ? this.game.secondHand : this.game.openHand;
  }

  /** Duo's seats as the game counts them (A, B, A, B) and ours (1 and 3, or 2 and 4), all game:
   * STARTED names the table's two people only (the first round has no SEATING). */
  duoHands() {
    if (this.variant !== "duo") return;
    if (this.seats.length === DUO_PEOPLE) this.seats = [...this.seats, ...this.seats];
    this.plays = this.seat === null ? [] : [this.seat, this.seat + DUO_PEOPLE];
  }

  /** The game's per-seat lists as long as the seats (a Trichu table's 3 people play 4 hands). */
  fitSeats() {
    const g = this.game;
    const count = this.seats.length;
    g.counts = fitted(g.counts, count, null);
    g.calls = fitted(g.calls, count, null);
    g.passed = fitted(g.passed, count, false);
  }

  name(seat) {
    return this.seats[seat - 1] || `seat ${seat}`;
  }

  /** A hand's player, with its seat where he plays two (Duo: "Ann (seat 3)"). */
  handName(seat) {
    const name = this.name(seat);
    return this.seats.filter((other) => other === name).length > 1 ? `${name} (seat ${seat})` : name;
  }

  /** Take one package; true if it was one the page knows. */
  apply(name, fields) {
    // ours: in Duo our name is on our second hand's messages too, told apart by their seat
    const mine = fields.player !== undefined && fields.player === this.nick
      && (fields.seat === undefined || this.seat === null || fields.seat === this.seat);
    if ((ENDS_LEGAL.has(name) || (OWN_ENDS_LEGAL.has(name) && mine)) && this.game.legal !== null) {
      this.game.legal = null;
      this.legalVersion += 1;
    }
    const other = this.game.otherLegal;
    if (other !== null && (ENDS_LEGAL.has(name) || (OWN_ENDS_LEGAL.has(name) && fields.seat === other.seat))) {
      this.game.otherLegal = null;
      this.legalVersion += 1;
    }
    const handler = HANDLERS[name];
    if (!handler) return false;
    handler(this, fields);
    if (this.game.counts.length !== this.seats.length) this.fitSeats(); // seats came or went (a variant's table)
    return true;
  }

  enterTable(number, seat, seats) {
    if (this.tableNumber !== number) {
      this.game = emptyGame();
      this.totals = null;
      this.rounds = null;
      this.bots = {};
      this.away = [];
      this.standIns = {};
      this.tableState = null;
      this.plays = [];
      this.tableVariant = null;
      this.scoreHistory = [];
      this.roundResult = null;
      this.layout = null;
    }
    this.held = null;
    this.tableNumber = number;
    this.seat = seat;
    if (seats) this.seats = [...seats];
    this.fitSeats();
  }

  /** Whether a package about ``seat`` is about the second hand we play, not our own. */
  otherHand(seat) {
    return seat !== undefined && this.seat !== null && seat !== this.seat;
  }

  /** Cards of the second hand we were told of: Duo's private hand, else the dummy's open one. */
  setOtherCards(cards) {
    if (this.variant === "duo") this.game.secondHand = sortCards(cards);
    else this.game.openHand = sortCards(cards);
  }

  leaveTable() {
    this.layout = null;
    this.tableNumber = null;
    this.seat = null;
    this.seats = [null, null, null, null];
    this.plays = [];
    this.tableVariant = null;
    this.game = emptyGame();
  }

  removeFromHand(codes) {
    this.game.hand = without(this.game.hand, codes);
  }
}

/** The trick goes to a pile (``to``: the Dragon's gift, else the winner's): it stays as the last one. */
function takeTrick(m, seat, to) {
  const g = m.game;
  if (g.trick.length) g.lastTrick = { plays: g.trick, seat, to };
  g.trick = [];
  g.trickWon = null;
  g.passed = g.passed.map(() => false);
}

/** A TABLE's running clock (`clock_left`, per seat): the seat whose clock runs, if one does. */
function clockFromTable(left) {
  const at = left.findIndex((seconds) => seconds !== null);
  return at < 0 ? null : { seat: at + 1, seconds: left[at], since: Date.now() };
}

function ourTable(model, fields) {
  return fields.table === undefined || fields.table === model.tableNumber;
}

const HANDLERS = {
  "Tichu.Nick": (m, f) => {
    m.nick = f.nick;
  },
  "Tichu.Error": (m, f) => {
    m.error = f.message;
  },
  "Tichu.Unencrypted": (m, f) => {
    m.unencrypted = { tlsPort: f.tls_port };
  },
  "Tichu.PasswordWanted": (m) => {
    m.passwordWanted = true;
  },
  "Tichu.Tables": (m, f) => {
    m.tables = f.tables || [];
    const mine = m.tables.find((view) => view.table === m.tableNumber);
    if (mine) {
      m.bots = mine.bots || {};
      m.away = mine.away || [];
      m.options = mine.options;
      m.tableState = mine.state;
    }
  },
  "Tichu.Who": (m, f) => {
    m.who = f.users || [];
  },
  "Tichu.Chat": (m, f) => {
    m.chat.push({ where: f.table === null ? "lobby" : `table ${f.table}`, from: f.from, text: f.text });
  },
  "Tichu.Msg": (m, f) => {
    m.chat.push({ where: `${f.from} to ${f.to}`, from: f.from, text: f.text });
  },
  "Tichu.Joined": (m, f) => {
    if (f.nick === m.nick) m.enterTable(f.table, f.seat, f.seats);
    else if (ourTable(m, f)) m.seats = [...f.seats];
    if (ourTable(m, f) && f.bot) m.bots[String(f.seat)] = f.bot;
  },
  "Tichu.Left": (m, f) => {
    if (f.nick === m.nick) m.leaveTable();
    else if (ourTable(m, f)) {
      m.seats = [...f.seats];
      delete m.bots[String(f.seat)];
    }
  },
  "Tichu.Away": (m, f) => {
    if (f.nick === m.nick) {
      m.leaveTable();
      m.held = { table: f.table, seat: f.seat };
    }
    else if (ourTable(m, f) && !m.away.includes(f.seat)) m.away.push(f.seat);
  },
  "Tichu.Returned": (m, f) => {
    if (f.nick === m.nick) m.enterTable(f.table, f.seat, f.seats);
    else if (ourTable(m, f)) {
      m.seats = [...f.seats];
      m.away = m.away.filter((seat) => seat !== f.seat);
    }
  },
  "Tichu.SpectatorJoined": (m, f) => {
    if (f.nick === m.nick) m.enterTable(f.table, null, f.seats);
  },
  "Tichu.SpectatorLeft": (m, f) => {
    if (f.nick === m.nick) m.leaveTable();
  },
  "Tichu.Option": (m, f) => {
    if (ourTable(m, f)) m.options = f.options;
  },
  "Tichu.Options": (m, f) => {
    if (ourTable(m, f)) m.options = f.options;
  },
  "Tichu.Started": (m, f) => {
    m.seats = [...f.seats];
    m.seat = f.seat;
    m.options = f.options;
    m.tableState = "started";
    m.totals = null;
    m.rounds = null;
    m.standings = null;
    m.scoreHistory = [];
    m.roundResult = null;
    m.plays = [];
    m.game = emptyGame(f.seats.length);
    m.duoHands();
  },
  "Tichu.Seating": (m, f) => {
    // turnier (and Trichu): each round its own seats, ours among them
    m.seats = [...f.seats];
    const ours = f.seats.indexOf(m.nick);
    if (m.seat !== null && ours >= 0) m.seat = ours + 1;
    m.plays = [];
    m.duoHands();
    m.fitSeats();
  },
  "Tichu.Dealt": (m, f) => {
    if (m.otherHand(f.seat)) m.setOtherCards([...(m.otherCards || []), ...f.cards]);
    else m.game.hand = sortCards([...m.game.hand, ...f.cards]);
  },
  "Tichu.Hand": (m, f) => {
    if (m.otherHand(f.seat)) m.setOtherCards(f.cards);
    else m.game.hand = sortCards(f.cards);
  },
  "Tichu.OpenHand": (m, f) => {
    if (ourTable(m, f)) m.game.openHand = sortCards(f.cards); // Trichu: the dummy's hand, open to all
  },
  "Tichu.Received": (m, f) => {
    const g = m.game;
    const given = Object.values(f.given || {});
    const got = Object.values(f.cards || {});
    if (m.otherHand(f.seat)) m.setOtherCards([...without(m.otherCards || [], given), ...got]);
    else {
      m.removeFromHand(given);
      g.hand = sortCards([...g.hand, ...got]);
    }
  },
  "Tichu.Phase": (m, f) => {
    m.game.phase = f.phase;
    m.game.clock = f.clock === undefined ? null : { seat: null, seconds: f.clock, since: Date.now() };
    if (f.phase === "play") m.roundResult = null;
    // 14 cards each after the exchange in the 4-player game and Trichu; Tientsin's hands
    // differ (9 or 10): the page asks for the table then
    if (f.phase === "play" && m.game.counts.length === 4) m.game.counts = [14, 14, 14, 14];
  },
  "Tichu.GrandDecided": () => {},
  "Tichu.Tichu": (m, f) => {
    m.game.calls[f.seat - 1] = f.grand ? "grand" : "tichu";
  },
  "Tichu.Turn": (m, f) => {
    m.game.turn = { seat: f.seat, need: f.need };
    m.game.clock = f.clock === undefined ? null : { seat: f.seat, seconds: f.clock, since: Date.now() };
    m.suggestions = {};
  },
  "Tichu.Check": (m, f) => {
    // the answer to the selection as it is now (an older selection's answer is dropped)
    const plain = (codes) => codes.map((code) => (code.toUpperCase().startsWith("PH") ? "PH" : code.toUpperCase()))
      .sort().join(" ");
    if (m.check !== null && f.seat === m.check.seat && plain(f.cards || []) === plain(m.check.cards)) m.check.fields = f;
  },
  "Tichu.Suggest": (m, f) => {
    // for the legal list it answers (a newer list needs newer suggestions)
    m.suggestions[f.seat] = { ...f, legal: f.seat === m.seat ? m.game.legal : m.game.otherLegal };
  },
  "Tichu.Layout": (m, f) => {
    if (!ourTable(m, f)) return;
    m.layout = f;
    if (f.options) m.options = f.options; // a spectator's too
    if (f.seat !== null && f.plays && f.plays.length) m.plays = f.plays.map((entry) => entry.seat);
  },
  "Tichu.Review": (m, f) => {
    m.review = f;
  },
  "Tichu.ReviewEnd": (m) => {
    m.review = null;
  },
  "Tichu.Played": (m, f) => {
    const g = m.game;
    // a won trick lies until the next lead; a bomb out of turn still lands on it
    if (g.trickWon && !f.out_of_turn) takeTrick(m, g.trickWon.seat, g.trickWon.seat);
    g.trick.push({ seat: f.seat, combo: f.combo });
    m.suggestions = {};
    g.moment = f.combo.type === "dog" ? { kind: "dog", seat: f.seat, to: null } : null;
    g.counts[f.seat - 1] = f.cards_left;
    g.passed = g.passed.map(() => false);
    if (f.seat === m.seat) m.removeFromHand(f.combo.cards);
    else if (f.seat === m.dummySeat && g.secondHand !== null) g.secondHand = without(g.secondHand, f.combo.cards);
    else if (g.openHand !== null) g.openHand = without(g.openHand, f.combo.cards); // each card is one
  },
  "Tichu.Passed": (m, f) => {
    m.game.passed[f.seat - 1] = true;
  },
  "Tichu.Wish": (m, f) => {
    m.game.wish = f.rank;
  },
  "Tichu.WishFulfilled": (m) => {
    m.game.wish = null;
  },
  "Tichu.TrickWon": (m, f) => {
    m.game.trickWon = { seat: f.seat, points: f.points };
  },
  "Tichu.TrickTaken": (m, f) => takeTrick(m, f.seat, f.to),
  "Tichu.DragonGiven": (m, f) => {
    takeTrick(m, f.seat, f.to);
    m.game.moment = { kind: "dragon", seat: f.seat, to: f.to };
  },
  "Tichu.DogLead": (m, f) => {
    m.game.moment = { kind: "dog", seat: f.seat, to: f.leader };
  },
  "Tichu.Out": (m, f) => {
    if (!m.game.finish.includes(f.seat)) m.game.finish.push(f.seat);
  },
  "Tichu.RoundEnd": (m, f) => {
    const { over, lastTrick } = m.game;
    m.roundResult = { ...f, names: [...m.seats] };
    m.game = emptyGame(m.seats.length);
    m.game.over = over;
    m.game.lastTrick = lastTrick;
  },
  "Tichu.Score": (m, f) => {
    if (!ourTable(m, f)) return;
    m.totals = f.totals;
    // `rounds` counts the rounds dealt: the one in play too (a returning player's SCORE comes
    // before the TABLE that says whether it is over: that TABLE sets the count right)
    m.rounds = f.rounds;
    if (m.game.phase === null && !m.scoreHistory.some((entry) => entry.rounds === f.rounds)) {
      m.scoreHistory.push({ rounds: f.rounds, totals: [...f.totals] });
    }
    // per-person scores (Trichu): each person's total, and the dummy's
    m.standings = f.scores ? { people: f.standings || [], dummy: f.dummy } : null;
  },
  "Tichu.GameOver": (m, f) => {
    m.game.over = { winners: f.winners || [], standings: f.standings || [], log: f.log };
    m.game.turn = null;
    m.tableState = "finished";
  },
  "Tichu.TableOpen": (m, f) => {
    m.seats = [...f.seats];
    m.options = f.options;
    // the table's seats again, after a game that seated us elsewhere (turnier, Trichu)
    const ours = f.seats.indexOf(m.nick);
    if (m.seat !== null && ours >= 0) m.seat = ours + 1;
    m.plays = [];
  },
  "Tichu.Table": (m, f) => {
    if (!ourTable(m, f)) return;
    const g = m.game;
    m.seats = [...f.names];
    m.seat = f.seat;
    m.plays = f.plays || [];
    m.tableVariant = f.variant || null;
    g.openHand = f.open_hand ? sortCards(f.open_hand) : null;
    g.phase = f.phase;
    if (f.hand) g.hand = sortCards(f.hand);
    g.counts = [...f.hand_counts];
    g.calls = [...f.calls];
    g.trick = (f.trick || []).map((entry) => ({ seat: entry.seat, combo: entry.combo }));
    g.trickWon = f.trick_won && f.top_seat ? { seat: f.top_seat, points: null } : null;
    g.turn = f.turn ? { seat: f.turn, need: f.need } : null;
    g.wish = f.wish;
    g.finish = [...(f.finish_order || [])];
    m.totals = f.totals;
    // `round` is the round shown: over once it has its result, else still in play
    m.rounds = f.result ? f.round : f.round - 1;
    const last = m.scoreHistory[m.scoreHistory.length - 1];
    if (last && last.rounds > m.rounds) last.rounds = m.rounds;
    if (f.result) m.roundResult = { ...f.result, names: [...f.names] };
    g.clock = f.clock_left ? clockFromTable(f.clock_left) : null;
    m.fitSeats();
  },
  "Tichu.Substitute": (m, f) => {
    m.standIns[f.player] = f.level;
  },
  "Tichu.SubstituteEnd": (m, f) => {
    delete m.standIns[f.player];
  },
  "Tichu.Legal": (m, f) => {
    const legal = { commands: f.commands || [], exchange: Boolean(f.exchange) };
    if (m.otherHand(f.seat)) m.game.otherLegal = { seat: f.seat, ...legal }; // its commands say /dummy
    else m.game.legal = legal;
    m.legalVersion += 1;
  },
};
