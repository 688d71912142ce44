"""The WebSocket listener kind over real loopback TCP, with autobahn's own client: each
subprotocol, the Origin check, the static page and its headers, the limits, a whole game."""

from __future__ import annotations

import json
from itertools import takewhile

import pytest_twisted
from twisted.internet.defer import Deferred
from twisted.web.client import Agent, readBody

from bswtichu.config import Listener
from test_net_network import LOOPBACK, TIMEOUT, RunningServer, reactor
from websocket_clients import FrameClient, open_websocket

LISTENERS = (Listener("telnet", LOOPBACK), Listener("line", LOOPBACK), Listener("websocket", LOOPBACK))


class WebServer(RunningServer):
    """The service with a WebSocket listener too; its WebSocket clients are closed at the end."""

    def __init__(self, **settings: object) -> None:
        settings.setdefault("listeners", LISTENERS)
        super().__init__(**settings)
        self.sockets: list[FrameClient] = []

    @property
    def web_port(self) -> int:
        return self.ports["websocket"].getHost().port

    async def open(self, protocols: list[str] | None = None, origin: str | None = None) -> FrameClient:
        return await open_websocket(self.web_port, protocols, origin, self.sockets)

    async def __aexit__(self, *exc_info: object) -> None:
        await super().__aexit__(*exc_info)
        for client in self.sockets:
            await client.closed.addTimeout(TIMEOUT, reactor())


@pytest_twisted.ensureDeferred
async def test_terminal_subprotocol_greets_in_binary_frames_and_takes_nick():
    async with WebServer() as server:
        person = await server.open(["terminal.mudstandards.org"])
        assert person.chosen == "terminal.mudstandards.org"
        await person.wait_for(lambda line: line.startswith("Welcome to bswtichu"))
        await person.wait_for(lambda line: line.startswith("Choose a name first: /nick NAME."))
        person.say("/nick Ann\r\n")
        await person.wait_for(lambda line: line.endswith("You are now Ann."))
        assert person.text == []
        assert all(binary for binary, _ in person.frames)
        assert not any(b"\xff" in payload for _, payload in person.frames)


@pytest_twisted.ensureDeferred
async def test_no_subprotocol_offered_is_the_terminal_and_the_origin_of_the_page_is_allowed():
    async with WebServer() as server:
        origin = f"http://127.0.0.1:{server.web_port}"
        person = await server.open(None, origin=origin)
        assert person.chosen is None
        person.say("/nick Bea")
        await person.wait_for(lambda line: line.endswith("You are now Bea."))


@pytest_twisted.ensureDeferred
async def test_an_origin_not_configured_is_refused_with_403():
    async with WebServer() as server:
        for origin in ("http://evil.example", f"http://127.0.0.1:{server.web_port + 1}"):
            factory_client = server.open(["terminal.mudstandards.org"], origin=origin)
            try:
                await factory_client
            except ConnectionError as refused:
                assert "403" in str(refused), refused
            else:
                raise AssertionError(f"{origin} was let in")
    async with WebServer(websocket_origins="https://tichu.example") as server:
        await server.open(["terminal.mudstandards.org"], origin="https://tichu.example")
        try:
            await server.open(["terminal.mudstandards.org"], origin=f"http://127.0.0.1:{server.web_port}")
        except ConnectionError as refused:
            assert "403" in str(refused)
        else:
            raise AssertionError("an origin outside the setting was let in")


@pytest_twisted.ensureDeferred
async def test_gmcp_subprotocol_sends_tichu_packages_as_text_frames_during_a_game():
    async with WebServer(bot_delay=0.0) as server:
        person = await server.open(["gmcp.mudstandards.org", "terminal.mudstandards.org"])
        assert person.chosen == "gmcp.mudstandards.org"
        person.say('Core.Hello {"client":"test","version":"1"}', binary=False)
        person.say('Core.Supports.Set ["Tichu 1"]', binary=False)
        person.say("Nonsense.Package {not json", binary=False)
        person.say("/nick Ann")
        await person.wait_for(lambda line: line.endswith("You are now Ann."))
        nick = await person.wait_for(lambda frame: frame.startswith("Tichu.Nick "), "text")
        assert json.loads(nick.partition(" ")[2])["nick"] == "Ann"
        for line in ("/join", "/bot", "/bot", "/bot", "/start"):
            person.say(line)
        dealt = await person.wait_for(lambda frame: frame.startswith("Tichu.Dealt "), "text")
        assert len(json.loads(dealt.partition(" ")[2])["cards"]) == 8
        await person.wait_for(lambda line: "Grand Tichu" in line)  # the same game said as text


