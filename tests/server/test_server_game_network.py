"""Whole games end to end over real loopback TCP: bot-port clients in machine mode play
by choosing among /legal, while a person on the telnet port watches.

To avoid races between connections, after a command on one connection the driver sends
/legal on that same connection and waits for its LEGAL before it asks the others: the
server handles lines one at a time, so by then everything that command caused has been
written to every connection, ahead of the answers to the next /legal.  Every awaited
Deferred has a timeout, so a hang fails one test instead of stalling the run.
"""

from __future__ import annotations

import json
import re
from random import Random

import pytest_twisted
from twisted.internet.defer import Deferred

from bswtichu.config import ServerConfig
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import makeService
from bswtichu.tch import read_tch
from bswtichu.tch.replay import replay_round

from test_tables_game import CARD_TOKEN, EXAMPLE_CARDS, Chooser, is_exchange
from test_net_network import LOOPBACK_LISTENERS, LineClient, reactor

TIMEOUT = 10
PRIVATE = ("DEALT", "RECEIVED", "HAND")
# a line in human mode that shows played cards: "... played: pair of sevens [7j 7s] (12 cards left).",
# or a single by its card alone: "... played: single 7j (13 cards left)."
PLAYED_TEXT = re.compile(r" played(?: out of turn)?: (?:single (\S+)|.*\[([^\]]*)\])")


class GameLineClient(LineClient):
    """A LineClient that can also wait for "any new data" and keeps lines in order."""

    def __init__(self) -> None:
        super().__init__()
        self._news: list[Deferred] = []

    def dataReceived(self, data: bytes) -> None:
        super().dataReceived(data)
        waiting, self._news = self._news, []
        for waiter in waiting:
            waiter.callback(None)

    def news(self) -> Deferred:
        waiter: Deferred = Deferred()
        self._news.append(waiter)
        return waiter.addTimeout(TIMEOUT, reactor())

    async def until(self, *keywords: str) -> list[str]:
        """The lines up to and including the next one starting with one of ``keywords``."""
        starts = tuple(keyword + " " for keyword in keywords)
        while True:
            for index, line in enumerate(self.lines):
                if line.startswith(starts):
                    chunk = self.lines[: index + 1]
                    del self.lines[: index + 1]
                    return chunk
            await self.news()


def tokens(text: str) -> set[str]:
    return set(CARD_TOKEN.findall(text))


class GameServer:
    """The real service on loopback with a seeded game wiring and fast limits for bots."""

    def __init__(self, tmp_path, seed: int, bot_delay: float = 0.0, game_clock=None, **settings) -> None:
        """``game_clock``: the clock the games' timers run on (bots, turn clocks); the reactor's
        unless a test drives a `Clock` itself. ``settings``: more `ServerConfig` values."""
        self.config = ServerConfig(
            listeners=LOOPBACK_LISTENERS, log_folder=str(tmp_path / "logs"),
            line_flood_rate=100000.0, line_flood_burst=100000, bot_delay=bot_delay, **settings)
        seeds = Random(seed)
        self.wiring = GameWiring(game_clock or reactor(), GameLogStore(self.config.log_folder), bot_delay,
                                 self.config.reconnect_grace,
                                 seeds=lambda: seeds.getrandbits(64))
        self.service = makeService(self.config, reactor(), self.wiring)
        self.clients: list[LineClient] = []

    async def __aenter__(self) -> GameServer:
        self.service.startService()
        self.ports = await self.service.whenListening().addTimeout(TIMEOUT, reactor())
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.service.stopService().addTimeout(TIMEOUT, reactor())
        for client in self.clients:
            await client.lost.addTimeout(TIMEOUT, reactor())

    async def connect(self, port_name: str) -> LineClient:
        from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol

        port = self.ports[port_name].getHost().port
        endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", port)
        client = await connectProtocol(endpoint, GameLineClient()).addTimeout(TIMEOUT, reactor())
        client.transport.setTcpNoDelay(True)
        self.clients.append(client)
        await client.wait_for(lambda line: line.startswith("Limits:")).addTimeout(TIMEOUT, reactor())
        client.lines.clear()
        return client

    async def player(self, nick: str) -> Player:
        client = await self.connect("line")
        client.send("/mode machine")
        client.send(f"/nick {nick}")
        await client.wait_for(lambda line: line.startswith("NICK ")).addTimeout(TIMEOUT, reactor())
        client.lines.clear()
        return Player(nick, client)


