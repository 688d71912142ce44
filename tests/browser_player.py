"""A person at the web page, played by a headless Chromium through Selenium.

Blocking calls: a test runs them in a thread (the server answers in the reactor's). Every
wait has a timeout (`STEP_TIMEOUT`); `play_to_the_end` plays as a person does at the card
table: it clicks the cards of a play in the hand (those of the first of the server's
suggestions the page shows, so every play is one the round takes) and the Play button,
puts cards on the exchange's places, and clicks the few other moves the page offers (No
Grand Tichu, Pass, the wish, the Dragon's gift, the Dog's lead); the Bomb button when it
shows up.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

CHROMIUM = next((path for path in (shutil.which("chromium"), shutil.which("chromium-browser")) if path), None)
CHROMEDRIVER = shutil.which("chromedriver", path=os.environ.get("PATH", "") + os.pathsep + "/usr/lib/chromium")
#: why a browser test cannot run here, or None
MISSING = None
if CHROMIUM is None or CHROMEDRIVER is None:
    MISSING = "needs chromium and chromedriver (Debian packages chromium and chromium-driver)"
else:
    try:
        import selenium  # noqa: F401  (the test extra)
    except ImportError:
        MISSING = "needs selenium (pip install -e '.[test]')"

STEP_TIMEOUT = 20  # seconds for any one thing the page should show
POLL = 0.05
#: the other moves a simple player takes, in this order: decline the calls, pass, wish nothing
PREFERENCE = ("/nogrand", "/pass", "/wish none", "/give", "/dog")
#: where the screenshots go (kept after the run; .gitignore ignores it)
SCREENSHOTS = Path(os.environ.get("BSWTICHU_SCREENSHOTS", Path(__file__).resolve().parents[1] / "screenshots" / "web"))
PHONE = (390, 844)
DESKTOP = (1366, 768)


def spki_pin(certificate_pem: bytes) -> str:
    """The base64 SHA-256 of a certificate's public key: Chromium trusts just that key (the
    test's self-signed certificate) when given it in ``--ignore-certificate-errors-spki-list``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    key = x509.load_pem_x509_certificate(certificate_pem).public_key()
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode("ascii")


