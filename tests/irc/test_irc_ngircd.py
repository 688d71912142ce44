"""End to end against a real IRC server, ngircd (Debian package ngircd), and the real
game service: two IRC users and two bots play a whole `round 1` game through the
channel, and a third IRC user in the channel never sees a card before it is played.

ngircd runs in the foreground from a generated config in a tmp dir, on a free
loopback port. The players drive the game by asking the bridge for their legal
commands (privately) and sending one, alternately in the channel and in private.
After each command the same player asks again, so the server has handled the
command before anyone else is asked: the server reads one connection in order.
"""

from __future__ import annotations

import os
import sys
from random import Random

import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.protocol import ProcessProtocol

from irc_support import (
    PASSWORD, PLAYED, TIMEOUT, GameServer, Ngircd, RunningBridge, card_tokens, irc_user, leave,
    reactor, timed,
)

BRIDGE = "tichubot"
EXAMPLE_CARDS = {"7j", "7s", "Tr", "As", "2j", "9s", "3p", "MJ", "DG", "PH", "DR"}  # in usage hints
#: replies to "legal all"; not any "error:", which may be the refusal of the command sent before
#: (a bot moved in between): taken as this reply, it left every later reply one step stale
REPLY_STARTS = ("Legal now", "Nothing to do", "error: no game runs")


def from_bridge_to(nick: str, starts: tuple[str, ...]):
    return lambda h: h[1] == BRIDGE and h[2] == nick and h[3].startswith(starts)


def in_channel(containing: str):
    return lambda h: h[1] == BRIDGE and h[2] == "#tichu" and containing in h[3]


class IrcPlayer:
    """An IRC user who plays through the bridge."""

    def __init__(self, user, rng: Random):
        self.user = user
        self.nick = user.nickname
        self.rng = rng
        self.typed: set[str] = set()
        self.sent = 0

    def command(self, text: str) -> None:
        """Send a command, by turns as !command in the channel and as a private line."""
        self.typed |= card_tokens(text)
        self.sent += 1
        if self.sent % 2:
            self.user.msg("#tichu", "!" + text.lstrip("/!"))
        else:
            self.user.msg(BRIDGE, text)

    async def ask(self, line: str, starts: tuple[str, ...]) -> str:
        self.user.msg(BRIDGE, line)
        return (await self.user.wait(from_bridge_to(self.nick, starts), TIMEOUT))[3]

    async def legal(self) -> list[str]:
        """The commands the bridge says are legal now (none after the game), as typed on IRC (!play)."""
        reply = await self.ask("legal all", REPLY_STARTS)
        if not reply.startswith("Legal now"):
            return []
        listed = reply.partition(": ")[2].split(" | ")
        if len(reply.encode()) > 300:
            listed = listed[:-1]  # the reply went on in another line: the last may be cut
        assert not [c for c in listed if c.startswith("/")], reply  # /play is an IRC command there
        return [c for c in listed if c.startswith("!")]

    async def exchange_command(self) -> str:
        hand = await self.ask("hand", ("Your hand",))
        cards = hand.partition(": ")[2].split()
        return "!schupf " + " ".join(self.rng.sample(cards, 3))


class BridgedChannel:
    """ngircd (skips the test without it), the game server, and the bridge in #tichu with
    Cy watching the channel; leaving stops the bridge, the users, ngircd and the server."""

    def __init__(self, tmp_path, **settings) -> None:
        """``settings``: the game server's, besides the test defaults."""
        self.tmp_path = tmp_path
        self.settings = settings
        self.ircd = Ngircd(tmp_path)
        self.users: list = []
        self.bridge = None

    async def __aenter__(self) -> BridgedChannel:
        self.game = await GameServer(self.tmp_path, **self.settings).start()
        try:
            await self.ircd.start()
            self.cy = await self.user("Cy")
            self.bridge = await RunningBridge(self.ircd.address, self.game.line_address).start(self.cy)
        except BaseException:
            await self._stop()
            raise
        return self

    async def user(self, nick: str):
        """An IRC user in #tichu (left at the end)."""
        user = await irc_user(self.ircd.address, nick, "#tichu")
        self.users.append(user)
        return user

    async def __aexit__(self, *exc_info) -> None:
        await self._stop()

    async def _stop(self) -> None:
        try:
            if self.bridge is not None:
                await self.bridge.stop()
        finally:
            for user in self.users:
                await leave(user)
            await self.ircd.stop()
            await self.game.stop()


@pytest_twisted.ensureDeferred
async def test_two_irc_users_and_two_bots_play_a_round_one_game(tmp_path):
    async with BridgedChannel(tmp_path) as s:
        ann, bob = await s.user("Ann"), await s.user("Bob")
        await play_round_one_game(s.cy, ann, bob)


