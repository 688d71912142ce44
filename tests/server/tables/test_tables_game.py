"""Whole games at a table, played by four people choosing among /legal commands.

The lobby runs on a fake clock with the real game wiring and seeded random
generators, so every game here is the same on every run.  The driver asks all
four players for /legal, picks one command (biased towards bombs out of turn,
the Dog, the Dragon, the Mahjong's wish), and after every command checks that
no client was told a card it may not know.

`GameDriver` and `Chooser` are also used by the loopback TCP tests.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from random import Random

from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.engine import bombs, classify, parse_cards
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.server.lobby import Lobby
from bswtichu.service import build_lobby

from lobby_clients import Client

NAMES = ("Ann", "Bob", "Cy", "Dan")
PRIVATE = {"DEALT", "RECEIVED", "HAND"}


# ---------------------------------------------------------------------- choosing


def is_exchange(command: str) -> bool:
    """Whether a LEGAL entry is the exchange (a suggested pass; a test may pass other cards)."""
    return command.startswith("/schupf ")


def card_tokens(command: str) -> str:
    """The cards of a /play or /bomben command, without any wish."""
    words = command.split()[1:]
    if "wish" in words:
        words = words[: words.index("wish")]
    return " ".join(words)


def is_bomb(command: str) -> bool:
    text = card_tokens(command)
    cards = parse_cards(re.sub(r"=\S+", "", text))
    phoenix = re.search(r"PH=(\S+)", text)
    if phoenix:
        return False  # a bomb never holds the Phoenix
    return classify(cards, None).is_bomb


class Chooser:
    """Picks one (player, command) among everyone's legal commands, deterministically.

    It prefers the commands whose handling we want to see: bombs (sent as /bomben),
    the Dog, the Dragon, the Mahjong with a wish (alternately inline, ``/play MJ
    wish R``, and as a separate ``/wish``), and the Dragon gift.
    """

    def __init__(self, seed: int) -> None:
        self.rng = Random(seed)
        self.mahjong_plays = 0

    def kind(self, command: str) -> str:
        word, *rest = command.split()
        if word == "/play":
            cards = card_tokens(command).split()
            if is_bomb(command):
                return "bomb"
            if cards == ["DG"]:
                return "dog"
            if cards == ["DR"]:
                return "dragon"
            if "MJ" in cards:
                return "mahjong"
            return "play"
        return word.lstrip("/")

    def pick(self, options: list[tuple[int, str]]) -> tuple[int, str]:
        """``options``: (player index, command); returns the command to send, spelled out."""
        mine: dict[int, list[tuple[str, str]]] = {}
        for who, command in sorted(options):
            mine.setdefault(who, []).append((command, self.kind(command)))
        favourite, ordinary, calls = [], [], []
        for who, commands in mine.items():
            kinds = {kind for _, kind in commands}
            out_of_turn = kinds <= {"bomb", "tichu"}
            bomb_cards = {card for command, kind in commands if kind == "bomb"
                          for card in card_tokens(command).split()}
            spare = [(c, k) for c, k in commands if k not in ("tichu", "grand")
                     and not bomb_cards & set(card_tokens(c).split())]
            for command, kind in commands:
                if kind in ("tichu", "grand"):
                    calls.append((who, command, kind))
                elif kind in ("dog", "dragon", "mahjong", "give", "wish") or (kind == "bomb" and out_of_turn):
                    favourite.append((who, command, kind))
            # ordinary plays keep the player's bombs whole when they can
            ordinary += [(who, c, k) for c, k in spare or commands if k not in ("tichu", "grand")]
        if favourite and self.rng.random() < 0.8:
            who, command, kind = self.rng.choice(favourite)
        elif calls and (not ordinary or self.rng.random() < 0.05):
            who, command, kind = self.rng.choice(calls)
        else:
            if not ordinary:
                ordinary = favourite
            who = self.rng.choice(sorted({k[0] for k in ordinary}))
            who, command, kind = self.rng.choice([k for k in ordinary if k[0] == who])
        if kind == "bomb":
            command = "/bomben " + card_tokens(command)
        elif kind == "mahjong":
            self.mahjong_plays += 1
            if self.mahjong_plays % 2 == 1:
                command += " wish " + self.rng.choice("23456789TJQKA")
        return who, command

    def exchange(self, hand: list[str]) -> str:
        """Three cards to pass, never one of a bomb (so that bombs stay in play)."""
        in_bombs = {c.text for bomb in bombs(parse_cards(" ".join(hand))) for c in bomb.cards}
        spare = [card for card in hand if card not in in_bombs]
        return "/schupf " + " ".join(self.rng.sample(spare if len(spare) >= 3 else hand, 3))


# ---------------------------------------------------------------------- secrecy


class Recorder:
    """Keeps every `Message` sent to a session (text and fields, before rendering)."""

    def __init__(self, session) -> None:
        self.messages: list = []
        original, original_all = session.send, session.send_all
        inside_all = []  # send_all may send each message with send: counted once

        def send(message) -> None:
            if not inside_all:
                self.messages.append(message)
            original(message)

        def send_all(messages) -> None:  # a game step's messages, in one call
            self.messages.extend(messages)
            inside_all.append(True)
            try:
                original_all(messages)
            finally:
                inside_all.pop()

        session.send, session.send_all = send, send_all

    def take(self) -> list:
        out, self.messages = self.messages, []
        return out


# cards the server's usage hints name as examples (e.g. "write rank then suit (7j, Tr, 10r, As)")
EXAMPLE_CARDS = {"7j", "7s", "Tr", "As", "2j", "9s", "3p", "MJ", "DG", "PH", "DR"}
CARD_TOKEN = re.compile(r"(?<![\w-])(?:[2-9TJQKA][jspr]|MJ|DG|PH|DR)(?![\w-])")  # not inside a resume token


def mentioned_cards(message) -> set[str]:
    """Every card token (7j, Tr, PH, ...) in the message's text or fields."""
    found = set()
    for text in (message.text, json.dumps(message.fields, ensure_ascii=False)):
        found.update(CARD_TOKEN.findall(text))
    return found


