"""A person at the web page, played by a headless Chromium through Selenium.

Blocking calls: a test runs them in a thread (the server answers in the reactor's). Every
wait has a timeout (`STEP_TIMEOUT`); `play_to_the_end` plays by clicking what the page
offers: the legal-move buttons (from ``Tichu.Legal``), and for the exchange three cards of
the hand and the page's "pass these three cards" button.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
from collections.abc import Callable

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
#: the order a simple player takes the offered moves in: play on, call nothing
PREFERENCE = ("/play", "/pass", "/wish", "/give", "/nogrand")


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
    ``trusted_pem``: a self-signed certificate it accepts (for https: and wss:)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if trusted_pem is not None:
        options.add_argument(f"--ignore-certificate-errors-spki-list={spki_pin(trusted_pem)}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(STEP_TIMEOUT)
    return driver


class PagePlayer:
    """Drives the page in ``driver``; each method waits (with a timeout) for what it expects."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.clicks = 0
        self.composed = 0  # plays made by selecting cards and "Play the selected cards"

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
            raise AssertionError(f"the page did not show {what} within {timeout} s; its log ends:\n"
                                 + self.log_text()[-3000:]) from None

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
        return self.driver.execute_script("return document.getElementById('log').innerText") or ""

    def console_errors(self) -> list[str]:
        """What the browser's console reported as errors (script errors, CSP refusals)."""
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

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
        """Click the offered moves until the page says the game is over; its words."""
        self.wait("the end of the game", self._step, timeout)
        return self.text("#game-over")

    def play_until(self, what: str, done: Callable[[], bool], timeout: float = STEP_TIMEOUT) -> None:
        """Click the offered moves until ``done()``; failing if the game ends first."""
        self.wait(what, lambda d: done() or self._step(d), timeout)
        assert done(), f"the game ended before {what}"

    def _step(self, _driver) -> bool:
        """One look at the page: True once the game is over; else act if asked to, then False."""
        if self.shown("#game-over"):
            return True
        version = self.find("#legal").get_attribute("data-version")
        if self.shown("#exchange"):
            for _ in range(3):  # each click draws the hand again: look it up anew each time
                cards = self.all("#hand button.card")
                free = [card for card in cards if card.get_attribute("aria-pressed") != "true"]
                if len(cards) - len(free) >= 3 or not free:
                    break
                free[0].click()
            send = self.find("#send-exchange")
            if send.is_enabled():
                send.click()
                self.clicks += 1
                self._moved(version)
            return False
        moves = {button.get_attribute("title"): button for button in self.all("#legal button.move")}
        choice = next((line for prefix in PREFERENCE for line in moves if line.startswith(prefix)), None)
        if choice is not None and not self.composed and re.fullmatch(r"/play( \w\w)+", choice):
            # once, the same play by hand: its cards selected, then "Play the selected cards"
            for code in choice.split()[1:]:
                self.find(f"#hand button[data-key='card-{code}']").click()
            self.find("#play-selected").click()
            self.composed += 1
            self.clicks += 1
            self._moved(version)
            return False
        if choice is not None:
            moves[choice].click()
            self.clicks += 1
            self._moved(version)
        return False

    def _moved(self, version: str | None) -> None:
        """Wait until the page has taken in the server's answer to a move (a new or cleared
        legal list: the move was made, or refused and the list asked for again)."""
        self.wait("the answer to a move", lambda d: self.shown("#game-over")
                  or self.find("#legal").get_attribute("data-version") != version)