class Player:
    """A bot-port client: reads its lines in order and checks that it sees only what it may."""

    def __init__(self, nick: str, client: LineClient) -> None:
        self.nick = nick
        self.client = client
        self.messages: list[tuple[str, dict]] = []
        self.known: set[str] = set()  # its own cards, ever
        self.public: set[str] = set()  # cards played so far
        self.seat: int | None = None  # in the current round's seating
        self.typed: set[str] = set()

    def send(self, line: str) -> None:
        self.typed = tokens(line)
        self.client.send(line)

    async def until(self, *keywords: str) -> list[tuple[str, dict]]:
        """Every message up to and including the next of ``keywords``, checked in order."""
        return [self._read(line) for line in await self.client.until(*keywords)]

    def over(self) -> dict | None:
        return next((f for k, f in self.messages if k == "GAME_OVER"), None)

    async def legal(self, bots_may_have_moved: bool = False) -> list[str]:
        """The player's /legal commands; none once the game is over (no game: one ERROR).

        With ``bots_may_have_moved``, a refusal that follows another seat's move (a bot
        acts between a person's lines: its move may land between this player's last
        /legal and his command) is the game's race and allowed; any other fails.
        """
        self.send("/legal")
        got = await self.until("LEGAL", "ERROR")
        keyword, fields = got[-1]
        if keyword == "ERROR":
            assert fields["code"] == "no_game" and self.over() is not None, (self.nick, got)
            return []
        errors, others_moved = [], False
        for k, f in got:
            if k in ("PLAYED", "PASSED") and f["seat"] != self.seat:
                others_moved = True
            elif k == "ERROR" and not (bots_may_have_moved and others_moved):
                errors.append(f)
        assert not errors, (self.nick, errors)
        return fields["commands"]

    def _read(self, line: str) -> tuple[str, dict]:
        keyword, _, payload = line.partition(" ")
        fields = json.loads(payload)
        self.messages.append((keyword, fields))
        if keyword == "SEATING":
            self.seat = fields["seats"].index(self.nick) + 1
        elif keyword == "STARTED" and self.seat is None:
            self.seat = fields["seats"].index(self.nick) + 1
        if keyword in PRIVATE:
            assert fields["seat"] == self.seat, (self.nick, line)
            cards = fields["cards"]
            self.known |= set(cards.values() if isinstance(cards, dict) else cards)
        if keyword == "PLAYED":
            self.public |= set(fields["combo"]["cards"])
        allowed = self.known | self.public
        if keyword == "ERROR":
            allowed |= EXAMPLE_CARDS | self.typed
        leaked = tokens(payload) - allowed
        assert not leaked, f"{self.nick} was told {sorted(leaked)}: {line}"
        return keyword, fields


def check_watcher(client: LineClient) -> list[str]:
    """The telnet spectator got only CRLF lines and no card before it was played."""
    raw = re.sub(rb"\xff[\xfb-\xfe].", b"", client.raw)  # telnet negotiation, if any
    assert raw.endswith(b"\r\n")
    lines = raw.split(b"\r\n")[:-1]
    assert all(b"\r" not in line and b"\n" not in line for line in lines)
    text = [line.decode("utf-8") for line in lines]
    public: set[str] = set()
    for line in text:
        played = PLAYED_TEXT.search(line)
        if played:
            public |= set((played.group(1) or played.group(2)).split())
        leaked = tokens(line) - public
        assert not leaked, f"the spectator was told {sorted(leaked)}: {line}"
    return text


async def drive(players: list[Player], chooser: Chooser, max_steps: int = 20000) -> dict:
    """Play until GAME_OVER: every player is asked /legal, one command is sent."""
    sent: list[str] = []
    for _ in range(max_steps):
        options = []
        for index, player in enumerate(players):
            options += [(index, command) for command in await player.legal()]
        if players[0].over() is not None:
            return {"over": players[0].over(), "sent": sent}
        assert options, "nobody can act"
        index, command = chooser.pick(options)
        player = players[index]
        if is_exchange(command):
            player.send("/hand")
            hand = (await player.until("HAND"))[-1][1]["cards"]
            command = chooser.exchange(hand)
        player.send(command)
        sent.append(command)
        await player.legal()  # everything the command caused is now on every connection
    raise AssertionError("the game did not end")


async def seat(server: GameServer, names, options: list[str]) -> list[Player]:
    players = [await server.player(name) for name in names]
    players[0].send("/join")
    await players[0].until("JOINED")
    for player in players[1:]:
        player.send("/join 1")
        await player.until("JOINED")
    for line in options:
        players[0].send(line)
        await players[0].until("OPTION")
    return players