class SecrecyCheck:
    """After each command: nobody was told a card that still sits, unplayed, in another hand."""

    def __init__(self, lobby: Lobby, table: int, players: dict[str, Client], watchers: list[Client]):
        self.lobby = lobby
        self.number = table
        self.players = players
        self.watchers = watchers
        self.recorders = {id(c): Recorder(c.session) for c in [*players.values(), *watchers]}
        self.before = self.hands()
        self.checked = Counter()
        self.typed: set[str] = set()  # card tokens in the command being checked

    def hands(self) -> dict[str, set[str]]:
        table = self.lobby.tables.get(self.number)
        game = None if table is None else table.game
        if game is None or game.game.round is None:
            return {}
        return {name: {c.text for c in game.game.round.hands[seat]}
                for seat, name in enumerate(game.game.seating)}

    def after_command(self) -> None:
        after = self.hands()
        before, self.before = self.before, after
        sent = {id(c): self.recorders[id(c)].take() for c in [*self.players.values(), *self.watchers]}
        played = set()
        for messages in sent.values():
            for message in messages:
                if message.keyword == "PLAYED":
                    played.update(message.fields["combo"]["cards"])
        names = set(before) | set(after)
        for name, client in self.players.items():
            own = before.get(name, set()) | after.get(name, set())
            secret = set()
            for other in names - {name}:
                secret |= before.get(other, set()) | after.get(other, set())
            secret -= own | played
            self._check(name, sent[id(client)], secret, private_seat=name)
        everything = set().union(*before.values(), *after.values()) - played if names else set()
        for watcher in self.watchers:
            self._check(watcher.session.nick, sent[id(watcher)], everything, private_seat=None)

    def _check(self, who: str, messages: list, secret: set[str], private_seat: str | None) -> None:
        table = self.lobby.tables.get(self.number)
        game = None if table is None else table.game
        for message in messages:
            self.checked[message.keyword] += 1
            if message.keyword in PRIVATE:
                assert private_seat is not None, f"spectator {who} got {message}"
                seating = game.game.seating if game is not None else None
                if seating is not None:
                    assert seating[message.fields["seat"] - 1] == private_seat, (who, message)
            named = mentioned_cards(message)
            if message.keyword == "ERROR":
                named -= EXAMPLE_CARDS | self.typed  # usage examples, and what the sender typed
            leaked = sorted(secret & named)
            assert not leaked, f"{who} was told {leaked}, held by another player: {message}"