@pytest_twisted.ensureDeferred
async def test_people_get_the_greeting_for_people_and_programs_the_whole_one():
    """Issue 34, bug 5: a browser's subprotocols are greeted without the bots' lines (`/mode
    machine`, the limits in bytes); the machine subprotocol, as the line port, with them."""
    async with WebServer() as server:
        for number, protocols in enumerate((["terminal.mudstandards.org"], ["gmcp.mudstandards.org"], None)):
            person = await server.open(protocols)
            await person.wait_for(lambda line: line.startswith("Welcome to bswtichu "))
            person.say(f"/nick Greeted{number}")
            await person.wait_for(lambda line: line.endswith(f"You are now Greeted{number}."))
            greeting = ["Welcome to bswtichu ..."] + list(takewhile(lambda line: "resume token" not in line,
                                                                    person.binary))
            assert greeting[0].startswith("Welcome to bswtichu ") and len(greeting) == 2, greeting
            assert greeting[1].startswith("Choose a name first: /nick NAME.")
            assert not any("/mode machine" in line or "bytes" in line for line in greeting)
            person.sendClose(1000)
            await person.closed.addTimeout(TIMEOUT, reactor())
        robo = await server.open(["bswtichu.machine"])
        assert (await robo.message("MODE")) == {"mode": "machine"}
        assert robo.text[0].startswith("Welcome to bswtichu ")
        assert any(line.startswith("Bots: /mode machine") for line in robo.text)
        assert any(line.startswith("Limits: lines up to 512 bytes") for line in robo.text)


@pytest_twisted.ensureDeferred
async def test_machine_subprotocol_speaks_machine_lines_in_text_frames():
    async with WebServer() as server:
        robo = await server.open(["bswtichu.machine"])
        assert robo.chosen == "bswtichu.machine"
        assert await robo.message("MODE") == {"mode": "machine"}
        robo.say("/nick Robo", binary=False)
        assert (await robo.message("NICK"))["nick"] == "Robo"
        robo.say("/nope", binary=False)
        assert (await robo.message("ERROR"))["code"] == "unknown_command"
        assert not any(binary for binary, _ in robo.frames)
        assert all(b"\n" not in payload for _, payload in robo.frames)


@pytest_twisted.ensureDeferred
async def test_the_limits_apply_an_overlong_line_and_a_flood():
    async with WebServer(max_line_length=64, flood_rate=1.0, flood_burst=3) as server:
        person = await server.open(["terminal.mudstandards.org"])
        await person.wait_for(lambda line: line.startswith("Choose a name first"))
        person.say("x" * 200)
        await person.wait_for(lambda line: "at most 64 bytes" in line)
        for n in range(6):
            person.say(f"/nick N{n}")
        await person.wait_for(lambda line: "too many lines" in line)
        await person.wait_for(lambda line: line == "You are now N5 (was N4).")  # waited, not dropped


@pytest_twisted.ensureDeferred
async def test_the_machine_subprotocol_has_the_line_ports_wider_budget():
    async with WebServer(flood_rate=1.0, flood_burst=2) as server:
        robo = await server.open(["bswtichu.machine"])
        for n in range(20):
            robo.say(f"/nick R{n}", binary=False)
        assert (await robo.message("NICK", nick="R19"))["nick"] == "R19"
        assert not [line for line in robo.text if line.startswith("ERROR") and "flood" in line]


@pytest_twisted.ensureDeferred
async def test_the_page_is_served_with_its_security_headers():
    async with WebServer() as server:
        agent = Agent(reactor())
        response = await agent.request(b"GET", f"http://127.0.0.1:{server.web_port}/".encode()
                                       ).addTimeout(TIMEOUT, reactor())
        body = await readBody(response).addTimeout(TIMEOUT, reactor())
        assert response.code == 200 and b"bswtichu" in body
        headers = response.headers
        csp = headers.getRawHeaders(b"content-security-policy")[0]
        assert b"default-src 'self'" in csp and b"connect-src 'self' ws: wss:" in csp
        assert headers.getRawHeaders(b"x-content-type-options") == [b"nosniff"]
        assert headers.getRawHeaders(b"content-type")[0].startswith(b"text/html")
        missing = await agent.request(b"GET", f"http://127.0.0.1:{server.web_port}/nothing.js".encode()
                                      ).addTimeout(TIMEOUT, reactor())
        await readBody(missing).addTimeout(TIMEOUT, reactor())
        assert missing.code == 404
        assert missing.headers.getRawHeaders(b"x-content-type-options") == [b"nosniff"]