async def watch(server: GameServer) -> LineClient:
    eve = await server.connect("telnet")
    eve.send("/nick Eve")
    eve.send("/watch 1")
    await eve.wait_for(lambda line: line == "Eve is watching table 1.").addTimeout(TIMEOUT, reactor())
    return eve


@pytest_twisted.ensureDeferred
async def test_four_tcp_clients_play_a_round_two_game_while_telnet_watches(tmp_path):
    async with GameServer(tmp_path, seed=21) as server:
        players = await seat(server, ["Ann", "Bob", "Cy", "Dan"], ["/round 2"])
        eve = await watch(server)
        players[0].send("/start")
        await players[0].until("GAME")
        result = await drive(players, Chooser(1))
        over = result["over"]
        for player in players:
            keywords = [k for k, _ in player.messages]
            assert keywords.count("ROUND_END") == 2 and keywords.count("SCORE") == 2
            assert keywords.count("GAME_OVER") == 1
            assert len(player.known) >= 14  # its own hands (and no one else's: see Player._read)
        commands = " ".join(c.split()[0] for c in result["sent"])
        assert "/bomben" in commands and "/give" in commands and "/wish" in commands
        # the log of the game over TCP too
        ann = players[0]
        ann.send(f"/log {over['log']}")
        log = (await ann.until("LOG"))[-1][1]
        game = read_tch(log["text"])
        assert all(replay_round(r, n).ok for n, r in enumerate(game.rounds, start=1))
        # the spectator saw the game end, in CRLF lines, without a secret card
        await eve.wait_for(lambda line: line.startswith("Game over at table 1")).addTimeout(
            TIMEOUT, reactor())
        text = check_watcher(eve)
        assert sum(" played" in line for line in text) > 20
        assert not any(line.startswith(("Your first 8", "Your last 6", "You received", "You passed ")) for line in text)


@pytest_twisted.ensureDeferred
async def test_a_turnier_over_tcp_with_two_people_and_two_bots(tmp_path):
    async with GameServer(tmp_path, seed=0) as server:
        ann, bob = await server.player("Ann"), await server.player("Bob")
        ann.send("/join")
        await ann.until("JOINED")
        bob.send("/join 1")
        await bob.until("JOINED")
        for line in ("/bot", "/bot random", "/turnier on"):
            ann.send(line)
            await ann.until("OPTION" if line.startswith("/turnier") else "JOINED")
        eve = await watch(server)
        ann.send("/start")
        await ann.until("GAME")
        over = await drive_with_bots([ann, bob], Chooser(0))
        scores = [f for k, f in ann.messages if k == "SCORE"]
        assert [s["rounds"] for s in scores] == list(range(1, 10))
        seatings = [f["seats"] for k, f in ann.messages if k == "SEATING"]
        assert len(seatings) >= 3
        assert over["standings"] == scores[-1]["standings"]
        assert sorted(s["player"] for s in over["standings"]) == sorted(
            ["Ann", "Bob", "bot-basic-Ada", "bot-random-Bea"])
        await eve.wait_for(lambda line: line.startswith("Game over at table 1")).addTimeout(
            TIMEOUT, reactor())
        text = check_watcher(eve)
        assert sum(line.startswith("Seating for this round") for line in text) == len(seatings)
        assert sum(" played" in line for line in text) > 100


async def drive_with_bots(players: list[Player], chooser: Chooser, max_steps: int = 20000) -> dict:
    """People act only on their own turn (the bots then wait for them); otherwise wait for news."""
    for _ in range(max_steps):
        for index, player in enumerate(players):
            commands = await player.legal()
            if player.over() is not None:
                for other in players:  # the others read the game's end too (their last SCORE)
                    if other.over() is None:
                        await other.until("GAME_OVER")
                return player.over()
            mine = [c for c in commands if chooser.kind(c) not in ("bomb", "tichu")]
            if not mine:
                continue
            _, command = chooser.pick([(index, c) for c in mine])
            if is_exchange(command):
                player.send("/hand")
                command = chooser.exchange((await player.until("HAND"))[-1][1]["cards"])
            player.send(command)
            await player.legal(bots_may_have_moved=True)
            break
        else:
            # none of us may act: a bot is to move; wait for news unless some came already
            if not any(player.client.lines for player in players):
                await players[0].client.news()
    raise AssertionError("the game did not end")