async def play_round_one_game(cy, ann, bob) -> None:
    rng = Random(11)
    players = [IrcPlayer(ann, rng), IrcPlayer(bob, rng)]
    ann.msg("#tichu", "!join")
    await ann.wait(from_bridge_to("Ann", ("Ann sits down at table 1, seat 1",)))
    ann.msg("#tichu", "!round 1")
    await cy.wait(in_channel("Ann sets round 1 at table 1"))
    bob.msg(BRIDGE, "join 1")  # a private line needs no ! or /
    await cy.wait(in_channel("Bob sits down at table 1, seat 2"))  # the channel tells it, once
    ann.msg("#tichu", "!bot")
    ann.msg("#tichu", "!bot random")
    await cy.wait(in_channel("Ann seats a random bot"))
    bob.msg("#tichu", "!start")
    await cy.wait(in_channel("Table 1 starts: seat 1 Ann"))

    over = False
    for _ in range(3000):
        options = []
        for player in players:
            options += [(player, command) for command in await player.legal()]
        if any("Game over at table 1" in text for text in cy.told(BRIDGE)):
            over = True
            break
        if not options:
            continue  # the bots are acting
        player, command = rng.choice(options)
        if command.startswith("!schupf "):  # LEGAL suggests a pass: pass others at random
            command = await player.exchange_command()
        player.command(command)
    assert over, "the game did not end"
    assert not await_left_over_errors(players)
    assert not turns_before_the_play_to_beat(players)
    check_secrecy(cy, ann, bob)


def await_left_over_errors(players) -> list[str]:
    """Errors told to a player for a command he sent (a stale choice would show here).

    Bots act between the players' lines, so a bot's move may land between a player's
    "legal all" and his command, which is then refused as it would be for anyone. An
    error after a table event reached the player since his last "Legal now" is
    explained (one connection keeps the bridge's order); any other is not.
    """
    errors = []
    for player in players:
        moved_since_legal = False
        for _, sender, target, text in player.user.heard:
            if sender != BRIDGE:
                continue
            if target == player.nick and text.startswith("Legal now"):
                moved_since_legal = False
            elif target == "#tichu" and text.startswith("[table 1] "):
                moved_since_legal = True
            elif target == player.nick and text.startswith("error:") and "no game runs" not in text:
                if not moved_since_legal:
                    errors.append(text)
    return errors


def turns_before_the_play_to_beat(players) -> list[int]:
    """Where a player was told to play higher before the channel showed him what to beat.

    Between two turns of his, someone else must have played for him to follow; the
    bridge keeps the game's order per user, so that play is in the channel first.
    """
    early = []
    for player in players:
        other_played = True
        for index, (_, sender, target, text) in enumerate(player.user.heard):
            if sender != BRIDGE:
                continue
            if target == "#tichu":
                for piece in text.split(" | "):
                    piece = piece.removeprefix("[table 1] ")
                    if " played" in piece and not piece.startswith(f"{player.nick} ("):
                        other_played = True
            elif target == player.nick and text.startswith("Your turn"):
                if text.startswith("Your turn: play higher") and not other_played:
                    early.append(index)
                other_played = False
    return early


def public_cards(lines: list[str]) -> list[set[str]]:
    """For each channel line, the cards shown as played up to and including it."""
    seen: set[str] = set()
    out = []
    for line in lines:
        for played in PLAYED.finditer(line):
            seen |= set((played.group(1) or played.group(2)).split())
        out.append(set(seen))
    return out


def check_secrecy(cy, ann, bob) -> None:
    channel = [h[3] for h in cy.heard if h[1] == BRIDGE and h[2] == "#tichu"]
    assert not [h for h in cy.heard if h[1] == BRIDGE and h[2] == "Cy"], "Cy was told something privately"
    played_by_then = public_cards(channel)
    assert any("[table 1] " in line and " played" in line for line in channel)
    for line, public in zip(channel, played_by_then):
        leaked = card_tokens(line) - public
        assert not leaked, f"the channel was shown {sorted(leaked)} before it was played: {line}"
    # each player was told his own cards privately, and the other's never (but as played or passed)
    for me, other in ((ann, bob), (bob, ann)):
        mine = [h[3] for h in me.heard if h[1] == BRIDGE and h[2] == me.nickname]
        assert any(text.startswith("Your last 6 cards") or text.startswith("Your 14 cards") for text in mine)
        dealt = set()
        for text in [h[3] for h in other.heard if h[1] == BRIDGE and h[2] == other.nickname]:
            if text.startswith(("Your first 8 cards", "Your last 6 cards")):
                dealt |= card_tokens(text.partition(": ")[2])
        told = set()
        for text in mine:
            told |= card_tokens(text)
        public = played_by_then[-1] | EXAMPLE_CARDS
        received = set()
        for text in mine:
            if text.startswith(("You received", "You passed")):  # the exchange: what came to him
                received |= card_tokens(text)
        assert not (told & dealt) - public - received - EXAMPLE_CARDS, (me.nickname, sorted((told & dealt) - public - received))


