"""A bot written from docs/PROTOCOL.md alone plays whole games over real loopback TCP.

It does only what the protocol document tells a bot author: `/mode machine` first and
nothing read until `MODE`, a name, a table, and then its loop: "on `LEGAL`, pick one of its
`commands`" (with `/legal push on`), or "on `TURN` naming you or `PHASE grand`/`exchange`,
send `/legal` and pick one". It always picks the first entry, which the document promises
"plays on and calls nothing", the exchange included. Any `ERROR` fails the test at once.
"""

from __future__ import annotations

import json

import pytest
import pytest_twisted

from test_server_game_network import GameLineClient, GameServer


class FirstEntryBot:
    """The bot of PROTOCOL.md's "A bot's loop", taking the first of LEGAL's commands."""

    def __init__(self, client: GameLineClient, nick: str, push: bool, mode: str = "machine") -> None:
        self.client = client
        self.nick = nick
        self.push = push
        self.mode = mode  # relay: the same lines, each with the sentence a person reads (`human`)
        self.sent: list[str] = []
        self.read: list[tuple[str, dict]] = []  # every message read, in order
        self.over: dict | None = None  # GAME_OVER's fields

    def send(self, line: str) -> None:
        self.sent.append(line)
        self.client.send(line)

    async def reply(self, keyword: str) -> dict:
        """The next message of ``keyword`` (what comes before it is read and dropped)."""
        return json.loads((await self.client.until(keyword))[-1].partition(" ")[2])

    async def sit_down(self, setup: list[str]) -> None:
        self.send(f"/mode {self.mode}")
        await self.client.until("MODE")
        self.send(f"/nick {self.nick}")
        await self.reply("NICK")
        if self.push:
            self.send("/legal push on")
            await self.reply("LEGAL_PUSH")
        for line in setup:
            self.send(line)

    async def play(self) -> dict:
        """Answer every message as the document says until GAME_OVER; its fields."""
        while True:
            for line in await self.client.until(*KEYWORDS):
                keyword, _, payload = line.partition(" ")
                fields = json.loads(payload) if payload.startswith("{") else {}
                self.read.append((keyword, fields))
                assert keyword != "ERROR", (fields, self.sent[-3:])
                if keyword == "GAME_OVER":
                    return fields
                if keyword == "LEGAL" and fields["commands"]:
                    self.send(fields["commands"][0])
                elif not self.push and (keyword == "PHASE" and fields["phase"] in ("grand", "exchange")
                                        or keyword == "TURN" and fields["player"] == self.nick):
                    self.send("/legal")


KEYWORDS = ("LEGAL", "PHASE", "TURN", "ERROR", "GAME_OVER")


async def first_entry_game(server: GameServer, variant: str, rounds: int, bots: int, push: bool = True,
                           mode: str = "machine") -> FirstEntryBot:
    """DocBot alone with ``bots`` bots at a new table of ``variant``: a whole game played by its
    first LEGAL entries; the bot, which has read every message."""
    bot = FirstEntryBot(await server.connect("line"), "DocBot", push, mode)
    await bot.sit_down(["/join", f"/variant {variant}", f"/round {rounds}", *["/bot"] * bots, "/start"])
    bot.over = await bot.play()
    return bot


@pytest.mark.parametrize("variant, rounds, bots, push", [
    ("nanjing", 1, 3, True), ("nanjing", 1, 3, False), ("tientsin", 1, 5, True), ("trichu", 3, 2, True),
    ("duo", 1, 1, True),
])
@pytest_twisted.ensureDeferred
async def test_a_bot_from_the_protocol_alone_plays_a_whole_game_through_the_exchange(
        tmp_path, variant, rounds, bots, push):
    async with GameServer(tmp_path, seed=31) as server:
        bot = await first_entry_game(server, variant, rounds, bots, push)
        assert [entry["player"] for entry in bot.over["standings"]].count("DocBot") == 1
        passed = [line for line in bot.sent if "schupf" in line]  # /schupf, /dummy schupf, /second schupf
        assert len(passed) >= rounds and all("C1" not in line for line in passed)