# ---------------------------------------------------------------------- the driver


class GameDriver:
    """Four clients at table ``number`` play until GAME_OVER, choosing among /legal."""

    def __init__(self, lobby: Lobby, players: list[Client], chooser: Chooser, number: int = 1,
                 watchers: list[Client] = (), clock: Clock | None = None, bot_delay: float = 0):
        self.lobby = lobby
        self.players = players
        self.chooser = chooser
        self.number = number
        self.clock = clock
        self.bot_delay = bot_delay
        self.secrecy = SecrecyCheck(lobby, number, {p.session.nick: p for p in players}, list(watchers))
        self.log: dict[str, list[tuple[str, dict]]] = {p.session.nick: [] for p in players}
        self.watched: list[tuple[str, dict]] = []
        self.watchers = list(watchers)
        self.sent: list[str] = []
        self.game_over: dict | None = None

    def join(self, client: Client) -> None:
        """A client (e.g. a player back on a new connection) whose messages are checked too."""
        nick = client.session.nick
        client.clear()
        self.secrecy.players[nick] = client
        self.secrecy.recorders[id(client)] = Recorder(client.session)
        self.log[nick] = []

    def collect(self) -> None:
        new = []
        for player in self.players:
            got = player.received()
            self.log[player.session.nick] += got
            new += got
            player.clear()
        for watcher in self.watchers:
            got = watcher.received()
            self.watched += got
            new += got
            watcher.clear()
        self.secrecy.after_command()
        for keyword, fields in new:
            if keyword == "GAME_OVER":
                self.game_over = fields

    def legal(self, player: Client) -> list[str]:
        player.say("/legal")
        answer = player.received()
        player.clear()
        assert [k for k, _ in answer] == ["LEGAL"], answer
        return answer[0][1]["commands"]

    def send(self, player: Client, line: str) -> list[tuple[str, dict]]:
        """Send one line; returns what that player got (everyone's messages are checked)."""
        self.collect()
        self.secrecy.typed = set(CARD_TOKEN.findall(line))
        player.say(line)
        got = player.received()
        self.collect()
        self.secrecy.typed = set()
        return got

    def say(self, player: Client, line: str) -> list[tuple[str, dict]]:
        """Send one command that must not be refused; returns what that player got."""
        got = self.send(player, line)
        errors = [fields for keyword, fields in got if keyword == "ERROR"]
        assert not errors, f"{player.session.nick} {line!r} refused: {errors}"
        self.sent.append(line)
        return got

    def options(self) -> list[tuple[int, str]]:
        """(player index, command) for every player's /legal commands."""
        options = []
        for index, player in enumerate(self.players):
            options += [(index, command) for command in self.legal(player)]
        return options

    def play_until(self, wanted, max_steps: int = 5000) -> list[tuple[int, str]]:
        """Play on until ``wanted(options)`` holds for the legal options; returns them."""
        for _ in range(max_steps):
            options = self.options()
            if wanted(options):
                return options
            assert self.game_over is None, "the game ended first"
            self.step(options)
        raise AssertionError("never reached")

    def step(self, options=None) -> bool:
        """One command by one player; False once nobody has anything to do."""
        if options is None:
            options = self.options()
        if not options:
            return False
        index, command = self.chooser.pick(options)
        player = self.players[index]
        if is_exchange(command):
            player.say("/hand")
            hand = player.only("HAND")["cards"]
            player.clear()
            command = self.chooser.exchange(hand)
        self.say(player, command)
        return True

    def play(self, max_steps: int = 20000) -> dict:
        for _ in range(max_steps):
            if self.game_over is not None:
                return self.game_over
            if not self.step():
                if self.clock is None:
                    raise AssertionError("nobody can act and no bot may move")
                self.clock.advance(self.bot_delay)
                self.collect()
        raise AssertionError("the game did not end")

    def everything(self, name: str) -> list[tuple[str, dict]]:
        return self.log[name]

    def count(self, keyword: str, **fields) -> int:
        return sum(1 for k, f in self.watched if k == keyword
                   and all(f.get(a) == b for a, b in fields.items()))


