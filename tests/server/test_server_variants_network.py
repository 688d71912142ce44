"""Whole games of Tientsin, Trichu and Duo over real loopback TCP: one person on the line port
in machine mode (playing his own hand and, when he deals in Trichu, the dummy's with /dummy; in
Duo always his second hand, with /second),
bots in the other seats, a telnet spectator who is told no card before it is played.
"""

from __future__ import annotations

import json
from random import Random

import pytest
import pytest_twisted

from test_server_game_network import PLAYED_TEXT, GameServer, tokens, watch
from test_net_network import reactor

TIMEOUT = 10


def check_spectator(client) -> list[str]:
    """The telnet spectator was told no card before it was played, but the dummy's open hand."""
    text = client.raw.replace(b"\r\n", b"\n").decode("utf-8", "replace").split("\n")
    public: set[str] = set()
    for line in text:
        played = PLAYED_TEXT.search(line)
        if played:
            public |= set((played.group(1) or played.group(2)).split())
        if line.startswith("The dummy's open hand"):
            public |= tokens(line)
        leaked = tokens(line) - public
        assert not leaked, f"the spectator was told {sorted(leaked)}: {line}"
    return text


class Person:
    """A line-port client that keeps every message it read."""

    def __init__(self, client) -> None:
        self.client = client
        self.messages: list[tuple[str, dict]] = []

    async def ask(self, line: str, *keywords: str) -> tuple[str, dict]:
        """Send ``line``; the last of the messages up to the next of ``keywords``."""
        self.client.send(line)
        for raw in await self.client.until(*keywords):
            keyword, _, payload = raw.partition(" ")
            self.messages.append((keyword, json.loads(payload)))
        return self.messages[-1]

    def over(self) -> dict | None:
        return next((f for k, f in self.messages if k == "GAME_OVER"), None)

    async def commands(self, line: str) -> list[str]:
        keyword, fields = await self.ask(line, "LEGAL", "ERROR")
        if keyword == "ERROR":
            assert fields["code"] in ("no_second_hand", "no_game"), fields
            return []
        return fields["commands"]


async def spelled(person: Person, command: str) -> str:
    """An exchange command with the first cards of the hand it is for."""
    words = command.split()
    slots = [w for w in words if w.startswith("C") and w[1:].isdigit()]
    if not slots:
        return command
    _, hand = await person.ask(f"{words[0]} hand" if words[0] in ("/dummy", "/second") else "/hand", "HAND")
    return " ".join(words[:len(words) - len(slots)] + hand["cards"][:len(slots)])


async def play_alone_with_bots(person: Person, rng: Random, max_steps: int = 20000) -> dict:
    """The person acts whenever one of his hands may (no calls, no bombs out of turn: those
    would race the bots); otherwise he waits for news."""
    for _ in range(max_steps):
        own = await person.commands("/legal")
        if person.over() is not None:
            return person.over()
        seen = len(person.messages)
        second = await person.commands("/second legal")  # Trichu's /dummy by its other name
        news = any(k not in ("LEGAL", "ERROR") for k, _ in person.messages[seen:])
        choices = [c for c in own + second if c.split()[-1] not in ("/tichu", "/grand", "tichu", "grand")
                   and "bomben" not in c]
        if choices:
            command = await spelled(person, rng.choice(choices))
            before = len(person.messages)
            keyword, fields = await person.ask(command + "\n/legal", "LEGAL", "ERROR")
            # refused only where a bot bombed out of turn since the /legal (the one race there is)
            bombed = any(k == "PLAYED" and f["out_of_turn"] for k, f in person.messages[before:])
            assert keyword != "ERROR" or fields["code"] == "no_game" or bombed, (command, fields)
        elif not news and not person.client.lines:  # a bot is to move (nothing came since /legal)
            await person.client.news()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant, rounds, bots", [("tientsin", 1, 5), ("trichu", 3, 2), ("duo", 2, 1)])
@pytest_twisted.ensureDeferred
async def test_a_whole_variant_game_over_tcp_with_one_person_and_bots(tmp_path, variant, rounds, bots):
    async with GameServer(tmp_path, seed=31) as server:
        client = await server.connect("line")
        client.send("/mode machine")
        client.send("/nick Ann")
        await client.wait_for(lambda line: line.startswith("NICK ")).addTimeout(TIMEOUT, reactor())
        client.lines.clear()
        ann = Person(client)
        await ann.ask("/join", "JOINED")
        keyword, option = await ann.ask(f"/variant {variant}", "OPTION", "ERROR")
        assert option["options"]["variant"] == variant
        await ann.ask(f"/round {rounds}", "OPTION")
        for _ in range(bots):
            await ann.ask("/bot", "BOT_JOINED", "JOINED", "ERROR")
        eve = await watch(server)
        _, started = await ann.ask("/start", "STARTED")
        assert len(started["seats"]) == bots + 1
        over = await play_alone_with_bots(ann, Random(8))
        assert len(over["standings"]) == bots + 1
        keywords = [k for k, _ in ann.messages]
        assert keywords.count("ROUND_END") == rounds
        if variant == "trichu":  # Ann dealt one round in three, and played the dummy then
            assert any(f["seat"] == 3 for k, f in ann.messages if k == "DEALT")
            final = [f for k, f in ann.messages if k == "SCORE"][-1]
            assert len(final["scores"]) == 4 and final["dummy"] == final["scores"][-1]
        elif variant == "duo":  # Ann plays seats 1 and 3 all game, with /second for seat 3
            assert started["teams"] == [[1], [2]]
            assert {f["seat"] for k, f in ann.messages if k in ("DEALT", "HAND")} == {1, 3}
            turns = [f for k, f in ann.messages if k == "TURN" and f["seat"] == 3]
            assert turns and all(f["by"] == "Ann" and f["command"] == "second" for f in turns)
            assert any(c.startswith("/second ") for k, f in ann.messages if k == "LEGAL" and f["seat"] == 3
                       for c in f["commands"])
        else:
            assert started["teams"] == [[1, 3, 5], [2, 4, 6]]
            assert all(len(f["hand_counts"]) == 6 for k, f in ann.messages if k == "TABLE")
        await eve.wait_for(lambda line: line.startswith("Game over at table 1")).addTimeout(
            TIMEOUT, reactor())
        text = check_spectator(eve)
        assert (variant == "trichu") == any(line.startswith("The dummy's open hand") for line in text)
        assert sum(" played" in line for line in text) > 20
