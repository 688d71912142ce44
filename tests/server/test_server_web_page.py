"""A whole game at the web page, in a real headless Chromium (Debian packages chromium and
chromium-driver, driven by Selenium), against a real server with the WebSocket listener.

The person logs in with the page's form (keyboard only: the name typed, Enter), opens a
table and sits three bots from the command line (Enter), sets ``round 1`` and starts with
the page's buttons, then plays by clicking what the page offers (the Grand Tichu choice
by Tab and Enter, three cards and the exchange button, the legal-move buttons, and once
the cards of a play selected in the hand and "Play the selected cards"); after its first
move the connection drops (``/quit``) and the person comes back with the page's "Come
back as" button, then plays on until the page says "Game over". The browser's blocking
calls run in a thread; the server runs in the reactor. Also: a game of Tientsin (six
seats) and of Trichu (the dealer plays the dummy's hand by its buttons), the page over
https: and wss:, and a registered name's password.
"""

from __future__ import annotations

import re
import socket

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import MISSING, PREFERENCE, STEP_TIMEOUT, PagePlayer, start_browser
from test_server_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor
from test_server_tintin import unexplained_errors
from test_server_tls import self_signed

GAME_TIMEOUT = 180
CARD_LABEL = re.compile(r"(10|[2-9JQKA]) (jade|sword|pagoda|star)|Mahjong|Dog|Phoenix|Dragon")
CARD_WORDS = re.compile(r"(10|[2-9]|Jack|Queen|King|Ace) of (Jade|Sword|Pagoda|Star)|Mahjong|Dog|Phoenix|Dragon")


