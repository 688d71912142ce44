"""The page's JavaScript modules on their own, in a real headless Chromium: ANSI colours to
spans, card labels and words, the legal-move labels, the socket's address (ws: or wss:), and the model fed a deal, an exchange
and plays (also at a Tientsin, Trichu and Duo table). The modules are served by a plain static Site (these tests need no game
server); the whole game at the page is test_web_page.py."""

from __future__ import annotations

import pytest
import pytest_twisted
from twisted.internet import threads
from twisted.web.server import Site
from twisted.web.static import File

from browser_player import MISSING, STEP_TIMEOUT, start_browser
from test_net_network import reactor
from test_web_files import STATIC

# Run in the page's origin: imports the modules and returns what the checks below read.
SCRIPT = r"""
const done = arguments[arguments.length - 1];
Promise.all(["ansi", "cards", "view", "model", "link"].map((name) => import(`/js/${name}.js`))).then(
  ([ansi, cards, view, model, link]) => {
    const box = document.createElement("div");
    box.append(ansi.ansiFragment("Your cards: \x1b[32m7j\x1b[0m \x1b[1;31mDR\x1b[0m \x1b[2Kplain\x1b[0m."));
    const spans = [...box.querySelectorAll("span")].map((span) => [span.className, span.textContent]);
    const codes = ["2j", "Tr", "10r", "As", "Qp", "Kj", "MJ", "DG", "PH", "PH=9", "DR"];
    const m = new model.Model();
    const feed = [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Joined", {table: 1, seat: 1, nick: "Ann", seats: ["Ann", null, null, null]}],
      ["Tichu.Started", {table: 1, seat: 1, seats: ["Ann", "B", "C", "D"], options: {round: 1}}],
      ["Tichu.Dealt", {table: 1, seat: 1, cards: ["Kj", "2s", "DR", "MJ", "5p", "5r", "9j", "Ts"]}],
      ["Tichu.Legal", {table: 1, seat: 1, commands: ["/nogrand", "/grand"], exchange: false}],
      ["Tichu.GrandDecided", {table: 1, seat: 1, player: "Ann", called: false}],
    ];
    const after = {};
    for (const [name, fields] of feed) m.apply(name, fields);
    after.legalAfterOwnDecision = m.game.legal;
    for (const [name, fields] of [
      ["Tichu.Dealt", {table: 1, seat: 1, cards: ["PH", "DG", "3j", "4j", "Aj", "Ar"]}],
      ["Tichu.Received", {table: 1, seat: 1, cards: {"2": "Qp", "3": "Qr", "4": "6s"},
                          given: {"2": "2s", "3": "DR", "4": "DG"}}],
      ["Tichu.Phase", {table: 1, phase: "play"}],
      ["Tichu.Turn", {table: 1, seat: 1, player: "Ann", need: "lead"}],
      ["Tichu.Played", {table: 1, seat: 1, player: "Ann", cards_left: 12, out_of_turn: false,
                        combo: {type: "pair", cards: ["5p", "PH"], text: "pair of fives"}}],
      ["Tichu.Played", {table: 1, seat: 2, player: "B", cards_left: 12, out_of_turn: false,
                        combo: {type: "pair", cards: ["9s", "9p"], text: "pair of nines"}}],
      ["Tichu.TrickWon", {table: 1, seat: 2, player: "B", leader: 2, points: 0}],
      ["Tichu.Played", {table: 1, seat: 3, player: "C", cards_left: 9, out_of_turn: true,
                        combo: {type: "four-of-a-kind bomb", cards: ["2j", "2s", "2p", "2r"], text: "bomb"}}],
    ]) m.apply(name, fields);
    after.hand = [...m.game.hand];
    after.counts = [...m.game.counts];
    after.trickAfterBomb = m.game.trick.map((entry) => entry.seat);
    m.apply("Tichu.TrickWon", {table: 1, seat: 3, player: "C", leader: 3, points: 0});
    m.apply("Tichu.Played", {table: 1, seat: 3, player: "C", cards_left: 8, out_of_turn: false,
                             combo: {type: "single", cards: ["3s"], text: "single 3s"}});
    after.trickAfterLead = m.game.trick.map((entry) => entry.seat);
    after.moves = ["/play 5p 5r", "/pass", "/wish none", "/wish T", "/give 2", "/nogrand", "/tichu"].map(
      (line) => view.commandLabel(line, m));
    m.apply("Tichu.Unencrypted", {tls_port: 4281});
    after.unencrypted = m.unencrypted;
    m.apply("Tichu.Substitute", {table: 1, player: "B", level: "basic"});
    after.standIns = {...m.standIns};
    m.apply("Tichu.SubstituteEnd", {table: 1, player: "B"});
    after.standInsAfter = {...m.standIns};
    m.apply("Tichu.Seating", {table: 1, seats: ["B", "Ann", "D", "C"]});
    after.seatAfterSeating = m.seat;
    m.apply("Tichu.Left", {table: 1, seat: 1, nick: "Ann", reason: "left", seats: [null, "B", "C", "D"]});
    after.atTableAfterLeaving = m.atTable;
    // Tientsin: six seats, the exchange to the partners two and four seats on, teams of three
    const six = new model.Model();
    for (const [name, fields] of [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Joined", {table: 2, seat: 2, nick: "Ann", seats: ["B", "Ann", null, null, null, null]}],
      ["Tichu.Joined", {table: 2, seat: 6, nick: "F", seats: ["B", "Ann", null, null, null, "F"]}],
      ["Tichu.Started", {table: 2, seat: 2, seats: ["B", "Ann", "C", "D", "E", "F"],
                         options: {round: 1, variant: "tientsin"}, teams: [[1, 3, 5], [2, 4, 6]]}],
      ["Tichu.Layout", {table: 2, variant: "tientsin", seat: 2, dummy: null, second: null,
                        plays: [{seat: 2, prefix: "", exchange: [{to: 4, label: "partner two seats on"},
                                                                 {to: 6, label: "partner four seats on"}]}]}],
      ["Tichu.Tichu", {table: 2, seat: 6, player: "F", grand: false}],
      ["Tichu.Score", {table: 2, rounds: 1, totals: [120, -20], standings: [], turnier: false}],
      ["Tichu.Passed", {table: 2, seat: 6, player: "F"}],
    ]) six.apply(name, fields);
    const early = new model.Model();
    for (const [name, fields] of [["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Joined", {table: 2, seat: 2, nick: "Ann", seats: ["B", "Ann", null, null]}]]) early.apply(name, fields);
    early.apply("Tichu.Joined", {table: 2, seat: 3, nick: "C", seats: ["B", "Ann", "C", null, null, "F"]});
    after.sixCountsBefore = [...early.game.counts];
    after.six = {order: six.seatOrder(), targets: six.exchangeTargets(), calls: [...six.game.calls],
                 passed: [...six.game.passed], score: new view.View({}).scoreText(six)};
    // Trichu: three people, then four hands; Ann deals and plays the dummy (seat 3)
    const three = new model.Model();
    for (const [name, fields] of [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Joined", {table: 3, seat: 1, nick: "Ann", seats: ["Ann", null, null]}],
      ["Tichu.Started", {table: 3, seat: 1, seats: ["Ann", "B", "C"], options: {variant: "trichu"}, teams: []}],
      ["Tichu.Seating", {table: 3, seats: ["Ann", "B", "dummy", "C"]}],
      ["Tichu.Dealt", {table: 3, seat: 1, cards: ["2j", "3j", "MJ"]}],
      ["Tichu.Hand", {table: 3, seat: 3, cards: ["Kp", "Ks", "DR"]}],
      ["Tichu.Table", {table: 3, seat: 1, names: ["Ann", "B", "dummy", "C"], phase: "play",
                       hand: ["2j", "3j", "MJ"], hand_counts: [3, 14, 3, 14], calls: [null, null, null, null],
                       trick: [], trick_won: false, turn: 3, need: "lead", wish: null, finish_order: [],
                       totals: [0, 0], round: 1, variant: "trichu", open_hand: ["Kp", "Ks", "DR"], plays: [1, 3]}],
      ["Tichu.Legal", {table: 3, seat: 3, commands: ["/dummy play Kp Ks", "/dummy play DR"], exchange: false}],
    ]) three.apply(name, fields);
    after.three = {seat: three.seat, dummySeat: three.dummySeat, hand: [...three.game.hand],
                   open: [...three.game.openHand], own: three.game.legal,
                   dummyMoves: three.game.otherLegal.commands.map((line) => view.commandLabel(line, three))};
    three.apply("Tichu.Played", {table: 3, seat: 3, player: "dummy", cards_left: 1, out_of_turn: false,
                                 combo: {type: "pair", cards: ["Kp", "Ks"], text: "pair of kings"}});
    after.three.openAfter = [...three.game.openHand];
    const watcher = new model.Model();
    watcher.apply("Tichu.Nick", {nick: "Wes", previous: null});
    watcher.apply("Tichu.SpectatorJoined", {table: 3, nick: "Wes", seats: ["Ann", "B", "C"]});
    watcher.apply("Tichu.OpenHand", {table: 3, seat: 3, cards: ["Ks", "2j"]});
    after.three.watcherSees = [...watcher.game.openHand];
    after.three.dummyLegalAfter = three.game.otherLegal;
    three.apply("Tichu.Score", {table: 3, rounds: 1, totals: [0, 0], turnier: false, scores: [60, 40, 0, 60],
                                dummy: 60, standings: [{player: "Ann", place: 1, points: 60},
                                                       {player: "B", place: 2, points: 40},
                                                       {player: "C", place: 3, points: 0}]});
    after.three.score = new view.View({}).scoreText(three);
    three.apply("Tichu.TableOpen", {table: 3, seats: ["Ann", "B", "C"], options: {variant: "trichu"}});
    after.three.afterGame = [three.seat, three.dummySeat, [...three.game.counts]];
    // Duo: two people, Ann plays seats 1 and 3 (her second hand, private), Bo 2 and 4
    const duo = new model.Model();
    const duoView = new view.View({});
    for (const [name, fields] of [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Joined", {table: 4, seat: 1, nick: "Ann", seats: ["Ann", null]}],
      ["Tichu.Joined", {table: 4, seat: 2, nick: "Bo", seats: ["Ann", "Bo"]}],
      ["Tichu.Started", {table: 4, seat: 1, seats: ["Ann", "Bo"], options: {variant: "duo"}, teams: [[1], [2]]}],
      ["Tichu.Dealt", {table: 4, seat: 1, cards: ["2j", "3j", "MJ"]}],
      ["Tichu.Dealt", {table: 4, seat: 3, cards: ["Kp", "Ks", "4r"]}],
      ["Tichu.Layout", {table: 4, variant: "duo", seat: 1, dummy: null, second: "second",
                        plays: [{seat: 1, prefix: "", exchange: [{to: 2, label: "right opponent"},
                                 {to: 3, label: "partner"}, {to: 4, label: "left opponent"}]},
                                {seat: 3, prefix: "/second ", exchange: [{to: 4, label: "right opponent"},
                                 {to: 1, label: "partner"}, {to: 2, label: "left opponent"}]}]}],
      ["Tichu.Legal", {table: 4, seat: 1, commands: ["/nogrand", "/grand"], exchange: false}],
      ["Tichu.Legal", {table: 4, seat: 3, commands: ["/second nogrand", "/second grand"], exchange: false}],
      ["Tichu.GrandDecided", {table: 4, seat: 3, player: "Ann", called: false}],
    ]) duo.apply(name, fields);
    after.duo = {seats: [...duo.seats], plays: [...duo.plays], dummySeat: duo.dummySeat, counts: duo.game.counts.length,
                 ownLegalAfterSecondDecided: duo.game.legal, secondLegalAfter: duo.game.otherLegal,
                 where: duo.seatOrder(), targets: [duo.exchangeTargets(), duo.exchangeTargets(3)]};
    for (const [name, fields] of [
      ["Tichu.Legal", {table: 4, seat: 3, commands: ["/second schupf 4r Kp Ks", "/second tichu"], exchange: true}],
    ]) duo.apply(name, fields);
    after.duo.exchangeAnnounced = duoView.announcement(duo);
    for (const [name, fields] of [
      ["Tichu.Received", {table: 4, seat: 3, cards: {"2": "Ar", "1": "5s", "4": "6s"},
                          given: {"2": "4r", "1": "Kp", "4": "Ks"}}],
      ["Tichu.Phase", {table: 4, phase: "play"}],
      ["Tichu.Turn", {table: 4, seat: 3, player: "Ann", by: "Ann", command: "second", need: "follow"}],
      ["Tichu.Legal", {table: 4, seat: 3, commands: ["/second play Ar", "/second pass"], exchange: false}],
    ]) duo.apply(name, fields);
    after.duo.second = [...duo.game.secondHand];
    after.duo.open = duo.game.openHand;
    after.duo.hand = [...duo.game.hand];
    after.duo.turn = duoView.announcement(duo);
    after.duo.moves = duo.game.otherLegal.commands.map((line) => view.commandLabel(line, duo));
    duo.apply("Tichu.Played", {table: 4, seat: 3, player: "Ann", cards_left: 13, out_of_turn: false,
                               combo: {type: "single", cards: ["Ar"], text: "single Ar"}});
    after.duo.secondAfterPlay = [...duo.game.secondHand];
    after.duo.names = [1, 2, 3, 4].map((seat) => duo.handName(seat));
    duo.apply("Tichu.Score", {table: 4, rounds: 1, totals: [50, 50], turnier: false,
                              standings: [{player: "Ann", place: 1, points: 50},
                                          {player: "Bo", place: 1, points: 50}]});
    after.duo.score = duoView.scoreText(duo);
    // coming back (a new page): RETURNED names the table's two people, then TABLE, then both HANDs
    const back = new model.Model();
    for (const [name, fields] of [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Returned", {table: 4, seat: 1, nick: "Ann", seats: ["Ann", "Bo"]}],
      ["Tichu.Table", {table: 4, seat: 1, names: ["Ann", "Bo", "Ann", "Bo"], phase: "play", hand: ["2j", "3j"],
                       hand_counts: [2, 14, 2, 14], calls: [null, null, null, null], trick: [], trick_won: false,
                       turn: 3, need: "lead", wish: null, finish_order: [], totals: [0, 0], round: 1,
                       variant: "duo", open_hand: null, plays: [1, 3]}],
      ["Tichu.Hand", {table: 4, seat: 1, cards: ["2j", "3j"]}],
      ["Tichu.Hand", {table: 4, seat: 3, cards: ["Kp", "Ks"]}],
    ]) back.apply(name, fields);
    after.duo.back = {hand: back.game.hand, second: back.game.secondHand, open: back.game.openHand,
                      dummySeat: back.dummySeat, turn: duoView.announcement(back)};
    // coming back mid-round: SCORE counts the round in play, TABLE says it is not over (bug 4)
    const mid = new model.Model();
    const midView = new view.View({});
    for (const [name, fields] of [
      ["Tichu.Nick", {nick: "Ann", previous: null}],
      ["Tichu.Returned", {table: 5, seat: 1, nick: "Ann", seats: ["Ann", "B", "C", "D"]}],
      ["Tichu.Score", {table: 5, rounds: 2, totals: [120, -20], standings: [], turnier: false}],
      ["Tichu.Table", {table: 5, seat: 1, names: ["Ann", "B", "C", "D"], phase: "play", hand: ["2j"],
                       hand_counts: [1, 3, 3, 3], calls: [null, null, null, null], trick: [], trick_won: false,
                       turn: 1, need: "lead", wish: null, finish_order: [], totals: [120, -20], round: 2,
                       result: null}],
    ]) mid.apply(name, fields);
    mid.options = {round: 3};
    after.mid = {score: midView.scoreText(mid), history: mid.scoreHistory};
    // a trick taken stays as the last one; the Dragon's gift is a moment; a check answers only
    // the selection it was asked for; suggestions belong to the legal list they came after
    for (const [name, fields] of [
      ["Tichu.Played", {table: 5, seat: 1, player: "Ann", cards_left: 0, out_of_turn: false,
                        combo: {type: "single", cards: ["DR"], text: "single Dragon"}}],
      ["Tichu.TrickWon", {table: 5, seat: 1, player: "Ann", leader: 2, points: 25}],
      ["Tichu.DragonGiven", {table: 5, seat: 1, to: 2, points: 25}],
    ]) mid.apply(name, fields);
    after.mid.last = mid.game.lastTrick;
    after.mid.moment = midView.momentWords(mid);
    mid.check = {seat: 1, cards: ["PH", "5j"], fields: null};
    mid.apply("Tichu.Check", {table: 5, seat: 1, cards: ["5s"], playable: true, plays: []});
    after.mid.staleCheck = mid.check.fields;
    mid.apply("Tichu.Check", {table: 5, seat: 1, cards: ["5j", "PH"], playable: true, how: "turn", name: "pair of fives",
                              plays: [{name: "pair of fives", command: "/play 5j PH", combo: {}}], why: null, reason: null});
    after.mid.verdict = midView.verdict(mid, null, ["PH", "5j"], 1);
    mid.apply("Tichu.Check", {table: 5, seat: 1, cards: ["5j", "PH"], playable: false, how: null, name: "pair of fives",
                              plays: [], why: "not_your_turn", reason: "not your turn"});
    after.mid.refused = midView.verdict(mid, null, ["PH", "5j"], 1);
    mid.apply("Tichu.Legal", {table: 5, seat: 1, commands: ["/play 2j", "/pass"], exchange: false});
    mid.apply("Tichu.Suggest", {table: 5, seat: 1, need: "follow", pass: "/pass", bombs: [],
                                plays: [{name: "single 2j", command: "/play 2j", combo: {cards: ["2j"]}}]});
    after.mid.suggestedNow = mid.suggestions[1].legal === mid.game.legal;
    mid.apply("Tichu.Turn", {table: 5, seat: 2, player: "B", need: "follow"});
    after.mid.suggestedAfterTurn = mid.suggestions;
    mid.apply("Tichu.Away", {table: 5, seat: 1, nick: "Ann", grace: null});
    after.mid.held = mid.held;
    done({
      sockets: [link.socketUrl({protocol: "http:", host: "127.0.0.1:4280"}),
                link.socketUrl({protocol: "https:", host: "tichu.example:4281"})],
      text: box.textContent,
      spans,
      labels: codes.map((code) => cards.card(code).label),
      words: codes.map((code) => cards.card(code).words),
      sorted: cards.sortCards(["DR", "Ar", "2s", "PH", "MJ", "DG", "2j", "Tp"]),
      commandCards: cards.commandCards("/play 7j 7s PH=7 wish 9"),
      after,
    });
  },
  (error) => done({error: String(error)}));
"""