def start_browser(width: int = 1280, height: int = 1000, trusted_pem: bytes | None = None):
    """A headless Chromium (the system's, no download) under the system's chromedriver;
    ``trusted_pem``: a self-signed certificate it accepts (for https: and wss:). A width
    under a desktop window's smallest is a phone's screen, emulated (390 × 844: the page's
    CSS pixels, touch and all)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--hide-scrollbars", f"--window-size={max(width, 800)},{height}"):
        options.add_argument(argument)
    if trusted_pem is not None:
        options.add_argument(f"--ignore-certificate-errors-spki-list={spki_pin(trusted_pem)}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(STEP_TIMEOUT)
    if width < 800:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
    else:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return driver


class PagePlayer:
    """Drives the page in ``driver``; each method waits (with a timeout) for what it expects.
    ``shots``: a name for this game's screenshots (none without it)."""

    def __init__(self, driver, shots: str | None = None) -> None:
        self.driver = driver
        self.shots = shots
        self.clicks = 0
        self.cards_clicked = 0  # cards picked in a hand (plays and the exchange)
        self.plays = 0  # plays made with the Play button
        self.bombs = 0  # plays made with the Bomb button
        self.second_moves: list[str] = []  # what the second hand did (its buttons' commands)
        self.second_exchanges: list[str] = []  # the second hand's cards put on its places
        self.turns_seen: set[str] = set()  # the turn line while the second hand was asked
        self.saved: dict[str, Path] = {}
        self.lead_buttons: list[int] = []  # buttons on screen each time we were to lead
        self.labels: set[str] = set()  # what the Play button said
        self.overflow: list[tuple[int, int]] = []  # [scroll width, window width] at each lead
        self.fits: list[dict] = []  # the table and the hand measured at each lead (`table_and_hand`)

    # -- looking ---------------------------------------------------------------

    def wait(self, what: str, condition: Callable[[object], object], timeout: float = STEP_TIMEOUT):
        """``condition(driver)`` once it is true, asked again and again (an element the page drew
        anew meanwhile, or hid, is looked for again at the next asking)."""
        from selenium.common.exceptions import (
            ElementClickInterceptedException, ElementNotInteractableException, StaleElementReferenceException,
            TimeoutException,
        )
        from selenium.webdriver.support.ui import WebDriverWait

        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=POLL,
                                 ignored_exceptions=(StaleElementReferenceException, ElementNotInteractableException,
                                                     ElementClickInterceptedException)).until(condition)
        except TimeoutException:
            self.shot(f"timeout-{what.replace(' ', '-')}")
            state = self.driver.execute_script(
                "return [...document.querySelectorAll('[data-version], button:not(.hidden)')]"
                ".filter((e) => e.getClientRects().length).map((e) => e.id + ' ' + (e.dataset.version || '')"
                " + ' ' + e.textContent.slice(0, 40)).join(' | ')")
            raise AssertionError(f"the page did not show {what} within {timeout} s; it shows: {state}\n"
                                 f"its log ends:\n{self.log_text()[-2000:]}") from None

    def find(self, css: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css: str) -> list:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def shown(self, css: str) -> bool:
        found = self.all(css)
        return bool(found) and found[0].is_displayed()

    def text(self, css: str) -> str:
        return self.find(css).text

    def log_text(self) -> str:
        return self.driver.execute_script("return document.getElementById('log').textContent") or ""

    def console_errors(self) -> list[str]:
        """What the browser's console reported as errors (script errors, CSP refusals)."""
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def buttons_on_screen(self) -> int:
        """Buttons a person sees: displayed, in the window's height (the page scrolled to the table)."""
        return self.driver.execute_script("""
            return [...document.querySelectorAll('button, [role=button]')].filter((b) => {
              const r = b.getBoundingClientRect();
              return r.width > 0 && r.height > 0 && getComputedStyle(b).visibility !== 'hidden';
            }).length""")

    def table_and_hand(self) -> dict:
        """How the table and the hand fit the window: the height from the table's top (its title)
        to the moves under the hand, the hand's cards' left and right edges, the window's size."""
        return self.driver.execute_script("""
            document.getElementById('table').scrollIntoView();
            const board = document.getElementById('table').getBoundingClientRect();
            const moves = document.querySelector('.action-bar').getBoundingClientRect();
            const cards = [...document.querySelectorAll('#hand [role=option]')].map((c) => c.getBoundingClientRect());
            return {height: moves.bottom - board.top, right: Math.max(...cards.map((c) => c.right)),
                    left: Math.min(...cards.map((c) => c.left)), window: [innerWidth, innerHeight]};""")

    def widths(self) -> tuple[int, int]:
        return tuple(self.driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"))

    def shot(self, moment: str) -> None:
        """A screenshot of this moment, once per game (``SCREENSHOTS``/NAME-MOMENT.png)."""
        if self.shots is None or moment in self.saved:
            return
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.shots}-{moment}.png"
        self.driver.save_screenshot(str(path))
        self.saved[moment] = path

    # -- doing -------------------------------------------------------------------

    def open(self, url: str) -> None:
        self.driver.get(url)
        self.wait("the connection", lambda d: self.text("#connection") == "Connected.")

    def log_in(self, name: str) -> None:
        self.find("#login-name").send_keys(name)
        self.find("#login-form button[type=submit]").click()
        self.wait("the lobby", lambda d: self.shown("#lobby") and self.text("#whoami") == f"You are {name}.")

    def command(self, line: str) -> None:
        """Type a line into the command line and press Enter."""
        from selenium.webdriver.common.keys import Keys

        box = self.find("#command-line")
        box.send_keys(line + Keys.ENTER)

    def click(self, css: str) -> None:
        self.find(css).click()

    def seats(self) -> list[str]:
        return [seat.text for seat in self.all("#seats .seat")]

    def play_to_the_end(self, timeout: float) -> str:
        """Play until the page says the game is over; its words."""
        self.wait("the end of the game", self._step, timeout)
        self.shot("end")
        return self.text("#game-over")

    def play_until(self, what: str, done: Callable[[], bool], timeout: float = STEP_TIMEOUT) -> None:
        """Play until ``done()``; failing if the game ends first."""
        self.wait(what, lambda d: done() or self._step(d), timeout)
        assert done(), f"the game ended before {what}"

    def _step(self, _driver) -> bool:
        """One look at the page: True once the game is over; else act if asked to, then False."""
        if self.shown("#game-over-box"):
            return True
        if self.shown("#hand [role=option]") and "deal" not in self.saved:
            self.shot("deal")
        if self.shown("#bomb"):
            self._bomb()
        elif not self._act(HAND):
            if self._act(SECOND_HAND):
                self.turns_seen.add(self.text("#announce"))
        return False

    def _act(self, hand: HandParts) -> bool:
        """What ``hand`` is asked for, done if it is asked: True if something was done."""
        version = self.find("#legal").get_attribute("data-version")
        if self.shown(hand.exchange):
            self._exchange(hand)
        elif self.find(hand.play).text == "Pick cards to play":
            if not self._play(hand):
                return False
        else:
            moves = {button.get_attribute("title"): button for button in self.all(f"{hand.moves} button.move")
                     if button.is_displayed()}
            choice = next((line for prefix in PREFERENCE for line in moves
                           if re.sub(r"^/(dummy|second) ", "/", line).startswith(prefix)), None)
            if choice is None and f"{hand.prefix}wish-send" in {b.get_attribute("data-key") for b in moves.values()}:
                choice = "/wish RANK"
            if choice is None:
                return False
            if hand is SECOND_HAND:
                self.second_moves.append(choice)
            moves[choice].click()
        self.clicks += 1
        self._moved(version)
        return True

    def _exchange(self, hand: HandParts) -> None:
        """The highest cards of the hand on the places (a bomb among the low ones stays), then pass."""
        self.shot("exchange")
        picked = []
        for _ in range(4):  # each click draws the hand again: look it up anew each time
            send = self.find(hand.send)
            if send.is_enabled():
                break
            cards = self.all(f"{hand.cards} [role=option]")
            picked.append(cards[-1].get_attribute("data-code"))
            cards[-1].click()
            self.cards_clicked += 1
        if hand is SECOND_HAND:
            self.second_exchanges.append(" ".join(picked))
        self.find(hand.send).click()
        self.wait("the exchange sent", lambda d: not self.shown(hand.exchange))

    def _play(self, hand: HandParts) -> bool:
        """The cards of the first suggestion clicked in the hand, then the Play button (a Phoenix's
        reading, if asked); or Pass when nothing is suggested. False while the suggestions are not in."""
        suggested = [button.get_attribute("title") for button in self.all(f"{hand.suggest} button.suggestion")]
        passing = self.all(f"{hand.moves} button.move[title$='pass']")
        if not suggested and self.find(hand.suggest_box).get_attribute("data-answered") != "true":
            return False  # asked for: not in yet
        if hand is HAND and self.find("#announce").text.startswith("Your turn: lead"):
            self.lead_buttons.append(self.buttons_on_screen())
            self.overflow.append(self.widths())
            self.fits.append(self.table_and_hand())
            self.shot("lead")
        if not suggested:
            if not passing:
                return False
            if hand is SECOND_HAND:
                self.second_moves.append(passing[0].get_attribute("title"))
            passing[0].click()
            return True
        codes = re.sub(r"^/(dummy|second) ", "/", suggested[0]).split()[1:]
        for code in codes:
            plain = "PH" if code.upper().startswith("PH") else code
            self.find(f"{hand.cards} [data-code='{plain}']").click()
            self.cards_clicked += 1
        self.wait("the check of the selection", lambda d: self.find(hand.play).text != "Checking…"
                  and (self.find(hand.play).is_enabled() or self.shown(hand.readings)))
        self.labels.add(self.find(hand.play).text)
        if self.shown(hand.readings):
            self.find(f"{hand.readings} button").click()
        else:
            if hand is SECOND_HAND:
                self.second_moves.append(self.find(hand.play).get_attribute("data-line"))
            self.find(hand.play).click()
        self.plays += 1
        return True

    def _bomb(self) -> None:
        self.shot("bomb")
        version = self.find("#legal").get_attribute("data-version")
        self.find("#bomb").click()
        self.bombs += 1
        self.clicks += 1
        self.wait("the bomb played", lambda d: not self.shown("#bomb") or self.shown("#game-over-box"))
        self.shot("bombed")
        del version

    def _moved(self, version: str | None) -> None:
        """Wait until the page has taken in the server's answer to a move (a new or cleared
        legal list: the move was made, or refused and the list asked for again)."""
        self.wait("the answer to a move", lambda d: self.shown("#game-over-box")
                  or self.find("#legal").get_attribute("data-version") != version)