def play_a_game(url: str) -> dict:
    """Log in, seat three bots, play round 1 to the end; what the page showed on the way."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver = start_browser()
    seen: dict = {}
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.find("#login-name").send_keys("Ann" + Keys.ENTER)  # the form is sent with Enter
        person.wait("the lobby", lambda d: person.shown("#lobby") and person.text("#whoami") == "You are Ann.")
        person.wait("who is on", lambda d: person.text("#who") == "Ann (in the lobby)")
        seen["lobby_log"] = person.log_text()  # the page's own /who: its answer drawn, not logged
        for line in ("/join", "/bot", "/bot", "/bot"):
            person.command(line)
        person.wait("three bots", lambda d: person.shown("#table") and len(person.seats()) == 4
                    and all("(free)" not in seat for seat in person.seats()))
        person.find("#rounds").clear()
        person.find("#rounds").send_keys("1")
        person.click("#set-rounds")
        person.wait("round 1 set", lambda d: "Ann sets round 1 at table 1" in person.log_text())
        person.click("#start")
        person.wait("the first 8 cards", lambda d: len(person.all("#hand button.card")) == 8)
        seen["labels"] = [card.text for card in person.all("#hand button.card")]
        seen["words"] = [card.get_attribute("aria-label") for card in person.all("#hand button.card")]
        # the Grand Tichu choice by keyboard: Tab reaches its button, Enter takes it
        person.wait("the Grand Tichu choice", lambda d: person.all("#legal button.move"))
        version = person.find("#legal").get_attribute("data-version")
        for _ in range(80):
            if driver.switch_to.active_element.get_attribute("title") == "/nogrand":
                break
            ActionChains(driver).send_keys(Keys.TAB).perform()
        seen["tabbed_to"] = driver.switch_to.active_element.get_attribute("title")
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        person.wait("the last 6 cards", lambda d: len(person.all("#hand button.card")) == 14
                    and person.find("#legal").get_attribute("data-version") != version)
        # the first move, then the connection drops (/quit): the page offers to come back
        # (/resume with the token it kept in memory) and draws the table again from what
        # the server sends a returning player
        person.play_until("the first play", lambda: person.clicks >= 2)  # the exchange, a move
        hand = [card.text for card in person.all("#hand button.card")]
        person.command("/quit")
        person.wait("the connection's end", lambda d: person.shown("#reconnect") and person.shown("#login"))
        person.click("#reconnect")
        person.wait("the offer to come back", lambda d: person.shown("#resume")
                    and person.text("#connection") == "Connected.")
        seen["resume"] = person.text("#resume")
        person.click("#resume")
        person.wait("the table again", lambda d: person.shown("#table") and person.text("#whoami") == "You are Ann.")
        seen["hand_again"] = [card.text for card in person.all("#hand button.card")] == hand
        seen["over"] = person.play_to_the_end(GAME_TIMEOUT)
        seen["clicks"] = person.clicks
        seen["composed"] = person.composed
        seen["log"] = person.log_text()
        seen["score"] = person.text("#score")
        seen["live"] = [person.find(css).get_attribute("aria-live") for css in ("#log", "#announce", "#chat")]
        seen["console"] = person.console_errors()
        driver.set_window_size(400, 850)  # a phone: nothing wider than the screen
        seen["phone"] = driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        return seen
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_a_whole_game_played_by_clicking_in_chromium(tmp_path):
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0, log_folder=str(tmp_path / "logs")) as server:
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(play_a_game, url).addTimeout(
            GAME_TIMEOUT + 10 * STEP_TIMEOUT, reactor())
    assert "You are now Ann." in seen["lobby_log"] and "Online (1)" not in seen["lobby_log"]
    assert seen["over"].startswith("Game over")
    assert "Game over at table 1" in seen["log"]
    assert seen["score"].startswith("Score after round 1 of 1:")
    assert all(CARD_LABEL.fullmatch(label) for label in seen["labels"]), seen["labels"]
    assert all(CARD_WORDS.fullmatch(words) for words in seen["words"]), seen["words"]
    assert seen["tabbed_to"] == "/nogrand"
    assert seen["clicks"] >= 2  # the exchange and at least one play
    assert seen["composed"] == 1  # one play made from the selected card
    assert seen["resume"] == "Come back as Ann" and seen["hand_again"]
    assert seen["live"] == ["polite", "polite", "polite"]
    assert seen["console"] == []  # no script error, nothing the CSP refused
    assert seen["phone"][0] <= seen["phone"][1]
    assert unexplained_errors(seen["log"].splitlines()) == []


def log_in_over_tls(url: str, certificate_pem: bytes) -> dict:
    """Open the page over https: and log in; what it showed."""
    driver = start_browser(trusted_pem=certificate_pem)
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        return {"whoami": person.text("#whoami"), "console": person.console_errors()}
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_the_page_over_https_talks_over_wss(tmp_path):
    options, certificate_pem = self_signed(tmp_path)
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", f"ssl:0:{options}:interface=127.0.0.1"),)
    async with RunningServer(listeners=listeners) as server:
        url = f"https://localhost:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(log_in_over_tls, url, certificate_pem).addTimeout(
            6 * STEP_TIMEOUT, reactor())
    assert seen["whoami"] == "You are Ann."  # an https: page reaches a socket only over wss:
    assert seen["console"] == []


PASSWORD = "geheim-123"


def register_and_log_in_again(url: str) -> dict:
    """Register from the command line, come back: once with the password asked for (the command
    line turns into a password field), once with the login form's password field."""
    from selenium.webdriver.common.keys import Keys

    driver = start_browser()
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        person.command(f"/register {PASSWORD}")
        person.wait("the registration", lambda d: "registered" in person.log_text())
        seen = {}
        for way in ("asked", "form"):
            person.command("/quit")
            person.wait("the connection's end", lambda d: person.shown("#reconnect"))
            person.click("#reconnect")
            person.wait("the login form", lambda d: person.shown("#login") and person.text("#connection") == "Connected.")
            seen.setdefault("kept_name", person.find("#login-name").get_attribute("value"))
            person.find("#login-name").clear()
            person.find("#login-name").send_keys("Ann")
            if way == "form":
                person.find("#login-password").send_keys(PASSWORD)
            person.find("#login-name").send_keys(Keys.ENTER)
            if way == "asked":
                person.wait("the password asked for", lambda d: person.find("#command-line").get_attribute("type")
                            == "password")
                seen["focused"] = driver.switch_to.active_element.get_attribute("id")
                driver.switch_to.active_element.send_keys(PASSWORD + Keys.ENTER)
            person.wait("Ann logged in", lambda d: person.text("#whoami") == "You are Ann.")
            seen[way] = person.find("#command-line").get_attribute("type")
        seen["password_field"] = person.find("#login-password").get_attribute("value")
        seen["url"] = driver.current_url
        seen["log"] = person.log_text()
        seen["stored"] = driver.execute_script(
            "return [localStorage.length, sessionStorage.length, document.cookie]")
        return seen
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest_twisted.ensureDeferred
async def test_a_password_is_asked_for_hidden_and_never_shown_or_kept():
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners) as server:
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(register_and_log_in_again, url).addTimeout(12 * STEP_TIMEOUT, reactor())
    assert seen["kept_name"] == "Ann" and seen["password_field"] == ""  # the name kept, the password not
    assert seen["focused"] == "command-line"
    assert seen["asked"] == seen["form"] == "text"  # a plain command line again once logged in
    assert PASSWORD not in seen["log"] and PASSWORD not in seen["url"] and seen["url"] == url
    assert "> /register ********" in seen["log"]
    assert seen["stored"] == [0, 0, ""]


