"""Whole sessions over real loopback TCP, byte for byte as recorded (issue 32: behaviour unchanged).

Five scripted scenes against the server as the service wires it (`build_lobby`, a `GameWiring`
with storage, real line and telnet ports on 127.0.0.1), its tables and games on a `Clock`
and every game seeded: a 4-player game (with a relay player and a telnet spectator reading
the human sentences), a Trichu game, a Duo game, a moderation session and a review session.
Every client's received bytes are kept raw and whole, in order; ``golden/SCENE.bin`` holds one
section per client, each opened by a line ``=== client NAME (kind, mode, address) N bytes``.

The script is deterministic: one line at a time, and before the next line is sent the server
has answered it (each line is followed by ``/mode`` and the script waits for that reply, which
the server sends only after the line's effects). Plays are chosen from the server's own
``/legal`` answers (the first legal command of the first hand, in seat order, that has one:
so out-of-turn bombs are played as soon as a combination lies on the table). Bots act only
when the script advances the Clock. Timestamps come from the Clock (the storage's too).
The one value random per run, a guest's resume token (``secrets`` in storage, with no way to
inject a source), is replaced by ``<resume-token>``; nothing else is normalised.

    BSWTICHU_RECORD_TRANSCRIPTS=1 python -m pytest tests/transcripts   # rewrite the golden files
    python -m pytest tests/transcripts                                 # compare with them

On a difference the test fails with a unified diff of the first client section that differs
(truncated). Record only on a main whose behaviour is the reference.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path
from random import Random

import pytest
import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.protocol import Protocol
from twisted.internet.task import Clock

from bswtichu.config import ServerConfig
from bswtichu.net.kinds import kind_named
from bswtichu.server.tables.wiring import GameWiring
from bswtichu.server.games.logs import GameLogStore
from bswtichu.service import build_lobby
from bswtichu.storage import ScryptCost, Storage
from bswtichu.storage.accounts import hash_password

GOLDEN = Path(__file__).parent / "golden"
RECORD = os.environ.get("BSWTICHU_RECORD_TRANSCRIPTS") == "1"
TIMEOUT = 10  # seconds for every awaited Deferred
START = 1_790_000_000.0  # the Clock's time at the start: a date in 2026
CHEAP = ScryptCost(n=2 ** 8)  # the same scrypt, cheap enough for tests
DELAY = 1.0  # a bot's delay on the Clock
MAX_STEPS = 3000  # more game steps than this: the script is stuck
CALLS = ("/tichu", "/grand")  # never chosen from /legal: the scripts call them where they want
#: IAC SB ... IAC SE, IAC WILL/WONT/DO/DONT option, IAC GA, IAC EOR: not text
TELNET_COMMAND = re.compile(rb"\xff\xfa(?:[^\xff]|\xff\xff)*\xff\xf0|\xff[\xfb-\xfe].|\xff[\xf9\xef]", re.S)
#: a guest's resume token, as machine mode and as the sentence give it
TOKEN = re.compile(rb'"token":"([A-Za-z0-9_-]+)"|resume token for \S+ is ([A-Za-z0-9_-]+)\.')
UNLIMITED = dict(flood_rate=100000.0, flood_burst=100000, line_flood_rate=100000.0, line_flood_burst=100000,
                 byte_rate=1e9, byte_burst=10 ** 8, line_byte_rate=1e9, line_byte_burst=10 ** 8)


def reactor():
    from twisted.internet import reactor as installed

    return installed


class Peer(Protocol):
    """One client: keeps every byte it receives, and its lines (telnet commands taken out)."""

    def __init__(self, name: str, kind: str, address: str) -> None:
        self.name, self.kind, self.address = name, kind, address
        self.mode = "human"
        self.raw = bytearray()
        self.lines: list[str] = []
        self.marks = 0  # `/mode` replies received so far
        self.asked = 0  # `/mode` replies the script waits for
        self._pending = b""
        self._waiters: list[tuple[int, Deferred]] = []
        self.lost: Deferred = Deferred()

    def dataReceived(self, data: bytes) -> None:
        self.raw += data
        self._pending = TELNET_COMMAND.sub(b"", self._pending + data)
        *complete, self._pending = self._pending.split(b"\r\n")
        for line in complete:
            text = line.decode("utf-8", "replace")
            self.lines.append(text)
            if text.startswith(("MODE {", "Mode: ")):
                self.marks += 1
        self._check()

    def connectionLost(self, reason: object = None) -> None:
        self.lost.callback(None)

    def _check(self) -> None:
        ready = [(count, waiter) for count, waiter in self._waiters if self.marks >= count]
        self._waiters = [pair for pair in self._waiters if pair not in ready]
        for _, waiter in ready:
            waiter.callback(None)

    async def say(self, line: str) -> list[str]:
        """Send ``line``; once the server has answered it, the lines received since the
        previous answer (this one's reply among them, last)."""
        start = len(self.lines)
        self.asked += 1 + line.lower().startswith("/mode")
        self.transport.write(line.encode("utf-8") + b"\r\n/mode\r\n")
        waiter = Deferred().addTimeout(TIMEOUT, reactor())
        self._waiters.append((self.asked, waiter))
        self._check()
        await waiter
        return self.lines[start:]

    def header(self) -> bytes:
        return f"=== client {self.name} ({self.kind}, {self.mode}, {self.address})".encode()


def machine(lines: list[str], keyword: str) -> list[dict]:
    """The fields of the machine-mode (or relay) messages ``keyword`` among ``lines``."""
    found = []
    for line in lines:
        key, _, payload = line.partition(" ")
        if key == keyword and payload.startswith("{"):
            found.append(json.loads(payload))
    return found


class Scene:
    """``async with Scene(tmp_path, seed) as scene``: the lobby on a Clock behind a line and a
    telnet port of 127.0.0.1; ``claimed``: admins the operator claimed (name: password)."""

    def __init__(self, tmp_path: Path, seed: int, claimed: dict[str, str] | None = None) -> None:
        self.clock = Clock()
        self.clock.advance(START)
        self.config = ServerConfig(log_folder=str(tmp_path / "logs"), bot_delay=DELAY, **UNLIMITED)
        self.storage = Storage.open(cost=CHEAP, now=self.clock.seconds)
        for name, password in (claimed or {}).items():
            self.storage.admins.claim(name, hash_password(password, CHEAP))
        seeds = Random(seed)
        self.wiring = GameWiring(self.clock, GameLogStore(self.config.log_folder), DELAY,
                                 self.config.reconnect_grace, seeds=lambda: seeds.getrandbits(64),
                                 storage=self.storage)
        self.lobby = build_lobby(self.clock, self.config, self.wiring, self.wiring.logs, storage=self.storage)
        self.peers: list[Peer] = []

    async def __aenter__(self) -> Scene:
        self.ports = {kind: reactor().listenTCP(0, kind_named(kind).build(self.lobby, self.config, reactor()),
                                                interface="127.0.0.1")
                      for kind in ("line", "telnet")}
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self.lobby.shutdown("the transcript ends")
        for port in self.ports.values():
            await port.stopListening()
        for peer in self.peers:
            await peer.lost.addTimeout(TIMEOUT, reactor())
        self.storage.close()

    async def connect(self, name: str, address: str, mode: str = "machine", kind: str = "line") -> Peer:
        """A client of the ``kind`` port from ``address`` (127.0.0.0/8), greeted, in ``mode``."""
        endpoint = TCP4ClientEndpoint(reactor(), "127.0.0.1", self.ports[kind].getHost().port,
                                      bindAddress=(address, 0))
        peer = await connectProtocol(endpoint, Peer(name, kind, address)).addTimeout(TIMEOUT, reactor())
        self.peers.append(peer)
        await peer.say("/mode")  # the greeting comes first: its last line starts "Limits:"
        if mode != "human":
            await peer.say(f"/mode {mode}")
            peer.mode = mode
        return peer

    async def person(self, name: str, address: str, mode: str = "machine", kind: str = "line") -> Peer:
        """A guest called ``name``."""
        peer = await self.connect(name, address, mode, kind)
        await peer.say(f"/nick {name}")
        return peer

    def transcript(self) -> bytes:
        """Every client's bytes, one section each, its resume tokens replaced."""
        sections = []
        for peer in self.peers:
            raw = bytes(peer.raw)
            for found in TOKEN.finditer(raw):
                raw = raw.replace(found.group(1) or found.group(2), b"<resume-token>")
            sections.append(peer.header() + f" {len(raw)} bytes\n".encode() + raw + b"\n")
        return b"".join(sections)


class Hand:
    """A hand the script plays: ``peer``'s own, or (``prefix`` ``/dummy`` or ``/second``) the
    one he plays besides it, if he has one this round."""

    def __init__(self, peer: Peer, prefix: str = "", tichu: bool = False) -> None:
        """``tichu``: the hand calls Tichu the first time `legal` offers it."""
        self.peer, self.prefix, self.tichu = peer, prefix, tichu
        self.held: bool | None = None if prefix else True  # unknown until asked this round

    async def legal(self) -> list[str]:
        """The command lines this hand may send now (none if not its moment, or no such hand)."""
        if self.held is False:
            return []
        reply = await self.peer.say(f"{self.prefix} legal" if self.prefix else "/legal")
        refused = machine(reply, "ERROR")
        if refused and refused[-1]["code"] == "no_second_hand":
            self.held = False
            return []
        found = machine(reply, "LEGAL")
        if self.tichu and found and any(command.endswith("/tichu") for command in found[-1]["commands"]):
            self.tichu = False
            return [command for command in found[-1]["commands"] if command.endswith("/tichu")]
        return [command for command in (found[-1]["commands"] if found else []) if not command.endswith(CALLS)]

    async def act(self, command: str) -> list[str]:
        """Send ``command`` (as `legal` spelled it: a second hand's with its prefix)."""
        reply = await self.peer.say(command)
        assert not machine(reply, "ERROR"), (self.peer.name, command, reply)
        return reply


async def play_out(hands: list[Hand], clock: Clock | None = None) -> int:
    """Play the table's game to its end: each step, the first hand with a legal command sends
    the first one; with none, bots have the move (``clock`` advanced by their delay). The log
    number of the finished game."""
    for _ in range(MAX_STEPS):
        for hand in hands:
            commands = await hand.legal()
            if commands:
                reply = await hand.act(commands[0])
                break
        else:
            assert clock is not None, "nobody may act and there are no bots"
            clock.advance(DELAY)
            reply = await hands[0].peer.say("/score")
        if machine(reply, "ROUND_END") or machine(reply, "SEATING"):
            for hand in hands:
                hand.held = None if hand.prefix else True
        over = machine(reply, "GAME_OVER")
        if over:
            return over[0]["log"]
    raise AssertionError("the game did not end")


async def seat(people: list[Peer]) -> None:
    """The first opens table 1, the others join it in order."""
    await people[0].say("/join")
    for peer in people[1:]:
        await peer.say("/join 1")


# -- the scenes ---------------------------------------------------------------------------


async def nanjing_game(scene: Scene) -> None:
    """Four people (two in relay mode) play a one-round 4-player game; a telnet spectator
    reads it in sentences."""
    ann = await scene.person("Ann", "127.0.0.1")
    bob = await scene.person("Bob", "127.0.0.2", mode="relay")
    cy = await scene.person("Cy", "127.0.0.3")
    dan = await scene.person("Dan", "127.0.0.4", mode="relay")
    eve = await scene.person("Eve", "127.0.0.5", mode="human", kind="telnet")
    for bad in ("/join 7", "/start", "/frobnicate", "/nick bot-ann", "/nick x"):
        await ann.say(bad)
    await seat([ann, bob, cy, dan])
    await eve.say("/tables")
    await eve.say("/watch 1")
    await ann.say("/round 1")
    await bob.say("/round 200")
    await cy.say("/option")
    await dan.say("hello table")
    await eve.say("/play MJ")
    await cy.say("/start")
    await ann.say("/tichu")  # not before the last 6 cards
    await dan.say("/grand")
    await bob.say("/play 2j")
    await eve.say("/table")
    log = await play_out([Hand(ann), Hand(bob), Hand(cy, tichu=True), Hand(dan)])
    await eve.say("/score")
    await ann.say("/legal")
    await bob.say(f"/log {log}")


async def trichu_game(scene: Scene) -> None:
    """Three people play a 3-round Trichu game, each dealer playing the dummy with ``/dummy``."""
    ann = await scene.person("Ann", "127.0.0.1")
    bob = await scene.person("Bob", "127.0.0.2", mode="relay")
    cy = await scene.person("Cy", "127.0.0.3")
    await ann.say("/join")
    await ann.say("/variant trichu")
    await ann.say("/round 2")  # not a multiple of 3
    await ann.say("/round 3")
    await ann.say("/variant chess")
    for peer in (bob, cy):
        await peer.say("/join 1")
    await bob.say("/dummy legal")
    await cy.say("/start")
    await ann.say("/dummy frobnicate")
    await play_out([Hand(ann), Hand(ann, "/dummy", tichu=True), Hand(bob, tichu=True), Hand(bob, "/dummy"),
                    Hand(cy), Hand(cy, "/dummy")])
    await cy.say("/history")


async def duo_game(scene: Scene) -> None:
    """Two people play a one-round Duo game, each his second hand with ``/second``."""
    ann = await scene.person("Ann", "127.0.0.1", mode="relay")
    bob = await scene.person("Bob", "127.0.0.2")
    await ann.say("/join")
    await ann.say("/variant duo")
    await ann.say("/round 1")
    await bob.say("/join 1 3")  # a duo table has two seats
    await bob.say("/join 1")
    await bob.say("/second hand")
    await ann.say("/start")
    await bob.say("/second hand")
    await ann.say("/second")
    await play_out([Hand(ann), Hand(ann, "/second"), Hand(bob), Hand(bob, "/second", tichu=True)])
    await bob.say("/score")


async def moderation_session(scene: Scene) -> None:
    """An admin the operator claimed appoints a moderator; kicks, mutes, bans, announces,
    audits; and the refusals around them."""
    root, tom, mia = await appointing(scene)
    await sanctions(scene, root, tom, mia)


async def appointing(scene: Scene) -> tuple[Peer, Peer, Peer]:
    """Three guests; the admin logs in (after refusals) and makes one of them, registered,
    a moderator. (Root, Tom, Mia)."""
    tom = await scene.person("Tom", "127.0.0.2")
    await scene.person("Vic", "127.0.0.3", mode="relay")  # only hears, then is banned
    mia = await scene.person("Mia", "127.0.0.4")
    root = await scene.connect("Root", "127.0.0.1")
    await root.say("/nick Root")  # registered: machine mode never asks
    await root.say("/nick Root wrong-password")
    scene.clock.advance(2)  # the failed login's wait
    await root.say("/nick Root a-pw-for-root")
    await tom.say("/kick Vic")
    await tom.say("/announce hello")
    await root.say("/op Tom")  # a guest
    await mia.say("/register mias-secret-1")
    await root.say("/op Mia")
    await root.say("/op Mia")
    await mia.say("/op Tom")
    return root, tom, mia


async def sanctions(scene: Scene, root: Peer, tom: Peer, mia: Peer) -> None:
    """Mute and unmute, announce, ban (by name, and ranges refused), kick, audit, unban, deop."""
    await mia.say("/mute Tom 5 too loud")
    await tom.say("hello everyone")
    await tom.say("/msg Vic psst")
    scene.clock.advance(60)
    await mia.say("/mute Root")
    await mia.say("/kick Mia")
    await root.say("/unmute Tom calmer now")
    await root.say("/unmute Tom")
    await tom.say("hello again")
    await root.say("/announce The server restarts at noon")
    await root.say("/ban 300.1.2.3")
    # holds the admin himself (and no other admin or moderator: with several, the refusal
    # names whichever the server's set of connections yields first, which varies per run)
    await root.say("/ban 127.0.0.0/30")
    await mia.say("/ban Vic 10 cheating")
    banned = await scene.connect("Vic2", "127.0.0.3")
    await banned.say("/nick Vic")
    await mia.say("/kick Tom enough")
    scene.clock.advance(30)
    await root.say("/audit")
    await root.say("/audit Vic")
    await root.say("/unban Vic")
    await root.say("/unban Vic")
    await banned.say("/nick Vic")
    await root.say("/deop Mia")
    await mia.say("/audit")
    await root.say("/close 9")


async def review_session(scene: Scene) -> None:
    """A one-round game of a person and three bots, then its review: both ways through it,
    by round, the refusals; a telnet person reviews it in sentences."""
    ann = await scene.person("Ann", "127.0.0.1")
    await ann.say("/join")
    await ann.say("/round 1")
    for level in ("random", "basic", "expert"):
        await ann.say(f"/bot {level}")
    await ann.say("/start")
    await ann.say("/review 1")  # still running
    log = await play_out([Hand(ann)], scene.clock)
    eve = await scene.person("Eve", "127.0.0.2", mode="human", kind="telnet")
    await ann.say("/history")
    await ann.say(f"/review {log}")
    for step in ("next", "next", "prev", "round 1", "next", "next", "next"):
        await ann.say(f"/review {step}")
    for bad in ("/review 99", f"/review {log} 2", f"/review {log} x", "/review sideways"):
        await ann.say(bad)
    await ann.say("/review end")
    await ann.say("/review next")
    await eve.say(f"/review {log}")
    await eve.say("/review next")
    await eve.say("/review end")


SCENES = {
    "nanjing": (nanjing_game, 11, None),
    "trichu": (trichu_game, 12, None),
    "duo": (duo_game, 13, None),
    "moderation": (moderation_session, 14, {"Root": "a-pw-for-root"}),
    "review": (review_session, 15, None),
}


def sections(transcript: bytes) -> list[bytes]:
    """The client sections of a transcript (each with its header)."""
    return [b"=== client " + part for part in transcript.split(b"=== client ") if part]


def first_difference(expected: bytes, actual: bytes) -> str:
    """A unified diff (at most 60 lines) of the first client section that differs."""
    pairs = list(zip(sections(expected), sections(actual)))
    for old, new in pairs + [(expected, actual)]:
        if old != new:
            diff = difflib.unified_diff(old.decode("utf-8", "backslashreplace").splitlines(),
                                        new.decode("utf-8", "backslashreplace").splitlines(),
                                        "recorded", "now", lineterm="", n=2)
            lines = list(diff)
            return "\n".join(lines[:60]) + ("\n[... truncated]" if len(lines) > 60 else "")
    return "the same sections, yet not the same bytes"


@pytest.mark.parametrize("name", SCENES)
@pytest_twisted.ensureDeferred
async def test_transcript_is_as_recorded(name, tmp_path):
    script, seed, claimed = SCENES[name]
    async with Scene(tmp_path, seed, claimed) as scene:
        await script(scene)
    transcript = scene.transcript()
    golden = GOLDEN / f"{name}.bin"
    if RECORD:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_bytes(transcript)
        return
    assert golden.exists(), f"no {golden}: record it with BSWTICHU_RECORD_TRANSCRIPTS=1"
    expected = golden.read_bytes()
    if transcript != expected:
        pytest.fail(f"the {name} transcript differs from {golden.name}:\n"
                    + first_difference(expected, transcript), pytrace=False)