class HandParts:
    """The page's parts for one hand we play: our own, or the second one (Trichu's dummy, Duo)."""

    def __init__(self, cards: str, play: str, readings: str, moves: str, exchange: str, send: str, prefix: str,
                 suggest: str, suggest_box: str):
        self.cards, self.play, self.readings, self.moves = cards, play, readings, moves
        self.exchange, self.send, self.prefix = exchange, send, prefix
        self.suggest, self.suggest_box = suggest, suggest_box


HAND = HandParts("#hand", "#play-selected", "#readings", "#legal", "#exchange", "#send-exchange", "",
                 "#suggest", "#suggest-box")
SECOND_HAND = HandParts("#second-hand", "#second-play", "#second-readings", "#dummy-legal", "#second-exchange",
                        "#send-second-exchange", "dummy-", "#second-suggest", "#second-suggest")


def open_table(person: PagePlayer, variant: str, rounds: str = "", level: str = "random") -> None:
    """The lobby's new-table form: the variant, the rounds (empty: to 1000), bots of ``level`` in
    every free seat; waits until every seat is taken."""
    from selenium.webdriver.support.ui import Select

    Select(person.find("#new-variant")).select_by_value(variant)
    person.find("#new-rounds").clear()
    if rounds:
        person.find("#new-rounds").send_keys(rounds)
    Select(person.find("#new-bots")).select_by_value("fill")
    Select(person.find("#new-bot-level")).select_by_value(level)
    person.click("#new-table")
    person.wait("every seat taken", lambda d: person.shown("#table") and len(person.seats()) >= 2
                and not any("(free)" in seat for seat in person.seats()))


AXE = Path(__file__).resolve().parent / "web" / "node_modules" / "axe-core" / "axe.min.js"
#: why the accessibility audit cannot run here, or None
AXE_MISSING = MISSING or (None if AXE.is_file() else
                          "needs axe-core (cd tests/web && npm ci; Debian package npm)")


def audit(driver) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now: [{id, help, nodes}]."""
    driver.execute_script(AXE.read_text("utf-8"))
    driver.set_script_timeout(STEP_TIMEOUT)
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ["violations"]}).then(
          (result) => done(result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" "))}))),
          (error) => done([{id: "axe", help: String(error), nodes: []}]));""")