def outward_address() -> str | None:
    """This machine's address on its default route (not loopback), or None without one. A UDP
    socket's connect only picks the route: nothing is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any routable address picks the route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def register_unencrypted(url: str) -> dict:
    driver = start_browser()
    try:
        person = PagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        person.command(f"/register {PASSWORD}")
        person.wait("the warning", lambda d: person.shown("#unencrypted"))
        return {"text": person.text("#unencrypted"),
                "link": person.find("#unencrypted a").get_attribute("href")}
    finally:
        driver.quit()


OUTWARD = outward_address()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.skipif(OUTWARD is None, reason="needs an address that is not loopback (a default route)")
@pytest_twisted.ensureDeferred
async def test_a_password_over_plain_http_from_another_address_is_warned_of(tmp_path):
    """The page reached at this machine's outward address (so the server sees a peer that is
    not loopback) over http:, with a TLS twin of the listener: the server's UNENCRYPTED shows
    at the top with a link to the page over https:."""
    options, _ = self_signed(tmp_path)
    # the warning names the TLS port as configured: a fixed one (port 0 would be named 0)
    with socket.socket() as spare:
        spare.bind((OUTWARD, 0))
        tls = spare.getsockname()[1]
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", f"tcp:0:interface={OUTWARD}"),
                                      Listener("websocket", f"ssl:{tls}:{options}:interface={OUTWARD}"))
    async with RunningServer(listeners=listeners) as server:
        plain = server.ports["websocket"].getHost().port
        seen = await threads.deferToThread(register_unencrypted, f"http://{OUTWARD}:{plain}/").addTimeout(
            6 * STEP_TIMEOUT, reactor())
    assert seen["text"].startswith("Your password went over an unencrypted connection.")
    assert seen["link"] == f"https://{OUTWARD}:{tls}/"


class VariantPagePlayer(PagePlayer):
    """Plays as the page offers, and as Trichu's dealer also the dummy's hand: its moves'
    buttons, and its exchange typed from the open hand as the page says."""

    dummy_moves = 0
    open_hands_seen = 0

    def _step(self, driver) -> bool:
        if not self.shown("#game-over") and self.shown("#dummy-moves"):
            if "Type the dummy's exchange" in self.text("#dummy-legal"):
                codes = [card.get_attribute("data-code") for card in self.all("#open-hand .card")]
                self.open_hands_seen += 1
                self.command(f"/dummy schupf {' '.join(codes[:2])}")
                self.wait("the dummy's exchange", lambda d: "Type the dummy's" not in self.text("#dummy-legal"))
                return False
            moves = {button.get_attribute("title"): button for button in self.all("#dummy-legal button.move")}
            choice = next((line for prefix in PREFERENCE for line in moves
                           if line.startswith("/dummy " + prefix[1:])), None)
            if choice is not None:
                self.dummy_moves += 1
                moves[choice].click()
                return False
        return super()._step(driver)


def play_a_variant(url: str, variant: str, rounds: int, bots: int) -> dict:
    driver = start_browser()
    try:
        person = VariantPagePlayer(driver)
        person.open(url)
        person.log_in("Ann")
        for line in ("/join", f"/variant {variant}", f"/round {rounds}", *["/bot"] * bots):
            person.command(line)
        person.wait("the bots", lambda d: len(person.seats()) == bots + 1
                    and not any("(free)" in seat for seat in person.seats()))
        seats = person.seats()
        person.command("/start")
        over = person.play_to_the_end(GAME_TIMEOUT)
        return {"seats": seats, "over": over, "score": person.text("#score"), "console": person.console_errors(),
                "dummy_moves": person.dummy_moves, "open_hands": person.open_hands_seen}
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.parametrize("variant, rounds, bots", [("tientsin", 1, 5), ("trichu", 3, 2)])
@pytest_twisted.ensureDeferred
async def test_a_variant_game_played_by_clicking_in_chromium(tmp_path, variant, rounds, bots):
    listeners = LOOPBACK_LISTENERS + (Listener("websocket", LOOPBACK),)
    async with RunningServer(listeners=listeners, bot_delay=0.0, log_folder=str(tmp_path / "logs")) as server:
        url = f"http://127.0.0.1:{server.ports['websocket'].getHost().port}/"
        seen = await threads.deferToThread(play_a_variant, url, variant, rounds, bots).addTimeout(
            GAME_TIMEOUT + 10 * STEP_TIMEOUT, reactor())
    assert seen["over"].startswith("Game over") and seen["console"] == []
    assert len(seen["seats"]) == bots + 1 and "undefined" not in " ".join(seen["seats"])
    if variant == "tientsin":
        assert [seat.split("\n")[1].split(" · ")[0] for seat in seen["seats"]] == [
            "you", "right opponent", "partner", "opponent opposite", "partner", "left opponent"]
        assert re.fullmatch(r"Score after round 1 of 1: Ann \+ \S+ \+ \S+ -?\d+, \S+ \+ \S+ \+ \S+ -?\d+\.",
                            seen["score"]), seen["score"]
    else:  # Ann deals the first round: she plays the dummy's hand, its exchange too
        assert seen["dummy_moves"] > 0 and seen["open_hands"] == 1
        assert re.fullmatch(r"Score after round 3 of 3: .*; the dummy -?\d+\.", seen["score"]), seen["score"]