def test_javascript_modules_are_served_as_text_javascript():
    from bswtichu.net.websocket import StaticFiles

    assert StaticFiles.contentTypes[".js"].startswith("text/javascript")
    assert StaticFiles.contentTypes[".mjs"].startswith("text/javascript")


async def play_to_the_end(player: FrameClient) -> dict:
    """Plays every step the game asks the player (the first of his LEGAL commands; the first
    three cards of his hand to pass) until GAME_OVER, which it returns."""
    player.say("/legal push on", binary=False)
    while True:
        waiter: Deferred = player.wait_for(
            lambda line: line.startswith(("LEGAL ", "GAME_OVER ", "ERROR ")), "text")
        line = await waiter
        keyword, _, payload = line.partition(" ")
        fields = json.loads(payload)
        if keyword == "GAME_OVER":
            return fields
        if keyword == "ERROR":  # a step moved on under a stale LEGAL: ask again
            player.say("/legal", binary=False)
            continue
        if not fields["commands"]:
            continue
        command = fields["commands"][0]
        player.say(command, binary=False)


@pytest_twisted.ensureDeferred
async def test_a_whole_game_over_the_machine_subprotocol():
    async with WebServer(bot_delay=0.0) as server:
        ann = await server.open(["bswtichu.machine"])
        ann.say("/nick Ann", binary=False)
        await ann.message("NICK", nick="Ann")
        for line in ("/join", "/round 1", "/bot", "/bot", "/bot", "/start"):
            ann.say(line, binary=False)
        await ann.message("STARTED")
        over = play_to_the_end(ann)
        result = await Deferred.fromCoroutine(over).addTimeout(60, reactor())
        players = [standing["player"] for standing in result["standings"]]
        assert "Ann" in players and len(set(players)) == 4
        assert set(result["winners"]) <= set(players)
        scores = [json.loads(line.partition(" ")[2]) for line in ann.text if line.startswith("SCORE ")]
        assert scores and scores[-1]["rounds"] == 1  # option round 1: the game ended after one round


@pytest_twisted.ensureDeferred
async def test_wss_the_websocket_over_tls_with_a_page_from_its_https_origin(tmp_path):
    from test_net_tls import self_signed

    options, cert_pem = self_signed(tmp_path)
    listeners = LISTENERS + (Listener("websocket", f"ssl:0:{options}:interface=127.0.0.1"),)
    async with WebServer(listeners=listeners) as server:
        port = server.ports["websocket-2"].getHost().port
        robo = await open_websocket(port, ["bswtichu.machine"], f"https://localhost:{port}", server.sockets,
                                    trusted_pem=cert_pem)
        robo.say("/nick Robo", binary=False)
        assert (await robo.message("NICK"))["nick"] == "Robo"
        assert f"web https://127.0.0.1:{port}/" in server.service.describe()


@pytest_twisted.ensureDeferred
async def test_gmcp_asks_for_a_registered_names_password_and_the_terminal_takes_it_as_argument():
    async with WebServer() as server:
        ann = await server.open(["bswtichu.machine"])
        ann.say("/nick Ann", binary=False)
        ann.say("/register hunter22", binary=False)
        await ann.message("REGISTERED")
        ann.say("/quit", binary=False)
        await ann.closed.addTimeout(TIMEOUT, reactor())
        page = await server.open(["gmcp.mudstandards.org"])
        page.say("/nick Ann")
        wanted = await page.wait_for(lambda frame: frame.startswith("Tichu.PasswordWanted "), "text")
        assert json.loads(wanted.partition(" ")[2])["nick"] == "Ann"
        page.say("hunter22")
        await page.wait_for(lambda line: line == "You are now Ann.")
        page.say("/quit")
        await page.closed.addTimeout(TIMEOUT, reactor())
        terminal = await server.open(["terminal.mudstandards.org"])
        terminal.say("/nick Ann")
        await terminal.wait_for(lambda line: line.startswith("error:") and "/nick Ann PASSWORD" in line)
        terminal.say("/nick Ann hunter22")
        await terminal.wait_for(lambda line: line == "You are now Ann.")