def run_modules(url: str) -> dict:
    driver = start_browser()
    try:
        driver.set_script_timeout(STEP_TIMEOUT)
        driver.get(url + "tichu.css")  # any page of the origin: the modules import from there
        return driver.execute_async_script(SCRIPT)
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_the_modules_in_chromium():
    port = reactor().listenTCP(0, Site(File(str(STATIC))), interface="127.0.0.1")
    try:
        url = f"http://127.0.0.1:{port.getHost().port}/"
        result = await threads.deferToThread(run_modules, url).addTimeout(6 * STEP_TIMEOUT, reactor())
    finally:
        await port.stopListening()
    assert "error" not in result, result
    assert result["sockets"] == ["ws://127.0.0.1:4280/ws", "wss://tichu.example:4281/ws"]
    assert result["text"] == "Your cards: 7j DR plain."
    assert result["spans"] == [["ansi-32", "7j"], ["ansi-31 ansi-bold", "DR"]]
    assert result["labels"] == ["2 jade", "10 star", "10 star", "A sword", "Q pagoda", "K jade", "Mahjong", "Dog",
                                "Phoenix", "Phoenix as 9", "Dragon"]
    assert result["words"][:6] == ["2 of Jade", "10 of Star", "10 of Star", "Ace of Sword", "Queen of Pagoda",
                                   "King of Jade"]
    assert result["sorted"] == ["DG", "MJ", "2j", "2s", "Tp", "Ar", "PH", "DR"]
    assert result["commandCards"] == {"cards": ["7j", "7s", "PH=7"], "rest": ["wish", "9"]}
    after = result["after"]
    assert after["moves"] == [
        ["Play", ["5p", "5r"], ""], ["Pass", [], ""], ["No wish", [], ""], ["Wish for 10", [], ""],
        ["Give the trick to B (seat 2)", [], ""], ["No Grand Tichu", [], ""], ["Call Tichu", [], ""]]
    assert after["legalAfterOwnDecision"] is None
    # 8 + 6 dealt, 2s DR DG given, Qp Qr 6s received, 5p PH played
    assert after["hand"] == ["MJ", "3j", "4j", "5r", "6s", "9j", "Ts", "Qp", "Qr", "Kj", "Aj", "Ar"]
    assert after["counts"] == [12, 12, 9, 14]
    assert after["trickAfterBomb"] == [1, 2, 3]  # the bomb lands on the won trick
    assert after["trickAfterLead"] == [3]  # the next lead starts a new one
    assert after["unencrypted"] == {"tlsPort": 4281}
    assert after["standIns"] == {"B": "basic"} and after["standInsAfter"] == {}
    assert after["seatAfterSeating"] == 2  # turnier's next round seats Ann in seat 2
    assert after["atTableAfterLeaving"] is False
    six = after["six"]
    assert six["order"] == [2, 3, 4, 5, 6, 1] and six["targets"] == [4, 6]
    assert six["calls"] == [None] * 5 + ["tichu"] and six["passed"] == [False] * 5 + [True]
    assert six["score"] == "Score after 1 of 1 rounds: B + C + E 120, Ann + D + F -20."
    three = after["three"]
    assert (three["seat"], three["dummySeat"]) == (1, 3)
    assert three["hand"] == ["MJ", "2j", "3j"] and three["open"] == ["Ks", "Kp", "DR"]  # the dummy's apart
    assert three["own"] is None  # the dummy's legal moves are not ours
    assert three["dummyMoves"] == [["Dummy: Play", ["Kp", "Ks"], ""], ["Dummy: Play", ["DR"], ""]]
    assert three["openAfter"] == ["DR"] and three["dummyLegalAfter"] is None
    assert three["watcherSees"] == ["2j", "Ks"]  # OPEN_HAND: everyone's from the play phase
    assert three["score"] == "Score after 1 round: Ann 60, B 40, C 0; the dummy 60."
    assert three["afterGame"][:2] == [1, None] and len(three["afterGame"][2]) == 3  # the table's 3 seats again
    assert after["sixCountsBefore"] == [None] * 6  # /variant tientsin: the table's lists grow with it
    duo = after["duo"]
    assert duo["seats"] == ["Ann", "Bo", "Ann", "Bo"] and duo["counts"] == 4  # the game's 4 hands
    assert duo["plays"] == [1, 3] and duo["dummySeat"] == 3 and duo["where"] == [1, 2, 3, 4]
    assert duo["targets"] == [[2, 3, 4], [4, 1, 2]]
    # the second hand's Grand Tichu (its GRAND_DECIDED names Ann too) leaves Ann's own choice open
    assert duo["ownLegalAfterSecondDecided"] == {"commands": ["/nogrand", "/grand"], "exchange": False}
    assert duo["secondLegalAfter"] is None
    assert duo["exchangeAnnounced"] == "Exchange: pick the second hand's cards, then pass them."
    # dealt 4r Kp Ks, passed on, Ar 5s 6s received: kept apart from her own, never an open hand
    assert duo["second"] == ["5s", "6s", "Ar"] and duo["open"] is None and duo["hand"] == ["MJ", "2j", "3j"]
    assert duo["turn"] == "Your second hand's turn (seat 3): play."
    assert duo["moves"] == [["Second hand: Play", ["Ar"], ""], ["Second hand: Pass", [], ""]]
    assert duo["secondAfterPlay"] == ["5s", "6s"]
    assert duo["names"] == ["Ann (seat 1)", "Bo (seat 2)", "Ann (seat 3)", "Bo (seat 4)"]
    assert duo["score"] == "Score after 1 round: Ann 50, Bo 50."  # each person once
    mid = after["mid"]
    assert mid["score"] == "Score after 1 of 3 rounds: Ann + C 120, B + D -20."  # round 2 is in play
    assert mid["history"] == [{"rounds": 1, "totals": [120, -20]}]
    assert mid["last"]["seat"] == 1 and mid["last"]["to"] == 2 and mid["last"]["plays"][0]["combo"]["cards"] == ["DR"]
    assert mid["moment"] == "The Dragon: Ann gives the trick to B."
    assert mid["staleCheck"] is None  # an answer about other cards is not the selection's
    assert mid["verdict"] == {"label": "Play: pair of fives", "line": "/play 5j PH"}
    assert mid["refused"] == {"label": "Cannot play: not your turn", "line": None}
    assert mid["suggestedNow"] is True and mid["suggestedAfterTurn"] == {}
    assert mid["held"] == {"table": 5, "seat": 1}
    assert duo["back"] == {"hand": ["2j", "3j"], "second": ["Ks", "Kp"], "open": None, "dummySeat": 3,
                           "turn": "Your second hand's turn (seat 3): lead."}