def features(driver: GameDriver) -> Counter:
    """What happened that the bad corners of the wiring are about."""
    seen = Counter()
    for command in driver.sent:
        word = command.split()[0]
        if word == "/play" and " wish " in command:
            seen["play_wish"] += 1
        elif word in ("/bomben", "/give", "/wish"):
            seen[word[1:]] += 1
    for keyword, fields in driver.watched:
        if keyword == "PLAYED":
            cards = fields["combo"]["cards"]
            if fields["out_of_turn"]:
                seen["out_of_turn_bomb"] += 1
            if cards == ["DG"]:
                seen["dog"] += 1
            if cards == ["DR"]:
                seen["dragon"] += 1
        elif keyword in ("DRAGON_GIVEN", "WISH", "WISH_FULFILLED"):
            seen[keyword] += 1
    return seen


EXPECTED_FEATURES = ("play_wish", "wish", "bomben", "give", "out_of_turn_bomb", "dog", "dragon",
                     "DRAGON_GIVEN", "WISH", "WISH_FULFILLED")


# ---------------------------------------------------------------------- fixtures


def seeded_lobby(tmp_path, seed: int, clock: Clock | None = None, bot_delay: float = 1.0,
                 grace: float = 60.0) -> Lobby:
    clock = clock or Clock()
    seeds = Random(seed)
    config = ServerConfig(reconnect_grace=grace, log_folder=str(tmp_path / "logs"), bot_delay=bot_delay)
    wiring = GameWiring(clock, GameLogStore(config.log_folder), bot_delay, grace,
                        seeds=lambda: seeds.getrandbits(64))
    return build_lobby(clock, config, wiring, wiring.logs)


def seat_four(lobby: Lobby, options: list[str], names=NAMES) -> list[Client]:
    players = [Client(lobby, name) for name in names]
    players[0].say("/join")
    for player in players[1:]:
        player.say("/join 1")
    for line in options:
        players[0].say(line)
    for player in players:
        player.clear()
    return players


def start_game(lobby: Lobby, options: list[str], seed: int, watch: bool = True):
    players = seat_four(lobby, options)
    watchers = []
    if watch:
        eve = Client(lobby, "Eve")
        eve.say("/watch 1")
        eve.clear()
        watchers.append(eve)
    driver = GameDriver(lobby, players, Chooser(seed), watchers=watchers)
    players[0].say("/start")
    driver.collect()
    return driver


# ---------------------------------------------------------------------- the tests