class ClosingWebSocket:
    """Stands in for autobahn's protocol under a FrameLines: records the close it is asked for."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    def sendClose(self, code: int) -> None:
        self.closed_with = code


def frames_on_a_clock(subprotocol: str, **settings):
    """A FrameLines on a StringTransport and a Clock, opened (greeted), and the lobby it talks to."""
    from twisted.internet.address import IPv4Address
    from twisted.internet.task import Clock
    from twisted.internet.testing import StringTransport

    from bswtichu.config import ServerConfig
    from bswtichu.net.websocket import FrameLines
    from bswtichu.server.games.logs import GameLogStore
    from bswtichu.service import build_lobby

    clock = Clock()
    config = ServerConfig(database=":memory:", **settings)
    lobby = build_lobby(clock, config, lambda table: None, GameLogStore(config.log_folder))
    websocket = ClosingWebSocket()
    lines = FrameLines(websocket, subprotocol, lobby, config, clock)
    transport = StringTransport(peerAddress=IPv4Address("TCP", "127.0.0.1", 50000))
    transport.registerProducer(object(), True)  # the HTTP channel, until the WebSocket takes over
    lines.open(transport)
    return clock, lines, transport, websocket


def test_an_idle_websocket_client_is_said_goodbye_and_closed_with_1000(tmp_path):
    clock, lines, transport, websocket = frames_on_a_clock("terminal.mudstandards.org", idle_timeout=60.0,
                                                         log_folder=str(tmp_path / "logs"))
    transport.clear()
    clock.advance(59)
    assert websocket.closed_with is None
    clock.advance(1)
    assert b"No input for 60 seconds; goodbye." in transport.value()
    assert transport.value()[:1] == b"\x82"  # one BINARY frame
    assert websocket.closed_with == 1000
    lines.stop()


def test_a_websocket_client_that_does_not_read_is_given_up(tmp_path):
    """The output queue is the socket's producer as on the other ports: while the socket is
    full, lines wait; past the hard limit the client gets its goodbye and the close."""
    clock, lines, transport, websocket = frames_on_a_clock("bswtichu.machine", output_soft_limit=1000,
                                                         output_hard_limit=4000, log_folder=str(tmp_path / "logs"))
    transport.clear()
    lines._output.pauseProducing()  # what the transport says when its buffer is full
    for n in range(100):
        lines.send_lines([f"CHAT {{\"text\":\"line {n:03d} {'x' * 40}\"}}"])
    assert websocket.closed_with == 1000
    said = transport.value()
    assert b"BYE" in said and b"line 000" not in said  # the queue was dropped, the goodbye sent
    lines.stop()


@pytest_twisted.ensureDeferred
async def test_hostile_frames_cost_only_their_own_connection():
    """Bytes that are no UTF-8, control characters, a TEXT frame that is no UTF-8 (the WebSocket
    layer closes with 1007) and a frame over every budget (1009): the server goes on serving."""
    async with WebServer() as server:
        person = await server.open(["terminal.mudstandards.org"])
        person.sendMessage(b"caf\xe9 \x00\x1b[2J\x07", isBinary=True)
        person.sendMessage(b"/nick \xff\xfe", isBinary=True)
        person.say("/nick Eve\r\n\r\n")
        await person.wait_for(lambda line: line == "You are now Eve (was ÿþ).")  # Latin-1 read
        broken = await server.open(["bswtichu.machine"])
        broken.sendMessage(b"\xff\xfe\xfd", isBinary=False)
        code, _ = await broken.closed.addTimeout(TIMEOUT, reactor())
        assert code in (1006, 1007)  # 1007 from the server; 1006 if it hung up before the handshake ended
        huge = await server.open(["bswtichu.machine"])
        huge.sendMessage(b"x" * (server.config.line_byte_burst + 1), isBinary=False)
        code, _ = await huge.closed.addTimeout(TIMEOUT, reactor())
        assert code in (1006, 1009)
        robo = await server.open(["bswtichu.machine"])
        robo.say("/nick Robo", binary=False)
        assert (await robo.message("NICK"))["nick"] == "Robo"
