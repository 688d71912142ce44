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
seats), of Trichu (the dealer plays the dummy's hand by its buttons) and of Duo (the
person plays his second hand by its own buttons and cards), the page over
https: and wss:, and a registered name's password.
"""

from __future__ import annotations

import os
import re
import socket

import pytest
import pytest_twisted
from twisted.internet import threads

from bswtichu.config import Listener

from browser_player import MISSING, PREFERENCE, STEP_TIMEOUT, PagePlayer, start_browser
from test_net_network import LOOPBACK, LOOPBACK_LISTENERS, RunningServer, reactor
from test_net_tintin import unexplained_errors
from test_net_tls import self_signed

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
    """Plays as the page offers, and a second hand too (Trichu's dealer the dummy's, Duo's
    player his own second one): its moves' buttons, and its exchange by picking its cards."""

    def __init__(self, driver) -> None:
        super().__init__(driver)
        self.dummy_moves: list[str] = []  # the second hand's moves clicked
        self.second_exchanges: list[str] = []  # the second hand's cards picked for its exchanges
        self.turns_seen: set[str] = set()  # the turn indicator's words while the second hand was asked

    def _step(self, driver) -> bool:
        if not self.shown("#game-over") and self.shown("#dummy-moves"):
            if self.shown("#second-exchange"):
                self._second_exchange()
                return False
            moves = {button.get_attribute("title"): button for button in self.all("#dummy-legal button.move")}
            choice = next((line for prefix in PREFERENCE for line in moves
                           if re.match(rf"/(dummy|second) {prefix[1:]}", line)), None)
            if choice is not None:
                self.turns_seen.add(self.text("#announce"))
                self.dummy_moves.append(choice)
                moves[choice].click()
                return False
        return super()._step(driver)

    def _second_exchange(self) -> None:
        """Pick the first cards of the second hand until its exchange button is on, then click it."""
        send = self.find("#send-second-exchange")
        for _ in range(3):  # each click draws that hand again: look it up anew each time
            if send.is_enabled():
                break
            free = [card for card in self.all("#second-hand button.card")
                    if card.get_attribute("aria-pressed") != "true"]
            free[0].click()
            send = self.find("#send-second-exchange")
        picked = [card.get_attribute("data-code") for card in self.all("#second-hand button.card")
                  if card.get_attribute("aria-pressed") == "true"]
        self.second_exchanges.append(" ".join(picked))
        send.click()
        self.wait("the second hand's exchange", lambda d: not self.shown("#second-exchange"))


def play_a_variant(url: str, variant: str, rounds: int, bots: int) -> dict:
    """Ann seats ``bots`` bots and plays ``rounds`` rounds of ``variant`` by clicking; in Duo
    the page is looked at once her second hand has played (with SCREENSHOT_DIR set in the
    environment, it is pictured there: docs/images/web-duo.png was made so)."""
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
        seen: dict = {}
        if variant == "duo":
            person.play_until("both hands in play", lambda: any(
                re.match(r"/second (play|pass)", move) for move in person.dummy_moves)
                and "Ann (seat 3): " in person.text("#trick") and person.all("#second-hand .card"))
            seen["playing"] = {"seats": person.seats(), "second_title": person.text("#second-title"),
                               "trick": person.text("#trick"),
                               "second_cards": len(person.all("#second-hand .card")),
                               "second_buttons": len(person.all("#second-hand button")),
                               "own_cards": len(person.all("#hand button.card")),
                               "moves_title": person.text("#dummy-legal-title"),
                               "open_hand": person.shown("#open-hand-box")}
            if os.environ.get("SCREENSHOT_DIR"):
                driver.set_window_size(1280, 1500)
                person.wait("the wider window", lambda d: d.execute_script("return window.innerHeight") > 1000)
                driver.execute_script("window.scrollTo(0, 0)")
                driver.save_screenshot(os.path.join(os.environ["SCREENSHOT_DIR"], "web-duo.png"))
        over = person.play_to_the_end(GAME_TIMEOUT)
        return {"seats": seats, "over": over, "score": person.text("#score"), "console": person.console_errors(),
                "dummy_moves": person.dummy_moves, "exchanges": person.second_exchanges,
                "turns": person.turns_seen, **seen}
    finally:
        driver.quit()


@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
@pytest.mark.parametrize("variant, rounds, bots", [("tientsin", 1, 5), ("trichu", 3, 2), ("duo", 1, 1)])
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
    elif variant == "trichu":  # Ann deals the first round: she plays the dummy's hand, its exchange too
        assert seen["dummy_moves"] and all(move.startswith("/dummy ") for move in seen["dummy_moves"])
        assert len(seen["exchanges"]) == 1 and len(seen["exchanges"][0].split()) == 2
        assert any(turn.startswith("The dummy's turn, yours to play") for turn in seen["turns"]), seen["turns"]
        assert re.fullmatch(r"Score after round 3 of 3: .*; the dummy -?\d+\.", seen["score"]), seen["score"]
    else:  # Duo: Ann plays seats 1 and 3, her second hand by its own buttons and exchange
        playing = seen["playing"]
        bot = seen["seats"][1].split("\n")[0].removeprefix("Seat 2: ")
        assert [seat.split("\n")[0] for seat in playing["seats"]] == [
            "Seat 1: Ann (you)", f"Seat 2: {bot}", "Seat 3: Ann (your second hand)", f"Seat 4: {bot}"]
        assert [seat.split("\n")[1].split(" · ")[0] for seat in playing["seats"]] == [
            "you", "right opponent", "your second hand", "left opponent"]
        assert playing["second_title"] == "Your second hand (seat 3)" and not playing["open_hand"]
        assert "Ann: " not in playing["trick"] and "bot-basic-Ada: " not in playing["trick"], playing["trick"]
        assert 0 < playing["second_cards"] <= 14 and playing["second_buttons"] == 0  # shown, not picked
        assert 0 < playing["own_cards"] <= 14
        assert playing["moves_title"] == "What your second hand may do"
        assert seen["dummy_moves"] and all(move.startswith("/second ") for move in seen["dummy_moves"])
        assert len(seen["exchanges"]) == 1 and len(seen["exchanges"][0].split()) == 3
        assert any(re.fullmatch(r"Your second hand's turn \(seat 3\): (lead|play|.+)\.", turn)
                   for turn in seen["turns"]), seen["turns"]
        assert re.fullmatch(rf"Score after round 1 of 1: Ann -?\d+, {re.escape(bot)} -?\d+\.", seen["score"]), \
            seen["score"]