def test_round_two_game_played_to_the_end(tmp_path):
    driver = start_game(seeded_lobby(tmp_path, 5), ["/round 2"], seed=1)
    over = driver.play()
    assert driver.count("ROUND_END") == 2
    scores = [f for k, f in driver.watched if k == "SCORE"]
    assert [s["rounds"] for s in scores] == [1, 2]
    assert over["table"] == 1 and over["log"] == 1
    totals = scores[-1]["totals"]
    if totals[0] != totals[1]:
        expected = {0: ["Ann", "Cy"], 1: ["Bob", "Dan"]}[0 if totals[0] > totals[1] else 1]
        assert sorted(over["winners"]) == expected
    for name, messages in driver.log.items():
        keywords = [k for k, _ in messages]
        assert keywords.count("ROUND_END") == 2
        assert keywords.count("GAME_OVER") == 1
        assert keywords[-1] == "TABLE_OPEN"
    seen = features(driver)
    for feature in EXPECTED_FEATURES:
        assert seen[feature] >= 1, (feature, seen)
    assert driver.lobby.tables.get(1).state == "finished"  # shown as finished until the next /start


def test_thousand_point_game_played_to_the_end(tmp_path):
    driver = start_game(seeded_lobby(tmp_path, 2), [], seed=2)
    over = driver.play()
    scores = [f for k, f in driver.watched if k == "SCORE"]
    assert scores[-1]["rounds"] == driver.count("ROUND_END") >= 2
    totals = scores[-1]["totals"]
    assert max(totals) >= 1000 and totals[0] != totals[1]
    assert all(max(s["totals"]) < 1000 or s["totals"][0] == s["totals"][1] for s in scores[:-1])
    team = ["Ann", "Cy"] if totals[0] > totals[1] else ["Bob", "Dan"]
    assert sorted(over["winners"]) == team
    seen = features(driver)
    for feature in EXPECTED_FEATURES:
        assert seen[feature] >= 1, (feature, seen)


def test_turnier_nine_rounds_with_seating_and_standings(tmp_path):
    driver = start_game(seeded_lobby(tmp_path, 0), ["/turnier on"], seed=0)
    over = driver.play()
    seatings = [f["seats"] for k, f in driver.watched if k == "SEATING"]
    assert len(seatings) == 8  # each round after the first: the first's is STARTED's
    partners = Counter()
    rounds = [f for k, f in driver.watched if k in ("SEATING", "ROUND_END")]
    current = None
    for keyword, fields in driver.watched:
        if keyword in ("STARTED", "SEATING"):
            current = fields["seats"]
        elif keyword == "ROUND_END":
            partners[frozenset(current[0::2])] += 1
            partners[frozenset(current[1::2])] += 1
    assert rounds and driver.count("ROUND_END") == 9
    # everyone partners everyone three times
    assert sorted(partners.values()) == [3] * 6
    scores = [f for k, f in driver.watched if k == "SCORE"]
    assert [s["rounds"] for s in scores] == list(range(1, 10))
    assert all(s["turnier"] and len(s["standings"]) == 4 for s in scores)
    assert not any(k == "GRAND_DECIDED" or (k == "TICHU" and f["grand"]) for k, f in driver.watched)
    standings = over["standings"]
    assert [s["player"] for s in standings] and sorted(s["player"] for s in standings) == sorted(NAMES)
    assert standings == scores[-1]["standings"]
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)
    best = [s["player"] for s in standings if s["place"] == 1]
    assert sorted(over["winners"]) == sorted(best)
    seen = features(driver)
    for feature in EXPECTED_FEATURES:
        assert seen[feature] >= 1, (feature, seen)


def test_secret_cards_reach_only_their_seat(tmp_path):
    """DEALT, RECEIVED and HAND go to their own seat only; spectators get none."""
    driver = start_game(seeded_lobby(tmp_path, 4), ["/round 1"], seed=4)
    driver.play()
    checked = driver.secrecy.checked
    assert checked["DEALT"] >= 8 and checked["RECEIVED"] == 4 and checked["PLAYED"] > 20
    assert not any(k in PRIVATE for k, _ in driver.watched)
    for name, messages in driver.log.items():
        dealt = [f for k, f in messages if k == "DEALT"]
        assert dealt and all(NAMES[f["seat"] - 1] == name for f in dealt)
        assert sum(len(f["cards"]) for f in dealt) == 14