@pytest_twisted.ensureDeferred
async def test_quits_nick_changes_and_an_irc_server_that_comes_back(tmp_path):
    async with BridgedChannel(tmp_path) as s:
        ircd, cy = s.ircd, s.cy
        factory = s.bridge.factory
        factory.initialDelay = factory.delay = 0.5  # come back quickly, but after Cy
        factory.factor, factory.jitter = 1.0, 0
        ann, bob = await s.user("Ann"), await s.user("Bob")
        ann.msg("#tichu", "!join")
        await ann.wait(from_bridge_to("Ann", ("Ann sits down at table 1",)))
        bob.msg("#tichu", "!join 1")
        await cy.wait(in_channel("Bob sits down at table 1"))  # the channel tells it, once

        # a nick change: still the same player at the same table
        bob.setNick("Bobby")
        await cy.wait(lambda h: h[0] == "NICK" and h[3] == "Bobby")
        bob.nickname = "Bobby"
        bob.msg(BRIDGE, "option")
        await bob.wait(from_bridge_to("Bobby", ("Table 1 options:",)))

        # a quit is a disconnect: the seat is held, and a returning Ann takes it back
        await leave(ann)
        await cy.wait(in_channel("Ann (seat 1) is away"))
        ann = await s.user("Ann")
        ann.msg("#tichu", "!join 1")
        await cy.wait(in_channel("Ann is back at table 1, seat 1"))

        # the IRC server goes away and comes back: the bridge reconnects and rejoins
        await ircd.stop()
        for user in s.users:
            await timed(user.lost)
        await ircd.start(ircd.port)
        cy = await s.user("Cy")
        await cy.wait(lambda h: h[0] == "JOIN" and h[1] == BRIDGE)
        ann = await s.user("Ann")
        ann.msg(BRIDGE, "join 1")
        await ann.wait(from_bridge_to("Ann", ("Ann is back at table 1, seat 1",)))


class BridgeProcess(ProcessProtocol):
    """`bswtichu irc` as a separate program."""

    def __init__(self) -> None:
        self.output = b""
        self.ended: Deferred = Deferred()

    def outReceived(self, data: bytes) -> None:
        self.output += data

    errReceived = outReceived

    def processEnded(self, reason) -> None:
        self.ended.callback(reason.value.exitCode)


@pytest_twisted.ensureDeferred
async def test_the_bswtichu_irc_command_bridges_and_leaves_cleanly_on_sigterm(tmp_path):
    ircd = Ngircd(tmp_path)  # skips here without ngircd, before anything runs
    game = await GameServer(tmp_path).start()
    await ircd.start()
    users = []
    process = BridgeProcess()
    try:
        cy = await irc_user(ircd.address, "Cy", "#tichu")
        users.append(cy)
        ini = tmp_path / "bridge.ini"
        ini.write_text(f"[listen]\nline = tcp:0\n\n[irc]\nchannel = #tichu\npassword = {PASSWORD}\n"
                       f"game = {game.line_address}\nburst = 20\nline_interval = 0.1\n")
        argv = [sys.executable, "-c", "import sys; from bswtichu.cli import main; sys.exit(main())",
                "irc", "--config", str(ini), "--server", ircd.address, "--nick", BRIDGE]
        reactor().spawnProcess(process, sys.executable, argv, env=dict(os.environ), path=str(tmp_path))
        await cy.wait(lambda h: h[0] == "JOIN" and h[1] == BRIDGE, 30)
        ann = await irc_user(ircd.address, "Ann", "#tichu")
        users.append(ann)
        ann.msg("#tichu", "!join")
        await ann.wait(from_bridge_to("Ann", ("Ann sits down at table 1",)))
        await cy.wait(in_channel("[table 1] seats: 1 Ann"))
        process.transport.signalProcess("TERM")
        quit_ = await cy.wait(lambda h: h[0] == "QUIT" and h[1] == BRIDGE)
        assert "bswtichu bridge stopping" in quit_[3]
        assert await timed(process.ended) == 0, process.output.decode()
        assert b"Traceback" not in process.output, process.output.decode()
    finally:
        if not process.ended.called and process.transport is not None:
            process.transport.signalProcess("KILL")
            await timed(process.ended)
        for user in users:
            await leave(user)
        await ircd.stop()
        await game.stop()
